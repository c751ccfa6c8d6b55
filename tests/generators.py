"""Puzzle instances the tests make themselves (nothing copied from ../shared).

Each generator builds a solution first and derives the puzzle from it, so the
puzzle is solvable by construction; uniqueness is not promised.
"""

from __future__ import annotations

import json
import random

BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ------------------------------------------------------------------ Sudoku

def sudoku_solution(b: int, rng: random.Random) -> list:
    """A random valid n x n Sudoku grid (n = b*b) as a list of rows of ints."""
    n = b * b
    base = [[(b * (r % b) + r // b + c) % n + 1 for c in range(n)] for r in range(n)]
    bands = list(range(b))
    rng.shuffle(bands)
    rows = [band * b + r for band in bands for r in rng.sample(range(b), b)]
    stacks = list(range(b))
    rng.shuffle(stacks)
    cols = [stack * b + c for stack in stacks for c in rng.sample(range(b), b)]
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    return [[relabel[base[r][c] - 1] for c in cols] for r in rows]


def sudoku_puzzle(b: int, keep: float, rng: random.Random) -> tuple:
    """(puzzle rows as text, solution rows) with about ``keep`` of the cells given."""
    sol = sudoku_solution(b, rng)
    rows = ["".join(BASE36[v] if rng.random() < keep else "." for v in row) for row in sol]
    return rows, sol


def sudoku_valid(rows: list, puzzle: list) -> bool:
    """An independent check of a solved Sudoku (rows of symbols) against its puzzle."""
    n = len(rows)
    b = int(round(n ** 0.5))
    grid = [[BASE36.index(ch) for ch in row] for row in rows]
    want = set(range(1, n + 1))
    if any(len(row) != n for row in grid):
        return False
    units = [row for row in grid] + [[grid[r][c] for r in range(n)] for c in range(n)]
    units += [[grid[br + i][bc + j] for i in range(b) for j in range(b)]
              for br in range(0, n, b) for bc in range(0, n, b)]
    if any(set(u) != want for u in units):
        return False
    return all(p == "." or p == s for prow, srow in zip(puzzle, rows) for p, s in zip(prow, srow))


# ------------------------------------------------------------------ Hexiom

def hex_cells(side: int) -> list:
    rows = 2 * side - 1
    return [(r, i) for r in range(rows) for i in range(2 * side - 1 - abs(side - 1 - r))]


def hex_neighbours(side: int, cell) -> list:
    def doubled(c):
        r, i = c
        return r, abs(side - 1 - r) + 2 * i
    cells = set(hex_cells(side))
    r, x = doubled(cell)
    out = []
    for c in cells:
        rr, xx = doubled(c)
        if (rr == r and abs(xx - x) == 2) or (abs(rr - r) == 1 and abs(xx - x) == 1):
            out.append(c)
    return out


def hexiom_level(side: int, density: float, locks: int, rng: random.Random) -> str:
    """A solvable Hexiom level in slowfrog's text layout."""
    cells = hex_cells(side)
    full = {c for c in cells if rng.random() < density}
    number = {c: sum(d in full for d in hex_neighbours(side, c)) for c in full}
    locked = set(rng.sample(cells, min(locks, len(cells))))
    shown = {c: number[c] for c in full if c in locked}
    free_cells = [c for c in cells if c not in locked]
    tiles = [number[c] for c in full if c not in locked]
    spots = rng.sample(free_cells, len(tiles))
    for c, t in zip(spots, tiles):
        shown[c] = t
    return hex_text(side, shown, locked)


def hex_text(side: int, values: dict, locked: set) -> str:
    lines = [str(side)]
    for r in range(2 * side - 1):
        n = 2 * side - 1 - abs(side - 1 - r)
        parts = []
        for i in range(n):
            c = (r, i)
            v = values.get(c)
            parts.append(("+" if c in locked else " ") + ("." if v is None else str(v)))
        lines.append(" " * abs(side - 1 - r) + "".join(parts))
    return "\n".join(lines) + "\n"


def hexiom_parse(lines: list) -> tuple:
    """Hexiom rows as pzc prints them -> ({(row, k): number}, locked cells)."""
    values, locked = {}, set()
    for r, line in enumerate(lines):
        i, k = 0, 0
        while i < len(line):
            ch = line[i]
            if ch == " ":
                i += 1
                continue
            if ch == "+":
                locked.add((r, k))
                i += 1
                ch = line[i]
            if ch != ".":
                values[(r, k)] = int(ch)
            k += 1
            i += 1
    return values, locked


def hexiom_valid(side: int, puzzle_text: str, rows: list) -> bool:
    """Independent check of a solved Hexiom board (rows as pzc prints them)."""
    pv, pl = hexiom_parse(puzzle_text.splitlines()[1:])
    sv, sl = hexiom_parse(rows)
    if pl != sl:
        return False
    if any(pv.get(c) != sv.get(c) for c in pl):
        return False
    if sorted(v for c, v in pv.items() if c not in pl) != sorted(v for c, v in sv.items() if c not in sl):
        return False
    return all(v == sum(d in sv for d in hex_neighbours(side, c)) for c, v in sv.items())


# ------------------------------------------------------------------ Puzlogic

def puzlogic_level(size: int, holes: int, sums: int, rng: random.Random, low: int = 1) -> dict:
    """A solvable Puzlogic level: a Latin-square-ish board with cells removed.
    The values are low..low+size-1 (low=0 gives pieces of value 0)."""
    values = list(range(low, low + size))
    grid = [[values[(r + c) % size] for c in range(size)] for r in range(size)]
    rng.shuffle(grid)
    cells = [(r, c) for r in range(size) for c in range(size) if rng.random() < 0.7]
    open_cells = rng.sample(cells, min(holes, len(cells)))
    board = [[r, c, -1 if (r, c) in open_cells else grid[r][c]] for r, c in cells]
    pieces = sorted(grid[r][c] for r, c in open_cells)
    constraints = []
    for _ in range(sums):
        dim = rng.randrange(2)
        idx = rng.randrange(size)
        target = sum(grid[r][c] for r, c in cells if (r, c)[dim] == idx)
        constraints.append([dim, idx, target])
    return {"board": board, "pieces": pieces, "sum_constraints": constraints}


def puzlogic_valid(level: dict, moves: list) -> bool:
    """Independent check of a Puzlogic answer given as [{"piece", "to"}] moves."""
    value = {(r, c): v for r, c, v in level["board"]}
    if sorted(m["piece"] for m in moves) != sorted(level["pieces"]):
        return False
    for m in moves:
        cell = tuple(m["to"])
        if value.get(cell) != -1:
            return False
        value[cell] = m["piece"]
    placed = {c: v for c, v in value.items() if v != -1}
    for dim in (0, 1):
        lines = {}
        for c, v in placed.items():
            lines.setdefault(c[dim], []).append(v)
        if any(len(vs) != len(set(vs)) for vs in lines.values()):
            return False
    for dim, idx, target in level.get("sum_constraints", []):
        if sum(v for c, v in placed.items() if c[dim] == idx) != target:
            return False
    return True


def dumps(level: dict) -> str:
    return json.dumps(level, indent=1) + "\n"


# ------------------------------------------------------------------ Model IR

def ir_value(x, assignment: dict):
    """The value of a model formula or term under ``assignment`` (Var -> value).

    A plain recursive reading of the IR of pzc.encoder.model, written apart from
    the CNF and SMT encoders so that both can be compared with it.  A Cases term
    must have exactly one true condition."""
    from pzc.encoder.model import Cases, LinExpr, Node, Var

    t = type(x)
    if t is bool or t is int or t is str or t is tuple:
        return x
    if t is Var:
        return assignment[x]
    if t is LinExpr:
        return x.const + sum(c * _as_int(ir_value(a, assignment)) for a, c in x.terms.items())
    if t is Cases:
        hits = [v for c, v in x.pairs if ir_value(c, assignment)]
        if len(hits) != 1:
            raise AssertionError(f"{len(hits)} conditions of {x!r} hold")
        return hits[0]
    if t is not Node:
        raise TypeError(x)
    k, args = x.kind, x.args
    if k == "true":
        return True
    if k == "false":
        return False
    if k == "bvar":
        return bool(assignment[args[0]])
    if k == "eq":
        return assignment[args[0]] == args[1]
    if k == "not":
        return not ir_value(args[0], assignment)
    if k == "and":
        return all(ir_value(y, assignment) for y in args)
    if k == "or":
        return any(ir_value(y, assignment) for y in args)
    if k == "iff":
        return ir_value(args[0], assignment) == ir_value(args[1], assignment)
    if k == "lin":
        items, op, bound = args
        total = sum(c * _as_int(ir_value(a, assignment)) for c, a in items)
        return {"<=": total <= bound, ">=": total >= bound, "=": total == bound}[op]
    if k == "same":
        return ir_value(args[0], assignment) == ir_value(args[1], assignment)
    if k == "distinct":
        values = [ir_value(y, assignment) for y in args]
        return len(set(values)) == len(values)
    raise AssertionError(f"unknown node kind {k}")


def _as_int(v) -> int:
    return int(v) if type(v) is bool else v


# ------------------------------------------------------------------ grids

def _neighbours(cell, w, h):
    r, c = cell
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < h and 0 <= cc < w:
            yield (rr, cc)


def _components(cells, adjacent) -> list:
    """Connected groups of ``cells`` (a set) under ``adjacent(x)`` -> iterable."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        group = {start}
        stack = [start]
        while stack:
            x = stack.pop()
            for y in adjacent(x):
                if y in left:
                    left.remove(y)
                    group.add(y)
                    stack.append(y)
        out.append(group)
    return out


def _strip_comments(text: str) -> list:
    """The lines of an instance without '# ' comments and blank lines."""
    return [l for l in text.splitlines() if l.strip() and not l.startswith("# ")
            and l.strip() != "#"]


# ------------------------------------------------------------------ Numberlink

NUMBERLINK_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _touches(p: list, q: list) -> bool:
    """Joining path p (ending at p[-1]) to path q (starting at q[0]) would put
    two non-consecutive cells of the new path side by side."""
    qset = {x: i for i, x in enumerate(q)}
    for i, x in enumerate(p):
        r, c = x
        for y in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            j = qset.get(y)
            if j is not None and not (i == len(p) - 1 and j == 0):
                return True
    return False


def numberlink_solution(w: int, h: int, rng: random.Random, most: int | None = None) -> list:
    """Rows of labels covering a w x h board with paths that never touch
    themselves, each of at least two cells.

    Every cell starts as a path of its own; ends of different paths that are
    neighbours are joined at random while the joined path stays
    self-avoiding, until no cell is alone and there are at most ``most`` paths
    (default: about one per 5 cells) or nothing more can be joined."""
    if most is None:
        most = max(2, (w * h) // 5)
    for _ in range(1000):
        paths = {i: [(r, c)] for i, (r, c) in enumerate((r, c) for r in range(h) for c in range(w))}
        owner = {p[0]: i for i, p in paths.items()}
        while True:
            singles = sum(1 for p in paths.values() if len(p) == 1)
            if singles == 0 and len(paths) <= most:
                break
            ends = [(i, x) for i, p in paths.items() for x in {p[0], p[-1]}]
            rng.shuffle(ends)
            # prefer joining the cells that are still alone
            ends.sort(key=lambda e: len(paths[e[0]]) != 1)
            joined = False
            for i, x in ends:
                p = paths[i]
                nbrs = list(_neighbours(x, w, h))
                rng.shuffle(nbrs)
                for y in nbrs:
                    j = owner[y]
                    if j == i:
                        continue
                    q = paths[j]
                    if y not in (q[0], q[-1]):
                        continue
                    a = p if p[-1] == x else p[::-1]
                    b = q if q[0] == y else q[::-1]
                    if _touches(a, b):
                        continue
                    paths[i] = a + b
                    del paths[j]
                    for z in b:
                        owner[z] = i
                    joined = True
                    break
                if joined:
                    break
            if not joined:
                break
        if any(len(p) == 1 for p in paths.values()) or len(paths) > len(NUMBERLINK_LABELS):
            continue
        grid = [[""] * w for _ in range(h)]
        for label, p in zip(NUMBERLINK_LABELS, paths.values()):
            for r, c in p:
                grid[r][c] = label
        return ["".join(row) for row in grid]
    raise RuntimeError("no numberlink solution found")


def numberlink_puzzle(w: int, h: int, rng: random.Random, most: int | None = None) -> tuple:
    """(instance text "W H" + rows, solution rows): only the ends are kept."""
    sol = numberlink_solution(w, h, rng, most)
    cells = {}
    for r, row in enumerate(sol):
        for c, ch in enumerate(row):
            cells.setdefault(ch, []).append((r, c))
    ends = set()
    for label, group in cells.items():
        for x in group:
            same = sum(1 for y in _neighbours(x, w, h) if sol[y[0]][y[1]] == label)
            if same == 1:
                ends.add(x)
    rows = ["".join(ch if (r, c) in ends else "." for c, ch in enumerate(row))
            for r, row in enumerate(sol)]
    assert numberlink_valid(f"{w} {h}\n" + "\n".join(rows) + "\n", sol)
    return f"{w} {h}\n" + "\n".join(rows) + "\n", sol


def numberlink_read(text: str) -> tuple:
    """(w, h, rows) of one numberlink instance text."""
    lines = _strip_comments(text)
    w, h = map(int, lines[0].split())
    rows = [l.strip() for l in lines[1:1 + h]]
    return w, h, rows


def numberlink_valid(puzzle_text: str, rows: list) -> bool:
    """Independent check of a Numberlink answer (rows of labels).

    The ends are kept, every cell has a label of the puzzle, and the cells of
    each label are one simple path between its two ends: the ends have exactly
    one neighbour of their label, the other cells exactly two, and the cells
    are connected; counting every same-label neighbour also rules out a path
    that touches itself."""
    w, h, puzzle = numberlink_read(puzzle_text)
    if len(rows) != h or any(len(r) != w for r in rows):
        return False
    ends = {}
    for r in range(h):
        for c in range(w):
            ch = puzzle[r][c]
            if ch != ".":
                ends.setdefault(ch, []).append((r, c))
                if rows[r][c] != ch:
                    return False
    if any(len(v) != 2 for v in ends.values()):
        return False
    cells = {}
    for r in range(h):
        for c in range(w):
            ch = rows[r][c]
            if ch not in ends:
                return False
            cells.setdefault(ch, set()).add((r, c))
    for label, group in cells.items():
        for x in group:
            same = sum(1 for y in _neighbours(x, w, h) if y in group)
            if same != (1 if x in ends[label] else 2):
                return False
        if len(_components(group, lambda x: _neighbours(x, w, h))) != 1:
            return False
        # no 2x2 block of one label (implied by the above; checked anyway)
        for r, c in group:
            if {(r, c + 1), (r + 1, c), (r + 1, c + 1)} <= group:
                return False
    return True


# ------------------------------------------------------------------ Nurikabe

def nurikabe_solution(w: int, h: int, rng: random.Random, largest: int = 9,
                      spread: float = 0.3) -> list:
    """A solved Nurikabe board as rows of ints: 0 for sea, island ids from 1.

    Starting from an all-sea board, cells become land one at a time: a cell
    of a 2x2 pool (or, with probability ``spread``, any sea cell), so long as
    it joins at most one island, keeps islands at most ``largest`` cells and
    leaves the sea connected; done when no 2x2 pool is left."""
    cells = [(r, c) for r in range(h) for c in range(w)]

    def sea_connected(sea):
        return len(_components(sea, lambda x: _neighbours(x, w, h))) <= 1

    for _ in range(1000):
        island = {}          # land cell -> island id
        members = {}
        sea = set(cells)
        next_id = 1
        while True:
            pools = {x for r in range(h - 1) for c in range(w - 1)
                     if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= sea
                     for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))}
            if not pools:
                break
            pick = sorted(sea if rng.random() < spread else pools)
            rng.shuffle(pick)
            placed = False
            for x in pick:
                ids = {island[y] for y in _neighbours(x, w, h) if y in island}
                if len(ids) > 1:
                    continue
                if ids and len(members[next(iter(ids))]) >= largest:
                    continue
                if not sea_connected(sea - {x}):
                    continue
                if ids:
                    k = next(iter(ids))
                else:
                    k = next_id
                    next_id += 1
                    members[k] = set()
                island[x] = k
                members[k].add(x)
                sea.discard(x)
                placed = True
                break
            if not placed:
                break
        if pools:
            continue
        return [[island.get((r, c), 0) for c in range(w)] for r in range(h)]
    raise RuntimeError("no nurikabe solution found")


def nurikabe_puzzle(w: int, h: int, rng: random.Random, unknown: float = 0.0,
                    largest: int = 9) -> str:
    """A Nurikabe instance (whitespace-separated tokens): one clue per island
    of a made solution, its size, or '?' with probability ``unknown``."""
    sol = nurikabe_solution(w, h, rng, largest)
    members = {}
    for r in range(h):
        for c in range(w):
            if sol[r][c]:
                members.setdefault(sol[r][c], []).append((r, c))
    clue = {}
    for k, group in members.items():
        x = rng.choice(sorted(group))
        clue[x] = "?" if rng.random() < unknown else str(len(group))
    text = "\n".join(" ".join(clue.get((r, c), ".") for c in range(w)) for r in range(h)) + "\n"
    answer = [" ".join(clue.get((r, c), "#" if sol[r][c] == 0 else ".") for c in range(w))
              for r in range(h)]
    assert nurikabe_valid(text, answer)
    return text


def board_rows(tokens: list) -> list:
    """Rows of cell tokens as pzc prints them: spaced only when a token is
    wider than one character."""
    sep = " " if any(len(t) > 1 for row in tokens for t in row) else ""
    return [sep.join(row) for row in tokens]


def board_cells(rows: list) -> list:
    """The cells of printed rows: characters, or tokens when the board is spaced
    (pzc spaces the cells of a board where a token is longer than one character)."""
    spaced = any(" " in row for row in rows)
    return [row.split() if spaced else list(row) for row in rows]


def nurikabe_valid(puzzle_text: str, rows: list) -> bool:
    """Independent check of a Nurikabe answer: rows of tokens, '#' for sea.

    Clues kept and never sea, other cells '.' or '#'; every island holds
    exactly one clue and, unless the clue is '?', that many cells; the sea is
    connected and has no 2x2 block."""
    puzzle = [l.split() for l in _strip_comments(puzzle_text)]
    answer = board_cells(rows)
    h = len(puzzle)
    w = len(puzzle[0]) if h else 0
    if len(answer) != h or any(len(r) != w for r in answer + puzzle):
        return False
    sea, land = set(), set()
    for r in range(h):
        for c in range(w):
            p, a = puzzle[r][c], answer[r][c]
            if p != ".":
                if a != p:
                    return False
                land.add((r, c))
            elif a == "#":
                sea.add((r, c))
            elif a == ".":
                land.add((r, c))
            else:
                return False
    adj = lambda x: _neighbours(x, w, h)  # noqa: E731
    for group in _components(land, adj):
        clues = [puzzle[r][c] for r, c in group if puzzle[r][c] != "."]
        if len(clues) != 1:
            return False
        if clues[0] != "?" and int(clues[0]) != len(group):
            return False
    if len(_components(sea, adj)) > 1:
        return False
    for r in range(h - 1):
        for c in range(w - 1):
            if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= sea:
                return False
    return True


# ------------------------------------------------------------------ Slitherlink

def _cell_sides(cell) -> list:
    """The four sides of a cell as pairs of dots (row, col) of the lattice."""
    r, c = cell
    return [((r, c), (r, c + 1)), ((r, c), (r + 1, c)),
            ((r, c + 1), (r + 1, c + 1)), ((r + 1, c), (r + 1, c + 1))]


def _boundary(region: set) -> set:
    """The sides that separate a cell of ``region`` from a cell outside it."""
    out = set()
    for x in region:
        for s in _cell_sides(x):
            out ^= {s}
    return out


def _is_one_loop(segments: set) -> bool:
    degree = {}
    for a, b in segments:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    if not segments or any(d != 2 for d in degree.values()):
        return False
    by_dot = {}
    for s in segments:
        for d in s:
            by_dot.setdefault(d, []).append(s)
    return len(_components(segments, lambda s: by_dot[s[0]] + by_dot[s[1]])) == 1


def slitherlink_loop(w: int, h: int, rng: random.Random, fill: float = 0.5) -> set:
    """A random loop: the boundary of a region grown cell by cell from one
    cell, a neighbour joining only when the boundary stays one simple loop,
    up to about ``fill`` of the board."""
    target = max(2, int(round(fill * w * h)))
    for _ in range(1000):
        start = (rng.randrange(h), rng.randrange(w))
        region = {start}
        while len(region) < target:
            frontier = sorted({y for x in region for y in _neighbours(x, w, h)} - region)
            rng.shuffle(frontier)
            for y in frontier:
                if _is_one_loop(_boundary(region | {y})):
                    region.add(y)
                    break
            else:
                break
        loop = _boundary(region)
        if len(region) >= 2 and _is_one_loop(loop):
            return loop
    raise RuntimeError("no slitherlink loop found")


def slitherlink_puzzle(w: int, h: int, rng: random.Random, keep: float = 0.6,
                       fill: float = 0.5) -> str:
    """A Slitherlink instance: the side counts of a random loop, each shown
    with probability ``keep`` (a 4 is never shown)."""
    loop = slitherlink_loop(w, h, rng, fill)
    rows = []
    for r in range(h):
        row = ""
        for c in range(w):
            n = sum(1 for s in _cell_sides((r, c)) if s in loop)
            row += str(n) if n < 4 and rng.random() < keep else "."
        rows.append(row)
    text = "\n".join(rows) + "\n"
    assert slitherlink_valid(text, slitherlink_lattice(w, h, loop, rows))
    return text


def slitherlink_lattice(w: int, h: int, loop: set, clues: list) -> list:
    """The answer as pzc prints it: 2H+1 rows of 2W+1 characters."""
    out = []
    for R in range(2 * h + 1):
        line = ""
        for C in range(2 * w + 1):
            if R % 2 == 0 and C % 2 == 0:
                line += "+"
            elif R % 2 == 0:
                line += "-" if ((R // 2, C // 2), (R // 2, C // 2 + 1)) in loop else " "
            elif C % 2 == 0:
                line += "|" if ((R // 2, C // 2), (R // 2 + 1, C // 2)) in loop else " "
            else:
                ch = clues[R // 2][C // 2]
                line += " " if ch == "." else ch
        out.append(line)
    return out


def slitherlink_valid(puzzle_text: str, rows: list) -> bool:
    """Independent check of a Slitherlink answer drawn on the dot lattice:
    '+' at the dots, '-' / '|' or ' ' between them, the clues (or ' ') at
    the cell centres; every dot has 0 or 2 segments, the segments form exactly
    one loop, and each clue counts the loop's sides around its cell."""
    puzzle = [l.strip() for l in _strip_comments(puzzle_text)]
    h = len(puzzle)
    w = len(puzzle[0]) if h else 0
    if any(len(r) != w for r in puzzle):
        return False
    if len(rows) != 2 * h + 1 or any(len(r) != 2 * w + 1 for r in rows):
        return False
    loop = set()
    for R, line in enumerate(rows):
        for C, ch in enumerate(line):
            if R % 2 == 0 and C % 2 == 0:
                if ch != "+":
                    return False
            elif R % 2 == 0:
                if ch == "-":
                    loop.add(((R // 2, C // 2), (R // 2, C // 2 + 1)))
                elif ch != " ":
                    return False
            elif C % 2 == 0:
                if ch == "|":
                    loop.add(((R // 2, C // 2), (R // 2 + 1, C // 2)))
                elif ch != " ":
                    return False
            else:
                want = puzzle[R // 2][C // 2]
                if ch != (" " if want == "." else want):
                    return False
    if not _is_one_loop(loop):
        return False
    for r in range(h):
        for c in range(w):
            ch = puzzle[r][c]
            if ch != "." and sum(1 for s in _cell_sides((r, c)) if s in loop) != int(ch):
                return False
    return True


# ------------------------------------------------------------------ reference solvers
# Small, slow and written apart from pzc: they decide whether an instance has
# an answer at all, so that "unsat" from pzc can be checked too.

def numberlink_reference(puzzle_text: str, solver: str = "glucose4") -> tuple:
    """(status, rows) of a Numberlink instance by an encoding of its own: a
    colour per cell, "same colour" per pair of neighbours, exactly one
    same-coloured neighbour at an end and two elsewhere; a group of one colour
    holding no end is cut off after each model until none is left.  Uses
    PySAT directly, none of pzc's encoder."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    w, h, rows = numberlink_read(puzzle_text)
    pool = IDPool()
    labels = sorted({ch for r in rows for ch in r if ch != "."})
    cells = [(r, c) for r in range(h) for c in range(w)]
    col = {(x, k): pool.id(("colour", x, k)) for x in cells for k in labels}
    clauses = []
    for x in cells:
        clauses.append([col[x, k] for k in labels])
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                clauses.append([-col[x, a], -col[x, b]])
        ch = rows[x[0]][x[1]]
        if ch != ".":
            clauses.append([col[x, ch]])
    same = {}
    for x in cells:
        for y in _neighbours(x, w, h):
            if x < y:
                s = pool.id(("same", x, y))
                same[x, y] = same[y, x] = s
                for k in labels:
                    clauses.append([-col[x, k], -col[y, k], s])
                    clauses.append([-s, -col[x, k], col[y, k]])
    for x in cells:
        lits = [same[x, y] for y in _neighbours(x, w, h)]
        want = 1 if rows[x[0]][x[1]] != "." else 2
        if len(lits) < want:
            return "unsat", None
        clauses += CardEnc.equals(lits=lits, bound=want, vpool=pool,
                                  encoding=EncType.seqcounter).clauses
    with Solver(name=solver, bootstrap_with=clauses) as s:
        while s.solve():
            model = {l for l in s.get_model() if l > 0}
            colour = {x: k for x in cells for k in labels if col[x, k] in model}
            groups = _components(set(cells), lambda x: [y for y in _neighbours(x, w, h)
                                                        if colour[y] == colour[x]])
            stray = [g for g in groups if all(rows[r][c] == "." for r, c in g)]
            if not stray:
                return "solved", ["".join(colour[(r, c)] for c in range(w)) for r in range(h)]
            for g in stray:
                k = colour[next(iter(g))]
                rim = {y for x in g for y in _neighbours(x, w, h)} - g
                s.add_clause([-col[x, k] for x in g] + [col[y, k] for y in rim])
    return "unsat", None


def nurikabe_brute(puzzle_text: str) -> str:
    """"solved" or "unsat" by trying every sea (tiny boards only)."""
    puzzle = [l.split() for l in _strip_comments(puzzle_text)]
    h, w = len(puzzle), len(puzzle[0])
    free = [(r, c) for r in range(h) for c in range(w) if puzzle[r][c] == "."]
    assert len(free) <= 16, "too big to try every answer"
    for mask in range(1 << len(free)):
        sea = {x for i, x in enumerate(free) if mask >> i & 1}
        rows = board_rows([["#" if (r, c) in sea else puzzle[r][c] for c in range(w)]
                           for r in range(h)])
        if nurikabe_valid(puzzle_text, rows):
            return "solved"
    return "unsat"


def slitherlink_brute(puzzle_text: str) -> str:
    """"solved" or "unsat" by trying every loop (tiny boards only): a loop
    is the boundary of the cells inside it, so every set of cells is tried."""
    puzzle = [l.strip() for l in _strip_comments(puzzle_text)]
    h, w = len(puzzle), len(puzzle[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    assert len(cells) <= 16, "too big to try every answer"
    for mask in range(1, 1 << len(cells)):
        loop = _boundary({x for i, x in enumerate(cells) if mask >> i & 1})
        if slitherlink_valid(puzzle_text, slitherlink_lattice(w, h, loop, puzzle)):
            return "solved"
    return "unsat"


# ------------------------------------------------------------------ plans (move puzzles)

# pzc's sliding goal order: the tiles 1-9, then A-Z, then the hole
SLIDING_TILES = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def bfs_order(start, successors, limit=None):
    """(state, distance) for every state reachable from ``start``, nearest
    first; ``successors(state)`` yields the states one move away.  With
    ``limit``, states more than ``limit`` moves away are not reached."""
    from collections import deque
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, dist = queue.popleft()
        yield state, dist
        if limit is not None and dist >= limit:
            continue
        for nxt in successors(state):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))


def bfs_distance(start, successors, done, limit=None):
    """The fewest moves from ``start`` to a state ``done`` accepts (None: none)."""
    return next((dist for state, dist in bfs_order(start, successors, limit) if done(state)),
                None)


def sliding_goal(h: int, w: int) -> str:
    """The default goal of an h x w sliding puzzle, in reading order."""
    return SLIDING_TILES[:h * w - 1] + "."


def sliding_slides(board: str, h: int, w: int):
    """(piece, from, to, next board) for every tile next to the hole; a board
    is a string in reading order with '.' for the hole."""
    hole = board.index(".")
    hr, hc = divmod(hole, w)
    for r, c in ((hr - 1, hc), (hr + 1, hc), (hr, hc - 1), (hr, hc + 1)):
        if 0 <= r < h and 0 <= c < w:
            nxt = list(board)
            nxt[hole], nxt[r * w + c] = board[r * w + c], "."
            yield board[r * w + c], (r, c), (hr, hc), "".join(nxt)


def sliding_next(h: int, w: int):
    """The successor function of h x w sliding boards, for bfs_order."""
    return lambda board: [nxt for *_, nxt in sliding_slides(board, h, w)]


def sliding_walk(h: int, w: int, steps: int, rng: random.Random, board: str | None = None) -> str:
    """A board ``steps`` random slides away from ``board`` (the goal by default)."""
    board = board or sliding_goal(h, w)
    for _ in range(steps):
        board = rng.choice(list(sliding_slides(board, h, w)))[3]
    return board


def sliding_solvable(board: str, goal: str, w: int) -> bool:
    """Whether ``goal`` can be reached: the permutation taking goal to board
    (the hole counted as a tile) has the parity of the hole's taxicab distance."""
    where = {p: i for i, p in enumerate(goal)}
    perm = [where[p] for p in board]
    swaps, seen = 0, set()
    for i in range(len(perm)):
        j, length = i, 0
        while j not in seen:
            seen.add(j)
            j = perm[j]
            length += 1
        swaps += max(length - 1, 0)
    a, b = divmod(board.index("."), w), divmod(goal.index("."), w)
    return (swaps + abs(a[0] - b[0]) + abs(a[1] - b[1])) % 2 == 0


def sliding_shuffle(h: int, w: int, rng: random.Random, solvable: bool = True,
                    goal: str | None = None) -> str:
    """A random permutation of the goal's tiles that is (or is not) solvable."""
    goal = goal or sliding_goal(h, w)
    while True:
        board = "".join(rng.sample(goal, len(goal)))
        if sliding_solvable(board, goal, w) == solvable:
            return board


def sliding_text(board: str, w: int, goal: str | None = None) -> str:
    """The instance text of a board (and a goal grid after one blank line)."""
    def grid(b):
        return "".join(b[i:i + w] + "\n" for i in range(0, len(b), w))
    return grid(board) + ("\n" + grid(goal) if goal is not None else "")


# beyond NUMBERLINK_LABELS: large boards cut into pieces need more labels
NUMBERLINK_MANY_LABELS = NUMBERLINK_LABELS + "!$%&*+-/:;<=>?@^_~" + "".join(map(chr, range(0xC0, 0x17F)))


def numberlink_large(width: int, height: int, rng: random.Random, sweeps: int = 2) -> tuple:
    """(instance text, solution rows) of a solvable Numberlink, made fast
    enough for large boards, where numberlink_solution's joining is too slow: a serpentine
    Hamiltonian path shuffled by backbite moves (``sweeps`` per cell), cut
    into pieces that never touch themselves, each of at least two cells; the
    pieces' ends are the clues."""
    while True:
        path = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
        for _ in range(sweeps * width * height):
            path = _backbite(path, width, height, rng)
        pieces = _induced_pieces(path)
        if pieces is not None and len(pieces) <= len(NUMBERLINK_MANY_LABELS):
            break
    grid = [["."] * width for _ in range(height)]
    sol = [[""] * width for _ in range(height)]
    for label, piece in zip(NUMBERLINK_MANY_LABELS, pieces):
        for r, c in (piece[0], piece[-1]):
            grid[r][c] = label
        for r, c in piece:
            sol[r][c] = label
    text = "\n".join([f"{width} {height}"] + ["".join(row) for row in grid]) + "\n"
    return text, ["".join(row) for row in sol]


def _backbite(path, width, height, rng):
    """One backbite move: join an end of the path to a random neighbour and
    reverse the part between (the path stays Hamiltonian)."""
    if rng.random() < 0.5:
        path = path[::-1]
    nxt = rng.choice(list(_neighbours(path[-1], width, height)))
    if nxt == path[-2]:
        return path
    i = path.index(nxt)
    return path[:i + 1] + path[i + 1:][::-1]


def _induced_pieces(path):
    """Cut a path where a cell would touch its piece; None if a piece is one cell."""
    pieces, piece, cells = [], [], set()
    touches = False
    for cell in path:
        touches = bool(piece) and any(n in cells and n != piece[-1]
                                      for n in _neighbours(cell, 10 ** 9, 10 ** 9))
        if touches:
            pieces.append(piece)
            piece, cells = [], set()
        piece.append(cell)
        cells.add(cell)
    if len(piece) == 1 and len(pieces[-1]) > 2:
        piece.insert(0, pieces[-1].pop())    # a lone last cell takes one from before
    pieces.append(piece)
    return None if any(len(p) < 2 for p in pieces) else pieces
