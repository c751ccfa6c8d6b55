"""The aggregates of the spec language: count, sum, product, min, max,
distinct and connected.  Unlike the built-ins (encoder/builtins/__init__.py) an aggregate takes its
arguments unevaluated, so that it can range over binders:

    sum(c in cells where given(c): v[c])      count(c in row: black[c])
    distinct(c in r: v[c])                    max(3, width)

An aggregate is ``impl(it, node, env)`` (it: the Interpreter, node: the
Call) and is listed in ``AGGREGATES`` below; ``_items`` yields its
(guard, value) pairs in either form.  The checker (check.py) types them.
"""

from __future__ import annotations

import operator

from ...board.graphs import adjacency, components
from .. import syntax as ast
from ..model import GroupSize, LinExpr, Node, Var
from .values import SYMBOLIC, is_collection


def _items(it, node, env, want):
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


def _simple_binder(node):
    """The binder of `agg(x in S: body)`, one name and no filter, else None."""
    bs = node.binders
    if bs is not None and len(bs) == 1 and bs[0].where is None and len(bs[0].names) == 1:
        return bs[0]
    return None


def _agg_count(it, node, env):
    count = count_closure(it, node)       # the usual form (grounding compiles it once)
    if count is not None:
        return count(env)
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
    return _count_value(total, symbolic)


def count_closure(it, node):
    """A closure for `count(x in S: body)` of one binder without a filter
    (the usual form): what _agg_count works out on every call (the binder,
    the body's closure, whether the body is a read `v[x]` it can make
    itself) worked out once; the same values.  None for any other form."""
    binder = _simple_binder(node)
    if binder is None:
        return None
    source = binder.source
    source_code = it.code(source)
    name = binder.names[0]
    body_node = node.body
    body = it.code(body_node)
    want_bool = it.want_bool
    want_collection = it.want_collection
    fused = getattr(body, "read_by_name", None)
    var_name = fused_read = None
    if fused is not None and fused[0] == name and fused[1] != name:
        var_name, fused_read = fused[1], fused[2]

    def count(env):
        coll = want_collection(source, source_code(env))
        read = fused_read if var_name is not None and var_name not in env else None
        local = None
        total = 0
        symbolic = []
        m = it.model
        for x in coll:
            if read is not None and not isinstance(x, SYMBOLIC):
                v = read((x,), body_node)
            else:
                if local is None:
                    local = dict(env)
                local[name] = x
                v = body(local)
            t = type(v)
            if t is bool:
                total += v
                continue
            if t is not Node:
                v = want_bool(body_node, v)
            if v is m.TRUE:
                total += 1
            elif v is not m.FALSE:
                symbolic.append(v)
        return _count_value(total, symbolic)
    return count


def _count_value(total, symbolic):
    """A count: ``total`` items known to hold plus the ``symbolic`` ones."""
    return LinExpr(_tally(symbolic), total) if symbolic else total


def _tally(nodes):
    terms = {}
    for n in nodes:
        terms[n] = terms.get(n, 0) + 1
    return terms


def _fold(it, node, env, unit: int, combine):
    """(product of the constant values, symbolic combination or None) of an
    aggregate's items; a value whose guard fails counts as ``unit``.
    ``combine`` is Python's operator on constants and picks the Model's."""
    m = it.model
    total = unit
    acc = None
    for guard, v in _items(it, node, env, it.want_int):
        if guard is not None:
            v = m.select(guard, v, unit)
        if type(v) is int:
            total = combine(total, v)
        else:
            acc = v if acc is None else (m.add if combine is operator.add else m.mul)(acc, v)
    return total, acc


def _agg_sum(it, node, env):
    total, acc = _fold(it, node, env, 0, operator.add)
    if acc is None:
        return total
    return it.model.add(acc, total)


def _agg_product(it, node, env):
    """product(...): the constant factors multiplied here; each symbolic one
    multiplies the running product as a table of the products it can reach
    (Model.mul over finite-domain terms), so that product(c in cage: v[c]) = 12
    becomes the choice of the rows giving 12, for SAT and SMT alike."""
    total, acc = _fold(it, node, env, 1, operator.mul)
    if acc is None or total == 0:
        return total
    return it.model.scale(acc, total)


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


_PLAIN = (int, str, tuple)


