"""pzc explain: minimal cores of clues and rule instances, checked apart from
the search that found them.

A core is checked three ways: a fresh solver of the other encodings (eager
connectivity on PySAT, and Z3) finds the core unsat and the core with any one
member dropped sat; on a spec of the test's own, a brute force over every
shading (written here, from the rules' plain meaning) agrees; and on real
genres the clue that made the puzzle wrong is in the core.  Several solutions:
the suggested clue is written into the instance file and `pzc count` shows
the second witness gone.
"""

from __future__ import annotations

import itertools
import json
import time

import pytest

from pzc import api
from pzc.tasks.explain.cores import SatCores, SmtCores
from pzc.tasks.explain import members as stage

from conftest import EXAMPLES
from unsolvable import PIGEONS


MINES = """\
puzzle mines "shade cells: a number counts its shaded neighbours; no two shaded side by side in a row"
board square(clues: 0..4)
var s[c in cells] : bool
show c: if given(c) then clue(c) else if s[c] then "#" else "."
rule counts: all c in cells where given(c): count(d in neighbours(c): s[d]) = clue(c)
rule free:   all c in cells where given(c): not s[c]
rule apart:  all r in rows: all c in r where c.col + 1 < width: not (s[c] and s[(c.row, c.col + 1)])
"""

def load(spec_name, path):
    spec = api.load_spec(str(spec_name))
    (inst,) = api.load_instances(spec, str(path))
    return spec, inst


def core_indices(found, result):
    """The member indices of an ExplainResult's core."""
    by_key = {}
    for i, m in enumerate(found.members):
        if m.kind == stage.CLUE:
            by_key[("clue", m.cell)] = i
        else:
            binding = json.dumps({n: to_plain(v) for n, v in m.binding})
            by_key[("rule", m.rule.name, binding)] = i
    out = [by_key[("clue", tuple(c["cell"]))] for c in result.core_clues]
    out += [by_key[("rule", r["rule"], json.dumps(r["binding"]))] for r in result.core_rules]
    return out


def to_plain(v):
    if isinstance(v, tuple):
        return [to_plain(x) for x in v]
    return v


def assert_minimal_elsewhere(spec, inst, result):
    """The core is unsat and every member is needed, on solvers other than
    the search's: PySAT with eager connectivity, and Z3."""
    found = stage.members(spec, inst)
    core = core_indices(found, result)
    assert core
    for oracle in (SatCores(found, "glucose4", "eager"), SmtCores(found)):
        assert oracle.check(core)[0] is False
        for i in core:
            assert oracle.check([j for j in core if j != i])[0] is True, found.members[i]
        oracle.close()


# ------------------------------------------------------------ a brute force of our own

def neighbours(cell, w, h):
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < h and 0 <= c + dc < w]


def mines_members(rows):
    """The rule instances of MINES, by hand: (key, states, holds(shading))."""
    h, w = len(rows), len(rows[0])
    clues = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
    out = []
    for cell, k in clues.items():
        out.append((("counts", cell), {cell},
                    lambda s, cell=cell, k=k: sum(s[d] for d in neighbours(cell, w, h)) == k))
        out.append((("free", cell), {cell}, lambda s, cell=cell: not s[cell]))
    for r in range(h):
        for c in range(w - 1):
            out.append((("apart", (r, c)), {(r, c)} & set(clues),
                        lambda s, a=(r, c), b=(r, c + 1): not (s[a] and s[b])))
    return clues, out


