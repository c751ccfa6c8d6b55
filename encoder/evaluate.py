"""The spec interpreter shared by grounding and verification.

An ``Interpreter`` walks the AST of a spec on one instance.  Constant parts are
computed with plain Python values: ints, bools, symbols (str), cells (tuples),
edges, lists (tuples), sets (``PSet``) and JSON records.  Where a decision
variable appears, the value is symbolic (a model Node, Var, Cases or LinExpr)
and the operation is handed to the Model, which builds the IR.

The grounder (ground.py) reads a variable as its model atom; the verifier
(verify.py) reads it as the decoded value, so that every rule folds to a plain
True or False without any solver or model involved.
"""

from __future__ import annotations

import math
import operator
from itertools import product

from ..errors import PzcError
from ..board.geometry import Edge, Geometry, HexGrid, Segment, SquareGrid
from ..board.graphs import adjacency, components
from ..errors import plural
from . import syntax as ast
from .instance import Record
from .limits import MAX_COLLECTION_ITEMS
from .model import Cases, LinExpr, Node, Var, is_fd


class PSet(tuple):
    """An ordered set: iteration in insertion order, set equality and membership."""

    __slots__ = ()

    def __new__(cls, items=()):
        return super().__new__(cls, dict.fromkeys(items))

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
        return hash(_members(self))

    def __repr__(self):
        return "{" + ", ".join(map(repr, self)) + "}"


_member_cache = {}


def _members(s: PSet) -> frozenset:
    key = id(s)
    hit = _member_cache.get(key)
    if hit is None or hit[0] is not s:
        if len(_member_cache) > 4096:
            _member_cache.clear()
        hit = (s, frozenset(tuple.__iter__(s)))
        _member_cache[key] = hit
    return hit[1]


SYMBOLIC = (Node, Var, Cases, LinExpr)
MAX_BOARD = 4_000_000      # cells in a board's bounding box


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
    return type(v).__name__


def is_bool(v) -> bool:
    return type(v) is bool or type(v) is Node


def is_int(v) -> bool:
    t = type(v)
    return t is int or t is LinExpr or (t in (Var, Cases) and v.numeric)


def is_collection(v) -> bool:
    return type(v) in (tuple, PSet, range, str)


