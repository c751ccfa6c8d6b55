"""Connectivity in CNF: lazy boundary cuts and an eager rank encoding.

``connected(c in cells: colour[c] = k)`` becomes a node over the elements, their
selection literals s[i] and the adjacency.

Lazy (the PySAT default): nothing is encoded up front.  After each model the
selected elements are split into components; if there are several, each
component C other than the largest gets a cut: its neighbourhood N(C) (all
unselected now) separates C from the rest, so for an element u of C (one that
is always selected, a Numberlink endpoint, when C has one) and a selected v
outside C

    not s[u] or not s[v] or OR(s[w] for w in N(C))

Such a cut removes every assignment in which N(C) stays empty while u and v
are chosen, not only the current one.  One u is enough: a clause for every
u of C made LITS's rounds no fewer and its clauses sixty times more.
Once a constraint has been broken by more than SEPARATE_AFTER models, each such C (of a model with at most SEPARATE_UPTO
of them) also gets the same cut through a smallest set of unselected elements separating
C from the largest component (a unit-capacity max flow, the min cut nearest
C), when that is smaller than N(C): a Nurikabe sea walled in by several
islands is then cut where the wall is thinnest (683_14x24: 1,900 rounds
instead of 4,100).
A constraint broken in EAGER_AFTER rounds, once the solve loop has had
EAGER_AFTER_ROUNDS rounds, gets its eager encoding added to the same solver
(its cuts stay): some Nurikabe seas need thousands of rounds, each cut
closing one gap in a wall, and the solver does better with the ranks by then.
Both switches count models, never seconds: the same puzzle takes the same
path on a loaded machine as on an idle one (generate's seeds, and a LITS
whose rounds once passed a 5 s mark under load and then took 57 s instead
of 8).

Bounded (both modes): when an element is always selected and a cardinality
constraint over the same selection allows at most K chosen elements, every
chosen element lies within K-1 steps of it; distance layers of that depth
are complete and small (a Nurikabe island), and beat both cuts and ranks.
They are used up to a K of BOUNDED_LIMIT, and past it while layer_cost
stays within LAYER_BUDGET variables (encoder/cnf.py).

Eager (Z3, DIMACS export, ``--connectivity eager``): the root is an element
that is always selected, or else the first selected one; every other selected
element needs a selected neighbour of strictly smaller rank, ranks being binary
numbers of ceil(log2 n) bits.
Following those neighbours from any selected element reaches the root, so
the selected elements are connected; conversely a BFS order from the root
gives valid ranks.

Roots (``connected(e in edges: joined[e] from end[e.a] or end[e.b])``): every
group of selected elements must hold a root.  Lazily, a group C without one
gets, for each u in C,

    not s[u] or OR(s[w] for w in N(C)) or OR(root[x] for x in C)

(root[x] the literal of "x chosen and a root"); eagerly, every selected
element that is not a root needs a neighbour of smaller rank.  A Numberlink
generation model draws paths this way: a cycle of linked edges holds no end.
"""

from __future__ import annotations

from ..board.graphs import components

# a constraint broken by EAGER_AFTER models, once the solve loop has had
# EAGER_AFTER_ROUNDS rounds, is encoded eagerly (Slitherlink's loops need up
# to a hundred cheap rounds and LITS up to 350, and the ranks would slow them
# down tenfold; Nurikabe's seas that need ranks take thousands)
EAGER_AFTER = 50
EAGER_AFTER_ROUNDS = 1000

# a constraint broken by more than SEPARATE_AFTER models also gets, for each stray component of a model
# with at most SEPARATE_UPTO of them, the cut through a smallest separator (a
# max flow per component costs milliseconds: worth it only where rounds pile
# up; Masyu's loops, hundreds of components in a round, got 2-10x slower)
SEPARATE_AFTER = 10
SEPARATE_UPTO = 2          # ... when a model has at most this many stray components


