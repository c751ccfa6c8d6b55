"""Grounding (pzc.encoder.ground + evaluate): spec + instance -> Model.

Specs are written here; the expected ground formulas are built with the Model's
own constructors, and since formulas are hash-consed the tests compare with
``is``.
"""

from __future__ import annotations

import json
import random
import textwrap

import pytest

import generators as gen
from pzc import api
from pzc.encoder import check as check_stage
from pzc.encoder import syntax
from pzc.encoder.ground import board_option, ground
from pzc.encoder.instance import read_instances
from pzc.encoder.model import LinExpr
from pzc.runtime.errors import PzcError, Source


def make_spec(text: str, path: str = "test.pz"):
    spec = syntax.parse(textwrap.dedent(text).lstrip(), path)
    check_stage.check(spec)
    return spec


def make_instances(spec, text: str, name: str = "inst.txt"):
    opt = board_option(spec, "blank")
    blank = opt.value.value if opt is not None else "."
    lines = board_option(spec, "lines") is not None
    return read_instances(Source(name, text), spec.board.kind, blank=blank, lines=lines)


def ground_text(spec_text, inst_text, name="inst.txt"):
    spec = make_spec(spec_text)
    inst, = make_instances(spec, inst_text, name)
    return ground(spec, inst)


def rules(g):
    return {rule.name: node for rule, node in g.model.constraints}


def implied(g):
    return {rule.name: node for rule, node in g.model.implied}


def var(g, name, *key):
    return g.model.spec_vars[name][key]


def total(m, atoms, const=0):
    e = LinExpr({}, const)
    for a in atoms:
        e = m.add(e, a)
    return e


BOOLS = """
puzzle t
board square
var x[c in cells] : bool
var v[c in cells] : 1..3
show v
"""


# ---------------------------------------------------------------- variables

def test_variables_are_created_per_index():
    g = ground_text(BOOLS, "..\n..\n..\n")
    m = g.model
    cells = [(r, c) for r in range(3) for c in range(2)]
    assert set(m.spec_vars) == {"x", "v"}
    assert sorted(m.spec_vars["x"]) == [(c,) for c in cells]
    assert all(var(g, "x", c).domain is None for c in cells)
    assert all(var(g, "v", c).domain == (1, 2, 3) for c in cells)
    assert len(m.vars) == 12
    assert var(g, "v", (2, 1)).label() == "v[(2, 1)]"
    assert g.model.constraints == []


def test_multi_index_variables_and_domains_from_the_instance():
    g = ground_text("""
        puzzle t
        board square
        var e[r in 0..height - 1, k in 0..width - 1 where (r + k) % 2 = 0] : 0..r + k
        var flag : bool
        show c: row(c)
        rule r: flag
        """, "...\n...\n")
    table = g.model.spec_vars["e"]
    assert sorted(table) == [(0, 0), (0, 2), (1, 1)]
    assert table[(0, 0)].domain == (0,)
    assert table[(1, 1)].domain == (0, 1, 2)
    assert table[(0, 2)].domain == (0, 1, 2)
    flag = g.model.spec_vars["flag"][()]
    assert rules(g)["r"] is g.model.bvar(flag)


# ---------------------------------------------------------------- quantifiers

def test_all_unrolls_to_one_conjunct_per_row():
    g = ground_text(BOOLS + "rule rows: all r in rows: count(c in r: x[c]) = 1\n", "...\n...\n")
    m = g.model
    expected = m.and_([
        m.compare("=", total(m, [m.bvar(var(g, "x", (r, c))) for c in range(3)]), 1)
        for r in range(2)])
    node = rules(g)["rows"]
    assert node is expected
    assert node.kind == "and" and len(node.args) == 2
    assert all(a.kind == "lin" and a.args[1:] == ("=", 1) for a in node.args)


