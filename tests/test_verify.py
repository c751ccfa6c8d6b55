"""The verifier (pzc.encoder.verify): it re-reads the rules with the answer's
values and no solver.  Correct answers pass; a corrupted value is reported with
the rule that breaks; implied rules are skipped; domain violations are reported.
"""

from __future__ import annotations

import copy
import json
import random
import textwrap
from importlib import resources

import pytest

import generators as gen
from pzc import api
from pzc.backends import get_backend
from pzc.backends import sat as sat_backend
from pzc.encoder import check as check_stage
from pzc.encoder import render as render_stage
from pzc.encoder import syntax
from pzc.encoder import verify as verify_stage
from pzc.encoder.decode import Answer, decode
from pzc.encoder.interpreter.evaluate import Interpreter
from pzc.encoder.ground import board_option, ground
from pzc.encoder.instance import read_instances
from pzc.encoder.verify import verify
from pzc.runtime.errors import PzcError, Source



# the line of each rule of the built-in Sudoku spec
LINE = {st.name: st.pos[0] for st in api.load_spec("sudoku").rules}

def instance(spec, text, name="inst.txt"):
    opt = board_option(spec, "blank")
    blank = opt.value.value if opt is not None else "."
    lines = board_option(spec, "lines") is not None
    inst, = read_instances(Source(name, text), spec.board.kind, blank=blank, lines=lines)
    return inst


def solved(spec, inst, backend="sat"):
    g = ground(spec, inst)
    out = get_backend(backend).solve(g)
    assert out.status == "sat"
    return decode(g, out.assignment)


def changed(answer, name, key, value):
    values = copy.deepcopy(answer.values)
    values[name][key] = value
    return Answer(values)


@pytest.fixture(scope="module")
def sudoku4():
    spec = api.load_spec("sudoku")
    rows, sol = gen.sudoku_puzzle(2, 0.4, random.Random(10))
    inst = instance(spec, "\n".join(rows) + "\n")
    return spec, inst, rows, solved(spec, inst)


# ---------------------------------------------------------------- correct answers

def test_a_solved_sudoku_verifies(sudoku4):
    spec, inst, rows, answer = sudoku4
    assert verify(spec, inst, answer) == []
    grid = [[answer.values["v"][((r, c),)] for c in range(4)] for r in range(4)]
    assert gen.sudoku_valid(["".join(map(str, row)) for row in grid], rows)


def test_the_expected_solution_verifies_when_built_by_hand(sudoku4):
    spec, inst, rows, _ = sudoku4
    _, sol = gen.sudoku_puzzle(2, 0.4, random.Random(10))
    answer = Answer({"v": {((r, c),): sol[r][c] for r in range(4) for c in range(4)}})
    assert verify(spec, inst, answer) == []


@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_hexiom_and_puzlogic_answers_verify(backend):
    hexiom = api.load_spec("hexiom")
    text = gen.hexiom_level(3, 0.5, 3, random.Random(21))
    inst = instance(hexiom, text)
    assert verify(hexiom, inst, solved(hexiom, inst, backend)) == []
    puz = api.load_spec("puzlogic")
    level = gen.puzlogic_level(4, 4, 1, random.Random(22))
    inst = instance(puz, gen.dumps(level), "p.json")
    assert verify(puz, inst, solved(puz, inst, backend)) == []


# ---------------------------------------------------------------- broken answers

def _first_blank(rows):
    return next((r, c) for r in range(len(rows)) for c in range(len(rows)) if rows[r][c] == ".")


def test_one_wrong_cell_breaks_its_row_column_and_box(sudoku4):
    spec, inst, rows, answer = sudoku4
    r, c = _first_blank(rows)
    old = answer.values["v"][((r, c),)]
    new = old % 4 + 1
    problems = verify(spec, inst, changed(answer, "v", ((r, c),), new))
    row = tuple((r, k) for k in range(4))
    col = tuple((k, c) for k in range(4))
    br, bc = r // 2 * 2, c // 2 * 2
    box = tuple((br + i, bc + j) for i in range(2) for j in range(2))
    assert problems == [f"rule rows (line {LINE['rows']}) is broken at r = {row!r}",
                        f"rule columns (line {LINE['columns']}) is broken at k = {col!r}",
                        f"rule boxes (line {LINE['boxes']}) is broken at x = {box!r}"]


