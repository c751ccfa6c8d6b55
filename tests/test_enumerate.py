"""pzc count: exact solution counts against brute force.

Every built-in spec with a board answer is counted on small boards and the
boards pzc enumerates are compared, as sets, with the boards a plain-Python
brute force (tests/brute.py) finds by trying every filling (with the obvious
pruning) and checking the rules directly.  The checks run on the SAT backend (lazy and
eager connectivity), on Z3, and for a few on the external backend with the
`cadical` binary.  Then the projection: an unshown variable never multiplies
the count, two models that print one board count once, and --limit says
exactly whether the enumeration was exhausted.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from brute import CASES, CONNECTED, boards, case_text, count, puzlogic_brute, reference
from conftest import needs_cadical
from loading import spec, spec_from_text
from pzc import api

# Z3 enumerates the same boards far more slowly (up to 80 s a test): "slow"
MODES = [pytest.param({}, id="sat"),
         pytest.param({"backend": "smt"}, id="smt", marks=pytest.mark.slow)]


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
    assert len(reference("sudoku-empty", "sudoku", case_text("sudoku-empty"))) == 288


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


@pytest.mark.slow
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

@pytest.mark.slow
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
    level = json.loads(case_text("puzlogic-hand"))
    write("level.json", json.dumps(level))
    run = run_pzc("count", "puzlogic", "level.json", "--show", "--format", "json")
    assert run.returncode == 0, run.stderr
    obj = json.loads(run.stdout)
    want = puzlogic_brute(level)
    assert obj["count"] == len(want) == 1
    assert {frozenset((tuple(m["to"]), m["piece"]) for m in ms) for ms in obj["moves"]} == want
