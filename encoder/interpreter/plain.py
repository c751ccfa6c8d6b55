"""Plain-value closures: the checker's fast path.

Every value the checker (encoder/verify.py) meets is plain: the answer holds
no model atoms.  So the hot kinds of node get closures without grounding's
symbolic cases.  For ``count(c in cells: colour[c] = k)`` grounding builds a
cardinality over atoms; here it is one loop over the answer's table::

    colour[c] = k      ->   table.get((c,)) == k          (no model, no atom)
    count(...)         ->   sum(1 for c in cells if ...)
    connected(...)     ->   one search over the collection's adjacency

Anything else (a mistake to report, an unusual value) goes to the shared
closures (encoder/interpreter/closures.py), which give the same value or error; a test
(tests/test_verify.py) holds both to the same answers on broken boards.
"""

from __future__ import annotations

import dataclasses

from ..builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from ...board.geometry import Edge, Segment
from ...board.graphs import adjacency
from .. import syntax as ast
from .aggregates import AGGREGATES, count_closure
from .evaluate import restore, saved
from ...runtime.limits import MAX_COLLECTION_ITEMS
from .values import PSet

_MISSING = object()
_PLAIN = (int, str, tuple, bool)      # values compared with == directly
_NUMBER_OR_SYMBOL = (int, str)
_COLLECTIONS = (tuple, PSet, range)
# a let function costing at most this many nodes a call (its callees
# included) is evaluated afresh at each call, without the memo
MAX_INLINE_COST = 200


