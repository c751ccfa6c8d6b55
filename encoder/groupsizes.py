"""Group sizes in CNF: ``groupsize(...)`` compared with numbers and with each other.

A Partition (encoder/model.py) is the elements of a groupsize, their
selections s[x] and, for each pair that can be joined, a join literal j(x, y)
(the pair's condition and both selections).  Its groups are the components
of the joins; a group's size is what groupsize gives each of its elements.

Sizes are never a domain as large as the board.  Each element x gets value
literals

    val[x][k]   x's group has exactly k elements, for k in D(x)
    big[x]      x's group has a size outside D(x) (more than M)

exactly one of them when x is selected, none when it is not.  D(x) holds 1..M
(M: the largest number its sizes are compared with, at most SMALL_SIZES)
and each number k compared with the size of an element within k - 1 steps
of x (a Fillomino clue's k near the clue).  A comparison with a number is
then a literal: size(x) = k is val[x][k], size(x) <= k an "or" of them;
size(x) = size(y) is a literal defined from both tables, exact whenever
both sizes are in the tables.

Joined elements have one size, so j(x, y) ties their tables together.  The
rest is checked on each model in the solve loop, as lazy connectivity is
(encoder/connectivity.py): the groups of the model are found, and where an
element's literal or a comparison does not match the real sizes a cut goes
in, always one that every real assignment satisfies:

  * x claims k but its group has more elements: k + 1 of them joined to x
    by a tree T of joins: not val[x][k] or some join of T breaks;
  * x claims k (or big) but its group G is smaller (at most M, for big):
    not val[x][k] or some join leaving G holds;
  * anything else (two big groups compared): not this very group, i.e. some
    join of G's tree breaks or some join leaving G holds.

A number compared with a size at the top level of a rule (a clue, size(k)
= 5) also gets distance layers from its element, as a Nurikabe island does
(connectivity.encode_bounded): reach[y] (y within k - 1 steps of x, through
elements that claim k) implies val[y][k], a join from a reached element
reaches, and exactly k elements are reached.  Exact either way; they are
there to propagate: with them a 10 x 10 Fillomino needs a few rounds.
"""

from __future__ import annotations

import weakref

from pysat.card import CardEnc, EncType

from .model import conjuncts

SMALL_SIZES = 5       # M: sizes 1..M have literals everywhere (if numbers that large are compared)
LAYER_COUNT = True    # the layers of a top-level size(x) = k also count their elements
LAYER_BUDGET = 20000  # ... when they cost at most this many variables
LAYER_SHARE = 30      # ... and all of them this many per element (or LAYER_BUDGET)


def literal(enc, node):
    """The literal of a "size" or "samesize" node (cnf.Encoder.lit)."""
    args = node.args
    part = encoding(enc, args[0])
    if node.kind == "size":
        return part.size_lit(*args[1:])
    return part.same_lit(args[1], args[2])


def encoding(enc, part) -> "PartitionCnf":
    found = enc.partitions.get(part.uid)
    if found is None:
        found = enc.partitions[part.uid] = PartitionCnf(enc, part)
    return found


def _top_level_sizes(rules, part) -> dict:
    """element -> k for each `size(x) = k` of ``part`` that a rule states
    outright (at its top level, or in an `and` there)."""
    out = {}
    for x in conjuncts(rules):
        if x.kind == "size" and x.args[0] is part and x.args[2] == "=":
            out.setdefault(x.args[1], x.args[3])
    return out


