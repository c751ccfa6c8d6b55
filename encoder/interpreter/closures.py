"""Closures: how the Interpreter evaluates an AST node quickly.

Each node is compiled once into a closure env -> value (``code``).  A kind's
compiler (``_c_<kind>``, listed in ``_COMPILERS``) makes a closure that calls
its children's closures directly and handles the common plain values in
place (two ints added, a variable read by a bound cell), leaving the rest
(symbolic values, mistakes to report) to the generic methods of
encoder/interpreter/operators.py and encoder/interpreter/evaluate.py.  Grounding a large board
evaluates the same few nodes millions of times, which is why this exists.
"""

from __future__ import annotations

import operator

from ..builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from ...board.geometry import Edge, Segment
from .. import syntax as ast
from .aggregates import AGGREGATES, count_closure
from ...runtime.limits import MAX_COLLECTION_ITEMS
from ..model import LinExpr, Node, Var
from .values import SYMBOLIC, PSet

_MISSING = object()
_PLAIN_KEYS = (tuple, int, str)   # index values that are never symbolic


class Closures:
    """The closure compilers of the Interpreter (a mixin: see evaluate.py)."""

    def code(self, node):
        """A closure env -> value for ``node``, built once per node.  Each
        kind's compiler (_COMPILERS) makes a closure that calls its children's
        closures directly and handles the common plain values in place,
        leaving the rest (symbolic values, mistakes to report) to the methods
        below; kinds without one, or cases a compiler declines, wrap the
        generic method (_GENERIC)."""
        f = self._code.get(node)
        if f is None:
            f = self._code[node] = self.shared_closure(node)
        return f

    def shared_closure(self, node):
        """``node``'s closure from _COMPILERS, or its generic method wrapped
        (not cached: code() caches)."""
        f = None
        make = _COMPILERS.get(type(node))
        if make is not None:
            f = make(self, node)
        if f is None:
            method = getattr(self, _GENERIC[type(node)])
            f = lambda env: method(node, env)
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
                 self.builtin_values if name not in spec.vars and name in self.builtins else {})

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
            if type(index_node) is ast.Num and type(index_node.value) is int:
                at = index_node.value        # s[0]: the index a constant, no call for it

                def at_constant(env):
                    value = base_code(env)
                    if type(value) is tuple and -len(value) <= at < len(value):
                        return value[at]
                    return values(node, value, at)
                return at_constant

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
            if type(k) not in _PLAIN_KEYS and isinstance(k, SYMBOLIC):
                raise self.err(index_node, "this index must not depend on the puzzle's variables")
            return read((k,), node)
        if type(index_node) is not ast.Name:
            return f
        key_name = index_node.id

        def by_name(env):
            # v[c] with c bound: the commonest read, its index looked up here
            k = env.get(key_name, _MISSING)
            if type(k) in _PLAIN_KEYS and name not in env:
                return read((k,), node)
            if k is _MISSING or name in env or isinstance(k, SYMBOLIC):
                return f(env)
            return read((k,), node)
        by_name.read_by_name = (key_name, name, read)
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
        op = node.op
        # a count or sum against a number (`count(...) <= 2`): straight to the
        # model, which is where _compare_values ends for them
        compare = self.model.compare if self.model is not None else None
        order = _ORDER.get(op)
        if order is not None:
            def ordered(env):
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return order(a, b)
                if type(a) is LinExpr and type(b) is int and compare is not None:
                    return compare(op, a, b)
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

        fused = getattr(left, "read_by_name", None)
        if fused is not None:
            # v[c] = x with c bound: the read of by_name (_c_index) done here,
            # a call fewer on the hottest comparison of grounding and checking
            key_name, var_name, read = fused
            index_node = node.left
            # Model.eq's table of atoms, read here first (the atom is usually made)
            atoms_of = self.model.atoms if self.model is not None else None

            def by_name(env):
                k = env.get(key_name, _MISSING)
                if type(k) in _PLAIN_KEYS and var_name not in env:
                    a = read((k,), index_node)
                else:
                    a = left(env)
                b = right(env)
                ta, tb = type(a), type(b)
                if ta is Var and tb in values and a.domain is not None:
                    r = atoms_of[a.index].get(b)
                    if r is None:
                        r = eq(a, b)
                    return r if equal else not_(r)
                if ta is tb and ta in plain:
                    return (a == b) == equal
                if ta is Var and tb is Var and a.domain is not None and b.domain is not None:
                    r = same(a, b)
                    return r if equal else not_(r)
                return slow(node, a, b)
            # what aggregates.py needs to walk `v[x] = k` over many x itself
            by_name.fused_eq = (key_name, var_name, read, index_node, right, equal)
            return by_name

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
            if ta is LinExpr and tb is int and compare is not None:
                return compare(op, a, b)
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
                    b = right(env)
                    if type(b) is bool:
                        return a == b
                    b = self.want_bool(node.right, b)
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
            v = self.want_bool(node.operand, v)      # (before the model: there may be none)
            return self.model.not_(v)
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
        slow = self._binary_values
        if node.op == "^":      # every power is checked for its size: the generic path
            return lambda env: slow(node, left(env), right(env))
        arith = _ARITH[node.op]
        divides = node.op in ("/", "%")      # by zero: the generic path reports it

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

    def _c_let_in(self, node):
        binds = [(name, self.code(value)) for name, value in zip(node.names, node.values)]
        body = self.code(node.body)

        def f(env):
            env = dict(env)
            for name, value in binds:
                env[name] = value(env)
            return body(env)
        return f

    def _c_quant(self, node):
        body = self.code(node.body)
        binders = node.binders
        universal = node.kind == "all"
        bind = self.bind
        want_bool = self.want_bool

        simple = (len(binders) == 1 and binders[0].where is None and len(binders[0].names) == 1)
        source = binders[0].source if simple else None
        name = binders[0].names[0] if simple else None
        want_collection = self.want_collection
        eval_ = self.eval

        def simple_f(env):
            # one binder without a filter (the usual form): no guards, and its
            # collection walked here without a generator step per element
            coll = want_collection(source, eval_(source, env))
            env = dict(env)
            out = []
            m = self.model
            for x in coll:
                env[name] = x
                v = body(env)
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
        if simple:
            return simple_f

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
            if len(args) == 1:
                only = args[0]

                def call_let1(env):
                    if name in env:
                        return slow(node, env)
                    return apply(node, let, (only(env),))
                return call_let1
            if len(args) == 2:
                first, second = args

                def call_let2(env):
                    if name in env:
                        return slow(node, env)
                    return apply(node, let, (first(env), second(env)))
                return call_let2

            def call_let(env):
                if name in env:
                    return slow(node, env)
                return apply(node, let, tuple([a(env) for a in args]))
            return call_let
        agg = AGGREGATES.get(name)
        if name == "count" and agg is not None:
            f = count_closure(self, node)
            if f is not None:
                return f
        if agg is not None:
            return lambda env: agg(self, node, env)
        fn = BUILTIN_FUNCTIONS.get(name)
        if fn is None or node.binders is not None or len(node.args) != len(fn[0]):
            return None
        impl = fn[2]
        args = [self.code(a) for a in node.args]
        if len(args) == 1:
            arg = args[0]
            return lambda env: impl(self, node, [arg(env)])
        if len(args) == 2:
            first, second = args
            return lambda env: impl(self, node, [first(env), second(env)])
        return lambda env: impl(self, node, [a(env) for a in args])

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


# AST kind -> the method that builds its closure
_COMPILERS = {
    ast.Num: Closures._c_const, ast.Str: Closures._c_const,
    ast.BoolLit: Closures._c_const, ast.Name: Closures._c_name,
    ast.Index: Closures._c_index, ast.Field: Closures._c_field,
    ast.Compare: Closures._c_compare, ast.BoolOp: Closures._c_boolop,
    ast.Not: Closures._c_not, ast.Neg: Closures._c_neg,
    ast.Binary: Closures._c_binary, ast.Ite: Closures._c_ite,
    ast.Quant: Closures._c_quant, ast.LetIn: Closures._c_let_in, ast.Call: Closures._c_call,
    ast.Collection: Closures._c_collection, ast.Comprehension: Closures._c_comprehension,
}
# kinds without a compiler, or whose compiler declined: the name of the method
# evaluating them (in operators.py or evaluate.py)
_GENERIC = {
    ast.Index: "_index", ast.Call: "_call", ast.Range: "_range",
}
_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "/": operator.floordiv, "%": operator.mod}


