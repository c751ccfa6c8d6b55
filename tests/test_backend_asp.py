"""--backend asp: the CNF solved by clingo, connectivity as reachability rules.

Every answer is checked by pzc's evaluator (res.verified) and, where the
other tests have one, by an independent checker or brute force of their own
(tests/generators.py, the reference counts of tests/brute.py); statuses
and counts are compared with the sat backend's."""

from __future__ import annotations

import itertools
import json

import pytest

import generators as gen
from brute import CASES, boards, count, reference
from connected_cases import GENERATED, TINY, UNSAT, assert_solved
from loading import spec, spec_from_text
from outcomes import no_traceback
from pzc import api
from pzc.backends import deepen, get_backend
from pzc.encoder.instance import read_instances
from pzc.encoder.unroll import unroll
from pzc.runtime.errors import PzcError, Source
from unsolvable import PIGEONS, pigeon_block

ASP = {"backend": "asp"}


def solve(spec_name, text, name="inst.txt", **options):
    s = spec(spec_name) if isinstance(spec_name, str) else spec_name
    inst, = read_instances(Source(name, text), s.board.kind)
    return api.solve(s, inst, **options)


# ---------------------------------------------------------------- the built-in examples

EXAMPLES = [("sudoku", "specs/examples/sudoku/grid4.txt"),
            ("hexiom", "specs/examples/hexiom/small.txt"),
            ("nurikabe", "specs/examples/nurikabe/small.txt"),
            ("numberlink", "specs/examples/numberlink/small.txt"),
            ("slitherlink", "specs/examples/slitherlink/small.txt"),
            ("masyu", "specs/examples/masyu/small.txt"),
            ("puzlogic", None)]


@pytest.mark.parametrize("spec_name,path", [e for e in EXAMPLES if e[1]],
                         ids=[e[0] for e in EXAMPLES if e[1]])
def test_examples_are_solved_verified_and_equal_to_sat(spec_name, path):
    from pathlib import Path
    file = Path(__file__).resolve().parents[1] / path
    s = api.load_spec(spec_name)
    for inst in api.load_instances(s, str(file)):
        asp = api.solve(s, inst, backend="asp")
        sat = api.solve(s, inst)
        assert asp.status == sat.status == "solved", (asp.status, asp.error and asp.error.message)
        assert asp.verified is True and asp.stats["backend"] == "asp"
        assert asp.stats["rules"] >= asp.stats["clauses"]
        # where sat proves the answer unique, asp's board is that answer
        if api.unique(s, inst).status == "unique":
            assert asp.grid == sat.grid


# ---------------------------------------------------------------- connectivity

@pytest.mark.parametrize("case_id,spec_name,text", GENERATED, ids=[c[0] for c in GENERATED])
def test_generated_connectivity_instances(case_id, spec_name, text):
    res = solve(spec_name, text, case_id, **ASP)
    assert_solved(res, spec_name, text)
    assert res.stats["backend"] == "asp"


def test_generated_instances_exercise_reachability_rules():
    """Unbounded connectivity (a '?' Nurikabe's sea and islands, Numberlink,
    Slitherlink) reaches clingo as reachability rules, not as clauses."""
    seen = {}
    for case_id, spec_name, text in GENERATED:
        res = solve(spec_name, text, case_id, **ASP)
        seen[spec_name] = seen.get(spec_name, 0) + res.stats.get("reachability", 0)
    assert all(n > 0 for n in seen.values()), seen


@pytest.mark.parametrize("spec_name", sorted(TINY))
def test_tiny_instances_get_the_reference_status(spec_name):
    statuses = set()
    for k, (text, want) in enumerate(TINY[spec_name]):
        res = solve(spec_name, text, f"tiny{k}", **ASP)
        assert res.status == want, (k, text, res.status, want)
        if want == "solved":
            assert_solved(res, spec_name, text)
        statuses.add(want)
    assert statuses == {"solved", "unsat"}


@pytest.mark.parametrize("case_id,spec_name,text", UNSAT, ids=[c[0] for c in UNSAT])
def test_unsolvable_connectivity_instances_are_unsat(case_id, spec_name, text):
    res = solve(spec_name, text, case_id, **ASP)
    assert res.status == "unsat", (res.status, res.grid)
    assert res.exit_code == api.EXIT_UNSAT


BLOB = """\
puzzle blob "a connected group of cells holding every x cell"
board square(clues: {"x"})

var on[c in cells] : bool
show c: if on[c] then "#" else "."

rule marked: all c in cells where given(c): on[c]
rule blob:   connected(c in cells: on[c])
"""


