"""The loop genres of issue 27 on the puzzlekit sets in
../shared/corpus/catalog2-train (janko.at's puzzles, read in place, never
copied): `pzc solve GENRE FILE.json` solves every entry from the dataset file
itself, each answer verified, within 10 s, and equal to the dataset's own
solution.  The dataset writes a cell's line as the compass points it leaves
by ("se", "ew"; in any order), '-' for no line and 'x' for a shaded cell;
they are turned into pzc's answer tokens here."""

from __future__ import annotations

import json

import pytest

from conftest import CORPUS
from genre_tools import run_json, tokens

SETS = CORPUS / "catalog2-train"
GENRES = {"geradeweg": "Geradeweg", "simpleloop": "SimpleLoop", "koburin": "Koburin",
          "yajilin_regions": "RegionalYajilin", "doubleback": "DoubleBack"}
# the genres whose answers show a clue where no line goes (the dataset: '-')
SHOW_CLUES = {"koburin"}

# a compass point of the dataset -> pzc's direction (up, down, left, right)
COMPASS = {"n": 0, "s": 1, "w": 2, "e": 3}
# a line through a cell by the sides it leaves from (up, down, left, right)
LINE = {(0, 0, 1, 1): "─", (1, 1, 0, 0): "│", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐",
        (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (0, 0, 0, 0): "."}


def answer_token(cell: str) -> str:
    """A cell of the dataset's solution as pzc prints it."""
    if cell == "x":
        return "#"
    if cell == "-":
        return "."
    sides = [0, 0, 0, 0]
    for point in cell:
        sides[COMPASS[point]] = 1
    return LINE[tuple(sides)]


def grid(text: str) -> list:
    """The first grid of a dataset text ("R C", then R rows) as rows of
    tokens; what follows the R rows is left out (SimpleLoop's 4_8x8 has a
    stray "[solution]" line after its solution)."""
    head, *lines = text.strip().splitlines()
    return [line.split() for line in lines[:int(head.split()[0])]]


def dataset_answer(genre, entry) -> list:
    """The dataset's solution as pzc prints it: where no line goes on a
    clue cell, pzc shows the clue in the genres of SHOW_CLUES."""
    clues = grid(entry["problem"])
    return [[clues[r][c] if t == "-" and clues[r][c] != "-" and genre in SHOW_CLUES
             else answer_token(t) for c, t in enumerate(row)]
            for r, row in enumerate(grid(entry["solution"]))]


def solve_set(genre):
    path = SETS / f"{GENRES[genre]}_dataset.json"
    data = json.loads(path.read_text())["data"]
    results = run_json("solve", genre, str(path), "--timeout", "10")
    assert [r["instance"].rsplit("#", 1)[1] for r in results] == list(data)
    return data, results


def dataset(genre):
    """A genre's set as a test parameter: marked "corpus", skipped where absent."""
    path = SETS / f"{GENRES[genre]}_dataset.json"
    return pytest.param(genre, id=genre, marks=[
        pytest.mark.corpus, pytest.mark.skipif(not path.exists(), reason=f"{path} is absent")])


@pytest.mark.slow
@pytest.mark.parametrize("genre", [dataset(g) for g in sorted(GENRES)])
def test_every_entry_is_solved_and_is_the_datasets_answer(genre):
    data, results = solve_set(genre)
    differ = []
    for r in results:
        key = r["instance"].rsplit("#", 1)[1]
        assert r["status"] == "solved" and r["verified"], r
        assert r["stats"]["compile_s"] + r["stats"]["solve_s"] < 10, key
        if [tokens(row) for row in r["grid"]] != dataset_answer(genre, data[key]):
            differ.append(key)
    assert not differ, differ