class LazyConnected:
    """A connectivity constraint left for the solve loop."""

    __slots__ = ("guard", "lits", "adjacent", "roots", "true", "forced", "broken", "off",
                 "_live")

    def __init__(self, guard, lits, adjacent, true_lit, roots=None):
        self.guard = guard
        self.lits = lits
        self.adjacent = adjacent
        self.roots = roots                # with `from`: "chosen and a root" per element
        self.true = true_lit
        self.forced = [i for i, l in enumerate(lits) if l == true_lit]
        self.off = {i for i, l in enumerate(lits) if l == -true_lit}   # never selected
        self._live = None
        self.broken = 0                   # models so far that broke it

    @property
    def live(self):
        """The adjacency without the never-selected elements."""
        if self._live is None:
            off = self.off
            self._live = [[y for y in ys if y not in off] for ys in self.adjacent]
        return self._live


def cuts(items, holds) -> list:
    """Cut clauses for every lazy constraint the model breaks (``holds(lit)``)."""
    out = []
    for item in items:
        if type(item) is not LazyConnected:      # another kind of check (groupsizes.py)
            out += item.cuts(holds)
            continue
        if not all(holds(g) for g in item.guard):
            continue
        chosen = [i for i, l in enumerate(item.lits) if holds(l)]
        groups = components(chosen, item.adjacent)
        if item.roots is not None:
            out += _rooted_cuts(item, groups, holds)
            continue
        if len(groups) <= 1:
            continue
        item.broken += 1
        separate = item.broken > SEPARATE_AFTER and len(groups) <= SEPARATE_UPTO + 1
        forced = set(item.forced)
        groups.sort(key=lambda g: (not forced.intersection(g), -len(g)))
        main = groups[0]
        v = next((i for i in main if i in forced), main[0])
        if separate:
            chosen_set, main_set = set(chosen), set(main)
        neg_guard = [-g for g in item.guard]
        for group in groups[1:]:
            inside = set(group)
            boundary = sorted({w for u in group for w in item.adjacent[u] if w not in inside})
            tails = [[item.lits[w] for w in boundary]]
            if separate:
                sep = separator(item, inside, main_set, chosen_set, len(boundary))
                if sep is not None:
                    tails.append([item.lits[w] for w in sep])
            # one u of C (an always-selected one if C has one): a clause for
            # every u of C cost a LITS of 31x45 122,000 clauses in 300 rounds
            # and twice the time of one each (326 rounds, 2,000 clauses)
            u = next((u for u in group if u in forced), group[0])
            for tail in tails:
                out.append(neg_guard + [-item.lits[u], -item.lits[v]] + tail)
    return out


def _rooted_cuts(item, groups, holds) -> list:
    """Cuts for the groups without a root: N(C) unselected and no root chosen
    in C leave u of C without one, so for each u in C

        not s[u] or OR(s[w] for w in N(C)) or OR(root[x] for x in C)"""
    roots = item.roots
    bad = [g for g in groups if not any(holds(roots[x]) for x in g)]
    if not bad:
        return []
    item.broken += 1
    out = []
    neg_guard = [-g for g in item.guard]
    never = -item.true
    for group in bad:
        inside = set(group)
        boundary = sorted({w for u in group for w in item.adjacent[u] if w not in inside})
        tail = ([item.lits[w] for w in boundary]
                + [roots[x] for x in group if roots[x] != never])
        for u in group:
            out.append(neg_guard + [-item.lits[u]] + tail)
    return out


def due_for_eager(items, rounds: int) -> list:
    """The lazy constraints to encode eagerly after ``rounds`` rounds of a
    solve loop: those broken by EAGER_AFTER models, once there were
    EAGER_AFTER_ROUNDS rounds."""
    if rounds < EAGER_AFTER_ROUNDS:
        return []
    return [x for x in items if x.broken >= EAGER_AFTER]


