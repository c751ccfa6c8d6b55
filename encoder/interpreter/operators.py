"""Operators: what the Interpreter does once the operands are evaluated.

Indexing and fields, arithmetic, comparisons and logic on any values: plain
values are computed here; where a decision variable takes part the
operation is handed to the Model, which builds the IR.  The closures of
encoder/interpreter/closures.py handle the plain common cases themselves and call these
methods for the rest, and for mistakes to report.
"""

from __future__ import annotations

from ...board.geometry import Edge, Segment
from ...runtime.errors import plural
from ...runtime.limits import MAX_POWER_BITS
from .. import syntax as ast
from ..instance import Record
from ..model import Cases, GroupSize, LinExpr, Node, Var
from .values import SYMBOLIC, PSet, describe, is_bool, is_collection, is_int


class Operators:
    """The generic operations of the Interpreter (a mixin: see evaluate.py)."""

    # ----------------------------------------------------------- atoms

    def _index(self, node, env):
        base = node.base
        if type(base) is ast.Name and base.id not in env and base.id in self.spec.vars:
            stmt = self.spec.vars[base.id]
            if len(node.indices) == 1:
                i = node.indices[0]
                key = (self.want_const(i, self.eval(i, env), "index"),)
            else:
                key = tuple(self.want_const(i, self.eval(i, env), "index") for i in node.indices)
            if len(key) != len(stmt.binders):
                raise self.err(node, f"'{stmt.name}' takes {plural(len(stmt.binders), 'index', 'indices')}, "
                                     f"not {len(key)}")
            return self.variable(stmt, key, node)
        value = self.eval(base, env)
        if len(node.indices) != 1:
            raise self.err(node, "only variables take several indices")
        return self._index_values(node, value, self.eval(node.indices[0], env))

    def _index_values(self, node, value, index):
        """value[index] once both are evaluated (value not a variable)."""
        index = self.want_const(node.indices[0], index, "index")
        if type(value) is Record:
            if index not in value:
                raise self.err(node, f"the JSON object has no field {index!r}")
            return value[index]
        if type(value) in (tuple, str, range, PSet):
            if type(index) is not int:
                raise self.err(node.indices[0], f"a list index is an int, not {describe(index)}")
            if not -len(value) <= index < len(value):
                raise self.err(node.indices[0], f"index {index} is out of range for a list "
                                                f"of {len(value)}")
            return value[index]
        if type(value) in (Edge, Segment):
            return value[index]
        raise self.err(node.base, f"{describe(value)} cannot be indexed")

    def _field(self, node, env):
        value = self.eval(node.base, env)
        if type(value) is Record:
            if node.name not in value:
                keys = ", ".join(sorted(map(str, value))) or "none"
                message = f"the JSON object has no field '{node.name}' (fields: {keys})"
                if self._from_instance(value):
                    raise self.instance.error(None, f"{message}; {self.spec.name} reads it "
                                                    f"at {self.source.path}:{node.pos[0]}")
                raise self.err(node, message)
            return value[node.name]
        if type(value) in (Edge, Segment) and node.name in ("a", "b"):
            return getattr(value, node.name)
        if type(value) is tuple and len(value) == 2 and node.name in ("row", "col"):
            return value[0 if node.name == "row" else 1]
        raise self.err(node, f"{describe(value)} has no field '{node.name}'")

    def _from_instance(self, record) -> bool:
        """Is this record part of the instance's JSON (not a table the spec built)?"""
        data = self.instance.data
        stack = [data]
        while stack:
            x = stack.pop()
            if x is record:
                return True
            if type(x) is Record:
                stack.extend(v for v in x.values() if type(v) in (Record, tuple))
            elif type(x) is tuple:
                stack.extend(v for v in x if type(v) in (Record, tuple))
        return False

    # ----------------------------------------------------------- arithmetic

    def _neg_value(self, node, v):
        v = self.want_int(node.operand, v)
        if type(v) is int:
            return -v
        return self.model.scale(v, -1)

    def _binary_values(self, node, a, b):
        op = node.op
        if op in "+-" and (is_collection(a) or is_collection(b)) and type(a) is not str:
            return self._collection_arith(node, op, a, b)
        if op == "+" and type(a) is str and type(b) is str:
            return a + b
        a = self.want_int(node.left, a)
        b = self.want_int(node.right, b)
        if type(a) is int and type(b) is int:
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "^":
                return self._int_power(node, a, b)
            if b == 0:
                raise self.err(node, "division by zero")
            return a // b if op == "/" else a % b
        m = self.model
        if op == "+":
            return m.add(a, b)
        if op == "-":
            return m.add(a, b, -1)
        if op == "*":
            return m.mul(a, b)
        if op == "^":
            return self._power_cases(node, a, b)
        if type(b) is int and type(a) in (Var, Cases):
            if b == 0:
                raise self.err(node, "division by zero")
            f = (lambda v: v // b) if op == "/" else (lambda v: v % b)
            return m.cases([(c, f(v)) for c, v in m.fd_pairs(a)])
        raise self.err(node, f"'{op}' needs a constant divisor and a single variable or constant")

    def _int_power(self, node, a: int, b: int) -> int:
        if b < 0:
            raise self.err(node.right, f"'^' takes an exponent of 0 or more, not {b}")
        try:
            return int_power(a, b)
        except ValueError as e:
            raise self.err(node, str(e)) from None

    def _power_cases(self, node, a, b):
        """a ^ b where a variable takes part: the power of each pair of values,
        as `*` of two variables builds its cases."""
        m = self.model
        bases, exponents = self._value_pairs(node.left, a), self._value_pairs(node.right, b)
        lowest = min((e for _, e in exponents), default=0)
        if lowest < 0:
            raise self.err(node.right, f"'^' takes an exponent of 0 or more, but this "
                                       f"exponent can be {lowest}")
        try:            # the largest power first: none is too big once it is not
            int_power(max((abs(x) for _, x in bases), default=0),
                      max((e for _, e in exponents), default=0))
        except ValueError as err:
            raise self.err(node, f"with the values its variables can take, {err}") from None
        return m.cases([(m.and_([when_a, when_e]), x ** e)
                        for when_e, e in exponents for when_a, x in bases])

    def _value_pairs(self, side, v) -> list:
        """(condition, value) pairs of an int that is a constant or depends on
        one variable (x, x + 1, 2 * x): a sum of several is refused, as the
        powers of all their combinations would be."""
        m = self.model
        if type(v) is int:
            return [(m.TRUE, v)]
        if type(v) is not LinExpr:
            return m.fd_pairs(v)
        if not v.terms:
            return [(m.TRUE, v.const)]
        if len(v.terms) > 1:
            raise self.err(side, "'^' needs a constant or a single variable on each side, "
                                 "not a sum of several (a product such as (x + y) * (x + y) "
                                 "takes one)")
        (atom, coef), = v.terms.items()
        values = [(atom, 1), (m.not_(atom), 0)] if type(atom) is Node else m.fd_pairs(atom)
        return [(when, coef * x + v.const) for when, x in values]

    def _collection_arith(self, node, op, a, b):
        for side, v in ((node.left, a), (node.right, b)):
            if not is_collection(v):
                raise self.err(side, f"'{op}' on sets needs two sets, but this is {describe(v)}")
        self.want_storable(node, len(a) + (len(b) if op == "+" else 0))
        if type(a) in (PSet, range) or type(b) in (PSet, range):
            if op == "+":
                return PSet(list(a) + list(b))
            drop = set(b)
            return PSet(x for x in a if x not in drop)
        if op == "+":
            return tuple(a) + tuple(b)
        drop = set(b)
        return tuple(x for x in a if x not in drop)

    def _range(self, node, env):
        lo = self.want_const(node.low, self.want_int(node.low, self.eval(node.low, env)))
        hi = self.want_const(node.high, self.want_int(node.high, self.eval(node.high, env)))
        return range(lo, hi + 1)

    # ----------------------------------------------------------- comparisons

    def _compare_values(self, node, a, b):
        op = node.op
        if type(a) is GroupSize or type(b) is GroupSize:
            return self._compare_sizes(node, a, b)
        if op in ("in", "notin"):
            coll = self.want_collection(node.right, b)
            if isinstance(a, SYMBOLIC):
                m = self.model
                if type(a) is LinExpr:
                    r = m.or_([m.compare("=", a, x) for x in coll if type(x) is int])
                elif type(a) is Node:
                    r = m.or_([m.iff(a, m.const(x)) for x in coll if type(x) is bool])
                else:
                    r = m.member(a, [x for x in coll])
                return r if op == "in" else m.not_(r)
            return (a in coll) == (op == "in")
        if op in ("=", "!="):
            self._check_comparable(node, a, b)
            if is_int(a) != is_int(b) and (_other_kind(a) or _other_kind(b)):
                return op == "!="    # a number never equals a symbol, cell or list
            if not isinstance(a, SYMBOLIC) and not isinstance(b, SYMBOLIC):
                if type(a) in (PSet, range) or type(b) in (PSet, range):
                    if is_collection(a) and is_collection(b):   # sets compare as sets
                        return (frozenset(a) == frozenset(b)) == (op == "=")
                return (a == b) == (op == "=")
            m = self.model
            if is_int(a) and is_int(b) and (type(a) is LinExpr or type(b) is LinExpr):
                return m.compare(op, a, b)
            r = m.equal(a, b)
            return r if op == "=" else m.not_(r)
        a = self.want_int(node.left, a)
        b = self.want_int(node.right, b)
        if type(a) is int and type(b) is int:
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        return self.model.compare(op, a, b)

    def _compare_sizes(self, node, a, b):
        """groupsize(...) compared with a number, a finite-domain variable or
        (= and != only) another groupsize over the same groups."""
        op = node.op
        m = self.model
        if op in ("in", "notin"):
            coll = self.want_collection(node.right, b)
            r = m.or_([m.size_compare("=", a, x) for x in coll if type(x) is int])
            return r if op == "in" else m.not_(r)
        r = m.size_compare(op, a, b)
        if r is None:
            other = node.right if type(a) is GroupSize else node.left
            raise self.err(other, "groupsize(...) compares with a number, a variable, or (by "
                                  "= and !=) a groupsize(...) over the same elements, body and "
                                  f"joins; not with {describe(b if type(a) is GroupSize else a)}")
        return r

    def _check_comparable(self, node, a, b):
        if is_bool(a) != is_bool(b):
            other = node.right if is_bool(a) else node.left
            raise self.err(other, "cannot compare a bool with "
                           + describe(b if is_bool(a) else a) + "; both sides of '=' must have one type")

    # ----------------------------------------------------------- logic

    def _boolop_values(self, node, a, b):
        """a op b once a is symbolic (a Node)."""
        op = node.op
        a = self.want_bool(node.left, a)
        b = self.want_bool(node.right, b)
        m = self.model
        if type(b) is bool:
            b = m.const(b)
        if op == "and":
            return m.and_([a, b])
        if op == "or":
            return m.or_([a, b])
        if op == "->":
            return m.implies(a, b)
        return m.iff(a, b)

    def _ite_symbolic(self, node, c, env):
        """`if c then ... else ...` once c is evaluated (mostly a Node)."""
        c = self.want_bool(node.cond, c)
        if type(c) is bool:
            return self.eval(node.then if c else node.other, env)
        a = self.eval(node.then, env)
        b = self.eval(node.other, env)
        m = self.model
        if is_bool(a) != is_bool(b) or _sum_and_other(a, b) or _sum_and_other(b, a):
            raise self.err(node.other, f"both branches of 'if' must have one type: "
                                       f"{describe(a)} and {describe(b)}")
        if is_bool(a):
            return m.ite(c, m.const(a) if type(a) is bool else a, m.const(b) if type(b) is bool else b)
        return m.select(c, a, b)


def int_power(base: int, exponent: int) -> int:
    """base ^ exponent (exponent 0 or more); a ValueError, before the number is
    built, when it is over 2 ^ MAX_POWER_BITS in size."""
    # |base| >= 2 ^ (bits - 1): a power over the bound is known without computing it
    if (abs(base).bit_length() - 1) * exponent > MAX_POWER_BITS or \
            abs(power := base ** exponent) > 1 << MAX_POWER_BITS:
        shown = f"({_number_text(base)})" if base < 0 else _number_text(base)
        raise ValueError(f"{shown} ^ {_number_text(exponent)} is over 2 ^ {MAX_POWER_BITS}, "
                         f"the largest power pzc computes")
    return power


def _number_text(n: int) -> str:
    """n written out, or its length when it is long."""
    if n.bit_length() <= MAX_POWER_BITS:
        return str(n)
    sign = "a negative" if n < 0 else "a"
    return f"{sign} number of about {int(n.bit_length() * 0.30103) + 1:,} digits"


def _other_kind(v) -> bool:
    """A constant that is not a number (a symbol, a cell, a list, ...)."""
    return not is_int(v) and not isinstance(v, SYMBOLIC)


def _sum_and_other(a, b) -> bool:
    """A sum (int-valued, over variables) against a plain value that is no int:
    the two cannot make one value (a symbol clue in an int 'if')."""
    return type(a) is LinExpr and not isinstance(b, SYMBOLIC) and not is_int(b)
