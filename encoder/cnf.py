"""Stage: cnf.  Model -> CNF clauses over integer literals (PySAT / DIMACS).

Encodings, chosen per construct:

  * bool var: one literal.  Finite-domain var: one literal per value with
    exactly-one (pairwise at-most-one up to 8 values, a sequential counter
    beyond); a two-value domain shares one literal; one value needs none.
  * a constraint ``a -> B`` whose premise is a conjunction of literals puts
    the premise in a *guard*: B's clauses each get the negated premise, so
    ``full[c] -> n[c] = count(...)`` needs no Tseitin variable.
  * cardinality and linear constraints: a totalizer (generalized to
    coefficients and finite-domain terms), cut off just above the bound.
  * ``x = count(bools)`` with x a finite-domain var: each value literal of x is
    made equivalent (under the guard) to "the count is exactly v", read off a
    unary totalizer of the bools.  This is what solves Hexiom's level 38.
  * distinct: at-most-one per value; when there are as many terms as values,
    also at-least-one per value (a pigeonhole completion that helps Sudoku).
  * anything else nested: Tseitin definitions, cached per formula.

Example: ``count(c in row: v[c] = 1) <= 1`` on three cells gives the clauses
``-a -b, -a -c, -b -c`` where a, b, c are the literals of v[...] = 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import chain, combinations, repeat
from operator import itemgetter

from pysat.card import CardEnc, EncType

from ..runtime import clock
from . import connectivity, groupsizes
from ..runtime import pysat_calls  # noqa: F401  (Ctrl-C stays Python's)
from ..runtime.gc_pause import without_gc
from ..runtime.limits import CHECK_EVERY, MemoryBudget
from .model import Cases, Model, Node, Var, conjuncts

PAIRWISE_LIMIT = 8
PRODUCT_LIMIT = 4096    # at-most-one over more literals: the product encoding
BINOMIAL_LIMIT = 5      # cardinality over this few literals: one clause per bad subset
NETWORK_LIMIT = 20000   # n * k above this: pysat's k-modulo totalizer, not ours
SAME_ONE_WAY = True     # a = b for one-hot pairs: one direction suffices
BOUNDED_LIMIT = 64      # distance layers for connectivity up to this many elements
LAYER_BUDGET = 20000    # ... or more, when they have a root and need at most this many variables
LARGE_IMPLIED = True    # an implied count past IMPLIED_LIMIT only bounds connectivity
IMPLIED_LIMIT = NETWORK_LIMIT
TEMPLATE_LEAVES = 16    # counts of up to this many literals: their totalizer made from a template


@dataclass(eq=False)
class Cnf:
    """Clauses plus the map from model variables to literals."""
    nvars: int
    clauses: list             # each a list or tuple of literals (the bulk ones are tuples)
    var_lits: dict            # Var -> literal (bool) or {value: literal}
    true_lit: int
    stats: dict = field(default_factory=dict)
    lazy: list = field(default_factory=list)    # connectivity left to the solve loop
    encoder: object = None                      # kept to encode more later (plans)


class Unary:
    """An order encoding of an integer sum: ge[i] <-> sum >= values[i]."""

    __slots__ = ("values", "ge")

    def __init__(self, values, ge):
        self.values = values
        self.ge = ge

    def at_least(self, k):
        """Literal for sum >= k, or True/False when decided."""
        values = self.values
        if k <= values[0]:
            return True
        for i, v in enumerate(values):
            if v >= k:
                return self.ge[i]
        return False


class Encoder:
    def __init__(self, model: Model, connectivity: str = "lazy"):
        self.model = model
        self.connectivity = connectivity
        self.lazy = []
        self.partitions = {}      # Partition uid -> its groupsizes.PartitionCnf
        self.size_limits = {}     # frozenset of node uids -> most of them that can hold
        self.limits_from = None   # size_limits holds the counts of at least this many
        self.limit_rules = []     # the (rule, node) pairs whose counts give size_limits
        self.nvars = 0
        self.clauses = []
        self.node_lits = {}
        self.var_lits = {}
        # Var -> (its value literals, their negations), when they are consecutive
        # new variables in the domain's order: the clauses of each `same` share
        # these ints instead of making their own (Numberlink's reads each
        # variable on up to four edges; made and freed per clause, the ints
        # cost as much as the tuples), and read_assignment finds the value in C
        self.value_runs = {}
        self.leaf_cache = {}
        self.sum_cache = {}
        self.true = self.new()
        self.clauses.append([self.true])
        self.memory = MemoryBudget(getattr(model, "source", None))
        self.next_check = CHECK_EVERY

    def check_memory(self, more: int = 0, final: bool = False):
        """Stop with an error at the rule being encoded when the clauses so
        far (and ``more`` to come), with the solver's copy, would not fit."""
        self.memory.check(len(self.clauses), more, final)
        self.next_check = len(self.clauses) + CHECK_EVERY

    # ---------------------------------------------------------------- basics

    def new(self) -> int:
        self.nvars += 1
        return self.nvars

    def add(self, clause):
        self.clauses.append(clause)

    def guarded(self, guard, lits):
        """Add the clause (not guard) or lits; True/False and the true literal fold."""
        t = self.true
        clause = []
        for l in ([-g for g in guard] + list(lits) if guard else lits):
            if l is True or l == t:
                return
            if l is False or l == -t:
                continue
            clause.append(l)
        self.clauses.append(clause)

    def at_most_one(self, lits, guard=()):
        t = self.true
        lits = [l for l in lits if l is not False and l != -t]
        if t in lits or True in lits:   # one is already true: the others are false
            rest = [l for l in lits if l is not True and l != t]
            if len(rest) + 1 < len(lits):
                self.guarded(guard, [])
            for l in rest:
                self.guarded(guard, [-l])
            return
        if len(lits) > 1:
            self._at_most_one(lits, guard)

    def _at_most_one(self, lits, guard, nots=None):
        """at_most_one of two or more undecided literals (``nots``: their
        negations, when the caller has them)."""
        neg = [-g for g in guard]
        out = self.clauses
        n = len(lits)
        if n > PRODUCT_LIMIT:
            self._product_at_most_one(lits, guard)
            return
        if nots is None:
            nots = [-l for l in lits]
        if n <= PAIRWISE_LIMIT:
            for i in range(n - 1):
                a = nots[i]
                if neg:
                    out += [neg + [a, b] for b in nots[i + 1:]]
                else:
                    out += [(a, b) for b in nots[i + 1:]]
            return
        # sequential counter: s[i] means "some of lits[0..i] is true"; for
        # each i (prev = s[i-1], or lits[0]): not (prev and x), prev -> s[i],
        # x -> s[i], the last x without s; built in bulk, in that order
        first = self.nvars + 1
        self.nvars += n - 2
        s = list(range(first, first + n - 2))   # its ints made once, used three times
        prevs = [lits[0], *s]
        xs = lits[1:]
        if neg:
            out += [c for p, x, si in zip(prevs, xs, s)
                    for c in (neg + [-p, -x], [-p, si], [-x, si])]
        else:                         # the same clauses, their tuples made by zip
            not_prevs = [nots[0], *[-si for si in s]]
            not_xs = nots[1:]
            out += chain.from_iterable(zip(zip(not_prevs, not_xs), zip(not_prevs, s),
                                           zip(not_xs, s)))
        out.append(neg + [-prevs[-1], -xs[-1]])

    def _product_at_most_one(self, lits, guard):
        """At most one of many literals by the product encoding: lits laid out
        in a p x q grid, each implying its row and its column, and at most one
        row and one column.  About 2n clauses and 2 sqrt(n) new variables,
        where the sequential counter takes 3n and n (a 100,001-value domain)."""
        n = len(lits)
        q = math.isqrt(n - 1) + 1
        p = -(-n // q)
        first = self.nvars + 1
        self.nvars += p + q
        rows = list(range(first, first + p))
        cols = list(range(first + p, first + p + q))
        out = self.clauses
        for i, x in enumerate(lits):      # unguarded: they only define rows and cols
            out.append([-x, rows[i // q]])
            out.append([-x, cols[i % q]])
        self.at_most_one(rows, guard)
        self.at_most_one(cols, guard)

    def exactly_one(self, lits):
        self.clauses.append(list(lits))
        self.at_most_one(lits)

    # ---------------------------------------------------------------- variables

    def declare(self, var: Var, fixed=None, banned=()):
        """Literals for a variable; ``fixed``/``banned`` come from unit constraints."""
        t = self.true
        if var.domain is None:
            self.var_lits[var] = self.new() if fixed is None else (t if fixed else -t)
            return
        dom = var.domain
        if fixed is not None:
            self.var_lits[var] = {v: (t if v == fixed else -t) for v in dom}
            return
        n = len(dom)
        if not banned and n > 2:      # the usual case: a fresh literal a value
            fresh = list(range(self.nvars + 1, self.nvars + 1 + n))
            lits = dict(zip(dom, fresh))
            if len(lits) == n:        # (values told apart: always, from the grounder)
                self.nvars += n
                self.var_lits[var] = lits
                self.clauses.append(fresh)
                nots = [-l for l in fresh]
                self.value_runs[var] = (fresh, nots)
                self._at_most_one(fresh, (), nots)
                return
        live = [v for v in dom if v not in banned]
        lits = {v: -t for v in dom}
        if not live:
            self.clauses.append([])      # every value is excluded
        elif len(live) == 1:
            lits[live[0]] = t
        elif len(live) == 2:
            x = self.new()
            lits[live[0]], lits[live[1]] = -x, x
        else:
            fresh = range(self.nvars + 1, self.nvars + 1 + len(live))
            self.nvars += len(live)
            lits.update(zip(live, fresh))
            self.exactly_one(fresh)
        self.var_lits[var] = lits

    def value_lit(self, term, value):
        """Literal for `term = value` (term a Var, Cases or constant)."""
        if type(term) is Var:
            return self.var_lits[term].get(value, False)
        if type(term) is Cases:
            for cond, v in term.pairs:
                if v == value:
                    return self.lit(cond)
            return False
        return term == value

    def domain(self, term):
        if type(term) in (Var, Cases):
            return term.domain
        return (term,)

    # ---------------------------------------------------------------- Tseitin

    def lit(self, node: Node):
        """A literal equivalent to ``node`` (True/False for constants)."""
        k = node.kind
        if k == "true":
            return True
        if k == "false":
            return False
        if k == "bvar":
            return self.var_lits[node.args[0]]
        if k == "eq":
            var, value = node.args
            return self.var_lits[var][value]
        if k == "not":
            inner = self.lit(node.args[0])
            return (not inner) if type(inner) is bool else -inner
        hit = self.node_lits.get(node.uid)
        if hit is not None:
            return hit
        if k in ("and", "or"):
            sub = [self.lit(x) for x in node.args]
            v = self.new()
            if k == "and":
                for x in sub:
                    self.guarded((v,), [x])
                self.guarded((), [v] + [_neg(x) for x in sub])
            else:
                for x in sub:
                    self.guarded((), [_neg(x), v])
                self.guarded((v,), sub)
        elif k == "iff":
            a, b = (self.lit(x) for x in node.args)
            v = self.new()
            self.clauses += [[-v, -a, b], [-v, a, -b], [v, a, b], [v, -a, -b]]
        elif k == "lin":
            v = self.lin_lit(node)
        elif k == "same":
            v = self.same_lit(*node.args)
        elif k == "connected":
            # only ever required (check.py rejects other uses), so
            # v -> connected(...) is enough: the solver sets v only when needed
            v = self.new()
            self.assert_(node, (v,))
        elif k in ("size", "samesize"):
            v = groupsizes.literal(self, node)
            if type(v) is bool:
                return v
        elif k == "distinct":
            m = self.model
            terms = node.args
            v = self.lit(m.and_([m.not_(m.same(terms[i], terms[j]))
                                 for i in range(len(terms)) for j in range(i + 1, len(terms))]))
        else:  # pragma: no cover
            raise AssertionError(k)
        self.node_lits[node.uid] = v
        return v

    # ---------------------------------------------------------------- assertions

    def assert_(self, node: Node, guard=()):
        """Add clauses so that ``guard -> node`` holds."""
        if len(self.clauses) >= self.next_check:
            self.check_memory()
        k = node.kind
        if k == "true":
            return
        if k == "false":
            self.guarded(guard, [])
        elif k in ("bvar", "eq"):
            self.guarded(guard, [self.lit(node)])
        elif k == "and":
            for x in node.args:
                self.assert_(x, guard)
        elif k == "or":
            simple, complex_ = [], []
            for x in node.args:
                (simple if _is_literal(x) else complex_).append(x)
            if len(complex_) == 1:
                extra = tuple(-self.lit(s) for s in simple)
                self.assert_(complex_[0], guard + extra)
            else:
                self.guarded(guard, [self.lit(x) for x in node.args])
        elif k == "iff":
            a, b = node.args
            m = self.model
            if _is_literal(a) or _is_literal(b):
                if not _is_literal(a):
                    a, b = b, a
                la = self.lit(a)
                if b.kind == "same":         # the usual `x <-> v = w`: no `not` node made
                    if not guard and self._iff_same(la, *b.args):
                        return
                    self.assert_same(*b.args, guard=guard + (la,))
                    self.assert_not_same(*b.args, guard + (-la,))
                    return
                self.assert_(b, guard + (la,))
                self.assert_(m.not_(b), guard + (-la,))
            else:
                la, lb = self.lit(a), self.lit(b)
                self.guarded(guard, [-la, lb])
                self.guarded(guard, [la, -lb])
        elif k == "lin":
            self.assert_lin(node, guard)
        elif k == "same":
            self.assert_same(*node.args, guard=guard)
        elif k == "distinct":
            self.assert_distinct(node.args, guard)
        elif k == "connected":
            self.assert_connected(*node.args, guard)
        elif k in ("size", "samesize"):
            self.guarded(guard, [self.lit(node)])
        elif k == "not" and node.args[0].kind == "same":
            self.assert_not_same(*node.args[0].args, guard)
        elif k == "not":
            self.guarded(guard, [self.lit(node)])
        else:  # pragma: no cover
            raise AssertionError(k)

    def assert_connected(self, elems, sel, adj, tops, guard):
        """guard -> connected(...): distance layers when a count bounds the
        selection, else lazy cuts or the eager ranks.  ``tops`` (with roots:
        "chosen and a root" per element) leave no single root to bound from."""
        lits = self._selection_lits(sel)
        if tops is not None:
            roots = [self.as_lit(self.lit(x)) for x in tops]
            if self.connectivity == "lazy":
                self.lazy.append(connectivity.LazyConnected(guard, lits, adj, self.true, roots))
            else:
                connectivity.encode_eager(self, lits, adj, guard, roots)
            return
        # a count over the same selection bounds it; the count leaves out the
        # always-selected elements, the connected node keeps them
        free = [x.uid for x in sel if x is not self.model.TRUE]
        limit = self._size_limit(frozenset(free))
        if limit is not None and len(set(free)) < len(free):
            limit = None      # a formula shared by several elements counts once there
        if limit is not None:
            limit += len(sel) - len(free)
        if limit is not None and (limit <= BOUNDED_LIMIT or self._layers_cheap(lits, adj, limit)):
            connectivity.encode_bounded(self, lits, adj, limit, guard)
        elif self.connectivity == "lazy":
            self.lazy.append(connectivity.LazyConnected(guard, lits, adj, self.true))
        else:
            connectivity.encode_eager(self, lits, adj, guard)

    def _layers_cheap(self, lits, adjacent, limit) -> bool:
        """Distance layers past BOUNDED_LIMIT when the selection has a root
        and its reach is walled in (a big Nurikabe island among many clues:
        690_50x50's 70 has about 9,000 layer variables, and solves in 10 s
        with them, in 110 s with cuts; docs/benchmarks.md)."""
        cost = connectivity.layer_cost(lits, adjacent, limit, self.true)
        return cost is not None and cost <= LAYER_BUDGET

    def _size_limit(self, key):
        """size_limits' bound for the selection ``key``, those tables made on
        first use (a model without connected(...) needs none) and only of
        counts over at least half as many formulas as a selection asks about
        (made again for a selection below that: a few times at most)."""
        if self.limits_from is None or len(key) < self.limits_from:
            self.limits_from = len(key) // 2
            self.size_limits = size_limits(self.limit_rules, least=self.limits_from)
        return self.size_limits.get(key)

    def _selection_lits(self, sel) -> list:
        """Literals of a connected node's selection formulas (most are
        `var = value` atoms, read straight from the variable's literals)."""
        var_lits = self.var_lits
        return [var_lits[x.args[0]][x.args[1]] if x.kind == "eq" else self.as_lit(self.lit(x))
                for x in sel]

    # ---------------------------------------------------------------- same / distinct

    def assert_same(self, a, b, guard=()):
        """guard -> a = b.  Each side takes exactly one value, so when both are
        variables "a = v -> b = v" for every v already forces the converse."""
        neg = [-g for g in guard]
        both_vars = SAME_ONE_WAY and type(a) is Var and type(b) is Var
        t = self.true
        out = self.clauses
        for x, y in ((a, b), (b, a)):
            lx = self._value_lits(x)
            ly = self._value_lits(y)
            nt = -t
            for v, l in lx.items():
                if l == nt:
                    continue
                m = ly.get(v, nt)
                if m == t:
                    continue
                if l != t and m != nt:        # x = v -> y = v (the usual two literals)
                    out.append([*neg, -l, m])
                    continue
                clause = neg.copy()
                if l != t:
                    clause.append(-l)
                if m != nt:
                    clause.append(m)
                out.append(clause)
            if both_vars:
                break

    def _iff_same(self, x, a, b) -> bool:
        """x <-> a = b for two variables whose value literals are all
        undecided (the common case: Numberlink's `link[e] <-> colour[e.a] =
        colour[e.b]`): the clauses of assert_same (x and a = v -> b = v) and
        of assert_not_same (not x -> not both a = v and b = v), in their
        order, built in bulk.  False (nothing added) in any other case."""
        if not (SAME_ONE_WAY and type(a) is Var and type(b) is Var) or type(x) is not int:
            return False
        t = self.true
        if x == t or x == -t:
            return False
        runs_a, runs_b = self.value_runs.get(a), self.value_runs.get(b)
        if runs_a is not None and runs_b is not None and (a.domain is b.domain
                                                          or a.domain == b.domain):
            # consecutive literals in the same value order (declare's usual case)
            n = len(a.domain)
            not_a = runs_a[1]
            b_lits, not_b = runs_b
            out = self.clauses
            out += zip(repeat(-x, n), not_a, b_lits)
            out += zip(repeat(x, n), not_a, not_b)
            return True
        la, lb = self.var_lits[a], self.var_lits[b]
        if type(la) is not dict or type(lb) is not dict or la.keys() != lb.keys():
            return False
        pairs = [(l, lb[v]) for v, l in la.items()]
        for l, m in pairs:
            if l == t or l == -t or m == t or m == -t:
                return False
        out = self.clauses
        out += [(-x, -l, m) for l, m in pairs]
        out += [(x, -l, -m) for l, m in pairs]
        return True

    def assert_not_same(self, a, b, guard=()):
        """guard -> a != b."""
        la, lb = self._value_lits(a), self._value_lits(b)
        neg = [-g for g in guard]
        t = self.true
        out = self.clauses
        for v, x in la.items():
            y = lb.get(v)
            if y is None or x == -t or y == -t:
                continue
            clause = neg.copy()           # not (a = v and b = v)
            if x != t:
                clause.append(-x)
            if y != t:
                clause.append(-y)
            out.append(clause)

    def _value_lits(self, term) -> dict:
        if type(term) is Var:
            return self.var_lits[term]
        return {v: self.as_lit(self.value_lit(term, v)) for v in self.domain(term)}

    def same_lit(self, a, b):
        """v <-> a = b, given that each term takes exactly one value."""
        v = self.new()
        da, db = set(self.domain(a)), set(self.domain(b))
        for val in da | db:
            la, lb = self.value_lit(a, val), self.value_lit(b, val)
            self.guarded((v,), [_neg(la), lb])
            self.guarded((v,), [_neg(lb), la])
            self.guarded((), [v, _neg(la), _neg(lb)])
        return v

    def assert_distinct(self, terms, guard=()):
        values = {}
        for t in terms:
            for val in self.domain(t):
                values.setdefault(val, []).append(self.value_lit(t, val))
        full = len(values) == len(terms)
        for val, lits in values.items():
            self.at_most_one(lits, guard)
            if full:
                self.guarded(guard, lits)

    # ---------------------------------------------------------------- linear

    def leaf(self, coef, atom) -> tuple:
        """(Unary with values shifted to start at 0, shift) for coef * atom."""
        key = (coef, atom.uid)
        hit = self.leaf_cache.get(key)
        if hit is not None:
            return hit
        if type(atom) is Node:
            l = self.lit(atom)
            if coef > 0:
                out = (Unary([0, coef], [True, l]), 0)
            else:
                out = (Unary([0, -coef], [True, _neg(l)]), coef)
        else:
            pairs = {}
            for val in atom.domain:
                pairs.setdefault(coef * val, []).append(self.value_lit(atom, val))
            vals = sorted(pairs)
            low = vals[0]
            ge = [True]
            # ladder: ge[i] <-> some value >= vals[i]
            nxt = None
            chain = []
            for val in reversed(vals[1:]):
                lits = pairs[val]
                g = self.new()
                for l in lits:
                    self.guarded((), [_neg(l), g])
                if nxt is not None:
                    self.guarded((), [-nxt, g])
                self.guarded((g,), lits + ([nxt] if nxt is not None else []))
                chain.append(g)
                nxt = g
            ge += list(reversed(chain))
            out = (Unary([v - low for v in vals], ge), low)
        self.leaf_cache[key] = out
        return out

    def merge(self, a: Unary, b: Unary, cap, up=True, down=True) -> Unary:
        """Totalizer node: c = a + b, values clipped at ``cap``.

        Values start at 0 and ge[0] is the constant True, so the clauses are
        written out directly (this loop is the compiler's hot spot)."""
        av, bv, ag, bg = a.values, b.values, a.ge, b.ge
        if len(av) * len(bv) > CHECK_EVERY:       # one merge can outgrow memory
            self.check_memory(2 * len(av) * len(bv))
        if av[-1] == len(av) - 1 and bv[-1] == len(bv) - 1 and cap >= 0:
            # both count 0, 1, 2, ... (unit coefficients): so does the sum
            sums = list(range(min(av[-1] + bv[-1], cap) + 1))
            index = sums
        else:
            sums = sorted({min(x + y, cap) for x in av for y in bv})
            index = {v: i for i, v in enumerate(sums)}
        first = self.nvars + 1
        self.nvars += len(sums) - 1
        ge = [True] + list(range(first, self.nvars + 1))
        top = len(sums)
        na, nb = len(av), len(bv)
        out = self.clauses
        for i in range(na):
            x = av[i]
            ai = ag[i]
            a_next = ag[i + 1] if i + 1 < na else None
            for j in range(nb):
                s = x + bv[j]
                if up and s > 0:
                    c = ge[index[s if s < cap else cap]]
                    if i == 0:
                        out.append([-bg[j], c])
                    elif j == 0:
                        out.append([-ai, c])
                    else:
                        out.append([-ai, -bg[j], c])
                if down and s < cap:
                    k = index[s] + 1
                    if k < top:
                        clause = [-ge[k]]
                        if a_next is not None:
                            clause.append(a_next)
                        if j + 1 < nb:
                            clause.append(bg[j + 1])
                        out.append(clause)
        if down:
            # the down clauses only bound the next value above a + b; with gaps
            # in the values the higher thresholds need ge[k+1] -> ge[k]
            for k in range(2, top):
                out.append([-ge[k], ge[k - 1]])
        return Unary(sums, ge)

    def unary_sum(self, items, cap, up=True, down=True):
        """(Unary of sum(coef * atom) - shift, shift), values clipped at cap."""
        leaves = []
        shift = 0
        for coef, atom in items:
            u, s = self.leaf(coef, atom)
            leaves.append(u)
            shift += s
        key = (tuple((c, a.uid) for c, a in items), cap, up, down)
        hit = self.sum_cache.get(key)
        if hit is not None:
            return hit, shift
        if len(leaves) <= TEMPLATE_LEAVES and 1 <= cap <= len(leaves):
            u = self._tree_by_template(leaves, cap, up, down)
        else:
            u = self._tree(leaves, cap, up, down)
        self.sum_cache[key] = u
        return u, shift

    def _tree_by_template(self, leaves, cap, up, down):
        """_tree's Unary and clauses for leaves that are literals counted
        once each (a count of bools, the common case: every dot of a
        Slitherlink), from a template made once per (leaves, cap, up, down)
        and filled in with the literals and new variables; _tree itself for
        any other leaves."""
        lits = []
        for u in leaves:
            if len(u.values) != 2 or u.values[1] != 1 or type(u.ge[1]) is not int:
                return self._tree(leaves, cap, up, down)
            lits.append(u.ge[1])
        t = self.true
        if len(set(map(abs, lits))) < len(lits) or t in lits or -t in lits:
            return self._tree(leaves, cap, up, down)
        shape = (len(lits), cap, up, down)
        template = _TOTALIZERS.get(shape)
        if template is None:
            template = _TOTALIZERS[shape] = _totalizer_template(*shape)
        fresh, reach, clause_getters, values, ge_getter = template
        known = lits + list(range(self.nvars + 1, self.nvars + 1 + fresh))
        table = [-x for x in reversed(known)] + [0] + known   # code c at table[reach + c]
        self.nvars += fresh
        self.clauses += [get(table) for get in clause_getters]
        return Unary(values, [True, *ge_getter(table)] if len(values) > 2 else
                     [True, ge_getter(table)])

    def _tree(self, leaves, cap, up, down):
        if len(leaves) == 1:
            u = leaves[0]
            if u.values[-1] > cap:
                keep = [i for i, v in enumerate(u.values) if v < cap]
                first_over = len(keep)
                return Unary([u.values[i] for i in keep] + [cap], [u.ge[i] for i in keep] + [u.ge[first_over]])
            return u
        mid = len(leaves) // 2
        return self.merge(self._tree(leaves[:mid], cap, up, down),
                          self._tree(leaves[mid:], cap, up, down), cap, up, down)

    def assert_lin(self, node, guard=()):
        items, op, bound = node.args
        for c, a in items:
            if type(a) is not Node or (c != 1 and c != -1):
                if op == "=" and self._assert_var_equals_count(items, bound, guard):
                    return
                break
        else:   # a count of bools
            if self._assert_cardinality(items, op, bound, guard):
                return
        items, op, bound = _divided(items, op, bound)
        if items is None:                # no integer sum meets it
            self.guarded(guard, [])
            return
        low = _lowest(items)
        k = bound - low    # the unary counts sum - low, from 0
        # sum <= k needs "inputs high -> output high" (up); sum >= k the reverse
        u, _ = self.unary_sum(items, cap=k + 1, up=op in ("=", "<="), down=op in ("=", ">="))
        if op in (">=", "="):
            self.guarded(guard, [u.at_least(k)])
        if op in ("<=", "="):
            self.guarded(guard, [_neg(u.at_least(k + 1))])

    def lin_lit(self, node):
        items, op, bound = node.args
        low = _lowest(items)
        k = bound - low
        u, _ = self.unary_sum(items, cap=k + 1)
        ge_k, ge_k1 = u.at_least(k), u.at_least(k + 1)
        if op == ">=":
            return self.as_lit(ge_k)
        if op == "<=":
            return self.as_lit(_neg(ge_k1))
        v = self.new()
        # v <-> ge_k and not ge_k1
        self.guarded((v,), [ge_k])
        self.guarded((v,), [_neg(ge_k1)])
        self.guarded((), [v, _neg(ge_k), ge_k1])
        return v

    def as_lit(self, l):
        if l is True:
            return self.true
        if l is False:
            return -self.true
        return l

    def _assert_cardinality(self, items, op, bound, guard) -> bool:
        lits = []
        var_lits = self.var_lits
        t = self.true
        plain = True              # every literal undecided (no True/False, not +-t)
        for c, a in items:
            l = var_lits[a.args[0]] if a.kind == "bvar" else self.lit(a)
            if c < 0:
                l = _neg(l)
                bound += 1
            if plain and (type(l) is not int or l == t or l == -t):
                plain = False
            lits.append(l)
        n = len(lits)
        if n * min(bound + 1, n - bound + 1) > NETWORK_LIMIT and op in ("<=", ">=", "="):
            return self._pysat_cardinality(lits, op, bound, guard)
        if n <= BINOMIAL_LIMIT and plain:
            # few literals: forbid every subset that breaks the bound, no aux vars
            out = self.clauses
            neg = [-g for g in guard]
            if op in ("<=", "=") and 0 <= bound < n:
                nots = [-l for l in lits]
                if neg:
                    out += [neg + list(s) for s in combinations(nots, bound + 1)]
                else:
                    out += combinations(nots, bound + 1)
            if op in (">=", "=") and 0 < bound <= n:
                if neg:
                    out += [neg + list(s) for s in combinations(lits, n - bound + 1)]
                else:
                    out += combinations(lits, n - bound + 1)
            if (op != ">=" and bound < 0) or (op != "<=" and bound > n):
                out.append(neg)          # no assignment meets the bound
            return True
        if op in ("<=", "=") and bound == 1 and not guard and op == "<=":
            self.at_most_one(lits)
            return True
        if op == "=" and bound == 1:
            self.at_most_one(lits, guard)
            self.guarded(guard, lits)
            return True
        if op == "<=" and bound == 1:
            self.at_most_one(lits, guard)
            return True
        if op == ">=" and bound == 1:
            self.guarded(guard, lits)
            return True
        if op in ("<=", "=") and bound == 0:
            for l in lits:
                self.guarded(guard, [_neg(l)])
            return True
        return False

    def _pysat_cardinality(self, lits, op, bound, guard) -> bool:
        """A large cardinality through pysat.card's k-modulo totalizer, which
        stays small where a totalizer grows with n*k (measured in
        docs/benchmarks.md); the guard, if any, weakens every clause."""
        t = self.true
        live = []
        for l in lits:
            if l is True or l == t:
                bound -= 1
            elif not (l is False or l == -t):
                live.append(l)
        n = len(live)
        neg = [-g for g in guard]
        if (op != ">=" and bound < 0) or (op != "<=" and bound > n):
            self.clauses.append(neg)
            return True
        make = {"<=": CardEnc.atmost, ">=": CardEnc.atleast, "=": CardEnc.equals}[op]
        enc = make(lits=live, bound=bound, top_id=self.nvars, encoding=EncType.kmtotalizer)
        self.nvars = max(self.nvars, enc.nv)
        self.clauses += [neg + c for c in enc.clauses] if neg else enc.clauses
        return True

    def _assert_var_equals_count(self, items, bound, guard) -> bool:
        """x = count(bools) + s: tie each value of x to "count is exactly v"."""
        fds = [(c, a) for c, a in items if type(a) is not Node]
        if len(fds) != 1:
            return False
        cx, x = fds[0]
        bools = [(c, a) for c, a in items if type(a) is Node]
        if abs(cx) != 1 or any(c != -cx for c, _ in bools) or not x.numeric:
            return False
        # cx * x - cx * count = bound  ->  x = count + bound / cx
        s = bound * cx
        dom = x.domain
        cap = max(dom) - s + 1
        u, _ = self.unary_sum([(1, a) for _, a in bools], cap=max(cap, 1))
        for v in dom:
            xv = self.value_lit(x, v)
            w = v - s
            lo, hi = u.at_least(w), u.at_least(w + 1)
            if w < 0 or w > len(bools):
                self.guarded(guard, [_neg(xv)])
                continue
            self.guarded(guard, [_neg(xv), lo])
            self.guarded(guard, [_neg(xv), _neg(hi)])
            self.guarded(guard, [_neg(lo), hi, xv])
        values = set(v - s for v in dom)
        for w in range(0, min(len(bools), cap) + 1):
            if w not in values:
                self.guarded(guard, [_neg(u.at_least(w)), u.at_least(w + 1)])
        return True


def _divided(items, op, bound):
    """sum(c * a) op bound with every c divided by their greatest common
    divisor g (bound rounded inward): 2 * count(...) = 30 is count(...) = 15,
    whose unary sum counts 0, 1, 2, ... instead of 0, 2, 4, ... through sets
    (the same clauses; Hexiom's level 40, whose implied rule `pairs` is one:
    46-53 ms to encode instead of 55-60, the least of 15 runs, issue 28).
    (None, op, bound) when "=" asks for a sum that is no multiple of g."""
    g = 0
    for c, _ in items:
        g = math.gcd(g, c)
        if g == 1:
            return items, op, bound
    if g == 0:
        return items, op, bound
    if op == "=":
        if bound % g:
            return None, op, bound
        bound //= g
    elif op == "<=":
        bound //= g
    else:
        bound = -(-bound // g)
    return [(c // g, a) for c, a in items], op, bound


def _lowest(items) -> int:
    """The least value of sum(coef * atom) over (coef, atom) items."""
    low = 0
    for c, a in items:
        if type(a) is Node:
            if c < 0:
                low += c
        else:
            low += min(c * v for v in a.domain)
    return low


def _neg(l):
    if l is True:
        return False
    if l is False:
        return True
    return -l


def _is_literal(node: Node) -> bool:
    k = node.kind
    return k in ("bvar", "eq") or (k == "not" and node.args[0].kind in ("bvar", "eq"))


def _large_count(node: Node) -> bool:
    """A cardinality over so many literals that it would go to pysat's
    k-modulo totalizer (n * k > NETWORK_LIMIT).  As an implied rule it is
    left out of the CNF: the solver did far worse with it (Nurikabe's `land`
    count over every cell: 570_31x45's first solve 12.4 s with it, 0.4 s
    without; docs/benchmarks.md), and it still bounds a connected(...) over
    the same selection through size_limits."""
    if node.kind != "lin":
        return False
    items, op, bound = node.args
    if op not in ("<=", ">=", "=") or not all(type(a) is Node and abs(c) == 1 for c, a in items):
        return False
    n = len(items)
    bound += sum(1 for c, _ in items if c < 0)
    return n * min(bound + 1, n - bound + 1) > IMPLIED_LIMIT


_TOTALIZERS = {}     # (leaves, cap, up, down) -> a totalizer's template (_tree_by_template)


def _totalizer_template(n, cap, up, down) -> tuple:
    """The totalizer of ``n`` literals, built once on stand-ins (literal i
    for leaf i, n + k for the k-th new variable) and kept as (new
    variables, reach, a getter of each clause's literals from a table of
    codes -reach..reach, the sum's values, a getter of its ge literals)."""
    scratch = Encoder.__new__(Encoder)
    scratch.nvars = n
    scratch.clauses = []
    u = scratch._tree([Unary([0, 1], [True, i]) for i in range(1, n + 1)], cap, up, down)
    reach = scratch.nvars

    def getter(codes):
        if len(codes) == 1:
            only = reach + codes[0]
            return lambda table: (table[only],)
        return itemgetter(*(reach + c for c in codes))
    return (scratch.nvars - n, reach, [getter(c) for c in scratch.clauses], u.values,
            itemgetter(*(reach + c for c in u.ge[1:])))


def unit_facts(model: Model):
    """Values fixed or excluded by top-level unit constraints (e.g. the clues):
    var -> fixed value, and var -> set of excluded values."""
    fixed, banned = {}, {}
    stack = [node for _, node in model.constraints + model.implied]
    while stack:
        node = stack.pop()
        k = node.kind
        if k == "and":
            stack.extend(node.args)
        elif k == "eq":
            var, value = node.args
            if fixed.setdefault(var, value) != value:
                banned.setdefault(var, set()).update(var.domain)   # contradiction
        elif k == "bvar":
            fixed.setdefault(node.args[0], True)
        elif k == "not" and node.args[0].kind == "eq":
            var, value = node.args[0].args
            banned.setdefault(var, set()).add(value)
        elif k == "not" and node.args[0].kind == "bvar":
            fixed.setdefault(node.args[0].args[0], False)
    for var in banned:
        if var in fixed and var.domain is not None:
            del fixed[var]       # contradictions are left to the clauses
    return fixed, banned


def size_limits(rules, least: int = 0) -> dict:
    """Top-level counts over bool formulas that bound how many can hold:
    frozenset of their uids -> K, from `count(...) <= K`, `= K`, and from a count
    of their negations (`count(not x...) >= n - K`), so that connectivity over
    the same selection can use the bound.  ``rules``: (rule, node) pairs;
    counts over fewer than ``least`` formulas are left out."""
    out = {}

    def note(key, k):
        out[key] = min(k, out.get(key, k))

    for x in conjuncts(rules):
        if x.kind == "lin":
            items, op, bound = x.args
            if len(items) < least or not all(c == 1 and type(a) is Node for c, a in items):
                continue
            if op in ("=", "<="):
                note(frozenset(a.uid for _, a in items), bound)
            if op in ("=", ">=") and all(a.kind == "not" for _, a in items):
                note(frozenset(a.args[0].uid for _, a in items), len(items) - bound)
    return out


@without_gc
def encode(model: Model, connectivity: str = "lazy") -> Cnf:
    """Encode every constraint (implied ones too) of the model as CNF.

    With ``connectivity="lazy"`` connected(...) constraints are returned in
    ``Cnf.lazy`` for the solve loop; with "eager" they are encoded."""
    enc = Encoder(model, connectivity)
    enc.limit_rules = model.constraints + model.implied
    fixed, banned = unit_facts(model)
    for var in model.vars:
        enc.declare(var, fixed.get(var), banned.get(var, ()))
    largest = (0, None)             # the rule with the most clauses, for an error
    implied_from = len(model.constraints)
    for i, (rule, node) in enumerate(model.constraints + model.implied):
        if not i & 1023:
            clock.check()            # cheap; the alarm (runtime/clock.py) stops the rest
        if i >= implied_from and LARGE_IMPLIED and _large_count(node):
            continue                 # size_limits has its bound (see _large_count)
        enc.memory.statement = rule       # where a memory error points
        before = len(enc.clauses)
        enc.assert_(node)
        if len(enc.clauses) - before > largest[0]:
            largest = (len(enc.clauses) - before, rule)
    enc.memory.statement = largest[1]
    enc.check_memory(final=True)    # before a solver takes its own copy of the clauses
    return Cnf(enc.nvars, enc.clauses, enc.var_lits, enc.true,
               {"variables": enc.nvars, "clauses": len(enc.clauses)}, enc.lazy, enc)


@without_gc
def extend(cnf: Cnf, variables, nodes) -> list:
    """Encode more variables and constraints into ``cnf`` (a plan's next
    step); returns the clauses this added."""
    enc = cnf.encoder
    enc.memory.statement = None   # a step is many rules at once
    start = len(enc.clauses)
    for var in variables:
        enc.declare(var)
    for node in nodes:
        enc.assert_(node)
    cnf.nvars = enc.nvars
    return enc.clauses[start:]


@without_gc
def make_eager(cnf: Cnf, items) -> list:
    """Encode the lazy connectivity constraints ``items`` eagerly after all
    (they leave ``cnf.lazy``); returns the clauses this added."""
    enc = cnf.encoder
    start = len(enc.clauses)
    for item in items:
        connectivity.encode_eager(enc, item.lits, item.adjacent, item.guard, item.roots)
    cnf.lazy = [item for item in cnf.lazy if item not in items]
    cnf.nvars = enc.nvars
    return enc.clauses[start:]


def literal(cnf: Cnf, node: Node) -> tuple:
    """A literal equivalent to ``node`` (or True/False) and the clauses that
    define it, for solving under an assumption."""
    enc = cnf.encoder
    start = len(enc.clauses)
    lit = enc.lit(node)
    if lit is not True and lit is not False and lit == enc.true:
        lit = True
    cnf.nvars = enc.nvars
    return lit, enc.clauses[start:]


def fresh_literal(cnf: Cnf) -> int:
    """A new variable, known to the encoder too (a selector to assume)."""
    lit = cnf.encoder.new() if cnf.encoder is not None else cnf.nvars + 1
    cnf.nvars = max(cnf.nvars, lit)
    return lit


def truth_table(model, nvars) -> bytearray:
    """truth[v] = 1 for each true literal v of a model (literals: a list, a set)."""
    truth = bytearray(nvars + 1)
    n = min(len(model), nvars)
    if type(model) is list and n and model[0] in (1, -1) and model[n - 1] in (n, -n):
        # variables 1, 2, ... in order (as PySAT gives them): read in C
        truth[1:n + 1] = map((0).__lt__, model[:n])
        rest = model[n:]
    else:
        rest = model
    for l in rest:
        if 0 < l <= nvars:
            truth[l] = 1
    return truth


def read_assignment(cnf, model) -> dict:
    """Model Var -> value from a list of true literals."""
    truth = truth_table(model, cnf.nvars)
    value_runs = cnf.encoder.value_runs if cnf.encoder is not None else {}
    out = {}
    for var, lits in cnf.var_lits.items():
        if type(lits) is int:
            out[var] = truth[lits] == 1 if lits > 0 else truth[-lits] == 0
            continue
        runs = value_runs.get(var)
        if runs is not None:          # consecutive literals, all undecided: found in C
            first = runs[0][0]
            end = first + len(lits)
            k = truth.find(1, first, end)
            out[var] = (var.domain[k - first] if k >= 0 and truth.find(1, k + 1, end) < 0
                        else None)
            continue
        chosen = [v for v, l in lits.items() if (truth[l] == 1 if l > 0 else truth[-l] == 0)]
        out[var] = chosen[0] if len(chosen) == 1 else None
    return out
