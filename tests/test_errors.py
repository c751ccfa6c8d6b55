"""Every user error through the command line, in its exact shape:

    file:line:col: error: <plain message>
        <the offending line>
        <spaces>^                      (under the column)

exit code 2 and no Python traceback anywhere.  Files that do not exist have no
line: a plain `pzc: error: ...` message, still exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from outcomes import assert_located, assert_plain, no_traceback

HEAD = "puzzle p\nboard square\nvar v[c in cells] : 1..4\nvar b[c in cells] : bool\nshow v\n"
GRID4 = "4..1\n...3\n3..4\n1.3.\n"

BOOL_AS_INT = ("a bool is used as an int here; count(...) or 'if ... then 1 else 0' "
               "turns bools into numbers")
INT_AS_BOOL = "an int is used as a bool here; compare it, as in x > 0"


# ------------------------------------------------------------------ spec errors

SPEC_ERRORS = [
    # (rule text after HEAD, column, message)
    ("rule r: a $ b", 11, "unexpected character '$'"),
    ("rule r true", 8, "unexpected 'true'; expected ':'"),
    ("rule r: all c in cels: v[c] = 1", 18, "unknown name 'cels'; did you mean 'cells'?"),
    ("rule r: all c in cells: v[c] = clu(c)", 32, "unknown function 'clu'; did you mean 'clue'?"),
    ("rule r: all c in cells: v[c] = clue(c, 1)", 32, "'clue' takes 1 argument, not 2"),
    ("rule r: all c in cells: v[c, 1] = 1", 25, "'v' takes 1 index, not 2"),
    ("rule r: all c in cells: v[c] + b[c] = 2", 32, BOOL_AS_INT),
    ("rule r: all c in cells: v[c] and b[c]", 25, INT_AS_BOOL),
    ("rule r: 1 + 2", 11, INT_AS_BOOL),
    ("let cells = 3", 1, "'cells' is a built-in name; choose another name"),
]


@pytest.mark.parametrize("stmt, column, message", SPEC_ERRORS, ids=[s for s, *_ in SPEC_ERRORS])
def test_spec_errors(stmt, column, message, write, run_pzc):
    write("s.pz", HEAD + stmt + "\n")
    run = run_pzc("check", "s.pz")
    assert_located(run, "s.pz", 6, column, message, stmt)
    assert run.stdout == ""


@pytest.mark.parametrize("stmt, column, message", [SPEC_ERRORS[i] for i in (0, 2, 6, 7)],
                         ids=[SPEC_ERRORS[i][0] for i in (0, 2, 6, 7)])
def test_spec_errors_stop_solve_before_any_instance(stmt, column, message, write, run_pzc):
    write("s.pz", HEAD + stmt + "\n")
    write("g.txt", GRID4)
    run = run_pzc("solve", "s.pz", "g.txt")
    assert_located(run, "s.pz", 6, column, message, stmt)
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 3


def test_let_function_arity(write, run_pzc):
    write("s.pz", HEAD + "let f(a, b) = a + b\nrule r: all c in cells: v[c] = f(1)\n")
    assert_located(run_pzc("check", "s.pz"), "s.pz", 7, 32, "'f' takes 2 arguments, not 1",
                   "rule r: all c in cells: v[c] = f(1)")


def test_unexpected_end_of_spec(write, run_pzc):
    write("s.pz", HEAD + "rule r: all c in cells: v[c] =\n")
    run = run_pzc("check", "s.pz")
    assert run.returncode == 2
    no_traceback(run)
    first = run.stderr.splitlines()[0]
    assert first.startswith("s.pz:6:31: error: unexpected end of spec; expected ")
    assert run.stderr.splitlines()[1:3] == ["    rule r: all c in cells: v[c] =",
                                             "    " + " " * 30 + "^"]


def test_error_on_a_later_line_of_a_multi_line_rule(write, run_pzc):
    write("s.pz", HEAD + "rule r:\n    all c in cells:\n        v[c] + b[c] = 2\n")
    assert_located(run_pzc("check", "s.pz"), "s.pz", 8, 16, BOOL_AS_INT, "        v[c] + b[c] = 2")


def test_spec_with_crlf_line_ends(write, run_pzc):
    write("s.pz", (HEAD + "rule r: all c in cels: v[c] = 1\n").replace("\n", "\r\n"))
    assert_located(run_pzc("check", "s.pz"), "s.pz", 6, 18,
                   "unknown name 'cels'; did you mean 'cells'?", "rule r: all c in cels: v[c] = 1")


def test_missing_board_kind(write, run_pzc):
    write("s.pz", "puzzle p\nboard round\nvar v : bool\nshow c: v\n")
    assert_located(run_pzc("check", "s.pz"), "s.pz", 2, 7,
                   "unknown board kind 'round'; choose square, hex, json", "board round")


def test_empty_domain(write, run_pzc):
    # the range is empty whatever the instance: the checker says so before solving
    write("s.pz", "puzzle p\nboard square\nvar v[c in cells] : 3..1\nshow v\n")
    write("g.txt", GRID4)
    run = run_pzc("solve", "s.pz", "g.txt")
    assert_located(run, "s.pz", 3, 21, "the domain of 'v' is empty: 3..1 has no values",
                   "var v[c in cells] : 3..1")
    assert run.stdout == ""


def test_domain_empty_on_this_instance(write, run_pzc):
    # 1..width - 2 is empty only on a board of width 2: a ground-time error
    write("s.pz", "puzzle p\nboard square\nvar v[c in cells] : 1..width - 2\nshow v\n")
    write("g.txt", "..\n..\n")
    run = run_pzc("solve", "s.pz", "g.txt")
    assert_located(run, "s.pz", 3, 21, "the domain of 'v' is empty on this instance",
                   "var v[c in cells] : 1..width - 2")
    assert run.stdout == "g.txt: error\n\n"


@pytest.mark.slow
def test_empty_set_domain(write, run_pzc):
    write("s.pz", "puzzle p\nboard square\nvar v[c in cells] : {}\nshow v\n")
    write("g.txt", GRID4)
    assert_located(run_pzc("solve", "s.pz", "g.txt"), "s.pz", 3, 21,
                   "the domain of 'v' is empty", "var v[c in cells] : {}")


# ------------------------------------------------------------------ instance errors

INSTANCE_ERRORS = [
    # (spec, file name, text, line, column, message)
    ("sudoku", "z.txt", "4..1\n...3\n3.Z4\n1.3.\n", 3, 3,
     "'Z' is not allowed in a sudoku instance (clues are 1..4)"),
    ("sudoku", "a.txt", "4..1\n...3\n3.A4\n1.3.\n", 3, 3,
     "'A' is not allowed in a sudoku instance (clues are 1..4)"),
    ("sudoku", "ragged.txt", "4..1\n...3\n3..4\n1.3\n", 4, 4,
     "this row has 3 cells, but the row on line 1 has 4; every row must have the same length"),
    ("sudoku", "long.txt", "4..1\n...3\n3..4.\n1.3.\n", 3, 5,
     "this row has 5 cells, but the row on line 1 has 4; every row must have the same length"),
    ("sudoku", "header.txt", "4 4\n4..1\n...3\n3..4\n", 1, 1,
     "the header says 4 rows, but only 3 follow (line 5)"),
    ("sudoku", "three.txt", "...\n...\n...\n", 1, 1,
     "a Sudoku board is n x n with n a square (4, 9, 16, 25)"),
    ("sudoku", "wide.txt", "4..1....\n...3....\n3..4....\n1.3.....\n", 1, 1,
     "a Sudoku board is n x n with n a square (4, 9, 16, 25)"),
    ("hexiom", "short.txt", "2\n . .\n. 1\n . .\n", 3, 4,
     "row 2 of a side-2 hexagon has 3 cells, but this row has 2"),
    ("hexiom", "longrow.txt", "2\n . . 3\n. 1 .\n . .\n", 2, 6,
     "row 1 of a side-2 hexagon has 2 cells, but this row has 3"),
    ("hexiom", "rows.txt", "3\n . . .\n. 1 . .\n", 1, 1,
     "a hexagon of side 3 has 5 rows, but 2 follow"),
    ("hexiom", "seven.txt", "2\n . .\n. 7 .\n . .\n", 3, 3,
     "'7' is not allowed in a hexiom instance (clues are 0..6)"),
    ("hexiom", "char.txt", "2\n . .\n. x .\n . .\n", 3, 3,
     "a hex cell is '.' or a digit, with '+' before it when locked; 'x' is neither"),
    ("hexiom", "square.txt", GRID4, 1, 1,
     "a hex board starts with its side length n on a line of its own"),
    ("sudoku", "level.json", '{"board": [[0, 0, -1]], "pieces": [1]}\n', 1, 1,
     "this is a JSON instance, but the spec reads a square text board"),
    ("hexiom", "level.json", '{"board": [[0, 0, -1]], "pieces": [1]}\n', 1, 1,
     "this is a JSON instance, but the spec reads a hex text board"),
    ("puzlogic", "grid.txt", GRID4, 1, 1,
     "this spec reads a JSON instance, but the file is not JSON"),
    ("puzlogic", "broken.json", '{"board": [[0, 0, -1]],\n "pieces": [1,]}\n', 2, 15,
     "bad JSON: Expecting value"),
    ("puzlogic", "many.json", '{"board": [[0, 0, -1]], "pieces": [1, 2]}\n', 1, 1,
     "there are more pieces than empty cells"),
]


@pytest.fixture(scope="module")
def instance_runs(tmp_path_factory):
    """One `pzc solve SPEC file...` run per spec over all its bad files (saves start-ups);
    every file's error must still appear in full."""
    root = tmp_path_factory.mktemp("instances")
    runs = {}
    for spec in sorted({case[0] for case in INSTANCE_ERRORS}):
        names = []
        for s, name, text, *_ in INSTANCE_ERRORS:
            if s == spec:
                with open(root / name, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
                names.append(name)
        proc = subprocess.run([sys.executable, "-m", "pzc.cli", "solve", spec, *names],
                              capture_output=True, text=True, cwd=root, timeout=120)
        runs[spec] = proc
    return runs


@pytest.mark.parametrize("spec, name, text, line, column, message", INSTANCE_ERRORS,
                         ids=[f"{s}-{n}" for s, n, *_ in INSTANCE_ERRORS])
def test_instance_errors(spec, name, text, line, column, message, instance_runs):
    run = instance_runs[spec]
    assert_located(run, name, line, column, message, text.splitlines()[line - 1])
    assert f"{name}: error\n\n" in run.stdout
    assert "solved" not in run.stdout


def test_one_bad_instance_file_alone(write, run_pzc):
    write("z.txt", "4..1\n...3\n3.Z4\n1.3.\n")
    run = run_pzc("solve", "sudoku", "z.txt")
    assert_located(run, "z.txt", 3, 3, "'Z' is not allowed in a sudoku instance (clues are 1..4)",
                   "3.Z4")
    assert run.stdout == "z.txt: error\n\n"
    assert len(run.stderr.splitlines()) == 3


def test_instance_errors_in_json_output(write, run_pzc):
    write("z.txt", "4..1\n...3\n3.Z4\n1.3.\n")
    run = run_pzc("solve", "sudoku", "z.txt", "--format", "json")
    assert_located(run, "z.txt", 3, 3, "'Z' is not allowed in a sudoku instance (clues are 1..4)",
                   "3.Z4")
    out = json.loads(run.stdout)
    assert out["status"] == "error" and out["instance"] == "z.txt"
    assert out["error"] == {"message": "'Z' is not allowed in a sudoku instance (clues are 1..4)",
                            "file": "z.txt", "line": 3, "column": 3}


def test_instance_error_from_stdin(run_pzc):
    run = run_pzc("solve", "sudoku", "-", stdin="4..1\n...3\n3..4\n1.3\n")
    assert_located(run, "<stdin>", 4, 4, "this row has 3 cells, but the row on line 1 has 4; "
                   "every row must have the same length", "1.3")
    assert run.stdout == "<stdin>: error\n\n"


def test_error_in_the_second_instance_of_a_file(write, run_pzc):
    write("two.txt", "4..1\n...3\n3..4\n1.3.\n\n1..\n...\n..2\n")
    # the second block is 3 x 3: not a Sudoku board
    run = run_pzc("solve", "sudoku", "two.txt")
    assert_located(run, "two.txt", 6, 1, "a Sudoku board is n x n with n a square (4, 9, 16, 25)",
                   "1..")
    assert run.stdout.startswith("two.txt#1: solved, verified\n")
    assert "two.txt#2: error\n" in run.stdout


# ------------------------------------------------------------------ missing files

def test_missing_instance_file(run_pzc):
    run = run_pzc("solve", "sudoku", "nope.txt")
    assert_plain(run, "no such instance file: nope.txt")
    assert run.stdout == "nope.txt: error\n\n"


@pytest.mark.parametrize("command", [("check",), ("solve",)])
def test_missing_spec_file(command, write, run_pzc):
    write("g.txt", GRID4)
    args = command + ("nope.pz",) + (("g.txt",) if command == ("solve",) else ())
    run = run_pzc(*args)
    assert run.returncode == 2 and run.stdout == ""
    no_traceback(run)
    (line,) = run.stderr.splitlines()
    assert line.startswith("pzc: error: no built-in spec or file named 'nope.pz' (built-in specs: ")
    listed = line.split("(built-in specs: ")[1].rstrip(")").split(", ")
    assert {"sudoku", "hexiom", "puzlogic"} <= set(listed)


def test_unknown_built_in_spec_name(write, run_pzc):
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudokuu", "g.txt")
    assert run.returncode == 2 and run.stdout == ""
    no_traceback(run)
    assert run.stderr.startswith("pzc: error: no built-in spec or file named 'sudokuu' "
                                 "(built-in specs: ")


def test_spec_that_is_a_directory(tmp_path, run_pzc):
    (tmp_path / "d.pz").mkdir()
    assert_plain(run_pzc("check", "d.pz"), "d.pz is a directory, not a spec file")


@pytest.mark.slow
def test_instance_that_is_a_directory_or_not_utf8(tmp_path, write, run_pzc):
    (tmp_path / "dir").mkdir()
    (tmp_path / "latin1.txt").write_bytes(b"\xe9..1\n")
    assert_plain(run_pzc("solve", "sudoku", "dir"), "dir is a directory, not an instance file")
    run = run_pzc("solve", "sudoku", "latin1.txt")
    assert run.returncode == 2
    no_traceback(run)
    assert run.stderr.startswith("latin1.txt:1:1: error: latin1.txt is not UTF-8 text: byte 0xe9 (")
    assert run.stderr.splitlines()[1:] == ["    \ufffd..1", "    ^"]


# ------------------------------------------------------------------ flags

FLAGS = [
    (["--timeout", "-1"], "argument --timeout: the time limit must be more than 0 seconds"),
    (["--timeout", "0"], "argument --timeout: the time limit must be more than 0 seconds"),
    (["--timeout", "nan"], "argument --timeout: the time limit must be more than 0 seconds"),
    (["--timeout", "soon"], "argument --timeout: expected a number of seconds, not 'soon'"),
    (["--backend", "cp"], "argument --backend: invalid choice: 'cp' (choose from 'sat', 'smt', 'asp', 'external')"),
    (["--format", "xml"], "argument --format: invalid choice: 'xml' (choose from 'text', 'json', 'svg', 'pzprv3', 'moves')"),
    (["--backend", "smt", "--solver", "cadical195"], "the smt backend runs z3, not 'cadical195'"),
]


@pytest.mark.parametrize("flags, message", FLAGS, ids=[" ".join(f) for f, _ in FLAGS])
def test_bad_flags(flags, message, write, run_pzc):
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudoku", "g.txt", *flags)
    assert_plain(run, message)
    assert run.stdout == ""                       # nothing is solved


def test_unknown_solver(write, run_pzc):
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudoku", "g.txt", "--solver", "minisat99")
    assert run.returncode == 2 and run.stdout == ""
    no_traceback(run)
    (line,) = run.stderr.splitlines()
    assert line.startswith("pzc: error: unknown SAT solver 'minisat99'; choose one of: ")
    assert {"cadical195", "glucose4", "minisat22"} <= set(line.split(": ")[-1].split(", "))


@pytest.mark.parametrize("flags", [
    pytest.param(["--timeout", "inf"], id="inf"),
    pytest.param(["--timeout", "1e10"], id="1e10"),
    pytest.param(["--timeout", "inf", "--solver", "glucose4"], id="inf-glucose4"),
    pytest.param(["--timeout", "inf", "--backend", "smt"], id="inf-smt"),
    pytest.param(["--timeout", "1e6"], id="1e6"),
])
def test_huge_time_limits_are_refused_or_honoured(flags, write, run_pzc):
    # either is fine: a plain usage error (exit 2) or no limit in practice (solved, exit 0)
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudoku", "g.txt", *flags)
    no_traceback(run)
    if run.returncode == 2:
        assert run.stderr.splitlines()[-1].startswith("pzc: error: argument --timeout: ")
    else:
        assert run.returncode == 0 and run.stdout.startswith("g.txt: solved, verified\n")


@pytest.mark.parametrize("args", [[], ["solve", "sudoku"], ["frobnicate"]])
def test_missing_or_unknown_arguments(args, run_pzc):
    run = run_pzc(*args)
    assert run.returncode == 2 and run.stdout == ""
    no_traceback(run)
    assert run.stderr.splitlines()[-1].startswith("pzc: error: ")


# ------------------------------------------------------------------ regressions

def test_hex_side_that_is_a_unicode_digit(write, run_pzc):
    write("sup.txt", "²\n")
    run = run_pzc("solve", "hexiom", "sup.txt")
    assert_located(run, "sup.txt", 1, 1,
                   "a hex board starts with its side length n on a line of its own", "²")


def _limit_memory():
    import resource
    limit = 700 * 2 ** 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses RLIMIT_AS")
def test_huge_hex_side_without_rows_is_a_plain_error(write, tmp_path):
    write("huge.txt", "100000\n")
    # run under a memory limit so that the bug cannot take the machine's memory
    proc = subprocess.run([sys.executable, "-m", "pzc.cli", "solve", "hexiom", "huge.txt"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          preexec_fn=_limit_memory)
    assert_located(proc, "huge.txt", 1, 1, "a hexagon of side 100000 has 199999 rows, "
                   "but 0 follow", "100000")


def test_a_normal_hexiom_run_fits_the_memory_limit_used_above(examples, tmp_path):
    # guards the test above: under the same limit a good file solves
    proc = subprocess.run([sys.executable, "-m", "pzc.cli", "solve", "hexiom",
                           str(examples / "hexiom" / "small.txt")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          preexec_fn=_limit_memory)
    assert proc.returncode == 0, proc.stderr
    assert "solved, verified" in proc.stdout
