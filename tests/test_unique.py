"""pzc unique: exactly one solution, or two witnesses and where they differ.

The instances are the small boards of tests/brute.py, whose every answer
its brute force lists; for each spec they are written into one file (one
file each for Puzlogic's JSON levels) so that one run answers them all, as
path#1, path#2, ...  Against the brute force: an instance with one answer is
unique and its witness is that answer; one with none has no witness; one with
several shows two different answers, each valid by the independent checkers
of generators.py, and `differ` lists exactly the cells where they differ.
Run on the SAT backend (lazy and eager connectivity) and on Z3.
"""

from __future__ import annotations

import json
import re

import pytest

import answers
import brute
from conftest import EXAMPLES
from outcomes import no_traceback

UNIQUE_FIELDS = {"instance", "spec", "unique", "witnesses", "differ"}


def cases(spec, only=None):
    """[(case id, instance text, the brute force's answers)] of one spec;
    ``only(n)`` keeps the cases with n answers."""
    out = []
    for case_id, name, text in brute.CASES:
        if name == spec:
            want = brute.reference(case_id, name, text)
            if only is None or only(len(want)):
                out.append((case_id, text, want))
    if spec == "puzlogic" and (only is None or only(1)):
        level = (EXAMPLES / "puzlogic" / "level.json").read_text()
        out.append(("puzlogic-example", level, brute.puzlogic_brute(json.loads(level))))
    return out


def instance_files(directory, spec, chosen):
    """The files to name on the command line and the instance name pzc gives each case."""
    if spec == "puzlogic":              # a JSON level is a file of its own
        names = []
        for case_id, text, _ in chosen:
            (directory / f"{case_id}.json").write_text(text)
            names.append(f"{case_id}.json")
        return names, names
    (directory / "all.txt").write_text(answers.joined([text for _, text, _ in chosen]))
    if len(chosen) == 1:
        return ["all.txt"], ["all.txt"]
    return ["all.txt"], [f"all.txt#{k}" for k in range(1, len(chosen) + 1)]


MODES = {"sat": [], "lazy": ["--connectivity", "lazy"], "eager": ["--connectivity", "eager"],
         "smt": ["--backend", "smt"]}
SPEC_MODES = [(s, m) for s in answers.SPECS
              for m in (("lazy", "eager", "smt") if s in answers.CONNECTED else ("sat", "smt"))]

ONLY = {"all": None, "unique": lambda n: n == 1}
TEXT_MODE = {s: "lazy" if s in answers.CONNECTED else "sat" for s in answers.SPECS}
EXIT_0 = [(s, "sat") for s in answers.SPECS] + [("sudoku", "smt")]
_RUNS = {}


def run_unique(tmp_path_factory, keys):
    """Run `pzc unique` for each (spec, mode, format, tag) not run yet, over
    the spec's cases (all of them, or those with one answer), side by side;
    the outcome is kept as (run, chosen cases, instance names)."""
    todo = [k for k in dict.fromkeys(keys) if k not in _RUNS]
    calls, made = [], []
    for spec, mode, fmt, tag in todo:
        chosen = cases(spec, ONLY[tag])
        directory = tmp_path_factory.mktemp(f"unique-{spec}-{tag}")
        files, names = instance_files(directory, spec, chosen)
        calls.append((("unique", spec, *files, "--format", fmt, *MODES[mode]), directory))
        made.append((chosen, names))
    for key, run, (chosen, names) in zip(todo, answers.run_many(calls), made):
        _RUNS[key] = (run, chosen, names)


@pytest.fixture(scope="module", autouse=True)
def _all_runs(tmp_path_factory):
    """The runs the tests below read, made up front."""
    run_unique(tmp_path_factory, [(s, m, "json", "all") for s, m in SPEC_MODES]
               + [(s, m, "json", "unique") for s, m in EXIT_0]
               + [(s, TEXT_MODE[s], fmt, "all") for s in answers.SPECS for fmt in ("text", "json")])


def unique_run(tmp_path_factory, spec, mode, fmt, tag="all"):
    key = (spec, mode, fmt, tag)
    run_unique(tmp_path_factory, [key])
    return _RUNS[key]