class Interpreter:
    """Evaluates spec expressions on one instance (see the module docstring)."""

    def __init__(self, spec: ast.Spec, instance, model=None):
        self.spec = spec
        self.instance = instance
        self.model = model
        self.source = spec.source
        self.geometry = instance.geometry
        self._let_values = {}
        self._let_busy = set()
        self._memo = {}
        self.state_reads = 0      # plans: reads of a `state`, whose value depends on the step
        self._depth = 0
        self._adjacency = {}      # connected(...) over the same elements: one graph
        self.builtins = _builtin_values()
        self._code = {}               # AST node -> its closure (see code())
        self._builtin_values = {}     # name -> value of a builtin such as cells or labels
        if spec.board.kind == "json":
            self._setup_json_board()

    def release(self):
        """Drop the closures: they refer back to the interpreter, a cycle that
        would keep it and its model alive until the garbage collector runs.
        They are built again if the interpreter is used later."""
        self._code.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    # ----------------------------------------------------------- errors

    def err(self, node, message: str) -> PzcError:
        return self.source.error(node.pos, message)

    def want_bool(self, node, v):
        if type(v) is bool or type(v) is Node:
            return v
        raise self.err(node, f"expected a bool here, but this is {describe(v)}")

    def want_int(self, node, v):
        if type(v) is int or type(v) is LinExpr or (type(v) in (Var, Cases) and v.numeric):
            return v
        if type(v) is bool or type(v) is Node:
            raise self.err(node, "a bool is used as an int here; count(...) or "
                                 "'if ... then 1 else 0' turns bools into numbers")
        raise self.err(node, f"expected an int here, but this is {describe(v)}")

    def want_const(self, node, v, what="value"):
        if isinstance(v, SYMBOLIC):
            raise self.err(node, f"this {what} must not depend on the puzzle's variables")
        return v

    def want_collection(self, node, v):
        if type(v) in (tuple, PSet, range, str):
            return v
        if isinstance(v, SYMBOLIC):
            raise self.err(node, "a set to range over must not depend on the puzzle's variables")
        raise self.err(node, f"expected a set or list here, but this is {describe(v)}")

    # ----------------------------------------------------------- entry points

    def eval(self, node, env):
        f = self._code.get(node)
        if f is None:
            f = self.code(node)
        return f(env)

    # ----------------------------------------------------------- closures

    def code(self, node):
        """A closure env -> value for ``node``, built once per node.  Each
        kind's compiler (_COMPILERS) makes a closure that calls its children's
        closures directly and handles the common plain values in place,
        leaving the rest (symbolic values, mistakes to report) to the methods
        below; kinds without one, or cases a compiler declines, wrap the
        generic method (_GENERIC)."""
        f = self._code.get(node)
        if f is None:
            make = _COMPILERS.get(type(node))
            if make is not None:
                f = make(self, node)
            if f is None:
                method = _GENERIC[type(node)]
                f = lambda env: method(self, node, env)
            self._code[node] = f
        return f

    def _c_const(self, node):
        value = node.value
        return lambda env: value

    def _c_name(self, node):
        name = node.id
        global_value = self.global_value
        get_missing = _MISSING
        # a let's or builtin's value, once known, is read from its cache here
        spec = self.spec
        cache = (self._let_values if name in spec.lets else
                 self._builtin_values if name not in spec.vars and name in self.builtins else {})

        def f(env):
            v = env.get(name, get_missing)
            if v is not get_missing:
                return v
            v = cache.get(name, get_missing)
            if v is not get_missing:
                return v
            return global_value(name, node)
        return f

    def _c_index(self, node):
        base = node.base
        if len(node.indices) != 1:
            return None
        index_node = node.indices[0]
        index = self.code(index_node)
        slow = self._index
        if not (type(base) is ast.Name and base.id in self.spec.vars):
            base_code = self.code(base)
            values = self._index_values

            def f(env):
                value = base_code(env)
                i = index(env)
                if type(i) is int and type(value) is tuple and -len(value) <= i < len(value):
                    return value[i]
                return values(node, value, i)
            return f
        name = base.id
        stmt = self.spec.vars[name]
        if len(stmt.binders) != 1:
            return None
        read = self.reader(stmt)

        def f(env):
            if name in env:                  # a local name hides the variable
                return slow(node, env)
            k = index(env)
            if isinstance(k, SYMBOLIC):
                raise self.err(index_node, "this index must not depend on the puzzle's variables")
            return read((k,), node)
        if type(index_node) is not ast.Name:
            return f
        key_name = index_node.id

        def by_name(env):
            # v[c] with c bound: the commonest read, its index looked up here
            k = env.get(key_name, _MISSING)
            if k is _MISSING or name in env or isinstance(k, SYMBOLIC):
                return f(env)
            return read((k,), node)
        return by_name

    def _c_field(self, node):
        base = self.code(node.base)
        name = node.name
        slow = self._field

        def f(env):
            value = base(env)
            t = type(value)
            if (t is Edge or t is Segment) and name in ("a", "b"):
                return value[0] if name == "a" else value[1]
            if t is tuple and len(value) == 2 and name in ("row", "col"):
                return value[0] if name == "row" else value[1]
            return slow(node, env)
        return f

    def _c_compare(self, node):
        left, right = self.code(node.left), self.code(node.right)
        slow = self._compare_values
        order = _ORDER.get(node.op)
        if order is not None:
            def ordered(env):
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return order(a, b)
                return slow(node, a, b)
            return ordered
        if node.op not in ("=", "!="):
            return lambda env: slow(node, left(env), right(env))
        equal = node.op == "="
        plain = (int, str, tuple, bool)

        eq = self.model.eq if self.model is not None else None
        same = self.model.same if self.model is not None else None
        not_ = self.model.not_ if self.model is not None else None
        values = (int, str, tuple)

        def f(env):
            a = left(env)
            b = right(env)
            ta, tb = type(a), type(b)
            if ta is tb and ta in plain:
                return (a == b) == equal
            # the hot case of grounding: a finite-domain variable against a value
            if ta is Var and tb in values and a.domain is not None:
                r = eq(a, b)
                return r if equal else not_(r)
            if ta is Var and tb is Var and a.domain is not None and b.domain is not None:
                r = same(a, b)               # what equal() gives two such variables
                return r if equal else not_(r)
            return slow(node, a, b)
        return f

    def _c_boolop(self, node):
        left, right = self.code(node.left), self.code(node.right)
        op = node.op
        slow = self._boolop_values
        if op == "<->":
            def iff(env):
                a = left(env)
                if type(a) is bool:
                    b = self.want_bool(node.right, right(env))
                    if type(b) is bool:
                        return a == b
                    return b if a else self.model.not_(b)
                return slow(node, a, right(env))
            return iff
        # value of the left side that decides alone, and the result then
        decide = {"and": (False, False), "or": (True, True), "->": (False, True)}[op]

        def f(env):
            a = left(env)
            if type(a) is bool:
                if a == decide[0]:
                    return decide[1]
                b = right(env)
                if type(b) is bool or type(b) is Node:
                    return b
                return self.want_bool(node.right, b)
            return slow(node, a, right(env))
        return f

    def _c_not(self, node):
        operand = self.code(node.operand)

        def f(env):
            v = operand(env)
            if type(v) is bool:
                return not v
            return self.model.not_(self.want_bool(node.operand, v))
        return f

    def _c_neg(self, node):
        operand = self.code(node.operand)

        def f(env):
            v = operand(env)
            if type(v) is int:
                return -v
            return self._neg_value(node, v)
        return f

    def _c_binary(self, node):
        left, right = self.code(node.left), self.code(node.right)
        arith = _ARITH[node.op]
        divides = node.op in ("/", "%")      # by zero: the generic path reports it
        slow = self._binary_values

        def f(env):
            a = left(env)
            b = right(env)
            if type(a) is int and type(b) is int and (b or not divides):
                return arith(a, b)
            return slow(node, a, b)
        return f

    def _c_ite(self, node):
        cond, then, other = self.code(node.cond), self.code(node.then), self.code(node.other)
        slow = self._ite_symbolic

        def f(env):
            c = cond(env)
            if c is True:
                return then(env)
            if c is False:
                return other(env)
            return slow(node, c, env)
        return f

    def _c_quant(self, node):
        body = self.code(node.body)
        binders = node.binders
        universal = node.kind == "all"
        bind = self.bind
        want_bool = self.want_bool

        def f(env):
            env = dict(env)
            out = []
            m = self.model
            for guard in bind(binders, env):
                v = body(env)
                if guard is not None:
                    v = want_bool(node.body, v)
                    v = (m.implies(guard, m.const(v) if type(v) is bool else v) if universal
                         else m.and_([guard, m.const(v) if type(v) is bool else v]))
                if type(v) is bool:
                    if v is not universal:
                        return v
                    continue
                if type(v) is not Node:
                    want_bool(node.body, v)
                if v is m.TRUE or v is m.FALSE:
                    if (v is m.TRUE) is not universal:
                        return not universal
                    continue
                out.append(v)
            if not out:
                return universal
            return m.and_(out) if universal else m.or_(out)
        return f

    def _c_call(self, node):
        name = node.func
        slow = self._call
        if name in self.spec.lets:
            let = self.spec.lets[name]
            if let.params is None or node.binders is not None or len(node.args) != len(let.params):
                return None                  # the generic path reports the mistake
            args = [self.code(a) for a in node.args]
            apply = self._apply_let

            def call_let(env):
                if name in env:
                    return slow(node, env)
                return apply(node, let, tuple([a(env) for a in args]))
            return call_let
        agg = AGGREGATES.get(name)
        if agg is not None:
            return lambda env: agg(self, node, env)
        fn = BUILTIN_FUNCTIONS.get(name)
        if fn is None or node.binders is not None or len(node.args) not in fn[0]:
            return None
        impl = fn[1]
        args = [self.code(a) for a in node.args]
        if len(args) == 1:
            arg = args[0]
            return lambda env: impl(self, node, [arg(env)])
        if len(args) == 2:
            first, second = args
            return lambda env: impl(self, node, [first(env), second(env)])
        return lambda env: impl(self, node, [a(env) for a in args])

    def variable(self, stmt: ast.Var, key: tuple, node):
        """The value of spec variable ``stmt`` at ``key`` (subclasses decide)."""
        raise NotImplementedError

    def reader(self, stmt: ast.Var):
        """A function (key, node) -> the value of ``stmt`` at key, as
        ``variable`` gives it; subclasses return quicker ones."""
        variable = self.variable
        return lambda key, node: variable(stmt, key, node)

    def global_value(self, name: str, node):
        if name in self.spec.lets:
            let = self.spec.lets[name]
            if let.params is not None:
                raise self.err(node, f"'{name}' is a function of {len(let.params)} "
                                     f"argument(s); call it as {name}(...)")
            if name in self._let_values:
                return self._let_values[name]
            if name in self._let_busy:
                raise self.err(node, f"'{name}' is defined in terms of itself")
            self._let_busy.add(name)
            reads = self.state_reads
            try:
                value = self.eval(let.body, {})
            finally:
                self._let_busy.discard(name)
            if self.state_reads == reads:      # a value read from a state is per step
                self._let_values[name] = value
            return value
        if name in self.spec.vars:
            var = self.spec.vars[name]
            if var.binders:
                raise self.err(node, f"'{name}' is indexed: write {name}[...]")
            return self.variable(var, (), node)
        fn = self.builtins.get(name)
        if fn is not None:
            # builtins depend on the instance only: compute each once
            value = self._builtin_values.get(name, _MISSING)
            if value is _MISSING:
                value = self._builtin_values[name] = fn(self, node)
            return value
        if name in BUILTIN_FUNCTIONS:
            raise self.err(node, f"'{name}' is a function: call it as {name}(...)")
        raise self.err(node, f"unknown name '{name}'")

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
        if type(b) is int and type(a) in (Var, Cases):
            if b == 0:
                raise self.err(node, "division by zero")
            f = (lambda v: v // b) if op == "/" else (lambda v: v % b)
            return m.cases([(c, f(v)) for c, v in m.fd_pairs(a)])
        raise self.err(node, f"'{op}' needs a constant divisor and a single variable or constant")

    def _collection_arith(self, node, op, a, b):
        for side, v in ((node.left, a), (node.right, b)):
            if not is_collection(v):
                raise self.err(side, f"'{op}' on sets needs two sets, but this is {describe(v)}")
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
        if is_bool(a) != is_bool(b):
            raise self.err(node.other, f"both branches of 'if' must have one type: "
                                       f"{describe(a)} and {describe(b)}")
        if is_bool(a):
            return m.ite(c, m.const(a) if type(a) is bool else a, m.const(b) if type(b) is bool else b)
        return m.select(c, a, b)

    # ----------------------------------------------------------- binders

    def bind(self, binders, env, i=0, guard=None):
        """Yield the guard (None, or a bool Node from a symbolic `where`) for every
        combination of binder values, with ``env`` updated in place."""
        if i == len(binders):
            yield guard
            return
        b = binders[i]
        coll = self.want_collection(b.source, self.eval(b.source, env))
        names = b.names
        last = i == len(binders) - 1
        saved = [env.get(n, _MISSING) for n in names]
        try:
            if last and len(names) == 1 and b.where is None:
                name = names[0]
                for value in coll:
                    env[name] = value
                    yield guard
                return
            for value in coll:
                if len(names) == 1:
                    env[names[0]] = value
                else:
                    if not isinstance(value, tuple) or len(value) != len(names):
                        raise self.err(b, f"cannot unpack {describe(value)} into "
                                          f"{len(names)} names")
                    for n, x in zip(names, value):
                        env[n] = x
                g = guard
                if b.where is not None:
                    w = self.want_bool(b.where, self.eval(b.where, env))
                    if w is False:
                        continue
                    if w is not True:
                        g = w if g is None else self.model.and_([g, w])
                if last:             # no generator per element for the innermost binder
                    yield g
                else:
                    yield from self.bind(binders, env, i + 1, g)
        finally:
            for n, old in zip(names, saved):
                if old is _MISSING:
                    env.pop(n, None)
                else:
                    env[n] = old

    def _c_collection(self, node):
        items = [(x, self.code(x)) for x in node.items]
        make = PSet if node.kind == "set" else tuple
        want_const = self.want_const

        def f(env):
            values = []
            for x, code in items:
                v = code(env)
                if isinstance(v, SYMBOLIC):
                    want_const(x, v)         # says why it must not be
                values.append(v)
            return make(values)
        return f

    def _c_comprehension(self, node):
        body = self.code(node.body)
        binders = node.binders
        make = PSet if node.kind == "set" else tuple
        bind = self.bind
        want_const = self.want_const

        def f(env):
            env = dict(env)
            items = []
            for guard in bind(binders, env):
                if guard is not None:
                    raise self.err(node, "the filter of a list or set must not depend on variables")
                v = body(env)
                if isinstance(v, SYMBOLIC):
                    want_const(node.body, v)
                items.append(v)
                if len(items) > MAX_COLLECTION_ITEMS:
                    raise self.err(node, f"this {node.kind} has more than "
                                         f"{MAX_COLLECTION_ITEMS:,} elements; pzc allows at "
                                         f"most {MAX_COLLECTION_ITEMS:,}")
            return make(items)
        return f

    # ----------------------------------------------------------- calls

    def _call(self, node, env):
        name = node.func
        if name not in env and name in self.spec.lets:
            return self._call_let(node, env)
        agg = AGGREGATES.get(name)
        if agg is not None:
            return agg(self, node, env)
        fn = BUILTIN_FUNCTIONS.get(name)
        if fn is None:
            if name in self.spec.vars:
                raise self.err(node, f"'{name}' is a variable: index it as {name}[...]")
            raise self.err(node, f"unknown function '{name}'")
        if node.binders is not None:
            raise self.err(node, f"'{name}' takes plain arguments, not binders")
        arity, impl = fn
        if len(node.args) not in arity:
            want = " or ".join(str(a) for a in arity)
            raise self.err(node, f"'{name}' takes {want} argument{'' if arity == (1,) else 's'}, not {len(node.args)}")
        args = [self.eval(a, env) for a in node.args]
        return impl(self, node, args)

    def _call_let(self, node, env):
        let = self.spec.lets[node.func]
        if let.params is None:
            raise self.err(node, f"'{let.name}' is a value, not a function")
        if node.binders is not None:
            raise self.err(node, f"'{let.name}' takes plain arguments, not binders")
        if len(node.args) != len(let.params):
            raise self.err(node, f"'{let.name}' takes {plural(len(let.params), 'argument')}, "
                                 f"not {len(node.args)}")
        return self._apply_let(node, let, tuple(self.eval(a, env) for a in node.args))

    def _apply_let(self, node, let, args):
        """A let function's value on evaluated arguments (memoised when constant)."""
        key = None
        if not any(isinstance(a, SYMBOLIC) for a in args):
            try:
                key = (let.name, args)
                hit = self._memo.get(key, _MISSING)
                if hit is not _MISSING:
                    return hit
            except TypeError:
                key = None
        if self._depth > 200:
            raise self.err(node, "functions call each other too deeply")
        self._depth += 1
        reads = self.state_reads
        try:
            value = self.eval(let.body, dict(zip(let.params, args)))
        finally:
            self._depth -= 1
        if key is not None and self.state_reads == reads:
            self._memo[key] = value
        return value

    # ----------------------------------------------------------- JSON boards

    def _setup_json_board(self):
        if "cells" not in self.spec.lets:
            raise self.source.error(self.spec.board.pos, "a json board needs 'let cells = ...', "
                                    "the set of (row, column) cells read from the instance")
        let = self.spec.lets["cells"]
        cells = self.eval(let.body, {})
        if not is_collection(cells) or not all(
                type(c) is tuple and len(c) == 2 and all(type(x) is int and x >= 0 for x in c)
                for c in cells):
            raise self.err(let.body, "cells must be a set of (row, column) pairs of "
                                     "non-negative ints")
        if not cells:
            raise self.err(let.body, "this instance has no cells")
        cells = sorted(set(cells))
        width = max(c for _, c in cells) + 1
        height = max(r for r, _ in cells) + 1
        if width * height > MAX_BOARD:
            raise self.instance.error(None, f"the board spans {height} x {width} cells "
                                            f"(rows and columns from 0); at most {MAX_BOARD} "
                                            "are supported")
        self.geometry = SquareGrid(width, height, cells)
        self.instance.geometry = self.geometry


_MISSING = object()

# AST kind -> the Interpreter method that builds its closure
_COMPILERS = {
    ast.Num: Interpreter._c_const, ast.Str: Interpreter._c_const,
    ast.BoolLit: Interpreter._c_const, ast.Name: Interpreter._c_name,
    ast.Index: Interpreter._c_index, ast.Field: Interpreter._c_field,
    ast.Compare: Interpreter._c_compare, ast.BoolOp: Interpreter._c_boolop,
    ast.Not: Interpreter._c_not, ast.Neg: Interpreter._c_neg,
    ast.Binary: Interpreter._c_binary, ast.Ite: Interpreter._c_ite,
    ast.Quant: Interpreter._c_quant, ast.Call: Interpreter._c_call,
    ast.Collection: Interpreter._c_collection, ast.Comprehension: Interpreter._c_comprehension,
}
# kinds without a compiler, or whose compiler declined: the method evaluating them
_GENERIC = {
    ast.Index: Interpreter._index, ast.Call: Interpreter._call, ast.Range: Interpreter._range,
}
_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "/": operator.floordiv, "%": operator.mod}


