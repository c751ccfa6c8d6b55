"""Progress on long work: the API's ``progress(event, **figures)`` callback (its
phases in pipeline order, its counts against the results), and the command
line's line on standard error, run under a pseudo-terminal, absent with pipes
and with --quiet, never touching the JSON on standard output.

Blank Slitherlink boards are the slow instances: every simple cycle of the
dot lattice is a solution (213 on a 3x3 board, 1049 on 3x4: OEIS A140517 and
A231829), and the solver meets many loops that lazy connectivity cuts off."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from pzc import api
from pzc.encoder.instance import Source, read_instances
from terminal import ANSI, AT_ONCE, blank, run_on_terminal, solving_on_a_terminal

PHASES = ["grounding", "encoding", "solving", "verifying"]


def instance(spec, text, name="blank.txt"):
    inst, = read_instances(Source(name, text), spec.board.kind)
    return inst


def recorded(run):
    """Call ``run(progress)`` with a callback that records; (result, events)."""
    events = []
    result = run(lambda event, **figures: events.append((event, figures)))
    return result, events


def phases(events):
    return [e for e, _ in events if e in PHASES]


def figures(events, name):
    return [f for e, f in events if e == name]


# ---------------------------------------------------------------- the API callback

def test_solve_reports_phases_in_order_and_the_rounds_and_cuts_of_its_stats():
    spec = api.load_spec("slitherlink")
    res, events = recorded(lambda p: api.solve(spec, instance(spec, blank(10, 10)), progress=p))
    assert res.status == "solved" and res.verified
    assert phases(events) == PHASES
    rounds = figures(events, "round")
    assert res.stats["cuts"] > 0 and rounds
    # one event per round that was cut off: 1, 2, 3, ...; the last round found the loop
    assert [r["rounds"] for r in rounds] == list(range(1, res.stats["rounds"]))
    cuts = [r["cuts"] for r in rounds]
    assert cuts == sorted(set(cuts)) and cuts[-1] == res.stats["cuts"]
    # the rounds come while solving, before verifying
    assert [e for e, _ in events].index("round") > [e for e, _ in events].index("solving")


@pytest.mark.parametrize("backend", ["smt", "sat"])
def test_without_lazy_connectivity_there_are_phases_only(backend):
    spec = api.load_spec("sudoku")
    text = "4..1\n...3\n3..4\n1.3.\n"
    res, events = recorded(lambda p: api.solve(spec, instance(spec, text), backend=backend,
                                               progress=p))
    assert res.status == "solved" and res.verified
    assert [e for e, _ in events] == PHASES


def test_count_reports_each_solution_and_the_last_is_the_count():
    spec = api.load_spec("slitherlink")
    res, events = recorded(lambda p: api.count(spec, instance(spec, blank(3, 3)), progress=p))
    assert res.complete and res.count == 213            # the cycles of a 4x4 dot lattice
    assert phases(events) == ["grounding", "encoding", "solving"]
    assert [f["count"] for f in figures(events, "solution")] == list(range(1, 214))
    assert figures(events, "round")[-1]["cuts"] == res.stats["cuts"]


def test_unique_reports_the_solutions_it_found():
    spec = api.load_spec("slitherlink")
    res, events = recorded(lambda p: api.unique(spec, instance(spec, blank(2, 2)), progress=p))
    assert res.status == "several"
    assert [f["count"] for f in figures(events, "solution")] == [1, 2]


def test_plan_deepening_reports_each_depth_up_to_the_plan_found():
    spec = api.load_spec("sliding")
    # 123/4.6/758: slide 5 up, then 8 left; no single slide reaches 123/456/78.
    text = "123\n4.6\n758\n"
    inst, = read_instances(Source("three.txt", text), spec.board.kind, target=True)
    res, events = recorded(lambda p: api.solve(spec, inst, progress=p))
    assert res.status == "solved" and res.verified and res.steps == 2
    assert phases(events) == PHASES
    assert [f["steps"] for f in figures(events, "depth")] == [0, 1, 2]


def test_no_callback_is_the_default_and_none_is_no_callback():
    spec = api.load_spec("slitherlink")
    assert api.count(spec, instance(spec, blank(2, 2))).count == 13      # the cycles of 3x3 dots
    assert api.unique(spec, instance(spec, blank(2, 2)), progress=None).status == "several"
    assert api.solve(spec, instance(spec, blank(2, 2)), progress=None).verified


# ---------------------------------------------------------------- the command line

@pytest.mark.slow
def test_count_on_a_terminal_shows_phase_instances_and_counts(write, tmp_path):
    write("two.txt", blank(3, 4) + "\n" + blank(4, 3))
    code, out, err = run_on_terminal(["count", "slitherlink", "two.txt", "--format", "json"],
                                     tmp_path, AT_ONCE)
    assert code == 0, err
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["count"] for r in results] == [1049, 1049]
    for label, r in zip(["two.txt#1 (1/2)", "two.txt#2 (2/2)"], results):
        # the line drawn last for each instance: its phase, cuts and count, all final
        assert re.search(rf"{re.escape(label)}  solving: \d+ rounds, {r['stats']['cuts']} cuts, "
                         rf"1049 solutions", err), (label, err[-2000:])
    assert "pzc" not in err                 # no messages, only the line


@pytest.mark.slow
def test_solve_on_a_terminal_shows_rounds_and_cuts_then_verifying(write, tmp_path):
    write("blank.txt", blank(20, 20))
    code, out, err = run_on_terminal(["solve", "slitherlink", "blank.txt", "--format", "json"],
                                     tmp_path, AT_ONCE)
    assert code == 0, err
    result = json.loads(out)
    st = result["stats"]
    assert result["verified"] and st["cuts"] > 0
    assert re.search(r"blank\.txt  solving: \d+ rounds?, \d+ cuts?", err), err[-2000:]
    assert f"blank.txt  verifying: {st['rounds'] - 1} rounds, {st['cuts']} cuts" in err


@pytest.mark.slow
def test_plan_depth_shows_on_a_terminal(examples, tmp_path):
    # the SAT deepening: the state search is done before the line is drawn
    code, out, err = run_on_terminal(["solve", "sliding", str(examples / "sliding" / "hard8.txt"),
                                      "--format", "json", "--plan-search", "sat"], tmp_path,
                                     AT_ONCE)
    assert code == 0, err
    steps = json.loads(out)["steps"]
    assert re.search(r"hard8\.txt  solving: plans of \d+ moves", err), err[-2000:]
    assert f"hard8.txt  verifying: plans of {steps} moves" in err


@pytest.mark.slow
def test_the_line_waits_a_second_by_default(write, tmp_path):
    """Without PZC_PROGRESS_AFTER, nothing shows before the first second (and
    these two counts, in two files, take longer than that together)."""
    write("a.txt", blank(3, 4))
    write("b.txt", blank(4, 3))
    code, out, err = run_on_terminal(["count", "slitherlink", "a.txt", "b.txt"], tmp_path)
    assert code == 0 and out.count("1049 solutions") == 2
    shown = [float(t) for t in re.findall(r"(\d+\.\d) s  [ab]\.txt \([12]/2\)", err)]
    assert shown and all(t >= 1.0 for t in shown), err
    assert "b.txt (2/2)  solving: " in err


@pytest.mark.slow
def test_quiet_shows_nothing_on_a_terminal(write, tmp_path):
    write("blank.txt", blank(3, 3))
    write("big.txt", blank(16, 16))
    for args in (["count", "slitherlink", "blank.txt"], ["unique", "slitherlink", "big.txt"],
                 ["solve", "slitherlink", "big.txt", "blank.txt"]):
        code, out, err = run_on_terminal([*args, "--quiet", "--format", "json"], tmp_path,
                                         AT_ONCE)
        assert code in (0, 1) and err == "", args
        results = [json.loads(line) for line in out.splitlines()]
        assert {r["spec"] for r in results} == {"slitherlink"} and len(results) == len(args) - 2
    assert results[1]["status"] == "solved"


@pytest.mark.slow
def test_pipes_get_no_progress(write, run_pzc, monkeypatch):
    monkeypatch.setenv("PZC_PROGRESS_AFTER", "0")
    write("blank.txt", blank(3, 3))
    write("big.txt", blank(12, 12))
    for args in (["count", "slitherlink", "blank.txt"], ["unique", "slitherlink", "big.txt"],
                 ["solve", "slitherlink", "big.txt", "blank.txt"]):
        for form in ("json", "text"):
            run = run_pzc(*args, "--format", form)
            assert run.returncode in (0, 1) and run.stderr == "", (args, form)
            if form == "json":
                results = [json.loads(line) for line in run.stdout.splitlines()]
                assert len(results) == len(args) - 2
    assert json.loads(run_pzc("count", "slitherlink", "blank.txt", "--format", "json")
                      .stdout)["count"] == 213


@pytest.mark.slow
def test_unique_on_a_terminal_shows_the_two_solutions(write, tmp_path):
    write("blank.txt", blank(20, 20))
    code, out, err = run_on_terminal(["unique", "slitherlink", "blank.txt"], tmp_path, AT_ONCE)
    assert code == 1 and "not unique" in out
    assert "blank.txt  solving:" in err and ", 2 solutions" in err, err[-2000:]


def test_a_bad_progress_delay_is_a_plain_error(write, tmp_path):
    write("blank.txt", blank(2, 2))
    code, out, err = run_on_terminal(["solve", "slitherlink", "blank.txt"], tmp_path,
                                     {"PZC_PROGRESS_AFTER": "soon"})
    assert code == 2 and out == ""
    assert "PZC_PROGRESS_AFTER is a number of seconds, at least 0, not 'soon'" in err


@pytest.mark.slow
def test_help_documents_quiet(run_pzc):
    for command in ("solve", "count", "unique"):
        text = " ".join(run_pzc(command, "--help").stdout.split())
        assert "--quiet show no progress on standard error" in text, command


def test_the_readme_shows_a_line_as_pzc_draws_it(monkeypatch):
    """README.md's example line is what runtime/progress.py writes for those events."""
    from pathlib import Path

    from pzc.runtime import progress
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    shown, = re.findall(r"^⠹ (.*)$", readme, re.M)
    state = progress._State()
    for event, figures in [("instance", dict(name="/tmp/blank20.txt", index=2, total=3)),
                           ("grounding", {}), ("encoding", {}), ("solving", {}),
                           ("round", dict(rounds=1, cuts=224)),
                           ("round", dict(rounds=380, cuts=66900))]:
        state.take(event, figures)
    monkeypatch.setattr(progress.time, "perf_counter", lambda: state.start + 2.4)
    assert state.text() == shown
    state.take("depth", dict(steps=1))
    state.take("solution", dict(count=1))
    assert state.text().endswith("solving: 380 rounds, 66900 cuts, plans of 1 move, 1 solution")


