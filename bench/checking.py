"""pzc benchmark: the checking and drawing stages alone (verify, grid, moves, text drawing).

    python bench/checking.py numberlink ../shared/corpus/numberlink/thomasahle/janko.txt
    python bench/checking.py masyu ../shared/corpus/other/puzzlekit/Masyu_dataset.json --limit 150

Each instance is solved once (not timed) and its decoded answer kept; then the
verifier (encoder/verify.py) and the renderer (encoder/render.py: the grid,
the moves and the `show text` drawing) run on every kept answer, three times;
the best of the three CPU times (process time, so that other processes on a
shared machine weigh less) is printed for each stage, with a digest of
everything drawn, so that two checkouts can be compared on the same answers:
run it with each checkout's own .venv/bin/python.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from pzc import api
from pzc.encoder import render, verify
from pzc.tasks import solving


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("paths", nargs="+", help="instance files")
    ap.add_argument("--limit", type=int, default=None, help="the first N instances only")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    spec = api.load_spec(args.spec)
    instances = [i for p in args.paths for i in api.load_instances(spec, p)][:args.limit]
    kept = []
    decode = solving.decode
    try:
        for inst in instances:
            got = []
            solving.decode = lambda *a, **k: got.append(decode(*a, **k)) or got[-1]
            if api.solve(spec, inst).verified and got:
                kept.append((inst, got[0]))
    finally:
        solving.decode = decode
    best = None
    for _ in range(args.rounds):
        checking = drawing = 0.0
        out = []
        for inst, answer in kept:
            t = time.process_time()
            problems = verify.verify(spec, inst, answer)
            checking += time.process_time() - t
            assert not problems, problems
            t = time.process_time()
            out.append((render.grid_rows(spec, inst, answer), render.moves(spec, inst, answer),
                        render.text_drawing(spec, inst, answer)))
            drawing += time.process_time() - t
        if best is None or checking + drawing < sum(best):
            best = (checking, drawing)
    digest = hashlib.md5(repr(out).encode()).hexdigest()[:12]
    print(f"{args.spec}: {len(kept)} answers, checking {best[0]:.3f} s, drawing {best[1]:.3f} s "
          f"(CPU, best of {args.rounds}), digest {digest}")


if __name__ == "__main__":
    main()