# ----------------------------------------------------------------- builtins

def _cell_arg(it: Interpreter, node, v, i=0):
    geom = it.geometry
    if type(v) is not tuple or geom is None or v not in geom.cell_set:
        raise it.err(node.args[i] if node.args else node, f"expected a cell of the board, "
                     f"but this is {describe(v) if type(v) is not tuple else repr(v)}")
    return v


def _need_geometry(it, node):
    if it.geometry is None:
        raise it.err(node, "this board has no cells yet")
    return it.geometry


def _builtin_values():
    return {
        "cells": lambda it, n: PSet(_need_geometry(it, n).cells),
        "rows": lambda it, n: _need_geometry(it, n).rows(),
        "cols": lambda it, n: _cols(it, n),
        "edges": lambda it, n: _need_geometry(it, n).edges(),
        "width": lambda it, n: _need_geometry(it, n).width,
        "height": lambda it, n: _need_geometry(it, n).height,
        "side": lambda it, n: _side(it, n),
        "labels": lambda it, n: PSet(sorted(set(it.instance.clues.values()),
                                            key=lambda v: (type(v) is str, v))),
        "input": lambda it, n: _input(it, n),
        "dots": lambda it, n: _lattice(it, n).dots(),
        "segments": lambda it, n: _lattice(it, n).segments(),
        "has_target": lambda it, n: it.instance.target is not None,
    }


