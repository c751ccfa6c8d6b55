"""connected(x in S: body from root): every group of chosen elements holds a
root.  Counts on small boards against a brute force of this file's own, on
every encoding (lazy cuts, eager ranks, Z3, clingo); plain evaluation when
nothing is symbolic; errors with positions."""

from __future__ import annotations

import itertools

import pytest

from loading import spec_from_text
from pzc import api
from rooted_tools import MODES, groups, instance, reported

CELLS = """\
puzzle rooted "chosen cells, each group holding a root"
board square
var on[c in cells] : bool
var root[c in cells] : bool
rule groups: connected(c in cells: on[c] from root[c])
show c: if on[c] then (if root[c] then "R" else "x") else "."
"""

# edges are joined through a shared cell; an edge is a root where its first
# cell is marked
EDGES = """\
puzzle rootededges "chosen edges, each group touching a marked cell"
board square
var on[e in edges] : bool
var mark[c in cells] : bool
rule groups: connected(e in edges: on[e] from mark[e.a])
show c: if mark[c] then "M" else "."
"""


def board(width, height):
    return "\n".join(["." * width] * height) + "\n"


def neighbours(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def brute_cells(width, height) -> int:
    """Distinct shown boards: R (chosen root), x (chosen), . (not chosen)."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    shown = set()
    for marks in itertools.product(".xR", repeat=len(cells)):
        chosen = [c for c, m in zip(cells, marks) if m != "."]
        if all(any(marks[cells.index(x)] == "R" for x in g)
               for g in groups(chosen, neighbours)):
            shown.add(marks)
    return len(shown)


def brute_edges(width, height) -> int:
    """The solutions: (chosen edges, marked cells) pairs."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    edges = [(a, b) for a in cells for b in cells if a < b and neighbours(a, b)]
    total = 0
    for marks in itertools.product((False, True), repeat=len(cells)):
        marked = {c for c, m in zip(cells, marks) if m}
        for on in itertools.product((False, True), repeat=len(edges)):
            chosen = [e for e, o in zip(edges, on) if o]
            joined = lambda e, f: bool(set(e) & set(f))     # noqa: E731
            if all(any(e[0] in marked for e in g) for g in groups(chosen, joined)):
                total += 1
    return total


@pytest.mark.parametrize("mode", MODES)
def test_chosen_cells_counted_exactly(mode):
    s = spec_from_text(CELLS, "rooted.pz")
    want = brute_cells(3, 2)
    assert want == 568
    got = api.count(s, instance(s, board(3, 2)), **mode)
    assert got.count == want


@pytest.mark.parametrize("mode", MODES)
def test_chosen_edges_counted_exactly(mode):
    # pzc counts distinct shown boards: this one shows every variable
    full = spec_from_text(EDGES.replace('show c: if mark[c] then "M" else "."', """\
let bit(b) = if b then 1 else 0
let on_to(c, d) = oncell(d) and on[edge(c, d)]
show c: 4 * bit(mark[c]) + 2 * bit(on_to(c, (c.row, c.col + 1))) + bit(on_to(c, (c.row + 1, c.col)))"""),
                          "full.pz")
    # 3 x 2 has 5,370 solutions: Z3's enumeration of them took minutes late
    # in the full suite (10 s alone), so the edges are counted on 2 x 2
    want = brute_edges(2, 2)
    assert want == 166
    assert api.count(full, instance(full, board(2, 2)), **mode).count == want
    marks = spec_from_text(EDGES, "edges.pz")
    # every marking has a solution (no edge chosen)
    assert api.count(marks, instance(marks, board(3, 2)), **mode).count == 2 ** 6


@pytest.mark.slow
def test_several_groups_each_need_a_root_of_their_own(run_pzc, write):
    """A group without a root is refused even when another group has one:
    the rule is not one connected group."""
    write("two.pz", """\
puzzle two "two fixed groups"
board square
var root[c in cells] : bool
rule groups: connected(c in cells: given(c) from root[c])
rule few: count(c in cells: root[c]) <= 1
show c: if root[c] then "R" else "."
""")
    write("one.txt", "x..\nx..\n")
    write("two.txt", "x.x\nx.x\n")
    one = run_pzc("solve", "two.pz", "one.txt")
    assert one.returncode == 0, one
    assert one.stdout.count("R") == 1
    for extra in ((), ("--backend", "smt"), ("--connectivity", "eager"), ("--backend", "asp")):
        run = run_pzc("solve", "two.pz", "two.txt", *extra)
        assert run.returncode == 1, (extra, run)
        assert "no solution" in run.stdout


def test_constant_groups_are_evaluated_plainly():
    """Nothing symbolic: the rule is decided while grounding (1 marks a root)."""
    text = """\
puzzle plain "roots from clues"
board square
var v[c in cells] : bool
rule groups: connected(c in cells: given(c) from given(c) and clue(c) = 1)
show c: if v[c] then 1 else 0
"""
    s = spec_from_text(text, "plain.pz")
    ok = api.solve(s, instance(s, "21.\n...\n2.1\n1..\n"))
    assert ok.status == "solved" and ok.verified
    bad = api.solve(s, instance(s, "21.\n...\n2..\n2.1\n"))
    assert bad.status == "unsat"


@pytest.mark.parametrize("mode", MODES)
def test_a_guarded_rule_holds_only_under_its_guard(mode):
    text = CELLS.replace("rule groups: connected(",
                         "rule groups: on[(0, 0)] -> connected(")
    s = spec_from_text(text, "guarded.pz")
    cells = [(r, c) for r in range(2) for c in range(2)]
    shown = set()
    for marks in itertools.product(".xR", repeat=4):
        chosen = [c for c, m in zip(cells, marks) if m != "."]
        ok = marks[0] == "." or all(any(marks[cells.index(x)] == "R" for x in g)
                                    for g in groups(chosen, neighbours))
        if ok:
            shown.add(marks)
    assert api.count(s, instance(s, board(2, 2)), **mode).count == len(shown)


@pytest.mark.parametrize("line,col,message", [
    ("rule r: count(c in cells: on[c] from on[c]) > 0", 38,
     "'from' names the roots of connected(...); 'count' takes none"),
    ("rule r: connected(c in cells: on[c] from 3)", 42,
     "an int is used as a bool here; compare it, as in x > 0"),
    ("rule r: connected(c in cells: on[c] from c)", 42,
     "a root of connected(...) must be a bool"),
])
def test_a_bad_root_is_an_error_with_a_position(line, col, message, write, run_pzc):
    reported(line, col, message, write, run_pzc)


def test_from_stays_a_name_elsewhere(write, run_pzc):
    """'from' is a keyword only after a connected(...) body: a let may still
    be called from, and the sliding puzzle's moves keep their 'from' field."""
    write("name.pz", """\
puzzle named "a let called from"
board square
let from = 1
var v[c in cells] : 0..1
rule r: all c in cells: v[c] = from
show c: v[c]
""")
    write("b.txt", "..\n")
    run = run_pzc("solve", "name.pz", "b.txt")
    assert run.returncode == 0, run
    assert "11" in run.stdout
