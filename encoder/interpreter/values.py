"""The values of the spec language.

At run time a value is a plain Python value: an int, a bool, a symbol (str),
a cell (a (row, column) tuple), an edge or segment, a list (tuple), a set
(``PSet``), a range or a JSON record; where a decision variable takes part it
is symbolic (a model Node, Var, Cases or LinExpr, see ``SYMBOLIC``).

The checker works on static types, named here too: ``BOOL``, ``INT``,
``SYM``, ``CELL``, ``EDGE``, ``SEGMENT``, ``ANY`` and ``coll(elem)`` for a
set or list of elements; the built-ins declare theirs with these names.
"""

from __future__ import annotations

from ...board.geometry import Edge, Segment
from ...runtime.clock import STEP, big_dict, big_set
from ..instance import Record
from ..model import Cases, GroupSize, LinExpr, Node, Var

BOOL, INT, SYM, CELL, EDGE, ANY = "bool", "int", "symbol", "cell", "edge", "any"
SEGMENT = "segment"


def coll(elem=ANY):
    """The static type of a set or list of ``elem``."""
    return ("set", elem)


class PSet(tuple):
    """An ordered set: iteration in insertion order, set equality and membership.

    No __slots__: the members' set (and the hash) is kept on the set itself
    once asked for (a cache beside it would keep every instance's sets alive,
    for the collector to walk again and again)."""

    def __new__(cls, items=()):
        if type(items) in (list, tuple) and len(items) > STEP:   # in steps a limit can stop
            return super().__new__(cls, big_dict(items))
        return super().__new__(cls, dict.fromkeys(items))

    @classmethod
    def of_distinct(cls, items) -> "PSet":
        """The set of ``items``, known to be distinct (a board's cells): no
        table of them is built until a membership test needs one."""
        return tuple.__new__(cls, items)

    def __contains__(self, item):
        try:
            return item in _members(self)
        except TypeError:
            return False

    def __eq__(self, other):
        return isinstance(other, PSet) and _members(self) == _members(other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        try:
            return self.hashed
        except AttributeError:
            self.hashed = hash(frozenset(_members(self)))
            return self.hashed

    def __repr__(self):
        return "{" + ", ".join(map(repr, self)) + "}"


def _members(s: PSet) -> set:
    try:
        return s.members
    except AttributeError:
        s.members = big_set(s)
        return s.members


SYMBOLIC = (Node, Var, Cases, LinExpr)


def describe(v) -> str:
    """A short description of a value's type, for error messages."""
    t = type(v)
    if t is bool:
        return "a bool"
    if t is int:
        return "an int"
    if t is str:
        return "a symbol"
    if t is Node:
        return "a bool expression"
    if t is LinExpr or (t in (Var, Cases) and v.numeric):
        return "an int expression"
    if t is Var and v.domain is None:
        return "a bool variable"
    if t in (Var, Cases):
        return "a symbol expression"
    if t is Edge:
        return "an edge"
    if t is Segment:
        return "a segment"
    if t is Record:
        return "a JSON object"
    if t is PSet:
        return "a set"
    if t is range:
        return "a range"
    if t is tuple:
        if len(v) == 2 and all(type(x) is int for x in v):
            return "a cell"
        return "a list"
    if v is None:
        return "nothing"
    if t is GroupSize:
        return "a groupsize(...) of the variables"
    return type(v).__name__


def is_bool(v) -> bool:
    return type(v) is bool or type(v) is Node


def is_int(v) -> bool:
    t = type(v)
    return t is int or t is LinExpr or (t in (Var, Cases) and v.numeric)


def is_collection(v) -> bool:
    return type(v) in (tuple, PSet, range, str)
