"""Explanations (issue 15): 50 unsolvable instances, 10 each of Sudoku,
Nurikabe, Akari, Hexiom and Numberlink, each a unique puzzle of
../shared/corpus with one wrong clue added.

    python bench/explain.py                      # all 50, the default settings
    python bench/explain.py --genres sudoku --count 3
    python bench/explain.py --backend smt
    python bench/explain.py --connectivity eager --no-implied
    python bench/explain.py --jsonl out.jsonl    # one line per instance too

The puzzles are read in place from the corpus (never copied), in a seeded
order: Sudoku from norvig's top95, Nurikabe and Akari from puzzlekit's 10x10
boards, Numberlink from thomasahle's janko.txt (10x10), Hexiom from slowfrog's
levels and, as only 7 of those have one solution, `pzc generate hexiom
--size 4` boards (seeds from 1); each checked unique with `api.unique`.  The wrong clue is drawn
with the same seed from the cells that cannot change the board's shape:

  * sudoku: a blank cell, a digit other than the solution's;
  * nurikabe: a blank cell that is sea with sea all around, a number 1..4
    (the sea cell and its neighbours stay out of every other island's reach);
  * akari: a wall without a number, a number 0..4;
  * hexiom: an empty cell that is not locked, a tile 0..6;
  * numberlink: a blank cell, a label the puzzle has.

A made instance counts only when `api.solve` says it has no solution;
otherwise the next candidate is tried.

Per instance: the core's size (clues + rule instances), whether the added
clue is in it, whether it is minimal (checked apart from the search: the
members grounded again and a fresh solver solve the core, unsat, and the
core with each member dropped, each sat), explain's time (`api.explain`, in process,
median of --repeat runs) and one solve's time (`api.solve` of the same
unsolvable instance on the same backend, median of --repeat runs), and their
ratio.  Summary:
cores holding the added clue (need >= 45 of 50), minimal cores (need all),
the median ratio (need <= 10).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


from pzc import api                                   # noqa: E402
from pzc.tasks.explain.cores import SatCores               # noqa: E402
from pzc.tasks.explain import members as stage              # noqa: E402

SOURCES = {
    "sudoku": CORPUS / "sudoku" / "norvig" / "top95.txt",
    "nurikabe": CORPUS / "nurikabe" / "puzzlekit" / "Nurikabe_dataset.json",
    "akari": CORPUS / "other" / "puzzlekit" / "Akari_dataset.json",
    "hexiom": CORPUS / "hexiom" / "slowfrog",
    "numberlink": CORPUS / "numberlink" / "thomasahle" / "janko.txt",
}


def puzzles(genre, spec, rng):
    """The corpus's puzzles of a genre in a seeded order (10x10 boards where
    sizes vary)."""
    src = SOURCES[genre]
    if genre == "hexiom":
        found = [i for p in sorted(src.glob("level*.txt")) for i in api.load_instances(spec, str(p))]
    else:
        found = api.load_instances(spec, str(src))
    if genre in ("nurikabe", "akari", "numberlink"):
        found = [i for i in found if i.geometry is not None
                 and (i.geometry.width, i.geometry.height) == (10, 10)]
    rng.shuffle(found)
    yield from found
    if genre == "hexiom":
        # few of slowfrog's levels have one solution: then `pzc generate`'s
        # side-4 boards (some leave a cell empty that is not locked)
        for g in api.generate(spec, size=(4, None), count=60, seed=1):
            if g.status == "generated":
                g.instance.name = f"generated-hexiom-seed{g.seed}"
                yield g.instance


def candidates(genre, inst, cells, rng):
    """(cell, value) wrong clues to try, in a seeded order; ``cells``: the
    unique solution's tokens."""
    geom = inst.geometry
    blank = [c for c in geom.cells if c not in inst.clues]
    out = []
    if genre == "sudoku":
        out = [(c, v) for c in blank for v in range(1, 10) if str(v) != cells.get(c)]
    elif genre == "nurikabe":
        sea = {c for c in geom.cells if cells.get(c) == "#"}
        out = [(c, v) for c in blank if c in sea and all(d in sea for d in geom.neighbours(c))
               for v in range(1, 5)]
    elif genre == "akari":
        out = [(c, v) for c, x in inst.clues.items() if x == "x" for v in range(5)]
    elif genre == "hexiom":
        out = [(c, v) for c in blank if c not in inst.locked for v in range(7)]
    elif genre == "numberlink":
        labels = sorted(set(inst.clues.values()), key=str)
        out = [(c, v) for c in blank for v in labels]
    rng.shuffle(out)
    return out


def made(genre, spec, count, seed, log):
    """``count`` unsolvable instances: (instance, the added cell)."""
    rng = random.Random(seed)
    out = []
    for inst in puzzles(genre, spec, rng):
        if len(out) >= count:
            break
        u = api.unique(spec, inst)
        if u.status != "unique":
            log(f"  {inst.name}: {u.status}, skipped")
            continue
        cells = u._found.solutions[0].cells
        for cell, value in candidates(genre, inst, cells, rng)[:20]:
            wrong = stage.with_clue(inst, cell, value)
            wrong.name = f"{inst.name}+{value}@{cell[0]},{cell[1]}"
            if api.solve(spec, wrong).status == "unsat":
                out.append((wrong, cell))
                break
        else:
            log(f"  {inst.name}: no wrong clue found among 20 tries, skipped")
    return out