def test_any_unrolls_to_a_disjunction_and_nested_binders_to_the_product():
    g = ground_text(BOOLS + """
        rule some: any c in cells: x[c]
        rule pairs: all r in rows, c in r, d in r where col(c) < col(d): not (x[c] and x[d])
        rule tuples: all (a, b) in [(0, 1), (1, 2)]: v[(0, a)] != v[(0, b)]
        """, "...\n...\n")
    m = g.model
    X = {c: m.bvar(var(g, "x", c)) for c in g.instance.geometry.cells}
    V = {c: var(g, "v", c) for c in g.instance.geometry.cells}
    r = rules(g)
    assert r["some"] is m.or_(list(X.values()))
    want = m.and_([m.or_([m.not_(X[(row, i)]), m.not_(X[(row, j)])])
                   for row in range(2) for i in range(3) for j in range(3) if i < j])
    assert r["pairs"] is want
    assert len(r["pairs"].args) == 6
    assert r["tuples"] is m.and_([m.not_(m.same(V[(0, 0)], V[(0, 1)])),
                                  m.not_(m.same(V[(0, 1)], V[(0, 2)]))])


def test_quantifier_over_an_empty_set():
    g = ground_text(BOOLS + """
        rule none: all c in cells where row(c) > 5: x[c]
        rule nothing: any c in cells where row(c) > 5: x[c]
        """, "..\n")
    m = g.model
    assert rules(g)["none"] is m.TRUE
    assert rules(g)["nothing"] is m.FALSE


# ---------------------------------------------------------------- constant folding

GIVENS = BOOLS + "rule givens: all c in cells: given(c) -> v[c] = clue(c)\n"


def test_implication_on_blank_cells_vanishes():
    g = ground_text(GIVENS, ".2.\n..3\n")
    m = g.model
    assert rules(g)["givens"] is m.and_([m.eq(var(g, "v", (0, 1)), 2),
                                         m.eq(var(g, "v", (1, 2)), 3)])
    blank = ground_text(GIVENS, "...\n...\n")
    assert rules(blank)["givens"] is blank.model.TRUE


def test_a_clue_outside_the_domain_makes_the_rule_false():
    g = ground_text(GIVENS, ".7\n")
    assert rules(g)["givens"] is g.model.FALSE


def test_constant_parts_fold_away():
    g = ground_text(BOOLS + """
        let k = count(c in cells: given(c))
        rule a: all c in cells: x[c] or k = 2
        rule b: all c in cells: x[c] and k = 3
        rule c: all c in cells where given(c): v[c] + k - 1 = clue(c)
        rule d: count(c in cells: given(c) and x[c]) = sum(c in cells where given(c): clue(c)) - 2
        rule e: all c in cells: (if given(c) then clue(c) else 3) >= 2 -> x[c]
        """, "2.\n.1\n")
    m = g.model
    r = rules(g)
    X = lambda c: m.bvar(var(g, "x", c))
    V = lambda c: var(g, "v", c)
    assert r["a"] is m.TRUE
    assert r["b"] is m.FALSE
    # v + 2 - 1 = clue  ->  v = clue - 1: 1 at (0, 0), but 0 at (1, 1) is outside 1..3
    assert r["c"] is m.FALSE
    assert r["d"] is m.compare("=", total(m, [X((0, 0)), X((1, 1))]), 1)
    # (1, 1) has clue 1 < 2: no constraint there
    assert r["e"] is m.and_([X((0, 0)), X((0, 1)), X((1, 0))])
    g2 = ground_text(BOOLS + "rule c: all c in cells where given(c): v[c] + 1 = clue(c)\n",
                     "3.\n.2\n")
    m2 = g2.model
    assert rules(g2)["c"] is m2.and_([m2.eq(var(g2, "v", (0, 0)), 2),
                                      m2.eq(var(g2, "v", (1, 1)), 1)])


def test_let_values_fold_and_are_computed_once():
    g = ground_text(BOOLS + """
        let n = width * height
        let big = n > 4
        rule r: all c in cells: big -> x[c]
        """, "..\n..\n")
    assert rules(g)["r"] is g.model.TRUE
    assert g.interpreter._let_values == {"n": 4, "big": False}


# ---------------------------------------------------------------- symbolic filters

def test_symbolic_where_in_all_any_count_and_sum():
    g = ground_text(BOOLS + """
        rule alls: all c in cells where x[c]: v[c] = 2
        rule anys: any c in cells where x[c]: v[c] = 3
        rule counts: count(c in cells where x[c]: v[c] = 1) <= 1
        rule sums: sum(c in cells where x[c]: v[c]) = 4
        """, "..\n")
    m = g.model
    cells = [(0, 0), (0, 1)]
    X = {c: m.bvar(var(g, "x", c)) for c in cells}
    V = {c: var(g, "v", c) for c in cells}
    r = rules(g)
    assert r["alls"] is m.and_([m.implies(X[c], m.eq(V[c], 2)) for c in cells])
    assert r["anys"] is m.or_([m.and_([X[c], m.eq(V[c], 3)]) for c in cells])
    assert r["counts"] is m.compare("<=", total(m, [m.and_([X[c], m.eq(V[c], 1)]) for c in cells]), 1)
    assert r["sums"] is m.compare("=", total(m, [m.select(X[c], V[c], 0) for c in cells]), 4)


