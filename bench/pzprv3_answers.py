"""Answers that go back to puzz.link (issue 29): the first N puzzles of each
puzzlekit dataset in ../shared/corpus/other/puzzlekit whose genre the npm
package pzpr has are solved, written as pzprv3 files with their answers
(`api.write_instance(..., "pzprv3", answer)`), and opened in pzprjs, whose
checker must say complete; the time the files take to write is set against
the time to solve.  An instance with a region in several pieces (puzzlekit's
Star Battle marks some cells '@' in every corner) is counted apart: puzz.link's
rooms are connected, so pzprjs reads it as another puzzle (as it reads pzc's
URL of it).

    python bench/pzprv3_answers.py                 # 40 a dataset
    python bench/pzprv3_answers.py --count 200

Needs node and the npm package pzpr (tests/pzprjs.py finds it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import pzprjs  # noqa: E402  (the tests' judge: node and pzpr)
from pzc import api  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "other" / "puzzlekit"
DATASETS = {"akari": "Akari", "hashi": "Hashi", "hitori": "Hitori", "kakuro": "Kakuro",
            "masyu": "Masyu", "slitherlink": "Slitherlink", "starbattle": "Starbattle"}


def split_regions(inst) -> bool:
    """Whether a region of the instance is in several pieces."""
    ids = inst.layers.get("regions") or {}
    seen = set()
    for start in ids:
        if start in seen:
            continue
        if any(ids[c] == ids[start] and c in seen for c in ids):
            return True             # a second piece of a region met before
        todo = [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in ids and n not in seen and ids[n] == ids[start]:
                    seen.add(n)
                    todo.append(n)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=40, help="puzzles a dataset (default 40)")
    args = parser.parse_args()
    if not pzprjs.available():
        print("needs node and the npm package pzpr", file=sys.stderr)
        return 2
    print(f"{'genre':12} {'files':>5} {'complete':>8} {'split':>5} {'solve s':>8} "
          f"{'write s':>8}")
    total = judged = 0
    for name, stem in DATASETS.items():
        spec = api.load_spec(name)
        instances = api.load_instances(spec, str(CORPUS / f"{stem}_dataset.json"))[:args.count]
        files, solving, writing, split = [], 0.0, 0.0, 0
        for inst in instances:
            if split_regions(inst):
                split += 1
                continue
            start = time.perf_counter()
            result = api.solve(spec, inst)
            solving += time.perf_counter() - start
            if result.answer is None:
                continue
            start = time.perf_counter()
            files.append(api.write_instance(spec, inst, "pzprv3", result.answer))
            writing += time.perf_counter() - start
        verdicts = pzprjs.check([{"open": f} for f in files])
        complete = sum(bool(v.get("complete")) for v in verdicts)
        total += len(files)
        judged += complete
        print(f"{name:12} {len(files):5} {complete:8} {split:5} {solving:8.2f} {writing:8.3f}")
    print(f"{'all':12} {total:5} {judged:8}")
    return 0 if judged == total else 1


if __name__ == "__main__":
    sys.exit(main())