def test_a_changed_clue_breaks_the_givens(sudoku4):
    spec, inst, rows, answer = sudoku4
    r, c = next((r, c) for r in range(4) for c in range(4) if rows[r][c] != ".")
    # swap the clue cell with another cell of its row: rows still hold 1..4
    other = (r, (c + 1) % 4)
    values = copy.deepcopy(answer.values)
    v = values["v"]
    v[((r, c),)], v[(other,)] = v[(other,)], v[((r, c),)]
    problems = verify(spec, inst, Answer(values))
    assert problems[0] == f"rule givens (line {LINE['givens']}) is broken at c = {(r, c)!r}"
    assert not any(p.startswith("rule rows") for p in problems)
    assert any(p.startswith(f"rule columns (line {LINE['columns']}) is broken at k = ")
               for p in problems)


def hexiom_rule_line(name: str) -> int:
    """The line of `rule NAME:` in the built-in hexiom spec."""
    text = api.builtin_specs()["hexiom"].read_text()
    return next(n for n, line in enumerate(text.split("\n"), 1)
                if line.startswith(f"rule {name}:"))


def test_hexiom_wrong_number_is_reported_at_its_cell():
    spec = api.load_spec("hexiom")
    text = gen.hexiom_level(2, 0.7, 0, random.Random(0))
    inst = instance(spec, text)
    answer = solved(spec, inst)
    tiles = answer.values["tile"]
    # move a tile to an empty cell: the tile count holds, the numbers do not
    full = [k for k, t in tiles.items() if t != -1]
    empty = [k for k, t in tiles.items() if t == -1]
    assert full and empty
    src, dst = full[0], empty[0]
    values = copy.deepcopy(answer.values)
    values["tile"][dst], values["tile"][src] = values["tile"][src], -1
    problems = verify(spec, inst, Answer(values))
    assert len(problems) == 1
    assert problems[0].startswith(f"rule numbers (line {hexiom_rule_line('numbers')}) "
                                  "is broken at c = ")
    # the reported cell really is wrong, by the generator's independent count
    cell = eval(problems[0].rsplit("= ", 1)[1])
    t = {k[0]: v for k, v in values["tile"].items()}
    occupied = {c for c, v in t.items() if v != -1}
    assert t[cell] != -1
    assert t[cell] != sum(d in occupied for d in gen.hex_neighbours(2, cell))
    assert all(t[c] == sum(d in occupied for d in gen.hex_neighbours(2, c))
               for c in occupied if gen.hex_cells(2).index(c) < gen.hex_cells(2).index(cell))


def test_hexiom_changed_tile_breaks_the_tile_count():
    spec = api.load_spec("hexiom")
    text = gen.hexiom_level(2, 0.7, 0, random.Random(0))
    inst = instance(spec, text)
    answer = solved(spec, inst)
    key = next(k for k, t in answer.values["tile"].items() if t != -1)
    old = answer.values["tile"][key]
    problems = verify(spec, inst, changed(answer, "tile", key, (old + 1) % 7))
    assert problems[0] == (f"rule tiles (line {hexiom_rule_line('tiles')}) is broken at "
                           f"k = {min(old, (old + 1) % 7)}")
    assert problems[1].startswith(f"rule numbers (line {hexiom_rule_line('numbers')}) "
                                  "is broken at c = ")


