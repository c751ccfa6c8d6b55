"""Reference answers by brute force for the built-in specs with a board
answer (Sudoku, Hexiom, Puzlogic, Numberlink, Nurikabe, Slitherlink), and
the small boards they are computed on (CASES).

test_enumerate.py compares pzc's counts with them; test_dimacs.py,
test_unique.py, test_portfolio.py, test_backend_asp.py and fuzz.py reuse the
cases and the references.

    count(spec, text, **options)      api.count on one instance, checked counted
    reference(case_id, spec, text)    the brute force's set of boards (cached)
    case_text(case_id)                the instance text of one of CASES
    boards(spec, result)              pzc's solutions in the brute force's terms
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import generators as gen
from loading import spec
from pzc import api
from pzc.encoder.ground import board_option
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source


def instance(s, text, name="inst.txt"):
    if isinstance(s, str):
        s = spec(s)
    opt = board_option(s, "blank")
    blank = opt.value.value if opt is not None else "."
    lines = board_option(s, "lines") is not None
    inst, = read_instances(Source(name, text), s.board.kind, blank=blank, lines=lines)
    return inst


def count(s, text, name="inst.txt", **options):
    if isinstance(s, str):
        s = spec(s)
    res = api.count(s, instance(s, text, name), **options)
    assert res.error is None, res.error.message
    assert res.status == "counted", res.status
    return res


# ================================================================ brute force

# ---------------------------------------------------------------- Sudoku

def sudoku_brute(rows):
    """Every completion of a Sudoku (rows of '1'..'n' and '.'), by trying
    each symbol in each blank in turn and keeping the fillings that break
    no row, column or box."""
    n = len(rows)
    b = int(round(n ** 0.5))
    grid = [[0 if ch == "." else gen.BASE36.index(ch) for ch in row] for row in rows]
    blanks = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == 0]
    out = set()

    def ok(r, c):
        v = grid[r][c]
        for k in range(n):
            if k != c and grid[r][k] == v:
                return False
            if k != r and grid[k][c] == v:
                return False
        br, bc = r - r % b, c - c % b
        return all(grid[i][j] != v for i in range(br, br + b) for j in range(bc, bc + b)
                   if (i, j) != (r, c))

    if not all(ok(r, c) for r in range(n) for c in range(n) if grid[r][c]):
        return out

    def fill(i):
        if i == len(blanks):
            out.add(tuple("".join(gen.BASE36[v] for v in row) for row in grid))
            return
        r, c = blanks[i]
        for v in range(1, n + 1):
            grid[r][c] = v
            if ok(r, c):
                fill(i + 1)
        grid[r][c] = 0

    fill(0)
    return out


# ---------------------------------------------------------------- Hexiom

def hexiom_brute(text):
    """Every solved board of a Hexiom level as a frozenset of (cell, number).

    A filling is fixed by which free cells hold a tile, since each tile must
    show its number of occupied neighbours: try every set of free cells of
    the right size and keep those whose numbers are the level's tiles and
    whose locked tiles are right."""
    lines = text.splitlines()
    side = int(lines[0])
    values, locked = gen.hexiom_parse(lines[1:])
    cells = gen.hex_cells(side)
    nbrs = {c: gen.hex_neighbours(side, c) for c in cells}
    free = [c for c in cells if c not in locked]
    tiles = Counter(v for c, v in values.items() if c not in locked)
    fixed = {c for c in locked if c in values}
    out = set()
    for chosen in itertools.combinations(free, sum(tiles.values())):
        full = fixed | set(chosen)
        number = {c: sum(d in full for d in nbrs[c]) for c in full}
        if Counter(number[c] for c in chosen) != tiles:
            continue
        if any(number[c] != values[c] for c in fixed):
            continue
        out.add(frozenset(number.items()))
    return out


def hexiom_boards(res):
    return {frozenset(gen.hexiom_parse(grid)[0].items()) for grid in res.solutions}


# ---------------------------------------------------------------- Puzlogic

def puzlogic_brute(level):
    """Every way to place all the pieces, as frozensets of (cell, piece):
    each open cell takes a remaining piece or nothing; a filling counts when
    no piece value repeats in a row or column and every listed sum is met."""
    value = {(r, c): v for r, c, v in level["board"]}
    open_cells = [c for c, v in sorted(value.items()) if v == -1]
    pieces = Counter(level["pieces"])
    values = set(pieces)
    out = set()
    put = {}

    def valid():
        board = {c: v for c, v in value.items() if v != -1}
        board.update(put)
        for dim in (0, 1):
            lines = {}
            for c, v in board.items():
                if v in values:
                    lines.setdefault(c[dim], []).append(v)
            if any(len(vs) != len(set(vs)) for vs in lines.values()):
                return False
        for dim, idx, target in level.get("sum_constraints", []):
            if sum(v for c, v in board.items() if c[dim] == idx) != target:
                return False
        return True

    def place(i):
        if i == len(open_cells):
            if sum(pieces.values()) == 0 and valid():
                out.add(frozenset(put.items()))
            return
        c = open_cells[i]
        place(i + 1)                       # nothing here
        for v in sorted(pieces):
            if pieces[v]:
                pieces[v] -= 1
                put[c] = v
                place(i + 1)
                del put[c]
                pieces[v] += 1

    place(0)
    return out


def puzlogic_boards(res):
    return {frozenset((tuple(m["to"]), m["piece"]) for m in moves) for moves in res.moves}


# ---------------------------------------------------------------- Numberlink

def numberlink_brute(text):
    """Every labelling of the free cells that numberlink_valid accepts (rows
    of labels).  Cells are labelled in reading order; a cell whose four
    neighbours are all labelled must already have its number of
    same-labelled neighbours (1 at an end, 2 elsewhere)."""
    w, h, puzzle = gen.numberlink_read(text)
    labels = sorted({ch for row in puzzle for ch in row if ch != "."})
    grid = [list(row) for row in puzzle]
    cells = [(r, c) for r in range(h) for c in range(w)]
    out = set()

    def degree_ok(r, c):
        same = sum(1 for y in gen._neighbours((r, c), w, h) if grid[y[0]][y[1]] == grid[r][c])
        return same == (1 if puzzle[r][c] != "." else 2)

    def fill(i):
        if i == len(cells):
            rows = ["".join(row) for row in grid]
            if gen.numberlink_valid(text, rows):
                out.add(tuple(rows))
            return
        r, c = cells[i]
        choices = labels if puzzle[r][c] == "." else [puzzle[r][c]]
        for k in choices:
            grid[r][c] = k
            # the cell above now has all its neighbours labelled
            if r > 0 and not degree_ok(r - 1, c):
                continue
            if r == h - 1 and c > 0 and not degree_ok(r, c - 1):
                continue
            fill(i + 1)
        if puzzle[r][c] == ".":
            grid[r][c] = "."

    fill(0)
    return out


# ---------------------------------------------------------------- Nurikabe

def nurikabe_brute_all(text):
    """Every answer of a Nurikabe instance (rows of tokens), trying every sea."""
    puzzle = [l.split() for l in text.splitlines() if l.strip()]
    h, w = len(puzzle), len(puzzle[0])
    free = [(r, c) for r in range(h) for c in range(w) if puzzle[r][c] == "."]
    assert len(free) <= 14
    out = set()
    for mask in range(1 << len(free)):
        sea = {x for i, x in enumerate(free) if mask >> i & 1}
        rows = gen.board_rows([["#" if (r, c) in sea else puzzle[r][c] for c in range(w)]
                               for r in range(h)])
        if gen.nurikabe_valid(text, rows):
            out.add(tuple(rows))
    return out


# ---------------------------------------------------------------- Slitherlink

def slitherlink_brute_all(text):
    """Every answer of a Slitherlink instance as pzc draws it: a loop is the
    boundary of the cells inside it, so every set of cells is tried."""
    puzzle = [l.strip() for l in text.splitlines() if l.strip()]
    h, w = len(puzzle), len(puzzle[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    assert len(cells) <= 12
    out = set()
    for mask in range(1, 1 << len(cells)):
        loop = gen._boundary({x for i, x in enumerate(cells) if mask >> i & 1})
        rows = gen.slitherlink_lattice(w, h, loop, puzzle)
        if gen.slitherlink_valid(text, rows):
            out.add(tuple(rows))
    return out


# ================================================================ the cases

def _sudoku_cases():
    out = [("sudoku-empty", "....\n....\n....\n....\n"),
           ("sudoku-grid4", (api.builtin_specs()["sudoku"].parent / "examples" / "sudoku"
                             / "grid4.txt").read_text()),
           ("sudoku-row-repeat", "1..1\n....\n....\n....\n")]
    rng = random.Random(11)
    for keep in (0.15, 0.2, 0.3, 0.4):
        rows, _ = gen.sudoku_puzzle(2, keep, rng)
        out.append((f"sudoku-keep{keep}", "\n".join(rows) + "\n"))
    # no repeated clue, yet no filling: the 1 of the top-left box has no room
    # (row 0 and column 0 hold a 1 already and a 2 sits in the fourth cell)
    out.append(("sudoku-blocked", "..1.\n.2..\n1...\n....\n"))
    return out


def _hexiom_cases():
    out = []
    rng = random.Random(12)
    for k, (dens, locks) in enumerate(((0.4, 0), (0.5, 1), (0.6, 2), (0.7, 0), (0.3, 1))):
        out.append((f"hexiom2-{k}", gen.hexiom_level(2, dens, locks, rng)))
    for k, (dens, locks) in enumerate(((0.35, 3), (0.45, 4))):
        out.append((f"hexiom3-{k}", gen.hexiom_level(3, dens, locks, rng)))
    out.append(("hexiom2-sixes", "2\n  6 6\n 6 6 6\n  6 6\n"))
    out.append(("hexiom3-small", (api.builtin_specs()["hexiom"].parent / "examples" / "hexiom"
                                  / "small.txt").read_text()))
    return out


def _puzlogic_cases():
    out = []
    rng = random.Random(13)
    for k, (size, holes, sums) in enumerate(((3, 3, 0), (3, 4, 1), (4, 5, 1), (4, 6, 0),
                                             (4, 6, 2))):
        out.append((f"puzlogic-{k}", gen.puzlogic_level(size, holes, sums, rng)))
    # one piece 1 and three open cells, two of them beside the 1 already there
    out.append(("puzlogic-hand", {"board": [[0, 0, 1], [0, 1, -1], [1, 0, -1], [1, 1, -1]],
                                  "pieces": [1]}))
    # the sum cannot be met
    out.append(("puzlogic-unsat", {"board": [[0, 0, 1], [0, 1, -1], [1, 0, -1]],
                                   "pieces": [2], "sum_constraints": [[0, 0, 5]]}))
    return out


def _numberlink_cases():
    out = [("numberlink-3x3-one", "3 3\nA..\n...\n..A\n"),
           ("numberlink-3x3-two", "3 3\nA.B\n...\nA.B\n"),
           ("numberlink-4x3", "4 3\nA..B\n....\nA..B\n"),
           ("numberlink-4x4", "4 4\nA...\n....\n....\n...A\n"),
           ("numberlink-4x4-two", "4 4\nA..B\n....\n....\nA..B\n"),
           ("numberlink-cross", "3 3\n.A.\nB.B\n.A.\n"),
           # two answers: either A or B runs round the outside
           ("numberlink-two-ways", "4 4\nA..B\n.BA.\n.CC.\n....\n")]
    rng = random.Random(14)
    for k, (w, h) in enumerate(((3, 3), (4, 3), (4, 4))):
        text, _ = gen.numberlink_puzzle(w, h, rng, most=2)
        out.append((f"numberlink-gen{k}", text))
    return out


def _nurikabe_cases():
    return [("nurikabe-3x3-2", ". . .\n. 2 .\n. . .\n"),
            ("nurikabe-3x3-3", "3 . .\n. . .\n. . .\n"),
            ("nurikabe-4x3", ". . . .\n. 3 . .\n. . . 1\n"),
            ("nurikabe-4x3-?", ". . . .\n. ? . .\n. . . .\n"),
            ("nurikabe-3x3-two", "1 . .\n. . .\n. . 2\n"),
            ("nurikabe-split-sea", ". 1 .\n")]


def _slitherlink_cases():
    return [("slitherlink-2x2-empty", "..\n..\n"),
            ("slitherlink-3x2", "...\n.2.\n"),
            ("slitherlink-3x3", "...\n.3.\n...\n"),
            ("slitherlink-4x3", "....\n.2..\n..1.\n"),
            ("slitherlink-3x3-0", "...\n.0.\n...\n"),
            ("slitherlink-two-loops", "3.3\n3.3\n"),
            # only the loop around both cells gives each cell three edges
            ("slitherlink-33", "33\n")]


def _cases():
    out = []
    for case_id, text in _sudoku_cases():
        out.append((case_id, "sudoku", text))
    for case_id, text in _hexiom_cases():
        out.append((case_id, "hexiom", text))
    for case_id, level in _puzlogic_cases():
        out.append((case_id, "puzlogic", json.dumps(level)))
    for case_id, text in _numberlink_cases():
        out.append((case_id, "numberlink", text))
    for case_id, text in _nurikabe_cases():
        out.append((case_id, "nurikabe", text))
    for case_id, text in _slitherlink_cases():
        out.append((case_id, "slitherlink", text))
    return out


CASES = _cases()
CONNECTED = {"numberlink", "nurikabe", "slitherlink"}


def case_text(case_id):
    """The instance text of one of CASES."""
    return next(text for cid, _, text in CASES if cid == case_id)


def brute(spec_name, text):
    """The reference: the set of boards, as the key function below sees them."""
    if spec_name == "sudoku":
        return sudoku_brute([l for l in text.splitlines() if l.strip()])
    if spec_name == "hexiom":
        return hexiom_brute(text)
    if spec_name == "puzlogic":
        return puzlogic_brute(json.loads(text))
    if spec_name == "numberlink":
        return numberlink_brute(text)
    if spec_name == "nurikabe":
        return nurikabe_brute_all(text)
    return slitherlink_brute_all(text)


def boards(spec_name, res):
    """pzc's solutions in the brute force's terms (and never two alike)."""
    if spec_name == "hexiom":
        out = hexiom_boards(res)
    elif spec_name == "puzlogic":
        out = puzlogic_boards(res)
    else:
        out = {tuple(grid) for grid in res.solutions}
    assert len(out) == len(res.solutions), "the same board was counted twice"
    return out


_BRUTE = {}


def reference(case_id, spec_name, text):
    if case_id not in _BRUTE:
        _BRUTE[case_id] = brute(spec_name, text)
    return _BRUTE[case_id]