def test_symbolic_where_with_a_constant_part():
    g = ground_text(BOOLS + "rule r: all c in cells where given(c) and x[c]: v[c] = clue(c)\n", "3.\n")
    m = g.model
    x, v = m.bvar(var(g, "x", (0, 0))), var(g, "v", (0, 0))
    assert rules(g)["r"] is m.implies(x, m.eq(v, 3))


def test_where_on_a_variable_index_set_is_an_error():
    with pytest.raises(PzcError) as e:
        ground_text("""
            puzzle t
            board square
            var x[c in cells] : bool
            var y[c in cells where x[c]] : bool
            show y
            """, "..\n")
    assert e.value.message == "the index set of a variable must not depend on variables"
    assert (e.value.file, e.value.line) == ("test.pz", 4)


@pytest.mark.parametrize("expr,message", [
    ("count(d in [c for c in cells where x[c]]: true) >= 0",
     "the filter of a list or set must not depend on variables"),
    ("min(c in cells where x[c]: row(c)) = 0",
     "min over a filter that depends on variables"),
    ("distinct(v[c] for c in cells where x[c])",
     "distinct over a filter that depends on variables"),
])
def test_symbolic_filter_where_a_constant_is_needed(expr, message):
    with pytest.raises(PzcError) as e:
        ground_text(BOOLS + f"rule r: {expr}\n", "..\n")
    assert e.value.message == message
    assert e.value.line == 6


# ---------------------------------------------------------------- let functions

def test_let_functions_are_memoized_per_argument():
    g = ground_text(BOOLS + """
        let full(c) = x[c] and v[c] != 1
        let weight(c) = if given(c) then clue(c) else row(c) + 1
        rule a: all c in cells: full(c) -> count(d in neighbours(c): full(d)) >= 1
        rule b: sum(c in cells: weight(c)) = 6
        """, "2.\n..\n")
    m = g.model
    memo = g.interpreter._memo
    cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for c in cells:
        assert memo[("full", (c,))] is m.and_([m.bvar(var(g, "x", c)),
                                               m.not_(m.eq(var(g, "v", c), 1))])
    assert {k[1][0]: v for k, v in memo.items() if k[0] == "weight"} == {
        (0, 0): 2, (0, 1): 1, (1, 0): 2, (1, 1): 2}
    assert rules(g)["b"] is m.FALSE       # 2 + 1 + 2 + 2 = 7


def test_let_functions_of_symbolic_arguments_are_not_memoized():
    g = ground_text(BOOLS + """
        let double(a) = a + a
        rule r: all c in cells: double(v[c]) = 4
        """, "..\n")
    m = g.model
    assert g.interpreter._memo == {}
    assert rules(g)["r"] is m.and_([m.eq(var(g, "v", c), 2) for c in [(0, 0), (0, 1)]])


def test_runaway_recursion_is_reported():
    with pytest.raises(PzcError) as e:
        ground_text(BOOLS + """
            let f(k) = f(k + 1)
            rule r: f(0) = 1
            """, "..\n")
    assert e.value.message == ("functions call each other too deeply (more than 10,000 "
                               "calls inside each other)")
    assert (e.value.line, e.value.column) == (7, 24)   # the inner call f(k + 1)


def test_recursive_let_function_terminates():
    g = ground_text(BOOLS + """
        let fact(k) = if k <= 1 then 1 else k * fact(k - 1)
        rule r: all c in cells: v[c] * fact(3) = 12
        """, "..\n")
    m = g.model
    assert rules(g)["r"] is m.and_([m.eq(var(g, "v", c), 2) for c in [(0, 0), (0, 1)]])


# ---------------------------------------------------------------- JSON boards