def test_puzlogic_broken_pieces_rows_and_sums():
    spec = api.load_spec("puzlogic")
    level = {"board": [[0, 0, -1], [0, 1, 2], [1, 0, -1], [1, 1, -1]],
             "pieces": [1, 2, 3], "sum_constraints": [[1, 0, 5]]}
    inst = instance(spec, json.dumps(level), "p.json")
    answer = solved(spec, inst)
    assert verify(spec, inst, answer) == []
    put = answer.values["put"]
    assert gen.puzlogic_valid(level, [{"piece": v, "to": list(k[0])} for k, v in put.items()
                                      if v != -1])
    # the only solution: 3 at (0, 0), 2 at (1, 0), 1 at (1, 1)
    assert put == {((0, 0),): 3, ((1, 0),): 2, ((1, 1),): 1}
    # no piece at (0, 0): a piece is missing, and column 0 misses its sum
    problems = verify(spec, inst, changed(answer, "put", ((0, 0),), -1))
    assert problems == ["rule pieces (line 22) is broken at v = 3",
                        "rule sums (line 25) is broken at s = (1, 0, 5)"]
    # a second 2 in row 0 (cell (0, 1) holds a 2)
    problems = verify(spec, inst, changed(answer, "put", ((0, 0),), 2))
    assert "rule rows (line 23) is broken at r = ((0, 0), (0, 1)), v = 2" in problems


# ---------------------------------------------------------------- implied rules

SPEC = """
puzzle t
board square
var x[c in cells] : bool
show x
rule one: count(c in cells: x[c]) = 1
implied rule {kind}: all c in cells: x[c]
"""


def _spec(kind):
    spec = syntax.parse(textwrap.dedent(SPEC.format(kind=kind)), "t.pz")
    return check_stage.check(spec)


def test_implied_rules_are_not_checked():
    spec = _spec("every")
    inst = instance(spec, "..\n")
    answer = Answer({"x": {((0, 0),): True, ((0, 1),): False}})
    assert verify(spec, inst, answer) == []
    # the same rule, not implied, is checked
    strict = syntax.parse(textwrap.dedent(SPEC.format(kind="every")).replace("implied ", ""), "t.pz")
    check_stage.check(strict)
    assert verify(strict, inst, answer) == ["rule every (line 7) is broken at c = (0, 1)"]


def test_rule_that_is_not_a_quantifier_has_no_location():
    spec = _spec("every")
    inst = instance(spec, "..\n")
    answer = Answer({"x": {((0, 0),): True, ((0, 1),): True}})
    assert verify(spec, inst, answer) == ["rule one (line 6) is broken"]


# ---------------------------------------------------------------- domains

def test_domain_violations_are_reported(sudoku4):
    spec, inst, rows, answer = sudoku4
    r, c = _first_blank(rows)
    problems = verify(spec, inst, changed(answer, "v", ((r, c),), 7))
    # 7 is still distinct from the rest of its row, column and box
    assert problems == [f"v[{(r, c)!r}] = 7 is outside its domain"]
    problems = verify(spec, inst, changed(answer, "v", ((r, c),), 0))
    assert problems == [f"v[{(r, c)!r}] = 0 is outside its domain"]


def test_an_int_for_a_bool_variable_stops_the_verifier():
    """The domain problem is found, but the rules then cannot be read: verify
    raises the type error of the rule (api.solve turns it into a failed check)."""
    spec = _spec("every")
    inst = instance(spec, "..\n")
    with pytest.raises(PzcError) as e:
        verify(spec, inst, Answer({"x": {((0, 0),): 1, ((0, 1),): False}}))
    assert e.value.message == "expected a bool here, but this is an int"
    assert (e.value.line, e.value.column) == (6, 29)


def test_true_for_an_int_variable_is_outside_the_domain():
    spec = api.load_spec("sudoku")
    rows, sol = gen.sudoku_puzzle(2, 0.0, random.Random(2))
    inst = instance(spec, "\n".join(rows) + "\n")
    values = {((r, c),): sol[r][c] for r in range(4) for c in range(4)}
    one = next(k for k, v in values.items() if v == 1)
    values[one] = True       # True == 1 in Python, but it is not the number 1
    problems = verify(spec, inst, Answer({"v": values}))
    assert problems[0] == f"v[{one[0]!r}] = True is outside its domain"


def test_missing_and_extra_values(sudoku4):
    spec, inst, rows, answer = sudoku4
    values = copy.deepcopy(answer.values)
    del values["v"][((3, 3),)]
    # a missing value: the rules cannot be read, verify raises at the first use
    with pytest.raises(PzcError) as e:
        verify(spec, inst, Answer(values))
    assert e.value.message == "'v' has no element [(3, 3)] on this instance"
    assert (e.value.file, e.value.line) == ("<builtin>/sudoku.pz", LINE["rows"])
    values = copy.deepcopy(answer.values)
    values["v"][((4, 4),)] = 1
    assert verify(spec, inst, Answer(values)) == ["v has values for the wrong index set"]


