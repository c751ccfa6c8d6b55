"""The language additions of issue 11: product(...), int(s) and split(s, sep),
`let x = e in body`, deep recursion, and values of the wrong kind from the
instance.  Counts are checked against brute force written here and across
both backends; errors by file, line, column and caret."""

from __future__ import annotations

import itertools
import random

import pytest

from pzc import api
from pzc.encoder import syntax
from pzc.encoder.interpreter.evaluate import MAX_CALL_DEPTH
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import PzcError, Source

from loading import spec_from_text
from outcomes import assert_located, no_traceback


def count(spec_text, inst_text, backend="sat"):
    spec = spec_from_text(spec_text)
    inst, = read_instances(Source("inst.txt", inst_text), "square")
    result = api.count(spec, inst, backend=backend)
    assert result.status == "counted" and result.complete, result.error
    return result.count


def solve(spec_text, inst_text, backend="sat"):
    spec = spec_from_text(spec_text)
    inst, = read_instances(Source("inst.txt", inst_text), "square")
    return api.solve(spec, inst, backend=backend)


# ------------------------------------------------------------------ product

@pytest.mark.parametrize("backend", ["sat", pytest.param("smt", marks=pytest.mark.slow)])
@pytest.mark.parametrize("seed", range(12))
def test_product_counts_match_brute_force(seed, backend):
    rng = random.Random(seed)
    lo = rng.choice([-2, 0, 1])
    hi = lo + rng.randint(2, 4)
    cells = [(0, c) for c in range(4)]
    cage = sorted(rng.sample(cells, rng.randint(2, 4)))
    domain = range(lo, hi + 1)
    products = [p for p in (_prod(t) for t in itertools.product(domain, repeat=len(cage)))]
    target = rng.choice(products)
    guarded = seed % 3 == 0          # a factor only where a bool variable holds
    text = f"""
        puzzle p
        board square
        var v[c in cells] : {lo}..{hi}
        var on[c in cells] : bool
        let cage = [{", ".join(map(str, cage))}]
        rule r: product(c in cage{" where on[c]" if guarded else ""}: v[c]) = {target}
        show v
    """
    expected = 0                     # boards (v shown) for which some choice of on works
    for values in itertools.product(domain, repeat=4):
        expected += any(_prod([values[c] for (_, c) in cage if on[c] or not guarded]) == target
                        for on in itertools.product((False, True), repeat=4))
    assert count(text, "....\n", backend) == expected


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def test_kenken_cage_with_product_solves_and_verifies():
    # a 3x3 Latin square whose top row multiplies to 6 and first column to 6
    text = """
        puzzle k
        board square
        var v[c in cells] : 1..3
        rule rows: all r in rows: distinct(c in r: v[c])
        rule cols: all k in cols: distinct(c in k: v[c])
        rule cage: product(c in [(0, 0), (0, 1)]: v[c]) = 6 and v[(0, 0)] < v[(0, 1)]
        rule corner: product(v[(1, 0)], v[(2, 0)], 2) = 6
        show v
    """
    for backend in ("sat", "smt"):
        result = solve(text, "...\n...\n...\n", backend)
        assert result.status == "solved", result.error
        assert result.grid[0][:2] == "23"
        assert {result.grid[1][0], result.grid[2][0]} == {"1", "3"}


def test_product_of_constants_and_of_nothing():
    text = """
        puzzle p
        board square
        var v[c in cells] : 1..2
        rule r: product(2, 3, 7) = 42 and product([]) = 1 and product(k in 1..5: k) = 120
        show v
    """
    assert count(text, "..\n") == 4


def test_product_of_a_bool_is_a_type_error():
    with pytest.raises(PzcError) as e:
        spec_from_text("puzzle p\nboard square\nvar x[c in cells] : bool\n"
                       "rule r: product(c in cells: x[c]) = 1\nshow x\n")
    assert e.value.message.startswith("a bool is used as an int here")
    assert (e.value.line, e.value.column) == (4, 29)


# ------------------------------------------------------------------ int and split

KAKURO_LIKE = """
puzzle sums
board square
var v[c in cells] : 0..9
let parts(c) = split(clue(c), ",")
rule across: all c in cells where given(c):
    v[c] = int(parts(c)[0]) - int(parts(c)[1])
show v
"""


def test_int_and_split_read_instance_tokens():
    result = solve(KAKURO_LIKE, "23,17 9,2\n. .\n")
    assert result.status == "solved", result.error
    assert result.grid[0] == "67"


def test_int_and_split_values():
    text = """
        puzzle t
        board square
        var v[c in cells] : 1..2
        rule r: int("-12") = -12 and int(7) = 7 and int("+3") = 3
            and split("a,b,,c", ",") = ["a", "b", "", "c"] and split(123, "2") = ["1", "3"]
            and len(split("x", ",")) = 1
        show v
    """
    assert count(text, ".\n") == 2


