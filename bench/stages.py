"""Where a benchmark set's time goes: CPU seconds of each stage of `pzc solve`.

    python bench/stages.py --sets janko
    python bench/stages.py --sets slitherlink-dataset --first 300 --timeout 20

Every instance of the set (bench/run.py's sets; ``--first N``: its first N)
goes through ``api.solve`` in this process, as bench/run.py's child does;
each stage's function is wrapped to add up its CPU time (time.process_time):
grounding, encoding, loading the clauses into the solver, the solver's calls
(loading excluded), connectivity cuts, reading the model, decoding,
verifying, drawing the answer as data, and closing the session (deleting the
solver).  "rest" is the remainder of the set's CPU time: reading the file, the
results, and freeing each instance's model and clauses as it ends.  Stages
nest nowhere, so the figures add up; the wrappers cost about 1%.

``--repeats`` also gives the most a grounded template per board could save:
the grounding and encoding CPU of the instances whose board size and number
of distinct clue values (Numberlink's labels) an earlier instance of the set
already had, as if those two stages cost nothing the second time.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

STAGES = [  # (module, attribute, stage): functions called once or more per instance
    ("tasks.solving", "ground", "ground"),
    ("backends.sat.cnf_stage", "encode", "encode"),
    ("backends.sat", "add_clauses", "load clauses"),
    ("backends.sat.connectivity", "cuts", "connectivity cuts"),
    ("backends.sat", "read_assignment", "read model"),
    ("tasks.solving", "decode", "decode"),
    ("tasks.solving", "verify", "verify"),
]


def _wrap(owner, name, stage, spent):
    f = getattr(owner, name)

    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[stage] += time.process_time() - start
    setattr(owner, name, timed)


def measure(name, first=None, timeout=None) -> tuple:
    """(CPU seconds by stage, the set's CPU seconds, instances, verified,
    the grounding and encoding CPU of instances whose shape came before)."""
    import importlib
    import run
    from pzc import api
    from pzc.backends import sat
    from pzc.tasks import results
    spent = Counter()
    repeats = 0.0
    for module, attr, stage in STAGES:
        owner = importlib.import_module("pzc." + module.split(".")[0] + "." + module.split(".")[1])
        for part in module.split(".")[2:]:
            owner = getattr(owner, part)
        _wrap(owner, attr, stage, spent)
    _wrap(results.Result, "attach", "answer data", spent)
    _wrap(sat.SatSession, "close", "close session", spent)
    _wrap(sat.SatSession, "_once", "solver calls", spent)
    _, _, backend, factory, _ = run.SETS[name]
    start = time.process_time()
    n = verified = 0
    seen = set()
    for spec_name, path in factory():
        spec = api.load_spec(spec_name)
        for inst in api.load_instances(spec, path)[:first]:
            before = spent["ground"] + spent["encode"]
            r = api.solve(spec, inst, backend=backend, timeout=timeout)
            n += 1
            verified += bool(r.verified)
            g = inst.geometry
            shape = (spec_name, g.width, g.height, len(set(inst.clues.values())))
            if shape in seen:
                repeats += spent["ground"] + spent["encode"] - before
            seen.add(shape)
    total = time.process_time() - start
    spent["solver calls"] -= spent["load clauses"]       # loading happens inside the first call
    spent["rest"] = total - sum(spent.values())
    return spent, total, n, verified, repeats


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", required=True, help="bench/run.py's set names, comma-separated")
    p.add_argument("--first", type=int, default=None, help="only the first N instances")
    p.add_argument("--timeout", type=float, default=None, help="per instance, seconds")
    p.add_argument("--repeats", action="store_true",
                   help="also the grounding and encoding CPU of instances whose board size and "
                        "number of clue values came before (what a template per board could save)")
    args = p.parse_args(argv)
    for name in args.sets.split(","):
        spent, total, n, verified, repeats = measure(name, args.first, args.timeout)
        print(f"{name}: {n} instances, {verified} verified, CPU {total:.2f} s")
        print("| stage | CPU (s) | share |\n|---|---|---|")
        for stage, s in sorted(spent.items(), key=lambda kv: -kv[1]):
            print(f"| {stage} | {s:.2f} | {100 * s / total:.0f}% |")
        if args.repeats:
            print(f"grounding and encoding of repeated shapes: {repeats:.2f} s; without it "
                  f"{total - repeats:.2f} s ({(total - repeats) / total:.2f} of the set)")


if __name__ == "__main__":
    main()
