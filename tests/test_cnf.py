"""The CNF encodings (pzc.encoder.cnf) are exact.

Method: build a small Model by hand, encode it, and for EVERY assignment of the
model variables ask a PySAT solver whether the clauses are satisfiable with that
assignment as assumptions (on ``cnf.var_lits``).  The answer must be "yes"
exactly when the constraint, evaluated in plain Python, holds.  Auxiliary
variables are left to the solver, so both directions are checked: no solution
is lost and none is added.  Random instances use fixed seeds.

A few tests run the same check on the SMT-LIB2 text (encoder/smt.py) with Z3.
"""

from __future__ import annotations

import operator
import random
from itertools import product
from math import comb

import pytest
from pysat.solvers import Solver

from generators import ir_value
from pzc.encoder import cnf as cnf_stage
from pzc.encoder import connectivity
from pzc.encoder.model import LinExpr, Model

OPS = {"<=": operator.le, ">=": operator.ge, "=": operator.eq, "!=": operator.ne,
       "<": operator.lt, ">": operator.gt}


# ---------------------------------------------------------------- harness

def assignments(variables):
    doms = [(False, True) if v.domain is None else v.domain for v in variables]
    for values in product(*doms):
        yield dict(zip(variables, values))


def assumptions(cnf, a):
    out = []
    for var, value in a.items():
        lits = cnf.var_lits[var]
        if var.domain is None:
            out.append(lits if value else -lits)
        else:
            out.append(lits[value])
    return out


def check_exact(m, nodes, pred, solver="minisat22"):
    """Assert the nodes (as rules), then compare the CNF with ``pred`` on every
    assignment.  Returns (number of satisfying assignments, total)."""
    for node in nodes:
        m.constraints.append((None, node))
    cnf = cnf_stage.encode(m)
    sat = total = 0
    with Solver(name=solver, bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            want = bool(pred(a))
            # the model itself means what the test says it means
            assert all(ir_value(n, a) for n in nodes) == want, ("model", nodes, a)
            got = s.solve(assumptions=assumptions(cnf, a))
            assert got == want, (nodes, {v.label(): x for v, x in a.items()}, want)
            sat += want
            total += 1
    return sat, total


def linexpr(m, pairs, const=0):
    e = LinExpr({}, const)
    for coef, atom in pairs:
        e = m.add(e, m.scale(atom, coef))
    return e


def value(a, atom):
    """Python value of a bool Node atom (bvar) or an int Var."""
    if hasattr(atom, "kind"):
        return int(ir_value(atom, a))
    return a[atom]


def bools(m, n, name="p"):
    vs = [m.new_var(name, (i,), None) for i in range(n)]
    return vs, [m.bvar(v) for v in vs]


def random_domain(rng, lo=-2, hi=5, size=None):
    size = size or rng.randrange(1, 5)
    return tuple(sorted(rng.sample(range(lo, hi + 1), size)))


class Spy:
    """Counts how often an Encoder method returned True (the special encodings)."""

    def __init__(self, monkeypatch, name):
        self.hits = 0
        original = getattr(cnf_stage.Encoder, name)

        def wrapper(enc, *args, **kw):
            r = original(enc, *args, **kw)
            self.hits += bool(r)
            return r

        monkeypatch.setattr(cnf_stage.Encoder, name, wrapper)


# ---------------------------------------------------------------- basics

def test_harness_sees_every_assignment_of_a_trivial_model():
    m = Model()
    m.new_var("x", (), None)
    m.new_var("d", (), (1, 2, 3))
    assert check_exact(m, [], lambda a: True) == (6, 6)


@pytest.mark.parametrize("domain", [(4,), (0, 1), ("red", "blue"), (1, 2, 3),
                                    tuple(range(-3, 8)), tuple("abcdefghijk")])
def test_finite_domain_declaration_is_exactly_one(domain):
    """A var takes exactly one value; asserting nothing leaves every value possible."""
    m = Model()
    v = m.new_var("v", (), domain)
    cnf = cnf_stage.encode(m)
    lits = cnf.var_lits[v]
    assert set(lits) == set(domain)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for x in domain:
            assert s.solve(assumptions=[lits[x]])
            for y in domain:
                if y != x:
                    assert not s.solve(assumptions=[lits[x], lits[y]])
        # and at least one value: forbidding them all is unsatisfiable
        assert not s.solve(assumptions=[-l for l in lits.values()])


def test_unit_rules_fix_literals_before_encoding():
    """Top-level atoms (clues) fix or exclude values in the declaration itself."""
    m = Model()
    a = m.new_var("a", (), (1, 2, 3))
    b = m.new_var("b", (), (1, 2, 3))
    c = m.new_var("c", (), (1, 2, 3, 4))
    xs, (x, y) = bools(m, 2, "x")
    rules = [m.eq(a, 2), m.not_(m.eq(b, 1)), x, m.and_([m.eq(c, 4), m.not_(y)])]
    sat, total = check_exact(m, rules, lambda s: s[a] == 2 and s[b] != 1 and s[xs[0]]
                             and s[c] == 4 and not s[xs[1]])
    assert (sat, total) == (2, 3 * 3 * 4 * 4)
    m2 = Model()
    a = m2.new_var("a", (), (1, 2, 3))
    m2.constraints.append((None, m2.eq(a, 2)))
    cnf = cnf_stage.encode(m2)
    t = cnf.true_lit
    assert cnf.var_lits[a] == {1: -t, 2: t, 3: -t}


@pytest.mark.parametrize("which", ["two values", "value and not value", "bool and not bool"])
def test_contradicting_unit_rules_are_unsatisfiable(which):
    m = Model()
    a = m.new_var("a", (), (1, 2, 3))
    xs, (x,) = bools(m, 1, "x")
    rules = {"two values": [m.eq(a, 1), m.eq(a, 2)],
             "value and not value": [m.eq(a, 1), m.not_(m.eq(a, 1))],
             "bool and not bool": [x, m.not_(x)]}[which]
    assert check_exact(m, rules, lambda s: False) == (0, 6)


def test_true_and_false_rules():
    m = Model()
    m.new_var("x", (), None)
    assert check_exact(m, [m.TRUE], lambda a: True) == (2, 2)
    m = Model()
    m.new_var("x", (), None)
    assert check_exact(m, [m.FALSE], lambda a: False) == (0, 2)


# ---------------------------------------------------------------- regressions

# Two defects these tests found in the general linear encoding, both fixed:
# Encoder.assert_lin asked the totalizer for the wrong half for one-sided sums
# (p0 + p1 + p2 <= 2 accepted all three true), and Encoder.merge lacked the
# ge[k+1] -> ge[k] clauses when sum values have gaps (p + 2*q = 3 accepted
# p = 1, q = 0).


def test_at_most_two_of_three_minimal():
    m = Model()
    vs, lits = bools(m, 3)
    node = m.compare("<=", linexpr(m, [(1, l) for l in lits]), 2)
    assert node.kind == "lin"
    m.constraints.append((None, node))
    cnf = cnf_stage.encode(m)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        assert not s.solve(assumptions=[cnf.var_lits[v] for v in vs])


def test_at_least_two_of_three_minimal():
    m = Model()
    vs, lits = bools(m, 3)
    m.constraints.append((None, m.compare(">=", linexpr(m, [(1, l) for l in lits]), 2)))
    cnf = cnf_stage.encode(m)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        assert not s.solve(assumptions=[-cnf.var_lits[v] for v in vs])


def test_weighted_equality_minimal():
    m = Model()
    (p, q), (P, Q) = bools(m, 2)
    m.constraints.append((None, m.compare("=", m.add(P, m.scale(Q, 2)), 3)))
    cnf = cnf_stage.encode(m)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        assert not s.solve(assumptions=[cnf.var_lits[p], -cnf.var_lits[q]])


# ---------------------------------------------------------------- cardinality

def _card(n, op, k, guard=None):
    m = Model()
    vs, lits = bools(m, n)
    node = m.compare(op, linexpr(m, [(1, l) for l in lits]), k)
    return m, vs, node


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 9])
def test_cardinality_equal_every_bound(n):
    for k in range(-1, n + 2):
        m, vs, node = _card(n, "=", k)
        sat, total = check_exact(m, [node], lambda a: sum(a[v] for v in vs) == k)
        assert sat == (comb(n, k) if 0 <= k <= n else 0)


