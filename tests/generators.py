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


def hexiom_valid(side: int, puzzle_text: str, rows: list) -> bool:
    """Independent check of a solved Hexiom board (rows as pzc prints them)."""
    def parse(lines):
        values, locked = {}, set()
        for r, line in enumerate(lines):
            i, k = 0, 0
            while i < len(line):
                ch = line[i]
                if ch == " ":
                    i += 1
                    continue
                lock = ch == "+"
                if lock:
                    i += 1
                    ch = line[i]
                if lock:
                    locked.add((r, k))
                if ch != ".":
                    values[(r, k)] = int(ch)
                k += 1
                i += 1
        return values, locked
    pv, pl = parse(puzzle_text.splitlines()[1:])
    sv, sl = parse(rows)
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
