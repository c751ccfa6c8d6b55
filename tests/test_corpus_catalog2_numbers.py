"""The catalog2-train puzzle sets of the number-placement genres (issue 27),
read from the dataset files themselves (../shared/corpus/catalog2-train,
skipped where absent): one `pzc solve` per set solves every entry, each answer
verified and equal to the dataset's own solution."""

from __future__ import annotations

import json

from conftest import CORPUS, reads_corpus
from genre_tools import run_json, tokens

CATALOG = CORPUS / "catalog2-train"
PUTTERIA = CATALOG / "Putteria_dataset.json"


def solved_grids(spec, path):
    """{entry key: pzc's answer as token rows} of one `pzc solve` over the file."""
    out = {}
    for r in run_json("solve", spec, path, "--timeout", "10"):
        assert r["status"] == "solved" and r["verified"], r
        out[r["instance"].rsplit("#", 1)[1]] = [tokens(row) for row in r["grid"]]
    return out


@reads_corpus(PUTTERIA)
def test_putteria_set_is_the_datasets_answers():
    """janko.at's 60 Putterias; the dataset writes an empty cell '-'."""
    data = json.loads(PUTTERIA.read_text())["data"]
    got = solved_grids("putteria", PUTTERIA)
    assert set(got) == set(data)
    for key, entry in data.items():
        want = [["." if t == "-" else t for t in line.split()]
                for line in entry["solution"].strip().splitlines()[1:]]
        assert got[key] == want, key
