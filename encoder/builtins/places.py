"""Built-ins for the doubled grid of a square board: the places where a clue
may sit on the cells, on the sides between them and on their corners.

A place is a pair (y, x) with 0 <= y <= 2 * height and 0 <= x <= 2 * width
(pzprjs's coordinates): (2r+1, 2k+1) is the centre of cell (r, k), (2r, 2k)
the dot (r, k), and a place with one odd coordinate the middle of a side,
where an edge between two cells crosses the segment between two dots.  The
board option `doubled` reads clues on these places (Galaxies' stars sit on
all three kinds):

    rule stars: all p in places where given(p), c in cells_at(p): owner[c] = p

Add a built-in here if it converts between cells, dots, edges or segments
and places; see encoder/builtins/registry.py for how.
"""

from __future__ import annotations

from ..interpreter.values import ANY, CELL, coll, describe
from ...board.geometry import Edge, Segment
from ..instance import doubled_places
from .lattice import dot_arg
from .registry import cell_arg, function, square_board, value


def _doubled(it, node):
    return square_board(it, node, "the places of the doubled grid are for square boards")


@value("places", coll(CELL))
def _places(it, node):
    geom = _doubled(it, node)
    return tuple(doubled_places(geom.height, geom.width))


@function("centre", [CELL], CELL)
def _centre(it, node, args):
    _doubled(it, node)
    r, k = cell_arg(it, node, args[0])
    return (2 * r + 1, 2 * k + 1)


@function("corner", [CELL], CELL)
def _corner(it, node, args):
    r, k = dot_arg(it, node, args[0])
    return (2 * r, 2 * k)


@function("midpoint", [ANY], CELL)
def _midpoint(it, node, args):
    """The place in the middle of an edge (between two cells' centres) or of
    a segment (between two dots): the same place for an edge and the side it
    crosses."""
    _doubled(it, node)
    link = args[0]
    if type(link) is Edge:
        (r1, k1), (r2, k2) = link
        return (r1 + r2 + 1, k1 + k2 + 1)
    if type(link) is Segment:
        (r1, k1), (r2, k2) = link
        return (r1 + r2, k1 + k2)
    raise it.err(node.args[0], f"expected an edge or a segment, but this is {describe(link)}")


@function("cells_at", [CELL], coll(CELL))
def _cells_at(it, node, args):
    """The cells of the board that touch place p: the cell whose centre p
    is, the cells on either side of a side's middle (one on the board's
    rim), the cells round a dot (one to four), in reading order."""
    geom = _doubled(it, node)
    p = args[0]
    if not (type(p) is tuple and len(p) == 2 and all(type(x) is int for x in p)
            and 0 <= p[0] <= 2 * geom.height and 0 <= p[1] <= 2 * geom.width):
        raise it.err(node.args[0], f"expected a place of the doubled grid (row 0.."
                                   f"{2 * geom.height}, column 0..{2 * geom.width}), but this "
                                   f"is {describe(p) if type(p) is not tuple else repr(p)}")
    y, x = p
    rows = [y // 2] if y % 2 else [y // 2 - 1, y // 2]
    cols = [x // 2] if x % 2 else [x // 2 - 1, x // 2]
    return tuple((r, k) for r in rows for k in cols if (r, k) in geom)