def test_missing_variable_used_by_a_rule_is_an_error():
    spec = _spec("every")
    inst = instance(spec, "..\n")
    with pytest.raises(PzcError) as e:
        verify(spec, inst, Answer({}))
    assert e.value.message == "'x' has no element [(0, 0)] on this instance"


# ---------------------------------------------------------------- in the pipeline

def test_api_reports_a_wrong_solver_answer(monkeypatch, sudoku4):
    """If the backend's answer were wrong, api.solve says so (exit code 4)."""
    spec, inst, rows, _ = sudoku4
    original = sat_backend.read_assignment

    def corrupt(cnf, model):
        out = original(cnf, model)
        var = next(v for v in out if v.key == ((0, 0),))
        out[var] = out[var] % 4 + 1
        return out

    monkeypatch.setattr(sat_backend, "read_assignment", corrupt)
    res = api.solve(spec, inst)
    assert res.status == "solved"
    assert res.verified is False and res.exit_code == 4
    assert res.grid is None
    assert res.error.message.startswith(
        "verification failed (a bug in pzc): rule ")
    assert "is broken at" in res.error.message


# ------------------------------------------- plain closures against the shared ones

class _SharedChecker(verify_stage.AnswerChecker):
    """The checker on grounding's shared closures alone (none of the
    checker's plain-value ones): the reference the fast path must match."""

    def code(self, node):
        return Interpreter.code(self, node)


def _mutations(answer, rng, count):
    """``count`` copies of the answer, each with one to three values changed
    to another (a bool flipped, a value taken from another element) or, one
    time in eight, left out."""
    cells = [(name, key) for name, table in answer.values.items() for key in table]
    for _ in range(count):
        values = {name: dict(table) for name, table in answer.values.items()}
        for _ in range(rng.randint(1, 3)):
            name, key = rng.choice(cells)
            old = values[name].get(key)
            if rng.random() < 1 / 8:
                values[name].pop(key, None)
            elif type(old) is bool:
                values[name][key] = not old
            else:
                values[name][key] = answer.values[name][rng.choice(list(answer.values[name]))]
        yield Answer(values)


@pytest.mark.parametrize("name", ["numberlink", "masyu", "slitherlink", "akari", "nurikabe",
                                  "lits", "yajilin", "hashi", "kakuro", "hexiom"])
def test_plain_closures_agree_with_the_shared_ones_on_broken_answers(name, monkeypatch):
    """The checker's plain-value closures find the same problems (and draw
    the same board) as grounding's closures, on the solved example and on
    40 copies with values changed."""
    spec = api.load_spec(name)
    folder = resources.files("pzc.specs") / "examples" / name
    path = sorted(p.name for p in folder.iterdir())[-1]
    inst = api.load_instances(spec, str(folder / path))[0]
    answer = solved(spec, inst)
    rng = random.Random(13)
    broken = 0
    for case in [answer, *_mutations(answer, rng, 40)]:
        fast = _outcome(spec, inst, case)
        monkeypatch.setattr(verify_stage, "AnswerChecker", _SharedChecker)
        monkeypatch.setattr(render_stage, "AnswerChecker", _SharedChecker)
        try:
            assert _outcome(spec, inst, case) == fast
        finally:
            monkeypatch.undo()
        broken += bool(fast[0])
    assert _outcome(spec, inst, answer)[0] == []
    assert broken >= 20              # most changes break a rule, and are seen to


def _outcome(spec, inst, answer):
    """(the verifier's problems, the grid, the drawing), or the error."""
    try:
        problems = verify(spec, inst, answer)
    except PzcError as e:
        return "error", e.message
    try:
        return problems, render_stage.grid_rows(spec, inst, answer), \
            render_stage.text_drawing(spec, inst, answer)
    except PzcError as e:
        return problems, "error", e.message
