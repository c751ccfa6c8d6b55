"""What the fuzzing harness (tests/fuzz.py) and issue 11's fuzzing found, each
as a small test of the right outcome: a located error or the right answer."""

from __future__ import annotations

import itertools
import json

import pytest

from conftest import EXAMPLES
from test_errors import assert_located, no_traceback

SYMBOL_CLUE = """\
puzzle sym
board square(blank: ".")
var v[c in cells] : 1..4
show v
rule r: all c in cells where given(c): v[c] + 1 {op} clue(c)
"""


@pytest.mark.parametrize("backend", ["sat", "smt"])
@pytest.mark.parametrize("op", ["=", "!="])
def test_a_sum_compared_with_a_symbol_clue(write, run_pzc, backend, op):
    """v + 1 = "a" is false, as 3 = "a" is: no solution with '=', and with
    '!=' every board where the number clue 2 holds (brute force)."""
    write("sym.pz", SYMBOL_CLUE.format(op=op))
    write("sym.txt", "a.\n2.\n")
    run = run_pzc("count", "sym.pz", "sym.txt", "--backend", backend)
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    clue = {(0, 0): "a", (1, 0): 2}
    want = 0
    for values in itertools.product(range(1, 5), repeat=4):
        board = dict(zip([(0, 0), (0, 1), (1, 0), (1, 1)], values))
        holds = [(board[c] + 1 == k) for c, k in clue.items()]
        want += all(holds) if op == "=" else not any(holds)
    assert run.stdout.startswith(f"sym.txt: {want} solution")


@pytest.mark.parametrize("backend", ["sat", "smt"])
@pytest.mark.parametrize("target", ['"10"', "[10]", "null", '{"sum": 10}'])
def test_puzlogic_sum_target_that_is_not_a_number(write, run_pzc, backend, target):
    level = json.loads((EXAMPLES / "puzlogic" / "level.json").read_text())
    level["sum_constraints"][0][2] = json.loads(target)
    write("level.json", json.dumps(level))
    run = run_pzc("solve", "puzlogic", "level.json", "--backend", backend)
    no_traceback(run)
    assert (run.returncode, run.stdout.splitlines()[0]) == (1, "level.json: no solution")


@pytest.mark.parametrize("show", ["show c: not clue(c)",
                                  "var v[c in cells] : 0..1\n"
                                  "show moves(c in cells where not clue(c)): at = c"])
def test_not_of_an_int_in_a_show_is_a_located_error(write, run_pzc, show):
    write("notsym.pz", f"puzzle notsym\nboard square\n{show}\n")
    write("ns.txt", "1.\n..\n")
    run = run_pzc("solve", "notsym.pz", "ns.txt")
    line = show.count("\n") + 3
    column = show.splitlines()[-1].index("clue(c)") + 1
    # located at the clue in the instance, naming where the spec reads it
    assert_located(run, "ns.txt", 1, 1, "this clue is an int, where a bool is needed "
                   f"(notsym reads it at notsym.pz:{line}:{column})", "1.")
