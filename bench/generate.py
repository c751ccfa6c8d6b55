#!/usr/bin/env python3
"""Generation figures: N puzzles of each set, one process, the median and
slowest seconds per puzzle, every puzzle re-read from its text and found
unique by pzc.

    bench/generate.py [--count 20] [--seed 1] [--sets sudoku9,akari10,...] [--timeout 120]
                      [--urls FILE]

--urls appends each puzzle's puzz.link URL (where the spec has one) to FILE,
for pzprjs to open.  numberlink30 and numberlink40 are not in the default
run (about 1 and 3 minutes more).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pzc import api                                   # noqa: E402

# name -> (spec, size, params)
SETS = {
    "sudoku9": ("sudoku", (9, None), {}),
    "numberlink10": ("numberlink", (10, None), {}),
    "numberlink30": ("numberlink", (30, None), {}),
    "numberlink40": ("numberlink", (40, None), {}),
    "nurikabe10": ("nurikabe", (10, None), {}),
    "slitherlink10": ("slitherlink", (10, None), {}),
    "akari10": ("akari", (10, None), {}),
    "starbattle10": ("starbattle", (10, None), {"stars": 2}),
    "hexiom4": ("hexiom", (4, None), {}),
    "hexiom5": ("hexiom", (5, None), {}),
    "hexiom6": ("hexiom", (6, None), {}),
}
LONG = {"numberlink30", "numberlink40"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sets", default=",".join(x for x in SETS if x not in LONG))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--urls", default=None, help="append the puzzles' URLs to this file")
    args = ap.parse_args()
    print(f"{'set':<15} {'made':>5} {'median s':>9} {'max s':>7} {'clues':>6} {'wall s':>7}")
    tmp = tempfile.mkdtemp()
    for name in args.sets.split(","):
        spec_name, size, params = SETS[name]
        spec = api.load_spec(spec_name)
        start = time.perf_counter()
        secs, clues, made = [], [], 0
        for g in api.generate(spec, size, args.count, args.seed, args.timeout, params):
            secs.append(g.stats.get("seconds", args.timeout))
            if g.status != "generated":
                continue
            path = Path(tmp) / f"{name}.txt"
            path.write_text(api.write_instance(spec, g.instance, "text"))
            inst, = api.load_instances(spec, str(path))
            checked = api.unique(spec, inst)
            assert checked.status == "unique" and checked.witnesses == [g.solution], name
            made += 1
            clues.append(g.clues)
            if args.urls and spec.url is not None:
                with open(args.urls, "a") as f:
                    f.write(api.write_instance(spec, g.instance, "url") + "\n")
        wall = time.perf_counter() - start
        print(f"{name:<15} {made:>2}/{args.count:<2} {statistics.median(secs):>9.2f} "
              f"{max(secs):>7.2f} {statistics.median(clues) if clues else 0:>6} {wall:>7.1f}",
              flush=True)


if __name__ == "__main__":
    main()
