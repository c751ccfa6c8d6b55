"""Built-ins on plain values, not tied to the board: numbers (abs, isqrt)
and lists and sets (len, sorted, set, list).

Add a built-in here if it needs neither the board nor the instance; see
encoder/builtins/registry.py for how.
"""

from __future__ import annotations

import math

from ..instance import Record
from ..interpreter.values import ANY, INT, PSet, coll, describe
from .registry import const_int, function


@function("isqrt", [INT], INT)
def _isqrt(it, node, args):
    n = const_int(it, node.args[0], args[0])
    if n < 0:
        raise it.err(node.args[0], "isqrt of a negative number")
    return math.isqrt(n)


@function("abs", [INT], INT)
def _abs(it, node, args):
    v = it.want_int(node.args[0], args[0])
    if type(v) is int:
        return abs(v)
    m = it.model
    return m.select(m.compare(">=", v, 0), v, m.scale(v, -1))


@function("len", [ANY], INT)
def _len(it, node, args):
    v = args[0]
    if type(v) in (tuple, PSet, range, str, Record):
        return len(v)
    raise it.err(node.args[0], f"len needs a list or set, but this is {describe(v)}")


@function("sorted", [ANY], coll())
def _sorted(it, node, args):
    v = it.want_collection(node.args[0], args[0])
    it.want_storable(node, len(v))
    try:
        return tuple(sorted(v))
    except TypeError:
        raise it.err(node.args[0], "cannot sort a list that mixes numbers and symbols") from None


@function("set", [ANY], coll())
def _set(it, node, args):
    v = it.want_collection(node.args[0], args[0])
    it.want_storable(node, len(v))
    return PSet(v)


@function("list", [ANY], coll())
def _list(it, node, args):
    v = it.want_collection(node.args[0], args[0])
    it.want_storable(node, len(v))
    return tuple(v)