def test_a_broken_line_process_stops_quietly_and_the_command_goes_on(tmp_path):
    """A message the drawing process cannot read (say, one cut by a signal)
    ends the line, cleared and without a traceback; pause and close still return."""
    script = tmp_path / "broken.py"
    script.write_text("""
import sys, time
from pzc.runtime.progress import Display
d = Display()
d.callback("solving")
time.sleep(0.3)
d.conn._send(b"\\x00\\x00\\x00\\x05junk!")        # a length and five bytes: not a pickle
time.sleep(0.3)
d.callback("verifying")
d.pause()
d.close()
print("gone" if d.callback is None and d.proc.exitcode == 0 else "still there")
""")
    master, slave = pty.openpty()
    proc = subprocess.run([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=slave,
                          env=dict(os.environ, TERM="xterm", **AT_ONCE), timeout=60, text=True)
    os.close(slave)
    os.set_blocking(master, False)
    try:
        err = ANSI.sub("", os.read(master, 1 << 16).decode(errors="replace"))
    finally:
        os.close(master)
    assert proc.returncode == 0 and proc.stdout == "gone\n"
    assert "solving" in err and "Traceback" not in err and "verifying" not in err


@pytest.mark.slow
def test_no_line_while_an_instance_is_typed_on_the_terminal(tmp_path):
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pzc.cli", "solve", "sudoku", "-"],
                            cwd=tmp_path, stdin=slave, stdout=subprocess.PIPE, stderr=slave,
                            env=dict(os.environ, TERM="xterm", **AT_ONCE))
    os.close(slave)
    try:
        time.sleep(1.0)                     # pzc waits for the instance
        os.write(master, b"4..1\n...3\n3..4\n1.3.\n\x04")
        out = proc.stdout.read().decode()
        assert proc.wait(60) == 0 and "<stdin>: solved, verified" in out
        os.set_blocking(master, False)
        echoed = os.read(master, 1 << 16).decode(errors="replace")
    finally:
        os.close(master)
    assert "reading" not in echoed and "4..1" in echoed


