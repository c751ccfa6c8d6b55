"""Akari, Hitori, Kurodoko and Kurotto against brute force on small boards.

For each genre, seeded random boards of 2x2..4x4 (clues planted from a random
answer, some dropped or changed, so that boards with no answer, one answer and
several answers all occur) are written into one file; `pzc count --show`
lists every answer of each, and the set of printed boards must equal the set
the brute force below finds by trying every shading (every placement of
lights) and applying the genre's rules directly.  `pzc unique` must agree.
The rules are those puzz.link's checker applies (pzprjs AnsCheck), including
its "at least one shaded cell" for Hitori, Kurodoko and Kurotto.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import CORPUS, run_cli
from pzc import api
from shaded import (akari_board, akari_seen, apart, blocks, connected, hitori_board,
                    kurodoko_board, kurotto_board, kurotto_sum, lines_of, neighbours, printed,
                    run_genre, shadings, sizes_of, view)


def picture(grid, marked, mark):
    """The rows pzc prints: `mark` on marked cells, else the clue or '.'."""
    return printed([[mark if (r, c) in marked else ("." if t in ("-", ".") else str(t))
                     for c, t in enumerate(row)] for r, row in enumerate(grid)])


# ---------------------------------------------------------------- Akari

def akari_ok(grid, lights):
    h, w = len(grid), len(grid[0])
    white = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
    return (all(x in white for x in lights)
            and not any(y in lights for x in lights for y in akari_seen(grid, *x))
            and all(x in lights or any(y in lights for y in akari_seen(grid, *x)) for x in white)
            and all(grid[r][c] in ("-", "x")
                    or sum(y in lights for y in neighbours(h, w, r, c)) == grid[r][c]
                    for r in range(h) for c in range(w)))


def akari_brute(grid):
    h, w = len(grid), len(grid[0])
    white = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
    return {picture(grid, lights, "*") for lights in shadings(white) if akari_ok(grid, lights)}


@pytest.mark.slow
def test_akari_against_brute_force():
    rng = random.Random(12)
    grids = [akari_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("akari", grids, akari_brute)


# ---------------------------------------------------------------- Hitori

def hitori_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not shaded or not apart(shaded, h, w):
        return False
    lines = lines_of(h, w)
    for line in lines:
        nums = [grid[r][c] for r, c in line if (r, c) not in shaded and grid[r][c] != "-"]
        if len(nums) != len(set(nums)):
            return False
    white = [(r, c) for r in range(h) for c in range(w) if (r, c) not in shaded]
    return connected(white, h, w)


def hitori_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    return {picture(grid, s, "#") for s in shadings(cells) if hitori_ok(grid, s)}


@pytest.mark.slow
def test_hitori_against_brute_force():
    rng = random.Random(7)
    grids = [hitori_board(rng, h, w) for h, w in sizes_of(rng, 30, 2, 4)]
    run_genre("hitori", grids, hitori_brute)


# ---------------------------------------------------------------- Kurodoko

def kurodoko_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not shaded or not apart(shaded, h, w):
        return False
    for r in range(h):
        for c in range(w):
            t = grid[r][c]
            if t != "-" and ((r, c) in shaded or t != "?" and view(h, w, shaded, r, c) != t):
                return False
    return connected([(r, c) for r in range(h) for c in range(w) if (r, c) not in shaded], h, w)


def kurodoko_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    return {picture(grid, s, "#") for s in shadings(cells) if kurodoko_ok(grid, s)}


@pytest.mark.slow
def test_kurodoko_against_brute_force():
    rng = random.Random(3)
    grids = [kurodoko_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("kurodoko", grids, kurodoko_brute)


# ---------------------------------------------------------------- Kurotto

def kurotto_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not shaded:
        return False
    groups = blocks(shaded, h, w)
    for r in range(h):
        for c in range(w):
            t = grid[r][c]
            if t != "-" and ((r, c) in shaded or t != "?" and kurotto_sum(h, w, groups, r, c) != t):
                return False
    return True


def kurotto_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
    return {picture(grid, s, "#") for s in shadings(cells) if kurotto_ok(grid, s)}


@pytest.mark.slow
def test_kurotto_against_brute_force():
    rng = random.Random(5)
    grids = [kurotto_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("kurotto", grids, kurotto_brute)


# ---------------------------------------------------------------- datasets

PUZZLEKIT = CORPUS / "other" / "puzzlekit"


@pytest.mark.corpus
@pytest.mark.parametrize("genre,name,ok,mark", [
    ("akari", "Akari", akari_ok, "o"), ("hitori", "Hitori", hitori_ok, "x")])
def test_puzzlekit_sample_against_the_datasets_answers(genre, name, ok, mark):
    """Twenty entries of the dataset (seeded, and its largest), read from the
    dataset file itself: pzc's answer keeps the rules (checked here) and is
    the dataset's own answer."""
    path = PUZZLEKIT / f"{name}_dataset.json"
    if not path.is_file():
        pytest.skip(f"needs {path}")
    data = json.loads(path.read_text())["data"]
    spec = api.load_spec(genre)
    insts = api.load_instances(spec, str(path))
    assert len(insts) == len(data)
    keys = list(data)
    largest = max(range(len(keys)), key=lambda i: len(data[keys[i]]["problem"]))
    chosen = random.Random(12).sample(range(len(keys)), 19) + [largest]
    for i in chosen:
        key = keys[i]
        assert insts[i].name.endswith("#" + key)
        grid = [[int(t) if t.isdigit() else t for t in line.split()]
                for line in data[key]["problem"].strip().splitlines()[1:]]
        res = api.solve(spec, insts[i])
        assert res.status == "solved" and res.verified, key
        marked = {(r, c) for r, row in enumerate(res.grid)
                  for c, t in enumerate(row.split() if " " in row else row) if t in "#*"}
        assert ok(grid, marked), key
        answer = {(r, c) for r, line in enumerate(data[key]["solution"].strip().splitlines()[1:])
                  for c, t in enumerate(line.split()) if t == mark}
        assert marked == answer, key


# ---------------------------------------------------------------- examples

@pytest.mark.parametrize("spec", ["akari", "hitori", "kurodoko", "kurotto",
                                  "norinori", "heyawake", "shimaguni", "lits"])
def test_examples_are_unique(spec, examples):
    files = sorted((examples / spec).iterdir())
    assert files
    for path in files:
        run = run_cli("unique", spec, path, "--format", "json")
        assert run.returncode == 0, run.stderr
        assert all(json.loads(line)["unique"] for line in run.stdout.splitlines())