def timed(fn, repeat):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def minimal(spec, inst, result, implied):
    """Check the core apart from the search: members grounded again, a
    fresh solver; the core unsat, each member dropped sat."""
    found = stage.members(spec, inst, implied=implied)
    by_key = {}
    for i, m in enumerate(found.members):
        key = (("clue", m.cell) if m.kind == stage.CLUE
               else ("rule", m.rule.name, json.dumps(_binding(m))))
        by_key[key] = i
    core = [by_key[("clue", tuple(c["cell"]))] for c in result.core_clues]
    core += [by_key[("rule", r["rule"], json.dumps(r["binding"]))] for r in result.core_rules]
    oracle = SatCores(found, "cadical195", "lazy")
    try:
        if oracle.check(core)[0]:
            return False
        return all(oracle.check([j for j in core if j != i])[0] for i in core)
    finally:
        oracle.close()


def _binding(m):
    from pzc.encoder.render import to_json
    return {n: to_json(v) for n, v in m.binding}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--genres", default="sudoku,nurikabe,akari,hexiom,numberlink")
    p.add_argument("--count", type=int, default=10, help="instances per genre")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--repeat", type=int, default=3, help="runs timed per instance (median)")
    p.add_argument("--backend", default="sat", choices=["sat", "smt"])
    p.add_argument("--connectivity", default=None, choices=["lazy", "eager"])
    p.add_argument("--solver", default=None, help="explain's SAT solver (default cadical195)")
    p.add_argument("--timeout", type=float, default=None,
                   help="explain's time limit per run (an instance past it counts as failed)")
    p.add_argument("--no-implied", action="store_true", help="leave implied rules out")
    p.add_argument("--jsonl", help="write one JSON line per instance here")
    args = p.parse_args(argv)
    if not CORPUS.exists():
        print(f"{CORPUS} is absent: nothing to run")
        return 0
    implied = not args.no_implied
    rows = []
    out = open(args.jsonl, "w") if args.jsonl else None
    for genre in args.genres.split(","):
        spec = api.load_spec(genre)
        print(f"{genre}:", flush=True)
        for inst, cell in made(genre, spec, args.count, args.seed, print):
            res, explain_s = timed(lambda: api.explain(
                spec, inst, backend=args.backend, solver=args.solver,
                connectivity=args.connectivity, implied=implied, timeout=args.timeout),
                args.repeat)
            solved, solve_s = timed(lambda: api.solve(spec, inst, backend=args.backend),
                                    args.repeat)
            assert solved.status == "unsat", solved.status
            assert res.status in ("unsat", "timeout"), (res.status, res.error)
            done = res.status == "unsat"
            row = {"genre": genre, "instance": inst.name, "status": res.status,
                   "clues": len(res.core_clues), "rules": len(res.core_rules),
                   "added_in_core": list(cell) in [c["cell"] for c in res.core_clues],
                   "minimal": done and minimal(spec, inst, res, implied),
                   "explain_s": round(explain_s, 4), "solve_s": round(solve_s, 4),
                   "ratio": round(explain_s / solve_s, 2), "calls": res.stats.get("calls"),
                   "first_core": res.stats.get("first_core"),
                   "members": res.stats.get("members"),
                   "variables": res.stats.get("variables"), "clauses": res.stats.get("clauses")}
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
            print(f"  {row['instance'].split('/')[-1]:<34} core {row['clues']:>3} clues "
                  f"{row['rules']:>3} rules  added {'yes' if row['added_in_core'] else 'NO '}  "
                  + ("" if done else "TIME LIMIT  ") +
                  f"minimal {'yes' if row['minimal'] else 'NO '}  explain {explain_s:7.3f} s  "
                  f"solve {solve_s:7.3f} s  ratio {row['ratio']:6.2f}  calls {row['calls']}",
                  flush=True)
    if out:
        out.close()
    n = len(rows)
    if not n:
        return 1
    added = sum(r["added_in_core"] for r in rows)
    mini = sum(r["minimal"] for r in rows)
    ratio = statistics.median(r["ratio"] for r in rows)
    print(f"\n{n} instances: added clue in the core {added}/{n}, minimal {mini}/{n}, "
          f"explain/solve time ratio median {ratio:.2f} (max {max(r['ratio'] for r in rows):.2f}), "
          f"solver calls median {statistics.median(r['calls'] or 0 for r in rows)}, "
          f"{sum(r['status'] == 'timeout' for r in rows)} past --timeout")
    for genre in dict.fromkeys(r["genre"] for r in rows):
        g = [r for r in rows if r["genre"] == genre]
        print(f"  {genre:<11} core size median {statistics.median(r['clues'] + r['rules'] for r in g)}"
              f", ratio median {statistics.median(r['ratio'] for r in g):.2f}, explain median "
              f"{statistics.median(r['explain_s'] for r in g):.3f} s, solve median "
              f"{statistics.median(r['solve_s'] for r in g):.3f} s")
    ok = added >= 0.9 * n and mini == n and ratio <= 10
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
