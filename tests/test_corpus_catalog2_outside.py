"""The puzzlekit sets of the genres with clues outside the grid
(../shared/corpus/catalog2-train, see its SOURCES.md), each solved from its
own file with one command: every answer verified, and equal to the dataset's
solution (its tokens converted here).  Skipped where the corpus is absent.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import CORPUS, reads_corpus, run_cli
from pzc import api

SETS = CORPUS / "catalog2-train"


def dataset(name):
    return json.loads((SETS / f"{name}_dataset.json").read_text())["data"]


def solve_all(spec, name, *extra):
    """`pzc solve SPEC FILE.json --format json`: {key: record}."""
    path = SETS / f"{name}_dataset.json"
    run = run_cli("solve", spec, path, "--format", "json", "--quiet", "--timeout", "10", *extra,
                  timeout=3600)
    assert run.returncode == 0, run.stderr[-2000:]
    out = {}
    for line in run.stdout.splitlines():
        record = json.loads(line)
        out[record["instance"].rpartition("#")[2]] = record
    return out


def grid_of(record):
    return [row.split() if " " in row else list(row) for row in record["grid"]]


def solution_of(entry):
    """The dataset's solution as rows of tokens (its header line left out)."""
    return [line.split() for line in entry["solution"].strip().splitlines()[1:]]


# Sets solved whole, with how the dataset's solution tokens print in pzc's
# answer (any other token prints as itself)
WHOLE = [("tents", "Tent", {"o": "*", "-": "."}),          # tents '*', trees 'x'
         ("battleship", "Battleship", {"-": "."}),         # the ships' parts as they are
         ("snake", "Snake", {"x": "#", "-": "."})]


def whole(spec, name, tokens):
    path = SETS / f"{name}_dataset.json"
    return pytest.param(spec, name, tokens, id=spec, marks=[
        pytest.mark.corpus, pytest.mark.skipif(not path.exists(), reason=f"{path} is absent")])


@pytest.mark.slow
@pytest.mark.parametrize("spec, name, tokens", [whole(*w) for w in WHOLE])
def test_set_solves_to_the_datasets_answers(spec, name, tokens):
    data = dataset(name)
    got = solve_all(spec, name)
    assert set(got) == set(data)
    for key, entry in data.items():
        record = got[key]
        assert record["status"] == "solved" and record["verified"], key
        if entry.get("solution"):
            want = [[tokens.get(t, t) for t in row] for row in solution_of(entry)]
            assert grid_of(record) == want, key


# the five slowest of the whole set on pzc's benchmark run (docs/benchmarks.md)
NONOGRAM_SLOWEST = ["583_30x30", "715_30x40", "1839_30x30", "1100_30x30", "1700_30x30"]


@pytest.mark.slow
@reads_corpus(SETS / "Nonogram_dataset.json")
def test_nonogram_sample_solves_to_the_datasets_answers():
    """A seeded sample of 200 of the 2338 puzzles and the slowest five, read
    from the dataset file itself (the benchmark runs them all)."""
    data = dataset("Nonogram")
    spec = api.load_spec("nonogram")
    insts = {inst.name.rpartition("#")[2]: inst
             for inst in api.load_instances(spec, str(SETS / "Nonogram_dataset.json"))}
    assert set(insts) == set(data)
    keys = random.Random(27).sample(sorted(data), 200) + NONOGRAM_SLOWEST
    for key in keys:
        res = api.solve(spec, insts[key], timeout=10)
        assert res.status == "solved" and res.verified, key
        if data[key].get("solution"):
            want = [["#" if t == "x" else "." for t in row] for row in solution_of(data[key])]
            assert [list(row) for row in res.grid] == want, key