def _eq_values(it, node, name, coll, env):
    """The body's values over ``coll`` when the body is `v[x] = k` (or !=),
    x the binder and k a constant or another name: read straight from the
    variable's table and its value atoms, without a closure call per element
    (Numberlink's `connected(c in cells: colour[c] = k)` over every label).
    None when the body has another form."""
    body = it.code(node.body)
    fused = getattr(body, "fused_eq", None)
    if fused is None:
        return None
    key_name, var_name, read, index_node, right, equal = fused
    rn = node.body.right
    if (key_name != name or var_name == name or var_name in env
            or not (type(rn) in (ast.Num, ast.Str) or (type(rn) is ast.Name and rn.id != name))):
        return None
    b = right(env)
    tb = type(b)
    if tb not in _PLAIN:
        return None
    m = it.model
    atoms_of = m.atoms if m is not None else None
    if m is not None and not it.spec.vars[var_name].state:   # (a state's read is per step)
        variables = _variables_read(it, read, index_node, coll)
        if variables is not None:
            # every element a variable: their atoms `var = b`, made where missing
            out = m.eq_each(variables, b)
            return out if equal else [m.not_(r) for r in out]
    out = []
    append = out.append
    for x in coll:
        a = read((x,), index_node)
        ta = type(a)
        if ta is Var and a.domain is not None and atoms_of is not None:
            r = atoms_of[a.index].get(b)
            if r is None:
                r = m.eq(a, b)
            append(r if equal else m.not_(r))
        elif ta is tb:
            append((a == b) == equal)
        else:                                   # anything else: the closure says
            env[name] = x
            append(it.want_bool(node.body, body(env)))
    return out


def _variables_read(it, read, index_node, coll):
    """The finite-domain variables ``read`` gives for the elements of
    ``coll`` in order, or None when one of them is anything else; kept on the
    interpreter, as the same read comes back over the same collection (the
    cells) for every label."""
    key = (read, id(coll))
    hit = it._variables_read.get(key)
    if hit is not None and hit[0] is coll:
        return hit[1]
    variables = []
    for x in coll:
        a = read((x,), index_node)
        if type(a) is not Var or a.domain is None:
            variables = None
            break
        variables.append(a)
    it._variables_read[key] = (coll, variables)    # coll kept: its id stays its own
    return variables


def _agg_connected(it, node, env):
    """connected(x in S where p: body): the elements whose body holds form one
    connected group (cells by neighbours, edges by a shared cell, segments by a
    shared dot).  The empty group counts as connected.  With `from root`,
    every group must hold an element whose body and root both hold: the
    elements may form several groups, each joined to a root.  With `via
    near`, the elements near names for x are joined to x (and x to them),
    whatever the elements are."""
    if node.binders is None or len(node.binders) != 1 or len(node.binders[0].names) != 1:
        raise it.err(node, "connected takes one binder and a condition, as in "
                           "connected(c in cells: colour[c] = k)")
    name = node.binders[0].names[0]
    env = dict(env)
    elements, chosen = [], []
    body = it.code(node.body)
    symbolic = False
    binder = node.binders[0]
    if binder.where is None and node.root is None:
        # one binder without a filter (the usual form): its elements walked
        # here, without a generator step each
        coll = it.want_collection(binder.source, it.eval(binder.source, env))
        want_bool = it.want_bool
        values = _eq_values(it, node, name, coll, env)
        if values is not None:
            if type(coll) is not tuple:
                coll = tuple(coll)
            symbolic = any(type(v) is not bool for v in values)
            return _connected(it, node, coll, values, symbolic, env=env)
        for x in coll:
            env[name] = x
            v = body(env)
            if type(v) is not bool:
                v = want_bool(node.body, v)
                symbolic = True
            elements.append(x)
            chosen.append(v)
        return _connected(it, node, elements, chosen, symbolic, env=env)
    root = it.code(node.root) if node.root is not None else None
    roots = [] if root is not None else None
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
        if root is not None:
            r = root(env)
            if type(r) is not bool:
                r = it.want_bool(node.root, r)
                symbolic = True
            roots.append(r)
    return _connected(it, node, elements, chosen, symbolic, roots, env)


def _connected(it, node, elements, chosen, symbolic, roots=None, env=None):
    if node.via is not None:
        adjacent = via_adjacency(it, node, elements, env)
    else:
        key = tuple(elements)
        adjacent = it.adjacency_cache.get(key)
        if adjacent is None:
            adjacent = it.adjacency_cache[key] = adjacency(elements, it.geometry)
    if adjacent is None:
        raise it.err(node.binders[0].source, "connected ranges over cells, edges or segments "
                                             "of the board")
    if not symbolic:
        groups = components([x for x, v in zip(elements, chosen) if v], adjacent)
        if roots is None:
            return len(groups) <= 1
        rooted = {x for x, r in zip(elements, roots) if r}
        return all(any(x in rooted for x in group) for group in groups)
    return it.model.connected(elements, chosen, adjacent, roots)


