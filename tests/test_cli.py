"""The `pzc` command line: specs, check, solve (text and JSON), standard input,
backends, and exit codes alone and combined over several instances.  Solved
boards are checked with the independent checkers of tests/generators.py."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys

import pytest

import generators as gen
from outcomes import JSON_FIELDS
from pzc import api
from unsolvable import PIGEONS, UNSAT4, pigeon_block

GRID4 = "4..1\n...3\n3..4\n1.3.\n"
STATS_FIELDS = {"backend", "solver", "variables", "clauses", "compile_s", "solve_s"}

DESCRIPTIONS = {
    "hexiom": "Hexiom: place the tiles so each tile's number counts its occupied neighbours",
    "puzlogic": "Puzlogic: place every piece; no value twice in a row or column; meet the sums",
    "sudoku": "Sudoku: every row, column and box holds 1..n once (n = 4, 9, 16, 25)",
}


def json_lines(run):
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert all(set(o) == JSON_FIELDS | ({"error"} if o["status"] == "error" else set())
               | ({"hint"} if o["status"] == "unsat" and "steps" not in o["stats"] else set())
               for o in out), run.stdout
    return out


def rows_of(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


# ------------------------------------------------------------------ specs, check

def test_specs_lists_the_built_in_specs_with_descriptions(run_pzc):
    run = run_pzc("specs")
    assert run.returncode == 0 and run.stderr == ""
    header, *lines = run.stdout.splitlines()
    assert header.split() == ["SPEC", "GENERATE", "DESCRIPTION"]
    listed = {}
    for line in lines:
        name, _, description = line.split(None, 2)
        listed[name] = description
    for name, description in DESCRIPTIONS.items():
        types = api.load_spec(name).url_types
        also = f"  (puzz.link: {', '.join(types)})" if types else ""
        assert listed[name] == description + also
    assert list(listed) == sorted(listed)
    assert set(listed) == set(api.builtin_specs())
    # descriptions line up in one column, under the header's
    assert {line.index(listed[name]) for name, line in zip(listed, lines)} == \
        {header.index("DESCRIPTION")}
    assert listed["slitherlink"].endswith("(puzz.link: slither, slitherlink)")


def listed_boards(run_pzc) -> dict:
    """Spec name -> its GENERATE column in `pzc specs`."""
    run = run_pzc("specs")
    return {line.split()[0]: line.split()[1] for line in run.stdout.splitlines()[1:]}


@pytest.mark.slow
def test_specs_say_which_genres_generate_and_which_need_like(run_pzc, examples):
    boards = listed_boards(run_pzc)
    assert set(boards) == set(api.builtin_specs())
    for name, board in boards.items():
        spec = api.load_spec(name)
        if board in ("-", "--like"):
            # refused without a board taken from an instance, saying why
            size = (4, None) if spec.board.kind == "hex" else (4, 4)
            with pytest.raises(api.PzcError) as info:
                next(api.generate(spec, size, seed=1))
            assert ("has no 'generate' lines" if board == "-" else "--like INSTANCE") \
                in info.value.message, name
        if board == "--like":        # and made with one
            example = sorted((examples / name).iterdir())[0]
            made = next(api.generate(spec, like=api.select_instance(spec, str(example)),
                                     seed=2))
            assert made.status == "generated", (name, made.error)
    assert sum(board == "--like" for board in boards.values()) >= 4
    assert sum(board not in ("-", "--like") for board in boards.values()) >= 10
    # the default board is the one generate makes without --size
    assert (boards["sudoku"], boards["hexiom"]) == ("9x9", "4")
    run = run_pzc("generate", "sudoku", "--seed", "1", "--workers", "1")
    assert run.returncode == 0, run.stderr
    assert rows_of(run.stdout)[0] == "9 9" and len(rows_of(run.stdout)) == 10
    run = run_pzc("generate", "hexiom", "--seed", "1", "--workers", "1")
    assert run.returncode == 0, run.stderr
    assert rows_of(run.stdout)[0] == "4" and len(rows_of(run.stdout)) == 1 + 7


def test_check_prints_a_one_line_summary(write, run_pzc):
    write("pigeons.pz", PIGEONS)
    run = run_pzc("check", "pigeons.pz")
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == "pigeons: ok; board square; variables p; 2 rules; shows grid\n"


def test_check_prints_the_error_and_exits_2(write, run_pzc):
    write("bad.pz", PIGEONS.replace("in cols", "in colz"))
    run = run_pzc("check", "bad.pz")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.splitlines() == [
        "bad.pz:6:23: error: unknown name 'colz'; did you mean 'cols'?",
        "    rule hole:   all k in colz: count(c in k: p[c]) <= 1",
        "    " + " " * 22 + "^"]


# ------------------------------------------------------------------ text output

def test_solve_text_output(write, run_pzc):
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudoku", "g.txt")
    assert (run.returncode, run.stderr) == (0, "")
    lines = run.stdout.split("\n")
    assert lines[0] == "g.txt: solved, verified"
    assert all(line.startswith("  ") for line in lines[1:5])
    grid = [line[2:] for line in lines[1:5]]
    assert gen.sudoku_valid(grid, GRID4.split())
    assert lines[5:] == ["", ""]                    # a blank line ends each instance


def test_solve_text_with_stats(write, run_pzc):
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudoku", "g.txt", "--stats")
    assert run.returncode == 0
    stats = run.stdout.splitlines()[1]
    assert re.fullmatch(r"  sat/cadical195: \d+ variables, \d+ clauses; "
                        r"compile \d+\.\d{3} s, solve \d+\.\d{3} s", stats), stats


def test_unique_text_with_stats(write, run_pzc):
    write("g.txt", GRID4)
    write("open.txt", "4...\n....\n....\n....\n")     # many solutions
    run = run_pzc("unique", "sudoku", "g.txt", "open.txt", "--stats")
    assert (run.returncode, run.stderr) == (1, "")
    first, second = run.stdout.split("\n\n")[:2]
    lines = first.splitlines()
    assert lines[0] == "g.txt: exactly one solution"
    m = re.fullmatch(r"  sat/cadical195: (\d+) variables, (\d+) clauses; "
                     r"compile \d+\.\d{3} s, solve \d+\.\d{3} s", lines[1])
    assert m, lines[1]
    assert gen.sudoku_valid([line[2:] for line in lines[2:6]], GRID4.split())
    # the figures are the instance's, as JSON gives them
    stats = json.loads(run_pzc("unique", "sudoku", "g.txt", "--format", "json").stdout)["stats"]
    assert (int(m.group(1)), int(m.group(2))) == (stats["variables"], stats["clauses"])
    lines = second.splitlines()
    assert lines[0] == "open.txt: not unique: two solutions differ"
    assert lines[1].startswith("  sat/cadical195: ") and "first" in lines[2]


def test_options_may_stand_between_the_spec_and_the_instances(write, run_pzc):
    write("g.txt", GRID4)
    write("h.txt", GRID4)
    run = run_pzc("solve", "sudoku", "--solver", "glucose4", "g.txt", "--stats", "h.txt")
    assert (run.returncode, run.stderr) == (0, "")
    blocks = run.stdout.split("\n\n")
    assert [b.splitlines()[0] for b in blocks[:2]] == ["g.txt: solved, verified",
                                                       "h.txt: solved, verified"]
    assert all(b.splitlines()[1].startswith("  sat/glucose4: ") for b in blocks[:2])
    assert gen.sudoku_valid([l[2:] for l in blocks[0].splitlines()[2:6]], GRID4.split())
    run = run_pzc("solve", "sudoku", "--bogus", "g.txt")
    assert run.returncode == 2 and "unrecognized arguments: --bogus" in run.stderr


def test_solve_text_for_several_instances_and_no_solution(write, run_pzc):
    write("two.txt", GRID4 + "\n" + UNSAT4)
    run = run_pzc("solve", "sudoku", "two.txt")
    assert run.returncode == 1
    blocks = run.stdout.split("\n\n")
    assert blocks[0].splitlines()[0] == "two.txt#1: solved, verified"
    assert blocks[1:] == ["two.txt#2: no solution; run pzc explain for why", ""]


def test_solve_text_shows_puzlogic_moves(examples, run_pzc):
    run = run_pzc("solve", "puzlogic", examples / "puzlogic" / "level.json")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0].endswith("level.json: solved, verified")
    moves = [line for line in lines if re.match(r"^ +\d+\. ", line)]
    level = json.loads((examples / "puzlogic" / "level.json").read_text())
    assert len(moves) == len(level["pieces"])
    parsed = []
    for k, line in enumerate(moves, 1):
        m = re.fullmatch(r" +(\d+)\. piece (-?\d+), to \((\d+), (\d+)\)", line)
        assert m, line
        assert int(m.group(1)) == k
        parsed.append({"piece": int(m.group(2)), "to": [int(m.group(3)), int(m.group(4))]})
    assert gen.puzlogic_valid(level, parsed)


# ------------------------------------------------------------------ JSON output

def test_json_output_for_a_sudoku(write, run_pzc):
    write("g.txt", GRID4)
    run = run_pzc("solve", "sudoku", "g.txt", "--format", "json")
    assert (run.returncode, run.stderr) == (0, "")
    (out,) = json_lines(run)
    assert (out["instance"], out["spec"], out["status"]) == ("g.txt", "sudoku", "solved")
    assert out["verified"] is True and out["moves"] is None
    assert gen.sudoku_valid(out["grid"], GRID4.split())
    stats = out["stats"]
    assert set(stats) == STATS_FIELDS
    assert (stats["backend"], stats["solver"]) == ("sat", "cadical195")
    assert all(type(stats[k]) is int and stats[k] > 0 for k in ("variables", "clauses"))
    assert all(type(stats[k]) is float and stats[k] >= 0 for k in ("compile_s", "solve_s"))


def test_json_one_line_per_instance_from_81_character_lines(write, run_pzc):
    rng = random.Random(11)
    puzzles = [gen.sudoku_puzzle(3, 0.45, rng)[0] for _ in range(3)]
    write("lines.txt", "".join("".join(rows) + "\n" for rows in puzzles))
    run = run_pzc("solve", "sudoku", "lines.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    out = json_lines(run)
    assert [o["instance"] for o in out] == ["lines.txt#1", "lines.txt#2", "lines.txt#3"]
    for o, rows in zip(out, puzzles):
        assert o["status"] == "solved" and o["verified"] is True
        assert len(o["grid"]) == 9 and all(len(row) == 9 for row in o["grid"])
        assert gen.sudoku_valid(o["grid"], rows)


def test_json_sixteen_by_sixteen_sudoku_uses_letters(write, run_pzc):
    rows, _ = gen.sudoku_puzzle(4, 0.6, random.Random(4))
    write("s16.txt", "\n".join(rows) + "\n")
    run = run_pzc("solve", "sudoku", "s16.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    (out,) = json_lines(run)
    assert len(out["grid"]) == 16 and all(len(r) == 16 for r in out["grid"])
    assert set("".join(out["grid"])) == set("123456789ABCDEFG")
    assert gen.sudoku_valid(out["grid"], rows)


def test_json_hexiom_keeps_the_hexagon_and_locks(write, run_pzc):
    rng = random.Random(2)
    levels = [gen.hexiom_level(side, 0.5, 3, rng) for side in (2, 3, 3)]
    write("levels.txt", "".join(levels))
    run = run_pzc("solve", "hexiom", "levels.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    out = json_lines(run)
    assert [o["instance"] for o in out] == [f"levels.txt#{k}" for k in (1, 2, 3)]
    for o, level, side in zip(out, levels, (2, 3, 3)):
        assert o["status"] == "solved" and o["verified"] is True
        grid = o["grid"]
        # the tile moves (an answer that rearranges the clues) replayed on
        # the level give the grid, each onto a free cell
        board, _ = gen.hexiom_parse(level.splitlines()[1:])
        for move in o["moves"]:
            source, target = tuple(move["from"]), tuple(move["to"])
            assert board.get(source) == int(move["tile"]) and target not in board
            board[target] = board.pop(source)
        assert board == gen.hexiom_parse(grid)[0]
        assert len(grid) == 2 * side - 1
        assert "".join(grid).count("+") == 3
        # the same cells are locked as in the level, with the same contents
        assert gen.hexiom_valid(side, level, grid)


def test_json_hexiom_example_layout(examples, run_pzc):
    run = run_pzc("solve", "hexiom", examples / "hexiom" / "small.txt", "--format", "json")
    (out,) = json_lines(run)
    grid = out["grid"]
    text = (examples / "hexiom" / "small.txt").read_text()
    # each row starts where the level's row starts: 3, 2, 1, 2, 3 characters in,
    # one less where the row's first cell is locked ('+' takes the space)
    starts = [len(row.replace("+", " ")) - len(row.replace("+", " ").lstrip()) for row in grid]
    assert starts == [3, 2, 1, 2, 3]
    assert [len(row) - len(row.lstrip()) for row in grid] == \
        [len(row) - len(row.lstrip()) for row in text.splitlines()[1:]]
    assert [len(row.replace("+", " ").split()) for row in grid] == [3, 4, 5, 4, 3]
    # locked cells keep their '+' in the same place as in the level
    plus = [[i for i, ch in enumerate(row) if ch == "+"] for row in text.splitlines()[1:]]
    assert [[i for i, ch in enumerate(row) if ch == "+"] for row in grid] == plus
    assert any(plus)
    assert gen.hexiom_valid(3, text, grid)


def test_json_puzlogic_grid_and_moves(write, run_pzc):
    level = gen.puzlogic_level(4, 5, 2, random.Random(8))
    write("level.json", gen.dumps(level))
    run = run_pzc("solve", "puzlogic", "level.json", "--format", "json")
    assert run.returncode == 0, run.stderr
    (out,) = json_lines(run)
    assert out["status"] == "solved" and out["verified"] is True
    moves = out["moves"]
    assert all(set(m) == {"piece", "to"} and len(m["to"]) == 2 for m in moves)
    assert gen.puzlogic_valid(level, moves)
    # the grid: '#' where the level has no cell, the values elsewhere
    value = {(r, c): v for r, c, v in level["board"]}
    for m in moves:
        value[tuple(m["to"])] = m["piece"]
    height = max(r for r, _ in value) + 1
    width = max(c for _, c in value) + 1
    want = ["".join("#" if (r, c) not in value else "." if value[(r, c)] == -1
                    else str(value[(r, c)]) for c in range(width)) for r in range(height)]
    assert out["grid"] == want


def test_json_unsat_and_error_records(write, run_pzc):
    write("un.txt", UNSAT4)
    write("bad.txt", "4..1\n...3\n3..4\n1.3\n")
    run = run_pzc("solve", "sudoku", "un.txt", "bad.txt", "--format", "json")
    assert run.returncode == 2
    unsat, error = json_lines(run)
    assert unsat["status"] == "unsat"
    assert (unsat["grid"], unsat["moves"], unsat["verified"]) == (None, None, None)
    assert unsat["hint"] == "explain" and "hint" not in error
    assert set(unsat["stats"]) == STATS_FIELDS
    assert error["status"] == "error" and error["instance"] == "bad.txt"
    assert error["error"] == {"message": "this row has 3 cells, but the row on line 1 has 4; "
                                         "every row must have the same length",
                              "file": "bad.txt", "line": 4, "column": 4}
    assert (error["grid"], error["verified"]) == (None, None)


def test_json_error_for_a_missing_file(run_pzc):
    run = run_pzc("solve", "sudoku", "missing.txt", "--format", "json")
    assert run.returncode == 2
    (out,) = json_lines(run)
    assert out["status"] == "error" and out["instance"] == "missing.txt"
    assert out["error"] == {"message": "no such instance file: missing.txt", "file": None,
                            "line": None, "column": None}


# ------------------------------------------------------------------ stdin

def test_instance_from_standard_input(run_pzc):
    run = run_pzc("solve", "sudoku", "-", "--format", "json", stdin=GRID4)
    assert run.returncode == 0, run.stderr
    (out,) = json_lines(run)
    assert out["instance"] == "<stdin>" and out["status"] == "solved"
    assert gen.sudoku_valid(out["grid"], GRID4.split())


def test_several_instances_from_standard_input(run_pzc):
    run = run_pzc("solve", "sudoku", "-", "--format", "json", stdin=GRID4 + "\n" + UNSAT4)
    assert run.returncode == 1
    out = json_lines(run)
    assert [(o["instance"], o["status"]) for o in out] == [("<stdin>#1", "solved"),
                                                           ("<stdin>#2", "unsat")]


def test_hexiom_from_standard_input(examples, run_pzc):
    text = (examples / "hexiom" / "small.txt").read_text()
    run = run_pzc("solve", "hexiom", "-", stdin=text)
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0] == "<stdin>: solved, verified"
    assert gen.hexiom_valid(3, text, [line[2:] for line in lines[1:6]])


# ------------------------------------------------------------------ exit codes

def test_exit_0_when_all_are_solved(write, run_pzc, examples):
    run = run_pzc("solve", "sudoku", examples / "sudoku" / "grid4.txt",
                  examples / "sudoku" / "three.txt")
    assert run.returncode == 0
    assert run.stdout.count("solved, verified") == 4


def test_exit_1_when_an_instance_has_no_solution(write, run_pzc):
    write("un.txt", UNSAT4)
    run = run_pzc("solve", "sudoku", "un.txt")
    assert (run.returncode, run.stdout, run.stderr) == (1, "un.txt: no solution; run pzc explain for why\n\n", "")


@pytest.mark.parametrize("files, code", [
    (["ok", "ok"], 0),
    (["ok", "unsat"], 1),
    (["unsat", "ok", "unsat"], 1),
    (["ok", "bad"], 2),
    (["unsat", "bad", "ok"], 2),
    (["missing", "unsat"], 2),
])
def test_combined_exit_codes(files, code, write, run_pzc):
    write("ok.txt", GRID4)
    write("unsat.txt", UNSAT4)
    write("bad.txt", GRID4.replace("1.3.", "1.3.."))
    run = run_pzc("solve", "sudoku", *(f + ".txt" for f in files), "--format", "json")
    assert run.returncode == code, run.stderr
    want = {"ok": "solved", "unsat": "unsat", "bad": "error", "missing": "error"}
    assert [o["status"] for o in json_lines(run)] == [want[f] for f in files]


def test_worst_exit_order():
    assert api.worst_exit([]) == 0
    assert api.worst_exit([0, 0]) == 0
    assert api.worst_exit([0, 1]) == 1
    assert api.worst_exit([1, 3]) == 3
    assert api.worst_exit([3, 1, 2]) == 2
    assert api.worst_exit([2, 4, 3]) == 4
    assert api.worst_exit([4, 0]) == 4


@pytest.mark.slow
def test_exit_3_on_timeout_and_combined(write, run_pzc):
    # glucose4 can be interrupted; 21 pigeons in 20 holes are far beyond half a second
    write("pigeons.pz", PIGEONS)
    write("mixed.txt", pigeon_block(2, 2) + pigeon_block(2, 3) + pigeon_block(20, 21))
    write("bad.txt", "12\n345\n")
    run = run_pzc("solve", "pigeons.pz", "mixed.txt", "--solver", "glucose4",
                  "--timeout", "0.5", "--format", "json", timeout=60)
    assert run.returncode == 3, run.stderr
    solved, unsat, slow = json_lines(run)
    assert [o["instance"] for o in (solved, unsat, slow)] == \
        ["mixed.txt#1", "mixed.txt#2", "mixed.txt#3"]
    assert solved["status"] == "solved" and sorted(solved["grid"]) == ["01", "10"]
    assert unsat["status"] == "unsat"
    assert slow["status"] == "timeout"
    assert (slow["grid"], slow["moves"], slow["verified"]) == (None, None, None)
    assert slow["stats"]["solver"] == "glucose4"
    # bad input outranks the timeout
    run = run_pzc("solve", "pigeons.pz", "bad.txt", "mixed.txt", "--solver", "glucose4",
                  "--timeout", "0.5", timeout=60)
    assert run.returncode == 2
    assert "mixed.txt#3: time limit reached\n" in run.stdout


def test_timeout_with_the_default_solver(write, run_pzc):
    # cadical195 (the default) ignores PySAT's interrupt: the limit must still hold
    write("pigeons.pz", PIGEONS)
    write("php.txt", pigeon_block(20, 21))
    try:
        run = run_pzc("solve", "pigeons.pz", "php.txt", "--timeout", "0.5", "--format", "json",
                      timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("--timeout 0.5 with cadical195 still ran after 20 s")
    assert run.returncode == 3, run.stderr
    (out,) = json_lines(run)
    assert out["status"] == "timeout" and out["stats"]["solver"] == "cadical195"


# ------------------------------------------------------------------ backends, solvers

@pytest.mark.slow
def test_smt_backend_solves_all_three_kinds(write, run_pzc, examples):
    level = gen.puzlogic_level(4, 4, 1, random.Random(1))
    write("level.json", gen.dumps(level))
    runs = {
        "sudoku": run_pzc("solve", "sudoku", examples / "sudoku" / "grid4.txt", "--backend", "smt",
                          "--format", "json"),
        "hexiom": run_pzc("solve", "hexiom", examples / "hexiom" / "small.txt", "--backend", "smt",
                          "--format", "json"),
        "puzlogic": run_pzc("solve", "puzlogic", "level.json", "--backend", "smt",
                            "--format", "json"),
    }
    for name, run in runs.items():
        assert run.returncode == 0, (name, run.stderr)
        (out,) = json_lines(run)
        assert out["status"] == "solved" and out["verified"] is True
        assert (out["stats"]["backend"], out["stats"]["solver"]) == ("smt", "z3")
    puzzle = (examples / "sudoku" / "grid4.txt").read_text().split()
    assert gen.sudoku_valid(json_lines(runs["sudoku"])[0]["grid"], puzzle)
    hexiom_text = (examples / "hexiom" / "small.txt").read_text()
    assert gen.hexiom_valid(3, hexiom_text, json_lines(runs["hexiom"])[0]["grid"])
    assert gen.puzlogic_valid(level, json_lines(runs["puzlogic"])[0]["moves"])


def test_smt_backend_reports_no_solution(write, run_pzc):
    write("un.txt", UNSAT4)
    run = run_pzc("solve", "sudoku", "un.txt", "--backend", "smt")
    assert (run.returncode, run.stdout) == (1, "un.txt: no solution; run pzc explain for why\n\n")


def test_other_sat_solvers(write, run_pzc):
    write("g.txt", GRID4)
    for solver in ("glucose4", "minisat22"):
        run = run_pzc("solve", "sudoku", "g.txt", "--solver", solver, "--format", "json")
        assert run.returncode == 0, run.stderr
        (out,) = json_lines(run)
        assert out["stats"]["solver"] == solver
        assert gen.sudoku_valid(out["grid"], GRID4.split())


def test_version(run_pzc):
    run = run_pzc("--version")
    assert run.returncode == 0
    assert re.fullmatch(r"pzc \d+\.\d+\.\d+\S*\n", run.stdout)


# ------------------------------------------------------------------ I/O around the edges

def test_cr_only_line_ends_read_as_rows(write, run_pzc):
    write("cr.txt", GRID4.replace("\n", "\r"))
    run = run_pzc("solve", "sudoku", "cr.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert gen.sudoku_valid(json.loads(run.stdout)["grid"], GRID4.split())


@pytest.mark.slow
def test_escape_sequences_in_an_instance_are_printed_escaped(write, run_pzc):
    write("esc.txt", "3 1\n\x1b.\x1b\n")             # a Numberlink pair labelled ESC
    run = run_pzc("solve", "numberlink", "esc.txt")
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout and "\\x1b\\x1b\\x1b" in run.stdout
    write("bad.txt", "4..1\n..\x1b[2J.3\n3..4\n1.3.\n")
    run = run_pzc("solve", "sudoku", "bad.txt")
    assert run.returncode == 2 and "\x1b" not in run.stderr
    assert "bad.txt:2:" in run.stderr and "..\\x1b[2J.3" in run.stderr


def test_a_file_that_is_not_utf8_gets_a_position(run_pzc, tmp_path):
    (tmp_path / "latin.txt").write_bytes(b"4..1\n...3\n3.\xe9.4\n1.3.\n")
    run = run_pzc("solve", "sudoku", "latin.txt")
    assert run.returncode == 2
    assert "latin.txt:3:3: error: latin.txt is not UTF-8 text: byte 0xe9" in run.stderr
    (tmp_path / "latin.pz").write_bytes(b"puzzle latin\n# caf\xe9\n")
    run = run_pzc("check", "latin.pz")
    assert run.returncode == 2 and "latin.pz:2:6: error" in run.stderr


@pytest.mark.slow
def test_a_built_in_name_wins_over_a_directory(write, run_pzc, tmp_path):
    (tmp_path / "sudoku").mkdir()
    write("grid.txt", GRID4)
    run = run_pzc("solve", "sudoku", "grid.txt")
    assert run.returncode == 0, run.stderr
    (tmp_path / "mine").mkdir()
    run = run_pzc("solve", "./sudoku", "grid.txt")
    assert (run.returncode, run.stderr.strip()) == (2, "pzc: error: ./sudoku is a directory, not a spec file")
    run = run_pzc("solve", "sudoku", "mine")
    assert run.returncode == 2 and "pzc: error: mine is a directory, not an instance file" in run.stderr


def _shell(command, cwd):
    """Run a bash command line (for redirections) with `pzc` as this interpreter's module."""
    pzc = f"{sys.executable} -m pzc.cli"
    return subprocess.run(["bash", "-c", command.replace("pzc ", pzc + " ", 1)], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def test_standard_input_closed_is_a_plain_error(tmp_path):
    proc = _shell("pzc solve sudoku - <&-", tmp_path)
    assert proc.returncode == 2
    assert "cannot read an instance file from standard input: it is closed" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_full_output_is_a_plain_error(write, tmp_path, fmt):
    write("grid.txt", "\n".join([GRID4] * 50))
    proc = _shell(f"pzc solve sudoku grid.txt --format {fmt} > /dev/full", tmp_path)
    assert (proc.returncode, proc.stderr.strip()) == \
        (2, "pzc: error: cannot write the output: No space left on device")


STDOUT_CLOSED = "pzc: error: cannot write the output: standard output is closed"


@pytest.mark.parametrize("command", [
    "pzc solve sudoku grid.txt", "pzc solve sudoku grid.txt --format json", "pzc specs",
    "pzc check sudoku", "pzc convert sudoku grid.txt --format url",
    "pzc batch sudoku grid.txt --workers 1", "pzc --version"])
@pytest.mark.slow
def test_standard_output_closed_is_output_that_cannot_be_written(write, tmp_path, command):
    write("grid.txt", GRID4)
    proc = _shell(command + " >&-", tmp_path)       # fd 1 really closed, not /dev/null
    assert (proc.returncode, proc.stderr.strip()) == (2, STDOUT_CLOSED)


@pytest.mark.slow
def test_with_standard_output_closed_files_are_still_written(write, tmp_path):
    write("grid.txt", GRID4)
    # the files opened must not take the closed fd 1: the answers land whole in them
    picture = _shell("pzc solve sudoku grid.txt --format svg -o grid.svg >&-", tmp_path)
    assert (picture.returncode, picture.stderr) == (0, "")
    assert (tmp_path / "grid.svg").read_text().startswith("<svg")
    batch = _shell("pzc batch sudoku grid.txt --workers 1 --quiet --out r.jsonl >&-", tmp_path)
    assert (batch.returncode, batch.stderr) == (0, "")
    (line,) = (tmp_path / "r.jsonl").read_text().splitlines()
    result = json.loads(line)
    plain = json.loads(_shell("pzc solve sudoku grid.txt --format json", tmp_path).stdout)
    assert result["status"] == "solved" and result["verified"] is True
    assert result["grid"] == plain["grid"]
    assert (tmp_path / "grid.svg").read_text() == \
        _shell("pzc solve sudoku grid.txt --format svg", tmp_path).stdout


@pytest.mark.parametrize("args, code", [
    ("solve sudoku missing.txt", 2), ("solve sudoku missing.txt --format json", 2),
    ("solve sudokku grid.txt", 2), ("solve sudoku grid.txt", 0)])
@pytest.mark.slow
def test_standard_error_closed_keeps_the_exit_code_and_the_output(write, tmp_path, args, code):
    write("grid.txt", GRID4)
    open_ = _shell(f"pzc {args}", tmp_path)
    closed = _shell(f"pzc {args} 2>&-", tmp_path)
    assert open_.returncode == closed.returncode == code
    # the messages meant for standard error are lost, not printed among the answers
    assert closed.stdout == open_.stdout
    assert "pzc: error" not in closed.stdout and "Traceback" not in closed.stdout


def test_output_cut_by_a_closed_pipe_exits_141(write, tmp_path):
    write("many.txt", "\n".join([GRID4] * 300))
    proc = _shell("pzc solve sudoku many.txt | head -1; exit ${PIPESTATUS[0]}", tmp_path)
    assert proc.returncode == 141          # README: 141, the output was cut
    assert proc.stdout == "many.txt#1: solved, verified\n" and proc.stderr == ""