def _lattice(it, node):
    geom = _need_geometry(it, node)
    if not isinstance(geom, SquareGrid):
        raise it.err(node, "the dot lattice (dots, segments, sides) is for square boards")
    return geom


def _cols(it, node):
    geom = _need_geometry(it, node)
    if isinstance(geom, HexGrid):
        raise it.err(node, "a hex board has no columns")
    return geom.cols()


def _side(it, node):
    geom = _need_geometry(it, node)
    if not isinstance(geom, HexGrid):
        raise it.err(node, "'side' is the side length of a hex board")
    return geom.side


def _input(it, node):
    if it.instance.data is None:
        raise it.err(node, "'input' is the JSON instance of a json board")
    return it.instance.data


def _neighbours(it, node, args):
    return _need_geometry(it, node).neighbours(_cell_arg(it, node, args[0]))


def _around(it, node, args):
    geom = _need_geometry(it, node)
    if not isinstance(geom, SquareGrid):
        raise it.err(node, "'around' is for square boards")
    return geom.diagonal_neighbours(_cell_arg(it, node, args[0]))


def _edge(it, node, args):
    geom = _need_geometry(it, node)
    a = _cell_arg(it, node, args[0], 0)
    b = _cell_arg(it, node, args[1], 1)
    if b not in geom.neighbours(a):
        raise it.err(node, f"cells {a} and {b} are not neighbours, so no edge joins them")
    return geom.edge(a, b)


