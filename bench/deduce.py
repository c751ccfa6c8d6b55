"""pzc deduce against pzc unique on puzzles that have several solutions.

    python bench/deduce.py                      # sat, then smt
    python bench/deduce.py --backends sat --per-genre 10

The puzzles are real ones with one solution (../shared/corpus: puzzlekit's
dataset files, Sudoku top95, Janko's Numberlink), the first few of each file
in its order, made non-unique as a setter's half-done puzzle is: clues are
taken out one at a time, in an order drawn from a fixed seed, until `unique`
finds two solutions.  Each such puzzle then runs `api.unique` and
`api.deduce` in this process, in turn (wall time, the median of --runs
runs), every answer verified; the figures are the median over the puzzles of
deduce's time over unique's, and the medians of both times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
KIT = CORPUS / "other" / "puzzlekit"

SOURCES = [   # (spec, file)
    ("akari", KIT / "Akari_dataset.json"),
    ("masyu", KIT / "Masyu_dataset.json"),
    ("slitherlink", KIT / "Slitherlink_dataset.json"),
    ("hitori", KIT / "Hitori_dataset.json"),
    ("kakuro", KIT / "Kakuro_dataset.json"),
    ("sudoku", CORPUS / "sudoku" / "norvig" / "top95.txt"),
    ("numberlink", CORPUS / "numberlink" / "thomasahle" / "janko.txt"),
]


def opened(api, spec, inst, seed):
    """The instance with clues taken out (seeded order) until it has two
    solutions, or None if it never gets there."""
    rng = random.Random(seed)
    order = sorted(inst.clues, key=repr)
    rng.shuffle(order)
    cur = inst
    for cell in order:
        cur = cur.copy()
        del cur.clues[cell]
        cur.tokens.pop(cell, None)
        u = api.unique(spec, cur, timeout=30)
        if u.status == "several":
            return cur
        if u.status != "unique":
            return None
    return None


def puzzles(api, per_genre, max_cells):
    out = []
    for name, path in SOURCES:
        if not path.exists():
            print(f"{name}: {path} is missing, left out", file=sys.stderr)
            continue
        spec = api.load_spec(name)
        kept = 0
        for k, inst in enumerate(api.load_instances(spec, str(path))):
            if kept == per_genre:
                break
            if inst.unreadable is not None or inst.geometry is None:
                continue
            if len(inst.geometry.cells) > max_cells:
                continue
            cur = opened(api, spec, inst, seed=k)
            if cur is not None:
                out.append((name, spec, cur))
                kept += 1
    return out


def timed(run, runs):
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backends", default="sat,smt")
    p.add_argument("--per-genre", type=int, default=7, help="puzzles of each file (default 7)")
    p.add_argument("--max-cells", type=int, default=150,
                   help="leave out boards of more cells (default 150: Z3 stays in seconds)")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    from pzc import api
    made = puzzles(api, args.per_genre, args.max_cells)
    genres = sorted({name for name, _, _ in made})
    print(f"{len(made)} puzzles with several solutions ({', '.join(genres)})")
    for backend in args.backends.split(","):
        ratios, t_unique, t_deduce, by_genre = [], [], [], {}
        for name, spec, inst in made:
            tu, u = timed(lambda: api.unique(spec, inst, backend=backend), args.runs)
            td, d = timed(lambda: api.deduce(spec, inst, backend=backend), args.runs)
            assert u.status == "several" and d.status == "several", (inst.name, u.status, d.status)
            ratios.append(td / tu)
            t_unique.append(tu)
            t_deduce.append(td)
            by_genre.setdefault(name, []).append((td / tu, d.solutions, len(d.open), d.determined))
        print(f"\n{backend}: {len(made)} puzzles; median deduce/unique {statistics.median(ratios):.2f} "
              f"(max {max(ratios):.2f}); median unique {statistics.median(t_unique):.3f} s, "
              f"median deduce {statistics.median(t_deduce):.3f} s")
        print("| genre | puzzles | median deduce/unique | max | solutions looked at (median) "
              "| open places (median) |\n|---|---|---|---|---|---|")
        for name in genres:
            rows = by_genre.get(name, [])
            if rows:
                print(f"| {name} | {len(rows)} | {statistics.median(r[0] for r in rows):.2f} | "
                      f"{max(r[0] for r in rows):.2f} | {statistics.median(r[1] for r in rows):g} | "
                      f"{statistics.median(r[2] for r in rows):g} |")


if __name__ == "__main__":
    main()
