"""Built-ins that read the instance: the clues written on the board, the
target grid of a plan, the JSON input of a json board, and tokens as the
board prints them.

Add a built-in here if it reads what the instance gives; see
encoder/builtins/registry.py for how.
"""

from __future__ import annotations

import re

from ..instance import Record
from ..model import Cases, Var
from ..interpreter.values import ANY, BOOL, CELL, INT, SYM, SYMBOLIC, PSet, coll, describe
from .registry import cell_arg, clue_place, function, value

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
    cell = clue_place(it, node, args[0])
    value = it.instance.clues.get(cell, _MISSING)
    if value is _MISSING:
        raise it.err(node, f"cell {cell} has no clue; test given(c) first")
    it.clue_cells[node] = cell       # a value that is wrong where used is shown here
    if it.clue_reads is not None:    # explain: this rule instance states the clue
        it.clue_reads.add(cell)
    return value


@function("given", [CELL], BOOL)
def _given(it, node, args):
    cell = clue_place(it, node, args[0])
    if cell in it.instance.clues:
        if it.clue_reads is not None:    # explain: this rule instance states the clue
            it.clue_reads.add(cell)
        return True
    return False


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


@function("int", [ANY], INT)
def _int(it, node, args):
    """int(s): the number a symbol spells in decimal ("23", "-4"); a number
    is itself.  Reads instance tokens such as Kakuro's "23,7" with split."""
    v = args[0]
    if type(v) is int:
        return v
    if type(v) is str and _DECIMAL.fullmatch(v):
        return int(v)
    what = f"the symbol {v!r}" if type(v) is str else describe(v)
    arg = node.args[0]
    raise it.value_err(arg, f"int needs a number or a symbol that spells one, not {what}",
                       f"int needs a number here, but this clue is {what}")


_DECIMAL = re.compile(r"[-+]?[0-9]+")


@function("split", [ANY, SYM], coll(SYM))
def _split(it, node, args):
    """split(s, sep): the list of the parts of symbol s between the
    occurrences of sep, as symbols (a number is split as its decimal
    digits' text): split("23,7", ",") = ["23", "7"]."""
    v, sep = args
    if type(v) is int:
        v = str(v)
    if type(v) is not str:
        raise it.value_err(node.args[0], f"split needs a symbol, not {describe(v)}",
                           f"split needs a symbol, but this clue is {describe(v)}")
    if type(sep) is not str or not sep:
        raise it.err(node.args[1], "the separator of split is a non-empty symbol, "
                                   f"such as \",\", not {describe(sep) if sep != '' else 'empty'}")
    return tuple(v.split(sep))


@function("layer", [SYM], ANY)
def _layer(it, node, args):
    """layer("name"): the instance's grid `name` (declared with `layers`) as a
    table from each cell that is not blank to its value; a spec reads it by the
    layer's name, `name[c]`."""
    name = args[0]
    table = it.instance.layers.get(name)
    if table is None:
        raise it.err(node, f"the instance has no layer named {name!r}; the spec's "
                           f"'layers' line names its grids")
    return table


@function("param", [SYM], INT)
def _param(it, node, args):
    """param("name"): the instance's parameter `name` (declared with `param`);
    a spec reads it by its name."""
    name = args[0]
    if name not in it.instance.params:
        raise it.err(node, f"the instance gives no parameter named {name!r}")
    return it.instance.params[name]