@pytest.mark.parametrize("pairwise", [cnf_stage.PAIRWISE_LIMIT, 3])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 9, 10])
def test_cardinality_special_bounds(n, pairwise, monkeypatch):
    """<= 0, <= 1 (pairwise up to PAIRWISE_LIMIT literals, a sequential
    counter beyond: a limit of 3 puts the larger n on the counter), >= 1,
    and the bounds that fold to true or false."""
    monkeypatch.setattr(cnf_stage, "PAIRWISE_LIMIT", pairwise)
    for op, k in (("<=", 0), ("<=", 1), (">=", 1), ("<=", -1), ("<=", n), (">=", 0),
                  (">=", n + 1), ("<", 1), ("<", 2), (">", 0)):
        m, vs, node = _card(n, op, k)
        check_exact(m, [node], lambda a: OPS[op](sum(a[v] for v in vs), k))


@pytest.mark.parametrize("op", ["<=", ">="])
def test_cardinality_at_most_and_at_least_k(op):
    for n in (2, 3, 5, 8):
        for k in range(0, n + 1):
            m, vs, node = _card(n, op, k)
            check_exact(m, [node], lambda a: OPS[op](sum(a[v] for v in vs), k))


def test_cardinality_with_negated_literals():
    """Coefficients -1 turn into negated literals (and shift the bound)."""
    rng = random.Random(11)
    for _ in range(60):
        n = rng.randrange(2, 7)
        m = Model()
        vs, lits = bools(m, n)
        signs = [rng.choice([1, -1]) for _ in range(n)]
        negs = signs.count(-1)
        # bounds where a special cardinality encoding applies, or '='
        op, k = rng.choice([("=", rng.randrange(-negs, n - negs + 1)), ("<=", 1 - negs),
                            ("<=", -negs), (">=", 1 - negs), ("!=", rng.randrange(-negs, n - negs + 1))])
        node = m.compare(op, linexpr(m, zip(signs, lits)), k)
        check_exact(m, [node], lambda a: OPS[op](sum(s * a[v] for s, v in zip(signs, vs)), k))


def _guard(m, kind):
    gv, g = bools(m, 2, "g")
    if kind == "literal":
        return g[0], lambda a: a[gv[0]]
    if kind == "conjunction":
        return m.and_(g), lambda a: a[gv[0]] and a[gv[1]]
    if kind == "negated":
        return m.and_([g[0], m.not_(g[1])]), lambda a: a[gv[0]] and not a[gv[1]]
    # not a conjunction of literals: the premise gets a Tseitin literal
    return m.or_(g), lambda a: a[gv[0]] or a[gv[1]]


GUARDS = ["literal", "conjunction", "negated", "formula"]


@pytest.mark.parametrize("guard_kind", GUARDS)
def test_guarded_cardinality(guard_kind):
    """``g -> count(...) op k``: the guard becomes part of every clause."""
    for n in (2, 3, 5):
        for op, k in [("=", k) for k in range(n + 1)] + [("<=", 0), ("<=", 1), (">=", 1),
                                                         ("!=", 1)]:
            m, vs, card = _card(n, op, k)
            guard, gf = _guard(m, guard_kind)
            node = m.implies(guard, card)
            check_exact(m, [node], lambda a: (not gf(a)) or OPS[op](sum(a[v] for v in vs), k))


def test_cardinality_at_most_and_at_least_k_under_a_formula_guard():
    """With a premise that is not a conjunction of literals, the sum is reified
    (Encoder.lin_lit), which builds both halves of the totalizer."""
    for n in (3, 5):
        for op in ("<=", ">="):
            for k in range(2, n):
                m, vs, card = _card(n, op, k)
                guard, gf = _guard(m, "formula")
                node = m.implies(guard, card)
                check_exact(m, [node], lambda a: (not gf(a)) or OPS[op](sum(a[v] for v in vs), k))


@pytest.mark.parametrize("guard_kind", ["literal", "conjunction", "negated"])
def test_guarded_cardinality_at_most_and_at_least_k(guard_kind):
    for n in (3, 5):
        for op in ("<=", ">="):
            for k in range(2, n):
                m, vs, card = _card(n, op, k)
                guard, gf = _guard(m, guard_kind)
                node = m.implies(guard, card)
                check_exact(m, [node], lambda a: (not gf(a)) or OPS[op](sum(a[v] for v in vs), k))


def test_exactly_one_of_many_falls_back_to_a_totalizer():
    """= 1 on more than 16 literals: enumerate the solutions (there are n)."""
    for n, guarded in ((17, False), (20, True)):
        m = Model()
        vs, lits = bools(m, n)
        gv, (g,) = bools(m, 1, "g")
        node = m.compare("=", linexpr(m, [(1, l) for l in lits]), 1)
        if guarded:
            node = m.implies(g, node)
        m.constraints.append((None, node))
        cnf = cnf_stage.encode(m)
        found = set()
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
            s.add_clause([cnf.var_lits[gv[0]]])
            while s.solve():
                model = set(s.get_model())
                chosen = tuple(v.key[0] for v in vs if cnf.var_lits[v] in model)
                found.add(chosen)
                s.add_clause([-cnf.var_lits[v] if cnf.var_lits[v] in model else cnf.var_lits[v]
                              for v in vs])
        assert found == {(i,) for i in range(n)}