JSON_SPEC = """
puzzle grid
board json
let cells = {(b[0], b[1]) for b in input.board}
let start(c) = [b[2] for b in input.board where (b[0], b[1]) = c][0]
var x[c in cells] : 0..2
show x
rule starts: all c in cells where start(c) >= 0: x[c] = start(c)
rule rows: all r in rows: distinct(x[c] for c in r)
rule total: sum(c in cells: x[c]) = input.total
"""


def test_json_board_cells_rows_and_fields():
    spec = make_spec(JSON_SPEC)
    data = {"board": [[0, 0, -1], [0, 2, 1], [1, 1, -1], [2, 0, -1], [2, 2, 0]], "total": 4}
    inst, = make_instances(spec, json.dumps(data), "grid.json")
    g = ground(spec, inst)
    m = g.model
    geom = g.interpreter.geometry
    assert geom.cells == ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2))
    assert (geom.width, geom.height) == (3, 3)
    assert geom.rows() == (((0, 0), (0, 2)), ((1, 1),), ((2, 0), (2, 2)))
    assert sorted(m.spec_vars["x"]) == [(c,) for c in geom.cells]
    X = {c: var(g, "x", c) for c in geom.cells}
    r = rules(g)
    assert r["starts"] is m.and_([m.eq(X[(0, 2)], 1), m.eq(X[(2, 2)], 0)])
    assert r["rows"] is m.and_([m.distinct([X[(0, 0)], X[(0, 2)]]),
                                m.distinct([X[(2, 0)], X[(2, 2)]])])
    assert r["total"] is m.compare("=", total(m, list(X.values())), 4)
    res = api.solve(spec, inst)
    assert res.status == "solved" and res.verified
    assert _grid_ok(res.grid, data)


def _grid_ok(rows, data):
    cells = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}
    if set(cells) != {(b[0], b[1]) for b in data["board"]}:
        return False
    if any(b[2] >= 0 and cells[(b[0], b[1])] != b[2] for b in data["board"]):
        return False
    for r in range(3):
        vals = [v for (rr, _), v in cells.items() if rr == r]
        if len(vals) != len(set(vals)):
            return False
    return sum(cells.values()) == data["total"]


def test_json_board_solutions_are_checked_independently():
    spec = make_spec(JSON_SPEC)
    rng = random.Random(3)
    seen = set()
    for k in range(10):
        cells = sorted(rng.sample([(r, c) for r in range(3) for c in range(3)], 5))
        data = {"board": [[r, c, -1] for r, c in cells], "total": rng.randrange(0, 12)}
        inst, = make_instances(spec, json.dumps(data), f"g{k}.json")
        res = api.solve(spec, inst)
        # distinct values 0..2 in a row: one cell sums to 0..2, two to 1..3, three to 3
        rows = {}
        for r, _ in cells:
            rows[r] = rows.get(r, 0) + 1
        low = sum({1: 0, 2: 1, 3: 3}[n] for n in rows.values())
        high = sum({1: 2, 2: 3, 3: 3}[n] for n in rows.values())
        assert res.status == ("solved" if low <= data["total"] <= high else "unsat"), data
        if res.status == "solved":
            assert res.verified and _grid_ok(res.grid, data)
        smt = api.solve(spec, inst, backend="smt")
        assert smt.status == res.status
        seen.add(res.status)
    assert seen == {"solved", "unsat"}


def test_json_board_needs_let_cells():
    spec = make_spec("""
        puzzle p
        board json
        var x[c in cells] : bool
        show x
        """)
    inst, = make_instances(spec, '{"board": []}', "p.json")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    assert e.value.message == ("a json board needs 'let cells = ...', the set of (row, column) "
                               "cells read from the instance")
    assert (e.value.file, e.value.line) == ("test.pz", 2)


@pytest.mark.parametrize("data,message", [
    ({"board": []}, "this instance has no cells"),
    ({"board": [[0, -1]]}, "cells must be a set of (row, column) pairs of non-negative ints"),
    ({"board": [[0, "a"]]}, "cells must be a set of (row, column) pairs of non-negative ints"),
])
def test_json_board_bad_cells(data, message):
    spec = make_spec("""
        puzzle p
        board json
        let cells = {(b[0], b[1]) for b in input.board}
        var x[c in cells] : bool
        show x
        """)
    inst, = make_instances(spec, json.dumps(data), "p.json")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    assert e.value.message == message
    assert (e.value.file, e.value.line, e.value.column) == ("test.pz", 3, 13)


