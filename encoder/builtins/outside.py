"""Built-ins about clues outside the grid (board option ``outside``): the
places around the board that may hold them, and the row or column a place
looks into.

A place outside the grid is a pair just beyond the board: (-1, k) above
column k, (height, k) below it, (r, -1) left of row r, (r, width) right of
it.  ``clue(p)`` and ``given(p)`` read the clue there:

    rule counts: all p in outside where given(p): count(c in inward(p): tent[c]) = clue(p)

Add a built-in here if it is about the places outside the grid; see
encoder/builtins/registry.py for how.
"""

from __future__ import annotations

from ..interpreter.values import CELL, coll, describe
from .registry import function, need_geometry, value


@value("outside", coll(CELL))
def _outside(it, node):
    need_geometry(it, node)
    return tuple(it.instance.outside_places())


@function("inward", [CELL], coll(CELL))
def _inward(it, node, args):
    geom = need_geometry(it, node)
    place = args[0]
    if type(place) is tuple and len(place) == 2:
        r, c = place
        h, w = geom.height, geom.width
        if r in (-1, h) and 0 <= c < w:
            line = [(k, c) for k in range(h)]
            return tuple(line if r == -1 else reversed(line))
        if c in (-1, w) and 0 <= r < h:
            line = [(r, k) for k in range(w)]
            return tuple(line if c == -1 else reversed(line))
    raise it.err(node.args[0], f"expected a place outside the grid, such as (-1, 0) above the "
                               f"first column, but this is {describe(place)}")