def via_adjacency(it, node, elements, env):
    """{x: the elements joined to x} for `connected(x in S: body via near)`:
    those near names for x and those whose near names x; values of near that
    are not elements are left out.  The same graph comes back as the same
    object (the model shares it between constraints)."""
    name = node.binders[0].names[0]
    near = it.code(node.via)
    env = dict(env)
    try:
        index = {x: k for k, x in enumerate(elements)}
    except TypeError:
        raise it.err(node.binders[0].source, "connected(... via ...) joins values such as "
                                             "cells, edges, numbers or lists of them") from None
    joined = [dict() for _ in elements]       # dicts as ordered sets of indices
    for k, x in enumerate(elements):
        env[name] = x
        for y in it.want_collection(node.via, near(env)):
            j = index.get(y)
            if j is not None and j != k:
                joined[k][j] = None
                joined[j][k] = None
    key = ("via", tuple(elements), tuple(tuple(sorted(ys)) for ys in joined))
    adjacent = it.adjacency_cache.get(key)
    if adjacent is None:
        adjacent = it.adjacency_cache[key] = {
            x: tuple(elements[j] for j in sorted(ys)) for x, ys in zip(elements, joined)}
    return adjacent


def _agg_groupsize(it, node, env):
    """groupsize(x in S where p: body from r via ...): how many elements of S
    are joined to the element r through elements whose body holds (0 when
    r's does not).  Joined: neighbours as in connected(...), or as `via`
    names them; with `via y in near where cond`, x and y are joined when
    cond holds (for x naming y, or y naming x) and both bodies hold.  The
    partition is worked out once for every seed r (a Fillomino's size(c) for
    each cell c), as a number per element when nothing depends on the
    variables, else a Partition the encoders size (model.GroupSize)."""
    if (node.binders is None or len(node.binders) != 1 or len(node.binders[0].names) != 1
            or node.root is None):
        raise it.err(node, "groupsize takes one binder, a condition and a seed, as in "
                           "groupsize(c in cells: shaded[c] from k)")
    if it.place_reads:
        seed = it.want_const(node.root, it.eval(node.root, env), "seed of groupsize(...)")
        size = _seed_group_size(it, node, env, seed)
        if size is not None:
            return size
    part = _partition(it, node, env)
    seed = it.want_const(node.root, it.eval(node.root, env), "seed of groupsize(...)")
    index = part["index"].get(seed) if _hashable(seed) else None
    if index is None:
        raise it.err(node.root, f"the seed of groupsize(...) is not one of its elements")
    sizes = part["sizes"]
    if sizes is not None:
        return sizes[index]
    return GroupSize(part["groups"], index)


def _seed_group_size(it, node, env, seed):
    """groupsize's value for one seed of an answer, by a search from the
    seed, so that only the bodies and joins of its group and the group's rim
    are read: a drawing that records what each place reads (deduce) then
    sees a Fillomino cell read the walls of its own block, not the board's.
    The same group as _build_partition's (joins both ways, both bodies
    holding); None where the elements are not plain values."""
    binder = node.binders[0]
    name = binder.names[0]
    env = dict(env)
    elements = []
    for guard in it.bind(node.binders, env):
        if guard is not None:
            return None
        elements.append(env[name])
    if not all(_hashable(x) for x in elements):
        return None
    members = set(elements)
    if not _hashable(seed) or seed not in members:
        raise it.err(node.root, f"the seed of groupsize(...) is not one of its elements")
    body = it.code(node.body)

    def chosen(x):
        env[name] = x
        v = body(env)
        return v if type(v) is bool else it.want_bool(node.body, v)

    if node.via_where is not None:
        near, where = it.code(node.via), it.code(node.via_where)
        names, named_by = {}, {x: [] for x in elements}
        for x in elements:
            env[name] = x
            names[x] = [y for y in it.want_collection(node.via, near(env))
                        if _hashable(y) and y in members and y != x]
            for y in names[x]:
                named_by[y].append(x)

        def condition(x, y):
            env[name], env[node.via_name] = x, y
            return it.want_bool(node.via_where, where(env))

        def joined(x):
            return [y for y in dict.fromkeys(names[x] + named_by[x])
                    if (y in names[x] and condition(x, y)) or (x in names[y] and condition(y, x))]
    else:
        if node.via is not None:
            adjacent = via_adjacency(it, node, elements, env)
        else:
            adjacent = adjacency(elements, it.geometry)
            if adjacent is None:
                return None

        def joined(x):
            return adjacent[x]
    if not chosen(seed):
        return 0
    group, seen = [seed], {seed}
    for x in group:
        for y in joined(x):
            if y not in seen and chosen(y):
                seen.add(y)
                group.append(y)
    return len(group)


