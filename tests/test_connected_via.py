"""connected(x in S: body via near): the elements joined as `near` says.
Counts on small boards against a brute force of this file's own, on every
encoding (lazy cuts, eager ranks, Z3, clingo); plain evaluation when
nothing is symbolic; errors with positions."""

from __future__ import annotations

import itertools

import pytest

from loading import spec_from_text
from pzc import api
from rooted_tools import MODES, groups, instance, reported

# cells joined to the eight around them: chosen cells that touch at a corner
# are one group
AROUND = """\
puzzle kings "chosen cells, one group of king's moves"
board square
var on[c in cells] : bool
rule group: connected(c in cells: on[c] via around(c))
show c: if on[c] then "#" else "."
"""

# elements of two kinds: the cells and the edges of the board; an edge is
# chosen by itself, a cell with a chosen edge joins its edges unless it is
# marked (a crossing), where only the edges in one line join, straight on
MIXED = """\
puzzle strands "chosen edges, one group, passing straight through marked cells"
board square
var link[e in edges] : bool
var mark[c in cells] : bool
let beyond(e) = let dr = e.b.row - e.a.row, dc = e.b.col - e.a.col in
    [edge(x, y) for (x, y) in [((e.a.row - dr, e.a.col - dc), e.a), (e.b, (e.b.row + dr, e.b.col + dc))]
     where oncell(x) and oncell(y)]
let joins(x) = if x in cells then edges(x) else [x.a, x.b] + beyond(x)
rule group: connected(x in list(cells) + list(edges):
                (if x in cells then not mark[x] and any e in edges(x): link[e] else link[x])
                via joins(x))
let linked(c, d) = oncell(step(c, d)) and link[edge(c, step(c, d))]
show c: (if mark[c] then "+" else "-") + line_char(false, linked(c, (1, 0)), false, linked(c, (0, 1)))
"""


def king(a, b):
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


@pytest.mark.parametrize("mode", MODES)
def test_cells_joined_diagonally(mode):
    s = spec_from_text(AROUND, "kings.pz")
    cells = [(r, c) for r in range(3) for c in range(3)]
    want = sum(len(groups([c for c, b in zip(cells, bits) if b], king)) <= 1
               for bits in itertools.product((0, 1), repeat=9))
    assert api.count(s, instance(s, "...\n...\n...\n"), limit=1000, **mode).count == want


def strand_groups(links, marks):
    """The groups of ``links``: two links are joined at a cell they share,
    unless the cell is marked and they are not in one line."""
    def joined(x, y):
        shared = set(x) & set(y)
        if not shared:
            return False
        cell, = shared
        in_line = len({p[0] for p in x + y}) == 1 or len({p[1] for p in x + y}) == 1
        return cell not in marks or in_line
    return groups(links, joined)


@pytest.mark.parametrize("mode", MODES)
def test_cells_and_edges_together(mode):
    """Every choice of links and marks on a 2 x 3 board that passes: the
    links one group, joined through unmarked cells and straight through
    marked ones."""
    s = spec_from_text(MIXED, "strands.pz")
    cells = [(r, c) for r in range(2) for c in range(3)]
    edges = [(a, b) for a in cells for b in cells
             if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1]
    want = 0
    for bits in itertools.product((0, 1), repeat=len(edges) + len(cells)):
        links = [e for e, b in zip(edges, bits) if b]
        marks = {c for c, b in zip(cells, bits[len(edges):]) if b}
        want += len(strand_groups(links, marks)) <= 1
    assert api.count(s, instance(s, "...\n...\n"), limit=5000, **mode).count == want


def test_plain_evaluation_joins_as_via_says():
    """Nothing symbolic (a `require`): the two cells off the diagonal of a
    2 x 2 board touch at a corner only."""
    s = spec_from_text(AROUND.replace(
        "rule group: connected(c in cells: on[c] via around(c))",
        "require connected(c in cells: c.row != c.col via around(c))\n"
        "require not connected(c in cells: c.row != c.col via neighbours(c))\n"
        "require connected(x in 1..9: x % 3 = 0 via [x - 3, x + 3])"), "plain.pz")
    res = api.solve(s, instance(s, "..\n..\n"))
    assert res.status == "solved", res.error and res.error.format()


@pytest.mark.parametrize("line,col,message", [
    ("rule r: count(c in cells: on[c] via around(c)) > 0", 37,
     "'via' names what joins an element of connected(...); 'count' takes none"),
    ("rule r: connected(c in cells: on[c] via 3)", 41,
     "'via' gives the elements joined to each one, a list or set, not an int"),
    ("rule r: connected(c in cells: on[c] via [d for d in cells where on[d]])", 65,
     "what 'via' joins cannot depend on variables"),
])
def test_a_bad_via_is_an_error_with_a_position(line, col, message, write, run_pzc):
    reported(line, col, message, write, run_pzc)