def _edges_of(it, node, args):
    return _need_geometry(it, node).edges_of(_cell_arg(it, node, args[0]))


def _dot_arg(it, node, v):
    geom = _lattice(it, node)
    if not (type(v) is tuple and len(v) == 2 and all(type(x) is int for x in v)
            and 0 <= v[0] <= geom.height and 0 <= v[1] <= geom.width):
        raise it.err(node.args[0], f"expected a dot of the lattice (row 0..{geom.height}, "
                                   f"column 0..{geom.width}), but this is {describe(v)}")
    return v


def _segments_at(it, node, args):
    return _lattice(it, node).segments_at(_dot_arg(it, node, args[0]))


def _sides(it, node, args):
    return _lattice(it, node).sides(_cell_arg(it, node, args[0]))


def _segment(it, node, args):
    a, b = (_dot_arg(it, node, v) for v in args)
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise it.err(node, f"a segment joins two neighbouring dots, not {a} and {b}")
    return Segment(min(a, b), max(a, b))


def _blocks(step: bool):
    def impl(it, node, args):
        geom = _need_geometry(it, node)
        if not isinstance(geom, SquareGrid):
            raise it.err(node, f"'{node.func}' is for square boards")
        h, w = (it.want_const(a, it.want_int(a, v)) for a, v in zip(node.args, args))
        if h < 1 or w < 1:
            raise it.err(node, f"a block is at least 1 x 1, not {h} x {w}")
        if step and (geom.height % h or geom.width % w):
            raise it.err(node, f"a {geom.width} x {geom.height} board does not split into "
                               f"{h} x {w} boxes")
        return geom.windows(h, w, h if step else 1, w if step else 1)
    return impl