def _hashable(x) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _partition(it, node, env):
    """{"index": element -> its index, "sizes": each element's group size
    when every body and join is known, else None and "groups": the model's
    Partition}, kept per call site and values of the names it reads."""
    from .plain import names_read            # (plain.py imports this module)
    binder = node.binders[0]
    name = binder.names[0]
    parts = [binder.source, node.body] + [x for x in (binder.where, node.via, node.via_where)
                                          if x is not None]
    cache = it.partitions
    reads = cache.get(node)
    if reads is None:
        reads = set()
        for x in parts:
            reads |= names_read(x)
        reads = cache[node] = sorted(reads - {name, node.via_name})
    key = [node]
    for r in reads:
        v = env.get(r, _UNBOUND)
        if not _hashable(v):
            key = None
            break
        key.append(v)
    if key is not None and it.clue_reads is None and not it.place_reads:
        key = tuple(key)
        found = cache.get(key)
        if found is not None:
            return found
    else:
        key = None
    found = _build_partition(it, node, dict(env), name)
    if key is not None:
        cache[key] = found
    return found


_UNBOUND = object()


def _build_partition(it, node, env, name):
    m = it.model
    body = it.code(node.body)
    elements, chosen = [], []
    for guard in it.bind(node.binders, env):
        v = body(env)
        if type(v) is not bool:
            v = it.want_bool(node.body, v)
        if guard is not None:
            v = m.and_([guard, m.const(v) if type(v) is bool else v])
        elements.append(env[name])
        chosen.append(v)
    try:
        index = {x: k for k, x in enumerate(elements)}
    except TypeError:
        raise it.err(node.binders[0].source, "groupsize ranges over cells, edges, numbers "
                                             "or lists of them") from None
    joins = {}                            # (i, j), i < j -> True, False or a Node
    if node.via_where is not None:
        near, where = it.code(node.via), it.code(node.via_where)
        named = {}                        # (i, j) -> the conditions that join them
        for k, x in enumerate(elements):
            env[name] = x
            for y in it.want_collection(node.via, near(env)):
                j = index.get(y) if _hashable(y) else None
                if j is None or j == k:
                    continue
                env[node.via_name] = y
                c = it.want_bool(node.via_where, where(env))
                named.setdefault((k, j) if k < j else (j, k), []).append(c)
        for pair, conds in named.items():
            joins[pair] = (any(conds) if all(type(c) is bool for c in conds)
                           else m.or_([m.const(c) if type(c) is bool else c for c in conds]))
    else:
        if node.via is not None:
            adjacent = via_adjacency(it, node, elements, env)
        else:
            adjacent = it.adjacency_cache.get(tuple(elements))
            if adjacent is None:
                adjacent = adjacency(elements, it.geometry)
                if adjacent is None:
                    raise it.err(node.binders[0].source, "groupsize ranges over cells, edges "
                                                         "or segments of the board, or "
                                                         "joins them with 'via'")
                it.adjacency_cache[tuple(elements)] = adjacent
        for k, x in enumerate(elements):
            for y in adjacent[x]:
                j = index[y]
                if k < j:
                    joins[(k, j)] = True
    for (i, j), c in list(joins.items()):   # joined: both chosen too
        parts = [c, chosen[i], chosen[j]]
        if all(type(p) is bool for p in parts):
            joins[(i, j)] = all(parts)
        else:
            joins[(i, j)] = m.and_([m.const(p) if type(p) is bool else p for p in parts])
    if all(type(v) is bool for v in chosen) and all(type(v) is bool for v in joins.values()):
        return {"index": index, "sizes": _plain_sizes(elements, chosen, joins)}
    sel = [m.const(v) if type(v) is bool else v for v in chosen]
    nodes = {p: (m.const(v) if type(v) is bool else v) for p, v in joins.items()}
    return {"index": index, "sizes": None, "groups": m.partition(tuple(elements), sel, nodes)}


def _plain_sizes(elements, chosen, joins) -> list:
    """Each element's group size (0 where its body fails), all joins known."""
    adjacent = [[] for _ in elements]
    for (i, j), joined in joins.items():
        if joined:
            adjacent[i].append(j)
            adjacent[j].append(i)
    sizes = [0] * len(elements)
    for start in range(len(elements)):
        if sizes[start] or not chosen[start]:
            continue
        group = [start]
        sizes[start] = -1
        for x in group:
            for y in adjacent[x]:
                if not sizes[y]:
                    sizes[y] = -1
                    group.append(y)
        for x in group:
            sizes[x] = len(group)
    return sizes


AGGREGATES = {
    "connected": _agg_connected,
    "groupsize": _agg_groupsize,
    "count": _agg_count,
    "sum": _agg_sum,
    "product": _agg_product,
    "min": _agg_minmax(min),
    "max": _agg_minmax(max),
    "distinct": _agg_distinct,
}