def json_objects(run):
    no_traceback(run)
    out = [json.loads(line) for line in run.stdout.splitlines()]
    for obj in out:
        assert UNIQUE_FIELDS <= set(obj), obj
    return out


@pytest.mark.slow
def test_the_cases_hold_each_outcome_for_every_spec():
    """Each spec has an instance with no answer, one with exactly one and one
    with several, so that every branch below is exercised."""
    for spec in answers.SPECS:
        sizes = {min(len(want), 2) for _, _, want in cases(spec)}
        assert sizes == {0, 1, 2}, (spec, sizes)


@pytest.mark.parametrize("spec,mode", SPEC_MODES, ids=[f"{s}-{m}" for s, m in SPEC_MODES])
def test_unique_json_agrees_with_brute_force(spec, mode, tmp_path_factory):
    run, chosen, names = unique_run(tmp_path_factory, spec, mode, "json")
    objs = json_objects(run)
    assert run.returncode == 1, run.stderr        # some instance has none or several
    assert [o["instance"] for o in objs] == names
    for (case_id, text, want), obj in zip(chosen, objs):
        answers.check_unique(spec, text, want, obj)
        assert obj["stats"]["backend"] == ("smt" if mode == "smt" else "sat"), case_id
        if mode == "eager":                     # no lazy cuts: all encoded up front
            assert "cuts" not in obj["stats"], case_id
        if mode == "lazy":
            assert obj["stats"].get("connectivity", "lazy") == "lazy", case_id


@pytest.mark.parametrize("spec,mode", EXIT_0, ids=lambda x: x)
def test_exit_0_when_every_instance_is_unique(spec, mode, tmp_path_factory):
    run, chosen, names = unique_run(tmp_path_factory, spec, mode, "json", "unique")
    objs = json_objects(run)
    assert run.returncode == 0, run.stderr
    assert len(chosen) >= 1 and [o["instance"] for o in objs] == names
    for (case_id, text, want), obj in zip(chosen, objs):
        answers.check_unique(spec, text, want, obj)
        assert answers.key(spec, text, obj["witnesses"][0]) == next(iter(want))


def marks_row(spec, row, r, differ):
    """The witness row with each cell replaced by '*' where the boards differ,
    '.' elsewhere; spacing, Hexiom's lock marks and Puzlogic's '#' (no cell)
    stay."""
    spots = {k for rr, k in differ if rr == r}
    count = iter(range(len(row)))

    def mark(match):
        k = next(count)
        return match.group(1) + ("*" if k in spots else ".")

    if spec == "hexiom":
        return re.sub(r"(\+?)[^\s+]", mark, row)
    if spec == "nurikabe":
        return re.sub(r"()\S+" if " " in row else r"()\S", mark, row)
    return "".join(ch if spec == "puzlogic" and ch == "#" else "*" if k in spots else "."
                   for k, ch in enumerate(row))


def text_blocks(stdout):
    """{instance: (status line, [board lines])} of the text output."""
    out = {}
    for block in stdout.split("\n\n"):
        lines = block.splitlines()
        if lines:
            name, status = lines[0].split(": ", 1)
            out[name] = (status, lines[1:])
    return out


@pytest.mark.parametrize("spec", answers.SPECS)
def test_unique_text_output(spec, tmp_path_factory):
    """The text shows the same outcomes as JSON: the one answer, nothing,
    or the two witnesses side by side with '*' under the differing cells."""
    run, chosen, names = unique_run(tmp_path_factory, spec, TEXT_MODE[spec], "text")
    no_traceback(run)
    assert run.returncode == 1, run.stderr
    objs = json_objects(unique_run(tmp_path_factory, spec, TEXT_MODE[spec], "json")[0])
    blocks = text_blocks(run.stdout)
    assert list(blocks) == names
    for (case_id, text, want), name, obj in zip(chosen, names, objs):
        answers.check_unique(spec, text, want, obj)
        status, lines = blocks[name]
        if len(want) == 0:
            assert (status, lines) == ("no solution", []), case_id
        elif len(want) == 1:
            assert status == "exactly one solution", case_id
            assert lines == ["  " + row for row in obj["witnesses"][0]], case_id
        else:
            assert status == "not unique: two solutions differ", case_id
            first, second = obj["witnesses"]
            assert re.match(r"  first +second +differ \(\*\)$", lines[0]), lines[0]
            assert len(lines) == 1 + len(first)
            width = max(len(row) for row in first + second)
            stars = 0
            for r, (line, a, b) in enumerate(zip(lines[1:], first, second)):
                marks = marks_row(spec, a, r, obj["differ"])
                stars += marks.count("*")
                # three aligned columns: first, second, marks
                assert line.rstrip() == f"  {a:<{width}}   {b:<{width}}   {marks}".rstrip(), \
                    (case_id, line, marks)
            assert stars == len(obj["differ"]) > 0


