"""The IR (pzc.encoder.model): construction and simplification.

Formulas are hash-consed, so the tests compare with ``is``: a simplification
that works gives back exactly the object that the simpler construction gives.
Semantic checks evaluate formulas with generators.ir_value over every
assignment of the variables.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from generators import ir_value
from pzc.encoder.model import Cases, Domain, LinExpr, Model, Node, Var


class World:
    """A model with three bools X, Y, Z and ints a, b in 1..3, c in {0, 2, 5}."""

    def __init__(self):
        m = self.m = Model()
        self.x, self.y, self.z = (m.new_var(n, (), None) for n in "xyz")
        self.X, self.Y, self.Z = (m.bvar(v) for v in (self.x, self.y, self.z))
        self.a = m.new_var("a", (), (1, 2, 3))
        self.b = m.new_var("b", (), (1, 2, 3))
        self.c = m.new_var("c", (), (0, 2, 5))

    def assignments(self):
        vs = self.m.vars
        doms = [(False, True) if v.domain is None else v.domain for v in vs]
        for values in product(*doms):
            yield dict(zip(vs, values))

    def lin(self, *pairs, const=0):
        e = LinExpr({}, const)
        for coef, atom in pairs:
            e = self.m.add(e, self.m.scale(atom, coef))
        return e


@pytest.fixture
def w():
    return World()


# ---------------------------------------------------------------- atoms

def test_atoms_are_interned(w):
    m = w.m
    assert m.bvar(w.x) is w.X
    assert m.eq(w.a, 2) is m.eq(w.a, 2)
    assert m.eq(w.a, 2) is not m.eq(w.a, 3)
    assert m.eq(w.a, 2).kind == "eq" and m.eq(w.a, 2).args == (w.a, 2)
    assert w.X.kind == "bvar" and w.X.args == (w.x,)


def test_eq_outside_domain_is_false_and_single_value_domain_is_true(w):
    m = w.m
    one = m.new_var("one", (), (7,))
    assert m.eq(w.a, 4) is m.FALSE
    assert m.eq(w.c, 1) is m.FALSE
    assert m.eq(one, 7) is m.TRUE
    assert m.eq(one, 6) is m.FALSE


def test_eq_each_gives_what_eq_gives_and_the_same_uids():
    """Model.eq_each(vs, value) against eq one variable at a time, on two
    models built alike: the same atoms (or constants) and the same uids,
    with domains shared, distinct, single-valued and without the value, and
    some atoms made beforehand."""
    def build():
        m = Model()
        shared = Domain((1, 2, 3))          # one domain object, as the grounder gives
        vs = [m.new_var("v", (i,), shared) for i in range(5)]
        vs += [m.new_var("w", (0,), (2, 5)), m.new_var("one", (0,), (3,))]
        vs += [m.new_var("u", (i,), (4, 5, 6)) for i in range(2)]
        assert vs[0].domain is vs[4].domain and vs[7].domain is not vs[8].domain
        vs = [vs[0], vs[5], vs[1], vs[6], vs[2], vs[7], vs[3], vs[8], vs[4]]
        m.eq(vs[2], 2)
        m.eq(vs[4], 3)
        return m, vs
    for value in (1, 2, 3, 5, 9, "x"):
        (m1, vs1), (m2, vs2) = build(), build()
        each = m1.eq_each(vs1, value)
        one = [m2.eq(v, value) for v in vs2]
        assert [(n.kind, n.uid) for n in each] == [(n.kind, n.uid) for n in one]
        assert all(n is m1.eq(v, value) for n, v in zip(each, vs1))
        assert m1.eq_each(vs1, value) == each       # a second call makes none


def test_var_properties(w):
    m = w.m
    s = m.new_var("s", ("k", (0, 1)), ("red", "blue"))
    assert w.x.is_bool and not w.a.is_bool
    assert w.a.numeric and not s.numeric and not w.x.numeric
    assert s.label() == 's["k", (0, 1)]'
    assert w.a.label() == "a"
    assert [v.index for v in m.vars] == list(range(len(m.vars)))
    assert len({v.uid for v in m.vars}) == len(m.vars)


def test_separate_models_do_not_share_nodes():
    m1, m2 = Model(), Model()
    v1, v2 = m1.new_var("x", (), None), m2.new_var("x", (), None)
    assert m1.TRUE is not m2.TRUE
    assert m1.bvar(v1) is not m2.bvar(v2)


# ---------------------------------------------------------------- and / or

def test_and_or_constant_folding(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.and_([]) is m.TRUE
    assert m.or_([]) is m.FALSE
    assert m.and_([m.TRUE, X]) is X
    assert m.and_([m.TRUE, m.TRUE]) is m.TRUE
    assert m.and_([X, m.FALSE, Y]) is m.FALSE
    assert m.or_([m.FALSE, X]) is X
    assert m.or_([X, m.TRUE, Y]) is m.TRUE
    assert m.or_([m.FALSE, m.FALSE]) is m.FALSE


def test_and_or_single_and_duplicate_arguments(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.and_([X]) is X
    assert m.or_([X, X, X]) is X
    assert m.and_([X, Y, X]) is m.and_([X, Y])
    assert m.and_([X, Y, X]).args == (X, Y)


def test_complementary_arguments(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.and_([X, Y, m.not_(X)]) is m.FALSE
    assert m.or_([m.not_(Y), X, Y]) is m.TRUE
    # the complement may also arrive through flattening
    assert m.and_([m.and_([X, Y]), m.not_(Y)]) is m.FALSE


def test_flattening(w):
    m, X, Y, Z = w.m, w.X, w.Y, w.Z
    nested = m.and_([m.and_([X, Y]), Z])
    assert nested.kind == "and"
    assert nested.args == (X, Y, Z)
    assert nested is m.and_([X, m.and_([Y, Z])])
    assert nested is m.and_([X, Y, Z])
    deep = m.or_([m.or_([X, m.or_([Y, Z])])])
    assert deep is m.or_([X, Y, Z])
    assert all(a.kind != "or" for a in deep.args)
    # an or inside an and is kept as one argument
    mixed = m.and_([X, m.or_([Y, Z])])
    assert mixed.args == (X, m.or_([Y, Z]))


def test_argument_order_does_not_matter(w):
    m, X, Y, Z = w.m, w.X, w.Y, w.Z
    assert m.and_([X, Y, Z]) is m.and_([Z, Y, X])
    assert m.or_([Y, X]) is m.or_([X, Y])
    assert m.iff(X, Y) is m.iff(Y, X)
    assert m.same(w.a, w.b) is m.same(w.b, w.a)


def test_implies(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.implies(X, Y) is m.or_([m.not_(X), Y])
    assert m.implies(m.TRUE, Y) is Y
    assert m.implies(m.FALSE, Y) is m.TRUE
    assert m.implies(X, m.FALSE) is m.not_(X)
    assert m.implies(X, X) is m.TRUE


# ---------------------------------------------------------------- not / NNF

def test_not_constants_and_double_negation(w):
    m, X = w.m, w.X
    assert m.not_(m.TRUE) is m.FALSE
    assert m.not_(m.FALSE) is m.TRUE
    nx = m.not_(X)
    assert nx.kind == "not" and nx.args == (X,)
    assert m.not_(nx) is X
    assert m.not_(m.not_(m.eq(w.a, 1))) is m.eq(w.a, 1)


def test_de_morgan(w):
    m, X, Y, Z = w.m, w.X, w.Y, w.Z
    nX, nY, nZ = m.not_(X), m.not_(Y), m.not_(Z)
    assert m.not_(m.and_([X, Y])) is m.or_([nX, nY])
    assert m.not_(m.or_([X, Y])) is m.and_([nX, nY])
    f = m.or_([X, m.and_([Y, nZ])])
    assert m.not_(f) is m.and_([nX, m.or_([nY, Z])])
    assert m.not_(m.not_(f)) is f


def test_not_iff_moves_inside(w):
    m, X, Y = w.m, w.X, w.Y
    n = m.not_(m.iff(X, Y))
    assert n.kind == "iff"
    assert n is m.iff(X, m.not_(Y))


def test_not_of_linear_flips_the_comparison(w):
    m = w.m
    s = w.lin((1, w.X), (1, w.Y), (1, w.Z))
    le = m.compare("<=", s, 1)
    ge = m.not_(le)
    assert ge.kind == "lin"
    items, op, bound = ge.args
    assert (op, bound) == (">=", 2)
    assert items == le.args[0]
    assert ge is m.compare(">=", s, 2)
    assert m.not_(ge) is le
    eq = m.compare("=", s, 1)
    assert eq.kind == "lin" and eq.args[1:] == ("=", 1)
    assert m.not_(eq).kind == "not"
    assert m.not_(eq) is m.compare("!=", s, 1)


def _nnf_ok(node, seen=None):
    """No 'not' stands above and/or/not/iff or an inequality."""
    if node.kind == "not":
        inner = node.args[0]
        if inner.kind in ("and", "or", "not", "iff", "true", "false"):
            return False
        if inner.kind == "lin" and inner.args[1] != "=":
            return False
        return True
    if node.kind in ("and", "or", "iff"):
        return all(_nnf_ok(a) for a in node.args)
    return True


def _random_formula(w, rng, depth):
    m = w.m
    if depth == 0 or rng.random() < 0.2:
        pick = rng.randrange(5)
        if pick == 0:
            return rng.choice([w.X, w.Y, w.Z])
        if pick == 1:
            return m.eq(rng.choice([w.a, w.b, w.c]), rng.choice([0, 1, 2, 3, 5]))
        if pick == 2:
            op = rng.choice(["<=", ">=", "=", "!=", "<", ">"])
            e = w.lin((rng.choice([-2, -1, 1, 2]), w.a), (rng.choice([-1, 1, 3]), w.X),
                      (rng.choice([-1, 1]), w.c))
            return m.compare(op, e, rng.randrange(-6, 12))
        if pick == 3:
            return m.compare(rng.choice(["=", "!="]), rng.choice([w.a, w.c]), w.b)
        return m.distinct([w.a, w.b, rng.choice([w.c, 2, 4])])
    kind = rng.choice(["and", "or", "not", "iff", "implies", "ite"])
    sub = [_random_formula(w, rng, depth - 1) for _ in range(3)]
    if kind == "and":
        return m.and_(sub[:rng.randrange(1, 4)])
    if kind == "or":
        return m.or_(sub[:rng.randrange(1, 4)])
    if kind == "not":
        return m.not_(sub[0])
    if kind == "iff":
        return m.iff(sub[0], sub[1])
    if kind == "implies":
        return m.implies(sub[0], sub[1])
    return m.ite(*sub)


def test_random_formulas_negation_normal_form_and_meaning():
    rng = random.Random(1234)
    w = World()
    m = w.m
    assignments = list(w.assignments())
    for _ in range(120):
        f = _random_formula(w, rng, 3)
        nf = m.not_(f)
        assert _nnf_ok(f) and _nnf_ok(nf), (f, nf)
        assert m.not_(nf) is f
        for a in assignments[::7]:
            assert ir_value(nf, a) == (not ir_value(f, a))


def test_junctions_keep_meaning():
    """and_/or_/iff/ite simplify without changing what the formula means."""
    rng = random.Random(99)
    w = World()
    m = w.m
    assignments = list(w.assignments())
    for _ in range(80):
        fs = [_random_formula(w, rng, 2) for _ in range(3)]
        built = {
            "and": (m.and_(fs), lambda v: all(v)),
            "or": (m.or_(fs), lambda v: any(v)),
            "iff": (m.iff(fs[0], fs[1]), lambda v: v[0] == v[1]),
            "implies": (m.implies(fs[0], fs[1]), lambda v: (not v[0]) or v[1]),
            "ite": (m.ite(*fs), lambda v: v[1] if v[0] else v[2]),
        }
        for a in assignments[::5]:
            vals = [ir_value(f, a) for f in fs]
            for name, (node, fn) in built.items():
                assert ir_value(node, a) == fn(vals), name


# ---------------------------------------------------------------- iff / ite

def test_iff_folding(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.iff(m.TRUE, X) is X
    assert m.iff(X, m.TRUE) is X
    assert m.iff(m.FALSE, X) is m.not_(X)
    assert m.iff(X, m.FALSE) is m.not_(X)
    assert m.iff(X, X) is m.TRUE
    assert m.iff(X, m.not_(X)) is m.FALSE
    assert m.iff(m.not_(X), X) is m.FALSE
    node = m.iff(X, Y)
    assert node.kind == "iff" and set(node.args) == {X, Y}


def test_ite_folding(w):
    m, X, Y, Z = w.m, w.X, w.Y, w.Z
    assert m.ite(m.TRUE, Y, Z) is Y
    assert m.ite(m.FALSE, Y, Z) is Z
    assert m.ite(X, m.TRUE, m.FALSE) is m.and_([m.or_([m.not_(X), m.TRUE]), m.or_([X, m.FALSE])])
    assert m.ite(X, m.TRUE, m.FALSE) is X
    # ite is (not c or a) and (c or b), simplified only by the junction rules
    assert m.ite(X, Y, m.FALSE) is m.and_([m.or_([m.not_(X), Y]), X])
    assert m.ite(X, m.TRUE, Z) is m.or_([X, Z])


# ---------------------------------------------------------------- comparisons

def test_compare_constants(w):
    m = w.m
    assert m.compare("<", 2, 3) is m.TRUE
    assert m.compare(">=", 2, 3) is m.FALSE
    assert m.compare("=", 4, 4) is m.TRUE
    assert m.compare("!=", 4, 4) is m.FALSE
    # terms that cancel leave a constant comparison
    assert m.compare("=", m.add(w.a, 1), m.add(w.a, 1)) is m.TRUE
    assert m.compare("<", m.add(w.X, 1), w.X) is m.FALSE


def test_compare_one_bool(w):
    m, X = w.m, w.X
    assert m.compare(">=", X, 1) is X
    assert m.compare("=", X, 1) is X
    assert m.compare("<=", X, 0) is m.not_(X)
    assert m.compare("=", X, 0) is m.not_(X)
    assert m.compare("<=", X, 1) is m.TRUE
    assert m.compare("=", X, 2) is m.FALSE
    assert m.compare(">", m.scale(X, -3), -1) is m.not_(X)
    assert m.compare("!=", m.scale(X, 2), 2) is m.not_(X)


def test_compare_one_finite_domain_term(w):
    m, a, c = w.m, w.a, w.c
    assert m.compare("<=", a, 2) is m.or_([m.eq(a, 1), m.eq(a, 2)])
    assert m.compare(">", a, 3) is m.FALSE
    # every value qualifies: true, as the variable takes exactly one value
    assert m.compare(">=", a, 1) is m.TRUE
    assert m.compare("!=", a, 2) is m.or_([m.eq(a, 1), m.eq(a, 3)])
    assert m.compare("=", m.scale(a, 2), 4) is m.eq(a, 2)
    assert m.compare("=", m.scale(a, 2), 3) is m.FALSE
    assert m.compare("<", m.scale(c, -1), -1) is m.or_([m.eq(c, 2), m.eq(c, 5)])
    assert m.compare("=", c, 1) is m.FALSE
    # the same thing written on the other side
    assert m.compare(">=", 2, a) is m.compare("<=", a, 2)


def test_compare_two_terms_is_linear_node(w):
    m = w.m
    node = m.compare("<=", m.add(w.a, w.X), 3)
    assert node.kind == "lin"
    items, op, bound = node.args
    assert op == "<=" and bound == 3
    assert sorted((c, t.uid) for c, t in items) == sorted([(1, w.a.uid), (1, w.X.uid)])
    # strict comparisons become non-strict ones
    assert m.compare("<", m.add(w.a, w.X), 4) is node
    assert m.compare(">", m.add(w.a, w.X), 2) is m.compare(">=", m.add(w.a, w.X), 3)
    # constants move to the bound
    assert m.compare("<=", m.add(m.add(w.a, w.X), 5), 8) is node
    assert m.compare("<=", m.add(w.a, w.X), m.add(w.Y, 3)) is \
        m.compare("<=", w.lin((1, w.a), (1, w.X), (-1, w.Y)), 3)


def test_linear_nodes_are_shared_whatever_the_build_order(w):
    m = w.m
    s1 = w.lin((1, w.X), (2, w.a), (-1, w.c))
    s2 = w.lin((-1, w.c), (1, w.X), (2, w.a))
    assert m.compare("=", s1, 3) is m.compare("=", s2, 3)
    assert m.compare("=", s1, 3) is not m.compare("=", s1, 4)
    assert m.compare("!=", s1, 3) is m.not_(m.compare("=", s2, 3))


def test_bounds(w):
    m = w.m
    assert m.bounds(w.lin((1, w.X), (1, w.Y))) == (0, 2)
    assert m.bounds(w.lin((2, w.a), (-3, w.b), const=1)) == (2 - 9 + 1, 6 - 3 + 1)
    assert m.bounds(w.lin((-2, w.X), (1, w.c))) == (-2, 5)


@pytest.mark.parametrize("op,bound,expect", [
    ("<=", 3, "TRUE"), ("<=", 2, None), ("<=", -1, "FALSE"), ("<=", 0, None),
    (">=", 0, "TRUE"), (">=", 1, None), (">=", 4, "FALSE"), (">=", 3, None),
    ("=", 4, "FALSE"), ("=", -1, "FALSE"), ("=", 3, None), ("=", 0, None),
    ("!=", 4, "TRUE"), ("!=", -1, "TRUE"), ("<", 4, "TRUE"), ("<", 0, "FALSE"),
    (">", -1, "TRUE"), (">", 3, "FALSE"),
])
def test_bounds_fold_cardinality(w, op, bound, expect):
    m = w.m
    node = m.compare(op, w.lin((1, w.X), (1, w.Y), (1, w.Z)), bound)
    if expect is None:
        assert node.kind in ("lin", "not")
    else:
        assert node is getattr(m, expect)


@pytest.mark.parametrize("op,bound,expect", [
    # 2a - 3b ranges over -7..3
    ("<=", 3, "TRUE"), ("<=", -8, "FALSE"), (">=", -7, "TRUE"), (">=", 4, "FALSE"),
    ("=", 4, "FALSE"), ("=", -8, "FALSE"), ("<", 4, "TRUE"), (">", 3, "FALSE"),
    ("<=", 2, None), (">=", -6, None), ("=", -7, None), ("=", 3, None),
])
def test_bounds_fold_linear_with_negative_coefficients(w, op, bound, expect):
    m = w.m
    node = m.compare(op, w.lin((2, w.a), (-3, w.b)), bound)
    if expect is None:
        assert node.kind == "lin"
    else:
        assert node is getattr(m, expect)


def test_folded_comparisons_agree_with_evaluation():
    """Whatever compare returns means the comparison, over all assignments."""
    rng = random.Random(7)
    w = World()
    m = w.m
    assignments = list(w.assignments())
    ops = {"<=": int.__le__, ">=": int.__ge__, "=": int.__eq__, "!=": int.__ne__,
           "<": int.__lt__, ">": int.__gt__}
    atoms = [w.X, w.Y, w.a, w.b, w.c]
    for _ in range(150):
        chosen = rng.sample(atoms, rng.randrange(1, 4))
        e = w.lin(*[(rng.choice([-3, -2, -1, 1, 2]), t) for t in chosen], const=rng.randrange(-3, 4))
        op = rng.choice(list(ops))
        k = rng.randrange(-12, 14)
        node = m.compare(op, e, k)
        for a in assignments[::3]:
            assert ir_value(node, a) == ops[op](ir_value(e, a), k), (e, op, k)


# ---------------------------------------------------------------- member / equal / same

def test_member(w):
    m, a, c = w.m, w.a, w.c
    assert m.member(a, [2, 3]) is m.or_([m.eq(a, 2), m.eq(a, 3)])
    assert m.member(a, [9]) is m.FALSE
    assert m.member(a, [1, 2, 3, 4]) is m.TRUE           # every value of a: always true
    assert m.member(c, {5}) is m.eq(c, 5)


def test_equal(w):
    m = w.m
    assert m.equal(w.X, True) is w.X
    assert m.equal(False, w.X) is m.not_(w.X)
    assert m.equal(w.X, w.Y) is m.iff(w.X, w.Y)
    assert m.equal(w.a, 2) is m.eq(w.a, 2)
    assert m.equal(3, w.a) is m.eq(w.a, 3)
    assert m.equal(w.a, 7) is m.FALSE
    assert m.equal(w.a, w.b) is m.same(w.a, w.b)
    assert m.equal(m.add(w.a, 1), w.b) is m.compare("=", m.add(w.a, 1), w.b)


def test_same(w):
    m = w.m
    d = m.new_var("d", (), (7, 8))
    assert m.same(w.a, w.a) is m.TRUE
    assert m.same(w.a, d) is m.FALSE
    node = m.same(w.a, w.c)
    assert node.kind == "same"
    assert m.compare("=", w.a, w.c) is node
    assert m.compare("!=", w.c, w.a) is m.not_(node)
    sym1 = m.new_var("s", (1,), ("red", "blue"))
    sym2 = m.new_var("s", (2,), ("blue", "green"))
    assert m.equal(sym1, sym2).kind == "same"
    assert m.equal(sym1, "green") is m.FALSE
    assert m.equal(sym2, "green") is m.eq(sym2, "green")


# ---------------------------------------------------------------- distinct

def test_distinct_constants(w):
    m = w.m
    assert m.distinct([1, 2, 3]) is m.TRUE
    assert m.distinct([1, 2, 1]) is m.FALSE
    assert m.distinct([w.a, 2, 2]) is m.FALSE
    assert m.distinct([]) is m.TRUE


def test_distinct_terms_and_constants(w):
    m, a, b = w.m, w.a, w.b
    node = m.distinct([a, b])
    assert node.kind == "distinct" and node.args == (a, b)
    assert m.distinct([a, b]) is node
    assert m.distinct([a, 3]) is m.not_(m.eq(a, 3))
    mixed = m.distinct([a, 2, b])
    assert mixed is m.and_([m.not_(m.eq(a, 2)), m.not_(m.eq(b, 2)), node])


# ---------------------------------------------------------------- cases / select / mul

def test_cases_merging_and_folding(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.cases([(X, 4), (m.not_(X), 4)]) == 4
    assert m.cases([(m.FALSE, 1), (X, 2)]) == 2
    t = m.cases([(m.and_([X, Y]), 1), (m.and_([X, m.not_(Y)]), 2), (m.not_(X), 1)])
    assert type(t) is Cases
    assert dict((v, c) for c, v in t.pairs) == {
        1: m.or_([m.and_([X, Y]), m.not_(X)]), 2: m.and_([X, m.not_(Y)])}
    assert t.domain == (1, 2) and t.numeric
    again = m.cases([(m.and_([X, Y]), 1), (m.and_([X, m.not_(Y)]), 2), (m.not_(X), 1)])
    assert again is t
    sym = m.cases([(X, "red"), (m.not_(X), "blue")])
    assert not sym.numeric


def test_fd_pairs(w):
    m = w.m
    assert m.fd_pairs(w.a) == [(m.eq(w.a, v), v) for v in (1, 2, 3)]
    t = m.select(w.X, 1, 2)
    assert m.fd_pairs(t) is t.pairs


def test_select(w):
    m, X, Y = w.m, w.X, w.Y
    assert m.select(m.TRUE, w.a, 5) is w.a
    assert m.select(m.FALSE, w.a, 5) == 5
    assert m.select(X, Y, m.FALSE) is m.ite(X, Y, m.FALSE)
    t = m.select(X, 1, 2)
    assert type(t) is Cases and dict((v, c) for c, v in t.pairs) == {1: X, 2: m.not_(X)}
    u = m.select(X, w.a, 5)
    assert set(u.domain) == {1, 2, 3, 5}
    assert dict((v, c) for c, v in u.pairs)[5] is m.not_(X)
    same = m.select(X, 3, 3)
    assert same == 3


def test_select_meaning():
    w = World()
    m = w.m
    cases = [
        (w.X, w.a, 5, lambda a: a[w.a] if a[w.x] else 5),
        (m.eq(w.b, 2), w.a, w.c, lambda a: a[w.a] if a[w.b] == 2 else a[w.c]),
        (w.Y, w.lin((2, w.a), const=1), w.c, lambda a: 2 * a[w.a] + 1 if a[w.y] else a[w.c]),
        (m.or_([w.X, w.Z]), w.lin((1, w.a), (1, w.b)), -1,
         lambda a: a[w.a] + a[w.b] if a[w.x] or a[w.z] else -1),
    ]
    for cond, then, other, fn in cases:
        t = m.select(cond, then, other)
        for a in w.assignments():
            assert ir_value(t, a) == fn(a)


def test_mul_by_constants(w):
    m = w.m
    e = m.mul(3, w.lin((1, w.a), (-1, w.X), const=2))
    assert e.terms == {w.a: 3, w.X: -3} and e.const == 6
    z = m.mul(w.a, 0)
    assert z.terms == {} and z.const == 0
    assert m.mul(4, 5).const == 20 and m.mul(4, 5).terms == {}


def test_mul_of_two_bools_is_and(w):
    m = w.m
    e = m.mul(w.X, w.Y)
    assert e.terms == {m.and_([w.X, w.Y]): 1} and e.const == 0


def test_mul_of_variables_is_a_product_term(w):
    m = w.m
    e = m.mul(w.a, w.b)
    assert e.const == 0 and len(e.terms) == 1
    (t, coef), = e.terms.items()
    assert coef == 1 and type(t) is Cases
    assert sorted(t.domain) == [1, 2, 3, 4, 6, 9]
    # a product term is shared
    assert m.mul(w.a, w.b).terms.keys() == e.terms.keys()


def test_mul_meaning():
    w = World()
    m = w.m
    exprs = [
        (m.mul(w.a, w.b), lambda a: a[w.a] * a[w.b]),
        (m.mul(w.X, w.c), lambda a: a[w.x] * a[w.c]),
        (m.mul(w.lin((1, w.a), const=1), w.lin((1, w.c), (-1, w.Y))),
         lambda a: (a[w.a] + 1) * (a[w.c] - a[w.y])),
        (m.mul(w.a, w.a), lambda a: a[w.a] ** 2),
        (m.mul(w.lin((2, w.X), const=-1), w.lin((1, w.Y), (3, w.b))),
         lambda a: (2 * a[w.x] - 1) * (a[w.y] + 3 * a[w.b])),
    ]
    for e, fn in exprs:
        for a in w.assignments():
            assert ir_value(e, a) == fn(a)


def test_add_and_scale(w):
    m = w.m
    e = m.add(w.lin((1, w.a), (2, w.X), const=1), w.lin((1, w.a), (-2, w.X), const=3))
    assert e.terms == {w.a: 2} and e.const == 4
    d = m.add(w.a, w.a, -1)
    assert d.terms == {} and d.const == 0
    s = m.scale(w.lin((1, w.a), const=2), -2)
    assert s.terms == {w.a: -2} and s.const == -4
    # lin() copies: changing the result leaves the argument alone
    base = w.lin((1, w.a))
    copy = m.lin(base)
    copy.terms[w.b] = 1
    assert w.b not in base.terms
    assert m.lin(m.TRUE).const == 1 and m.lin(m.FALSE).const == 0
    with pytest.raises(TypeError):
        m.lin("red")


def test_stats_counts_interned_nodes(w):
    m = w.m
    before = m.stats()
    m.and_([w.X, w.Y])
    m.and_([w.Y, w.X])
    after = m.stats()
    assert after["vars"] == before["vars"] == 6
    assert after["nodes"] == before["nodes"] + 1


# ---------------------------------------------------------------- connected

def test_connected_drops_unchosen_elements(w):
    m = w.m
    elems = ["p", "q", "r", "s"]
    adj = {"p": ("q",), "q": ("p", "r"), "r": ("q", "s"), "s": ("r",)}
    node = m.connected(elems, [w.X, False, True, m.FALSE], adj)
    # q and s can never be chosen: p and r remain, and no longer touch
    assert node.kind == "connected"
    kept, sel, near, roots = node.args
    assert kept == ("p", "r")
    assert sel == (w.X, m.TRUE)
    assert near == ((), ())
    assert roots is None
    assert m.connected(elems, [w.X, w.Y, True, w.Z], adj) is \
        m.connected(elems, [w.X, w.Y, True, w.Z], adj)
    assert m.connected(elems, [w.X, w.Y, True, w.Z], adj).args[2] == ((1,), (0, 2), (1, 3), (2,))


def test_connected_with_roots_keeps_chosen_and_root_per_element(w):
    m = w.m
    elems = ["p", "q", "r"]
    adj = {"p": ("q",), "q": ("p", "r"), "r": ("q",)}
    node = m.connected(elems, [w.X, False, True], adj, [w.Y, True, False])
    kept, sel, near, roots = node.args
    assert kept == ("p", "r") and sel == (w.X, m.TRUE) and near == ((), ())
    # p: chosen and a root; r: always chosen, never a root
    assert roots == (m.and_([w.X, w.Y]), m.FALSE)
    # every element always a chosen root: nothing to ask
    assert m.connected(elems, [True, True, False], adj, [True, True, w.Z]) is m.TRUE
    # one candidate: chosen only as a root
    one = m.connected(elems, [w.X, False, False], adj, [w.Y, False, False])
    assert one is m.or_([m.not_(w.X), m.and_([w.X, w.Y])])
    # nothing can be chosen
    assert m.connected(elems, [False, False, False], adj, [w.Y, w.Y, w.Y]) is m.TRUE


def test_connected_with_at_most_one_candidate_is_true(w):
    m = w.m
    adj = {"p": ("q",), "q": ("p",)}
    assert m.connected(["p", "q"], [False, w.X], adj) is m.TRUE
    assert m.connected(["p", "q"], [m.FALSE, m.FALSE], adj) is m.TRUE
    assert m.connected([], [], {}) is m.TRUE