def test_at_most_one_sequential_counter_under_guard():
    """<= 1 over more than 8 literals (sequential counter) under a literal guard."""
    m = Model()
    vs, lits = bools(m, 10)
    gv, (g,) = bools(m, 1, "g")
    node = m.implies(g, m.compare("<=", linexpr(m, [(1, l) for l in lits]), 1))
    sat, total = check_exact(m, [node], lambda a: not a[gv[0]] or sum(a[v] for v in vs) <= 1)
    assert total == 2 ** 11 and sat == 2 ** 10 + 11


# ---------------------------------------------------------------- linear sums

def random_linear(rng, m, nbool, nint, weighted):
    """(coef, atom) pairs.  Unweighted: coefficients +-1 and domains without holes
    (every partial sum then takes consecutive values); weighted: anything."""
    _, blits = bools(m, nbool)
    if weighted:
        ints = [m.new_var("i", (j,), random_domain(rng)) for j in range(nint)]
        coefs = (-3, -2, -1, 1, 2, 3)
    else:
        ints = []
        for j in range(nint):
            lo = rng.randrange(-2, 3)
            ints.append(m.new_var("i", (j,), tuple(range(lo, lo + rng.randrange(2, 5)))))
        coefs = (-1, 1)
    return [(rng.choice(coefs), t) for t in blits + ints]


def _interior_bound(rng, op, lo, hi):
    """A bound that does not fold the comparison to a constant (hi > lo)."""
    if op in ("<=", ">"):
        return rng.randrange(lo, hi)
    if op in (">=", "<"):
        return rng.randrange(lo + 1, hi + 1)
    return rng.randrange(lo, hi + 1)


def _linear_suite(seed, weighted, ops, guarded=False, count=100):
    rng = random.Random(seed)
    kinds = set()
    for _ in range(count):
        m = Model()
        pairs = random_linear(rng, m, rng.randrange(0, 4), rng.randrange(1, 3), weighted)
        const = rng.randrange(-3, 4)
        e = linexpr(m, pairs, const)
        lo, hi = m.bounds(e)
        op = rng.choice(ops)
        k = rng.randrange(lo - 1, hi + 2)
        node = m.compare(op, e, k)
        kinds.add(node.kind)
        total = lambda a: const + sum(c * value(a, t) for c, t in pairs)
        if guarded:
            guard, gf = _guard(m, rng.choice(GUARDS))
            node = m.implies(guard, node)
            check_exact(m, [node], lambda a: not gf(a) or OPS[op](total(a), k))
        else:
            check_exact(m, [node], lambda a: OPS[op](total(a), k))
    return kinds


def test_linear_equalities_unit_coefficients():
    kinds = _linear_suite(2024, weighted=False, ops=["=", "!="])
    assert {"lin", "not", "false"} <= kinds


def test_guarded_linear_equalities_unit_coefficients():
    _linear_suite(77, weighted=False, ops=["=", "!="], guarded=True, count=60)


def test_linear_equalities_with_coefficients():
    _linear_suite(2025, weighted=True, ops=["=", "!="])


def test_linear_inequalities_unit_coefficients():
    _linear_suite(2026, weighted=False, ops=["<=", ">=", "<", ">"])


def test_linear_inequalities_with_coefficients():
    _linear_suite(2027, weighted=True, ops=["<=", ">=", "<", ">"])


def test_guarded_linear_inequalities():
    _linear_suite(78, weighted=False, ops=["<=", ">="], guarded=True, count=60)


@pytest.mark.parametrize("op", ["=", "<=", ">="])
def test_sums_with_a_common_factor_are_divided_exactly(op, monkeypatch):
    """2 * count(...) = K and the like: every coefficient shares a factor
    (with ints beside the bools, and negative ones), so the sum is divided by
    it, bound rounded inward; "=" with a bound no multiple has no solution.
    Every assignment is compared with the sum itself."""
    divided = []
    original = cnf_stage._divided
    monkeypatch.setattr(cnf_stage, "_divided",
                        lambda *a: divided.append(original(*a)) or divided[-1])
    rng = random.Random(28)
    for _ in range(40):
        m = Model()
        factor = rng.choice([2, 3])
        _, lits = bools(m, rng.randrange(2, 5))
        ints = [m.new_var("i", (0,), (-1, 0, 2))] if rng.random() < 0.5 else []
        pairs = [(factor * rng.choice([1, 1, 2, -1]), t) for t in lits + ints]
        e = linexpr(m, pairs)
        lo, hi = m.bounds(e)
        k = rng.randrange(lo - 1, hi + 2)
        node = m.compare(op, e, k)
        check_exact(m, [node], lambda a: OPS[op](sum(c * value(a, t) for c, t in pairs), k))
    assert any(items is not None and all(abs(c) < 2 for c, _ in items)
               for items, _, _ in divided)             # the division happened
    if op == "=":
        assert any(items is None for items, _, _ in divided)   # and found no multiple


def test_linear_sums_over_finite_domain_terms_only():
    rng = random.Random(5)
    for _ in range(60):
        m = Model()
        n = rng.randrange(2, 4)
        ints = []
        for j in range(n):
            lo = rng.randrange(-3, 3)
            ints.append(m.new_var("v", (j,), tuple(range(lo, lo + rng.randrange(2, 5)))))
        pairs = [(rng.choice([-1, 1]), v) for v in ints]
        e = linexpr(m, pairs)
        lo, hi = m.bounds(e)
        k = rng.randrange(lo, hi + 1)
        node = m.compare("=", e, k)
        check_exact(m, [node], lambda a: sum(c * a[v] for c, v in pairs) == k)


def test_reified_sums_share_one_totalizer():
    """Several reified comparisons of one sum reuse the cached totalizer; each
    must still mean what it says."""
    m = Model()
    vs, lits = bools(m, 5)
    a = m.new_var("a", (), (0, 1, 2, 3))
    pairs = [(1, l) for l in lits] + [(1, a)]
    e = linexpr(m, pairs)
    rules = [m.or_([m.compare("=", e, 4), m.compare("=", e, 7)]),
             m.or_([m.compare("<=", e, 4), m.compare(">=", e, 7)]),
             m.or_([m.compare("!=", e, 7), m.and_([lits[0], m.eq(a, 3)])])]

    def pred(s):
        t = sum(s[v] for v in vs) + s[a]
        return t in (4, 7) and (t <= 4 or t >= 7) and (t != 7 or (s[vs[0]] and s[a] == 3))

    sat, _ = check_exact(m, rules, pred)
    # sum 4 (a = 0..3 and 4 - a of the bools) or sum 7 with p0 and a = 3
    assert sat == sum(comb(5, 4 - x) for x in range(4)) + comb(4, 3)


