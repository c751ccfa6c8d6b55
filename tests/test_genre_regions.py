"""Norinori, Heyawake, Shimaguni and LITS against brute force on small boards.

As in test_genre_shading.py: seeded random boards of 2x2..5x5 cut into random
regions (clues planted from a random shading, some dropped or changed) go into
one file per genre; `pzc count --show` must list exactly the answers that the
brute force below finds, and `pzc unique` must agree.  The brute force tries
every shading that a region-local rule leaves possible (two cells per
Norinori region, four per LITS region, no two neighbours in Heyawake, any
subset per Shimaguni region) and checks every rule of the genre on it, as
puzz.link's checker (pzprjs AnsCheck) states them.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from conftest import run_cli
from shaded import (apart, blocks, connected, heyawake_board, layered_text, lines_of, neighbours,
                    planted_lits, printed, random_regions, region_lists, run_genre, shape,
                    shimaguni_board)


def picture(h, w, shaded, clues=None):
    return printed([["#" if (r, c) in shaded else
                     ("." if clues is None or clues[r][c] == "-" else str(clues[r][c]))
                     for c in range(w)] for r in range(h)])


def by_region(regions, choices):
    """Every shading made by picking one of choices(g) in each region g."""
    for pick in itertools.product(*[list(choices(g)) for g in regions]):
        yield set().union(*pick)


# ---------------------------------------------------------------- Norinori

def norinori_brute(board):
    grid = board[1]
    h, w = len(grid), len(grid[0])
    regions = region_lists(grid)
    found = set()
    for shaded in by_region(regions, lambda g: map(set, itertools.combinations(g, 2))):
        groups = blocks(shaded, h, w)
        if all(len(groups[x]) == 2 for x in shaded):
            found.add(picture(h, w, shaded))
    return found


@pytest.mark.slow
def test_norinori_against_brute_force():
    rng = random.Random(21)
    grids = []
    for _ in range(40):
        h, w = rng.randint(2, 5), rng.randint(2, 5)
        grids.append((None, random_regions(rng, h, w, max(1, h * w // rng.randint(3, 5)))))
    run_genre("norinori", grids, norinori_brute, layered_text)


# ---------------------------------------------------------------- LITS

def lits_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not connected(shaded, h, w):
        return False
    if any(all((r + i, c + j) in shaded for i in (0, 1) for j in (0, 1))
           for r in range(h - 1) for c in range(w - 1)):
        return False
    kind = {}
    for g in region_lists(grid):
        mine = [x for x in g if x in shaded]
        for x in mine:
            kind[x] = shape(mine)
    for (r, c) in shaded:
        for y in neighbours(h, w, r, c):
            if y in shaded and grid[r][c] != grid[y[0]][y[1]] and kind[(r, c)] == kind[y]:
                return False
    return True


def lits_brute(board):
    grid = board[1]
    h, w = len(grid), len(grid[0])
    regions = region_lists(grid)

    def tetrominoes(g):
        return [set(q) for q in itertools.combinations(g, 4) if connected(q, h, w)]
    return {picture(h, w, s) for s in by_region(regions, tetrominoes) if lits_ok(grid, s)}


@pytest.mark.slow
def test_lits_against_brute_force():
    # (seed 4 holds a board whose only answer has an S tetromino whose bounding
    # box leaves its region: a spec placing shapes by a corner outside them fails)
    rng = random.Random(4)
    grids = []
    while len(grids) < 40:
        h, w = rng.randint(3, 5), rng.randint(4, 5)
        ids = random_regions(rng, h, w, max(1, h * w // rng.choice([4, 5, 6])))
        if all(len(g) >= 4 for g in region_lists(ids)):
            grids.append((None, ids))
    run_genre("lits", grids, lits_brute, layered_text)


@pytest.mark.slow
def test_lits_planted_answers_are_found(tmp_path):
    """On 6x6 boards grown around a planted answer (too big for the brute
    force), pzc finds answers, and every one it lists (up to 20) keeps the rules."""
    rng = random.Random(6)
    boards = [planted_lits(rng, 6, 6, 6) for _ in range(12)]
    path = tmp_path / "planted.txt"
    path.write_text("".join(layered_text((None, ids)) for ids, _ in boards))
    run = run_cli("count", "lits", path, "--show", "--limit", "20", "--format", "json")
    assert run.returncode == 0, run.stderr
    for (ids, planted), line in zip(boards, run.stdout.splitlines()):
        got = json.loads(line)
        assert got["count"] >= 1, ids
        for rows in got["solutions"]:
            shaded = {(r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == "#"}
            assert lits_ok(ids, shaded)
            assert all(sum(x in shaded for x in g) == 4 for g in region_lists(ids))
        listed = {tuple(rows) for rows in got["solutions"]}
        assert picture(6, 6, planted) in listed or got["count"] == 20


# ---------------------------------------------------------------- Heyawake

def heyawake_ok(clues, ids, shaded):
    h, w = len(ids), len(ids[0])
    if not shaded or not apart(shaded, h, w):
        return False
    for g in region_lists(ids):
        n = sum(x in shaded for x in g)
        if any(clues[r][c] not in ("-", "?", n) for r, c in g):
            return False
    lines = lines_of(h, w)
    for line in lines:
        borders = 0
        for a, b in zip(line, line[1:]):
            if a in shaded or b in shaded:
                borders = 0
            elif ids[a[0]][a[1]] != ids[b[0]][b[1]]:
                borders += 1
                if borders >= 2:
                    return False
    return connected([(r, c) for r in range(h) for c in range(w) if (r, c) not in shaded], h, w)


def independent_sets(h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]

    def grow(i, chosen):
        if i == len(cells):
            yield set(chosen)
            return
        yield from grow(i + 1, chosen)
        if not any(y in chosen for y in neighbours(h, w, *cells[i])):
            chosen.append(cells[i])
            yield from grow(i + 1, chosen)
            chosen.pop()
    return grow(0, [])


def heyawake_brute(board):
    clues, ids = board
    h, w = len(ids), len(ids[0])
    return {picture(h, w, s, clues) for s in independent_sets(h, w) if heyawake_ok(clues, ids, s)}


@pytest.mark.slow
def test_heyawake_against_brute_force():
    rng = random.Random(8)
    grids = [heyawake_board(rng, rng.randint(2, 4), rng.randint(2, 5)) for _ in range(40)]
    run_genre("heyawake", grids, heyawake_brute, layered_text)


# ---------------------------------------------------------------- Shimaguni

def shimaguni_ok(clues, ids, shaded):
    h, w = len(ids), len(ids[0])
    count = {}
    for g in region_lists(ids):
        mine = [x for x in g if x in shaded]
        if not connected(mine, h, w):
            return False
        numbers = [clues[r][c] for r, c in g if clues[r][c] != "-"]
        if any(n not in ("?", len(mine)) for n in numbers) or not mine and 0 not in numbers:
            return False
        count[ids[g[0][0]][g[0][1]]] = len(mine)
    for r in range(h):
        for c in range(w):
            for y, x in neighbours(h, w, r, c):
                a, b = ids[r][c], ids[y][x]
                if a != b and ((r, c) in shaded and (y, x) in shaded or count[a] == count[b] > 0):
                    return False
    return True


def shimaguni_brute(board):
    clues, ids = board
    h, w = len(ids), len(ids[0])

    def subsets(g):
        return [set(q) for k in range(len(g) + 1) for q in itertools.combinations(g, k)]
    return {picture(h, w, s, clues) for s in by_region(region_lists(ids), subsets)
            if shimaguni_ok(clues, ids, s)}


@pytest.mark.slow
def test_shimaguni_against_brute_force():
    rng = random.Random(2)
    grids = [shimaguni_board(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(40)]
    run_genre("shimaguni", grids, shimaguni_brute, layered_text)