def test_int_of_a_clue_that_is_no_number_is_located_in_the_instance(write, run_pzc):
    write("k.pz", "puzzle k\nboard square\nvar v[c in cells] : 1..9\n"
                  "rule r: all c in cells where given(c): v[c] = int(clue(c))\nshow v\n")
    write("k.txt", "4 x\n. .\n")
    run = run_pzc("solve", "k.pz", "k.txt")
    assert_located(run, "k.txt", 1, 3, "int needs a number here, but this clue is the symbol "
                   "'x' (k reads it at k.pz:4:51)", "4 x")


def test_int_of_a_symbol_from_the_spec_is_located_in_the_spec(write, run_pzc):
    write("k.pz", KAKURO_LIKE)
    write("k.txt", "23,x 9,2\n. .\n")
    run = run_pzc("solve", "k.pz", "k.txt")
    assert_located(run, "k.pz", 7, 35, "int needs a number or a symbol that spells one, "
                   "not the symbol 'x'", "    v[c] = int(parts(c)[0]) - int(parts(c)[1])")


def test_split_with_an_empty_separator_is_an_error():
    result = solve("puzzle t\nboard square\nvar v[c in cells] : 1..2\n"
                   "rule r: len(split(\"ab\", \"\")) = 2\nshow v\n", ".\n")
    assert result.status == "error" and result.exit_code == 2
    assert "the separator of split is a non-empty symbol" in result.error.message
    assert (result.error.line, result.error.column) == (4, 25)


# ------------------------------------------------------------------ let ... in

def test_let_in_binds_values_in_order_and_counts_right():
    text = """
        puzzle t
        board square
        var v[c in cells] : 1..3
        let twice(x) = let y = x + x in y
        rule r: all c in cells: let s = v[c] + 1, t = twice(s) in t >= 4 and t != 6
        rule q: let r = 1..3, v = 5 in v in [5] and 2 in r    # v here is the local one
        show v
    """
    assert count(text, "..\n") == 2 ** 2          # v in {1, 3}: t is 4 or 8
    assert count(text, "..\n", "smt") == 2 ** 2


def test_let_in_types_are_checked():
    with pytest.raises(PzcError) as e:
        spec_from_text("puzzle t\nboard square\nvar v[c in cells] : 1..3\n"
                       "rule r: let b = (v[(0, 0)] > 1) in b + 1 = 2\nshow v\n")
    assert e.value.message.startswith("a bool is used as an int here")
    assert (e.value.line, e.value.column) == (4, 36)


def test_let_in_with_a_bare_comparison_is_a_syntax_error_that_says_why():
    with pytest.raises(PzcError) as e:
        syntax.parse("puzzle t\nboard square\nrule r: let b = 1 > 0 in b\n")
    assert (e.value.line, e.value.column) == (3, 19)
    assert "in 'let x = e in body'" in e.value.message


# ------------------------------------------------------------------ deep recursion

WALK = """
puzzle walk
board square
var v[c in cells] : 1..2
let ones(k) = if k >= width then 0 else (if v[(0, k)] = 1 then 1 else 0) + ones(k + 1)
rule r: ones(0) = 3
show v
"""


def test_a_walk_along_a_1000_cell_row_solves(write, run_pzc):
    write("walk.pz", WALK)
    write("row.txt", "." * 1000 + "\n")
    run = run_pzc("solve", "walk.pz", "row.txt")
    assert run.returncode == 0, run.stderr
    row = run.stdout.splitlines()[1].strip()
    assert len(row) == 1000 and row.count("1") == 3


@pytest.mark.slow
def test_factorial_within_the_limit_and_a_located_error_past_it(write, run_pzc):
    fact = ("puzzle f\nboard square\nvar v[c in cells] : 1..2\n"
            "let fact(n) = if n = 0 then 1 else n * fact(n - 1)\n"
            "rule r: fact({n}) > 0\nshow v\n")
    write("f.txt", "..\n")
    write("ok.pz", fact.format(n=MAX_CALL_DEPTH - 1))
    run = run_pzc("count", "ok.pz", "f.txt")
    assert run.returncode == 0 and "4 solutions" in run.stdout, run.stderr
    write("deep.pz", fact.format(n=MAX_CALL_DEPTH + 5))
    run = run_pzc("solve", "deep.pz", "f.txt")
    assert_located(run, "deep.pz", 4, 40, "functions call each other too deeply (more than "
                   "10,000 calls inside each other)",
                   "let fact(n) = if n = 0 then 1 else n * fact(n - 1)")


def test_a_deep_body_in_a_deep_recursion_is_a_located_error(write, run_pzc):
    # each call nests 60 levels of 'not': the frames run out before the call limit
    body = "not " * 60 + "f(n - 1)"
    write("d.pz", "puzzle d\nboard square\nvar v[c in cells] : 1..2\n"
                  f"let f(n) = if n = 0 then true else {body}\n"
                  f"rule r: f({MAX_CALL_DEPTH - 10})\nshow v\n")
    write("d.txt", "..\n")
    run = run_pzc("solve", "d.pz", "d.txt")
    assert run.returncode == 2, run.stderr
    no_traceback(run)
    assert "d.pz:5:9: error: functions call each other too deeply" in run.stderr


