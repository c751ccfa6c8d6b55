"""groupsize(x in S: body from r via ...): the size of r's group, compared with
numbers and with other groupsizes.  Counts and answer sets on small boards
against a brute force of this file's own (on the sat backend, its lazy check
included, on Z3, and through an external solver); plain evaluation when
nothing is symbolic; errors with positions; the backends that refuse it."""

from __future__ import annotations

import itertools
import shutil

import pytest

from loading import spec_from_text
from pzc import api
from rooted_tools import groups, instance, reported

BACKENDS = [pytest.param(dict(), id="sat"), pytest.param(dict(backend="smt"), id="z3")]

# every comparison groupsize takes, on the groups of the chosen cells: a clue
# 1-4 is its group's size, 5 a size of at least 3, 6 one of 2 or less but not
# 1 (or none: an unchosen cell's size is 0), 7 and 8 a size equal to (7) or
# different from (8) that of every other 7 or 8, 9 a size in {2, 4}
SHADES = """\
puzzle shades "chosen cells whose groups have the sizes the clues say"
board square(blank: ".", clues: 1..9)
var on[c in cells] : bool
show c: if on[c] then "#" else "."
let g(c) = groupsize(d in cells: on[d] from c)
let clued(k) = [c for c in cells where given(c) and clue(c) = k]
rule exact: all c in cells where given(c) and clue(c) <= 4: g(c) = clue(c)
rule least: all c in clued(5): g(c) >= 3
rule most:  all c in clued(6): g(c) <= 2 and g(c) != 1
rule same:  all a in clued(7), b in clued(7) where a != b: g(a) = g(b)
rule apart: all a in clued(8), b in clued(8) where a != b: g(a) != g(b)
rule among: all c in clued(9): g(c) in {2, 4}
"""


