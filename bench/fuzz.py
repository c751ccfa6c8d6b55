"""Fuzz pzc: many more cases of tests/fuzz.py than the test run's few hundred.

    python bench/fuzz.py --cases 5000            # cases 0..4999, a summary
    python bench/fuzz.py --cases 2000 --start 10000
    python bench/fuzz.py --case 1234             # write case 1234 to fuzz-1234/, run it

Prints one line per case that is not ok (its number, kind, verdict and the
first error line), then the count of each verdict.  Exit 1 when a case
failed (exit 4, a traceback, an unlocated exit-2 error or a crash); cases
that ran out of memory or far past the time limit are counted as
`resources` (issue 11's branches `resources` and `timelimits`) and listed.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import fuzz  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=1000, help="how many cases (default 1000)")
    p.add_argument("--start", type=int, default=0, help="the first case number")
    p.add_argument("--case", type=int, default=None, help="write and run one case")
    args = p.parse_args(argv)
    if args.case is not None:
        c = fuzz.case(args.case)
        print(fuzz.reproduce(c, Path(f"fuzz-{args.case}").resolve()))
        record = fuzz.run_case(c)
        print(f"verdict: {record['verdict']}, exit {record['code']}, {record['seconds']:.2f} s")
        sys.stdout.write(record["stderr"])
        return 0 if record["verdict"] in ("ok", "resources") else 1
    counts = collections.Counter()
    codes = collections.Counter()
    start = time.perf_counter()
    for n in range(args.start, args.start + args.cases):
        record = fuzz.run_case(fuzz.case(n))
        counts[record["verdict"]] += 1
        codes[(fuzz.KINDS[n % len(fuzz.KINDS)], record["code"])] += 1
        if record["verdict"] != "ok":
            first = next((l for l in record["stderr"].splitlines() if l.strip()), "")
            print(f"case {n} ({fuzz.case(n)['kind']}, {' '.join(record['argv'][:1])} "
                  f"{record['argv'][3:5]}): {record['verdict']}, exit {record['code']}, "
                  f"{record['seconds']:.1f} s: {first[:150]}", flush=True)
    total = time.perf_counter() - start
    print(f"{args.cases} cases in {total:.0f} s: " +
          ", ".join(f"{v} {k}" for k, v in counts.most_common()))
    print("exit codes by kind: " + ", ".join(f"{k} {c}: {v}" for (k, c), v in sorted(
        codes.items(), key=str)))
    return 1 if set(counts) - {"ok", "resources"} else 0


if __name__ == "__main__":
    sys.exit(main())
