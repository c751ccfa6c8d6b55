"""--timeout in every phase and on every backend: status timeout, exit 3, no
traceback.  The time bounds here are loose sanity checks (limit + 5 s); how
close pzc stops to its limit is measured by bench/timelimits.py."""

from __future__ import annotations

import gc
import json
import shutil
import subprocess
import sys
import threading
import time

import pytest

from outcomes import no_traceback
from pzc import api
from pzc.encoder.interpreter.values import PSet
from pzc.runtime import clock
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source
from timelimit_cases import BIG_DOMAIN, EXPONENTIAL, NEVER
from unsolvable import PIGEONS, pigeon_block

# each test waits out a time limit of a second or more
pytestmark = pytest.mark.slow

SLACK = 5.0       # seconds past the limit that these tests tolerate
NEVER_GRID = ("." * 12 + "\n") * 12     # 200 steps of NEVER take about 5 s on SAT


@pytest.fixture
def budget_apart(monkeypatch):
    """A memory budget the test process's own size cannot reach: these tests
    run pzc inside pytest, whose resident memory late in the whole suite was
    enough for the growing plan to hit the 1.5 GB budget (an error, not the
    time limit they test) within its two seconds; test_resources.py tests
    the budget."""
    monkeypatch.setenv("PZC_MEMORY_MB", "8192")


def square(name, text):
    return read_instances(Source(name, text), "square")[0]


def timed(run_pzc, *args, limit):
    start = time.perf_counter()
    run = run_pzc(*args, "--timeout", str(limit), timeout=limit + 60)
    return run, time.perf_counter() - start


def timed_json(run_pzc, *args, limit):
    """Run with --format json; asserts exit 3 and no traceback, returns the object."""
    run, elapsed = timed(run_pzc, *args, "--format", "json", limit=limit)
    no_traceback(run)
    assert run.returncode == 3, run.stderr
    assert elapsed < limit + SLACK
    out = json.loads(run.stdout)
    assert out["status"] == "timeout"
    return out


def assert_timed_out(run, elapsed, limit, instance):
    no_traceback(run)
    assert run.returncode == 3, run.stderr
    assert f"{instance}: time limit reached" in run.stdout
    assert elapsed < limit + SLACK


@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_grounding_stops_inside_an_exponential_require(write, run_pzc, backend):
    write("expo.pz", EXPONENTIAL)
    write("grid.txt", "..\n..\n")
    run, elapsed = timed(run_pzc, "solve", "expo.pz", "grid.txt", "--backend", backend, limit=1)
    assert_timed_out(run, elapsed, 1, "grid.txt")


@pytest.mark.parametrize("backend", ["sat", "smt", "external"])
def test_a_huge_domain_stops_at_the_limit(write, run_pzc, backend):
    write("bigdom.pz", BIG_DOMAIN)
    write("grid.txt", "..\n..\n")
    extra = ["--solver-cmd", "sh -c 'exec sleep 30'"] if backend == "external" else []
    run, elapsed = timed(run_pzc, "solve", "bigdom.pz", "grid.txt", "--backend", backend,
                         *extra, limit=1)
    if backend == "smt" and run.returncode == 0:
        # for Z3 the range is one bounded Int: solved inside the limit is kept too
        assert "grid.txt: solved, verified" in run.stdout and elapsed < 1 + SLACK
        return
    assert_timed_out(run, elapsed, 1, "grid.txt")


@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_plan_deepening_stops_at_the_limit(write, run_pzc, backend, budget_apart):
    write("never.pz", NEVER)
    write("grid.txt", NEVER_GRID)
    out = timed_json(run_pzc, "solve", "never.pz", "grid.txt", "--backend", backend,
                     "--max-steps", "1000000", "--plan-search", "sat", limit=1)
    assert out["stats"]["backend"] == backend
    # in process, where start-up does not eat the second: stopped while deepening
    result = api.solve(api.load_spec(str(write("never.pz", NEVER))),
                       square("grid.txt", NEVER_GRID), backend=backend, timeout=2.0,
                       max_steps=10 ** 6, plan_search="sat")  # only the clock ends it
    assert result.status == "timeout" and result.exit_code == 3
    # the steps are known unless the alarm came as deepening's answer was passed on
    assert result.stats.get("steps", 1) > 0


