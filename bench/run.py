"""pzc benchmark: solve whole puzzle sets, one process per set, and report.

    python bench/run.py                        # the default sets
    python bench/run.py --sets hexiom,top95 --repeat 5
    python bench/run.py --sets hexiom --solver glucose4
    python bench/run.py --sets nurikabe-hard --backend asp --solver crafty
    python bench/run.py --list
    python bench/run.py --sets c2-tents,c2-nonogram --timeout 10     # issue 27's catalog sets

Each set runs in a fresh child process (so every set pays its own start-up
and nothing is shared between sets); inside it every instance goes through
the full pipeline (ground, encode, solve, decode, verify, render) as
`pzc solve` does.  Per set it prints the number solved and verified, the total
wall time of the process (interpreter start included) and of the set, the
compiler's share (grounding + encoding) versus the solver's, and the slowest
instance.  With --repeat N the set runs N times and the median total is shown.
Sets that read ../shared/corpus are skipped when it is absent.  The Fillomino
and LITS sets read puzzlekit's dataset files, which ../shared does not hold,
from $PZC_DATASETS (default ../datasets) and are skipped without them:

    git clone https://github.com/SmilingWayne/puzzlekit-dataset /tmp/pk
    git -C /tmp/pk checkout 53de2fcb850b74709347c384a3b5b77e0c2c1d39
    mkdir -p ../datasets && cp /tmp/pk/assets/data/{Fillomino,LITS}/*_dataset.json ../datasets/
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
# puzzlekit dataset files of genres ../shared/corpus does not hold (see above)
DATASETS = Path(os.environ.get("PZC_DATASETS", ROOT.parent / "datasets"))
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


def _generated_numberlink(size, count, seed):
    """Numberlink made here (tests/generators.py), written to a temp file."""
    from generators import numberlink_large
    rng = random.Random(seed)
    boards = [numberlink_large(size, size, rng)[0] for _ in range(count)]
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"pzc-bench-numberlink{size}-{seed}.txt"
    path.write_text("\n".join(boards), encoding="utf-8")
    return [("numberlink", str(path))]


def _convert(kind, spec=None):
    import convert
    path, keys, _ = getattr(convert, kind)(CORPUS)
    return [(spec or kind, str(path))]


def _tdoku():
    """The tdoku test puzzles without their ':count:solution' tails."""
    lines = [l.split(":")[0] for l in _corpus("sudoku", "tdoku_test", "test_puzzles.txt").read_text().split()]
    path = Path(os.environ.get("TMPDIR", "/tmp")) / "pzc-bench-tdoku.txt"
    path.write_text("\n".join(lines) + "\n")
    return [("sudoku", str(path))]


def _dataset(spec, *parts):
    """A puzzlekit dataset file, read as it is (one instance per entry)."""
    return lambda: [(spec, str(_corpus(*parts)))]


def _external(spec, file, keep=None):
    """A puzzlekit dataset file from DATASETS; ``keep(key)`` picks entries
    (written to a temp file), all of them when None."""
    def factory():
        path = DATASETS / file
        if keep is None:
            return [(spec, str(path))]
        data = json.loads(path.read_text())
        picked = {k: v for k, v in data["data"].items() if keep(k)}
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"pzc-bench-{spec}-{len(picked)}.json"
        out.write_text(json.dumps({**data, "count": len(picked), "data": picked}))
        return [(spec, str(out))]
    return factory


def _numberlink(*names):
    return lambda: [("numberlink", str(_corpus("numberlink", "thomasahle", f"{n}.txt"))) for n in names]


def sliding_set(n, count, seed, walk=None):
    """Sliding puzzles made here: uniformly random solvable n x n boards, or
    random walks of ``walk`` moves from the goal (so at most that many moves)."""
    rng = random.Random(seed)
    symbols = "123456789ABCDEF"[:n * n - 1] + "."
    boards = []
    while len(boards) < count:
        if walk is None:
            tiles = list(symbols)
            rng.shuffle(tiles)
            if not _solvable(tiles, n):
                continue
        else:
            tiles = list(symbols)
            hole, back = n * n - 1, None
            for _ in range(walk):
                r, c = divmod(hole, n)
                options = [(r + dr) * n + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                           if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc != back]
                nxt = rng.choice(options)
                tiles[hole], tiles[nxt] = tiles[nxt], "."
                back, hole = hole, nxt
        boards.append("\n".join("".join(tiles[r * n:(r + 1) * n]) for r in range(n)))
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"pzc-bench-sliding{n}-{seed}.txt"
    # two blank lines apart: after one blank line a grid is the goal (board option target)
    path.write_text("\n\n\n".join(boards) + "\n")
    return [("sliding", str(path))]


def _solvable(tiles, n):
    """Whether the goal (tiles in order, hole last) is reachable: the parity
    of the tile permutation, plus the hole's row on even widths."""
    order = [t for t in tiles if t != "."]
    inversions = sum(a > b for i, a in enumerate(order) for b in order[i + 1:])
    if n % 2:
        return inversions % 2 == 0
    hole_row_from_bottom = n - tiles.index(".") // n
    return (inversions + hole_row_from_bottom) % 2 == 1


