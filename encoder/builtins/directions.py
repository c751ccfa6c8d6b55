"""Built-ins about directions on a square board: the four unit steps, the
step an arrow clue names, the cell one step away, the cells in a straight
line to the edge, and the box-drawing character of a line through a cell.

They are the vocabulary of the genres whose clues look along a row or column
(arrows, sightlines, outside clues) and whose answers are lines:

    let seen(c) = [x for d in directions, x in ray(c, d)]
    show c: line_char(goes(c, up), goes(c, down), goes(c, left), goes(c, right))

Add a built-in here if it is about a direction; see encoder/builtins/registry.py
for how.
"""

from __future__ import annotations

from ..interpreter.values import ANY, BOOL, CELL, SYM, coll, describe
from .registry import function, need_geometry, value

UP, DOWN, LEFT, RIGHT = (-1, 0), (1, 0), (0, -1), (0, 1)

# the spellings an arrow clue uses: puzz.link's letters and janko's compass points
_NAMED = {"u": UP, "d": DOWN, "l": LEFT, "r": RIGHT,
          "n": UP, "s": DOWN, "w": LEFT, "e": RIGHT}

# a line through a cell, by the sides it leaves from: (up, down, left, right)
_LINE_CHARS = {
    (0, 0, 0, 0): ".", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼",
}


def _pair(it, node, v, i):
    if type(v) is not tuple or len(v) != 2 or not all(type(x) is int for x in v):
        raise it.err(node.args[i], f"expected a pair of ints (a cell or a step), "
                                   f"but this is {describe(v)}")
    return v


@value("directions", coll(CELL))
def _directions(it, node):
    """The four unit steps, up, down, left, right, as (row, column) pairs."""
    return (UP, DOWN, LEFT, RIGHT)


@function("direction", [ANY], CELL)
def _direction(it, node, args):
    name = args[0]
    if type(name) is str and name.lower() in _NAMED:
        return _NAMED[name.lower()]
    raise it.value_err(node.args[0],
                       f"{describe(name)} names no direction (u d l r, or n s w e)",
                       f"{describe(name)} names no direction (u d l r, or n s w e)")


@function("step", [CELL, CELL], CELL)
def _step(it, node, args):
    (r, c), (dr, dc) = _pair(it, node, args[0], 0), _pair(it, node, args[1], 1)
    return (r + dr, c + dc)


@function("ray", [CELL, CELL], coll(CELL))
def _ray(it, node, args):
    geom = need_geometry(it, node)
    (r, c), (dr, dc) = _pair(it, node, args[0], 0), _pair(it, node, args[1], 1)
    if (dr, dc) == (0, 0):
        raise it.err(node.args[1], "a ray needs a step that moves, not (0, 0)")
    out = []
    r, c = r + dr, c + dc
    while (r, c) in geom:
        out.append((r, c))
        r, c = r + dr, c + dc
    return tuple(out)


@function("line_char", [BOOL, BOOL, BOOL, BOOL], SYM)
def _line_char(it, node, args):
    for arg, v in zip(node.args, args):
        it.want_const(arg, it.want_bool(arg, v))
    return _LINE_CHARS[tuple(int(v) for v in args)]