# ---------------------------------------------------------------- x = count(bools)

def _count_cases():
    rng = random.Random(38)
    out = []
    for n in (0, 1, 2, 3, 5, 7):
        for dom in (tuple(range(0, n + 1)),          # exactly the count range
                    tuple(range(-1, n + 3)),         # wider on both sides
                    tuple(range(2, max(3, n))),      # narrower, above 0
                    (-1,) + tuple(range(0, 7)),      # Hexiom's tile: empty or 0..6
                    random_domain(rng, -1, n + 1, min(n + 1, 3))):
            if len(dom) >= 2:
                out.append((n, dom))
    return out


@pytest.mark.parametrize("n,dom", _count_cases())
@pytest.mark.parametrize("form", ["x=count", "count=x", "x=count+2", "count-x=1"])
def test_var_equals_count(monkeypatch, n, dom, form):
    spy = Spy(monkeypatch, "_assert_var_equals_count")
    m = Model()
    x = m.new_var("x", (), dom)
    vs, lits = bools(m, n)
    count = linexpr(m, [(1, l) for l in lits])
    if form == "x=count":
        node, fn = m.compare("=", x, count), lambda c, v: v == c
    elif form == "count=x":
        node, fn = m.compare("=", count, x), lambda c, v: v == c
    elif form == "x=count+2":
        node, fn = m.compare("=", x, m.add(count, 2)), lambda c, v: v == c + 2
    else:
        node, fn = m.compare("=", m.add(count, x, -1), 1), lambda c, v: c - v == 1
    check_exact(m, [node], lambda a: fn(sum(a[v] for v in vs), a[x]))
    if node.kind == "lin":
        assert spy.hits == 1


@pytest.mark.parametrize("n,dom", _count_cases())
def test_var_equals_count_under_guard(monkeypatch, n, dom):
    """Hexiom's rule: full(c) -> tile[c] = count(d in neighbours(c): full(d))."""
    spy = Spy(monkeypatch, "_assert_var_equals_count")
    m = Model()
    x = m.new_var("x", (), dom)
    vs, lits = bools(m, n)
    gv, g = bools(m, 1, "g")
    count = linexpr(m, [(1, l) for l in lits])
    guard = m.and_([g[0], m.not_(m.eq(x, dom[0]))])
    node = m.implies(guard, m.compare("=", x, count))
    check_exact(m, [node], lambda a: not (a[gv[0]] and a[x] != dom[0])
                or a[x] == sum(a[v] for v in vs))
    if node.kind == "or" and any(k.kind == "lin" for k in node.args):
        assert spy.hits == 1


def test_var_equals_count_inside_a_formula():
    """Nested (reified) x = count goes through the general linear encoding."""
    m = Model()
    x = m.new_var("x", (), (0, 1, 2, 3))
    y = m.new_var("y", (), (1, 2))
    vs, lits = bools(m, 3)
    count = linexpr(m, [(1, l) for l in lits])
    node = m.or_([m.compare("=", x, count), m.compare("=", y, count)])
    check_exact(m, [node], lambda a: sum(a[v] for v in vs) in (a[x], a[y]))


# ---------------------------------------------------------------- same / different

def test_same_and_different():
    rng = random.Random(3)
    for _ in range(80):
        m = Model()
        p = m.new_var("p", (), random_domain(rng, 0, 5, rng.randrange(1, 5)))
        q = m.new_var("q", (), random_domain(rng, 0, 5, rng.randrange(1, 5)))
        gv, (g,) = bools(m, 1, "g")
        op = rng.choice(["=", "!="])
        rel = m.compare(op, p, q)
        how = rng.randrange(3)
        if how == 0:
            nodes, fn = [rel], lambda a: OPS[op](a[p], a[q])
        elif how == 1:
            nodes, fn = [m.implies(g, rel)], lambda a: not a[gv[0]] or OPS[op](a[p], a[q])
        else:  # reified inside a disjunction with another complex formula
            other = m.member(p, p.domain[:1] + q.domain[-1:])
            vals = set(p.domain[:1] + q.domain[-1:])
            nodes = [m.or_([rel, m.and_([g, other])])]
            fn = lambda a: OPS[op](a[p], a[q]) or (a[gv[0]] and a[p] in vals)
        check_exact(m, nodes, fn)


def test_same_on_symbols():
    m = Model()
    p = m.new_var("p", (), ("red", "green", "blue"))
    q = m.new_var("q", (), ("green", "blue", "black"))
    r = m.new_var("r", (), ("red", "black"))
    node = m.and_([m.same(p, q), m.not_(m.same(q, r))])
    sat, _ = check_exact(m, [node], lambda a: a[p] == a[q] and a[q] != a[r])
    assert sat == 2 * 2


# ---------------------------------------------------------------- distinct

@pytest.mark.parametrize("k,doms", [
    (3, [(1, 2, 3)] * 3),                    # as many terms as values: pigeonhole completion
    (4, [(1, 2, 3, 4)] * 4),
    (3, [(1, 2), (2, 3), (1, 3)]),           # union has 3 values, 3 terms
    (3, [(1, 2, 3, 4)] * 3),                 # more values than terms
    (4, [(1, 2, 3)] * 4),                    # fewer values than terms: impossible
    (2, [(5,), (5, 6)]),
    (3, [("a", "b"), ("b", "c"), ("a", "c", "d")]),
])
def test_distinct(k, doms):
    m = Model()
    vs = [m.new_var("v", (i,), d) for i, d in enumerate(doms)]
    node = m.distinct(vs)
    sat, _ = check_exact(m, [node], lambda a: len({a[v] for v in vs}) == k)
    if len(set().union(*map(set, doms))) < k:
        assert sat == 0


def test_distinct_random_with_constants_guards_and_nesting():
    rng = random.Random(9)
    for _ in range(80):
        m = Model()
        n = rng.randrange(2, 5)
        vs = [m.new_var("v", (i,), random_domain(rng, 1, 5, rng.randrange(1, 5))) for i in range(n)]
        consts = rng.sample(range(1, 6), rng.randrange(0, 2))
        gv, g = bools(m, 2, "g")
        base = m.distinct(vs + consts)

        def holds(a):
            vals = [a[v] for v in vs] + consts
            return len(set(vals)) == len(vals)

        how = rng.randrange(4)
        if how == 0:
            nodes, fn = [base], holds
        elif how == 1:
            nodes, fn = [m.implies(g[0], base)], lambda a: not a[gv[0]] or holds(a)
        elif how == 2:
            nodes, fn = [m.not_(base)], lambda a: not holds(a)
        else:
            nodes = [m.or_([base, m.and_(g), m.same(vs[0], vs[1])])]
            fn = lambda a: holds(a) or (a[gv[0]] and a[gv[1]]) or a[vs[0]] == a[vs[1]]
        check_exact(m, nodes, fn)