def blob_brute(text):
    """Every connected set of cells (the empty set too) holding the x cells."""
    rows = text.split()
    h, w = len(rows), len(rows[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    marked = {x for x in cells if rows[x[0]][x[1]] == "x"}
    out = set()
    for bits in itertools.product((0, 1), repeat=len(cells)):
        chosen = {x for x, b in zip(cells, bits) if b}
        if not marked <= chosen:
            continue
        nbrs = lambda x: [y for y in chosen if abs(x[0] - y[0]) + abs(x[1] - y[1]) == 1]
        if len(gen._components(chosen, nbrs)) <= 1:
            out.add(tuple("".join("#" if (r, c) in chosen else "." for c in range(w))
                          for r in range(h)))
    return out


@pytest.mark.parametrize("text", ["...\n...\n...\n", "....\n....\n", "x..\n...\n...\n",
                                  "x..\n...\n..x\n", "....\n.x..\n....\n"],
                         ids=["3x3", "4x2", "corner", "two-corners", "4x3-inner"])
def test_connected_sets_counted_exactly_with_and_without_a_forced_root(text):
    """Every connected set of cells, counted by asp, is the brute force's set
    of boards: the root is an always-selected x cell when there is one, else
    the first selected cell (the empty selection is connected too)."""
    s = spec_from_text(BLOB, "blob.pz")
    want = blob_brute(text)
    res = count(s, text, **ASP)
    assert res.complete and res.count == len(want)
    assert {tuple(g) for g in res.solutions} == want
    assert res.stats["reachability"] == 1
    sat = count(s, text)
    assert sat.count == res.count


# ---------------------------------------------------------------- counting

@pytest.mark.parametrize("case_id,spec_name,text", CASES, ids=[c[0] for c in CASES])
def test_count_agrees_with_brute_force(case_id, spec_name, text):
    """Blocking constraints added to the same clingo program (multi-shot)
    enumerate exactly the brute force's boards."""
    want = reference(case_id, spec_name, text)
    res = count(spec_name, text, case_id, **ASP)
    assert res.complete is True
    assert res.count == len(want), (res.count, len(want))
    assert boards(spec_name, res) == want


@pytest.mark.slow
def test_count_and_unique_on_the_command_line(write, run_pzc):
    write("two.txt", ". . . .\n. ? . .\n. . . .\n")
    run = run_pzc("count", "nurikabe", "two.txt", "--backend", "asp", "--format", "json")
    sat = run_pzc("count", "nurikabe", "two.txt", "--format", "json")
    assert run.returncode == sat.returncode == 0, run.stderr
    assert json.loads(run.stdout)["count"] == json.loads(sat.stdout)["count"] == 113
    run = run_pzc("unique", "nurikabe", "two.txt", "--backend", "asp")
    assert run.returncode == 1 and "not unique" in run.stdout, (run.stdout, run.stderr)


# ---------------------------------------------------------------- time limits, options, errors

@pytest.mark.slow
def test_a_solve_stops_at_the_limit(write, run_pzc):
    """Pigeonhole 20 into 19... is far beyond clingo in a second: timeout, exit 3."""
    import time
    write("pigeons.pz", PIGEONS)
    write("php.txt", pigeon_block(20, 21))
    for command in ("solve", "count"):
        start = time.perf_counter()
        run = run_pzc(command, "pigeons.pz", "php.txt", "--backend", "asp", "--timeout", "1",
                      "--format", "json", timeout=60)
        elapsed = time.perf_counter() - start
        no_traceback(run)
        assert run.returncode == 3, (run.stdout, run.stderr)
        assert json.loads(run.stdout)["status"] == "timeout"
        assert elapsed < 6


@pytest.mark.slow
def test_counting_keeps_what_it_found_before_the_limit():
    s = api.load_spec("sudoku")
    inst, = read_instances(Source("blank.txt", ("." * 9 + "\n") * 9), "square")
    result = api.count(s, inst, backend="asp", timeout=1.0)
    assert result.status == "timeout" and not result.complete
    assert result.count == len({tuple(g) for g in result.solutions}) >= 1
    for grid in result.solutions:
        assert all(sorted(r) == list("123456789") for r in grid)
        assert all(sorted(c) == list("123456789") for c in zip(*grid))


@pytest.mark.parametrize("solver", ["crafty", "trendy", "jumpy", "auto,2"])
def test_clingo_configurations(solver):
    case_id, spec_name, text = next(c for c in GENERATED if c[0].startswith("nurikabe6x7"))
    res = solve(spec_name, text, case_id, backend="asp", solver=solver)
    assert_solved(res, spec_name, text)
    assert res.stats["solver"] == solver


@pytest.mark.parametrize("args,message", [
    (["--solver", "fastest"], "unknown clingo configuration 'fastest'"),
    (["--solver", "crafty,x"], "thread count"),
    (["--connectivity", "eager"], "--connectivity is for the sat backend"),
])
def test_bad_options_are_plain_errors(write, run_pzc, args, message):
    write("grid.txt", "1 .\n. .\n")
    run = run_pzc("solve", "nurikabe", "grid.txt", "--backend", "asp", *args)
    no_traceback(run)
    assert run.returncode == 2 and message in run.stderr, run.stderr


def test_move_plans_are_refused_by_name(run_pzc, examples):
    three = examples / "sliding" / "three.txt"
    run = run_pzc("solve", "sliding", str(three), "--backend", "asp")
    no_traceback(run)
    assert run.returncode == 2 and "sat or smt backend" in run.stderr, run.stderr
    # a plan that reaches an asp session all the same (driven as solve_plan
    # drives one) is refused there, by name, before a step is solved
    s = api.load_spec("sliding")
    inst, = api.load_instances(s, str(three))
    plan = unroll(s, inst)
    with get_backend("asp").session(plan) as session:
        with pytest.raises(PzcError, match="asp backend cannot solve move puzzles"):
            deepen(plan, session, max_steps=5)


def test_counting_under_a_time_limit_runs_in_a_worker_and_is_exact():
    """Under a limit clingo solves in a forked worker that keeps its program
    from call to call; each block goes to it with the next request."""
    s = api.load_spec("nurikabe")
    text = ". . . .\n. ? . .\n. . . .\n"
    res = count(s, text, backend="asp", timeout=120)
    assert res.complete and res.count == count(s, text).count == 113
    assert len({tuple(g) for g in res.solutions}) == 113
    for grid in res.solutions:
        assert gen.nurikabe_valid(text, grid)
