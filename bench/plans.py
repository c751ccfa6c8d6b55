"""Move puzzles, lever by lever: where a shortest plan's time goes.

    python bench/plans.py                          # asteroid challenge 60, the sliding4 boards
    python bench/plans.py --cases sliding4 --fresh 0
    python bench/plans.py --json plans.json

For each plan (Asteroid Escape's challenge 60 from ../shared/corpus, the
five 15-puzzles of bench/run.py's sliding4 set, and 60-move random walks on
4 x 4 boards) it measures, in this process, one lever at a time:

* the state search (backends/states.py): from the start only and from both
  ends: states kept, layers, seconds;
* the SAT deepening, incremental (one solver, the goal assumed per
  horizon, as `--plan-search sat` runs it): variables, clauses and seconds
  of every horizon, the UNSAT horizons (t < L, the proof that the plan is
  shortest) apart from the last (t = L);
* the same starting at the length the state search proved (the goals of
  t < L added as false, not solved: what `--plan-search auto` does after a
  state search that stops at its cap);
* a fresh solver per horizon (everything encoded again for each T) at the
  last ``--fresh`` horizons, against the incremental solver's time there;
* without the pairs of actions that undo each other (encoder/undo.py), the
  one symmetry these moves have.

Timings are of one run on whatever the machine is doing: compare within a
run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from pzc import api  # noqa: E402
from pzc.backends import deepen, states  # noqa: E402
from pzc.encoder import unroll as unroll_stage  # noqa: E402

import run as bench_run  # noqa: E402


def instances(which):
    out = []
    if "asteroid" in which:
        spec = api.load_spec("asteroid")
        path = bench_run.CORPUS / "asteroid-escape" / "challenges.json"
        if path.exists():
            out += [("asteroid #60", spec, i) for i in api.load_instances(spec, str(path))
                    if i.data["id"] == 60]
    for name, walk, count, seed in (("sliding4", 30, 5, 15), ("sliding4-60", 60, 6, 77)):
        if name in which:
            spec = api.load_spec("sliding")
            (_, path), = bench_run.sliding_set(4, count, seed, walk=walk)
            out += [(f"{name} #{k + 1}", spec, inst)
                    for k, inst in enumerate(api.load_instances(spec, path))]
    return out


def state_search(spec, inst, both_ends):
    start = time.perf_counter()
    found = states.search(unroll_stage.unroll(spec, inst), 200, both_ends=both_ends)
    return {"status": found.status, "moves": found.bound, "states": found.stats.get("states"),
            "layers": found.stats.get("layers"), "seconds": round(time.perf_counter() - start, 3)}


def sat_session(plan):
    return api.get_backend("sat", "cadical195", "eager").session(plan)


def incremental(spec, inst, proved=0, max_steps=200):
    """Per horizon: (t, variables, clauses, seconds, sat?) on one solver."""
    plan = unroll_stage.unroll(spec, inst)
    rows = []
    with sat_session(plan) as session:
        for t in range(max_steps + 1):
            while plan.steps < t:
                grown = plan.extend()
                session.extend(grown.variables, grown.constraints)
            start = time.perf_counter()
            sat = False
            if session.assume(plan.goal(t)) and t >= proved:
                sat = session.next(None).status == "sat"
            rows.append((t, session.stats["variables"], session.stats["clauses"],
                         round(time.perf_counter() - start, 4), sat))
            if sat:
                return rows
            session.retract()
    return rows


def fresh(spec, inst, t):
    """Seconds to answer horizon t on a solver made for it alone (the
    goals of shorter horizons not added: nothing carried over)."""
    plan = unroll_stage.unroll(spec, inst)
    with sat_session(plan) as session:
        while plan.steps < t:
            grown = plan.extend()
            session.extend(grown.variables, grown.constraints)
        start = time.perf_counter()
        status = session.next(None).status if session.assume(plan.goal(t)) else "unsat"
        return round(time.perf_counter() - start, 4), status


def without_undo_pairs(spec, inst):
    saved = unroll_stage.find_undo_pairs
    unroll_stage.find_undo_pairs = lambda plan: []
    try:
        start = time.perf_counter()
        plan = unroll_stage.unroll(spec, inst)
        with sat_session(plan) as session:
            outcome = deepen(plan, session, 200)
        return outcome.stats["steps"], round(time.perf_counter() - start, 3)
    finally:
        unroll_stage.find_undo_pairs = saved


def measure(label, spec, inst, args) -> dict:
    out = {"instance": label}
    out["forward"] = state_search(spec, inst, False) if args.forward else None
    out["both_ends"] = state_search(spec, inst, None)
    length = out["both_ends"]["moves"]
    if out["both_ends"]["status"] != "sat" or label.split(" ")[0] not in args.sat_cases:
        return out
    rows = incremental(spec, inst)
    out["sat"] = {"moves": rows[-1][0], "variables": rows[-1][1], "clauses": rows[-1][2],
                  "unsat_s": round(sum(r[3] for r in rows[:-1]), 3), "last_s": rows[-1][3],
                  "slowest": sorted(rows, key=lambda r: -r[3])[:3]}
    if args.horizons:
        out["sat"]["horizons"] = rows
    skipped = incremental(spec, inst, proved=length)
    out["sat_from_proved"] = {"moves": skipped[-1][0], "last_s": skipped[-1][3],
                              "all_s": round(sum(r[3] for r in skipped), 3)}
    out["fresh"] = [(t, *fresh(spec, inst, t), rows[t][3])
                    for t in range(max(0, length - args.fresh + 1), length + 1)]
    if args.undo:
        out["no_undo_pairs"] = dict(zip(("moves", "seconds"), without_undo_pairs(spec, inst)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", default="asteroid,sliding4,sliding4-60",
                   help="asteroid, sliding4, sliding4-60 (default: all three)")
    p.add_argument("--fresh", type=int, default=3,
                   help="horizons (the last ones) solved on a fresh solver too (default 3)")
    p.add_argument("--sat-cases", default="asteroid,sliding4",
                   help="the cases whose SAT levers are measured too (default asteroid,sliding4; "
                        "the 60-move walks take minutes a board on SAT)")
    p.add_argument("--no-forward", dest="forward", action="store_false",
                   help="skip the state search from the start only")
    p.add_argument("--no-undo", dest="undo", action="store_false",
                   help="skip the SAT deepening without undo pairs")
    p.add_argument("--horizons", action="store_true", help="keep every horizon's row")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = p.parse_args(argv)
    args.sat_cases = set(args.sat_cases.split(","))
    results = []
    for label, spec, inst in instances(set(args.cases.split(","))):
        r = measure(label, spec, inst, args)
        results.append(r)
        print(json.dumps(r), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