def separator(item, source, sink, chosen, bound) -> list | None:
    """A smallest set of unselected elements whose removal cuts ``source`` from
    ``sink``, the one nearest to ``source`` (unit vertex capacities; selected
    elements cannot be cut, never-selected ones are absent); None when it
    would have ``bound`` elements or more.

    Augmenting paths on the split graph: element x is an in-node 2x and an
    out-node 2x + 1 joined by an arc of capacity 1 (unbounded when x is
    selected); out(x) -> in(y) for neighbours, unbounded.  The flow is kept
    per element (``through``) and per arc into an element (``into``), in
    lists, so a breadth-first pass costs a few list reads per arc (a board of
    1,400 cells: milliseconds, where dictionaries keyed by arcs cost ten
    times more)."""
    adjacent = item.live
    n = len(adjacent)
    through = [0] * n                     # flow on in(x) -> out(x)
    into = [None] * n                     # into[y]: {x: flow on out(x) -> in(y)}, when any
    starts = [2 * u + 1 for u in source]
    value = 0
    while True:
        prev = [-2] * (2 * n)             # -2: not reached; -1: a start
        for a in starts:
            prev[a] = -1
        frontier = list(starts)
        found = -1
        for a in frontier:                # grows while it is read: a queue
            x = a >> 1
            if a & 1:                     # out(x): on to every neighbour's in-node
                for y in adjacent[x]:
                    b = 2 * y
                    if prev[b] == -2:
                        prev[b] = a
                        frontier.append(b)
                if through[x] > 0 and prev[a - 1] == -2:       # back through x
                    prev[a - 1] = a
                    frontier.append(a - 1)
            else:                         # in(x)
                if x in sink:
                    found = a
                    break
                if (through[x] < 1 or x in chosen) and prev[a + 1] == -2:
                    prev[a + 1] = a
                    frontier.append(a + 1)
                back = into[x]
                if back:                  # back along arcs that carry flow into x
                    for w, f in back.items():
                        b = 2 * w + 1
                        if f > 0 and prev[b] == -2:
                            prev[b] = a
                            frontier.append(b)
        if found < 0:
            break
        value += 1
        if value >= bound:
            return None
        b = found
        while prev[b] != -1:
            a = prev[b]
            x, y = a >> 1, b >> 1
            if x == y:                    # x's own arc, forwards (in -> out) or back
                through[x] += 1 if b & 1 else -1
            elif a & 1:                   # out(x) -> in(y)
                if into[y] is None:
                    into[y] = {}
                into[y][x] = into[y].get(x, 0) + 1
            else:                         # back from in(x) to out(y)
                into[x][y] -= 1
            b = a
    return sorted(x for x in range(n) if prev[2 * x] != -2 and prev[2 * x + 1] == -2)


def encode_eager(enc, lits, adjacent, guard, roots=None):
    """Add the rank encoding of connectivity to the Encoder ``enc``; with
    ``roots`` ("chosen and a root" per element) every chosen element that is
    not a root hangs below a neighbour, and the roots below none."""
    n = len(lits)
    t = enc.true
    forced = [i for i, l in enumerate(lits) if l == t]
    # needs[i]: the premise under which element i must hang below a neighbour;
    # the root (an always-selected element, else the first selected) needs none
    needs = []
    if roots is not None:
        needs = [None if r == t else () if r == -t else (-r,) for r in roots]
    elif forced:
        needs = [None if i == forced[0] else () for i in range(n)]
    else:
        earlier = None                    # some element before i is selected
        for i in range(n):
            needs.append((earlier,) if earlier is not None else None)
            if i < n - 1:
                b = enc.new()
                enc.guarded((), [-lits[i], b])
                if earlier is not None:
                    enc.guarded((), [-earlier, b])
                earlier = b
    bits = max(1, (n - 1).bit_length())
    rank = [[enc.new() for _ in range(bits)] for _ in range(n)]
    for i in range(n):
        if lits[i] == -t or needs[i] is None:
            continue
        options = []
        for j in adjacent[i]:
            if lits[j] == -t:
                continue
            p = enc.new()                 # i hangs below its neighbour j
            enc.guarded((p,), [lits[j]])
            _less(enc, p, rank[j], rank[i])
            options.append(p)
        enc.guarded(tuple(guard) + (lits[i],) + needs[i], options)


