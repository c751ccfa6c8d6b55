"""pzc count: exact solution counts against brute force written here.

Every built-in spec with a board answer is counted on small boards and the
boards pzc enumerates are compared, as sets, with the boards a plain-Python
brute force finds by trying every filling (with the obvious pruning) and
checking the rules directly.  The checks run on the SAT backend (lazy and
eager connectivity), on Z3, and for a few on the external backend with the
`cadical` binary.  Then the projection: an unshown variable never multiplies
the count, two models that print one board count once, and --limit says
exactly whether the enumeration was exhausted.
"""

from __future__ import annotations

import itertools
import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

import generators as gen
from loading import spec, spec_from_text
from pzc import api
from pzc.encoder.ground import board_option
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source

HAVE_CADICAL = shutil.which("cadical") is not None
needs_cadical = pytest.mark.skipif(not HAVE_CADICAL, reason="no cadical binary on PATH")

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


MODES = [pytest.param({}, id="sat"), pytest.param({"backend": "smt"}, id="smt")]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case_id,spec_name,text", CASES, ids=[c[0] for c in CASES])
def test_count_agrees_with_brute_force(case_id, spec_name, text, mode):
    want = reference(case_id, spec_name, text)
    res = count(spec_name, text, case_id, **mode)
    assert res.complete is True
    assert res.count == len(want), (res.count, len(want))
    assert boards(spec_name, res) == want
    assert res.stats["backend"] == mode.get("backend", "sat")


def test_cases_cover_every_spec_and_several_outcomes():
    """Every built-in spec with a board answer is counted, here or (the genres
    of issue 12) in its tests/test_genre_*.py, each with an unsolvable
    instance, an instance with one answer and one with several."""
    shown = {name for name in api.builtin_specs() if spec(name).plan is None and (
             spec(name).show_cell is not None or spec(name).show_moves is not None)}
    genre_tests = " ".join(p.read_text() for p in Path(__file__).parent.glob("test_genre_*.py"))
    genres = {n for n in shown if f'"{n}"' in genre_tests}
    assert shown == {c[1] for c in CASES} | genres
    for name in shown - genres:
        sizes = {min(len(reference(*c)), 2) for c in CASES if c[1] == name}
        assert sizes == {0, 1, 2}, (name, sizes)
    assert len(reference("sudoku-empty", "sudoku", _sudoku_cases()[0][1])) == 288


CONNECTED_CASES = [c for c in CASES if c[1] in CONNECTED]


@pytest.mark.parametrize("case_id,spec_name,text", CONNECTED_CASES,
                         ids=[c[0] for c in CONNECTED_CASES])
def test_lazy_and_eager_connectivity_count_alike(case_id, spec_name, text):
    """Blocking clauses and lazy cuts share one solver: the count is exact
    whether connectivity is cut lazily or encoded up front."""
    want = reference(case_id, spec_name, text)
    lazy = count(spec_name, text, case_id, connectivity="lazy")
    eager = count(spec_name, text, case_id, connectivity="eager")
    assert boards(spec_name, lazy) == boards(spec_name, eager) == want
    assert lazy.complete and eager.complete
    # bounded selections are encoded up front even in lazy mode
    assert lazy.stats.get("connectivity", "lazy") == "lazy"
    assert "cuts" not in eager.stats


def test_lazy_counting_needs_cuts_somewhere():
    """Among the connectivity cases some count needed lazy cuts: the cuts
    really were added to the session the blocking clauses went to."""
    cuts = {}
    for case_id, spec_name, text in CONNECTED_CASES:
        res = count(spec_name, text, case_id, connectivity="lazy")
        cuts[case_id] = res.stats.get("cuts", 0)
    assert any(n > 0 for n in cuts.values()), cuts


EXTERNAL = ["sudoku-keep0.2", "hexiom2-1", "puzlogic-2", "numberlink-4x4", "nurikabe-4x3-?",
            "slitherlink-3x3", "sudoku-blocked"]


@needs_cadical
@pytest.mark.parametrize("case_id", EXTERNAL)
def test_count_on_the_external_backend(case_id):
    (spec_name, text), = [(c[1], c[2]) for c in CASES if c[0] == case_id]
    want = reference(case_id, spec_name, text)
    res = count(spec_name, text, case_id, backend="external", solver_cmd="cadical -q")
    assert res.complete is True
    assert boards(spec_name, res) == want
    assert res.stats["backend"] == "external"


def test_unsolvable_instances_count_zero_complete():
    for case_id, spec_name, text in CASES:
        if reference(case_id, spec_name, text):
            continue
        res = count(spec_name, text, case_id)
        assert (res.count, res.complete, res.solutions) == (0, True, [])
        assert res.exit_code == api.EXIT_OK


# ================================================================ --limit