class PartitionCnf:
    """The value literals, the clauses that tie them to the joins, and the
    lazy check of one Partition."""

    def __init__(self, enc, part):
        # the encoder holds this (its partitions, its lazy list): a strong
        # reference back would make the whole encoding a cycle, freed only
        # by a full collection, seconds later (an API loop of 330 Fillominos
        # held 10 million dead objects)
        self._encoder = weakref.ref(enc)
        self.part = part
        t = enc.true
        n = len(part.elements)
        self.sel = [enc.as_lit(enc.lit(s)) for s in part.sel]
        self.pairs = [(i, j, enc.as_lit(enc.lit(node))) for (i, j), node in part.joins]
        self.near = [[] for _ in range(n)]          # x -> [(y, join literal)]
        for i, j, jl in self.pairs:
            if jl != -t:
                self.near[i].append((j, jl))
                self.near[j].append((i, jl))
        fixed = _top_level_sizes(enc.limit_rules, part)
        self.values = self._tables(fixed)
        self.val = [{} for _ in range(n)]
        self.big = [None] * n
        for x in range(n):
            self._declare(x, fixed.get(x))
        for i, j, jl in self.pairs:
            self._tie(i, j, jl)
        for x in range(n):
            if 1 in self.val[x]:
                self._single(x)
        self._all_layers(fixed)
        self.compared = []                          # (literal, x, y): size(x) = size(y)
        enc.lazy.append(LazySizes(self))

    @property
    def enc(self):
        return self._encoder()

    # ------------------------------------------------------------ tables

    def _reach(self, x, depth, fixed, k):
        """The elements within ``depth`` steps of x that can share its group
        of size k (not fixed to another size), with their distances."""
        dist = {x: 0}
        todo = [x]
        never = -self.enc.true
        for y in todo:
            if dist[y] == depth:
                continue
            for z, _ in self.near[y]:
                if z not in dist and fixed.get(z, k) == k and self.sel[z] != never:
                    dist[z] = dist[y] + 1
                    todo.append(z)
        return dist

    def _tables(self, fixed) -> list:
        """D(x) for each element, sorted; an element fixed to k has {k}."""
        part = self.part
        n = len(part.elements)
        numbers = [k for _, _, k in part.anchors]
        top = min(SMALL_SIZES, max(numbers, default=4), n)
        extra = [set() for _ in range(n)]
        for x, op, k in part.anchors:
            if op == "=":
                for y in self._reach(x, k - 1, fixed, k):
                    extra[y].add(k)
            else:                       # <= k: 1..k; >= k: 1..k-1 (big means more)
                extra[x].update(range(1, k + 1 if op == "<=" else k))
        most = self._component_sizes()
        out = []
        for x in range(n):
            if x in fixed:
                out.append((fixed[x],))
            else:
                out.append(tuple(sorted(v for v in set(range(1, top + 1)) | extra[x]
                                        if v <= most[x])))
        self.most = most
        return out

    def _component_sizes(self) -> list:
        """The size of each element's component of possible joins: no group
        can be larger."""
        n = len(self.near)
        most = [0] * n
        never = -self.enc.true
        for start in range(n):
            if most[start] or self.sel[start] == never:
                continue
            group = [start]
            most[start] = -1
            for y in group:
                for z, _ in self.near[y]:
                    if not most[z] and self.sel[z] != never:
                        most[z] = -1
                        group.append(z)
            for y in group:
                most[y] = len(group)
        return most

    def _declare(self, x, fixed):
        enc = self.enc
        t = enc.true
        s = self.sel[x]
        if s == -t:
            return
        if fixed is not None:
            self.val[x] = {fixed: t}
            if fixed in self.values[x]:
                enc.guarded((), [s])
            else:
                enc.guarded((), [])          # a size no group can have
            return
        table = self.values[x]
        lits = [enc.new() for _ in table]
        self.val[x] = dict(zip(table, lits))
        if len(table) < self.most[x]:           # (else every size it can have is in it)
            self.big[x] = enc.new()
            lits.append(self.big[x])
        enc.guarded((s,), lits)
        for l in lits:
            enc.guarded((l,), [s])
        enc.at_most_one(lits)

    def _tie(self, i, j, jl):
        """Joined elements have one size."""
        enc = self.enc
        if jl == -enc.true:
            return
        vi, vj = self.val[i], self.val[j]
        bi, bj = self.big[i], self.big[j]
        for v in set(vi) | set(vj):
            a, b = vi.get(v), vj.get(v)
            if a is not None and b is not None:
                enc.guarded((jl, a), [b])
                enc.guarded((jl, b), [a])
            elif a is not None:
                enc.guarded((jl, a), [bj] if bj is not None else [])
            else:
                enc.guarded((jl, b), [bi] if bi is not None else [])
        for x, y, bx in ((i, j, bi), (j, i, bj)):
            if bx is not None:
                by = self.big[y]
                others = [l for v, l in self.val[y].items() if v not in self.val[x]]
                enc.guarded((jl, bx), ([by] if by is not None else []) + others)

    def _single(self, x):
        """A group of one: selected with no join."""
        enc = self.enc
        one = self.val[x][1]
        joins = [jl for _, jl in self.near[x]]
        for jl in joins:
            enc.guarded((one,), [-jl])
        enc.guarded((self.sel[x],), joins + [one])

    def _all_layers(self, fixed):
        """Layers for the sizes stated outright, the cheapest first, while
        they cost at most LAYER_BUDGET variables each, and in all LAYER_SHARE
        per element or LAYER_BUDGET, whichever is more: a 20 x 36 Fillomino
        with eighteen 30s spent 360,000 variables on their layers and solved
        in 19 s, in 1.5 s with the cheapest 21,600 (the solve loop's cuts do
        the rest); a 10 x 10 whose 55 got none took past 20 s, 0.1 s with
        them."""
        t = self.enc.true
        todo = []
        for x, k in sorted(fixed.items()):
            # (an element beside an earlier one stated the same size is
            # almost always in its group, where the layers are)
            if (k >= 2 and self.val[x].get(k) == t
                    and not any(fixed.get(y) == k for y, _ in self.near[x] if y < x)):
                dist = {y: d for y, d in self._reach(x, k - 1, {}, k).items()
                        if k in self.val[y]}
                cost = sum(k - d for d in dist.values()) + (len(dist) * k if LAYER_COUNT else 0)
                if cost <= LAYER_BUDGET:
                    todo.append((cost, x, k, dist))
        left = max(LAYER_BUDGET, LAYER_SHARE * len(self.part.elements))
        for cost, x, k, dist in sorted(todo, key=lambda c: c[:3]):
            if cost > left:
                break
            left -= cost
            self._layers(x, k, dist)

    def _layers(self, x, k, dist):
        """size(x) = k stated outright: reach[y], "y is in x's group, within
        i steps of x" (``dist``: the elements that can be, with their
        distances), layer by layer up to k - 1 (well-founded: no reach holds
        itself up); a join from a reached element reaches; exactly k
        reached."""
        enc = self.enc
        t = enc.true
        order = sorted(dist, key=dist.get)
        reach = {x: t}
        for i in range(1, k):
            layer = {x: t}
            for y in order:
                if dist[y] > i:
                    break
                if y == x:
                    continue
                r = enc.new()
                enc.guarded((r,), [self.val[y][k]])
                before = [reach[z] for z in [y] + [z for z, _ in self.near[y]] if z in reach]
                enc.guarded((r,), before)
                layer[y] = r
            reach = layer
        for y, r in reach.items():
            for z, jl in self.near[y]:
                enc.guarded((r, jl), [reach[z]] if z in reach else [])
        if LAYER_COUNT:
            lits = [r for r in reach.values() if r != t]
            if len(lits) < k - 1:
                enc.guarded((), [])
            elif lits:
                card = CardEnc.equals(lits=lits, bound=k - 1, top_id=enc.nvars,
                                      encoding=EncType.seqcounter)
                enc.nvars = max(enc.nvars, card.nv)
                enc.clauses += card.clauses

    # ------------------------------------------------------------ literals

    def size_lit(self, x, op, k):
        enc = self.enc
        vals = self.val[x]
        if op == "=":
            return vals.get(k, False)
        if op == "<=":
            some = [l for v, l in vals.items() if v <= k] + [-self.sel[x]]
        else:
            some = [l for v, l in vals.items() if v >= k] + [self.big[x]]
        return _either(enc, [l for l in some if l is not None])

    def same_lit(self, x, y):
        """q <-> size(x) = size(y): defined here where both tables decide it,
        checked in the solve loop where they do not (two big groups)."""
        enc = self.enc
        q = enc.new()
        vx, vy = self.val[x], self.val[y]
        sx, sy = self.sel[x], self.sel[y]
        enc.guarded((-sx, -sy), [q])          # both 0
        enc.guarded((q, -sx), [-sy])
        enc.guarded((q, -sy), [-sx])
        for a, b, bb in ((vx, vy, self.big[y]), (vy, vx, self.big[x])):
            for v, l in a.items():
                m = b.get(v)
                if m is not None:
                    enc.guarded((l, m), [q])
                    enc.guarded((q, l), [m])
                else:
                    enc.guarded((q, l), [bb] if bb is not None else [])
        for jl in (jl for z, jl in self.near[x] if z == y):
            enc.guarded((jl,), [q])            # joined: one size
        self.compared.append((q, x, y))
        return q