def test_lazy_connectivity_rounds_stop_at_the_limit(write, run_pzc):
    # a blank 30x30 Slitherlink needs hundreds of cut rounds (before: 14-18 s at 10 s)
    write("blank.txt", ("." * 30 + "\n") * 30)
    run, elapsed = timed(run_pzc, "solve", "slitherlink", "blank.txt", "--stats", limit=2)
    assert_timed_out(run, elapsed, 2, "blank.txt")
    assert "sat/cadical195:" in run.stdout


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "kissat404", "lingeling"])
def test_every_kind_of_pysat_solver_stops(write, run_pzc, solver):
    """Each in a worker process killed at the deadline: incremental
    (CaDiCaL, Glucose, Lingeling) or rebuilt for every call (Kissat)."""
    write("pigeons.pz", PIGEONS)
    write("php.txt", pigeon_block(20, 21))
    out = timed_json(run_pzc, "solve", "pigeons.pz", "php.txt", "--solver", solver, limit=1)
    assert out["stats"]["solver"] == solver


@pytest.mark.parametrize("task", [api.solve, api.count])
@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_the_time_a_limit_cuts_off_is_split_where_it_went(write, task, backend):
    """compile_s is the grounding and encoding of the pigeons (milliseconds),
    solve_s the solving the limit cut off; before, all of it read as
    compile time, solve_s 0."""
    spec = api.load_spec(str(write("pigeons.pz", PIGEONS)))
    result = task(spec, square("php.txt", pigeon_block(20, 21)), backend=backend, timeout=2.0)
    assert result.status == "timeout", result.status
    stats = result.stats
    assert stats["solve_s"] > 1.0 > stats["compile_s"], stats


@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_unique_and_count_stop_at_the_limit(write, run_pzc, backend):
    write("pigeons.pz", PIGEONS)
    write("php.txt", pigeon_block(20, 21))
    for command in ("count", "unique"):
        timed_json(run_pzc, command, "pigeons.pz", "php.txt", "--backend", backend, limit=1)


@pytest.mark.parametrize("solver", ["glucose4", "minisat22"])
def test_an_interruptible_solver_is_stopped_in_process(monkeypatch, write, solver):
    """Glucose and MiniSat search in process under a limit and are told to
    stop at the deadline (clock.interrupting): with a slice no pigeon
    problem exhausts, 20 pigeons into 19 holes end at the limit, no worker
    started (uninterrupted, the call would run for minutes)."""
    from pzc.backends import sat
    started = []
    monkeypatch.setattr(sat, "Worker", lambda *args: started.append(args))
    monkeypatch.setattr(sat, "SLICE_CONFLICTS", 10 ** 9)
    spec = api.load_spec(str(write("pigeons.pz", PIGEONS)))
    inst = square("php.txt", pigeon_block(19, 20))
    start = time.perf_counter()
    result = api.solve(spec, inst, solver=solver, timeout=1.0)
    assert result.status == "timeout" and result.exit_code == 3 and started == []
    assert time.perf_counter() - start < 1.0 + SLACK
    counted = api.count(spec, inst, solver=solver, timeout=1.0)
    assert counted.status == "timeout" and not counted.complete and started == []


@pytest.mark.parametrize("solver", ["cadical195", "minisat22"])
def test_counting_keeps_what_it_found_before_the_limit(solver):
    """Blank 9x9 Sudoku: billions of boards; those found before the limit are
    kept, each a valid Sudoku, and all different."""
    spec = api.load_spec("sudoku")
    inst = square("blank.txt", ("." * 9 + "\n") * 9)
    result = api.count(spec, inst, solver=solver, timeout=1.0)
    assert result.status == "timeout" and result.exit_code == 3
    assert not result.complete and result.count == len(result.solutions) >= 1
    assert len({tuple(g) for g in result.solutions}) == result.count
    for grid in result.solutions:
        rows = [list(r) for r in grid]
        assert all(sorted(r) == list("123456789") for r in rows)
        assert all(sorted(c) == list("123456789") for c in zip(*rows))


