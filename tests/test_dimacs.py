"""pzc dimacs, pzc decode and the external backend.

The file `pzc dimacs` writes is read as plain DIMACS (header, clauses,
literal range) and its symbol table as docs/dimacs.md describes it; the
`c map` lines and the `--map` JSON must agree.  A SAT solver that is not
pzc's (a PySAT solver run here, and the `cadical` binary) solves the file;
the model is decoded twice, once through the symbol table by this file's own
reader and once by `pzc decode`, and the board is judged by the independent
checkers of generators.py.  Unsolvable instances give unsatisfiable files,
and enumerating the models of a file projected on its shown variables finds
exactly the answers of tests/brute.py's brute force and of `pzc count`.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import answers
import brute
import generators as gen
from conftest import EXAMPLES, needs_cadical, run_cli
from outcomes import JSON_FIELDS, assert_located, no_traceback

# slow as a whole: the exports and decodes every test reads are made up front
# (about 50 pzc processes, 16 s), then each test runs pzc again
pytestmark = pytest.mark.slow

ENUM = {case_id: (spec, text) for case_id, spec, text in brute.CASES}
SOLVER = "glucose4"           # not pzc's default, cadical195
SHOWN = {"sudoku": "v", "hexiom": "tile", "puzlogic": "put", "numberlink": "colour",
         "nurikabe": "owner", "slitherlink": "on"}


# ================================================================ the cases

class Case:
    """An instance to export: its spec, the file holding it, the INSTANCE
    argument (path or path#k), the puzzle text the checkers read and, when the
    brute force of tests/brute.py knows them, all its answers."""

    def __init__(self, case_id, spec, text, file_text=None, arg=None):
        self.id, self.spec, self.text = case_id, spec, text
        self.name = "level.json" if spec == "puzlogic" else "puzzle.txt"
        self.file_text = text if file_text is None else file_text
        self.arg = arg or self.name
        self.want = None
        if case_id in ENUM:
            self.want = brute.reference(case_id, *ENUM[case_id])
        elif spec == "puzlogic":
            self.want = brute.puzlogic_brute(json.loads(text))

    def __repr__(self):
        return self.id


def _sudoku_three():
    """The second 9x9 puzzle of examples/sudoku/three.txt (one per line), as
    puzzle.txt#2."""
    file_text = (EXAMPLES / "sudoku" / "three.txt").read_text()
    line = [l for l in file_text.splitlines() if l and not l.startswith("#")][1]
    rows = "".join(line[9 * r:9 * r + 9] + "\n" for r in range(9))
    return Case("sudoku-three#2", "sudoku", rows, file_text, "puzzle.txt#2")


def _round_trip_cases():
    rng = random.Random(2024)
    out = [Case("sudoku-grid4", "sudoku", ENUM["sudoku-grid4"][1]),
           Case("sudoku-keep0.3", "sudoku", ENUM["sudoku-keep0.3"][1]),
           _sudoku_three(),
           Case("hexiom3-small", "hexiom", ENUM["hexiom3-small"][1]),
           Case("puzlogic-example", "puzlogic", (EXAMPLES / "puzlogic" / "level.json").read_text()),
           Case("puzlogic-1", "puzlogic", ENUM["puzlogic-1"][1]),
           Case("numberlink-6x6", "numberlink", gen.numberlink_puzzle(6, 6, rng)[0]),
           Case("numberlink-two-ways", "numberlink", ENUM["numberlink-two-ways"][1]),
           Case("nurikabe-5x5", "nurikabe", gen.nurikabe_puzzle(5, 5, rng, unknown=0.3)),
           Case("slitherlink-5x5", "slitherlink", gen.slitherlink_puzzle(5, 5, rng, keep=0.5))]
    return out


CASES = _round_trip_cases()
BY_ID = {c.id: c for c in CASES}
FIRST_OF_SPEC = [next(c for c in CASES if c.spec == s) for s in answers.SPECS]
CADICAL_CASES = FIRST_OF_SPEC + [BY_ID["sudoku-three#2"]]


# ================================================================ reading the file

class Export:
    """One `pzc dimacs SPEC INSTANCE -o f.cnf --map f.json` run, parsed."""

    def __init__(self, directory, case, run):
        self.dir, self.case, self.run = directory, case, run
        assert run.returncode == 0, run.stderr
        self.path = directory / "f.cnf"
        self.lines = self.path.read_text().splitlines()
        self.map = json.loads((directory / "f.json").read_text())
        self.cnf = CNF(from_file=str(self.path))

    def header(self):
        """(variables, clauses) of the `p cnf` line."""
        p, = [l for l in self.lines if l.startswith("p ")]
        m = re.fullmatch(r"p cnf (\d+) (\d+)", p)
        assert m, p
        return int(m.group(1)), int(m.group(2))

    def comments(self, prefix):
        return [l[len(prefix):] for l in self.lines if l.startswith(prefix)]


_EXPORTS = {}


def export_all(tmp_path_factory, cases):
    """Export the cases not exported yet, side by side, each in a directory
    of its own."""
    todo = [c for c in cases if (c.id, c.arg) not in _EXPORTS]
    calls = []
    for case in todo:
        directory = tmp_path_factory.mktemp("dimacs")
        (directory / case.name).write_text(case.file_text)
        calls.append((("dimacs", case.spec, case.arg, "-o", "f.cnf", "--map", "f.json"), directory))
    for case, (_, directory), run in zip(todo, calls, answers.run_many(calls)):
        _EXPORTS[case.id, case.arg] = Export(directory, case, run)


def export(tmp_path_factory, case) -> Export:
    """The export of a case, made once per session."""
    export_all(tmp_path_factory, [case])
    return _EXPORTS[case.id, case.arg]


def frozen(x):
    """JSON lists as tuples: [[0, 1]] -> ((0, 1),)."""
    return tuple(frozen(y) for y in x) if isinstance(x, list) else x


def model_values(table: dict, true: set) -> dict:
    """{(var, index): value} read through the symbol table from the set of true
    literals; a finite-domain variable must have exactly one true value, and a
    bool is True exactly when its literal is."""
    values, hits = {}, {}
    for e in table["map"]:
        at = (e["var"], frozen(e["index"]))
        on = e["literal"] in true
        if "value" not in e:
            values[at] = on
        elif on:
            hits[at] = hits.get(at, 0) + 1
            values[at] = frozen(e["value"])
        else:
            hits.setdefault(at, 0)
    assert all(n == 1 for n in hits.values()), {k: n for k, n in hits.items() if n != 1}
    return values


def board(case, table, true) -> list:
    """The rows a model prints, decoded through the symbol table alone."""
    values = model_values(table, true)
    var = SHOWN[case.spec]
    cell = {index[0]: v for (name, index), v in values.items() if name == var}
    rows = answers.puzzle_rows(case.text)
    if case.spec == "sudoku":
        return ["".join(gen.BASE36[cell[(r, c)]] for c in range(len(rows))) for r in range(len(rows))]
    if case.spec == "numberlink":
        w, h, _ = gen.numberlink_read(case.text)
        return ["".join(gen.BASE36[cell[(r, c)]] if isinstance(cell[(r, c)], int) else cell[(r, c)]
                        for c in range(w)) for r in range(h)]
    if case.spec == "nurikabe":
        tokens = [row.split() for row in rows]
        return gen.board_rows([["#" if cell[(r, c)] == "#" else tok for c, tok in enumerate(row)]
                               for r, row in enumerate(tokens)])
    if case.spec == "slitherlink":
        loop = {segment for segment, on in cell.items() if on}
        return gen.slitherlink_lattice(len(rows[0]), len(rows), loop, rows)
    if case.spec == "hexiom":
        _, locked = gen.hexiom_parse(rows[1:])
        tiles = {c: v for c, v in cell.items() if v != -1}
        return gen.hex_text(int(rows[0]), tiles, locked).splitlines()[1:]
    level = json.loads(case.text)
    grid = {(r, c): "." if v == -1 else str(v) for r, c, v in level["board"]}
    grid.update({c: str(v) for c, v in cell.items() if v != -1})
    h = max(r for r, _ in grid) + 1
    w = max(c for _, c in grid) + 1
    return ["".join(grid.get((r, c), "#") for c in range(w)) for r in range(h)]


def solve_file(exp, solver=SOLVER):
    """A model of the file by a PySAT solver (a list of literals), or None."""
    with Solver(name=solver, bootstrap_with=exp.cnf.clauses) as s:
        return s.get_model() if s.solve() else None


def v_lines(model, per_line=10) -> str:
    """The competition format, the model spread over several `v` lines."""
    out = ["c by " + SOLVER, "s SATISFIABLE"]
    for i in range(0, len(model), per_line):
        out.append("v " + " ".join(map(str, model[i:i + per_line])))
    out.append("v 0")
    return "\n".join(out) + "\n"


def check_board(case, rows):
    assert answers.valid(case.spec, case.text, rows), rows
    if case.want is not None:
        assert answers.key(case.spec, case.text, rows) in case.want


def decode(exp, model_text, *flags, name="model.out"):
    (exp.dir / name).write_text(model_text)
    run = run_cli("decode", exp.case.spec, exp.case.arg, "--model", name, *flags, cwd=exp.dir)
    no_traceback(run)
    return run


@pytest.fixture(scope="module", autouse=True)
def _prepared(tmp_path_factory):
    """The exports and decodes the tests below read, made up front."""
    export_all(tmp_path_factory, CASES + UNSAT_CASES
               + [c for spec in sorted(ENUMERATED) for c in enumerated_cases(spec)])
    decode_all(tmp_path_factory, CASES)


# ================================================================ the file

MAP_LINE = re.compile(r"(-?\d+) (\w+)\[(.*)\](?: = (.*))?")


def ints(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]


def flat(x):
    return [z for y in x for z in flat(y)] if isinstance(x, list) else [x]


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_dimacs_file_is_standard(case, tmp_path_factory):
    exp = export(tmp_path_factory, case)
    assert exp.run.stdout == "" and exp.run.stderr == ""
    nvars, nclauses = exp.header()
    p = next(i for i, l in enumerate(exp.lines) if l.startswith("p "))
    assert all(l.startswith("c") for l in exp.lines[:p]), "only comments before the header"
    body = exp.lines[p + 1:]
    assert len(body) == nclauses
    for line in body:
        lits = [int(x) for x in line.split()]
        assert lits[-1] == 0 and 0 not in lits[:-1], line
        assert all(1 <= abs(l) <= nvars for l in lits[:-1]), line
    assert (exp.cnf.nv <= nvars) and len(exp.cnf.clauses) == nclauses
    # literal 1 is the constant true
    assert [1] in exp.cnf.clauses

    assert re.fullmatch(r"c pzc \S+ DIMACS export", exp.lines[0])
    spec_line, = exp.comments("c spec: ")
    assert spec_line.startswith(f"{case.spec} (")
    assert exp.comments("c instance: ") == [case.arg]
    encodings, = exp.comments("c encodings: ")
    assert "connectivity eager" in encodings
    assert len(exp.comments("c symbols: ")) == 1

    table = exp.map
    assert (table["spec"], table["instance"], table["variables"], table["clauses"],
            table["true_literal"], table["encodings"]) == (case.spec, case.arg, nvars, nclauses,
                                                           1, encodings)
    # the c map lines and the JSON say the same, entry by entry
    lines = exp.comments("c map ")
    assert len(lines) == len(table["map"]) > 0
    seen = set()
    for line, entry in zip(lines, table["map"]):
        m = MAP_LINE.fullmatch(line)
        assert m, line
        lit, var, index, value = m.groups()
        assert (int(lit), var) == (entry["literal"], entry["var"]), (line, entry)
        assert 1 <= abs(int(lit)) <= nvars
        assert ints(index) == flat(entry["index"]), (line, entry)
        if value is None:
            assert "value" not in entry, (line, entry)
        elif value.startswith('"'):
            assert json.loads(value) == entry["value"], (line, entry)
        else:
            assert ints(value) == flat(entry["value"]), (line, entry)
        key = (var, index, value)
        assert key not in seen, line
        seen.add(key)
    assert {e["var"] for e in table["map"]} >= {SHOWN[case.spec]}


@pytest.mark.parametrize("case_id", ["sudoku-grid4", "numberlink-6x6"])
def test_clues_map_to_the_true_literal(case_id, tmp_path_factory):
    """A value the clues fix maps to literal 1, alone for its cell; a cell
    without a clue lists values of its domain, each once, and the constant
    literal only when a single value is left."""
    case = BY_ID[case_id]
    table = export(tmp_path_factory, case).map
    rows = answers.puzzle_rows(case.text)
    if case.spec == "numberlink":
        rows = rows[1:]
    labels = {ch for row in rows for ch in row if ch != "."}
    by_cell = {}
    for e in table["map"]:
        if e["var"] == SHOWN[case.spec]:
            by_cell.setdefault(frozen(e["index"])[0], []).append((e["literal"], e["value"]))
    assert set(by_cell) == {(r, c) for r in range(len(rows)) for c in range(len(rows[0]))}
    for (r, c), entries in by_cell.items():
        ch = rows[r][c]
        if ch != ".":
            assert entries == [(1, gen.BASE36.index(ch))], ((r, c), entries)
        else:
            values = [v for _, v in entries]
            assert len(values) == len(set(values)) >= 1
            assert set(values) <= ({gen.BASE36.index(x) for x in labels}
                                   if case.spec == "numberlink" else set(range(1, len(rows) + 1)))
            # a constant literal only for a value fixed before encoding
            assert len(entries) == 1 or all(abs(l) != 1 for l, _ in entries), ((r, c), entries)


def test_the_export_is_the_same_in_every_run(write, tmp_path):
    """The same spec and instance give the same file in another process (with
    another string hash seed), on stdout as with -o: what lets a later
    `pzc decode` read a model of it."""
    case = BY_ID["nurikabe-5x5"]
    write("puzzle.txt", case.text)
    outs = []
    for seed, args in (("1", ["-o", "a.cnf"]), ("2", [])):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-m", "pzc.cli", "dimacs", "nurikabe", "puzzle.txt",
                               *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == ""
    assert (tmp_path / "a.cnf").read_text() == outs[1]


def test_an_instance_of_a_file_holding_several_is_named(write, run_pzc):
    write("three.txt", (EXAMPLES / "sudoku" / "three.txt").read_text())
    run = run_pzc("dimacs", "sudoku", "three.txt")
    no_traceback(run)
    assert run.returncode == 2 and run.stdout == ""
    assert "three.txt#1" in run.stderr and "three.txt#3" in run.stderr
    run = run_pzc("dimacs", "sudoku", "three.txt#4")
    no_traceback(run)
    assert run.returncode == 2 and run.stdout == ""
    assert "#4" in run.stderr


# ================================================================ round trips

_DECODED = {}


def decode_all(tmp_path_factory, cases):
    """For each case not done yet: a PySAT model of its file, the board read
    from it through the symbol table, and `pzc decode --format json` of the
    model written as `v` lines (the decode runs side by side)."""
    todo = [c for c in cases if c.id not in _DECODED]
    export_all(tmp_path_factory, todo)
    made, calls = [], []
    for case in todo:
        exp = export(tmp_path_factory, case)
        model = solve_file(exp)
        assert model is not None, "a solvable instance gave an unsatisfiable file"
        made.append((exp, model, board(case, exp.map, set(model) | {1})))
        (exp.dir / "model.out").write_text(v_lines(model))
        calls.append((("decode", case.spec, case.arg, "--model", "model.out", "--format", "json"),
                      exp.dir))
    for case, (exp, model, rows), run in zip(todo, made, answers.run_many(calls)):
        _DECODED[case.id] = (exp, model, rows, run)


def decoded(tmp_path_factory, case):
    """(export, model, board by the symbol table, decode's JSON object)."""
    decode_all(tmp_path_factory, [case])
    exp, model, rows, run = _DECODED[case.id]
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    obj, = [json.loads(l) for l in run.stdout.splitlines()]
    return exp, model, rows, obj


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_round_trip_through_pysat(case, tmp_path_factory):
    """A PySAT model of the file, decoded through the symbol table here and by
    `pzc decode` from `v` lines, is one valid board."""
    exp, model, rows, obj = decoded(tmp_path_factory, case)
    check_board(case, rows)
    assert (obj["instance"], obj["spec"], obj["status"], obj["verified"]) == (
        case.arg, case.spec, "solved", True)
    assert obj["grid"] == rows
    nvars, nclauses = exp.header()
    assert (obj["stats"]["variables"], obj["stats"]["clauses"]) == (nvars, nclauses)
    if case.spec == "puzlogic":
        assert sorted(map(json.dumps, obj["moves"])) == sorted(
            map(json.dumps, answers.puzlogic_moves(json.loads(case.text), rows)))


@pytest.mark.parametrize("case", [BY_ID[c] for c in ("sudoku-keep0.3", "puzlogic-1",
                                                     "numberlink-two-ways")], ids=repr)
def test_decode_a_bare_list_of_literals(case, tmp_path_factory):
    exp, model, rows, _ = decoded(tmp_path_factory, case)
    run = decode(exp, " ".join(map(str, model)) + "\n", "--format", "json", name="bare.txt")
    assert run.returncode == 0, run.stderr
    obj = json.loads(run.stdout)
    assert (obj["status"], obj["verified"], obj["grid"]) == ("solved", True, rows)


def test_decode_minisat_result_and_stdin(tmp_path_factory):
    case = BY_ID["sudoku-grid4"]
    exp, model, rows, _ = decoded(tmp_path_factory, case)
    minisat = "SAT\n" + " ".join(map(str, model)) + " 0\n"
    run = decode(exp, minisat, name="minisat.out")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"{case.arg}: solved, verified"] + ["  " + r for r in rows] + [""]
    run = run_cli("decode", "sudoku", case.arg, "--model", "-", "--format", "json",
                  stdin=v_lines(model), cwd=exp.dir)
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["grid"] == rows