def _either(enc, lits):
    """A literal for "some of lits holds"."""
    t = enc.true
    if t in lits:
        return True
    lits = [l for l in lits if l != -t]
    if not lits:
        return False
    if len(lits) == 1:
        return lits[0]
    v = enc.new()
    enc.guarded((v,), lits)
    for l in lits:
        enc.guarded((l,), [v])
    return v


class LazySizes:
    """The check of one Partition's literals against the groups of a model
    (see the module's docstring); an item of the solve loop's lazy list."""

    broken = 0            # (never made eager: the switch of connectivity.py skips it)

    def __init__(self, cnf):
        self.cnf = cnf

    def cuts(self, holds) -> list:
        c = self.cnf
        n = len(c.sel)
        chosen = [holds(s) for s in c.sel]
        group = [-1] * n
        groups = []                   # (elements in BFS order, parent join per element)
        for start in range(n):
            if group[start] >= 0 or not chosen[start]:
                continue
            g = len(groups)
            members, via = [start], {start: None}
            group[start] = g
            for y in members:
                for z, jl in c.near[y]:
                    if group[z] < 0 and holds(jl):
                        group[z] = g
                        via[z] = (y, jl)
                        members.append(z)
            groups.append((members, via))
        out = []
        for members, via in groups:
            size = len(members)
            wrong = {}                # claimed size (None: big) -> the first element claiming it
            for x in members:
                claimed = self._claim(x, holds)
                if claimed != (size if size in c.val[x] else None):
                    wrong.setdefault(claimed, x)
            for claimed, x in wrong.items():
                out.append(self._cut(x, claimed, members, via, group, holds))
        for q, x, y in c.compared:
            sx = len(groups[group[x]][0]) if group[x] >= 0 else 0
            sy = len(groups[group[y]][0]) if group[y] >= 0 else 0
            if holds(q) != (sx == sy):
                out.append(self._compared_cut(q, x, y, sx == sy, groups, group))
        return out

    def _claim(self, x, holds):
        """The size x's literals claim (None: big)."""
        for v, l in self.cnf.val[x].items():
            if holds(l):
                return v
        return None

    def _cut(self, x, claimed, members, via, group, holds) -> list:
        c = self.cnf
        size = len(members)
        claim = c.val[x][claimed] if claimed is not None else c.big[x]
        if claimed is not None and size > claimed:
            # claimed + 1 elements joined to x by a tree: one of its joins breaks
            return [-claim] + [-jl for jl in _tree_from(c, x, group, holds, claimed + 1)]
        leaving = [jl for y in members for z, jl in c.near[y] if group[z] != group[y]]
        if claimed is not None or all(v in c.val[x] for v in range(1, size + 1)):
            # too small for what it claims: some join leaving the group holds
            return [-claim] + leaving
        inside = [via[y][1] for y in members if via[y] is not None]
        return [-claim] + [-jl for jl in inside] + leaving

    def _compared_cut(self, q, x, y, equal, groups, group) -> list:
        c = self.cnf
        clause = [q if equal else -q]
        if not equal and group[x] == group[y]:
            members, via = groups[group[x]]
            return clause + [-jl for jl in _path(via, x) ^ _path(via, y)]
        for z in (x, y):
            if group[z] < 0:
                clause.append(c.sel[z])
                continue
            members, via = groups[group[z]]
            clause += [-via[w][1] for w in members if via[w] is not None]
            clause += [jl for w in members for v, jl in c.near[w] if group[v] != group[w]]
        return clause


def _path(via, x) -> set:
    """The joins from x up to its group's first element."""
    out = set()
    while via[x] is not None:
        x, jl = via[x]
        out.add(jl)
    return out


def _tree_from(c, x, group, holds, count) -> list:
    """The joins of a breadth-first tree from x over ``count`` elements of its group."""
    seen = {x}
    todo = [x]
    joins = []
    for y in todo:
        for z, jl in c.near[y]:
            if len(seen) == count:
                return joins
            if z not in seen and group[z] == group[x] and holds(jl):
                seen.add(z)
                todo.append(z)
                joins.append(jl)
    return joins
