"""pzc deduce: what every solution draws alike, checked against full
enumeration (count's solutions) on small boards of many genres and on both
the SAT and the SMT backend; its statuses, outputs and time limit."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from pzc import api

import pzprjs
from conftest import ROOT

# (spec, example instance, the clue taken out so that it has a few solutions)
OPEN_CASES = [
    ("sudoku", "grid4.txt", (0, 2)),
    ("akari", "light7.txt", (0, 3)),
    ("masyu", "small.txt", (0, 1)),
    ("fillomino", "small.txt", (0, 5)),
    ("heyawake", "six.txt", (0, 0)),
    ("yinyang", "six.txt", (0, 5)),
    ("hitori", "six.txt", (0, 0)),
    ("skyscrapers", "five.txt", (1, -1)),
    ("kakuro", "small.txt", (0, 0)),
    ("tatamibari", "six.txt", (3, 4)),
    ("creek", "six.txt", (0, 5)),
    ("gokigen", "six.txt", (0, 5)),
    ("kurodoko", "six.txt", (2, 1)),
    ("cave", "six.txt", (0, 0)),
    ("nanro", "small.txt", (0, 5)),
    ("makaro", "small.txt", (1, 4)),
    ("ripple", "small.txt", (0, 2)),
    ("sukoro", "small.txt", (0, 4)),
    ("kurotto", "six.txt", (1, 0)),
]


def opened(name, example, cell):
    spec = api.load_spec(name)
    inst = api.load_instances(spec, str(ROOT / "specs" / "examples" / name / example))[0]
    inst = inst.copy()
    del inst.clues[cell]
    inst.tokens.pop(cell, None)
    return spec, inst


def common_places(solutions) -> dict:
    """place -> text, where every enumerated solution draws the same text."""
    first = solutions[0].cells
    return {p: t for p, t in first.items() if all(s.cells[p] == t for s in solutions)}


# Z3 counts no Fillomino of 8x8 in a minute (groupsize), so that one is SAT's alone
BOTH = [(*case, backend) for case in OPEN_CASES for backend in ("sat", "smt")
        if (case[0], backend) != ("fillomino", "smt")]


@pytest.mark.parametrize("name,example,cell,backend", BOTH,
                         ids=[f"{c[0]}-{c[3]}" for c in BOTH])
def test_deduce_is_what_every_enumerated_solution_shares(name, example, cell, backend):
    spec, inst = opened(name, example, cell)
    counted = api.count(spec, inst, backend=backend, limit=100)
    assert counted.complete and counted.count >= 2, (counted.count, counted.complete)
    result = api.deduce(spec, inst, backend=backend)
    assert result.status == "several" and result.exit_code == 0
    want = common_places(counted.found.solutions)
    assert result.cells == want
    assert sorted(map(tuple, result.open)) == sorted(set(counted.found.solutions[0].cells) - set(want))
    assert result.undecided == [] and not result.partial
    assert 2 <= result.solutions <= counted.count
    # the partial answer's values (a pzprv3 file's) are the same in every solution
    answers = counted.answers
    for name, table in result.answer.values.items():
        for key, value in table.items():
            assert all(a.values[name][key] == value for a in answers), (name, key)
    assert result.answer.cells == want
    # the board: each determined place's text, '?' where solutions differ
    marks = {tuple(p): "?" for p in result.open}
    first = counted.found.solutions[0]
    assert len(result.board) == len(first.grid)
    assert result.determined + len(result.open) == len(first.cells)
    assert all(marks.get(p, t) in "".join(result.board) for p, t in first.cells.items())


def test_a_unique_puzzle_is_determined_everywhere_and_drawn_as_its_answer():
    spec = api.load_spec("masyu")
    inst = api.load_instances(spec, str(ROOT / "specs/examples/masyu/small.txt"))[0]
    result = api.deduce(spec, inst)
    assert result.status == "unique" and result.exit_code == 0
    assert result.open == [] and result.solutions == 1
    assert result.board == api.solve(spec, inst).grid


def test_the_cli_prints_the_board_with_open_places(run_pzc):
    out = run_pzc("deduce", "masyu", "docs/tutorial/masyu-open.txt", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == ("docs/tutorial/masyu-open.txt: several solutions: 17 places "
                        "determined, 19 open ('?')")
    assert lines[1:] == ["  ??─???", "  ??─???", "  ??─???", "  ??┌┐??", "  │.│││.",
                         "  └─┘└┘.", ""]
    data = json.loads(run_pzc("deduce", "masyu", "docs/tutorial/masyu-open.txt",
                              "--format", "json", cwd=ROOT).stdout)
    assert data["status"] == "several" and data["counts"] == {"determined": 17, "open": 19,
                                                              "undecided": 0}
    assert [[4, 0], "│"] in data["determined"] and [0, 0] in data["open"]
    # the lines every solution shares, keyed as an answer's values: the edge under (4, 0)
    assert [[[4, 0], [5, 0]], True] in data["values"]["link"]
    assert [[[0, 0], [0, 1]], True] not in data["values"]["link"]
    svg = run_pzc("deduce", "masyu", "docs/tutorial/masyu-open.txt", "--format", "svg",
                  cwd=ROOT).stdout
    assert svg.count('class="differs"') == 19


def test_pzprv3_files_hold_what_every_solution_shares(run_pzc):
    """A unique puzzle's file is solve's; an open one's holds the determined
    lines only, and pzprjs opens it as the same puzzle."""
    pzprjs.need()
    same = [run_pzc(command, "masyu", "specs/examples/masyu/small.txt", "--format", "pzprv3",
                    cwd=ROOT) for command in ("solve", "deduce")]
    assert same[0].returncode == same[1].returncode == 0
    assert same[0].stdout == same[1].stdout
    out = run_pzc("deduce", "masyu", "docs/tutorial/masyu-open.txt", "--format", "pzprv3",
                  cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # the vertical edges of the bottom rows: the determined lines of the board
    assert lines[-2:] == ["1 0 1 1 1 0 ", "1 0 1 1 1 0 "]
    spec = api.load_spec("masyu")
    opened_file = api.load_instances(spec, "open.pzprv3", text=out.stdout)[0]
    plain = api.load_instances(spec, str(ROOT / "docs/tutorial/masyu-open.txt"))[0]
    assert opened_file.clues == plain.clues
    verdicts = pzprjs.check([{"open": text} for text in (same[0].stdout, out.stdout)])
    assert verdicts[0]["complete"], verdicts[0]
    assert not verdicts[1]["complete"] and "error" not in verdicts[1]
    assert [line.strip() for line in verdicts[1]["file"].splitlines()[-2:]] == \
        [line.strip() for line in lines[-2:]]


def test_a_pzprv3_file_with_nothing_determined_holds_the_puzzle_alone(run_pzc):
    out = run_pzc("deduce", "https://puzz.link/p?akari/6/6/", "--format", "pzprv3")
    assert out.returncode == 0, out.stderr
    assert out.stdout == "pzprv3\nakari\n6\n6\n" + ". . . . . . \n" * 6


def test_no_solution_says_so_and_points_to_explain(run_pzc, tmp_path):
    (tmp_path / "none.txt").write_text("11..\n....\n....\n....\n")     # two 1s in a row
    out = run_pzc("deduce", "sudoku", str(tmp_path / "none.txt"))
    assert out.returncode == 1
    assert "no solution (pzc explain says why)" in out.stdout


def test_a_move_puzzle_is_refused(run_pzc):
    out = run_pzc("deduce", "sliding", "specs/examples/sliding/three.txt", cwd=ROOT)
    assert out.returncode == 2
    assert "'sliding' is a move puzzle" in out.stderr and "Traceback" not in out.stderr


# one place open at once (free), the others hang on a pigeonhole proof: 14
# pigeons in 13 holes, which no solver here proves in seconds
PIGEONS = """\
puzzle pigeons "a way out, or pigeons in fewer holes"
board square
var out : bool
var free : bool
var hole[c in cells] : 1..width * height - 1
show c: if c.col = 0 then (if free then 1 else 0) else (if out then 1 else 0)
rule holes: all c in cells: all d in cells where c.col < d.col: out or hole[c] != hole[d]
"""


@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_the_time_limit_gives_what_was_decided_so_far(tmp_path, backend):
    (tmp_path / "pigeons.pz").write_text(PIGEONS)
    (tmp_path / "fourteen.txt").write_text("14 1\n" + "." * 14 + "\n")
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "pzc", "deduce", "pigeons.pz", "fourteen.txt",
                          "--timeout", "1", "--backend", backend, "--format", "json"],
                         cwd=tmp_path, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    assert out.returncode == 3, out.stderr
    data = json.loads(out.stdout)
    assert data["status"] == "timeout" and data["partial"]
    assert data["undecided"][-13:] == [[0, c] for c in range(1, 14)]
    if backend == "sat":      # told to try other values first, it flips `free` at once
        assert data["open"] == [[0, 0]] and data["board"] == ["?" + "~" * 13]
    else:                     # Z3 may try `out` first, and hang there
        assert data["open"] + data["undecided"][:-13] == [[0, 0]]
        assert data["board"] in (["?" + "~" * 13], ["~" * 14])
    assert elapsed < 1 + 0.5 + 1.5           # the limit's promise, and the interpreter's start