def test_counting_keeps_its_boards_when_the_timeout_lands_after_the_enumeration(monkeypatch):
    """The clock's alarm rings at the deadline, the same moment a worker's
    wait ends with "timeout": its Timeout may land after the enumeration
    returned (CI saw count 0 there).  Made certain here: the enumeration
    stops after 5 boards as if timed out, and the Timeout comes next."""
    from pzc.tasks import solving
    real = solving.enumerate_solutions

    def five_then_timeout(g, session, limit, progress, out):
        real(g, session, 5, progress, out)
        out.timed_out = True
        raise clock.Timeout()

    monkeypatch.setattr(solving, "enumerate_solutions", five_then_timeout)
    spec = api.load_spec("sudoku")
    inst = square("blank.txt", ("." * 9 + "\n") * 9)
    result = api.count(spec, inst, timeout=30.0)
    assert result.status == "timeout" and result.exit_code == 3 and not result.complete
    assert result.count == len(result.solutions) == 5
    assert result.stats["variables"] > 0 and result.stats["clauses"] > 0
    assert len({tuple(g) for g in result.solutions}) == 5


def test_a_shell_wrapped_external_solver_is_killed_with_its_children(write, run_pzc):
    # sh runs sleep as a child (no exec): killing sh alone would leave sleep
    # holding the output pipe, and pzc waiting for it
    write("grid.txt", "..\n..\n")
    write("bigdom.pz", BIG_DOMAIN.replace("0..99999", "0..9"))
    run, elapsed = timed(run_pzc, "solve", "bigdom.pz", "grid.txt", "--backend", "external",
                         "--solver-cmd", "sh -c 'sleep 30; echo s UNKNOWN'", limit=1)
    assert_timed_out(run, elapsed, 1, "grid.txt")


@pytest.mark.skipif(shutil.which("cadical") is None, reason="no cadical binary")
def test_the_cadical_binary_stops_at_the_limit(write, run_pzc):
    write("pigeons.pz", PIGEONS)
    write("php.txt", pigeon_block(20, 21))
    run, elapsed = timed(run_pzc, "solve", "pigeons.pz", "php.txt", "--backend", "external",
                         "--solver-cmd", "cadical -q", limit=1)
    assert_timed_out(run, elapsed, 1, "php.txt")


def test_reading_a_huge_file_counts_against_the_limit(write, run_pzc):
    side = 1000
    rows = ["." * side for _ in range(side)]
    rows[0] = "A" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "A"
    write("huge.txt", f"{side} {side}\n" + "\n".join(rows) + "\n")
    timed_json(run_pzc, "solve", "numberlink", "huge.txt", limit=1)


def promise(limit):
    """How far past its limit pzc may stop (README: max(0.5 s, 10%))."""
    return max(0.5, limit / 10)


# 4,000,000 cells in a 200,000-character body (in a file: one command-line
# argument holds at most 128 KiB)
HUGE_URL = "https://puzz.link/p?akari/2000/2000/" + "z" * 200_000 + "\n"


def longest_hold(work):
    """(work(), the longest stretch in seconds in which no other thread ran:
    one C call holding the interpreter, which the alarm's Timeout cannot cut
    either, for it comes between two bytecodes)."""
    done = threading.Event()
    longest = [0.0]

    def watch():
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0.005)
            now = time.perf_counter()
            longest[0] = max(longest[0], now - last)
            last = now

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        value = work()
    finally:
        done.set()
        watcher.join()
    return value, longest[0]