def test_distinct_rows_of_a_small_latin_square():
    """3 x 3 Latin square by distinct rows and columns: exactly 12 solutions."""
    m = Model()
    v = {(r, c): m.new_var("v", ((r, c),), (1, 2, 3)) for r in range(3) for c in range(3)}
    rules = [m.distinct([v[r, c] for c in range(3)]) for r in range(3)]
    rules += [m.distinct([v[r, c] for r in range(3)]) for c in range(3)]
    m.constraints.extend((None, n) for n in rules)
    cnf = cnf_stage.encode(m)
    count = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            model = set(s.get_model())
            chosen = [cnf.var_lits[x][val] for x in v.values() for val in (1, 2, 3)
                      if cnf.var_lits[x][val] in model]
            assert len(chosen) == 9
            count += 1
            s.add_clause([-l for l in chosen])
    assert count == 12


# ---------------------------------------------------------------- if-then-else terms

def _ite_suite(seed, ops, weighted, count=80):
    """Sums over 'if c then x else y' terms.  Unweighted: values without holes."""
    rng = random.Random(seed)
    for _ in range(count):
        m = Model()
        xv, (x,) = bools(m, 1, "x")
        yv, (y,) = bools(m, 1, "y")
        if weighted:
            a = m.new_var("a", (), random_domain(rng, -1, 4, rng.randrange(2, 4)))
            b = m.new_var("b", (), random_domain(rng, 0, 5, rng.randrange(1, 4)))
            k1, k2 = rng.randrange(-2, 5), rng.randrange(-2, 5)
            coef = rng.choice([-2, 2, 3])
        else:
            a = m.new_var("a", (), (1, 2, 3))
            b = m.new_var("b", (), (0, 1, 2))
            k1 = rng.choice([0, 4])
            k2 = k1 + rng.choice([-1, 1])
            coef = rng.choice([-1, 1])
        cond = rng.choice([x, m.and_([x, m.not_(y)]), m.eq(a, a.domain[0])])
        cval = (lambda s: s[xv[0]] if cond is x else
                (s[xv[0]] and not s[yv[0]]) if cond.kind == "and" else s[a] == a.domain[0])
        shape = rng.randrange(4)
        if shape == 0:
            t, tv = m.select(cond, a, k1), lambda s: s[a] if cval(s) else k1
        elif shape == 1:
            t, tv = m.select(cond, a, b), lambda s: s[a] if cval(s) else s[b]
        elif shape == 2:
            t, tv = m.select(cond, k1, k2), lambda s: k1 if cval(s) else k2
        else:
            t = m.select(cond, m.add(a, b), m.scale(b, 2))
            tv = lambda s: s[a] + s[b] if cval(s) else 2 * s[b]
        e = m.add(m.scale(t, coef), y)
        lo, hi = m.bounds(e)
        op = rng.choice(ops)
        k = rng.randrange(lo - 1, hi + 2)
        node = m.compare(op, e, k)
        check_exact(m, [node], lambda s: OPS[op](coef * tv(s) + s[yv[0]], k))


def test_if_then_else_sums():
    _ite_suite(17, ["=", "!="], weighted=False)


def test_if_then_else_sums_with_coefficients():
    _ite_suite(18, ["=", "!="], weighted=True)


def test_if_then_else_sums_inequalities():
    _ite_suite(19, ["<=", ">="], weighted=False)


def test_cases_term_compared_with_a_variable():
    """(if x then a else 2) = b: a 'same' node over a Cases term."""
    for op in ("=", "!="):
        mm = Model()
        xv, (x,) = bools(mm, 1, "x")
        a = mm.new_var("a", (), (1, 3, 4))
        b = mm.new_var("b", (), (1, 2, 3))
        node = mm.compare(op, mm.select(x, a, 2), b)
        assert node.kind in ("same", "not")
        check_exact(mm, [node], lambda s: OPS[op](s[a] if s[xv[0]] else 2, s[b]))


def test_products_of_variables():
    """x * a and a * b with products that take consecutive values."""
    m = Model()
    a = m.new_var("a", (), (0, 1))
    b = m.new_var("b", (), (0, 1, 2))
    c = m.new_var("c", (), (1, 2, 3))
    xv, (x,) = bools(m, 1, "x")
    nodes = [m.compare("=", m.add(m.mul(a, b), m.mul(x, c)), 3),
             m.compare("!=", m.mul(b, m.add(x, 1)), 2)]
    check_exact(m, nodes, lambda s: s[a] * s[b] + s[xv[0]] * s[c] == 3
                and s[b] * (s[xv[0]] + 1) != 2)


def test_products_with_gaps():
    m = Model()
    a = m.new_var("a", (), (-1, 1, 2, 3))
    b = m.new_var("b", (), (0, 2, 3))
    node = m.and_([m.compare("=", m.add(m.mul(a, b), a), 9), m.compare("!=", m.mul(a, a), 4)])
    check_exact(m, [node], lambda s: s[a] * s[b] + s[a] == 9 and s[a] * s[a] != 4)


# ---------------------------------------------------------------- iff

def test_iff_forms():
    m = Model()
    pv, p = bools(m, 4)
    a = m.new_var("a", (), (0, 1, 2, 3))
    card = m.compare("=", linexpr(m, [(1, l) for l in p[1:]]), 2)
    lin = m.compare("=", m.add(a, p[0]), 2)
    rules = [
        m.iff(p[0], card),                      # literal <-> complex
        m.iff(m.not_(p[1]), m.eq(a, 3)),        # literal <-> literal
        m.iff(m.or_([p[2], p[3]]), lin),        # complex <-> complex
    ]

    def pred(s):
        c = s[pv[1]] + s[pv[2]] + s[pv[3]] == 2
        return ((s[pv[0]] == c) and ((not s[pv[1]]) == (s[a] == 3))
                and ((s[pv[2]] or s[pv[3]]) == (s[a] + s[pv[0]] == 2)))

    sat, _ = check_exact(m, rules, pred)
    assert sat > 0


def test_iff_literal_with_an_inequality():
    """p <-> count >= 2: the 'p' half asserts count >= 2 under the guard p."""
    m = Model()
    pv, p = bools(m, 4)
    node = m.iff(p[0], m.compare(">=", linexpr(m, [(1, l) for l in p[1:]]), 2))
    check_exact(m, [node], lambda s: s[pv[0]] == (s[pv[1]] + s[pv[2]] + s[pv[3]] >= 2))