class PlainClosures:
    """Mixin of the AnswerChecker, placed before the Interpreter in its bases.
    Every value the checker meets is plain (the answer holds no model
    atoms), so the hot kinds get closures without the symbolic cases of
    grounding: a variable read straight from the answer's table, `=` on
    two plain values, count and connected over a plain condition, small
    let functions evaluated in place.  Anything else (a mistake to report,
    an unusual value) goes to the shared closures, which give the same
    value or error.
    """

    def code(self, node):
        f = self._code.get(node)
        if f is None:
            make = _PLAIN_COMPILERS.get(type(node))
            if make is not None:
                f = make(self, node)
                if f is not None:
                    self._code[node] = f
                    return f
            f = super().code(node)
        return f

    def _generic(self, node):
        """The shared closure of ``node`` (not cached: code() caches ours)."""
        return self.shared_closure(node)

    def _plain_table(self, node):
        """(variable name, its table of values, the index node) when ``node``
        reads a non-state variable of one index from the answer, else None."""
        base = node.base
        if (self.touched is not None or type(base) is not ast.Name or len(node.indices) != 1
                or base.id not in self.spec.vars):
            return None
        stmt = self.spec.vars[base.id]
        if stmt.state or len(stmt.binders) != 1:
            return None
        return base.id, self.answer.values.get(base.id, {}), node.indices[0]

    def _p_index(self, node):
        found = self._plain_table(node)
        if found is None:
            if len(node.indices) != 1 or (type(node.base) is ast.Name
                                          and node.base.id in self.spec.vars):
                return None
            # a list or a string indexed by an int in range
            base, index = self.code(node.base), self.code(node.indices[0])
            slow = self._index_values

            def item(env):
                value = base(env)
                i = index(env)
                t = type(value)
                if type(i) is int and (t is tuple or t is str) and -len(value) <= i < len(value):
                    return value[i]
                return slow(node, value, i)
            return item
        name, table, index_node = found
        generic = self._generic(node)
        if type(index_node) is ast.Name:
            key_name = index_node.id

            def by_name(env):
                try:
                    v = table.get((env.get(key_name, _MISSING),), _MISSING)
                except TypeError:            # an unhashable index: reported there
                    return generic(env)
                if v is _MISSING or name in env:
                    return generic(env)
                return v
            return by_name
        index = self.code(index_node)

        def f(env):
            try:
                v = table.get((index(env),), _MISSING)
            except TypeError:
                return generic(env)
            if v is _MISSING or name in env:
                return generic(env)
            return v
        return f

    def _p_compare(self, node):
        if node.op in ("in", "notin"):
            return self._p_member(node)
        if node.op not in ("=", "!="):
            return None
        equal = node.op == "="
        right = self.code(node.right)
        slow = self._compare_values
        plain = _PLAIN
        mixed = _NUMBER_OR_SYMBOL        # a number never equals a symbol
        left = self.code(node.left)
        found = self._plain_table(node.left) if type(node.left) is ast.Index else None
        if found is not None and type(found[2]) is ast.Name:
            # v[c] = x with c bound: the answer's table read here
            name, table, index_node = found
            key_name = index_node.id

            def fused(env):
                try:
                    a = table.get((env.get(key_name, _MISSING),), _MISSING)
                except TypeError:
                    a = _MISSING
                if a is _MISSING or name in env:
                    a = left(env)
                b = right(env)
                t, u = type(a), type(b)
                if t is u and t in plain or t in mixed and u in mixed:
                    return (a == b) == equal
                return slow(node, a, b)
            return fused

        if type(node.right) in (ast.Num, ast.Str):
            b = node.right.value            # against a constant number or symbol
            u = type(b)

            def against(env):
                a = left(env)
                t = type(a)
                if t is u or t in mixed:
                    return (a == b) == equal
                return slow(node, a, b)
            return against

        def f(env):
            a = left(env)
            b = right(env)
            t, u = type(a), type(b)
            if t is u and t in plain or t in mixed and u in mixed:
                return (a == b) == equal
            return slow(node, a, b)
        return f

    def _p_member(self, node):
        left, right = self.code(node.left), self.code(node.right)
        inside = node.op == "in"
        slow = self._compare_values

        def member(env):
            a = left(env)
            b = right(env)
            if type(b) in _COLLECTIONS:
                return (a in b) == inside
            return slow(node, a, b)
        return member

    def _p_collection(self, node):
        items = [self.code(x) for x in node.items]
        make = PSet if node.kind == "set" else tuple
        if len(items) == 2:
            first, second = items
            if make is tuple:
                return lambda env: (first(env), second(env))
            return lambda env: PSet((first(env), second(env)))
        return lambda env: make([code(env) for code in items])

    def _p_ite(self, node):
        # `if b then x else y` with b a name or x, y constants: read here
        flag = self._p_name_of(node.cond)
        consts = (ast.Num, ast.Str, ast.BoolLit)
        if flag is None or type(node.then) not in consts or type(node.other) not in consts:
            return None
        yes, no = node.then.value, node.other.value
        generic = self._generic(node)

        def ite(env):
            c = env.get(flag, _MISSING)
            if c is True:
                return yes
            if c is False:
                return no
            return generic(env)
        return ite

    def _p_binary(self, node):
        # + - * of two ints, the operator written out (no call a node), with a
        # constant side read at compile time
        op = node.op
        slow = self._binary_values
        left, right = self.code(node.left), self.code(node.right)
        if op in ("/", "%"):
            # by a constant other than zero (by zero: the shared path says so)
            k = node.right.value if type(node.right) is ast.Num else 0
            if type(k) is not int or k == 0:
                return None
            if op == "/":
                return lambda env: (a // k if type(a := left(env)) is int
                                    else slow(node, a, k))
            return lambda env: a % k if type(a := left(env)) is int else slow(node, a, k)
        if type(node.right) is ast.Num and type(node.right.value) is int:
            k = node.right.value
            if op == "-":
                k, op = -k, "+"
            if op == "+":
                def plus_k(env):
                    a = left(env)
                    return a + k if type(a) is int else slow(node, a, node.right.value)
                return plus_k
        if type(node.left) is ast.Num and type(node.left.value) is int and op != "-":
            k = node.left.value
            if op == "*":
                def k_times(env):
                    b = right(env)
                    return k * b if type(b) is int else slow(node, k, b)
                return k_times
        if node.op != "+":
            return None                  # the shared closure

        def plus(env):
            a = left(env)
            b = right(env)
            if type(a) is int and type(b) is int:
                return a + b
            return slow(node, a, b)
        return plus

    def _p_range(self, node):
        low, high = self.code(node.low), self.code(node.high)
        generic = self._generic(node)

        def span(env):
            a = low(env)
            b = high(env)
            if type(a) is int and type(b) is int:
                return range(a, b + 1)
            return generic(env)
        return span

    def _p_field(self, node):
        # c.row, c.col of a cell and e.a, e.b of an edge: the part picked here
        part = {"row": 0, "col": 1, "a": 0, "b": 1}.get(node.name)
        if part is None:
            return None
        base = self.code(node.base)
        generic = self._generic(node)
        kinds = (tuple,) if node.name in ("row", "col") else (Edge, Segment)
        name = self._p_name_of(node.base)
        if name is not None:
            def of_name(env):
                v = env.get(name, _MISSING)
                if type(v) in kinds and len(v) == 2:
                    return v[part]
                return generic(env)
            return of_name

        def f(env):
            v = base(env)
            if type(v) in kinds and len(v) == 2:
                return v[part]
            return generic(env)
        return f

    def _p_call(self, node):
        name = node.func
        if name in self.spec.lets:
            return self._p_call_let(node)
        if name == "count" or name == "connected":
            binders = node.binders
            if binders is None or len(binders) != 1 or len(binders[0].names) != 1:
                return None
            return (self._p_count if name == "count" else self._p_connected)(node)
        fn = BUILTIN_FUNCTIONS.get(name)
        if (fn is None or name in AGGREGATES or node.binders is not None
                or len(node.args) != len(fn[0]) or len(node.args) not in (1, 2)):
            return None
        impl = fn[2]
        first = self._p_name_of(node.args[0])
        a = self.code(node.args[0])
        if len(node.args) == 1:
            if first is None:
                return None

            def one_name(env):
                x = env.get(first, _MISSING)
                return impl(self, node, [a(env) if x is _MISSING else x])
            return one_name
        b = self.code(node.args[1])
        second = self._p_name_of(node.args[1])
        if first is None or second is None:
            return None

        def two_names(env):
            x = env.get(first, _MISSING)
            y = env.get(second, _MISSING)
            return impl(self, node, [a(env) if x is _MISSING else x,
                                     b(env) if y is _MISSING else y])
        return two_names

    @staticmethod
    def _p_name_of(node):
        """The name ``node`` reads when it is one (looked up in env first)."""
        return node.id if type(node) is ast.Name else None

    def _p_call_let(self, node):
        """A small let function called: its body evaluated on the arguments
        in place (see _inline_lets; the rest keep the shared, memoised call).
        Such a let calls itself nowhere, so its body is compiled here."""
        name = node.func
        let = self.spec.lets[name]
        if (let.params is None or node.binders is not None or len(node.args) != len(let.params)
                or name not in _inline_lets(self.spec)):
            return None
        slow = self._call
        body = self.code(let.body)
        args = [self.code(a) for a in node.args]
        params = let.params
        first = self._p_name_of(node.args[0]) if params else None
        if len(params) == 1 and first is not None:
            (p,), (a,) = params, args

            def call_name(env):
                x = env.get(first, _MISSING)
                if x is _MISSING or name in env:
                    return slow(node, env) if name in env else body({p: a(env)})
                return body({p: x})
            return call_name
        if len(params) == 2 and first is not None:
            (p, q), (a, b) = params, args

            def call_name2(env):
                x = env.get(first, _MISSING)
                if x is _MISSING or name in env:
                    return slow(node, env) if name in env else body({p: a(env), q: b(env)})
                return body({p: x, q: b(env)})
            return call_name2

        if len(params) == 1:
            (p,), (a,) = params, args

            def call1(env):
                if name in env:
                    return slow(node, env)
                return body({p: a(env)})
            return call1
        if len(params) == 2:
            (p, q), (a, b) = params, args

            def call2(env):
                if name in env:
                    return slow(node, env)
                return body({p: a(env), q: b(env)})
            return call2
        pairs = list(zip(params, args))

        def call(env):
            if name in env:
                return slow(node, env)
            return body({p: a(env) for p, a in pairs})
        return call

    def _p_picker(self, node):
        """For `count/connected(x in S: cond)`: a function env -> (S, the
        elements of S whose condition holds), or None where S is no plain
        collection or a condition no bool (the shared path reports it)."""
        binder = node.binders[0]
        source = self.code(binder.source)
        x = binder.names[0]
        body = self.code(node.body)
        if binder.where is not None:
            return self._p_filtered_picker(node)
        by_table = self._p_table_picker(node.body, x, source)
        if by_table is not None:
            return by_table

        def pick(env):
            coll = source(env)
            if type(coll) not in _COLLECTIONS:
                return None
            inner = dict(env)
            picked = []
            for value in coll:
                inner[x] = value
                v = body(inner)
                if v is True:
                    picked.append(value)
                elif v is not False:
                    return None
            return coll, picked
        return pick

    def _p_filtered_picker(self, node):
        """The picker of `count/connected(x in S where p: cond)`: (the
        elements passing the filter, those whose condition holds)."""
        walk = self._p_binders(node.binders)
        body = self.code(node.body)
        x = node.binders[0].names[0]

        def pick(env):
            inner = dict(env)
            elements, picked = [], []

            def visit():
                value = inner[x]
                elements.append(value)
                v = body(inner)
                if v is True:
                    picked.append(value)
                elif v is not False:
                    raise _NotPlain
            try:
                walk(inner, visit)
            except _NotPlain:
                return None
            return elements, picked
        return pick

    def _p_binders(self, binders):
        """walk(env, visit): visit() for every combination of the binders'
        values, as Interpreter.bind yields them (env set in place and restored
        after; a filter that is no bool raises _NotPlain), until a visit returns
        True (walk returns True then)."""
        walk = None
        for b in reversed(binders):
            walk = self._p_level(b, walk)
        return walk

    def _p_level(self, b, inner):
        names = b.names
        single = names[0] if len(names) == 1 else None
        source = self.code(b.source)
        where = self.code(b.where) if b.where is not None else None
        want_collection = self.want_collection
        unpack = self.unpack

        def level(env, visit):
            coll = source(env)
            if type(coll) not in _COLLECTIONS:
                coll = want_collection(b.source, coll)
            before = saved(env, names)
            try:
                for value in coll:
                    if single is not None:
                        env[single] = value
                    else:
                        unpack(b, env, value)
                    if where is not None:
                        w = where(env)
                        if w is not True:
                            if w is False:
                                continue
                            raise _NotPlain
                    if visit() if inner is None else inner(env, visit):
                        return True
                return False
            finally:
                restore(env, names, before)
        return level

    def _p_quant(self, node):
        binders = node.binders
        if len(binders) == 1 and binders[0].where is None and len(binders[0].names) == 1:
            return None                  # the shared closure walks these well
        walk = self._p_binders(binders)
        body = self.code(node.body)
        universal = node.kind == "all"
        generic = self._generic(node)

        def quant(env):
            inner = dict(env)
            found = []

            def visit():
                v = body(inner)
                if v is universal:
                    return False
                if v is (not universal):
                    found.append(v)
                    return True
                raise _NotPlain
            try:
                walk(inner, visit)
            except _NotPlain:
                return generic(env)
            return not universal if found else universal
        return quant

    def _p_comprehension(self, node):
        walk = self._p_binders(node.binders)
        body = self.code(node.body)
        make = PSet if node.kind == "set" else tuple
        generic = self._generic(node)

        def comprehension(env):
            inner = dict(env)
            items = []

            def visit():
                items.append(body(inner))
                if len(items) > MAX_COLLECTION_ITEMS:
                    raise _NotPlain      # the shared closure says so
            try:
                walk(inner, visit)
            except _NotPlain:
                return generic(env)
            return make(items)
        return comprehension

    def _p_table_picker(self, cond, x, source):
        """The picker of a condition `v[x]` or `v[x] = e` (`!=`), e not
        reading x: the answer's table of v read in one loop, no closure called
        an element.  None for other conditions."""
        compare = type(cond) is ast.Compare and cond.op in ("=", "!=")
        read = cond.left if compare else cond
        found = self._plain_table(read) if type(read) is ast.Index else None
        if (found is None or type(found[2]) is not ast.Name or found[2].id != x
                or found[0] == x or compare and x in names_read(cond.right)):
            return None
        var, table, _ = found
        get = table.get
        if not compare:
            def pick_true(env):
                coll = source(env)
                if type(coll) not in _COLLECTIONS or var in env:
                    return None
                picked = []
                try:
                    for value in coll:
                        v = get((value,))
                        if v is True:
                            picked.append(value)
                        elif v is not False:
                            return None
                except TypeError:
                    return None
                return coll, picked
            return pick_true
        right = self.code(cond.right)
        equal = cond.op == "="
        plain, mixed = _PLAIN, _NUMBER_OR_SYMBOL

        def pick_equal(env):
            coll = source(env)
            if type(coll) not in _COLLECTIONS or var in env:
                return None
            picked = []
            if not coll:
                return coll, picked
            if get((coll[0],), _MISSING) is _MISSING:
                return None               # (reported there, before e is read)
            b = right(env)               # (x is not read there)
            u = type(b)
            try:
                for value in coll:
                    a = get((value,), _MISSING)
                    t = type(a)
                    if not (t is u and t in plain or t in mixed and u in mixed):
                        return None       # (a missing element too)
                    if (a == b) == equal:
                        picked.append(value)
            except TypeError:             # an unhashable element
                return None
            return coll, picked
        return pick_equal

    def _p_count(self, node):
        agg = AGGREGATES["count"]
        # the shared count, its usual form compiled here once, not on each call
        shared = count_closure(self, node) or (lambda env: agg(self, node, env))
        pick = self._p_picker(node)

        def count(env):
            found = pick(env)
            if found is None:
                return shared(env)
            return len(found[1])
        return count

    def _p_connected(self, node):
        agg = AGGREGATES["connected"]
        if node.root is not None or node.via is not None:   # the shared closure
            return lambda env: agg(self, node, env)
        pick = self._p_picker(node)
        graphs = {}                      # id(collection) -> (collection, its adjacency)
        # without a filter the collection is the binder's own, the same object
        # call after call (cells, edges...): its graph is found by identity
        same = node.binders[0].where is None

        def connected(env):
            found = pick(env)
            if found is None:
                return agg(self, node, env)
            coll, picked = found
            known = graphs.get(id(coll)) if same else None
            if known is not None and known[0] is coll:
                adjacent = known[1]
            else:
                key = tuple(coll)
                adjacent = self.adjacency_cache.get(key)
                if adjacent is None:
                    adjacent = self.adjacency_cache[key] = adjacency(key, self.geometry)
                if adjacent is None:
                    return agg(self, node, env)      # not board elements: reported there
                if same:
                    graphs[id(coll)] = (coll, adjacent)
            return _one_group(picked, adjacent)
        return connected


