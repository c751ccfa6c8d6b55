"""pzc benchmark: solve whole puzzle sets, one process per set, and report.

    python bench/run.py                        # the default sets
    python bench/run.py --sets hexiom,top95 --repeat 5
    python bench/run.py --sets hexiom --solver glucose4
    python bench/run.py --list

Each set runs in a fresh child process (so every set pays its own start-up
and nothing is shared between sets); inside it every instance goes through
the full pipeline (ground, encode, solve, decode, verify, render) as
`pzc solve` does.  Per set it prints the number solved and verified, the total
wall time of the process (interpreter start included) and of the set, the
compiler's share (grounding + encoding) versus the solver's, and the slowest
instance.  With --repeat N the set runs N times and the median total is shown.
Sets that read ../shared/corpus are skipped when it is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def _corpus(*parts):
    return CORPUS.joinpath(*parts)


def hexiom_levels(skip=()):
    return [("hexiom", str(_corpus("hexiom", "slowfrog", f"level{i:02d}.txt")))
            for i in range(1, 41) if i not in skip]


def _generated_sudoku(b, count, keep, seed):
    """Sudoku made here (not from the corpus), written to a temp file."""
    from generators import sudoku_puzzle
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        rows, _ = sudoku_puzzle(b, keep, rng)
        lines.append("\n".join(rows))
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"pzc-bench-sudoku{b * b}-{seed}.txt"
    path.write_text("\n\n".join(lines) + "\n")
    return [("sudoku", str(path))]


# set name -> (description, needs corpus, backend, instance list factory)
SETS = {
    "hexiom": ("Hexiom, slowfrog's 40 levels (SAT)", True, "sat", hexiom_levels),
    "hexiom-smt": ("Hexiom, the 38 levels other than 38 and 40 (SMT, Z3)", True, "smt",
                   lambda: hexiom_levels(skip=(38, 40))),
    "top95": ("Sudoku top95 (norvig), 95 hard 9x9", True, "sat",
              lambda: [("sudoku", str(_corpus("sudoku", "norvig", "top95.txt")))]),
    "hardest": ("Sudoku 'hardest' (norvig), 11 puzzles", True, "sat",
                lambda: [("sudoku", str(_corpus("sudoku", "norvig", "hardest.txt")))]),
    "puzlogic": ("Puzlogic levels 1, 3, 7 and the zero-piece test", True, "sat",
                 lambda: [("puzlogic", str(p)) for p in sorted(_corpus("puzlogic").glob("*.json"))]),
    "sudoku25": ("Sudoku 25x25, 5 made here (40% clues)", False, "sat",
                 lambda: _generated_sudoku(5, 5, 0.4, 25)),
}
DEFAULT_SETS = ["hexiom", "top95", "puzlogic", "sudoku25", "hexiom-smt"]


def run_child(name, solver, timeout):
    """Run one set in this process; print one JSON line with the figures."""
    start = time.perf_counter()
    from pzc import api
    desc, _, backend, factory = SETS[name]
    specs = {}
    rows = []
    t_set = time.perf_counter()
    for spec_name, path in factory():
        spec = specs.get(spec_name) or specs.setdefault(spec_name, api.load_spec(spec_name))
        for inst in api.load_instances(spec, path):
            t = time.perf_counter()
            r = api.solve(spec, inst, backend=backend,
                          solver=solver if backend == "sat" else None, timeout=timeout)
            wall = time.perf_counter() - t
            rows.append({"instance": r.instance, "status": r.status, "verified": r.verified,
                         "wall_s": wall, "compile_s": r.stats.get("compile_s", 0.0),
                         "solve_s": r.stats.get("solve_s", 0.0),
                         "variables": r.stats.get("variables"), "clauses": r.stats.get("clauses")})
    set_s = time.perf_counter() - t_set
    print(json.dumps({"set": name, "rows": rows, "set_s": set_s,
                      "import_s": t_set - start}))


def summarize(name, runs, wall_runs):
    rows = runs[-1]["rows"]
    n = len(rows)
    solved = sum(r["status"] == "solved" for r in rows)
    verified = sum(bool(r["verified"]) for r in rows)
    totals = [run["set_s"] for run in runs]
    compile_s = statistics.median(sum(r["compile_s"] for r in run["rows"]) for run in runs)
    solve_s = statistics.median(sum(r["solve_s"] for r in run["rows"]) for run in runs)
    slow = max(rows, key=lambda r: r["wall_s"])
    return {
        "set": name, "description": SETS[name][0], "instances": n, "solved": solved,
        "verified": verified, "runs": len(runs),
        "set_s_median": statistics.median(totals), "set_s_all": totals,
        "process_s_median": statistics.median(wall_runs),
        "compile_s_median": compile_s, "solve_s_median": solve_s,
        "slowest": {"instance": slow["instance"], "wall_s": slow["wall_s"],
                    "variables": slow["variables"], "clauses": slow["clauses"]},
        "statuses": sorted({r["status"] for r in rows}),
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", default=",".join(DEFAULT_SETS),
                   help="comma-separated set names (default: %(default)s)")
    p.add_argument("--repeat", type=int, default=1, help="runs per set; the median is reported")
    p.add_argument("--solver", default=None, help="PySAT solver for SAT sets (default cadical195)")
    p.add_argument("--timeout", type=float, default=300.0, help="per instance, seconds")
    p.add_argument("--json", metavar="FILE", help="also write the summaries as JSON")
    p.add_argument("--list", action="store_true", help="list the sets and exit")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        run_child(args.child, args.solver, args.timeout)
        return 0
    if args.list:
        for name, (desc, corpus, backend, _) in SETS.items():
            print(f"{name:<12} {desc}{'  [needs ../shared/corpus]' if corpus else ''}")
        return 0
    names = [s for s in args.sets.split(",") if s]
    unknown = [s for s in names if s not in SETS]
    if unknown:
        p.error(f"unknown set(s): {', '.join(unknown)}; see --list")
    summaries = []
    failed = False
    for name in names:
        if SETS[name][1] and not CORPUS.exists():
            print(f"{name}: skipped ({CORPUS} is absent)")
            continue
        runs, walls = [], []
        for _ in range(args.repeat):
            cmd = [sys.executable, __file__, "--child", name, "--timeout", str(args.timeout)]
            if args.solver:
                cmd += ["--solver", args.solver]
            t = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True)
            walls.append(time.perf_counter() - t)
            if out.returncode != 0:
                print(f"{name}: the child process failed:\n{out.stderr}", file=sys.stderr)
                return 1
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        s = summarize(name, runs, walls)
        summaries.append(s)
        failed |= s["verified"] != s["instances"]
        slow = s["slowest"]
        print(f"{name:<11} {s['solved']}/{s['instances']} solved, {s['verified']} verified | "
              f"set {s['set_s_median']:.2f} s (process {s['process_s_median']:.2f} s) | "
              f"compile {s['compile_s_median']:.2f} s, solve {s['solve_s_median']:.2f} s | "
              f"slowest {Path(slow['instance'].split('#')[0]).name}"
              f"{'#' + slow['instance'].split('#')[1] if '#' in slow['instance'] else ''} "
              f"{slow['wall_s']:.2f} s ({slow['variables']} vars, {slow['clauses']} clauses)"
              + (f" | runs: {', '.join(f'{x:.2f}' for x in s['set_s_all'])}" if args.repeat > 1 else ""),
              flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(summaries, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