def test_iff_nested_and_guarded():
    m = Model()
    pv, p = bools(m, 4)
    a = m.new_var("a", (), (1, 2, 3))
    inner = m.iff(m.and_([p[0], p[1]]), m.compare("<=", m.add(a, p[2]), 2))
    rules = [m.or_([inner, m.and_([p[3], m.eq(a, 3)])]),
             m.implies(p[3], m.iff(p[0], m.eq(a, 1)))]

    def pred(s):
        i = (s[pv[0]] and s[pv[1]]) == (s[a] + s[pv[2]] <= 2)
        return (i or (s[pv[3]] and s[a] == 3)) and (not s[pv[3]] or s[pv[0]] == (s[a] == 1))

    check_exact(m, rules, pred)


# ---------------------------------------------------------------- nested formulas (Tseitin)

class Gen:
    """Random formulas over a few bools and small ints, each with its meaning.

    ``safe=True`` keeps clear of the two known bugs: sums have coefficients +-1
    over domains without holes, and a sum compared with '<=' / '>=' always stands
    where the encoder reifies it (the two sides of an iff of two sums), never
    where it would be asserted directly."""

    def __init__(self, rng, m, nb=3, ni=2, safe=True):
        self.rng, self.m, self.safe = rng, m, safe
        self.bv, self.b = bools(m, nb)
        if safe:
            self.iv = [m.new_var("i", (j,), tuple(range(rng.randrange(0, 2), rng.randrange(3, 5))))
                       for j in range(ni)]
        else:
            self.iv = [m.new_var("i", (j,), random_domain(rng, 0, 3, rng.randrange(2, 4)))
                       for j in range(ni)]

    def linear(self, ops):
        rng, m = self.rng, self.m
        coefs = [-1, 1] if self.safe else [-2, -1, 1, 2]
        pairs = [(rng.choice(coefs), t) for t in rng.sample(self.b + self.iv, 3)]
        e = linexpr(m, pairs)
        lo, hi = m.bounds(e)
        op = rng.choice(ops)
        k = _interior_bound(rng, op, lo, hi)
        return m.compare(op, e, k), lambda s: OPS[op](sum(c * value(s, t) for c, t in pairs), k)

    def atom(self):
        rng, m = self.rng, self.m
        pick = rng.randrange(7)
        if pick == 0:
            j = rng.randrange(len(self.b))
            return self.b[j], lambda s, v=self.bv[j]: s[v]
        if pick == 1:
            v = rng.choice(self.iv)
            val = rng.choice(v.domain)
            return m.eq(v, val), lambda s: s[v] == val
        if pick == 2:
            return self.linear(["=", "!="] if self.safe else list(OPS))
        if pick == 3 and self.safe:   # one-sided sums, reified whatever the polarity
            (n1, f1), (n2, f2) = (self.linear(["<=", ">=", "<", ">"]) for _ in range(2))
            return m.iff(n1, n2), lambda s: f1(s) == f2(s)
        if pick == 3:
            chosen = rng.sample(range(len(self.b)), rng.randrange(2, len(self.b) + 1))
            op = rng.choice(["<=", ">=", "="])
            k = rng.randrange(0, len(chosen) + 1)
            e = linexpr(m, [(1, self.b[j]) for j in chosen])
            return m.compare(op, e, k), lambda s: OPS[op](sum(s[self.bv[j]] for j in chosen), k)
        if pick == 4:  # cardinality whose bound stays special when negated
            chosen = rng.sample(range(len(self.b)), rng.randrange(2, len(self.b) + 1))
            op, k = rng.choice([(">=", 1), ("=", 1), ("<=", 0), ("=", 2)])
            e = linexpr(m, [(1, self.b[j]) for j in chosen])
            return m.compare(op, e, k), lambda s: OPS[op](sum(s[self.bv[j]] for j in chosen), k)
        if pick == 5:
            p, q = rng.sample(self.iv, 2)
            op = rng.choice(["=", "!="])
            return m.compare(op, p, q), lambda s: OPS[op](s[p], s[q])
        vs = list(self.iv)
        const = rng.choice([[], [rng.randrange(0, 4)]])
        return m.distinct(vs + const), lambda s: len({s[v] for v in vs} | set(const)) == len(vs) + len(const)

    def formula(self, depth):
        rng, m = self.rng, self.m
        if depth == 0 or rng.random() < 0.25:
            return self.atom()
        kind = rng.choice(["and", "or", "or", "not", "iff", "implies", "ite"])
        parts = [self.formula(depth - 1) for _ in range(3)]
        nodes = [p[0] for p in parts]
        fns = [p[1] for p in parts]
        width = rng.randrange(2, 4)
        if kind == "and":
            return m.and_(nodes[:width]), lambda s: all(f(s) for f in fns[:width])
        if kind == "or":
            return m.or_(nodes[:width]), lambda s: any(f(s) for f in fns[:width])
        if kind == "not":
            return m.not_(nodes[0]), lambda s: not fns[0](s)
        if kind == "iff":
            return m.iff(nodes[0], nodes[1]), lambda s: fns[0](s) == fns[1](s)
        if kind == "implies":
            return m.implies(nodes[0], nodes[1]), lambda s: (not fns[0](s)) or fns[1](s)
        return m.ite(*nodes), lambda s: fns[1](s) if fns[0](s) else fns[2](s)


def test_random_nested_formulas():
    rng = random.Random(31337)
    kinds = set()
    for _ in range(250):
        m = Model()
        g = Gen(rng, m)
        node, fn = g.formula(3)
        kinds.add(node.kind)
        check_exact(m, [node], fn)
    assert {"and", "or", "iff", "lin", "not", "distinct", "same"} <= kinds


def test_random_nested_formulas_any_arithmetic():
    """The same with any coefficients and comparisons anywhere (both bugs)."""
    rng = random.Random(31338)
    for _ in range(150):
        m = Model()
        g = Gen(rng, m, safe=False)
        node, fn = g.formula(3)
        check_exact(m, [node], fn)


def test_random_formula_sets_share_subformulas():
    """Several rules over the same variables: Tseitin definitions are cached per
    formula and shared between rules."""
    rng = random.Random(4242)
    for _ in range(60):
        m = Model()
        g = Gen(rng, m, nb=4, ni=2)
        parts = [g.formula(2) for _ in range(3)]
        nodes = [p[0] for p in parts]
        nodes.append(m.or_([nodes[0], m.not_(nodes[1])]))
        fns = [p[1] for p in parts]
        check_exact(m, nodes, lambda s: all(f(s) for f in fns)
                    and (fns[0](s) or not fns[1](s)))