def _bfs_distances(n):
    """Every n x n board's distance to the goal (3 x 3: 181,440 boards)."""
    goal = "123456789ABCDEF"[:n * n - 1] + "."
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for board in frontier:
            hole = board.index(".")
            r, c = divmod(hole, n)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    k = (r + dr) * n + c + dc
                    b = list(board)
                    b[hole], b[k] = b[k], "."
                    b = "".join(b)
                    if b not in dist:
                        dist[b] = dist[board] + 1
                        nxt.append(b)
        frontier = nxt
    return dist


# set name -> (description, needs (True: ../shared/corpus, "datasets": DATASETS, False:
# nothing), backend, instance list factory, operation)
SETS = {
    "hexiom": ("Hexiom, slowfrog's 40 levels (SAT)", True, "sat", hexiom_levels, "solve"),
    "hexiom-smt": ("Hexiom, the 38 levels other than 38 and 40 (SMT, Z3)", True, "smt",
                   lambda: hexiom_levels(skip=(38, 40)), "solve"),
    "hexiom-unique": ("Hexiom, the 40 levels: pzc unique against pzc solve", True, "sat",
                      hexiom_levels, "unique"),
    "top95": ("Sudoku top95 (norvig), 95 hard 9x9", True, "sat",
              lambda: [("sudoku", str(_corpus("sudoku", "norvig", "top95.txt")))], "solve"),
    "hardest": ("Sudoku 'hardest' (norvig), 11 puzzles", True, "sat",
                lambda: [("sudoku", str(_corpus("sudoku", "norvig", "hardest.txt")))], "solve"),
    "tdoku-count": ("Sudoku tdoku test set, 43 puzzles counted with --limit 1000", True, "sat",
                    _tdoku, "count"),
    "puzlogic": ("Puzlogic levels 1, 3, 7 and the zero-piece test", True, "sat",
                 lambda: [("puzlogic", str(p)) for p in sorted(_corpus("puzlogic").glob("*.json"))],
                 "solve"),
    "sudoku25": ("Sudoku 25x25, 5 made here (40% clues)", False, "sat",
                 lambda: _generated_sudoku(5, 5, 0.4, 25), "solve"),
    "janko": ("Numberlink, Janko's 270 (thomasahle janko.txt)", True, "sat",
              _numberlink("janko"), "solve"),
    "numberlink-more": ("Numberlink, thomasahle inputs1, 2, 3 and 9 (134 puzzles)", True, "sat",
                        _numberlink("inputs1", "inputs2", "inputs3", "inputs9"), "solve"),
    "numberlink-50x50": ("Numberlink, thomasahle inputs10 (11 puzzles of 50x50)", True, "sat",
                         _numberlink("inputs10"), "solve"),
    "numberlink-40x40": ("Numberlink, 5 of 40x40 made here (random paths, 86-126 labels)", False,
                         "sat", lambda: _generated_numberlink(40, 5, 40), "solve"),
    "nurikabe": ("Nurikabe, puzzlekit's 1110 usable puzzles (converted)", True, "sat",
                 lambda: _convert("nurikabe"), "solve"),
    "nurikabe-hard": ("Nurikabe, the 18 slowest of puzzlekit's for pzc (converted)", True, "sat",
                      lambda: _convert("nurikabe_hard", "nurikabe"), "solve"),
    "slitherlink": ("Slitherlink, puzzlekit's 1176 puzzles (converted)", True, "sat",
                    lambda: _convert("slitherlink"), "solve"),
    "nurikabe-dataset": ("Nurikabe, puzzlekit's dataset file as it is (1130 entries)", True,
                         "sat", _dataset("nurikabe", "nurikabe", "puzzlekit",
                                         "Nurikabe_dataset.json"), "solve"),
    "slitherlink-dataset": ("Slitherlink, puzzlekit's dataset file as it is (1176 entries)",
                            True, "sat", _dataset("slitherlink", "other", "puzzlekit",
                                                  "Slitherlink_dataset.json"), "solve"),
    **{name: (f"{title}, puzzlekit's dataset file ({n} entries)", True, "sat",
              _dataset(name, "other", "puzzlekit", f"{file}_dataset.json"), "solve")
       for name, title, file, n in (("akari", "Akari", "Akari", 970),
                                    ("starbattle", "Star Battle", "Starbattle", 309),
                                    ("hitori", "Hitori", "Hitori", 941),
                                    ("kakuro", "Kakuro", "Kakuro", 999),
                                    ("kenken", "KenKen", "KenKen", 430),
                                    ("masyu", "Masyu", "Masyu", 830),
                                    ("hashi", "Hashi", "Hashi", 910))},
    "asteroid": ("Asteroid Escape, challenges 1 and 60: shortest plans", True, "sat",
                 lambda: [("asteroid", str(_corpus("asteroid-escape", "challenges.json")))],
                 "plan"),
    "sliding3": ("8-puzzle, 30 random solvable boards made here; lengths checked by BFS", False,
                 "sat", lambda: sliding_set(3, 30, 8), "plan"),
    "sliding4": ("15-puzzle, 5 boards made here by 30-move random walks", False, "sat",
                 lambda: sliding_set(4, 5, 15, walk=30), "plan"),
}
# issue 27's catalog: the puzzlekit dataset files of ../shared/corpus/catalog2-train, as they are
CATALOG2 = (("tents", "Tents", "Tent", 706), ("nonogram", "Nonogram", "Nonogram", 2338),
            ("castle", "Castle Wall", "CastleWall", 110),
            ("battleship", "Battleship", "Battleship", 861),
            ("mines", "Minesweeper", "Minesweeper", 360), ("snake", "Snake", "Snake", 230),
            ("aqre", "Aqre", "Aqre", 90), ("canal", "Canal View", "CanalView", 110),
            ("doubleback", "Double Back", "DoubleBack", 100),
            ("geradeweg", "Geradeweg", "Geradeweg", 100), ("koburin", "Koburin", "Koburin", 150),
            ("nurimisaki", "Nurimisaki", "Nurimisaki", 100),
            ("simpleloop", "Simple Loop", "SimpleLoop", 70),
            ("putteria", "Putteria", "Putteria", 60),
            ("yajilin-regions", "Regional Yajilin", "RegionalYajilin", 70))