@pytest.mark.slow
def test_one_instance_per_file_and_stdin(write, run_pzc):
    """A file holding one instance is named by its path; files and standard
    input are answered in order, and the exit code is 1 as soon as one
    instance has several answers or none, alone or among unique ones."""
    chosen = {}
    for name, only in (("u.txt", lambda n: n == 1), ("s.txt", lambda n: n > 1),
                       ("n.txt", lambda n: n == 0)):
        _, text, want = chosen[name] = cases("sudoku", only)[0]
        write(name, text)
    run = run_pzc("unique", "sudoku", "u.txt", "-", "--format", "json", stdin=chosen["u.txt"][1])
    objs = json_objects(run)
    assert run.returncode == 0, run.stderr
    assert [(o["instance"], o["unique"]) for o in objs] == [("u.txt", True), ("<stdin>", True)]
    assert objs[0]["witnesses"] == objs[1]["witnesses"]
    for files in (["s.txt"], ["n.txt"], ["u.txt", "s.txt", "u.txt"]):
        run = run_pzc("unique", "sudoku", *files, "--format", "json")
        objs = json_objects(run)
        assert run.returncode == 1, (files, run.stderr)
        assert [o["instance"] for o in objs] == files
        for name, obj in zip(files, objs):
            answers.check_unique("sudoku", chosen[name][1], chosen[name][2], obj)


# a spec whose answer is a list of moves, with no board
MOVES_ONLY = """\
puzzle pick "pick one cell"
board square
var pick[c in cells] : bool
show moves(c in cells where pick[c]): to = c
rule one: count(c in cells: pick[c]) = 1
"""


def test_unique_text_on_a_moves_only_spec(write, run_pzc):
    write("pick.pz", MOVES_ONLY)
    write("three.txt", "...\n")
    run = run_pzc("unique", "pick.pz", "three.txt")
    no_traceback(run)
    assert run.returncode == 1, run.stderr
    assert run.stdout.startswith("three.txt: not unique")
    assert run.stdout.count("1. to (0, ") == 2       # each witness shows its move


def test_an_instance_error_among_others_is_exit_2(write, run_pzc):
    """A board the spec refuses (3 x 3 is no Sudoku) is an error object in the
    stream, located in its file, and the exit code is 2 whatever the others."""
    several = next(t for c, t, _ in cases("sudoku", only=lambda n: n > 1))
    write("s.txt", several)
    write("bad.txt", "1..\n...\n...\n")
    run = run_pzc("unique", "sudoku", "s.txt", "bad.txt", "--format", "json")
    several_obj, bad = json_objects(run)
    assert run.returncode == 2
    assert several_obj["instance"] == "s.txt" and several_obj["unique"] is False
    assert (bad["instance"], bad["unique"], bad["witnesses"]) == ("bad.txt", False, [])
    assert (bad["error"]["file"], bad["error"]["line"], bad["error"]["column"]) == ("bad.txt", 1, 1)


def test_unreadable_instance_files_give_unique_objects(write, run_pzc):
    write("ragged.txt", "1234\n12\n")
    run = run_pzc("unique", "sudoku", "ragged.txt", "missing.txt", "--format", "json")
    assert run.returncode == 2
    objs = [json.loads(line) for line in run.stdout.splitlines()]
    assert [o["instance"] for o in objs] == ["ragged.txt", "missing.txt"]
    for obj in objs:
        assert UNIQUE_FIELDS <= set(obj), obj
        assert "grid" not in obj