def _clue(it, node, args):
    cell = _cell_arg(it, node, args[0])
    value = it.instance.clues.get(cell, _MISSING)
    if value is _MISSING:
        raise it.err(node, f"cell {cell} has no clue; test given(c) first")
    return value


def _target(it, node, args):
    cell = _cell_arg(it, node, args[0])
    grid = it.instance.target
    if grid is None:
        raise it.err(node, "this instance gives no target grid; test has_target first")
    return grid[cell]


def _given(it, node, args):
    return _cell_arg(it, node, args[0]) in it.instance.clues


def _locked(it, node, args):
    return _cell_arg(it, node, args[0]) in it.instance.locked


def _coord(i):
    def impl(it, node, args):
        v = args[0]
        if type(v) is not tuple or len(v) != 2:
            raise it.err(node.args[0], f"expected a cell, but this is {describe(v)}")
        return v[i]
    return impl


def _isqrt(it, node, args):
    n = it.want_const(node.args[0], it.want_int(node.args[0], args[0]))
    if n < 0:
        raise it.err(node.args[0], "isqrt of a negative number")
    return math.isqrt(n)


def _abs(it, node, args):
    v = it.want_int(node.args[0], args[0])
    if type(v) is int:
        return abs(v)
    m = it.model
    return m.select(m.compare(">=", v, 0), v, m.scale(v, -1))