SETS.update({f"c2-{name}": (f"{title}, puzzlekit's dataset file ({n} entries)", True, "sat",
                            _dataset(name, "catalog2-train", f"{file}_dataset.json"), "solve")
             for name, title, file, n in CATALOG2})
# issue 28's sets: puzzlekit's Fillomino and LITS files from DATASETS
SETS.update({
    "fillomino": ("Fillomino, puzzlekit's dataset file (840 entries)", "datasets", "sat",
                  _external("fillomino", "Fillomino_dataset.json"), "solve"),
    "fillomino-10x10": ("Fillomino, the dataset's 363 puzzles of 10x10", "datasets", "sat",
                        _external("fillomino", "Fillomino_dataset.json",
                                  lambda k: k.endswith("_10x10")), "solve"),
    "lits": ("LITS, puzzlekit's dataset file (419 entries)", "datasets", "sat",
             _external("lits", "LITS_dataset.json"), "solve"),
    "lits-big": ("LITS, the dataset's boards of 31x45 and 40x57", "datasets", "sat",
                 _external("lits", "LITS_dataset.json",
                           lambda k: k.endswith(("_31x45", "_40x57"))), "solve"),
})
DEFAULT_SETS = ["hexiom", "top95", "puzlogic", "sudoku25", "hexiom-smt"]