@pytest.mark.slow
def test_reading_a_huge_url_never_holds_the_interpreter_past_the_promise(write):
    # the board's cells went into a frozenset, a set and a dict of positions,
    # each one C call of 0.5-1.2 s that a limit running out had to wait for
    path = write("huge.url", HUGE_URL)
    spec = api.load_spec("akari")
    gc.disable()             # as the command runs: collections only between instances
    try:
        (inst,), held = longest_hold(lambda: api.load_instances(spec, str(path)))
    finally:
        gc.enable()
    assert len(inst.geometry.cells) == 4_000_000 and inst.clues == {}
    assert (1999, 1999) in inst.geometry and (2000, 0) not in inst.geometry
    error = inst.error((5, 7), "x")                   # a cell is placed at the body
    assert (error.line, error.column) == (1, 37)
    # half the least margin: the other half is for the report and the exit
    assert held < promise(0) / 2


@pytest.mark.slow
def test_a_huge_puzzlink_url_stops_within_the_promise(write, run_pzc):
    # 3 s ran out while the URL was read: it stopped after 3.75-3.88 s
    write("huge.url", HUGE_URL)
    limit = 3
    run, elapsed = timed(run_pzc, "solve", "akari", "huge.url", "--format", "json",
                         limit=limit)
    no_traceback(run)
    assert run.returncode == 3, run.stderr
    assert json.loads(run.stdout)["status"] == "timeout"
    assert elapsed < limit + promise(limit)


# pzc with a start-up made slow by a sleep before the command (as imports on a
# busy machine): what the user's clock counts, from the process start
SLOW_START = ("import sys, time; time.sleep(float(sys.argv[1])); del sys.argv[1]; "
              "from pzc.cli import main; sys.argv[0] = 'pzc'; sys.exit(main())")


def slow_start(tmp_path, asleep, *args, limit):
    """(the run, its seconds from the process start to its end)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", SLOW_START, str(asleep), *map(str, args),
                           "--timeout", str(limit)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=limit + 60)
    return proc, time.perf_counter() - start


@pytest.mark.parametrize("count", [1, 2])
def test_generate_counts_the_start_up_against_the_first_puzzles_limit(tmp_path, count):
    # the first puzzles (one, or one per worker) stop at the limit counted from
    # the process start; counted from their own start they ended after the
    # sleep + the imports + the limit (about 7 s here)
    limit, asleep = 4, 2.5
    run, elapsed = slow_start(tmp_path, asleep, "generate", "numberlink", "--size", "40x40",
                              "--count", count, "--workers", 2, "--format", "json",
                              limit=limit)
    no_traceback(run)
    assert run.returncode == 3, run.stderr
    made = [json.loads(line) for line in run.stdout.splitlines()]
    assert [g["status"] for g in made] == ["timeout"] * count
    assert elapsed < limit + 1.5


# ------------------------------------------------------------------ the clock itself

def test_big_sets_and_dicts_built_in_steps_are_the_plain_ones():
    keys = [(k % 50_000, k % 3) for k in range(3 * clock.STEP + 5)]     # repeats
    assert clock.big_set(keys) == set(keys)
    built = clock.big_dict(keys, 1)
    assert built == dict.fromkeys(keys, 1) and list(built) == list(dict.fromkeys(keys))
    # the language's sets: first occurrences in order, equal and hashed as sets
    big, plain = PSet(keys), PSet(iter(keys))
    assert tuple(big) == tuple(plain) == tuple(dict.fromkeys(keys))
    assert big == plain and hash(big) == hash(plain) and (49_999, 1) in big
    assert len(big) == 150_000
    cells = PSet.of_distinct(((r, c) for r in range(3) for c in range(2)))
    assert cells == PSet([(2, 1), (0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])
    assert (2, 1) in cells and (3, 0) not in cells and [1] not in cells


def test_a_limit_inside_another_keeps_the_earlier_deadline():
    assert clock.left() is None
    with clock.limit(100.0) as outer:
        with clock.limit(1000.0) as inner:
            assert inner == outer
        with clock.limit(None) as inner:
            assert inner == outer
        with clock.limit(10.0) as inner:    # (1 s rang once on a loaded machine)
            assert inner < outer and 0 < clock.left() <= 10.0
        assert clock.deadline() == outer
    assert clock.left() is None and clock.deadline() is None


def test_the_alarm_stops_pure_python_in_any_thread_and_only_inside_the_limit():
    def spin():
        start = time.perf_counter()
        with pytest.raises(clock.Timeout):
            with clock.limit(0.2):
                while True:          # checks nothing: only the alarm can stop it
                    pass
        assert time.perf_counter() - start < 0.2 + SLACK
        with clock.limit(0.05):      # left in time: no Timeout comes later
            pass
        end = time.perf_counter() + 0.3
        while time.perf_counter() < end:
            pass
    spin()
    errors = []

    def in_a_thread():
        try:
            spin()
        except BaseException as e:   # pragma: no cover - reported below
            errors.append(e)
    t = threading.Thread(target=in_a_thread)
    t.start()
    t.join(60)
    assert not errors


def test_a_held_block_is_not_cut_by_the_alarm_which_comes_as_it_ends():
    inside_done = False
    start = time.perf_counter()
    with pytest.raises(clock.Timeout):
        with clock.limit(0.1):
            with clock.held():
                with clock.held():   # nested: the outer block's end raises it
                    end = time.perf_counter() + 0.3
                    while time.perf_counter() < end:
                        pass
                end = time.perf_counter() + 0.1
                while time.perf_counter() < end:
                    pass
                inside_done = True
            while True:              # the Timeout that rang inside comes here
                pass
    assert inside_done and time.perf_counter() - start < 0.4 + SLACK
    with clock.held():               # the limit, left inside the held block, rang
        with clock.limit(0.1):       # there: nothing comes after it
            end = time.perf_counter() + 0.3
            while time.perf_counter() < end:
                pass
    end = time.perf_counter() + 0.2
    while time.perf_counter() < end:
        pass


def test_a_limit_whose_exit_was_cut_short_is_left_by_its_handler():
    """The alarm can ring as the block is left, before __exit__ does anything:
    the handler's leave() then restores the deadline and stops the alarm."""
    deadline = clock.limit(0.2)
    deadline.__enter__()                 # entered; __exit__ never runs
    assert clock.left() is not None
    deadline.leave()
    deadline.leave()                     # once only
    assert clock.deadline() is None
    end = time.perf_counter() + 0.4      # past the deadline: no Timeout comes
    while time.perf_counter() < end:
        pass


