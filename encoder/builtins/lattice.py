"""Built-ins for the dot lattice of a square board: the dots at the cells'
corners, the unit segments joining them (Slitherlink's lines), a cell's four
sides and the segments at a dot, and a cell's two diagonals (Gokigen's
slashes), segments between opposite corners.

Add a built-in here if it works on dots or segments; see encoder/builtins/registry.py
for how.
"""

from __future__ import annotations

from ..interpreter.values import CELL, SEGMENT, coll, describe
from ...board.geometry import Segment, SquareGrid
from .registry import cell_arg, function, square_board, value


def _lattice(it, node):
    return square_board(it, node, "the dot lattice (dots, segments, sides) is for square boards")


def dot_arg(it, node, v):
    geom = _lattice(it, node)
    if not (type(v) is tuple and len(v) == 2 and all(type(x) is int for x in v)
            and 0 <= v[0] <= geom.height and 0 <= v[1] <= geom.width):
        raise it.err(node.args[0], f"expected a dot of the lattice (row 0..{geom.height}, "
                                   f"column 0..{geom.width}), but this is {describe(v)}")
    return v


@value("dots", coll(CELL))
def _dots(it, node):
    return _lattice(it, node).dots()


@value("segments", coll(SEGMENT))
def _segments(it, node):
    return _lattice(it, node).segments()


@function("segments", [CELL], coll(SEGMENT))
def _segments_at(it, node, args):
    return _lattice(it, node).segments_at(dot_arg(it, node, args[0]))


@function("sides", [CELL], coll(SEGMENT))
def _sides(it, node, args):
    return _lattice(it, node).sides(cell_arg(it, node, args[0]))


@function("diagonals", [CELL], coll(SEGMENT))
def _diagonals(it, node, args):
    return _lattice(it, node).diagonals(cell_arg(it, node, args[0]))


@function("segment", [CELL, CELL], SEGMENT)
def _segment(it, node, args):
    geom = it.geometry
    if isinstance(geom, SquareGrid):      # two neighbouring dots: the lattice's own
        found = geom.segment_of_pair(*args) or geom.segment_of_pair(args[1], args[0])
        if found is not None:
            return found
    a, b = sorted(dot_arg(it, node, v) for v in args)
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        if abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1:     # a cell's diagonal
            return geom.diagonals((a[0], min(a[1], b[1])))[0 if a[1] < b[1] else 1]
        raise it.err(node, f"a segment joins two neighbouring dots, or two opposite corners "
                           f"of a cell, not {a} and {b}")
    return Segment(a, b)
