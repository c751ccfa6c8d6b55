"""Ctrl-C, long solves and time limits: where a SAT solve runs (backends/sat.py).

A solve starts in process with a budget of SLICE_CONFLICTS conflicts per
solver call, and goes on in a forked worker when a call runs out of it; a
big formula goes to the worker at once, and so, under a time limit, does a
CaDiCaL call on a formula past LIMITED_IN_PROCESS_CLAUSES or with GUARD_S
seconds or less left (Glucose is interrupted at the deadline in process).
The answers must not depend on where they were found: the tests below push
solves across that line (a budget of one conflict, a formula "too big" at
any size, a time limit always "near") and compare with what the other route
and brute force say.  PySAT's own SIGINT
handler is never installed (runtime/pysat_calls.py), so Ctrl-C never jumps out
of a native call: pzc says "interrupted" and exits 130, every time."""

from __future__ import annotations

import os
import random
import select
import signal
import time

import pytest

from pzc import api
from pzc.backends import sat
from pzc.encoder.instance import Source, read_instances
from terminal import blank, solving_on_a_terminal
from unsolvable import PIGEONS, pigeon_block


def instance(spec, text, name="inst.txt"):
    inst, = read_instances(Source(name, text), spec.board.kind)
    return inst


@pytest.fixture
def workers(monkeypatch):
    """The workers the SAT backend starts, recorded."""
    started = []

    class Recorded(sat.Worker):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(sat, "Worker", Recorded)
    return started


def test_a_small_solve_stays_in_process(workers):
    spec = api.load_spec("slitherlink")
    res = api.solve(spec, instance(spec, blank(5, 5)))
    assert res.status == "solved" and res.verified and res.stats["rounds"] >= 1
    assert workers == []


def test_a_solve_that_outlasts_its_slice_goes_on_in_a_worker(workers, tmp_path):
    """Pigeons into one hole fewer: refuting it takes CaDiCaL far more than
    SLICE_CONFLICTS conflicts, so the worker finishes it."""
    (tmp_path / "pigeons.pz").write_text(PIGEONS)
    spec = api.load_spec(str(tmp_path / "pigeons.pz"))
    res = api.solve(spec, instance(spec, pigeon_block(11, 12)))
    assert res.status == "unsat" and len(workers) == 1


@pytest.mark.parametrize("where", ["slice of one conflict", "worker from the start"])
def test_counts_and_connectivity_rounds_agree_on_either_route(workers, monkeypatch, where):
    """213 simple cycles on a blank 3x3 Slitherlink (OEIS A140517), found
    through lazy connectivity cuts and blocking clauses, whichever process
    solves; and a verified loop on a 6x6 one."""
    spec = api.load_spec("slitherlink")
    monkeypatch.setattr(sat, "SLICE_CONFLICTS", 1)
    if where == "worker from the start":
        monkeypatch.setattr(sat, "IN_PROCESS_CLAUSES", 0)
    counted = api.count(spec, instance(spec, blank(3, 3)))
    assert counted.complete and counted.count == 213
    moved = api.solve(spec, instance(spec, blank(6, 6)))
    assert moved.status == "solved" and moved.verified and moved.stats["rounds"] > 1
    assert len(workers) == 2


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_under_a_time_limit_a_small_solve_stays_in_process(workers, solver):
    spec = api.load_spec("slitherlink")
    res = api.solve(spec, instance(spec, blank(8, 8)), solver=solver, timeout=60)
    assert res.status == "solved" and res.verified and res.stats["rounds"] >= 1
    assert workers == []


def _boards(spec, inst, **options):
    """The solved board and the count of a solve and a count, each verified."""
    res = api.solve(spec, inst, **options)
    assert res.status == "solved" and res.verified
    counted = api.count(spec, inst, limit=50, **options)
    assert counted.status == "counted" and len(counted.solutions) == counted.count
    return res.grid, counted.solutions


