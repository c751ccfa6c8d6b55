"""pzc benchmark: do time limits hold?  Worst overshoot per backend and limit.

    python bench/timelimits.py                          # limits 1, 5, 20 s; sat, smt, asp, external
    python bench/timelimits.py --limits 1,5 --runs 20 --runs-long 6
    python bench/timelimits.py --backends sat --cases slitherlink-blank30,expo

Every run is one `pzc solve SPEC INSTANCE --timeout S` process on a hard
instance (`pzc count` or `pzc unique` for the cases named so), timed from
its start to its exit as a user's clock would (the
interpreter's start-up is inside the limit: the first instance's limit counts
from the process start).  The overshoot is that wall time minus S; the promise
is at most max(0.5 s, 10% of S).  Runs cycle through the cases that apply to
the backend, so each case is met about equally often at each limit.  A run
that answers (exit 0, 1, or 2 for an instance too big to try) counts too:
its overshoot is negative when it answered in time.

Cases: Nurikabe's hardest (from ../shared/corpus, see bench/run.py's
nurikabe-hard set), the largest Numberlink inputs (50x50 and 1002x1002, the
latter stops while grounding), and cases made here: a blank 30x30
Slitherlink (lazy connectivity rounds, solved and proved unique), a plan
whose goal never holds (plan deepening), an exponential let function in a
require (evaluation), a 100,000-value domain (grounding and encoding), a
25x25 Sudoku with 30% of its cells given (CaDiCaL's calls in process are
slowest there: up to 0.5 s for 1,000 conflicts on a loaded machine) and a
blank 16x16 Sudoku counted (a solver call and a blocking clause per board).
The external backend runs Debian's `cadical` binary (apt-get install
cadical); plans are not run there, nor on the asp backend (clingo), which
does not solve them.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
PZC = [sys.executable, "-m", "pzc"]
sys.path.insert(0, str(ROOT / "tests"))
from timelimit_cases import BIG_DOMAIN, EXPONENTIAL, NEVER  # noqa: E402

def _numberlink_largest(name, out):
    """The largest puzzle of a thomasahle input file, alone in a file."""
    text = (CORPUS / "numberlink" / "thomasahle" / name).read_text()
    lines = text.splitlines()
    best = None
    for i, line in enumerate(lines):
        m = re.fullmatch(r"(\d+) (\d+)", line.strip())
        if m:
            w, h = int(m[1]), int(m[2])
            if best is None or w * h > best[0]:
                best = (w * h, "\n".join(lines[i:i + h + 1]) + "\n")
    out.write_text(best[1])
    return str(out)


def _nurikabe(keys, tmp):
    """Single-puzzle files of the puzzlekit Nurikabe puzzles named by key."""
    sys.path.insert(0, str(ROOT / "bench"))
    import convert
    path, found, _ = convert.nurikabe(CORPUS, set(keys), "nurikabe-timelimits.txt")
    parts = path.read_text().split("\n\n")
    out = []
    for key, part in zip(found, parts):
        f = tmp / f"nurikabe-{key}.txt"
        f.write_text("\n".join(l for l in part.splitlines() if not l.startswith("#")) + "\n")
        out.append((f"nurikabe-{key}", "nurikabe", str(f)))
    return out


def _sudoku25(out):
    """A 25x25 Sudoku made here, 30% of its cells given (tests/generators.py)."""
    import random
    from generators import sudoku_puzzle
    rows, _ = sudoku_puzzle(5, 0.3, random.Random(25))
    out.write_text("\n".join(rows) + "\n")
    return str(out)


def cases(tmp: Path) -> list:
    """(name, spec, instance, is a plan); a name starting "count-" or
    "unique-" runs that command."""
    made = []
    for name, text in (("noplan", NEVER), ("expo", EXPONENTIAL), ("bigdom", BIG_DOMAIN)):
        (tmp / f"{name}.pz").write_text(text)
    (tmp / "grid2.txt").write_text("..\n..\n")
    (tmp / "grid12.txt").write_text("\n".join(["." * 12] * 12) + "\n")
    (tmp / "blank30.txt").write_text("\n".join(["." * 30] * 30) + "\n")
    (tmp / "blank16.txt").write_text("\n".join(["." * 16] * 16) + "\n")
    made.append(("slitherlink-blank30", "slitherlink", str(tmp / "blank30.txt"), False))
    made.append(("unique-slitherlink-blank30", "slitherlink", str(tmp / "blank30.txt"), False))
    made.append(("sudoku25-30pc", "sudoku", _sudoku25(tmp / "sudoku25.txt"), False))
    made.append(("count-sudoku-blank16", "sudoku", str(tmp / "blank16.txt"), False))
    made.append(("plan-never", str(tmp / "noplan.pz"), str(tmp / "grid12.txt"), True))
    made.append(("require-exponential", str(tmp / "expo.pz"), str(tmp / "grid2.txt"), False))
    made.append(("domain-100000", str(tmp / "bigdom.pz"), str(tmp / "grid2.txt"), False))
    if CORPUS.exists():
        for name, spec, path in _nurikabe(["29_10x10", "690_50x50", "1055_40x57"], tmp):
            made.append((name, spec, path, False))
        made.append(("numberlink-50x50", "numberlink",
                     _numberlink_largest("inputs10.txt", tmp / "nl50.txt"), False))
        made.append(("numberlink-1002x1002", "numberlink",
                     _numberlink_largest("inputs6.txt", tmp / "nl1002.txt"), False))
    return made


def backend_args(backend, solver_cmd) -> list:
    if backend == "external":
        return ["--backend", "external", "--solver-cmd", solver_cmd]
    return ["--backend", backend]


def one_run(case, backend, limit, solver_cmd) -> tuple:
    """(wall seconds, exit code, its error line) of one pzc process."""
    name, spec, inst, is_plan = case
    command = name.split("-")[0] if name.startswith(("count-", "unique-")) else "solve"
    cmd = PZC + [command, spec, inst, "--timeout", str(limit)] + backend_args(backend, solver_cmd)
    if is_plan:       # the SAT deepening: the state search proves at once that there is no plan
        cmd += ["--plan-search", "sat"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tempfile.gettempdir(),
                          timeout=limit * 10 + 120)
    wall = time.perf_counter() - start
    lines = proc.stderr.strip().splitlines()
    said = next((l for l in lines if "error" in l), lines[-1] if lines else "")
    return wall, proc.returncode, said


def allowed(limit) -> float:
    return max(0.5, 0.1 * limit)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--limits", default="1,5,20", help="time limits in seconds (default 1,5,20)")
    p.add_argument("--runs", type=int, default=20, help="runs per backend and limit (default 20)")
    p.add_argument("--runs-long", type=int, default=7,
                   help="runs per backend at limits of 20 s or more (default 7)")
    p.add_argument("--backends", default="sat,smt,asp,external")
    p.add_argument("--solver-cmd", default="cadical -q", help="the external backend's solver")
    p.add_argument("--cases", default=None, help="comma-separated case names (default all)")
    p.add_argument("--verbose", action="store_true", help="print every run")
    args = p.parse_args(argv)
    limits = [float(x) for x in args.limits.split(",")]
    backends = args.backends.split(",")
    if "external" in backends and shutil.which(args.solver_cmd.split()[0]) is None:
        print(f"{args.solver_cmd.split()[0]} not found: the external backend is skipped "
              "(apt-get install cadical)", file=sys.stderr)
        backends.remove("external")
    tmp = Path(tempfile.mkdtemp(prefix="pzc-timelimits-"))
    all_cases = cases(tmp)
    if args.cases:
        wanted = args.cases.split(",")
        all_cases = [c for c in all_cases if c[0] in wanted]
    print(f"cases: {', '.join(c[0] for c in all_cases)}", flush=True)
    rows = []
    for backend in backends:
        usable = [c for c in all_cases if not (backend in ("external", "asp") and c[3])]
        for limit in limits:
            n = args.runs if limit < 20 else args.runs_long
            worst = (float("-inf"), None)
            codes = {}
            for i in range(n):
                case = usable[i % len(usable)]
                wall, code, tail = one_run(case, backend, limit, args.solver_cmd)
                codes[code] = codes.get(code, 0) + 1
                over = wall - limit         # a late answer breaks the promise too
                if over > worst[0]:
                    worst = (over, f"{case[0]}, exit {code}")
                if args.verbose or code not in (0, 1, 3):
                    print(f"  {backend} {limit:g} s {case[0]}: exit {code}, {wall:.2f} s  {tail[:160]}",
                          flush=True)
            row = (backend, limit, n, codes, worst)
            rows.append(row)
            print(_row_text(row), flush=True)
    print()
    print(table(rows))
    shutil.rmtree(tmp, ignore_errors=True)


def _row_text(row) -> str:
    backend, limit, n, codes, (over, case) = row
    shown = ", ".join(f"exit {c}: {k}" for c, k in sorted(codes.items()))
    worst = f"{over:+.2f} s ({case})" if case else "-"
    return f"{backend:<9} {limit:>4g} s  {n:>2} runs  {shown:<28} worst {worst}"


def table(rows) -> str:
    out = ["| backend | limit | runs | exit 3 (timeout) | other exits | worst overshoot (case) | allowed | held |",
           "|---|---|---|---|---|---|---|---|"]
    for backend, limit, n, codes, (over, case) in rows:
        others = ", ".join(f"{k}x exit {c}" for c, k in sorted(codes.items()) if c != 3) or "-"
        worst = f"{over:+.2f} s ({case})" if case else "-"
        held = "-" if case is None else ("yes" if over <= allowed(limit) else "NO")
        out.append(f"| {backend} | {limit:g} s | {n} | {codes.get(3, 0)} | {others} | {worst} | "
                   f"{allowed(limit):.1f} s | {held} |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