def brute_sat(rows, chosen_clues, chosen_rules):
    """Some shading meets every chosen rule instance whose clues are chosen."""
    h, w = len(rows), len(rows[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    _, rules = mines_members(rows)
    on = [holds for key, states, holds in rules if key in chosen_rules and states <= chosen_clues]
    for bits in itertools.product((False, True), repeat=len(cells)):
        s = dict(zip(cells, bits))
        if all(holds(s) for holds in on):
            return True
    return False


def result_keys(result):
    clues = {tuple(c["cell"]) for c in result.core_clues}
    rules = set()
    for r in result.core_rules:
        b = r["binding"]
        rules.add((r["rule"], tuple(b["c"])))
    return clues, rules


@pytest.mark.parametrize("backend", ["sat", "smt"])
@pytest.mark.parametrize("rows", [["...", ".21"], ["2.2", "..3"], ["1.1", "3.."], [".4.", "..."]])
def test_mines_core_is_a_minimal_unsat_set_by_brute_force(write, backend, rows):
    write("mines.pz", MINES)
    path = write("x.txt", "\n".join(rows) + "\n")
    spec, inst = load(path.parent / "mines.pz", path)
    result = api.explain(spec, inst, backend=backend)
    clues, rules = mines_members(rows)
    every = {key for key, _, _ in rules}
    if brute_sat(rows, set(clues), every):
        assert result.status in ("unique", "several")
        return
    assert result.status == "unsat" and result.exit_code == 1 and result.minimal
    core_clues, core_rules = result_keys(result)
    assert not brute_sat(rows, core_clues, core_rules)
    for c in core_clues:
        assert brute_sat(rows, core_clues - {c}, core_rules), c
    for r in core_rules:
        assert brute_sat(rows, core_clues, core_rules - {r}), r
    assert_minimal_elsewhere(spec, inst, result)


def test_mines_nested_quantifier_is_one_binding_of_both_names(write, run_pzc):
    write("mines.pz", MINES)
    write("x.txt", "...\n.21\n")
    run = run_pzc("explain", "mines.pz", "x.txt")
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == ("x.txt: no solution: these 2 clues and 5 rule instances already have "
                        "no solution (dropping any one makes it solvable):")
    assert lines[1:] == [
        "  x.txt:2:2: clue (1, 1) = 2",
        "  x.txt:2:3: clue (1, 2) = 1",
        "  mines.pz:5:1: rule counts, c = (1, 1)",
        "  mines.pz:5:1: rule counts, c = (1, 2)",
        "  mines.pz:6:1: rule free, c = (1, 1)",
        "  mines.pz:6:1: rule free, c = (1, 2)",
        "  mines.pz:7:1: rule apart, r = [(0, 0), (0, 1), (0, 2)], c = (0, 1)",
        ""]


# ------------------------------------------------------------ genres with a wrong clue

def wrong(write, name, text, spec_name):
    path = write(name, text)
    spec, inst = load(spec_name, path)
    assert api.solve(spec, inst).status == "unsat"
    return spec, inst


SUDOKU_WRONG = "..4.\n2...\n1...\n..23\n"     # the unique answer's last row is 4321: not 3 at (3, 3)


@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_sudoku_wrong_given(write, backend):
    spec, inst = wrong(write, "s.txt", SUDOKU_WRONG, "sudoku")
    result = api.explain(spec, inst, backend=backend)
    assert result.status == "unsat"
    assert [3, 3] in [c["cell"] for c in result.core_clues]
    assert_minimal_elsewhere(spec, inst, result)


def edit(path, cell, token, sep=" "):
    """The text of an instance file with the token of ``cell`` replaced
    (rows after the comment and header lines)."""
    lines = path.read_text().splitlines()
    body = [i for i, l in enumerate(lines) if l and not l.startswith("#")][1:]
    r, c = cell
    row = lines[body[r]].split(sep) if sep else list(lines[body[r]])
    row[c] = token
    lines[body[r]] = (sep or "").join(row)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("genre, cell, token, sep", [
    ("nurikabe", (0, 4), "4", " "),         # small.txt: a sea cell becomes a 4
    ("akari", (0, 4), "3", " "),            # light7.txt: a bare wall gets a number
    ("numberlink", (6, 0), "A", ""),        # small.txt: a third A
])
@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_wrong_clue_is_in_a_minimal_core(write, genre, cell, token, sep, backend):
    source = {"nurikabe": "small.txt", "akari": "light7.txt", "numberlink": "small.txt"}[genre]
    text = edit(EXAMPLES / genre / source, cell, token, sep)
    spec, inst = wrong(write, "w.txt", text, genre)
    result = api.explain(spec, inst, backend=backend)
    assert result.status == "unsat" and result.minimal
    assert list(cell) in [c["cell"] for c in result.core_clues]
    assert_minimal_elsewhere(spec, inst, result)


def test_eager_and_lazy_connectivity_both_give_minimal_cores(write):
    text = edit(EXAMPLES / "nurikabe" / "small.txt", (0, 4), "4")
    spec, inst = wrong(write, "w.txt", text, "nurikabe")
    for mode in ("lazy", "eager"):
        result = api.explain(spec, inst, connectivity=mode)
        assert result.status == "unsat"
        assert_minimal_elsewhere(spec, inst, result)


def test_implied_rules_are_members_or_left_out(write):
    text = edit(EXAMPLES / "nurikabe" / "small.txt", (0, 4), "4")
    spec, inst = wrong(write, "w.txt", text, "nurikabe")
    with_implied = stage.members(spec, inst)
    without = stage.members(spec, inst, implied=False)
    names = {m.rule.name for m in with_implied.members if m.kind == stage.RULE and m.implied}
    assert names == {"land", "alone", "pairs"}
    assert not any(m.implied for m in without.members)
    result = api.explain(spec, inst, implied=False)
    assert result.status == "unsat" and not any(r["implied"] for r in result.core_rules)


def test_an_implied_rule_in_a_core_is_named_so(write, run_pzc):
    write("imp.pz", """\
puzzle imp "two cells"
board square(clues: 0..1)
var s[c in cells] : bool
show c: if s[c] then "#" else "."
rule given_: all c in cells where given(c): s[c] = (clue(c) = 1)
implied rule none: all c in cells: not s[c]
""")
    write("x.txt", "1.\n")
    run = run_pzc("explain", "imp.pz", "x.txt")
    assert run.returncode == 1, run.stderr
    assert "  imp.pz:6:1: implied rule none, c = (0, 0)" in run.stdout.splitlines()


# ------------------------------------------------------------ which clues a rule instance states

def test_a_rule_instance_states_the_clues_it_reads_also_through_memoised_lets(write):
    write("m.pz", """\
puzzle m "a let function read by two rules"
board square(clues: 0..9)
let twice(c) = 2 * clue(c)
var v[c in cells] : 0..20
show v
rule first:  all c in cells where given(c): v[c] = twice(c)
rule second: all c in cells where given(c): v[c] <= twice(c)
rule third:  all c in cells: v[c] >= 0 or given((0, 0))
rule fourth: count(c in cells: v[c] > 3) <= 2
rule fifth:  all c in cells where not given(c): v[c] != twice((1, 1))
""")
    path = write("x.txt", "1.\n.2\n")
    spec, inst = load(path.parent / "m.pz", path)
    found = stage.members(spec, inst)
    clue_of = {m.cell: i for i, m in enumerate(found.members) if m.kind == stage.CLUE}
    states = {(m.rule.name, tuple(v for _, v in m.binding)): {found.members[c].cell for c in m.states}
              for m in found.members if m.kind == stage.RULE}
    assert states[("first", ((1, 1),))] == {(1, 1)}
    assert states[("second", ((1, 1),))] == {(1, 1)}
    assert states[("fourth", ())] == set()
    # twice((1, 1)) was memoised by `first`: the memo remembers what it read
    assert states[("fifth", ((0, 1),))] == states[("fifth", ((1, 0),))] == {(1, 1)}
    assert set(clue_of) == {(0, 0), (1, 1)}
    # `v[c] >= 0 or given((0, 0))` is true outright: no member at all
    assert not any(name == "third" for name, _ in states)


# ------------------------------------------------------------ output

def test_json_shape(write, run_pzc):
    write("s.txt", SUDOKU_WRONG)
    run = run_pzc("explain", "sudoku", "s.txt", "--format", "json")
    assert run.returncode == 1, run.stderr
    out = json.loads(run.stdout)
    assert set(out) == {"file", "spec", "status", "core", "minimal", "stats"}
    assert (out["file"], out["status"], out["minimal"]) == ("s.txt", "unsat", True)
    assert set(out["core"]) == {"clues", "rules"}
    clue = next(c for c in out["core"]["clues"] if c["cell"] == [3, 3])
    assert clue == {"cell": [3, 3], "value": 3, "at": "s.txt:4:4"}
    for r in out["core"]["rules"]:
        assert set(r) == {"rule", "implied", "binding", "at", "cells"}
        assert r["at"].startswith("<builtin>/sudoku.pz:") and r["implied"] is False
    givens = [r for r in out["core"]["rules"] if r["rule"] == "givens"]
    assert {"rule": "givens", "implied": False, "binding": {"c": [3, 3]},
            "at": "<builtin>/sudoku.pz:17:1", "cells": [[3, 3]]} in givens
    assert out["stats"]["calls"] >= 1 and out["stats"]["members"] > 0


def test_text_names_positions_of_clues_and_rules(write, run_pzc):
    write("s.txt", SUDOKU_WRONG)
    run = run_pzc("explain", "sudoku", "s.txt")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith("s.txt: no solution: these ")
    assert "  s.txt:4:4: clue (3, 3) = 3" in lines
    assert "  <builtin>/sudoku.pz:17:1: rule givens, c = (3, 3)" in lines


def test_unique_instance_prints_the_answer(run_pzc):
    run = run_pzc("explain", "sudoku", EXAMPLES / "sudoku" / "grid4.txt")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[1:] == ["  3142", "  2413", "  1234", "  4321", ""]
    assert "exactly one solution, verified" in run.stdout.splitlines()[0]


def test_url_instance_clues_are_placed_at_the_url():
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k4g"        # the small example, 3 -> 4
    spec = api.load_spec("nurikabe")
    (inst,) = api.load_instances(spec, url)
    result = api.explain(spec, inst)
    assert result.status == "unsat"
    assert {"cell": [4, 3], "value": 4, "token": "4", "at": url} in result.core_clues
    assert all(c["at"] == url for c in result.core_clues)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_several_solutions_suggest_a_clue_that_removes_the_second(write, run_pzc, backend):
    text = "12..\n34..\n....\n....\n"
    write("few.txt", text)
    run = run_pzc("explain", "sudoku", "few.txt", "--format", "json", "--backend", backend)
    assert run.returncode == 1, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "several"
    first, second = out["witnesses"]
    s = out["suggestion"]
    r, c = s["cell"]
    assert first[r][c] == s["token"] != second[r][c]
    line, col = map(int, s["at"].split(":")[1:])
    rows = text.splitlines()
    assert rows[line - 1][col - 1] == "."
    rows[line - 1] = rows[line - 1][:col - 1] + s["token"] + rows[line - 1][col:]
    write("more.txt", "\n".join(rows) + "\n")
    count = run_pzc("count", "sudoku", "more.txt", "--show", "--format", "json")
    counted = json.loads(count.stdout)
    assert counted["complete"] and counted["count"] >= 1
    assert second not in counted["solutions"]
    assert first in counted["solutions"]
    if s["unique"]:
        assert counted["count"] == 1
    text_run = run_pzc("explain", "sudoku", "few.txt", "--backend", backend)
    assert f"  suggestion: add clue {s['token']} at ({r}, {c}) (line {line}, column {col} of " \
           f"few.txt)" in text_run.stdout


def test_no_clue_can_be_suggested_is_said(write, run_pzc):
    write("mines.pz", MINES)
    write("x.txt", ".1.\n...\n")
    run = run_pzc("explain", "mines.pz", "x.txt")
    assert run.returncode == 1
    assert "  no clue can be suggested" in run.stdout
    out = json.loads(run_pzc("explain", "mines.pz", "x.txt", "--format", "json").stdout)
    assert out["status"] == "several" and out["suggestion"] is None


def test_highlight_cells_for_pictures(write):
    spec, inst = wrong(write, "s.txt", SUDOKU_WRONG, "sudoku")
    result = api.explain(spec, inst)
    assert (3, 3) in result.highlight
    rows = [r for r in result.core_rules if r["rule"] in ("rows", "columns", "boxes")]
    for r in rows:
        assert len(r["cells"]) == 4 and all(tuple(c) in result.highlight for c in r["cells"])


# ------------------------------------------------------------ limits and errors

@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_timeout_is_honoured(write, run_pzc, backend):
    write("pigeons.pz", PIGEONS)
    write("php.txt", "20 21\n" + ("." * 20 + "\n") * 21)
    start = time.perf_counter()
    run = run_pzc("explain", "pigeons.pz", "php.txt", "--timeout", "1", "--format", "json",
                  "--backend", backend, timeout=30)
    took = time.perf_counter() - start
    assert run.returncode == 3, (run.stdout, run.stderr)
    assert json.loads(run.stdout)["status"] == "timeout"
    assert took < 1 + 0.5 + 1.0          # the promise, and the interpreter's exit


def test_bad_spec_is_located(write, run_pzc):
    write("bad.pz", MINES.replace("neighbours(c)", "neighbourz(c)"))
    write("x.txt", "...\n.21\n")
    run = run_pzc("explain", "bad.pz", "x.txt")
    assert run.returncode == 2
    assert run.stderr.startswith("bad.pz:5:")
    assert "^" in run.stderr and "Traceback" not in run.stderr


def test_bad_instance_is_located(write, run_pzc):
    write("x.txt", "..4.\n2..\n")
    run = run_pzc("explain", "sudoku", "x.txt")
    assert run.returncode == 2
    assert run.stderr.startswith("x.txt:2:") and "Traceback" not in run.stderr


def test_move_puzzles_are_refused(run_pzc):
    run = run_pzc("explain", "sliding", EXAMPLES / "sliding" / "three.txt")
    assert run.returncode == 2
    assert "explain is for board puzzles" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("limit", [[], ["--timeout", "30"]])
def test_a_solver_that_solves_once_is_refused(write, run_pzc, limit):
    write("s.txt", SUDOKU_WRONG)
    run = run_pzc("explain", "sudoku", "s.txt", "--solver", "kissat404", *limit)
    assert run.returncode == 2
    assert "kissat404 solves once" in run.stderr and "Traceback" not in run.stderr


def test_json_board_rule_instance_bound_to_an_entry(write, run_pzc):
    level = json.loads((EXAMPLES / "puzlogic" / "level.json").read_text())
    level["sum_constraints"][0][2] = 99
    write("level.json", json.dumps(level))
    run = run_pzc("explain", "puzlogic", "level.json")
    assert run.returncode == 1, run.stderr
    s = level["sum_constraints"][0]
    assert run.stdout.splitlines()[1] == \
        f"  <builtin>/puzlogic.pz:25:1: rule sums, s = [{s[0]}, {s[1]}, 99]"
    ok = run_pzc("explain", "puzlogic", EXAMPLES / "puzlogic" / "level.json")
    assert ok.returncode == 0 and "    1. piece 2, to (1, 2)" in ok.stdout.splitlines()
