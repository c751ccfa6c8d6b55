"""pzc batch: every instance of many files on worker processes or a Dask
cluster, one JSON line each as `pzc solve --format json` prints it, resumable.

Each batch is compared with the plain command (solve, count, unique --format
json) run on the same files: the same lines but for times, each instance
exactly once."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

import generators as gen
from conftest import CORPUS, ROOT, reads_corpus
from processes import holding
from pzc import api


def sudoku_file(write, name, b, keep, n, seed):
    rng = random.Random(seed)
    text = "\n".join("\n".join(gen.sudoku_puzzle(b, keep, rng)[0]) + "\n" for _ in range(n))
    return write(name, text)


def nurikabe_file(write, name, n, seed):
    rng = random.Random(seed)
    puzzles = [gen.nurikabe_puzzle(5, 5, rng) for _ in range(n)]
    return write(name, "\n".join(p if p.endswith("\n") else p + "\n" for p in puzzles))


def without_times(obj: dict) -> dict:
    """A result line with the parts that differ from run to run left out."""
    return {k: v for k, v in obj.items() if k != "stats"}


def lines_of(text: str) -> list:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def by_instance(objs: list) -> dict:
    names = [o["instance"] for o in objs]
    assert len(names) == len(set(names)), f"an instance appears twice: {sorted(names)}"
    return {o["instance"]: without_times(o) for o in objs}


def plain(run_pzc, task, spec, *files, extra=()):
    """What `pzc TASK --format json` prints for these files, by instance."""
    run = run_pzc(task, spec, *files, "--format", "json", *extra)
    assert run.returncode in (0, 1, 2, 3), run.stderr
    return by_instance(lines_of(run.stdout))


@pytest.fixture
def mixed(write):
    """Sudoku 4x4 and 9x9 files (several instances each) and a Nurikabe file."""
    return {"sudoku": [str(sudoku_file(write, "four.txt", 2, 0.4, 7, 1).name),
                       str(sudoku_file(write, "nine.txt", 3, 0.35, 5, 2).name)],
            "nurikabe": [str(nurikabe_file(write, "nuri.txt", 4, 3).name)]}


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("task", ["solve", "count", "unique"])
def test_batch_equals_the_plain_command(mixed, run_pzc, workers, task):
    for spec, files in mixed.items():
        want = plain(run_pzc, task, spec, *files)
        run = run_pzc("batch", spec, *files, "--task", task, "--workers", workers)
        assert run.returncode == api.worst_exit(
            [{"solved": 0, "counted": 0, "unique": 0}.get(o["status"], 1)
             for o in want.values()]), run.stderr
        got = by_instance(lines_of(run.stdout))
        assert got == want
        assert len(got) >= 4
        # the summary goes to standard error, never into the JSON
        assert f"pzc batch: {len(got)} instances" in run.stderr


@pytest.mark.slow
def test_batch_out_file_and_summary(mixed, run_pzc, tmp_path):
    run = run_pzc("batch", "sudoku", *mixed["sudoku"], "--out", "r.jsonl")
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""
    got = by_instance(lines_of((tmp_path / "r.jsonl").read_text()))
    assert got == plain(run_pzc, "solve", "sudoku", *mixed["sudoku"])
    assert "solved 12" in run.stderr and "slowest:" in run.stderr and "CPU time of the workers" in run.stderr
    quiet = run_pzc("batch", "sudoku", *mixed["sudoku"], "--out", "q.jsonl", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_an_instance_named_twice_runs_once(mixed, run_pzc):
    four = mixed["sudoku"][0]
    run = run_pzc("batch", "sudoku", four, four + "#2", four, "--workers", 2)
    assert run.returncode == 0, run.stderr
    got = by_instance(lines_of(run.stdout))
    assert len(got) == 7


@pytest.mark.slow
def test_portfolio_and_options_travel_to_the_workers(mixed, run_pzc):
    run = run_pzc("batch", "--portfolio", "glucose4,smt", "sudoku", *mixed["sudoku"],
                  "--workers", 2)
    assert run.returncode == 0, run.stderr
    objs = lines_of(run.stdout)
    assert all(o["stats"]["backend"] == "portfolio" for o in objs)
    assert all(o["stats"]["members"] == ["glucose4:lazy", "smt"] for o in objs)
    # these Sudoku have several solutions: which member answers first picks one
    want = plain(run_pzc, "solve", "sudoku", *mixed["sudoku"])
    assert {o["instance"]: (o["status"], o["verified"]) for o in objs} == {
        name: (o["status"], o["verified"]) for name, o in want.items()}
    smt = run_pzc("batch", "sudoku", mixed["sudoku"][0], "--backend", "smt")
    assert {o["stats"]["backend"] for o in lines_of(smt.stdout)} == {"smt"}
    both = run_pzc("batch", "--portfolio", "glucose4,smt", "sudoku", mixed["sudoku"][0],
                   "--backend", "smt")
    assert both.returncode == 2 and "leave out --backend" in both.stderr


@pytest.mark.slow
def test_an_unreadable_file_is_its_error_line_and_the_others_go_on(mixed, run_pzc, write):
    write("bad.txt", "1 2\n3\n")
    files = [mixed["sudoku"][0], "missing.txt", "bad.txt"]
    want = plain(run_pzc, "solve", "sudoku", *files)
    run = run_pzc("batch", "sudoku", *files, "--workers", 2)
    assert run.returncode == 2
    got = by_instance(lines_of(run.stdout))
    assert got == want
    assert got["missing.txt"]["error"]["message"] == "no such instance file: missing.txt"
    assert sum(o["status"] == "solved" for o in got.values()) == 7


@pytest.mark.slow
def test_usage_errors_exit_2_with_a_plain_message(mixed, run_pzc, write):
    four = mixed["sudoku"][0]
    bad_task = run_pzc("batch", "sudoku", four, "--task", "solvee")
    assert bad_task.returncode == 2 and "invalid choice: 'solvee'" in bad_task.stderr
    no_out = run_pzc("batch", "sudoku", four, "--resume")
    assert no_out.returncode == 2 and "give it as --out FILE" in no_out.stderr
    address = run_pzc("batch", "sudoku", four, "--scheduler", "somewhere")
    assert address.returncode == 2
    assert address.stderr.strip() == ("pzc: error: --scheduler somewhere: expected "
                                      "tcp://HOST:PORT (a Dask scheduler) or local")
    spec = run_pzc("batch", "sudokku", four)
    assert spec.returncode == 2 and "no built-in spec or file named 'sudokku'" in spec.stderr
    for run in (bad_task, no_out, address, spec):
        assert "Traceback" not in run.stderr and run.stdout == ""


@pytest.mark.slow
def test_a_scheduler_that_cannot_be_reached_exits_2(mixed, run_pzc):
    run = run_pzc("batch", "sudoku", mixed["sudoku"][0], "--scheduler", "tcp://127.0.0.1:9")
    assert run.returncode == 2
    assert run.stderr.startswith("pzc: error: --scheduler tcp://127.0.0.1:9: cannot reach the "
                                 "Dask scheduler there")
    assert "Traceback" not in run.stderr and run.stdout == ""


# pzc as on an install without the cluster extra: importing distributed fails
WITHOUT_DISTRIBUTED = ("import sys; sys.modules['distributed'] = None; "
                       "from pzc.cli import main; sys.argv[0] = 'pzc'; sys.exit(main())")


@pytest.mark.parametrize("scheduler", ["local", "tcp://127.0.0.1:9"])
def test_a_scheduler_without_the_cluster_extra_says_which_extra_to_install(
        mixed, tmp_path, scheduler):
    run = subprocess.run([sys.executable, "-c", WITHOUT_DISTRIBUTED, "batch", "sudoku",
                          str(mixed["sudoku"][0]), "--scheduler", scheduler, "--out", "r.jsonl"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("pzc: error: --scheduler runs on a Dask cluster, and Dask's "
                                 "distributed package is not installed")
    assert "pip install 'pzc[cluster]'" in run.stderr
    assert ".venv/bin/pip install -e '.[cluster]'" in run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    assert run.stdout == ""
    # refused before any work: nothing was solved into the results file
    assert (tmp_path / "r.jsonl").read_text() == ""


def test_resume_with_a_file_that_is_not_json_lines(mixed, run_pzc, write):
    write("r.jsonl", '{"instance": "four.txt#1", "status": "solved"}\n[1, 2]\n')
    run = run_pzc("batch", "sudoku", *mixed["sudoku"], "--out", "r.jsonl", "--resume")
    assert run.returncode == 2
    assert run.stderr.startswith("r.jsonl:2:1: error: r.jsonl is not the JSON lines of a batch")
    write("s.jsonl", '{"instance": "four.txt#1"}\nnot json\n')
    run = run_pzc("batch", "sudoku", *mixed["sudoku"], "--out", "s.jsonl", "--resume")
    assert run.returncode == 2 and run.stderr.startswith("s.jsonl:2:1: error:")


@pytest.mark.slow
def test_resume_repairs_a_torn_last_line(mixed, run_pzc, tmp_path):
    files = mixed["sudoku"]
    out = tmp_path / "r.jsonl"
    assert run_pzc("batch", "sudoku", *files, "--out", out.name).returncode == 0
    data = out.read_bytes()
    lines = data.splitlines(keepends=True)
    torn = lines[-1][: len(lines[-1]) // 2]          # killed while writing the last line
    out.write_bytes(b"".join(lines[:-1]) + torn)
    run = run_pzc("batch", "sudoku", *files, "--out", out.name, "--resume")
    assert run.returncode == 0, run.stderr
    assert "1 instance in" in run.stderr and "11 more already in r.jsonl" in run.stderr
    got = by_instance(lines_of(out.read_text()))
    assert got == plain(run_pzc, "solve", "sudoku", *files)
    again = run_pzc("batch", "sudoku", *files, "--out", out.name, "--resume")
    assert again.returncode == 0 and out.read_bytes().count(b"\n") == 12


def slow_set(write, n=30):
    """Instances that take a few tenths of a second each (counting 300
    solutions of a sparse 9x9 Sudoku), so a batch can be killed half way."""
    return str(sudoku_file(write, "sparse.txt", 3, 0.12, n, 4).name)


SLOW = ("--task", "count", "--limit", "300")


def start_batch(tmp_path, *args):
    # Ctrl-C reaches it as from a terminal, even where this test runs with
    # SIGINT ignored (a shell's background job), which a child would inherit
    return subprocess.Popen([sys.executable, "-m", "pzc.cli", "batch", *map(str, args)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_lines(path, n, proc, limit_s=60):
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError(f"no {n} lines in {path} after {limit_s} s")


@pytest.mark.slow
@pytest.mark.parametrize("workers, how", [(1, "SIGKILL"), (2, "SIGKILL"), (2, "SIGINT"),
                                          (2, "SIGTERM")])
def test_killed_half_way_and_resumed_every_instance_once(write, run_pzc, tmp_path, workers,
                                                         how):
    sparse = slow_set(write)
    out = tmp_path / f"r-{workers}-{how}.jsonl"
    proc = start_batch(tmp_path, "sudoku", sparse, *SLOW, "--out", out.name,
                       "--workers", workers)
    wait_for_lines(out, 4, proc)
    os.kill(proc.pid, getattr(signal, how))
    _, err = proc.communicate()
    if how == "SIGINT":
        assert proc.returncode == 130 and err.endswith("pzc: interrupted\n"), err
    written = out.read_bytes().count(b"\n")
    assert 4 <= written < 30, "the batch was not stopped half way"
    # its workers (and their solver processes) went with it
    end = time.monotonic() + 5
    while holding(out.name) and time.monotonic() < end:
        time.sleep(0.05)
    assert holding(out.name) == []
    assert out.read_bytes().count(b"\n") == written
    run = run_pzc("batch", "sudoku", sparse, *SLOW, "--out", out.name, "--resume",
                  "--workers", workers)
    assert run.returncode == 0, run.stderr
    assert f"{30 - written} instances in" in run.stderr
    assert f"({written} more already in {out.name})" in run.stderr
    got = by_instance(lines_of(out.read_text()))
    assert got == plain(run_pzc, "count", "sudoku", sparse, extra=("--limit", "300"))
    assert len(got) == 30


@pytest.mark.slow
def test_timeouts_hold_inside_workers(write, run_pzc):
    # blank 9x9 boards have billions of solutions: counting them never ends
    write("blank.txt", "\n".join(["." * 81] * 4) + "\n")
    start = time.monotonic()
    run = run_pzc("batch", "sudoku", "blank.txt", "--task", "count", "--timeout", "1",
                  "--workers", 2)
    elapsed = time.monotonic() - start
    assert run.returncode == 3, run.stderr
    objs = lines_of(run.stdout)
    assert len(objs) == 4 and all(o["status"] == "timeout" for o in objs)
    assert all(o["count"] > 0 and o["complete"] is False for o in objs)
    # two rounds of two instances of 1 s, and the start: far less than 4 s of work
    assert elapsed < 2 * 1.5 + 3, elapsed
    assert "timeout 4" in run.stderr


def test_api_batch_yields_results_as_they_finish(mixed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    events = []
    results = list(api.batch("sudoku", mixed["sudoku"], workers=2, done={"four.txt#1"},
                             progress=lambda event, **f: events.append((event, f))))
    names = [r["instance"] for r in results]
    assert len(names) == len(set(names)) == 11 and "four.txt#1" not in names
    assert events[0] == ("batch", {"total": 11, "skipped": 1})
    finished = [f for e, f in events if e == "finished"]
    assert [f["name"] for f in finished] == names
    assert all(f["code"] == 0 and f["cpu_s"] >= 0 for f in finished)
    spec = api.load_spec("sudoku")
    inst = api.load_instances(spec, "nine.txt")[2]
    assert without_times(next(r for r in results if r["instance"] == inst.name)) == \
        without_times(api.solve(spec, inst).to_json())
    with pytest.raises(api.PzcError, match="solve, count or unique"):
        list(api.batch("sudoku", mixed["sudoku"], task="check"))


@pytest.mark.slow
def test_standard_input_and_urls(run_pzc, write):
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    rows = gen.sudoku_puzzle(2, 0.4, random.Random(5))[0]
    run = run_pzc("batch", "sudoku", "-", stdin="\n".join(rows) + "\n")
    assert run.returncode == 0, run.stderr
    assert [o["instance"] for o in lines_of(run.stdout)] == ["<stdin>"]
    run = run_pzc("batch", url, "--workers", 2)
    assert run.returncode == 0, run.stderr
    assert by_instance(lines_of(run.stdout)) == plain(run_pzc, "solve", url)


# ---------------------------------------------------------------- Dask

@pytest.mark.cluster
def test_scheduler_local_equals_the_plain_command(mixed, run_pzc, write):
    pytest.importorskip("distributed")
    run = run_pzc("batch", "sudoku", *mixed["sudoku"], "--scheduler", "local", "--workers", 2,
                  "--task", "unique", timeout=180)
    assert run.returncode == 1, run.stderr
    assert by_instance(lines_of(run.stdout)) == plain(run_pzc, "unique", "sudoku",
                                                      *mixed["sudoku"])
    # time limits hold in Dask's workers too (a solver process under the limit)
    write("blank.txt", "\n".join(["." * 81] * 2) + "\n")
    run = run_pzc("batch", "sudoku", "blank.txt", "--task", "count", "--timeout", "1",
                  "--scheduler", "local", "--workers", 2, timeout=180)
    assert run.returncode == 3, run.stderr
    objs = lines_of(run.stdout)
    assert [o["status"] for o in objs] == ["timeout", "timeout"]
    slowest = [float(x) for x in re.findall(r"(\d+\.\d+) s  blank", run.stderr)]
    assert len(slowest) == 2 and max(slowest) < 1.5, run.stderr


@pytest.fixture
def cluster():
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as c, Client(c) as client:
        yield c, client


@pytest.mark.cluster
def test_a_cluster_worker_killed_during_the_run(cluster, write, run_pzc, tmp_path):
    """Two worker processes; one is killed while tasks are in flight: Dask runs
    its tasks again on the other (and on the one its nanny starts again), and
    every result is written exactly once, as the plain command gives it."""
    c, client = cluster
    sparse = slow_set(write, 24)
    nine = str(sudoku_file(write, "nine.txt", 3, 0.35, 4, 6).name)
    out = tmp_path / "r.jsonl"
    # the files are read by the workers from the texts sent along: run from
    # another folder, the names are the same
    proc = start_batch(tmp_path, "sudoku", sparse, nine, *SLOW, "--out", out.name,
                       "--scheduler", c.scheduler_address)
    wait_for_lines(out, 3, proc, limit_s=120)
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err
    objs = lines_of(out.read_text())
    assert by_instance(objs) == plain(run_pzc, "count", "sudoku", sparse, nine,
                                      extra=("--limit", "300"))
    assert len(objs) == 28


@pytest.mark.cluster
def test_a_cluster_needs_no_shared_filesystem(cluster, write, tmp_path):
    """The workers get the spec's and the files' texts with the tasks: a file
    the workers' folder lacks is read all the same."""
    c, client = cluster
    spec_text = (ROOT / "specs" / "sudoku.pz").read_text()
    sub = tmp_path / "only-here"
    sub.mkdir()
    (sub / "my.pz").write_text(spec_text.replace("puzzle sudoku", "puzzle mysudoku"))
    rows = gen.sudoku_puzzle(2, 0.4, random.Random(7))[0]
    (sub / "p.txt").write_text("\n".join(rows) + "\n")
    workers_cwd = client.run(os.getcwd)
    assert all(not os.path.exists(os.path.join(w, "my.pz")) for w in workers_cwd.values())
    run = subprocess.run([sys.executable, "-m", "pzc.cli", "batch", "my.pz", "p.txt",
                          "--scheduler", c.scheduler_address], cwd=sub, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [obj] = lines_of(run.stdout)
    assert obj["spec"] == "mysudoku" and obj["status"] == "solved" and obj["verified"]


DATASET = CORPUS / "nurikabe" / "puzzlekit" / "Nurikabe_dataset.json"


@reads_corpus(DATASET)
def test_corpus_dataset_entries_equal_solve(run_pzc):
    """Entries of puzzlekit's Nurikabe dataset file (FILE#KEY), on two workers."""
    entries = [f"{DATASET}#{k:02d}_10x10" for k in range(1, 7)]
    want = plain(run_pzc, "solve", "nurikabe", *entries, extra=("--timeout", "30"))
    run = run_pzc("batch", "nurikabe", *entries, "--timeout", "30", "--workers", 2)
    assert run.returncode == 0, run.stderr
    got = by_instance(lines_of(run.stdout))
    assert got == want and len(got) == 6
    assert all(o["status"] == "solved" for o in got.values())