@pytest.mark.parametrize("spec", ["sudoku", "puzlogic", "numberlink"])
def test_decode_json_has_the_fields_of_solve(spec, tmp_path_factory):
    """`pzc decode --format json` prints what `pzc solve --format json` does;
    where the instance has one answer, the same board."""
    chosen = [c for c in CASES if c.spec == spec and c.arg == c.name]
    objs = [decoded(tmp_path_factory, c)[3] for c in chosen]
    run = run_cli("solve", spec, *[export(tmp_path_factory, c).dir / c.name for c in chosen],
                  "--format", "json")
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    solved = [json.loads(l) for l in run.stdout.splitlines()]
    assert len(solved) == len(chosen)
    for case, mine, theirs in zip(chosen, objs, solved):
        assert set(mine) == set(theirs) == JSON_FIELDS, case
        assert set(mine["stats"]) <= set(theirs["stats"]), case
        assert (mine["spec"], mine["status"], mine["verified"]) == (
            theirs["spec"], theirs["status"], theirs["verified"])
        check_board(case, theirs["grid"])
        if case.want is not None and len(case.want) == 1:
            assert mine["grid"] == theirs["grid"] and mine["moves"] == theirs["moves"], case
        assert mine["stats"]["backend"] == "model file"


@needs_cadical
@pytest.mark.parametrize("case", CADICAL_CASES, ids=repr)
def test_round_trip_through_the_cadical_binary(case, tmp_path_factory):
    """`cadical` solves the file; its output, as it printed it, decodes to a
    valid board (text format)."""
    exp = export(tmp_path_factory, case)
    proc = subprocess.run(["cadical", "-q", str(exp.path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 10, proc.stderr
    run = decode(exp, proc.stdout, name="cadical.out")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.split("\n\n")[0].splitlines()
    assert lines[0] == f"{case.arg}: solved, verified"
    rows = [l[2:] for l in lines[1:] if not re.match(r"\s+\d+\. ", l)]
    check_board(case, rows)
    true = {int(x) for l in proc.stdout.splitlines() if l.startswith("v ") for x in l[2:].split()}
    assert rows == board(case, exp.map, true | {1})


# ================================================================ equisatisfiable

UNSAT_CASES = [Case(c, *ENUM[c]) for c in ("sudoku-blocked", "hexiom2-sixes", "puzlogic-unsat")]


@pytest.mark.parametrize("case", UNSAT_CASES, ids=repr)
def test_an_unsolvable_instance_gives_an_unsatisfiable_file(case, tmp_path_factory):
    assert case.want == set()
    exp = export(tmp_path_factory, case)
    assert solve_file(exp) is None
    assert exp.header()[1] == len(exp.cnf.clauses) > 0


# per connected spec: instances with several answers, one, and none (a split
# sea and two loops are unsolvable only for want of connection)
ENUMERATED = {"numberlink": ["numberlink-two-ways", "numberlink-gen1", "numberlink-cross"],
              "nurikabe": ["nurikabe-3x3-2", "nurikabe-4x3-?", "nurikabe-split-sea"],
              "slitherlink": ["slitherlink-3x3", "slitherlink-33", "slitherlink-two-loops"]}


def enumerated_cases(spec):
    """The spec's instances in one file, each named as puzzle.txt#k."""
    file_text = answers.joined([ENUM[c][1] for c in ENUMERATED[spec]])
    return [Case(c, spec, ENUM[c][1], file_text, f"puzzle.txt#{k}")
            for k, c in enumerate(ENUMERATED[spec], 1)]


def enumerate_models(exp, case):
    """Every board of the file: models found one by one, each blocked on the
    literals of the shown variable, read from the symbol table."""
    shown = sorted({abs(e["literal"]) for e in exp.map["map"]
                    if e["var"] == SHOWN[case.spec] and abs(e["literal"]) != 1})
    boards = []
    with Solver(name=SOLVER, bootstrap_with=exp.cnf.clauses) as s:
        while s.solve():
            true = set(s.get_model()) | {1}
            boards.append(tuple(board(case, exp.map, true)))
            s.add_clause([-v if v in true else v for v in shown])
            assert len(boards) <= 1000
    return boards


@pytest.mark.parametrize("spec", sorted(ENUMERATED))
def test_models_projected_on_the_shown_variables_are_the_answers(spec, tmp_path_factory):
    """One file holds the instances; each is exported as path#k.  The models of
    each file, told apart by the shown variable only, are exactly the brute
    force's answers and `pzc count`'s, each once; none for an unsolvable one."""
    chosen = enumerated_cases(spec)
    exp = export(tmp_path_factory, chosen[0])
    run = run_cli("count", spec, "puzzle.txt", "--show", "--format", "json", cwd=exp.dir)
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    counted = [json.loads(l) for l in run.stdout.splitlines()]
    assert len(counted) == len(chosen)
    for case, obj in zip(chosen, counted):
        case_id = case.id
        exp = export(tmp_path_factory, case)
        boards = enumerate_models(exp, case)
        assert len(boards) == len(set(boards)), "a board was found twice"
        keys = {answers.key(spec, case.text, list(b)) for b in boards}
        assert all(answers.valid(spec, case.text, list(b)) for b in boards)
        assert keys == case.want, case_id
        assert obj["complete"] and obj["count"] == len(boards), case_id
        assert {answers.key(spec, case.text, g) for g in obj["solutions"]} == keys
    assert any(not brute.reference(c, *ENUM[c]) for c in ENUMERATED[spec])


# two path labels that need escaping inside quotes: '"' and a backslash
QUOTES = '3 2\n".\"\n\\.\\\n'


def test_quoted_symbols_read_back(tmp_path_factory):
    case = Case("numberlink-quotes", "numberlink", QUOTES)
    exp = export(tmp_path_factory, case)
    labels = {e["value"] for e in exp.map["map"] if e["var"] == "colour"}
    assert labels == {'"', "\\"}
    for line, entry in zip(exp.comments("c map "), exp.map["map"]):
        value = MAP_LINE.fullmatch(line).group(4)
        if isinstance(entry.get("value"), str):
            assert json.loads(value) == entry["value"], line


# ================================================================ decode errors

def model_file_error(run, path):
    """A bad model: exit 2, no traceback, a message that names the model file."""
    assert run.returncode == 2, run.stderr
    assert run.stdout.splitlines()[0].endswith(": error")
    assert path in run.stderr


def test_decode_rejects_a_model_with_a_shown_literal_flipped(tmp_path_factory):
    """A true shown literal of a model, flipped, breaks the formula: decode
    refuses the model (exit 2) rather than print a wrong board."""
    case = BY_ID["sudoku-grid4"]
    exp, model, _, _ = decoded(tmp_path_factory, case)
    shown = [e["literal"] for e in exp.map["map"] if abs(e["literal"]) != 1]
    flip = next(l for l in shown if l in model)      # a value the answer takes
    bad = [-l if l == flip else l for l in model]
    run = decode(exp, v_lines(bad), name="flipped.out")
    model_file_error(run, "flipped.out")
    assert "clause" in run.stderr
    # through the symbol table: the flipped model is no answer at all
    with pytest.raises(AssertionError):
        board(case, exp.map, set(bad) | {1})


def test_decode_rejects_a_truncated_model(tmp_path_factory):
    case = BY_ID["numberlink-6x6"]
    exp, model, _, _ = decoded(tmp_path_factory, case)
    text = v_lines(model)
    cut = text[:len(text) // 2]
    cut = cut[:cut.rfind(" ")] + "\n"                # end on a whole literal
    run = decode(exp, cut, name="cut.out")
    model_file_error(run, "cut.out")


def test_decode_rejects_literals_beyond_the_formula(tmp_path_factory):
    exp, model, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    nvars, _ = exp.header()
    run = decode(exp, v_lines(model + [nvars + 1]), name="long.out")
    model_file_error(run, "long.out")
    assert str(nvars + 1) in run.stderr


def test_decode_rejects_a_model_of_another_instance(tmp_path_factory):
    exp, model, rows, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    other = exp.dir / "other.txt"
    first = "1" if rows[0][0] != "1" else "2"       # a clue the answer breaks
    other.write_text(first + "...\n....\n....\n....\n")
    (exp.dir / "grid4.out").write_text(v_lines(model))
    run = run_cli("decode", "sudoku", "other.txt", "--model", "grid4.out", cwd=exp.dir)
    no_traceback(run)
    model_file_error(run, "grid4.out")


@pytest.mark.parametrize("text,line,column,word", [
    ("s SATISFIABLE\nv 1 -2 x3 0\n", 2, 8, "x3"),
    ("s SATISFIABLE\nv 1 2\ngarbage 4.5 0\n", 3, 1, "garbage"),
], ids=["v-line", "garbage"])
def test_decode_points_at_a_word_that_is_not_a_literal(text, line, column, word, tmp_path_factory):
    exp, _, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    run = decode(exp, text, name="bad.out")
    model_file_error(run, "bad.out")
    err = run.stderr.splitlines()
    head = next(l for l in err if l.startswith("bad.out:"))
    assert head.startswith(f"bad.out:{line}:{column}: error: ")
    assert f"'{word}'" in head
    i = err.index(head)
    assert err[i + 1] == "    " + text.splitlines()[line - 1]
    assert err[i + 2] == "    " + " " * (column - 1) + "^"


def test_decode_error_message_does_not_repeat_the_location(tmp_path_factory):
    exp, _, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    run = decode(exp, "s SATISFIABLE\nv 1 -2 x3 0\n", name="bad.out")
    assert_located(run, "bad.out", 2, 8, "expected literals (integers), found 'x3'",
                   "v 1 -2 x3 0")


def test_decode_points_at_a_dangling_minus(tmp_path_factory):
    exp, _, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    run = decode(exp, "s SATISFIABLE\nv 1 -2 -3 4 -", name="cut.out")
    model_file_error(run, "cut.out")
    assert run.stderr.startswith("cut.out:2:13: error: ")
    assert run.stderr.splitlines()[2] == "    " + " " * 12 + "^"


@pytest.mark.parametrize("text", ["c nothing but comments\n", "s SATISFIABLE\n"],
                         ids=["comments", "no-v-lines"])
def test_decode_says_when_a_file_holds_no_model(text, tmp_path_factory):
    exp, _, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    run = decode(exp, text, name="none.out")
    model_file_error(run, "none.out")
    assert "no model" in run.stderr


def test_decode_unsatisfiable_means_no_solution(tmp_path_factory):
    case = BY_ID["sudoku-grid4"]
    exp, _, _, _ = decoded(tmp_path_factory, case)
    run = decode(exp, "c the solver gave up\ns UNSATISFIABLE\n", "--format", "json",
                 name="unsat.out")
    assert run.returncode == 1, run.stderr
    obj = json.loads(run.stdout)
    assert (obj["status"], obj["grid"], obj["verified"]) == ("unsat", None, None)
    run = decode(exp, "UNSAT\n", name="unsat.out")
    assert run.returncode == 1, run.stderr
    assert run.stdout.splitlines()[0] == f"{case.arg}: no solution"


def test_decode_names_a_missing_model_file(tmp_path_factory):
    exp, _, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    run = run_cli("decode", "sudoku", "puzzle.txt", "--model", "missing.out", cwd=exp.dir)
    no_traceback(run)
    assert run.returncode == 2
    assert "missing.out" in run.stderr and "instance" not in run.stderr


def test_decode_into_a_closed_pipe(tmp_path_factory):
    exp, model, _, _ = decoded(tmp_path_factory, BY_ID["sudoku-grid4"])
    (exp.dir / "pipe.out").write_text(v_lines(model))
    proc = subprocess.Popen([sys.executable, "-m", "pzc.cli", "decode", "sudoku", "puzzle.txt",
                             "--model", "pipe.out"], cwd=exp.dir, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                  # the reader is gone before pzc prints
    err = proc.stderr.read()
    assert proc.wait(timeout=60) != 4
    assert "internal error" not in err and "Traceback" not in err


# ================================================================ external backend

EXTERNAL = ["--backend", "external", "--solver-cmd", "cadical -q"]


@needs_cadical
@pytest.mark.parametrize("spec", answers.SPECS)
def test_solve_with_the_external_backend(spec, tmp_path_factory):
    """Every round-trip case of the spec in one run; sudoku's three.txt gives
    its three puzzles."""
    chosen = [c for c in CASES if c.spec == spec]
    files = [export(tmp_path_factory, c).dir / c.name for c in chosen]
    run = run_cli("solve", spec, *dict.fromkeys(files), "--format", "json", *EXTERNAL)
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    objs = [json.loads(l) for l in run.stdout.splitlines()]
    by_name = {o["instance"]: o for o in objs}
    for case, path in zip(chosen, files):
        name = str(path) + (case.arg[len(case.name):])
        obj = by_name[name]
        assert (obj["status"], obj["verified"]) == ("solved", True), name
        assert obj["stats"]["backend"] == "external"
        check_board(case, obj["grid"])


# per spec: several answers, one, none
EXTERNAL_COUNTED = {"hexiom": ["hexiom2-1", "hexiom3-small", "hexiom2-sixes"],
                    "nurikabe": ["nurikabe-3x3-2", "nurikabe-4x3", "nurikabe-split-sea"],
                    "slitherlink": ["slitherlink-3x2", "slitherlink-33", "slitherlink-two-loops"]}


@needs_cadical
@pytest.mark.parametrize("spec", sorted(EXTERNAL_COUNTED))
def test_unique_and_count_with_the_external_backend(spec, write, run_pzc):
    """unique (and, for one spec, count) with cadical run once per solution on
    the formula and the blocking clauses so far: the brute force's answers."""
    chosen = [(c, ENUM[c][1], brute.reference(c, spec, ENUM[c][1])) for c in EXTERNAL_COUNTED[spec]]
    write("all.txt", answers.joined([t for _, t, _ in chosen]))
    run = run_pzc("unique", spec, "all.txt", "--format", "json", *EXTERNAL)
    no_traceback(run)
    assert run.returncode == 1, run.stderr
    objs = [json.loads(l) for l in run.stdout.splitlines()]
    assert len(objs) == len(chosen)
    for (case_id, text, want), obj in zip(chosen, objs):
        answers.check_unique(spec, text, want, obj)
        assert obj["stats"]["backend"] == "external", case_id
    if spec != "nurikabe":
        return
    run = run_pzc("count", spec, "all.txt", "--show", "--format", "json", *EXTERNAL)
    no_traceback(run)
    assert run.returncode == 0, run.stderr
    for (case_id, text, want), obj in zip(chosen, map(json.loads, run.stdout.splitlines())):
        assert obj["complete"] and obj["count"] == len(want), case_id
        assert {answers.key(spec, text, g) for g in obj["solutions"]} == want, case_id


@needs_cadical
def test_external_solver_with_input_and_output_placeholders(write, run_pzc):
    """A MiniSat-like command that writes its answer ('SAT' and the literals,
    or 'UNSAT') to {output}: a solved and an unsolvable instance."""
    write("minisat.sh", 'cadical -q "$1" | sed -e "s/^s SATISFIABLE$/SAT/" '
                        '-e "s/^s UNSATISFIABLE$/UNSAT/" -e "s/^v //" > "$2"\n')
    grid4 = (EXAMPLES / "sudoku" / "grid4.txt").read_text()
    write("ok.txt", grid4)
    write("no.txt", ENUM["sudoku-blocked"][1])
    run = run_pzc("solve", "sudoku", "ok.txt", "no.txt", "--format", "json", "--backend",
                  "external", "--solver-cmd", "sh minisat.sh {input} {output}")
    no_traceback(run)
    assert run.returncode == 1, run.stderr
    ok, no = map(json.loads, run.stdout.splitlines())
    assert (ok["status"], ok["verified"], no["status"]) == ("solved", True, "unsat")
    assert gen.sudoku_valid(ok["grid"], answers.puzzle_rows(grid4))


@pytest.mark.parametrize("command,says", [
    ("no-such-solver-here -q", "no-such-solver-here"),
    ("true", "no model"),
    ("'cadical", "solver command"),
], ids=["missing", "prints-nothing", "bad-quote"])
def test_a_bad_solver_command_is_exit_2(command, says, write, run_pzc):
    write("grid4.txt", (EXAMPLES / "sudoku" / "grid4.txt").read_text())
    run = run_pzc("solve", "sudoku", "grid4.txt", "--backend", "external", "--solver-cmd", command)
    no_traceback(run)
    assert run.returncode == 2, run.stderr
    assert says in run.stderr
    assert any(l.startswith("pzc: error: ") for l in run.stderr.splitlines()), run.stderr


def test_a_solver_answering_a_wrong_model_is_exit_2(write, run_pzc):
    write("grid4.txt", (EXAMPLES / "sudoku" / "grid4.txt").read_text())
    run = run_pzc("solve", "sudoku", "grid4.txt", "--backend", "external", "--solver-cmd",
                  "sh -c 'echo s SATISFIABLE; echo v 0'")
    no_traceback(run)
    assert run.returncode == 2, run.stderr
    assert "a bug in pzc" not in run.stderr


def test_the_external_solver_is_stopped_at_the_time_limit(write, run_pzc):
    write("grid4.txt", (EXAMPLES / "sudoku" / "grid4.txt").read_text())
    run = run_pzc("solve", "sudoku", "grid4.txt", "--backend", "external", "--solver-cmd",
                  "sh -c 'exec sleep 20'", "--timeout", "0.5", timeout=15)
    no_traceback(run)
    assert run.returncode == 3, run.stderr
    assert run.stdout.splitlines()[0] == "grid4.txt: time limit reached"
