"""puzzlekit's dataset files of the genres ../shared/corpus does not hold
(LITS), from $PZC_DATASETS (tests/conftest.py DATASETS): a sample solved with
one command, every answer verified and equal to the dataset's solution, and
the file's malformed entries refused with their place.  Skipped where the
files are absent.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import DATASETS, reads_corpus, run_cli

LITS = DATASETS / "LITS_dataset.json"


def solve_sample(spec, path, keys, tmp_path):
    """`pzc solve SPEC SAMPLE.json --format json` on the entries ``keys``:
    {key: record}."""
    data = json.loads(path.read_text())
    sample = tmp_path / path.name
    sample.write_text(json.dumps({**data, "count": len(keys),
                                  "data": {k: data["data"][k] for k in keys}}))
    run = run_cli("solve", spec, sample, "--format", "json", "--quiet", "--timeout", "20",
                  timeout=3600)
    out = {}
    for line in run.stdout.splitlines():
        record = json.loads(line)
        out[record["instance"].rpartition("#")[2]] = record
    return run, out


@pytest.mark.slow
@reads_corpus(LITS)
def test_lits_sample_equal_to_the_dataset(tmp_path):
    """Every irregular board ('@' cells outside it), every board of 31x45 and
    larger, and a seeded sample of the rest: solved, verified, shaded as the
    dataset's solution shades (its L/I/T/S letters are pzc's '#')."""
    data = json.loads(LITS.read_text())["data"]
    solved = {k: e for k, e in data.items() if e["solution"].strip()}
    irregular = [k for k, e in solved.items() if "@" in e["problem"]]
    big = [k for k in solved if k.endswith(("_31x45", "_40x57"))]
    rest = sorted(set(solved) - set(irregular) - set(big))
    keys = irregular + big + random.Random(28).sample(rest, 30)
    assert len(irregular) >= 6 and len(big) >= 7
    run, out = solve_sample("lits", LITS, keys, tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    for key in keys:
        record = out[key]
        assert record["status"] == "solved" and record["verified"], (key, record["status"])
        rows = [line.split() for line in data[key]["solution"].strip().splitlines()[1:]]
        assert record["grid"] == ["".join("#" if t in "LITS" else "." for t in row)
                                  for row in rows], key


@reads_corpus(LITS)
def test_lits_malformed_entries_are_refused_with_their_place(tmp_path):
    """The dataset's entries whose header promises more rows than follow (and
    that have no solution) end in a located error, not an answer."""
    data = json.loads(LITS.read_text())["data"]
    broken = sorted(k for k, e in data.items() if not e["solution"].strip())
    assert broken
    run, out = solve_sample("lits", LITS, broken, tmp_path)
    assert run.returncode == 2
    for key in broken:
        assert out[key]["status"] == "error", key
        error = out[key]["error"]
        assert "rows" in error["message"] and error["line"] >= 1, error