@pytest.mark.parametrize("expr", [
    " + ".join(["1"] * 500) + " = 500",
    "not " * 500 + "true",
    "len(" + "[" * 500 + "1" + "]" * 500 + ") = 1",
    "(" * 500 + "true" + ")" * 500,
])
def test_expressions_nested_500_deep_work(write, run_pzc, expr):
    write("n.pz", f"puzzle n\nboard square\nvar v[c in cells] : 1..2\nrule r: {expr}\nshow v\n")
    write("n.txt", "..\n")
    run = run_pzc("count", "n.pz", "n.txt")
    assert run.returncode == 0 and "4 solutions" in run.stdout, run.stderr


def test_expressions_nested_past_the_limit_are_located(write, run_pzc):
    write("n.pz", "puzzle n\nboard square\nrule r: " + "not " * 6000 + "true\nshow c: 1\n")
    write("n.txt", "..\n")
    run = run_pzc("check", "n.pz")
    assert run.returncode == 2, run.stderr
    no_traceback(run)
    assert "n.pz:3:20005: error: this expression is nested more than 5,000 levels deep" in run.stderr


def test_deep_recursion_through_the_api_on_the_main_thread():
    # the API runs its work on a thread with a deep stack (runtime/deep_stack.py)
    result = solve(WALK, "." * 1000 + "\n")
    assert result.status == "solved" and result.grid[0].count("1") == 3


# ------------------------------------------------------------------ wrong kinds of values

NOTSYM = "puzzle notsym\nboard square\nshow c: not clue(c)\n"


@pytest.mark.parametrize("spec", [
    NOTSYM,
    "puzzle notsym\nboard square\nshow moves(c in cells where given(c)): x = not clue(c)\n",
])
def test_a_clue_used_as_a_bool_is_located_at_the_clue(write, run_pzc, spec):
    write("n.pz", spec)
    write("n.txt", "1.\n..\n")
    run = run_pzc("solve", "n.pz", "n.txt")
    column = spec.index("clue(c)") - spec.rindex("\n", 0, spec.index("clue(c)"))
    assert_located(run, "n.txt", 1, 1, f"this clue is an int, where a bool is needed "
                   f"(notsym reads it at n.pz:3:{column})", "1.")


SYMBOL_CLUE = """puzzle s
board square
var v[c in cells] : 1..2
rule r: all c in cells where given(c): v[c] + 1 {op} clue(c)
show v
"""


def test_a_number_never_equals_a_symbol(write, run_pzc):
    # as for constants (3 = "a" is false): the rule cannot hold, so no solution
    write("s.pz", SYMBOL_CLUE.format(op="="))
    write("s.txt", "a.\n..\n")
    run = run_pzc("solve", "s.pz", "s.txt")
    assert run.returncode == 1 and "no solution" in run.stdout, run.stderr
    write("t.pz", SYMBOL_CLUE.format(op="!="))
    run = run_pzc("count", "t.pz", "s.txt")
    assert run.returncode == 0 and "16 solutions" in run.stdout, run.stderr


def test_a_symbol_clue_where_a_number_is_needed_is_located_at_the_clue(write, run_pzc):
    write("s.pz", SYMBOL_CLUE.format(op="<"))
    write("s.txt", ".a\n..\n")
    run = run_pzc("solve", "s.pz", "s.txt")
    assert_located(run, "s.txt", 1, 2, "this clue is a symbol, where a number is needed "
                   "(s reads it at s.pz:4:51)", ".a")


def test_without_a_deep_stack_deep_specs_are_plain_errors(write, tmp_path):
    # where neither the main thread's stack may grow (ulimit -Hs) nor a
    # thread's stack can be had (ulimit -v), pzc runs in place at Python's
    # usual depth: still exit 2 with a message, never exit 4
    import subprocess
    import sys
    write("n.pz", "puzzle n\nboard square\nvar v[c in cells] : 1..2\nrule r: "
                  + "not " * 2000 + "true\nshow v\n")
    write("walk.pz", WALK)
    write("n.txt", "..\n")
    write("row.txt", "." * 1000 + "\n")
    code = ("import sys; from pzc.runtime import deep_stack; deep_stack.STACK_BYTES = 2 ** 50; "
            "deep_stack._main_stack_grows = lambda: False; "
            "from pzc.cli import main; sys.exit(main(sys.argv[1:]))")
    for args, message in [(["n.pz", "n.txt"], "pzc: error: the spec nests or recurses too "
                                              "deeply for the stack this process could get"),
                          (["walk.pz", "row.txt"], "walk.pz:6:9: error: functions call each "
                                                   "other too deeply")]:
        run = subprocess.run([sys.executable, "-c", code, "solve", *args], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2, run.stderr
        no_traceback(run)
        assert message in run.stderr


def test_deep_recursion_on_a_thread_of_the_api_user():
    # off the main thread the work moves to a thread with a deep stack
    import threading
    out = []
    worker = threading.Thread(target=lambda: out.append(solve(WALK, "." * 1000 + "\n")))
    worker.start()
    worker.join()
    assert out[0].status == "solved" and out[0].grid[0].count("1") == 3