class _NotPlain(Exception):
    """A value the plain closures leave to the shared ones (which report it)."""


def _one_group(picked, adjacent) -> bool:
    """Whether the picked elements form at most one connected group."""
    if not picked:
        return True
    chosen = set(picked)
    start = picked[0]
    seen = {start}
    todo = [start]
    while todo:
        for y in adjacent[todo.pop()]:
            if y in chosen and y not in seen:
                seen.add(y)
                todo.append(y)
    return len(seen) == len(chosen)


def names_read(node, calls: bool = False) -> set:
    """Every name read anywhere in ``node``; with ``calls``, every function
    called there too."""
    out = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) is ast.Name:
            out.add(n.id)
        elif calls and type(n) is ast.Call:
            out.add(n.func)
        todo.extend(_children(n))
    return out


def _children(node):
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, (ast.Expr, ast.Binder)):
            yield v
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, (ast.Expr, ast.Binder)):
                    yield x


def _inline_lets(spec) -> frozenset:
    """The let functions cheap enough to evaluate at each call without the
    memo: not recursive, no binders (all, count, comprehensions), no
    built-in returning a collection, and at most MAX_INLINE_COST nodes a
    call with the lets they call.  Worked out once per spec."""
    known = _INLINE.get(id(spec.lets))
    if known is not None and known[0] is spec.lets:
        return known[1]
    cost = {}

    def cost_of(name, busy):
        if name in cost:
            return cost[name]
        let = spec.lets[name]
        if let.params is None or name in busy:
            return None
        busy.add(name)
        total = 0
        todo = [let.body]
        while todo and total is not None:
            n = todo.pop()
            total += 1
            t = type(n)
            if t in (ast.Quant, ast.Comprehension) or t is ast.Binder:
                total = None
            elif t is ast.Call:
                if n.binders is not None or n.func in AGGREGATES and n.func not in spec.lets:
                    total = None
                elif n.func in spec.lets:
                    c = cost_of(n.func, busy)
                    total = None if c is None else total + c
                else:
                    fn = BUILTIN_FUNCTIONS.get(n.func)
                    if fn is None or type(fn[1]) is tuple:     # a collection
                        total = None
            if total is not None:
                todo.extend(_children(n))
        busy.discard(name)
        cost[name] = total if total is not None and total <= MAX_INLINE_COST else None
        return cost[name]
    names = frozenset(n for n in spec.lets if cost_of(n, set()) is not None)
    if len(_INLINE) >= 64:
        _INLINE.clear()
    _INLINE[id(spec.lets)] = (spec.lets, names)
    return names


_INLINE = {}        # id(spec.lets) -> (spec.lets, _inline_lets of the spec)


# AST kind -> the plain-value compiler of the AnswerChecker; the shared ones
_PLAIN_COMPILERS = {
    ast.Index: PlainClosures._p_index, ast.Compare: PlainClosures._p_compare,
    ast.Collection: PlainClosures._p_collection, ast.Call: PlainClosures._p_call,
    ast.Field: PlainClosures._p_field, ast.Ite: PlainClosures._p_ite,
    ast.Quant: PlainClosures._p_quant, ast.Comprehension: PlainClosures._p_comprehension,
    ast.Range: PlainClosures._p_range, ast.Binary: PlainClosures._p_binary,
}
