"""The shading genres of issue 27 on their puzzlekit datasets
(../shared/corpus/catalog2-train, see its SOURCES.md): every entry of a set,
read from the dataset file itself, is solved within 10 s, its answer
verified, and the cells it shades are the ones the dataset's solution marks
'x'.  Skipped where the folder is absent."""

from __future__ import annotations

import json

import pytest

from conftest import CORPUS, reads_corpus
from genre_tools import tokens
from pzc import api

CATALOG = CORPUS / "catalog2-train"


def shaded_cells(rows, mark):
    return {(r, c) for r, row in enumerate(rows) for c, t in enumerate(tokens(row)) if t == mark}


def check_dataset(genre, name):
    """Solve every entry of NAME_dataset.json with the built-in spec GENRE;
    the keys whose answer is not the dataset's solution."""
    path = CATALOG / f"{name}_dataset.json"
    data = json.loads(path.read_text())["data"]
    spec = api.load_spec(genre)
    insts = api.load_instances(spec, str(path))
    assert len(insts) == len(data)
    differ = []
    for inst, (key, entry) in zip(insts, data.items()):
        assert inst.name.endswith("#" + key)
        res = api.solve(spec, inst, timeout=10)
        assert res.status == "solved" and res.verified, (key, res.status)
        want = shaded_cells(entry["solution"].strip().splitlines()[1:], "x")
        if shaded_cells(res.grid, "#") != want:
            differ.append(key)
    return differ


@pytest.mark.slow
@reads_corpus(CATALOG / "Minesweeper_dataset.json")
def test_minesweeper_dataset():
    # the header's third number is the count of mines on the board, and '#'
    # marks holes; both are read by the spec (param mines, clue '#')
    assert check_dataset("mines", "Minesweeper") == []


@pytest.mark.slow
@reads_corpus(CATALOG / "CanalView_dataset.json")
def test_canal_view_dataset():
    assert check_dataset("canal", "CanalView") == []


@pytest.mark.slow
@reads_corpus(CATALOG / "Aqre_dataset.json")
def test_aqre_dataset():
    assert check_dataset("aqre", "Aqre") == []


@pytest.mark.slow
@reads_corpus(CATALOG / "Nurimisaki_dataset.json")
def test_nurimisaki_dataset():
    assert check_dataset("nurimisaki", "Nurimisaki") == []