@pytest.mark.slow
@pytest.mark.parametrize("to_group", [True, False], ids=["ctrl-c", "kill-int"])
def test_ctrl_c_clears_the_line_before_saying_interrupted(tmp_path, to_group):
    """Ctrl-C reaches every process of the terminal's group (the line's too);
    `kill -INT` only pzc.  Either way the line is gone, and the cursor back,
    before the message."""
    # about 30 s of solving (40x40 now takes 3 s: pzc could finish before the signal)
    proc, master, received = solving_on_a_terminal(tmp_path, 70)
    try:
        (os.killpg if to_group else os.kill)(proc.pid, signal.SIGINT)
        give_up = time.monotonic() + 60     # a line drawn on past pzc's end fails, not hangs
        try:
            while time.monotonic() < give_up:
                ready, _, _ = select.select([master], [], [], 5)
                chunk = os.read(master, 1 << 16) if ready else b""
                if not chunk:
                    break
                received += chunk
        except OSError:                     # the terminal's last writer is gone
            pass
        code = proc.wait(30)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    assert code == 130
    text = received.decode(errors="replace")
    assert text.endswith("pzc: interrupted\r\n"), text[-300:]
    before = text[:-len("pzc: interrupted\r\n")]
    assert before.endswith("\x1b[2K") and before.rfind("\x1b[?25h") > before.rfind("\x1b[?25l")


def test_rounds_solved_in_a_worker_process_reach_the_callback():
    """Under a time limit CaDiCaL solves in a forked worker (backends/worker.py):
    its rounds come back, so the caller's callback sees them as without one."""
    spec = api.load_spec("slitherlink")
    res, events = recorded(lambda p: api.solve(spec, instance(spec, blank(10, 10)),
                                               timeout=300, progress=p))
    assert res.status == "solved" and res.verified and phases(events) == PHASES
    rounds = figures(events, "round")
    assert [r["rounds"] for r in rounds] == list(range(1, res.stats["rounds"]))
    assert rounds[-1]["cuts"] == res.stats["cuts"] > 0
    res, events = recorded(lambda p: api.count(spec, instance(spec, blank(3, 3)),
                                               timeout=300, progress=p))
    assert res.complete and res.count == 213
    assert [f["count"] for f in figures(events, "solution")] == list(range(1, 214))
    assert figures(events, "round")[-1]["cuts"] == res.stats["cuts"] > 0