@pytest.mark.parametrize("slice_", [1000, 1])
def test_the_route_never_changes_the_answer(workers, monkeypatch, slice_):
    """A blank 6x6 Slitherlink (cut rounds; 50 of its loops counted): the
    same board and the same boards in the same order without a limit, under
    one in process, and under one that sends every CaDiCaL call to the
    worker (as the last GUARD_S seconds before a deadline do); with a slice
    of one conflict the solves also change route halfway."""
    spec = api.load_spec("slitherlink")
    inst = instance(spec, blank(6, 6))
    monkeypatch.setattr(sat, "SLICE_CONFLICTS", slice_)
    unlimited = _boards(spec, inst)
    in_process = _boards(spec, inst, timeout=600)
    started = len(workers)
    monkeypatch.setattr(sat, "GUARD_S", 10 ** 6)
    near_deadline = _boards(spec, inst, timeout=600)
    assert len(workers) == started + 2
    assert unlimited == in_process == near_deadline


def test_under_a_time_limit_a_formula_past_the_bound_goes_to_the_worker(workers, monkeypatch):
    spec = api.load_spec("slitherlink")
    monkeypatch.setattr(sat, "LIMITED_IN_PROCESS_CLAUSES", 0)
    res = api.solve(spec, instance(spec, blank(5, 5)), timeout=60)
    assert res.status == "solved" and res.verified and len(workers) == 1
    res = api.solve(spec, instance(spec, blank(5, 5)), timeout=60, solver="glucose4")
    assert res.status == "solved" and res.verified and len(workers) == 1


def test_a_solver_that_takes_no_budget_solves_in_a_worker(workers):
    spec = api.load_spec("slitherlink")
    res = api.solve(spec, instance(spec, blank(4, 4)), solver="lingeling")
    assert res.status == "solved" and res.verified and len(workers) == 1


def _interrupted(tmp_path, side, delay):
    """SIGINT ``pzc solve`` ``delay`` seconds into solving; (exit code,
    standard error)."""
    proc, master, received = solving_on_a_terminal(tmp_path, side)
    try:
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGINT)
        code = proc.wait(30)
        try:
            while select.select([master], [], [], 1)[0]:
                chunk = os.read(master, 1 << 16)
                if not chunk:
                    break
                received += chunk
        except OSError:                     # every writer of the terminal is gone
            pass
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return code, received.decode(errors="replace")


@pytest.mark.slow
def test_ctrl_c_at_any_moment_of_a_solve_says_interrupted(tmp_path):
    """Before PySAT's handler was switched off, a SIGINT that landed in the
    solver's malloc left the heap corrupt and glibc aborted pzc (signal 6,
    no message), in about 1 of 30 tries.  Ten moments in the first 2 s of
    solving a blank 36x36 Slitherlink (about 7 s: in-process slices, then
    the worker)."""
    rng = random.Random(5)
    for _ in range(10):
        delay = rng.uniform(0.0, 2.0)
        code, err = _interrupted(tmp_path, 36, delay)
        assert code == 130, (delay, err[-300:])
        assert err.endswith("pzc: interrupted\r\n"), (delay, err[-300:])


def test_the_progress_line_stops_when_pzc_is_killed(tmp_path):
    """SIGKILL leaves pzc no moment to stop its line: the drawing process
    sees the connection end, clears the line and exits, so the terminal's
    last writer is gone within a moment (it used to redraw for ever)."""
    proc, master, received = solving_on_a_terminal(tmp_path, 40)
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        ended_by = time.monotonic() + 10
        after = b""
        while time.monotonic() < ended_by:
            if not select.select([master], [], [], 1)[0]:
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:                 # EIO: nobody holds the terminal any more
                break
            if not chunk:
                break
            after += chunk
        else:
            pytest.fail(f"the line still draws 10 s after pzc was killed: {after[-200:]!r}")
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    text = (received + after).decode(errors="replace")
    assert text.endswith("\x1b[2K") and text.rfind("\x1b[?25h") > text.rfind("\x1b[?25l"), text[-200:]