def _reified_suite(seed, weighted, count=80):
    rng = random.Random(seed)
    for _ in range(count):
        m = Model()
        pairs1 = random_linear(rng, m, 2, 1, weighted)
        pairs2 = [(rng.choice([-1, 1, 2] if weighted else [-1, 1]), t) for _, t in pairs1]
        e1, e2 = linexpr(m, pairs1), linexpr(m, pairs2)
        ops = [rng.choice(list(OPS)) for _ in range(2)]
        ks = [_interior_bound(rng, op, *m.bounds(e)) for op, e in zip(ops, (e1, e2))]
        xv, (x,) = bools(m, 1, "x")
        l1, l2 = m.compare(ops[0], e1, ks[0]), m.compare(ops[1], e2, ks[1])
        with_x = rng.random() < 0.5
        node = m.or_([l1, l2, x]) if with_x else m.or_([l1, l2])

        def pred(s):
            v1 = sum(c * value(s, t) for c, t in pairs1)
            v2 = sum(c * value(s, t) for c, t in pairs2)
            return OPS[ops[0]](v1, ks[0]) or OPS[ops[1]](v2, ks[1]) or (with_x and s[xv[0]])

        check_exact(m, [node], pred)


def test_reified_linear_constraints_inside_or():
    _reified_suite(8, weighted=False)


def test_reified_linear_constraints_with_coefficients_inside_or():
    _reified_suite(9, weighted=True)


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_exactness_does_not_depend_on_the_solver(solver):
    rng = random.Random(606)
    for _ in range(25):
        m = Model()
        g = Gen(rng, m)
        node, fn = g.formula(2)
        check_exact(m, [node], fn, solver=solver)


# ---------------------------------------------------------------- the SMT text, same check

def check_exact_smt(m, nodes, pred):
    import z3

    from pzc.encoder.smt import to_smtlib
    for node in nodes:
        m.constraints.append((None, node))
    text, names = to_smtlib(m)
    solver = z3.Solver()
    solver.from_string(text)
    consts = {}

    def b(name):
        if name not in consts:
            consts[name] = z3.Bool(name)
        return consts[name]

    for a in assignments(m.vars):
        assume = []
        for var, val in a.items():
            n = names[var]
            if isinstance(n, str):
                assume.append(b(n) if val else z3.Not(b(n)))
            elif n[val] != "true":
                assume.append(b(n[val]))
        got = solver.check(*assume) == z3.sat
        assert got == bool(pred(a)), (nodes, a)


def test_smt_text_is_exact_on_random_formulas():
    rng = random.Random(515)
    for _ in range(40):
        m = Model()
        g = Gen(rng, m, nb=3, ni=2, safe=rng.random() < 0.5)
        node, fn = g.formula(2)
        check_exact_smt(m, [node], fn)


def test_smt_text_is_exact_on_count_and_distinct():
    m = Model()
    x = m.new_var("x", (), (-1, 0, 1, 2, 3))
    vs, lits = bools(m, 3)
    vv = [m.new_var("v", (i,), (1, 2, 3)) for i in range(3)]
    nodes = [m.implies(m.not_(m.eq(x, -1)), m.compare("=", x, linexpr(m, [(1, l) for l in lits]))),
             m.distinct(vv), m.compare(">=", m.add(vv[0], m.scale(x, -2)), 0)]
    check_exact_smt(m, nodes, lambda s: (s[x] == -1 or s[x] == sum(s[v] for v in vs))
                    and len({s[v] for v in vv}) == 3 and s[vv[0]] - 2 * s[x] >= 0)


# ---------------------------------------------------------------- connected(...)

def _grid(h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]
    adj = {(r, c): tuple(x for x in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                         if x in set(cells)) for r, c in cells}
    return cells, adj


def _connected(chosen, adj):
    chosen = set(chosen)
    if not chosen:
        return True
    start = next(iter(chosen))
    seen, todo = {start}, [start]
    while todo:
        for y in adj[todo.pop()]:
            if y in chosen and y not in seen:
                seen.add(y)
                todo.append(y)
    return seen == chosen


def _connected_model(h, w, forced=(), guarded=False):
    m = Model()
    cells, adj = _grid(h, w)
    sel = {}
    chosen = []
    for c in cells:
        if c in forced:
            chosen.append(m.TRUE)
        else:
            sel[c] = m.new_var("s", (c,), None)
            chosen.append(m.bvar(sel[c]))
    node = m.connected(cells, chosen, adj)
    gv = None
    if guarded:
        gv, (g,) = bools(m, 1, "g")
        node = m.implies(g, node)

    def pred(a):
        ok = _connected([c for c in cells if c in forced or a[sel[c]]], adj)
        return ok or (guarded and not a[gv[0]])
    return m, node, pred


@pytest.mark.parametrize("h,w,forced,guarded", [
    (2, 3, (), False), (3, 3, (), False), (2, 3, ((0, 0),), False),
    (2, 4, ((0, 0), (1, 3)), False), (2, 3, (), True), (3, 3, ((1, 1),), True)])
def test_connected_eager_encoding_is_exact(h, w, forced, guarded):
    m, node, pred = _connected_model(h, w, forced, guarded)
    m.constraints.append((None, node))
    cnf = cnf_stage.encode(m, "eager")
    assert cnf.lazy == []
    m.constraints.clear()
    sat, total = 0, 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            want = pred(a)
            assert s.solve(assumptions=assumptions(cnf, a)) == want, a
            sat += want
            total += 1
    assert 0 < sat < total


@pytest.mark.parametrize("h,w,forced,guarded", [
    (2, 3, (), False), (3, 3, (), False), (2, 4, ((0, 0), (1, 3)), False), (3, 3, ((1, 1),), True)])
def test_connected_lazy_cuts_are_exact(h, w, forced, guarded):
    """The solve loop: solve, add the cuts the model breaks, repeat.  Cuts stay
    in the solver for the next assignments, so none may cut a connected one."""
    from pzc.encoder import connectivity
    m, node, pred = _connected_model(h, w, forced, guarded)
    m.constraints.append((None, node))
    cnf = cnf_stage.encode(m, "lazy")
    assert len(cnf.lazy) == 1
    cut_total = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            assume = assumptions(cnf, a)
            while True:
                ok = s.solve(assumptions=assume)
                if not ok:
                    break
                truth = set(s.get_model())
                extra = connectivity.cuts(cnf.lazy, lambda l: l in truth)
                if not extra:
                    break
                cut_total += len(extra)
                for clause in extra:
                    s.add_clause(clause)
            assert ok == pred(a), a
    assert cut_total > 0


@pytest.mark.parametrize("mode", ["eager", "lazy"])
def test_connected_inside_or_is_exact(mode):
    """A required connected(...) inside 'or' is half-reified (v -> connected);
    check.py rules out every other use, and this one stays exact."""
    from pzc.encoder import connectivity
    m, node, pred = _connected_model(2, 3)
    x = m.new_var("x", (), None)
    d = m.new_var("d", (), (1, 2, 3))
    m.constraints.append((None, m.or_([node, m.and_([m.bvar(x), m.eq(d, 2)])])))
    cnf = cnf_stage.encode(m, mode)
    m.constraints.clear()
    sat = total = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            assume = assumptions(cnf, a)
            while True:
                ok = s.solve(assumptions=assume)
                if not ok:
                    break
                truth = set(s.get_model())
                extra = connectivity.cuts(cnf.lazy, lambda l: l in truth)
                if not extra:
                    break
                for clause in extra:
                    s.add_clause(clause)
            want = pred(a) or (a[x] and a[d] == 2)
            assert ok == want, a
            sat += want
            total += 1
    assert 0 < sat < total