def test_a_limit_in_another_thread_is_kept_by_the_stages_checks(tmp_path, budget_apart):
    """The command runs in a thread (runtime/deep_stack.py): the limit holds there too."""
    (tmp_path / "never.pz").write_text(NEVER)
    spec = api.load_spec(str(tmp_path / "never.pz"))
    assert_times_out_in_a_thread(spec, square("grid.txt", NEVER_GRID))


def assert_times_out_in_a_thread(spec, inst):
    out = {}

    def work():
        start = time.perf_counter()
        out["result"] = api.solve(spec, inst, timeout=1.0)
        out["elapsed"] = time.perf_counter() - start
    t = threading.Thread(target=work)
    t.start()
    t.join(60)
    assert out["result"].status == "timeout" and out["result"].exit_code == 3
    assert out["elapsed"] < 1 + SLACK


def test_after_a_timeout_the_next_instance_solves():
    """What a timed-out instance left behind is freed before the next one."""
    spec = api.load_spec("sudoku")
    blank = square("blank.txt", ("." * 9 + "\n") * 9)
    slow = api.count(spec, blank, timeout=0.5)
    assert slow.status == "timeout"
    assert clock.any_left_behind()
    grid = square("g.txt", "..4.\n2...\n1...\n..2.\n")
    done = api.solve(spec, grid, timeout=30)
    assert done.status == "solved" and done.grid == ["3142", "2413", "1234", "4321"]
    assert not clock.any_left_behind()


def test_an_exponential_require_in_another_thread_stops_too(tmp_path):
    """In a thread the alarm and the let-function calls' checks stop evaluation."""
    (tmp_path / "expo.pz").write_text(EXPONENTIAL)
    spec = api.load_spec(str(tmp_path / "expo.pz"))
    assert_times_out_in_a_thread(spec, square("grid.txt", "..\n..\n"))