def run_child(name, solver, timeout, backend=None, portfolio=None):
    """Run one set in this process; print one JSON line with the figures.
    ``backend`` overrides the set's own (--backend); ``portfolio`` solves
    the SAT sets (not plans) with --portfolio's members."""
    start = time.perf_counter()
    from pzc import api
    desc, _, own_backend, factory, operation = SETS[name]
    backend = backend or own_backend
    specs = {}
    rows = []
    t_set = time.perf_counter()
    options = dict(backend=backend, solver=solver if backend in ("sat", "asp") else None,
                   timeout=timeout)
    if portfolio is not None and backend == "sat" and operation != "plan":
        options.update(backend="portfolio", solver=portfolio)
    for spec_name, path in factory():
        spec = specs.get(spec_name) or specs.setdefault(spec_name, api.load_spec(spec_name))
        instances = api.load_instances(spec, path)
        for k in range(len(instances)):
            # each instance dropped once solved, with what its board cached
            # (edges, neighbours), as pzc's own loop does: 840 boards kept
            # whole grew the process past the memory budget
            inst, instances[k] = instances[k], None
            t = time.perf_counter()
            if operation == "count":
                r = api.count(spec, inst, limit=1000, **options)
                row = {"count": r.count, "complete": r.complete,
                       "verified": r.status == "counted" and r.complete}
            elif operation == "unique":
                solved = api.solve(spec, inst, **options)
                solve_wall = time.perf_counter() - t
                t = time.perf_counter()
                r = api.unique(spec, inst, **options)
                row = {"unique": r.status, "solve_wall_s": solve_wall,
                       "verified": r.status in ("unique", "several") and bool(solved.verified)}
            elif operation == "plan":
                r = api.solve(spec, inst, **options)
                row = {"verified": r.verified, "steps": r.steps}
                if spec_name == "sliding" and inst.geometry.width == inst.geometry.height == 3:
                    distances = specs.get("bfs3") or specs.setdefault("bfs3", _bfs_distances(3))
                    board = "".join(inst.tokens.get(c, ".") for c in inst.geometry.cells)
                    row["optimal"] = distances.get(board) == r.steps
                    row["verified"] = bool(r.verified) and row["optimal"]
            else:
                r = api.solve(spec, inst, **options)
                row = {"verified": r.verified}
            wall = time.perf_counter() - t
            row.update({"instance": r.instance, "status": r.status, "wall_s": wall,
                        "compile_s": r.stats.get("compile_s", 0.0),
                        "solve_s": r.stats.get("solve_s", 0.0),
                        "variables": r.stats.get("variables"), "clauses": r.stats.get("clauses")})
            if r.error is not None:       # the message says which part failed
                row["error"] = str(r.error).splitlines()[0][:300]
            if "members" in r.stats:
                row["member"] = r.stats["solver"] if r.stats.get("variables") is not None else None
            rows.append(row)
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
    extra = {}
    if "unique" in rows[0]:
        uniq = [r for r in rows if r["unique"] == "unique"]
        extra = {"unique_levels": len(uniq),
                 "unique_s": sum(r["wall_s"] for r in uniq),
                 "solve_s_on_unique": sum(r["solve_wall_s"] for r in uniq),
                 "worst_ratio": max((r["wall_s"] / r["solve_wall_s"], r["instance"]) for r in uniq)
                 if uniq else None}
    if "steps" in rows[0]:
        extra = {"steps": [r["steps"] for r in rows]}
        if "optimal" in rows[0]:
            extra["bfs_optimal"] = sum(r["optimal"] for r in rows)
    if "count" in rows[0]:
        extra = {"counts": [r["count"] for r in rows], "all_complete": all(r["complete"] for r in rows)}
        if name == "tdoku-count":     # the file gives each puzzle's count after a ':'
            known = [int(l.split(":")[1]) for l in
                     _corpus("sudoku", "tdoku_test", "test_puzzles.txt").read_text().split()]
            extra["counts_equal_known"] = sum(a == b for a, b in zip(extra["counts"], known))
    return {**extra,
        "set": name, "description": SETS[name][0], "instances": n, "solved": solved,
        "verified": verified, "runs": len(runs),
        "set_s_median": statistics.median(totals), "set_s_all": totals,
        "process_s_median": statistics.median(wall_runs),
        "compile_s_median": compile_s, "solve_s_median": solve_s,
        "slowest": {"instance": slow["instance"], "wall_s": slow["wall_s"],
                    "variables": slow["variables"], "clauses": slow["clauses"]},
        "statuses": sorted({r["status"] for r in rows}),
        "status_counts": {st: sum(r["status"] == st for r in rows)
                          for st in sorted({r["status"] for r in rows})},
        "instance_s_median": statistics.median(r["wall_s"] for r in rows) if rows else None,
        "over_10s": sum(r["wall_s"] > 10 for r in rows),
        "failed": [r["instance"] for r in rows if not r["verified"]][:20],
        "errors": sorted({r["error"] for r in rows if r.get("error")})[:10],
        **({"answered_by": {m: sum(r.get("member") == m for r in rows)
                            for m in sorted({r["member"] for r in rows if r.get("member")})}}
           if any("member" in r for r in rows) else {}),
        "per_instance": [[r["instance"], r["status"], round(r["wall_s"], 3)] for r in rows],
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", default=",".join(DEFAULT_SETS),
                   help="comma-separated set names (default: %(default)s)")
    p.add_argument("--repeat", type=int, default=1, help="runs per set; the median is reported")
    p.add_argument("--solver", default=None, help="PySAT solver for SAT sets (default cadical195); "
                   "clingo configuration with --backend asp (default auto)")
    p.add_argument("--backend", choices=["sat", "smt", "asp"], default=None,
                   help="solve every set on this backend instead of the set's own")
    p.add_argument("--timeout", type=float, default=None,
                   help="per instance, seconds (default: none, except 60 s for the nurikabe sets)")
    p.add_argument("--portfolio", metavar="CONFIGS", nargs="?", const="default", default=None,
                   help="solve the SAT sets (not the move puzzles) with pzc's --portfolio "
                        "CONFIGS (alone: its default pair)")
    p.add_argument("--json", metavar="FILE", help="also write the summaries as JSON")
    p.add_argument("--list", action="store_true", help="list the sets and exit")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        run_child(args.child, args.solver, args.timeout, args.backend, args.portfolio)
        return 0
    if args.list:
        for name, (desc, corpus, backend, _, _) in SETS.items():
            need = {True: "  [needs ../shared/corpus]", "datasets": f"  [needs {DATASETS}]"}
            print(f"{name:<12} {desc}{need.get(corpus, '')}")
        return 0
    names = [s for s in args.sets.split(",") if s]
    unknown = [s for s in names if s not in SETS]
    if unknown:
        p.error(f"unknown set(s): {', '.join(unknown)}; see --list")
    summaries = []
    failed = False
    for name in names:
        need = {True: CORPUS, "datasets": DATASETS}.get(SETS[name][1])
        if need is not None and not need.exists():
            print(f"{name}: skipped ({need} is absent)")
            continue
        runs, walls = [], []
        for _ in range(args.repeat):
            timeout = args.timeout if args.timeout is not None else (60.0 if name.startswith("nurikabe") else None)
            cmd = [sys.executable, __file__, "--child", name]
            if timeout is not None:
                cmd += ["--timeout", str(timeout)]
            if args.solver:
                cmd += ["--solver", args.solver]
            if args.backend:
                cmd += ["--backend", args.backend]
            if args.portfolio:
                cmd += ["--portfolio=" + args.portfolio]
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
        done = (f"{s['solved']}/{s['instances']} solved, {s['verified']} verified"
                if SETS[name][4] == "solve" else
                f"{s['verified']}/{s['instances']} {SETS[name][4]} done, answers verified")
        print(f"{name:<11} {done} | "
              f"set {s['set_s_median']:.2f} s (process {s['process_s_median']:.2f} s) | "
              f"compile {s['compile_s_median']:.2f} s, solve {s['solve_s_median']:.2f} s | "
              f"slowest {Path(slow['instance'].split('#')[0]).name}"
              f"{'#' + slow['instance'].split('#')[1] if '#' in slow['instance'] else ''} "
              f"{slow['wall_s']:.2f} s ({slow['variables']} vars, {slow['clauses']} clauses)"
              + (f" | runs: {', '.join(f'{x:.2f}' for x in s['set_s_all'])}" if args.repeat > 1 else ""),
              flush=True)
        if "steps" in s:
            print(f"{'':<11} plan lengths (moves): {s['steps']}"
                  + (f"; {s['bfs_optimal']} equal to a breadth-first search's" if "bfs_optimal" in s
                     else ""), flush=True)
        if s["over_10s"] or s["failed"]:
            print(f"{'':<11} {s['over_10s']} over 10 s; not solved and verified: "
                  f"{', '.join(Path(x).name for x in s['failed']) or 'none'}", flush=True)
        if "answered_by" in s:
            print(f"{'':<11} portfolio: answered first " + ", ".join(
                f"{m} {n}" for m, n in s["answered_by"].items()), flush=True)
        if "unique_levels" in s:
            ratio = s["worst_ratio"]
            print(f"{'':<11} unique on {s['unique_levels']} levels: unique {s['unique_s']:.2f} s "
                  f"against solve {s['solve_s_on_unique']:.2f} s"
                  + (f"; worst ratio {ratio[0]:.2f} ({Path(ratio[1]).name})" if ratio else ""),
                  flush=True)
        if "counts" in s:
            print(f"{'':<11} counts {s['counts']}; all complete: {s['all_complete']}"
                  + (f"; {s['counts_equal_known']} of {s['instances']} equal to the file's counts"
                     if 'counts_equal_known' in s else ''), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(summaries, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