def test_connected_smt_text_is_exact():
    m, node, pred = _connected_model(2, 3, ((0, 0),), True)
    check_exact_smt(m, [node], pred)
    m, node, pred = _connected_model(2, 3)
    check_exact_smt(m, [node], pred)


@pytest.mark.parametrize("forced,least_off", [((), 2), (((0, 0),), 2), (((0, 0), (1, 2)), 1),
                                              (((0, 1),), 3)])
def test_bounded_connectivity_counts_the_always_selected(forced, least_off):
    """A count of the *unselected* elements bounds the selection (Nurikabe's sea);
    the count leaves out always-selected elements, which still count as
    selected.  Regression: the bound once forgot them and cut valid answers."""
    m, node, pred = _connected_model(2, 3, forced)
    free = [v for v in m.vars if v.name == "s"]
    off = m.compare(">=", LinExpr({m.not_(m.bvar(v)): 1 for v in free}), least_off)
    m.constraints += [(None, node), (None, off)]
    cnf = cnf_stage.encode(m, "lazy")
    assert cnf.lazy == []          # the count made it a bounded (layered) encoding
    m.constraints.clear()
    sat = total = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            want = pred(a) and sum(not a[v] for v in free) >= least_off
            assert s.solve(assumptions=assumptions(cnf, a)) == want, a
            sat += want
            total += 1
    assert 0 < sat < total


@pytest.mark.parametrize("budget,layered", [(0, False), (10**6, True)])
def test_layers_past_the_bounded_limit_when_cheap(monkeypatch, budget, layered):
    """Past BOUNDED_LIMIT a selection with a root still gets distance layers
    when they need at most LAYER_BUDGET variables (a big Nurikabe island
    walled in by other clues), and they are exact; over budget it is lazy."""
    monkeypatch.setattr(cnf_stage, "BOUNDED_LIMIT", 1)
    monkeypatch.setattr(cnf_stage, "LAYER_BUDGET", budget)
    m, node, pred = _connected_model(2, 3, ((0, 0),))
    free = [v for v in m.vars if v.name == "s"]
    at_most = m.compare("<=", LinExpr({m.bvar(v): 1 for v in free}), 3)
    m.constraints += [(None, node), (None, at_most)]
    cnf = cnf_stage.encode(m, "lazy")
    assert (cnf.lazy == []) == layered
    if not layered:
        return
    m.constraints.clear()
    sat = total = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            want = pred(a) and sum(a[v] for v in free) <= 3
            assert s.solve(assumptions=assumptions(cnf, a)) == want, a
            sat += want
            total += 1
    assert 0 < sat < total


def test_layer_cost_counts_each_element_from_its_distance():
    """On a path of 5 elements rooted at one end, with a limit of 4, element
    x at distance d gets a layer variable for each of the layers d..3."""
    lits = [1, 2, 3, 4, 5]
    adjacent = [[1], [0, 2], [1, 3], [2, 4], [3]]
    assert connectivity.layer_cost(lits, adjacent, 4, 1) == 3 + 2 + 1
    assert connectivity.layer_cost([2, 3, 4], [[1], [0, 2], [1]], 3, 1) is None


def test_a_large_implied_count_only_bounds_connectivity(monkeypatch):
    """An implied count past IMPLIED_LIMIT (Nurikabe's `land` over every cell)
    gets no clauses, yet still makes the connectivity over its selection a
    bounded (layered) encoding: every connected selection meeting it is a
    model, no disconnected one is."""
    def build():
        m, node, pred = _connected_model(2, 3, ((0, 0),))
        free = [v for v in m.vars if v.name == "s"]
        off = m.compare(">=", LinExpr({m.not_(m.bvar(v)): 1 for v in free}), 2)
        m.constraints.append((None, node))
        m.implied.append((None, off))
        return m, pred, free
    m, _, _ = build()
    encoded = cnf_stage.encode(m, "lazy")
    monkeypatch.setattr(cnf_stage, "IMPLIED_LIMIT", 0)
    m, pred, free = build()
    cnf = cnf_stage.encode(m, "lazy")
    assert cnf.lazy == [] and len(cnf.clauses) < len(encoded.clauses)
    m.constraints.clear()
    m.implied.clear()
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        for a in assignments(m.vars):
            found = s.solve(assumptions=assumptions(cnf, a))
            if not pred(a):
                assert not found, a
            elif sum(not a[v] for v in free) >= 2:
                assert found, a


@pytest.mark.parametrize("guard_kind", [None, "literal", "conjunction"])
def test_large_cardinalities_through_pysat_are_exact(monkeypatch, guard_kind):
    """Above NETWORK_LIMIT (n * k) a cardinality goes to pysat's k-modulo
    totalizer; forcing that path on small cases checks it the same way."""
    monkeypatch.setattr(cnf_stage, "NETWORK_LIMIT", 0)
    monkeypatch.setattr(cnf_stage, "BINOMIAL_LIMIT", 0)
    for n in (3, 6):
        for op in ("=", "<=", ">="):
            for k in range(0, n + 1):
                m, vs, card = _card(n, op, k)
                if guard_kind is None:
                    node, gf = card, (lambda a: True)
                else:
                    guard, gf = _guard(m, guard_kind)
                    node = m.implies(guard, card)
                check_exact(m, [node],
                            lambda a: (not gf(a)) or OPS[op](sum(a[v] for v in vs), k))


@pytest.mark.parametrize("n", range(1, 9))
def test_a_totalizer_from_its_template_is_the_one_built_directly(n):
    """Counts of n literals take their totalizer from a template made once
    per shape (Encoder._tree_by_template): the same clauses, variables and
    sum as _tree writes, for every cap and direction."""
    rng = random.Random(n)
    for cap in range(1, n + 1):
        for up, down in ((True, True), (True, False), (False, True)):
            lits = [rng.choice((1, -1)) * v for v in rng.sample(range(2, 40), n)]
            made = []
            for route in ("_tree", "_tree_by_template"):
                enc = cnf_stage.Encoder.__new__(cnf_stage.Encoder)
                enc.nvars, enc.clauses, enc.true = 40, [], 1
                leaves = [cnf_stage.Unary([0, 1], [True, l]) for l in lits]
                u = getattr(enc, route)(leaves, cap, up, down)
                made.append((enc.nvars, [list(c) for c in enc.clauses], u.values, u.ge))
            assert made[0] == made[1]