def test_a_field_missing_from_the_instance_is_an_instance_error():
    # the instance lacks what the spec reads: the error names the instance file
    # and says where the spec reads the field
    spec = make_spec(JSON_SPEC)
    inst, = make_instances(spec, json.dumps({"board": [[0, 0, -1]]}), "g.json")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    assert e.value.message == ("the JSON object has no field 'total' (fields: board); "
                               "grid reads it at test.pz:9")
    assert (e.value.file, e.value.line) == ("g.json", 1)


# ---------------------------------------------------------------- clues option

def test_clues_option_rejects_a_symbol_at_its_position():
    spec = api.load_spec("sudoku")
    rows, _ = gen.sudoku_puzzle(2, 0.5, random.Random(1))
    rows[2] = rows[2][:1] + "X" + rows[2][2:]
    inst, = make_instances(spec, "\n".join(rows) + "\n", "bad.txt")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    err = e.value
    assert err.message == "'X' is not allowed in a sudoku instance (clues are 1..4)"
    assert (err.file, err.line, err.column) == ("bad.txt", 3, 2)
    assert err.source_line == rows[2]
    res = api.solve(spec, inst)
    assert res.status == "error" and res.exit_code == 2 and res.error.line == 3


def test_clues_option_rejects_an_out_of_range_number():
    spec = api.load_spec("sudoku")
    text = "# a comment\n12..\n..5.\n....\n....\n"
    inst, = make_instances(spec, text, "five.txt")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    assert e.value.message == "'5' is not allowed in a sudoku instance (clues are 1..4)"
    assert (e.value.line, e.value.column) == (3, 3)


def test_clues_option_with_a_set_and_a_token_grid():
    spec = make_spec("""
        puzzle colours
        board square(clues: {"r", "g", 0})
        var x[c in cells] : bool
        show x
        """)
    ok, = make_instances(spec, "r . 0\ng g .\n", "ok.txt")
    ground(spec, ok)
    bad, = make_instances(spec, "r . 0\ng b .\n", "bad.txt")
    with pytest.raises(PzcError) as e:
        ground(spec, bad)
    assert e.value.message == "'b' is not allowed in a colours instance (clues are 'r', 'g', 0)"
    assert (e.value.line, e.value.column) == (2, 3)


# ---------------------------------------------------------------- require

def test_require_message_rejects_the_instance():
    spec = api.load_spec("sudoku")
    inst, = make_instances(spec, "\n".join(["......"] * 6) + "\n", "six.txt")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    assert e.value.message == "a Sudoku board is n x n with n a square (4, 9, 16, 25)"
    assert (e.value.file, e.value.line, e.value.column) == ("six.txt", 1, 1)
    res = api.solve(spec, inst)
    assert res.status == "error" and res.exit_code == 2


def test_require_is_checked_before_the_clues_and_variables():
    spec = make_spec(BOOLS + """
        require width = height
        require count(c in cells: given(c)) <= 1 else "at most one clue"
        rule r: all c in cells: x[c]
        """)
    square, = make_instances(spec, "1.\n..\n")
    assert rules(ground(spec, square))["r"].kind == "and"
    wide, = make_instances(spec, "\n\n...\n...\n", "wide.txt")
    with pytest.raises(PzcError) as e:
        ground(spec, wide)
    assert e.value.message == "this instance does not meet the requirement on line 7 of the t spec"
    assert (e.value.file, e.value.line) == ("wide.txt", 3)
    two, = make_instances(spec, "1.\n.2\n")
    with pytest.raises(PzcError) as e:
        ground(spec, two)
    assert e.value.message == "at most one clue"


def test_puzlogic_require_more_pieces_than_cells():
    spec = api.load_spec("puzlogic")
    data = {"board": [[0, 0, -1], [0, 1, 2]], "pieces": [1, 3]}
    inst, = make_instances(spec, json.dumps(data), "p.json")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    assert e.value.message == "there are more pieces than empty cells"
    assert e.value.file == "p.json"


# ---------------------------------------------------------------- ground-time errors