def _len(it, node, args):
    v = args[0]
    if type(v) in (tuple, PSet, range, str, Record):
        return len(v)
    raise it.err(node.args[0], f"len needs a list or set, but this is {describe(v)}")


def _sorted(it, node, args):
    v = it.want_collection(node.args[0], args[0])
    try:
        return tuple(sorted(v))
    except TypeError:
        raise it.err(node.args[0], "cannot sort a list that mixes numbers and symbols") from None


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


def _cell(it, node, args):
    r, c = (it.want_const(a, it.want_int(a, v)) for a, v in zip(node.args, args))
    return (r, c)


def _set(it, node, args):
    return PSet(it.want_collection(node.args[0], args[0]))


def _list(it, node, args):
    return tuple(it.want_collection(node.args[0], args[0]))


def _has(it, node, args):
    cell = args[0]
    geom = _need_geometry(it, node)
    return type(cell) is tuple and cell in geom


def _ball(it, node, args):
    """ball(start, steps, avoid): the cells reachable from start in at most
    `steps` moves between neighbouring cells without entering a cell of
    `avoid`; breadth-first order, start first."""
    geom = _need_geometry(it, node)
    start = _cell_arg(it, node, args[0])
    steps = it.want_const(node.args[1], it.want_int(node.args[1], args[1]))
    avoid = set(it.want_collection(node.args[2], args[2]))
    dist = {start: 0}
    order = [start]
    for c in order:
        if dist[c] >= steps:
            continue
        for d in geom.neighbours(c):
            if d not in dist and d not in avoid:
                dist[d] = dist[c] + 1
                order.append(d)
    return PSet(order)


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


def _get(it, node, args):
    record, key, default = args
    if type(record) is not Record:
        raise it.err(node.args[0], f"get reads a field of a JSON object, not {describe(record)}")
    return record.get(key, default)


BUILTIN_FUNCTIONS = {
    "get": ((3,), _get),
    "group": ((1,), _group),
    "ball": ((3,), _ball),
    "segments": ((1,), _segments_at),
    "sides": ((1,), _sides),
    "segment": ((2,), _segment),
    "neighbours": ((1,), _neighbours),
    "neighbors": ((1,), _neighbours),
    "around": ((1,), _around),
    "edges": ((1,), _edges_of),
    "edge": ((2,), _edge),
    "boxes": ((2,), _blocks(True)),
    "squares": ((2,), _blocks(False)),
    "clue": ((1,), _clue),
    "given": ((1,), _given),
    "target": ((1,), _target),
    "locked": ((1,), _locked),
    "row": ((1,), _coord(0)),
    "col": ((1,), _coord(1)),
    "cell": ((2,), _cell),
    "oncell": ((1,), _has),
    "isqrt": ((1,), _isqrt),
    "abs": ((1,), _abs),
    "len": ((1,), _len),
    "sorted": ((1,), _sorted),
    "token": ((1,), _token),
    "set": ((1,), _set),
    "list": ((1,), _list),
}