EMPTY4 = "....\n....\n....\n....\n"


@pytest.mark.parametrize("mode", MODES)
def test_limit_below_the_count_is_incomplete(mode):
    res = count("sudoku", EMPTY4, limit=5, **mode)
    assert (res.count, res.complete) == (5, False)
    assert len({tuple(g) for g in res.solutions}) == 5
    assert all(tuple(g) in reference("sudoku-empty", "sudoku", EMPTY4) for g in res.solutions)


@pytest.mark.parametrize("mode", MODES)
def test_limit_equal_to_the_count_is_complete(mode):
    res = count("sudoku", EMPTY4, limit=288, **mode)
    assert (res.count, res.complete) == (288, True)
    res = count("sudoku", EMPTY4, limit=287, **mode)
    assert (res.count, res.complete) == (287, False)
    res = count("sudoku", EMPTY4, limit=289, **mode)
    assert (res.count, res.complete) == (288, True)


def test_limit_on_a_connectivity_count():
    case_id, spec_name, text = next(c for c in CASES if c[0] == "slitherlink-2x2-empty")
    n = len(reference(case_id, spec_name, text))
    assert n > 2
    for mode in ({"connectivity": "lazy"}, {"connectivity": "eager"}, {"backend": "smt"}):
        assert (count(spec_name, text, limit=n, **mode).complete) is True
        low = count(spec_name, text, limit=n - 1, **mode)
        assert (low.count, low.complete) == (n - 1, False)


@needs_cadical
def test_limit_on_the_external_backend():
    text = next(c[2] for c in CASES if c[0] == "sudoku-keep0.15")
    n = len(reference("sudoku-keep0.15", "sudoku", text))
    assert n >= 3
    opts = dict(backend="external", solver_cmd="cadical -q")
    assert (count("sudoku", text, limit=n, **opts).complete) is True
    low = count("sudoku", text, limit=n - 1, **opts)
    assert (low.count, low.complete) == (n - 1, False)


def test_limit_one_on_a_unique_and_an_unsolvable_instance():
    grid4 = next(c[2] for c in CASES if c[0] == "sudoku-grid4")
    res = count("sudoku", grid4, limit=1)
    assert (res.count, res.complete) == (1, True)
    res = count("sudoku", "1..1\n....\n....\n....\n", limit=1)
    assert (res.count, res.complete) == (0, True)


# ================================================================ projection

# a free bool that no rule and no show reads: 2^cells models per board
HIDDEN = """\
puzzle hidden "a Latin square with a hidden free bool per cell"
board square(clues: 1..3)
var v[c in cells] : 1..3
var junk[c in cells] : bool
show v
rule givens: all c in cells where given(c): v[c] = clue(c)
rule rows: all r in rows: distinct(v[c] for c in r)
rule cols: all k in cols: distinct(v[c] for c in k)
"""


def latin_brute(rows):
    n = len(rows)
    out = set()
    for fill in itertools.product("123", repeat=n * n):
        grid = [fill[r * n:(r + 1) * n] for r in range(n)]
        if any(len(set(row)) != n for row in grid):
            continue
        if any(len({grid[r][c] for r in range(n)}) != n for c in range(n)):
            continue
        if any(p != "." and p != g for prow, grow in zip(rows, grid) for p, g in zip(prow, grow)):
            continue
        out.add(tuple("".join(row) for row in grid))
    return out


@pytest.mark.parametrize("mode", MODES + [pytest.param({"backend": "external",
                                                        "solver_cmd": "cadical -q"},
                                                       id="external",
                                                       marks=needs_cadical)])
@pytest.mark.parametrize("rows", [["...", "...", "..."], ["1..", "...", "..."],
                                  ["12.", "...", "..."]], ids=["empty", "one", "two"])
def test_unshown_variables_do_not_multiply_the_count(rows, mode):
    s = spec_from_text(HIDDEN, "hidden.pz")
    want = latin_brute(rows)
    res = count(s, "\n".join(rows) + "\n", **mode)
    assert res.complete
    assert res.count == len(want) == {"...": 12, "1..": 4, "12.": 2}[rows[0]]
    assert {tuple(g) for g in res.solutions} == want


# a board whose show reads a second variable only where the first says so
# (the Hexiom pattern): the unread variable never makes a second solution
GUARDED = """\
puzzle guarded "a marker per cell, with a colour shown only under a mark"
board square
var mark[c in cells] : bool
var colour[c in cells] : {"red", "blue", "green"}
show c: if mark[c] then colour[c] else "."
rule two: count(c in cells: mark[c]) = 2
"""