def _less(enc, when, y, x):
    """when -> y < x for bit vectors y, x (most significant bit first)."""
    prefix = None                         # y and x agree on the bits so far
    deciders = []
    for k in range(len(x)):
        d = enc.new()                     # bit k decides: y_k = 0, x_k = 1
        enc.guarded((d,), [-y[k]])
        enc.guarded((d,), [x[k]])
        if prefix is not None:
            enc.guarded((d,), [prefix])
        deciders.append(d)
        if k < len(x) - 1:
            q = enc.new()
            if prefix is not None:
                enc.guarded((q,), [prefix])
            enc.guarded((q,), [y[k], -x[k]])
            enc.guarded((q,), [-y[k], x[k]])
            prefix = q
    enc.guarded((when,), deciders)


def _distances(lits, adjacent, root, t):
    """BFS distances from ``root`` over the elements that can be selected,
    and the elements in BFS order."""
    dist = {root: 0}
    order = [root]
    for x in order:
        for y in adjacent[x]:
            if y not in dist and lits[y] != -t:
                dist[y] = dist[x] + 1
                order.append(y)
    return dist, order


def layer_cost(lits, adjacent, limit, t) -> int | None:
    """The variables encode_bounded would make for a selection with an
    always-selected element (None without one): element x gets one in
    every layer i from its distance to limit-1."""
    root = next((i for i, l in enumerate(lits) if l == t), None)
    if root is None:
        return None
    dist, _ = _distances(lits, adjacent, root, t)
    depth = max(0, limit - 1)
    return sum(depth - d + 1 for d in dist.values() if 0 < d <= depth)


def encode_bounded(enc, lits, adjacent, limit, guard):
    """Distance layers when at most ``limit`` elements can be selected.

    A connected selection then lies within limit-1 steps of its root, so
    reach[x][i] ("x is joined to the root by a chosen path of at most i
    steps") for i < limit is complete, and small when the limit is (a
    Nurikabe island, or its sea).  The root is an always-selected element if
    there is one (layers then grow only as far as the BFS distance allows),
    else the first selected element."""
    t = enc.true
    n = len(lits)
    depth = max(0, limit - 1)
    forced = [i for i, l in enumerate(lits) if l == t]
    live = [x for x in range(n) if lits[x] != -t]
    if forced:
        root = forced[0]
        dist, order = _distances(lits, adjacent, root, t)
        reach = {root: t}
    else:
        dist = {x: 0 for x in live}
        order = live
        reach = {}
        earlier = None                   # some element before x is selected
        for x in live:
            r = enc.new()                # x is the root: the first selected element
            enc.guarded((r,), [lits[x]])
            if earlier is not None:
                enc.guarded((r,), [-earlier])
            enc.guarded((), [-lits[x], r] + ([earlier] if earlier is not None else []))
            reach[x] = r
            b = enc.new()
            enc.guarded((), [-lits[x], b])
            if earlier is not None:
                enc.guarded((), [-earlier, b])
            earlier = b
    for i in range(1, depth + 1):
        layer = {root: t} if forced else {}
        for x in order:
            if forced and x == root:
                continue
            if dist[x] > i:
                break
            r = enc.new()
            enc.guarded((r,), [lits[x]])
            before = [reach[x]] if x in reach else []
            before += [reach[y] for y in adjacent[x] if y in reach]
            enc.guarded((r,), before)
            layer[x] = r
        reach = layer
    for x in live:
        if forced and x == root:
            continue
        enc.guarded(tuple(guard) + (lits[x],), [reach[x]] if x in reach else [])
