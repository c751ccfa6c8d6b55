"""Built-ins for the board as a whole and the regions it splits into: the
cells, rows, columns, edges, the board's size, and boxes or sliding squares.

Add a built-in here if it names a set of cells (or edges) of the whole board;
see encoder/builtins/registry.py for how.
"""

from __future__ import annotations

from ..interpreter.values import CELL, EDGE, INT, PSet, coll
from ...board.geometry import HexGrid
from .registry import cell_arg, const_int, function, need_geometry, square_board, value


@value("cells", coll(CELL))
def _cells(it, node):
    return PSet.of_distinct(need_geometry(it, node).cells)


@value("rows", coll(coll(CELL)))
def _rows(it, node):
    return need_geometry(it, node).rows()


@value("cols", coll(coll(CELL)))
def _cols(it, node):
    geom = need_geometry(it, node)
    if isinstance(geom, HexGrid):
        raise it.err(node, "a hex board has no columns")
    return geom.cols()


@value("edges", coll(EDGE))
def _edges(it, node):
    return need_geometry(it, node).edges()


@value("width", INT)
def _width(it, node):
    return need_geometry(it, node).width


@value("height", INT)
def _height(it, node):
    return need_geometry(it, node).height


@value("side", INT)
def _side(it, node):
    geom = need_geometry(it, node)
    if not isinstance(geom, HexGrid):
        raise it.err(node, "'side' is the side length of a hex board")
    return geom.side


def _blocks(step: bool):
    """boxes(h, w) tile the board with h x w blocks (step = the block);
    squares(h, w) are all h x w windows (step 1)."""
    def impl(it, node, args):
        geom = square_board(it, node, f"'{node.func}' is for square boards")
        h, w = (const_int(it, a, v) for a, v in zip(node.args, args))
        if h < 1 or w < 1:
            raise it.err(node, f"a block is at least 1 x 1, not {h} x {w}")
        if step and (geom.height % h or geom.width % w):
            raise it.err(node, f"a {geom.width} x {geom.height} board does not split into "
                               f"{h} x {w} boxes")
        return geom.windows(h, w, h if step else 1, w if step else 1)
    return impl


function("boxes", [INT, INT], coll(coll(CELL)))(_blocks(True))
function("squares", [INT, INT], coll(coll(CELL)))(_blocks(False))


# ------------------------------------------------------------ regions of the instance

def _region_ids(it, node) -> dict:
    ids = it.instance.layers.get("regions")
    if ids is None:
        raise it.err(node, f"'{node.func if hasattr(node, 'func') else node.id}' reads the "
                           "instance's regions: declare them with 'layers clues, regions' "
                           "(or 'layers regions')")
    return ids


@value("regions", coll(coll(CELL)))
def _regions(it, node):
    """The instance's regions (from a grid of region ids, or from the borders
    of a puzz.link URL): each a list of cells in reading order, ordered by
    their first cell."""
    ids = _region_ids(it, node)
    groups = {}
    for cell in need_geometry(it, node).cells:
        groups.setdefault(ids[cell], []).append(cell)
    return tuple(tuple(g) for g in groups.values())


@function("region", [CELL], coll(CELL))
def _region(it, node, args):
    cell = cell_arg(it, node, args[0])
    table = it.builtin_values.get("#region")
    if table is None:
        table = it.builtin_values["#region"] = {
            c: g for g in _regions(it, node) for c in g}
    return table[cell]
