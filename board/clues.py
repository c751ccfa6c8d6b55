"""Built-ins that read the instance: the clues written on the board, the
target grid of a plan, the JSON input of a json board, and tokens as the
board prints them.

Add a built-in here if it reads what the instance gives; see
board/registry.py for how.
"""

from __future__ import annotations

from ..encoder.instance import Record
from ..encoder.model import Cases, Var
from ..encoder.values import ANY, BOOL, CELL, SYM, SYMBOLIC, PSet, coll, describe
from .registry import cell_arg, function, value

_MISSING = object()


@value("labels", coll(ANY))
def _labels(it, node):
    return PSet(sorted(set(it.instance.clues.values()), key=lambda v: (type(v) is str, v)))


@value("input", ANY)
def _input(it, node):
    if it.instance.data is None:
        raise it.err(node, "'input' is the JSON instance of a json board")
    return it.instance.data


@value("has_target", BOOL)
def _has_target(it, node):
    return it.instance.target is not None


@function("clue", [CELL], ANY)
def _clue(it, node, args):
    cell = cell_arg(it, node, args[0])
    value = it.instance.clues.get(cell, _MISSING)
    if value is _MISSING:
        raise it.err(node, f"cell {cell} has no clue; test given(c) first")
    return value


@function("given", [CELL], BOOL)
def _given(it, node, args):
    return cell_arg(it, node, args[0]) in it.instance.clues


@function("target", [CELL], ANY)
def _target(it, node, args):
    cell = cell_arg(it, node, args[0])
    grid = it.instance.target
    if grid is None:
        raise it.err(node, "this instance gives no target grid; test has_target first")
    return grid[cell]


@function("locked", [CELL], BOOL)
def _locked(it, node, args):
    return cell_arg(it, node, args[0]) in it.instance.locked


@function("token", [ANY], SYM)
def _token(it, node, args):
    """token(v): v as the board prints it (numbers 10..35 as A..Z on character
    grids, decimal elsewhere; symbols as they are), e.g. to name a piece or
    to look up a JSON field whose names are numbers."""
    v = args[0]
    layout = it.instance.layout
    if type(v) in (Var, Cases):
        return it.model.cases([(c, token_text(x, layout)) for c, x in it.model.fd_pairs(v)])
    if isinstance(v, SYMBOLIC) or not isinstance(v, (int, str)):
        raise it.err(node.args[0], f"token needs a number or a symbol, not {describe(v)}")
    return token_text(v, layout)


def token_text(value, layout) -> str:
    """A value as a board of this layout prints it."""
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is int and layout in ("chars", "lines") and 0 <= value < 36:
        return _BASE36_DIGITS[value]
    return str(value)


_BASE36_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@function("group", [ANY], ANY)
def _group(it, node, args):
    """group(pairs): a table from each key to the list of its values, read as
    table[key] or get(table, key, default)."""
    pairs = it.want_collection(node.args[0], args[0])
    table = {}
    for p in pairs:
        if not (type(p) is tuple and len(p) == 2):
            raise it.err(node.args[0], f"group takes (key, value) pairs, but one is {describe(p)}")
        table.setdefault(p[0], []).append(p[1])
    return Record({k: tuple(v) for k, v in table.items()})


@function("get", [ANY, ANY, ANY], ANY)
def _get(it, node, args):
    record, key, default = args
    if type(record) is not Record:
        raise it.err(node.args[0], f"get reads a field of a JSON object, not {describe(record)}")
    return record.get(key, default)
