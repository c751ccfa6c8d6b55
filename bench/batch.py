"""pzc batch on all cores against one: the speed-up, the same results, and a
kill/resume check.

    python bench/batch.py                                  # slitherlink, nurikabe-dataset
    python bench/batch.py --sets slitherlink --repeat 5
    python bench/batch.py --sets nurikabe-dataset --timeout 20 --repeat 1

For each set (bench/run.py's sets: its files, converted where run.py converts
them) `pzc batch SPEC FILES --workers 1` and `--workers 2` run one after the
other, alternating, --repeat times each, so that both see the same load; the
medians of their wall times (whole processes, interpreter start included)
and their ratio are printed (the goal on a 2-core machine: at least 1.7).
Every run's results (status and grid per instance) must be the same.  Then
the kill/resume check: a --workers 2 run is killed with SIGKILL once half the
instances are written, resumed with --resume, and the file must hold every
instance exactly once, each line JSON, the same results as before.  The load
(`uptime`) is printed before and after, and what the machine gives two
processes at that moment (the same loops on one process and on two): other
work on the machine lowers the ratio.  Exits 1 when a check fails (the ratio is reported, not checked).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

import run as bench_run        # noqa: E402  (bench/run.py: the sets)

DEFAULT_SETS = "slitherlink,nurikabe-dataset"
DEFAULT_TIMEOUT = {"nurikabe-dataset": 20.0}
GOAL = 1.7


def pzc():
    return [sys.executable, "-m", "pzc.cli"]


def batch_cmd(spec, files, workers, out, timeout):
    cmd = pzc() + ["batch", spec, *files, "--workers", str(workers), "--out", str(out),
                   "--quiet"]
    if timeout is not None:
        cmd += ["--timeout", str(timeout)]
    return cmd


def results(path: Path) -> dict:
    """instance -> (status, grid); every instance once and each line JSON,
    else AssertionError."""
    out = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        obj = json.loads(line)              # ValueError: not a JSON line
        name = obj["instance"]
        if name in out:
            raise AssertionError(f"{path}:{number}: {name} appears twice")
        out[name] = (obj["status"], obj.get("grid"))
    return out


def timed(cmd) -> tuple:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - start, proc


def differences(a: dict, b: dict) -> list:
    names = sorted(set(a) | set(b))
    return [n for n in names if a.get(n) != b.get(n)]


def kill_and_resume(spec, files, timeout, workdir: Path, reference: dict) -> tuple:
    """(ok, message) of the SIGKILL half way and --resume check."""
    out = workdir / "killed.jsonl"
    total = len(reference)
    proc = subprocess.Popen(batch_cmd(spec, files, 2, out, timeout),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= total // 2:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        return False, f"the run ended before it could be killed half way ({proc.returncode})"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = out.read_bytes().count(b"\n")
    _, resumed = timed(batch_cmd(spec, files, 2, out, timeout) + ["--resume"])
    try:
        after = results(out)
    except (ValueError, AssertionError, KeyError) as e:
        return False, f"after the resume: {e}"
    missing = set(reference) - set(after)
    differ = differences(after, reference)
    ok = not missing and not differ and len(after) == total
    return ok, (f"killed with {before} of {total} lines written; resumed (exit "
                f"{resumed.returncode}): {len(after)} lines, each instance once"
                + ("" if not missing else f", {len(missing)} missing")
                + ("" if not differ else f", {len(differ)} differ from the first run "
                                         f"(e.g. {differ[:3]})")
                + (", same results" if ok else ""))


def _spin(_):
    start = time.process_time()
    x = 0
    for i in range(10_000_000):
        x += i
    return time.process_time() - start


def machine_ratio() -> str:
    """What this machine gives two processes now: the same pure-Python loops on
    one process and on two (on Linux each session is a scheduling group of
    its own: while another session keeps both cores busy, this one gets about
    one core however many processes it runs)."""
    import multiprocessing
    walls = {}
    for n in (1, 2, 1, 2):
        start = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(n) as pool:
            pool.map(_spin, range(4))
        walls.setdefault(n, []).append(time.perf_counter() - start)
    one, two = min(walls[1]), min(walls[2])
    return (f"pure-Python loops, 4 on 1 process {one:.2f} s, on 2 processes {two:.2f} s: "
            f"ratio {one / two:.2f} (the most a batch can reach now)")


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "(uptime not available)"


def bench_set(name, repeat, timeout, workdir: Path, resume_check: bool) -> bool:
    title, corpus, _backend, load, _task = bench_run.SETS[name]
    if corpus and not bench_run.CORPUS.is_dir():
        print(f"{name}: skipped (../shared/corpus is absent)")
        return True
    pairs = load()
    spec = pairs[0][0]
    files = [path for _, path in pairs]
    print(f"{name}: {title}; timeout {timeout if timeout is not None else 'none'}", flush=True)
    times = {1: [], 2: []}
    runs = []
    ok = True
    for k in range(repeat):
        print(f"  machine now: {machine_ratio()}", flush=True)
        for workers in (1, 2) if k % 2 == 0 else (2, 1):
            out = workdir / f"{name}-{workers}-{k}.jsonl"
            seconds, proc = timed(batch_cmd(spec, files, workers, out, timeout))
            times[workers].append(seconds)
            got = results(out)
            runs.append((workers, k, got))
            counts = {}
            for status, _ in got.values():
                counts[status] = counts.get(status, 0) + 1
            print(f"  --workers {workers}, run {k + 1}: {seconds:.2f} s, exit "
                  f"{proc.returncode}, {len(got)} instances {counts}", flush=True)
    first = runs[0][2]
    for workers, k, got in runs[1:]:
        differ = differences(first, got)
        if differ:
            ok = False
            print(f"  DIFFERENT: --workers {workers} run {k + 1}: {len(differ)} instances "
                  f"(e.g. {differ[:3]})")
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"  median --workers 1: {one:.2f} s, --workers 2: {two:.2f} s; ratio "
          f"{one / two:.2f} (goal >= {GOAL})")
    print(f"  same results in all {len(runs)} runs (status and grid per instance): "
          f"{'yes' if ok else 'NO'}", flush=True)
    if resume_check:
        good, message = kill_and_resume(spec, files, timeout, workdir, first)
        print(f"  kill/resume: {message}: {'ok' if good else 'FAILED'}", flush=True)
        ok = ok and good
    return ok


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", default=DEFAULT_SETS, help=f"default {DEFAULT_SETS}")
    p.add_argument("--repeat", type=int, default=3, help="runs of each side (default 3)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds per instance (default: 20 for nurikabe-dataset, else none)")
    p.add_argument("--no-resume-check", action="store_true")
    args = p.parse_args(argv)
    print(f"load before: {uptime()}")
    print(f"machine: {machine_ratio()}", flush=True)
    ok = True
    with tempfile.TemporaryDirectory(prefix="pzc-bench-batch-") as tmp:
        for name in args.sets.split(","):
            timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT.get(name)
            ok = bench_set(name, args.repeat, timeout, Path(tmp), not args.no_resume_check) and ok
    print(f"load after: {uptime()}")
    print(f"machine: {machine_ratio()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
