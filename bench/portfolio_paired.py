"""Each instance solved alone and with --portfolio, in turn, in one process.

    python bench/portfolio_paired.py SPEC FILE TIMEOUT [CONFIGS] [--json OUT]
    python bench/portfolio_paired.py SPEC FILE TIMEOUT [CONFIGS] --each

With --each, every member of the portfolio is solved alone too (the spec's
`portfolio` line, else --portfolio's default pair, when CONFIGS is left out),
so the portfolio is compared with the better of its members; the order of
the ways turns by one every instance.  A timeout counts as TIMEOUT seconds.

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
    p.add_argument("--each", action="store_true",
                   help="solve with each member alone too, instead of the plain backend")
    args = p.parse_args(argv)
    from pzc import api
    from pzc.runtime import clock
    from pzc.backends.choice import solver_for
    from pzc.backends.portfolio import parse
    spec = api.load_spec(args.spec)
    members = solver_for(spec, "portfolio", args.configs)
    ways = {"alone": {}} if not args.each else {
        str(m): dict(backend=m.backend, solver=m.solver, connectivity=m.connectivity)
        for m in parse(members)}
    ways["portfolio"] = dict(backend="portfolio", solver=members)
    names = list(ways)
    print(f"portfolio of {members}; load: {open('/proc/loadavg').read().split()[:3]}", flush=True)
    rows = []
    for k, inst in enumerate(api.load_instances(spec, args.file)):
        row = {"instance": inst.name}
        order = names[k % len(names):] + names[:k % len(names)] if args.each else (
            names if k % 2 == 0 else names[::-1])
        for name in order:
            clock.release_left_behind()
            t = time.perf_counter()
            r = api.solve(spec, inst, timeout=args.timeout, **ways[name])
            row[name] = {"status": r.status, "verified": r.verified,
                         "wall_s": round(time.perf_counter() - t, 3),
                         "member": r.stats.get("solver") if name == "portfolio" else None}
        rows.append(row)
        print(f"{inst.name}: " + ", ".join(
            f"{n} {row[n]['status']} {row[n]['wall_s']:.2f} s" for n in names)
            + f" (first: {row['portfolio']['member']})", flush=True)
    for name in ways:
        done = sum(r[name]["status"] in ("solved", "unsat") and r[name]["verified"] is not False
                   for r in rows)
        total = sum(min(r[name]["wall_s"], args.timeout) if r[name]["status"] != "timeout"
                    else args.timeout for r in rows)
        print(f"{name}: {done}/{len(rows)} answered, {total:.2f} s (a timeout counts "
              f"{args.timeout:g} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