@pytest.mark.parametrize("mode", MODES)
def test_variables_shown_only_sometimes_are_projected_too(mode):
    """Three cells, two marked, the marked ones coloured in 3 ways each:
    3 * 9 = 27 boards (the unmarked cell's colour is never shown)."""
    s = spec_from_text(GUARDED, "guarded.pz")
    res = count(s, "...\n", **mode)
    assert (res.count, res.complete) == (27, True)
    want = set()
    for marks in itertools.combinations(range(3), 2):
        for colours in itertools.product(["red", "blue", "green"], repeat=2):
            row = ["."] * 3
            for i, col in zip(marks, colours):
                row[i] = col
            want.add(" ".join(row))
    assert {g[0] for g in res.solutions} == want


# two values print the same text: "small" for 1 and 2, "big" for 3 and 4
SAME_TEXT = """\
puzzle sametext "values shown by size only"
board square
var x[c in cells] : 1..4
show c: if x[c] <= 2 then "s" else "B"
rule r: all e in edges: x[e.a] != x[e.b]
"""


def same_text_brute(w):
    boards = set()
    for xs in itertools.product(range(1, 5), repeat=w):
        if all(a != b for a, b in zip(xs, xs[1:])):
            boards.add("".join("s" if x <= 2 else "B" for x in xs))
    return boards


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("w", [1, 2, 3])
def test_models_printing_the_same_board_count_once(w, mode):
    s = spec_from_text(SAME_TEXT, "sametext.pz")
    want = same_text_brute(w)
    res = count(s, "." * w + "\n", **mode)
    assert res.complete
    assert res.count == len(want) == 2 ** w
    assert {g[0] for g in res.solutions} == want


@pytest.mark.parametrize("mode", MODES)
def test_limit_equal_to_the_count_with_repeated_boards_is_complete(mode):
    """One cell: boards 's' (x = 1 or 2) and 'B' (x = 3 or 4).  With
    --limit 2 both boards are found and there is no third: complete."""
    s = spec_from_text(SAME_TEXT, "sametext.pz")
    res = count(s, ".\n", limit=2, **mode)
    assert res.count == 2
    assert res.complete is True


def test_a_board_that_reads_no_variable_is_one_solution():
    """A show that prints a constant: every model is the same board."""
    s = spec_from_text("puzzle const \"c\"\nboard square\nvar x[c in cells] : 1..3\n"
                       "show c: \"o\"\n", "const.pz")
    for mode in ({}, {"backend": "smt"}):
        res = count(s, "...\n", **mode)
        assert (res.count, res.complete, res.solutions) == (1, True, [["ooo"]])


# ================================================================ the command line

def test_count_cli_text_and_json(write, run_pzc):
    write("empty.txt", EMPTY4)
    write("many.txt", EMPTY4 + "\n" + "1..1\n....\n....\n....\n")
    run = run_pzc("count", "sudoku", "empty.txt")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "empty.txt: 288 solutions"
    run = run_pzc("count", "sudoku", "empty.txt", "--limit", "3")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "empty.txt: 3 solutions or more (stopped at --limit)"
    run = run_pzc("count", "sudoku", "many.txt", "--format", "json", "--limit", "300")
    assert run.returncode == 0, run.stderr
    objs = [json.loads(l) for l in run.stdout.splitlines()]
    assert [(o["instance"], o["count"], o["complete"]) for o in objs] == [
        ("many.txt#1", 288, True), ("many.txt#2", 0, True)]
    assert all(o["spec"] == "sudoku" and o["status"] == "counted" and "solutions" not in o
               for o in objs)


def test_count_cli_show(write, run_pzc):
    text = next(c[2] for c in CASES if c[0] == "sudoku-keep0.15")
    want = reference("sudoku-keep0.15", "sudoku", text)
    assert 2 <= len(want) <= 20
    write("p.txt", text)
    run = run_pzc("count", "sudoku", "p.txt", "--show", "--format", "json")
    assert run.returncode == 0, run.stderr
    obj = json.loads(run.stdout)
    assert obj["count"] == len(want) and obj["complete"] is True
    assert {tuple(g) for g in obj["solutions"]} == want
    run = run_pzc("count", "sudoku", "p.txt", "--show")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"p.txt: {len(want)} solutions"
    shown = set()
    for i in range(len(want)):
        k = lines.index(f"  solution {i + 1}:")
        shown.add(tuple(l.strip() for l in lines[k + 1:k + 5]))
    assert shown == want


def test_count_cli_puzlogic_show_gives_moves(write, run_pzc):
    level = dict(_puzlogic_cases())["puzlogic-hand"]
    write("level.json", json.dumps(level))
    run = run_pzc("count", "puzlogic", "level.json", "--show", "--format", "json")
    assert run.returncode == 0, run.stderr
    obj = json.loads(run.stdout)
    want = puzlogic_brute(level)
    assert obj["count"] == len(want) == 1
    assert {frozenset((tuple(m["to"]), m["piece"]) for m in ms) for ms in obj["moves"]} == want
