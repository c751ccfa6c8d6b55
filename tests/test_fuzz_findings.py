"""What the fuzzing harness (tests/fuzz.py) and issue 11's fuzzing found, each
as a small test of the right outcome: a located error or the right answer."""

from __future__ import annotations

import itertools
import json
import re
import resource
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT
from outcomes import assert_located, no_traceback

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
    assert (run.returncode, run.stdout.splitlines()[0]) == \
        (1, "level.json: no solution; run pzc explain for why")


@pytest.mark.parametrize("show", ["show c: not clue(c)",
                                  "var v[c in cells] : 0..1\n"
                                  "show moves(c in cells where not clue(c)): at = c"])
def test_not_of_an_int_in_a_show_is_a_located_error(write, run_pzc, show):
    write("notsym.pz", f"puzzle notsym\nboard square\n{show}\n")
    write("ns.txt", "1.\n..\n")
    run = run_pzc("solve", "notsym.pz", "ns.txt")
    line = show.count("\n") + 3
    column = show.splitlines()[-1].index("clue(c)") + 1
    # the clue is at fault: the error points at it, and names the spec's place
    assert_located(run, "ns.txt", 1, 1, "this clue is an int, where a bool is needed "
                   f"(notsym reads it at notsym.pz:{line}:{column})", "1.")


def _limited(megabytes):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return limit


def test_a_wide_clue_range_is_not_built_as_a_set(tmp_path):
    """`board hex(clues: 0..100000000)`: membership in the range is asked of
    the range, not of a set of 10^8 ints (which took gigabytes)."""
    spec = (ROOT / "specs" / "hexiom.pz").read_text()
    spec = re.sub(r"board hex\(clues: [^)]*\)", "board hex(clues: 0..100000000)", spec)
    (tmp_path / "wide.pz").write_text(spec)
    (tmp_path / "h.txt").write_text("2\n  . 0\n . . 1\n  . 1\n")
    proc = subprocess.run([sys.executable, "-m", "pzc.cli", "solve", "wide.pz", "h.txt"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          preexec_fn=_limited(1500))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("h.txt: solved, verified")


def test_running_out_of_python_memory_is_a_message(tmp_path, monkeypatch, capsys):
    """A MemoryError outside the encoder's budget (runtime/limits.py) ends in
    a plain message and exit 2, not 'internal error'."""
    from pzc import api, cli

    def exhausted(*args, **kwargs):
        raise MemoryError()
    monkeypatch.setattr(api, "solve", exhausted)
    (tmp_path / "g.txt").write_text("4..1\n...3\n3..4\n1.3.\n")
    assert cli.main(["solve", "sudoku", str(tmp_path / "g.txt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pzc: error: out of memory") and "internal error" not in err


def test_an_if_between_a_symbol_clue_and_a_sum_is_a_located_error(write, run_pzc):
    """Fuzz case 6972: `if v[c] = 1 then clue(c) else v[c] + 1` with a symbol
    clue; the branches cannot make one value (a TypeError before)."""
    rule = "rule r: all c in cells: (if v[c] = 1 then clue(c) else v[c] + 1) = 2"
    write("mixed.pz", f"puzzle mixed\nboard square\nvar v[c in cells] : 1..4\nshow v\n{rule}\n")
    write("m.txt", "ab\nc2\n")
    run = run_pzc("solve", "mixed.pz", "m.txt")
    assert_located(run, "mixed.pz", 5, rule.index("+ 1") + 1,
                   "both branches of 'if' must have one type: a symbol and an int expression",
                   rule)
