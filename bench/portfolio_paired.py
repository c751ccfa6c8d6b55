"""Each instance solved alone and with --portfolio, in turn, in one process.

    python bench/portfolio_paired.py SPEC FILE TIMEOUT [CONFIGS] [--json OUT]

On a shared, noisy machine two runs of a set one after the other differ by
the load that drifted between them; here the two ways of solving alternate
instance by instance (the order swapped every instance), so the drift falls
on both alike.  Both run under TIMEOUT (so a solver is a forked process in
both); CONFIGS is --portfolio's value (default: its default pair).  Prints a
line per instance and the totals (docs/benchmarks.md, "Portfolio").
"""

from __future__ import annotations

import argparse
import json
import time


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("spec")
    p.add_argument("file")
    p.add_argument("timeout", type=float)
    p.add_argument("configs", nargs="?", default="default")
    p.add_argument("--json", metavar="OUT", help="also write the rows as JSON")
    args = p.parse_args(argv)
    from pzc import api, clock
    spec = api.load_spec(args.spec)
    ways = {"alone": {}, "portfolio": dict(backend="portfolio", solver=args.configs)}
    rows = []
    for k, inst in enumerate(api.load_instances(spec, args.file)):
        row = {"instance": inst.name}
        for name in (("alone", "portfolio") if k % 2 == 0 else ("portfolio", "alone")):
            clock.release_left_behind()
            t = time.perf_counter()
            r = api.solve(spec, inst, timeout=args.timeout, **ways[name])
            row[name] = {"status": r.status, "verified": r.verified,
                         "wall_s": round(time.perf_counter() - t, 3),
                         "member": r.stats.get("solver") if name == "portfolio" else None}
        rows.append(row)
        a, b = row["alone"], row["portfolio"]
        print(f"{inst.name}: alone {a['status']} {a['wall_s']:.2f} s, portfolio {b['status']} "
              f"{b['wall_s']:.2f} s ({b['member']})", flush=True)
    for name in ways:
        done = sum(r[name]["status"] in ("solved", "unsat") and r[name]["verified"] is not False
                   for r in rows)
        print(f"{name}: {done}/{len(rows)} answered, {sum(r[name]['wall_s'] for r in rows):.2f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