def neighbours(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def shades_brute(rows):
    """Every assignment of `on` that SHADES accepts, as printed rows."""
    h, w = len(rows), len(rows[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    clue = {(r, c): int(t) for r, row in enumerate(rows) for c, t in enumerate(row) if t != "."}
    out = []
    for bits in itertools.product((0, 1), repeat=len(cells)):
        on = {c for c, b in zip(cells, bits) if b}
        size = {c: len(g) for g in groups(sorted(on), neighbours) for c in g}
        g = {c: size.get(c, 0) for c in cells}
        of = lambda k: [c for c in cells if clue.get(c) == k]
        ok = (all(g[c] == k for c, k in clue.items() if k <= 4)
              and all(g[c] >= 3 for c in of(5))
              and all(g[c] <= 2 and g[c] != 1 for c in of(6))
              and len({g[c] for c in of(7)}) <= 1
              and len({g[c] for c in of(8)}) == len(of(8))
              and all(g[c] in (2, 4) for c in of(9)))
        if ok:
            out.append(tuple("".join("#" if (r, c) in on else "." for c in range(w))
                             for r in range(h)))
    return out


SHADE_CASES = ["1..\n...\n..1\n", "3..\n...\n..4\n", "5.6\n...\n...\n", "7..\n...\n..7\n",
               "9..\n.2.\n...\n", "2..\n...\n.77\n", "4...\n...8\n8...\n", "1.1\n.1.\n1.1\n",
               "7.\n..\n.7\n", "6..\n..9\n", "4..\n..8\n8..\n", "1.3\n...\n..5\n",
               ".6.\n...\n2.9\n", "7.1\n...\n1.7\n", "3.8\n...\n8.2\n"]


@pytest.mark.parametrize("mode", BACKENDS)
def test_every_comparison_against_brute_force(mode):
    s = spec_from_text(SHADES, "shades.pz")
    seen = []
    for text in SHADE_CASES:
        rows = text.split()
        want = set(shades_brute(rows))
        if mode and len(want) > 30:
            continue                  # Z3: the cases with few solutions (a second each)
        res = api.count(s, instance(s, text), limit=1000, **mode)
        assert res.status == "counted", (text, res.status)
        assert res.count == len(want), text
        assert {tuple(b) for b in res.solutions} == want, text
        seen.append(res.count)
    assert 0 in seen and 1 in seen and max(seen) > 20 and len(seen) >= 10, seen


# the groups of a wall-divided board: two cells are joined unless a wall
# parts them; each clue is its cell's group size, and two cells of one size
# on either side of a wall is not allowed unless the clue is 9 (Fillomino
# with exceptions: sizes that may touch)
WALLS = """\
puzzle walls "walls between cells; clues give the sizes of the parts"
board square(blank: ".", clues: 1..9)
var wall[e in edges] : bool
let size(c) = groupsize(d in cells: true from c via x in neighbours(d) where not wall[edge(d, x)])
show c: size(c)
rule clues: all c in cells where given(c) and clue(c) != 9: size(c) = clue(c)
rule apart: all e in edges where not given(e.a) or clue(e.a) != 9:
                wall[e] -> size(e.a) != size(e.b)
"""


def walls_brute(rows):
    """The boards (sizes printed) of every wall assignment WALLS accepts,
    each once, and how many assignments there are (walls inside a group
    beside a 9 make more assignments than boards)."""
    h, w = len(rows), len(rows[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    edges = [(a, b) for a in cells for b in cells if a < b and neighbours(a, b)]
    clue = {(r, c): int(t) for r, row in enumerate(rows) for c, t in enumerate(row) if t != "."}
    out = []
    for bits in itertools.product((0, 1), repeat=len(edges)):
        walls = {e for e, b in zip(edges, bits) if b}
        parts = groups(cells, lambda a, b: neighbours(a, b) and tuple(sorted((a, b))) not in walls)
        size = {c: len(g) for g in parts for c in g}
        if any(size[c] != k for c, k in clue.items() if k != 9):
            continue
        if any(size[a] == size[b] for a, b in walls if clue.get(a) != 9):
            continue
        out.append(tuple("".join(str(size[(r, c)]) for c in range(w)) for r in range(h)))
    return sorted(set(out)), len(out)


@pytest.mark.parametrize("mode", BACKENDS)
def test_walls_against_brute_force(mode):
    s = spec_from_text(WALLS, "walls.pz")
    for text in ["2..\n...\n", "3.\n..\n.1\n", "9..\n...\n", "1.4\n...\n", "...\n.9.\n"]:
        boards, walls = walls_brute(text.split())
        res = api.count(s, instance(s, text), limit=2000, **mode)
        # count counts boards as printed
        assert res.status == "counted" and res.count == len(boards) <= walls, text
        assert sorted(tuple(b) for b in res.solutions) == boards, text


@pytest.mark.skipif(shutil.which("cadical") is None, reason="needs the cadical binary")
def test_an_external_solver_gets_the_cuts_of_the_solve_loop():
    s = spec_from_text(SHADES, "shades.pz")
    for text in SHADE_CASES[:6]:
        want = shades_brute(text.split())
        res = api.count(s, instance(s, text), limit=1000, backend="external",
                        solver_cmd="cadical -q")
        assert res.count == len(want), text


PLAIN = """\
puzzle plain "groupsize on the instance alone"
board square
let g(c) = groupsize(d in cells: d.col != 1 from c)
require g((0, 0)) = 2 and g((0, 2)) = 2 and g((0, 1)) = 0
require groupsize(d in cells: true from (0, 1) via x in neighbours(d) where x.row = d.row) = 3
require groupsize(d in cells: true via x in neighbours(d) where x.col = d.col from (1, 2)) = 2
require groupsize(x in 1..9: x != 5 from 2 via [x - 1, x + 1]) = 4
require groupsize(e in edges: e.a.row = e.b.row from edges[0]) = 2
var on[c in cells] : bool
show c: if on[c] then "#" else "."
rule r: groupsize(d in cells: on[d] from (0, 0)) = 3 and not on[(1, 1)]
    and count(c in cells: on[c]) = 3
"""


def test_plain_values_and_a_small_solve():
    s = spec_from_text(PLAIN, "plain.pz")
    res = api.count(s, instance(s, "...\n...\n"), limit=100)
    # the group of (0, 0) is all three chosen cells, without (1, 1)
    assert sorted(tuple(b) for b in res.solutions) == [("###", "..."), ("##.", "#..")]


def test_an_encoding_dies_by_reference_counting():
    """Nothing of a solved instance waits for the cyclic collector: the
    encoder and its partition's tables did hold each other, and an API loop
    of 330 Fillominos kept 10 million dead objects until a full collection
    took seconds."""
    import gc
    s = spec_from_text(SHADES, "shades.pz")
    inst = instance(s, "4..\n...\n..1\n")
    api.solve(s, inst)                          # imports and caches made once
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        result = api.solve(s, inst)
        assert result.verified
        del result
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("line, at, message", [
    ("rule r: groupsize(c in cells: on[c]) = 2", "groupsize",
     "groupsize takes one binder, a condition and a seed"),
    ("rule r: groupsize(c in cells: on[c] from (0, 0) via neighbours(c) where on[c]) = 2",
     "neighbours", "'via ... where' names the element joined"),
    ("rule r: connected(c in cells: on[c] via d in neighbours(c) where on[d])", "on[d]",
     "'via ... where' (joins that depend on a condition) is for groupsize"),
    ("rule r: count(c in cells: on[c] from (0, 0)) = 1", "(0, 0)",
     "'from' names the roots of connected"),
])
def test_misuse_is_reported_where_it_is(line, at, message, write, run_pzc):
    reported(line, line.index(at) + 1, message, write, run_pzc)


@pytest.mark.parametrize("rule, message", [
    ("groupsize(c in cells: on[c] from (0, 0)) + 1 = 2", "groupsize(...) depends on the puzzle's variables"),
    ("groupsize(c in cells: on[c] from (0, 0)) = count(c in cells: on[c])",
     "groupsize(...) compares with a number"),
    ("groupsize(c in cells: on[c] from (0, 0)) = groupsize(c in cells: not on[c] from (0, 1))",
     "groupsize(...) compares with a number"),
    ("groupsize(c in cells: on[c] from (5, 5)) = 2", "the seed of groupsize(...) is not one of its elements"),
])
def test_what_it_cannot_be_is_an_error_of_the_instance(rule, message, write, run_pzc):
    write("bad.pz", f'puzzle bad "x"\nboard square\nvar on[c in cells] : bool\n'
                    f'show c: if on[c] then "#" else "."\nrule r: {rule}\n')
    write("b.txt", "..\n..\n")
    run = run_pzc("solve", "bad.pz", "b.txt")
    assert run.returncode == 2, run.stdout + run.stderr
    assert message in run.stderr and "bad.pz:5:" in run.stderr
    assert "Traceback" not in run.stderr


def test_backends_without_a_solve_loop_refuse_it(write, run_pzc):
    write("shades.pz", SHADES)
    write("b.txt", "1..\n...\n..1\n")
    run = run_pzc("solve", "shades.pz", "b.txt", "--backend", "asp")
    assert run.returncode == 2 and "the asp backend cannot check groupsize(...)" in run.stderr
    run = run_pzc("dimacs", "shades.pz", "b.txt")
    assert run.returncode == 2 and "pzc dimacs cannot write groupsize(...)" in run.stderr
    assert "Traceback" not in run.stderr