# ----------------------------------------------------------------- aggregates

def _items(it: Interpreter, node, env, want):
    """(guard, value) pairs of an aggregate: binder form or plain arguments."""
    if node.binders is not None:
        env = dict(env)
        body = it.code(node.body)
        for guard in it.bind(node.binders, env):
            yield guard, want(node.body, body(env))
        return
    if len(node.args) == 1:
        v = it.eval(node.args[0], env)
        if is_collection(v):
            for x in v:
                yield None, want(node.args[0], x)
            return
        yield None, want(node.args[0], v)
        return
    for a in node.args:
        yield None, want(a, it.eval(a, env))


def _agg_count(it, node, env):
    m = it.model
    total = 0
    symbolic = []
    for guard, v in _items(it, node, env, it.want_bool):
        if guard is not None:
            v = m.and_([guard, m.const(v) if type(v) is bool else v])
        if type(v) is bool:
            total += v
        elif v is m.TRUE:
            total += 1
        elif v is not m.FALSE:
            symbolic.append(v)
    if not symbolic:
        return total
    return LinExpr(_tally(symbolic), total)


def _tally(nodes):
    terms = {}
    for n in nodes:
        terms[n] = terms.get(n, 0) + 1
    return terms


def _agg_sum(it, node, env):
    m = it.model
    total = 0
    acc = None
    for guard, v in _items(it, node, env, it.want_int):
        if guard is not None:
            v = m.select(guard, v, 0)
        if type(v) is int:
            total += v
        else:
            acc = m.add(acc if acc is not None else 0, v)
    if acc is None:
        return total
    acc.const += total
    return acc


def _agg_minmax(pick):
    def impl(it, node, env):
        values = []
        for guard, v in _items(it, node, env, lambda n, v: it.want_const(n, it.want_int(n, v))):
            if guard is not None:
                raise it.err(node, f"{node.func} over a filter that depends on variables")
            values.append(v)
        if not values:
            raise it.err(node, f"{node.func} of nothing")
        return pick(values)
    return impl


def _agg_distinct(it, node, env):
    values = []
    for guard, v in _items(it, node, env, lambda n, v: v):
        if guard is not None:
            raise it.err(node, "distinct over a filter that depends on variables")
        if type(v) is LinExpr:
            raise it.err(node, "distinct takes variables or constants, not sums")
        values.append(v)
    if not any(isinstance(v, SYMBOLIC) for v in values):
        try:
            return len(set(values)) == len(values)
        except TypeError:
            raise it.err(node, "distinct needs values it can compare") from None
    return it.model.distinct(values)


def _agg_connected(it, node, env):
    """connected(x in S where p: body): the elements whose body holds form one
    connected group (cells by neighbours, edges by a shared cell, segments by a
    shared dot).  The empty group counts as connected."""
    if node.binders is None or len(node.binders) != 1 or len(node.binders[0].names) != 1:
        raise it.err(node, "connected takes one binder and a condition, as in "
                           "connected(c in cells: colour[c] = k)")
    name = node.binders[0].names[0]
    env = dict(env)
    elements, chosen = [], []
    body = it.code(node.body)
    symbolic = False
    for guard in it.bind(node.binders, env):
        v = body(env)
        if type(v) is not bool:
            v = it.want_bool(node.body, v)
            symbolic = True
        if guard is not None:
            v = it.model.and_([guard, it.model.const(v) if type(v) is bool else v])
            symbolic = True
        elements.append(env[name])
        chosen.append(v)
    key = tuple(elements)
    adjacent = it._adjacency.get(key)
    if adjacent is None:
        adjacent = it._adjacency[key] = adjacency(elements, it.geometry)
    if adjacent is None:
        raise it.err(node.binders[0].source, "connected ranges over cells, edges or segments "
                                             "of the board")
    if not symbolic:
        picked = [x for x, v in zip(elements, chosen) if v]
        return len(components(picked, adjacent)) <= 1
    return it.model.connected(elements, chosen, adjacent)


AGGREGATES = {
    "connected": _agg_connected,
    "count": _agg_count,
    "sum": _agg_sum,
    "min": _agg_minmax(min),
    "max": _agg_minmax(max),
    "distinct": _agg_distinct,
}

BUILTIN_NAMES = set(_builtin_values()) | set(BUILTIN_FUNCTIONS) | set(AGGREGATES)