@pytest.mark.parametrize("rule,message,column", [
    ("all c in cells: v[(row(c) + 1, col(c))] != 2",
     "'v' has no element [(2, 0)] on this instance", 27),
    ("all c in cells: clue(c) = 1", "cell (0, 1) has no clue; test given(c) first", 27),
    # a binary operation is placed at its operator
    ("all c in cells: v[c] / 0 = 1", "division by zero", 32),
    ("all c in cells: x[c] -> v[c] = [1, 2][col(c) + 1]",
     "index 2 is out of range for a list of 2", 56),
    ("sum(c in cells: v[c] * v[c] / v[c]) = 3",
     "'/' needs a constant divisor and a single variable or constant", 39),
    ("all c in cells: neighbours((5, 5)) = []",
     "expected a cell of the board, but this is (5, 5)", 38),
])
def test_ground_time_errors_carry_spec_positions(rule, message, column):
    spec = make_spec(BOOLS + f"rule bad: {rule}\n", "errors.pz")
    inst, = make_instances(spec, "1.\n..\n")
    with pytest.raises(PzcError) as e:
        ground(spec, inst)
    err = e.value
    assert err.message == message
    assert (err.file, err.line, err.column) == ("errors.pz", 6, column)
    assert err.source_line == f"rule bad: {rule}"
    assert err.format().splitlines()[0] == f"errors.pz:6:{column}: error: {message}"


def test_empty_index_set_and_empty_domain_are_reported():
    with pytest.raises(PzcError) as e:
        ground_text("""
            puzzle t
            board square
            var y[c in cells where given(c)] : bool
            show c: 0
            """, "..\n")
    assert e.value.message == "'y' has no elements on this instance (its index set is empty)"
    assert e.value.line == 3
    with pytest.raises(PzcError) as e:
        ground_text("""
            puzzle t
            board square
            var y[c in cells] : 1..width - 3
            show y
            """, "..\n")
    assert e.value.message == "the domain of 'y' is empty on this instance"
    assert (e.value.line, e.value.column) == (3, 21)


# ---------------------------------------------------------------- built-in specs

def test_hexiom_ground_shapes():
    """Grounding Hexiom: one tile variable per cell, locked cells fixed, one
    var = count constraint per cell under the full(c) guard."""
    spec = api.load_spec("hexiom")
    text = gen.hexiom_level(2, 0.6, 2, random.Random(4))
    inst, = make_instances(spec, text, "h.txt")
    g = ground(spec, inst)
    m = g.model
    cells = gen.hex_cells(2)
    assert sorted(m.spec_vars["tile"]) == sorted((c,) for c in cells)
    assert all(var(g, "tile", c).domain == (-1, 0, 1, 2, 3, 4, 5, 6) for c in cells)
    numbers = rules(g)["numbers"]
    assert numbers.kind == "and" and len(numbers.args) == len(cells)
    for c in cells:
        t = var(g, "tile", c)
        full = m.not_(m.eq(t, -1))
        count = total(m, [full_d for full_d in (m.not_(m.eq(var(g, "tile", d), -1))
                                                for d in sorted(gen.hex_neighbours(2, c)))])
        assert m.implies(full, m.compare("=", t, count)) in numbers.args
    locked = rules(g)["locked"]
    want = [m.eq(var(g, "tile", c), inst.clues.get(c, -1)) for c in cells if c in inst.locked]
    assert locked is m.and_(want)
    assert set(implied(g)) == {"filled", "pairs"}


def test_membership_of_int_expressions_and_variables():
    g = ground_text(BOOLS + """
        rule deg: all c in cells: count(d in neighbours(c): x[d]) in {0, 2}
        rule val: all c in cells: v[c] not in [2, 9]
        """, "..\n")
    m = g.model
    X = {c: m.bvar(var(g, "x", c)) for c in [(0, 0), (0, 1)]}
    V = {c: var(g, "v", c) for c in [(0, 0), (0, 1)]}
    r = rules(g)
    # each cell has one neighbour: a count of 0 or 2 means 'not x' of the other cell
    assert r["deg"] is m.and_([m.not_(X[(0, 1)]), m.not_(X[(0, 0)])])
    assert r["val"] is m.and_([m.not_(m.eq(V[c], 2)) for c in V])
    g3 = ground_text(BOOLS + "rule deg: count(c in cells: x[c]) in {0, 2}\n", "...\n")
    m3 = g3.model
    s = total(m3, [m3.bvar(var(g3, "x", (0, k))) for k in range(3)])
    assert rules(g3)["deg"] is m3.or_([m3.compare("=", s, 0), m3.compare("=", s, 2)])
