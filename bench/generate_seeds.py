#!/usr/bin/env python3
"""pzc generate seed by seed, as a user runs it: the wall time of each
command, each puzzle checked by `pzc unique`, the share of its cells printed
empty ('.'), and the same seeds again beside CPU-bound busy loops: the
puzzles must be the same text.

    bench/generate_seeds.py GENRE --size 6 [--seeds 1-10] [--load 2] [--option --stars=2]

The busy loops (--load of them) are started by this script and ended by it.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PZC = [sys.executable, "-m", "pzc.cli"]
BUSY = "while 1: pass"


def seeds(text: str) -> list:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def generate(genre, size, seed, options) -> tuple:
    """(wall seconds, CPU seconds, the puzzle's text without its comment
    line, the full output or the error)."""
    start, cpu = time.perf_counter(), cpu_of_children()
    run = subprocess.run(PZC + ["generate", genre, "--size", size, "--seed", str(seed)] + options,
                         capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, cpu_of_children() - cpu
    if run.returncode != 0:
        return wall, cpu, None, run.stderr.strip()
    return wall, cpu, "\n".join(l for l in run.stdout.splitlines() if not l.startswith("#")), run.stdout


def empty_share(puzzle: str) -> float:
    """Cells printed '.' among the cells of the rows below the size line."""
    cells = [t.lstrip("+") for line in puzzle.splitlines()[1:] for t in line.replace("+", " +").split()]
    return sum(t == "." for t in cells) / len(cells) if cells else 0.0


def unique(genre, puzzle: str, folder: Path, seed: int) -> bool:
    path = folder / f"{genre}-{seed}.txt"
    path.write_text(puzzle + "\n")
    run = subprocess.run(PZC + ["unique", genre, str(path)], capture_output=True, text=True)
    return run.returncode == 0 and "exactly one solution" in run.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("genre")
    ap.add_argument("--size", required=True)
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--load", type=int, default=2, help="busy loops for the second run (0: none)")
    ap.add_argument("--option", action="append", default=[], help="passed to pzc generate")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    idle, loaded, walls, cpus, walls_loaded = {}, {}, [], [], []
    print(f"{'seed':>4} {'wall s':>7} {'cpu s':>6} {'loaded s':>8} {'empty':>6} {'unique':>6} {'same':>5}")
    for seed in seeds(args.seeds):
        wall, cpu, puzzle, out = generate(args.genre, args.size, seed, args.option)
        cpus.append(cpu)
        idle[seed] = puzzle
        walls.append(wall)
        if puzzle is None:
            print(f"{seed:>4} {wall:7.2f} failed: {out}")
            continue
        wall_loaded, same = float("nan"), "-"
        if args.load:
            busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.load)]
            try:
                wall_loaded, _, loaded[seed], _ = generate(args.genre, args.size, seed, args.option)
            finally:
                for p in busy:
                    p.kill()
                    p.wait()
            walls_loaded.append(wall_loaded)
            same = loaded[seed] == puzzle
        print(f"{seed:>4} {wall:7.2f} {cpu:6.2f} {wall_loaded:8.2f} {empty_share(puzzle):6.1%} "
              f"{str(unique(args.genre, puzzle, folder, seed)):>6} {str(same):>5}", flush=True)
    print(f"wall s: median {statistics.median(walls):.2f}, max {max(walls):.2f}; "
          f"cpu s: median {statistics.median(cpus):.2f}, max {max(cpus):.2f}")
    if walls_loaded:
        print(f"loaded: median {statistics.median(walls_loaded):.2f}, "
              f"max {max(walls_loaded):.2f}, {args.load} busy loops")


if __name__ == "__main__":
    main()
