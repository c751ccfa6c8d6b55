"""Before and after, side by side: each benchmark set run at once in two checkouts.

    python bench/sidebyside.py BEFORE_CHECKOUT [AFTER_CHECKOUT] --sets hexiom,janko [--timeout 20]

A checkout is a directory with this project and its own .venv (``git worktree
add ../base COMMIT`` and ``make`` there).  For every set the two checkouts'
``bench/run.py --sets SET`` start together, one process each, so on a 2-core
machine each has a core and both see the same load; the table gives each
side's set time, solved count and slowest instance, and the ratio after/before
(below 1: faster).  Run the sets one after another, not all at once: a set of
one side never overlaps a different set of the other.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def start(checkout: Path, name: str, timeout, out: Path):
    python = checkout / ".venv" / "bin" / "python"
    cmd = [str(python), str(checkout / "bench" / "run.py"), "--sets", name, "--json", str(out)]
    if timeout is not None:
        cmd += ["--timeout", str(timeout)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc, out: Path):
    stdout, stderr = proc.communicate()
    if not out.exists():            # run.py failed (an unknown set, a crash)
        return None, (stderr or stdout).strip().splitlines()[-1:]
    # a set with an instance not solved (no solution, a corrupt entry, a
    # timeout) exits 1 but still writes its summary
    summaries = json.loads(out.read_text())
    return (summaries[0] if summaries else None), []


def row(name, before, after) -> str:
    def side(s):
        if s is None:
            return "n/a", "n/a", "n/a"
        return (f"{s['set_s_median']:.2f}", f"{s['verified']}/{s['instances']}",
                f"{s['slowest']['wall_s']:.2f}")
    b, a = side(before), side(after)
    ratio = (f"{after['set_s_median'] / before['set_s_median']:.2f}"
             if before and after and before["set_s_median"] > 0 else "n/a")
    return f"| {name} | {b[0]} | {a[0]} | {ratio} | {b[1]} | {a[1]} | {b[2]} | {a[2]} |"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", type=Path, help="the checkout to compare against")
    p.add_argument("after", type=Path, nargs="?", default=HERE,
                   help="the checkout measured (default: this one)")
    p.add_argument("--sets", required=True, help="comma-separated set names (bench/run.py --list)")
    p.add_argument("--timeout", type=float, default=None, help="per instance, seconds")
    args = p.parse_args(argv)
    for checkout in (args.before, args.after):
        if not (checkout / ".venv" / "bin" / "python").exists():
            p.error(f"{checkout} has no .venv/bin/python (run make there first)")
    print("| set | before: set (s) | after: set (s) | after/before | before: verified "
          "| after: verified | before: slowest (s) | after: slowest (s) |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in [s for s in args.sets.split(",") if s]:
            outs = [Path(tmp) / f"{name}-before.json", Path(tmp) / f"{name}-after.json"]
            procs = [start(c, name, args.timeout, o)
                     for c, o in zip((args.before, args.after), outs)]
            (before, err_b), (after, err_a) = [finish(pr, o) for pr, o in zip(procs, outs)]
            print(row(name, before, after), flush=True)
            for side, err in (("before", err_b), ("after", err_a)):
                if err:
                    print(f"  ({side}: {' '.join(err)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
