"""Built-ins about one cell and the cells near it: its neighbours (and the
diagonal ones), the edges between neighbours, the cells within a number of
steps (ball), and a cell's row and column.

Add a built-in here if it takes a cell and looks around it; see
encoder/builtins/registry.py for how.
"""

from __future__ import annotations

from ..interpreter.values import ANY, BOOL, CELL, EDGE, INT, PSet, coll, describe
from .registry import cell_arg, const_int, function, need_geometry, square_board


@function(("neighbours", "neighbors"), [CELL], coll(CELL))
def _neighbours(it, node, args):
    return need_geometry(it, node).neighbours(cell_arg(it, node, args[0]))


@function("around", [CELL], coll(CELL))
def _around(it, node, args):
    geom = square_board(it, node, "'around' is for square boards")
    return geom.diagonal_neighbours(cell_arg(it, node, args[0]))


@function("edge", [CELL, CELL], EDGE)
def _edge(it, node, args):
    geom = it.geometry
    if geom is not None:
        found = geom.edge_of_pair(args[0], args[1])
        if found is not None:             # two neighbouring cells
            return found
    geom = need_geometry(it, node)
    a = cell_arg(it, node, args[0], 0)
    b = cell_arg(it, node, args[1], 1)
    if b not in geom.neighbours(a):
        raise it.err(node, f"cells {a} and {b} are not neighbours, so no edge joins them")
    return geom.edge(a, b)


@function("edges", [CELL], coll(EDGE))
def _edges_of(it, node, args):
    return need_geometry(it, node).edges_of(cell_arg(it, node, args[0]))


@function("ball", [CELL, INT, ANY], coll(CELL))
def _ball(it, node, args):
    """ball(start, steps, avoid): the cells reachable from start in at most
    `steps` moves between neighbouring cells without entering a cell of
    `avoid`; breadth-first order, start first."""
    geom = need_geometry(it, node)
    start = cell_arg(it, node, args[0])
    steps = const_int(it, node.args[1], args[1])
    avoid = set(it.want_collection(node.args[2], args[2]))
    dist = {start: 0}
    order = [start]
    for c in order:
        if dist[c] >= steps:
            continue
        for d in geom.neighbours(c):
            if d not in dist and d not in avoid:
                dist[d] = dist[c] + 1
                order.append(d)
    return PSet(order)


@function("oncell", [ANY], BOOL)
def _oncell(it, node, args):
    cell = args[0]
    geom = need_geometry(it, node)
    return type(cell) is tuple and cell in geom


@function("cell", [INT, INT], CELL)
def _cell(it, node, args):
    r, c = (const_int(it, a, v) for a, v in zip(node.args, args))
    return (r, c)


def _coord(i):
    def impl(it, node, args):
        v = args[0]
        if type(v) is not tuple or len(v) != 2:
            raise it.err(node.args[0], f"expected a cell, but this is {describe(v)}")
        return v[i]
    return impl


function("row", [CELL], INT)(_coord(0))
function("col", [CELL], INT)(_coord(1))
