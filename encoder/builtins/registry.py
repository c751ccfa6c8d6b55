"""The table of built-ins: names a spec can use without defining them.

A built-in is a Python function registered with one of two decorators:

    @value("width", INT)
    def _width(it, node):                      # it: the Interpreter, node: the Name
        return need_geometry(it, node).width

    @function("ball", [CELL, INT, ANY], coll(CELL))
    def _ball(it, node, args):                 # args: the evaluated arguments
        ...

``value`` names a constant of the instance (computed once per instance);
``function`` names a call with a fixed number of arguments, whose static
types (see encoder/interpreter/values.py) the checker uses to infer types and report
mistakes before any instance is read.  Arguments arrive evaluated; report a
bad one with ``it.err(node.args[i], message)`` so the caret points at it.

To add a built-in, write it with its decorator in the module of its concept
(regions, neighbourhoods, lattice, places, clues, basics: see encoder/builtins/__init__.py,
which imports them all) and document it in the Built-ins table of
docs/language.md (tests/test_docs.py fails on a built-in left out).  Aggregates,
which take binders (``sum(c in cells: ...)``), live in encoder/interpreter/aggregates.py.

The helpers below check arguments the way every built-in should.
"""

from __future__ import annotations

from ..interpreter.values import describe
from ...board.geometry import SquareGrid

# name -> (static type, impl(it, node))
VALUES: dict = {}
# name -> (argument types, result type, impl(it, node, args))
FUNCTIONS: dict = {}


def value(name: str, type_):
    """Register ``impl(it, node)`` as the built-in value ``name``."""
    def register(impl):
        assert name not in VALUES, f"built-in value {name} defined twice"
        VALUES[name] = (type_, impl)
        return impl
    return register


def function(names, params: list, result):
    """Register ``impl(it, node, args)`` as the built-in function(s) ``names``."""
    def register(impl):
        for name in [names] if isinstance(names, str) else names:
            assert name not in FUNCTIONS, f"built-in function {name} defined twice"
            FUNCTIONS[name] = (params, result, impl)
        return impl
    return register


# ----------------------------------------------------------------- argument checks

def need_geometry(it, node):
    """The board's geometry, or an error if the instance has no cells yet."""
    if it.geometry is None:
        raise it.err(node, "this board has no cells yet")
    return it.geometry


def square_board(it, node, message: str):
    """The geometry of a square board, or ``message`` as an error."""
    geom = need_geometry(it, node)
    if not isinstance(geom, SquareGrid):
        raise it.err(node, message)
    return geom


def cell_arg(it, node, v, i=0):
    """Argument ``i`` (value ``v``) as a cell of the board."""
    geom = it.geometry
    if type(v) is not tuple or geom is None or v not in geom.cell_set:
        raise it.err(node.args[i] if node.args else node, f"expected a cell of the board, "
                     f"but this is {describe(v) if type(v) is not tuple else repr(v)}")
    return v


def clue_place(it, node, v, i=0):
    """Argument ``i`` (value ``v``) as a place a clue may be: a cell of the
    board, or where the instance puts clues besides (outside the grid, on dots)."""
    geom = it.geometry
    if type(v) is tuple and geom is not None:
        if v in geom.cell_set:        # a cell (the usual case): no second look
            return v
        places = it.instance.clue_places()
        if places is not None:
            if v in places:
                return v
            where = ("a dot" if it.instance.points else "a place of the doubled grid"
                     if it.instance.doubled else "a place just outside the grid")
            raise it.err(node.args[i], f"expected a cell of the board or {where}, "
                                       f"but this is {v!r}")
    return cell_arg(it, node, v, i)


def const_int(it, arg_node, v) -> int:
    """An int argument that must not depend on the puzzle's variables."""
    return it.want_const(arg_node, it.want_int(arg_node, v))
