"""Nawabari, Tatamibari and Shugaku: genres whose answers are issue 27's
regions (one label a cell) and futons, tested as tests/test_genre_marks.py
tests the others.

For each genre, seeded random boards of 2x2..4x4 (clues planted from a
random answer, some dropped or changed, so that boards with no answer, one
answer and several answers all occur) are written into one file; `pzc count
--show` lists every answer of each, and the set of printed boards must equal
the set the brute force below finds by trying every division (or filling)
and applying the genre's rules as puzz.link's checker (pzprjs AnsCheck)
states them; `pzc unique` must agree.  Then puzz.link's own engine judges:
pzc's answers, set on the boards pzprjs opens from the URLs `pzc convert`
writes, pass its check(), and an answer with one cell changed so that the
brute force refuses it fails.  Every example is unique and goes through a
puzz.link URL and a pzprv3 file unchanged.
"""

from __future__ import annotations

import random

import pytest

import pzprjs
from genre_tools import examples_unique, rejects
from shaded import board_text, printed, run_genre, sizes_of
import test_genre_marks as marks
from test_genre_marks import judged_by_pzprjs, rows_of


def divisions(grid, fits):
    """Every division of the board of ``grid`` into rectangles (frozensets
    of cells) each holding exactly one clue and such that ``fits(box, clue
    cell)``.  (A rectangle with two clues is not widened further.)"""
    h, w = len(grid), len(grid[0])
    clues = set(clue_cells(grid))
    out = []

    def go(covered, rects):
        free = [(r, c) for r in range(h) for c in range(w) if (r, c) not in covered]
        if not free:
            out.append(rects)
            return
        t, l = free[0]
        for b in range(t, h):
            for k in range(l, w):
                box = frozenset((r, c) for r in range(t, b + 1) for c in range(l, k + 1))
                inside = box & clues
                if box & covered or len(inside) > 1:
                    break
                if inside and fits(box, next(iter(inside))):
                    go(covered | box, rects + [box])
    go(frozenset(), [])
    return out


def clue_cells(grid):
    """The cells with a clue; '.' is a blank (in Tatamibari '-' is a mark)."""
    return [(r, c) for r, row in enumerate(grid) for c, t in enumerate(row) if t != "."]


def labelled(grid, rects):
    """The printed board: each cell the index of its rectangle's clue in reading order."""
    label = {k: str(i) for i, k in enumerate(clue_cells(grid))}
    cell_label = {x: label[k] for box in rects for k in box if k in label for x in box}
    return printed([[cell_label[(r, c)] for c in range(len(grid[0]))] for r in range(len(grid))])


def extent(box):
    """(top, left, bottom, right) of a rectangle."""
    return (min(r for r, _ in box), min(c for _, c in box),
            max(r for r, _ in box), max(c for _, c in box))


def random_division(rng, h, w):
    """A random division into rectangles: at each free cell in reading
    order, a random rectangle from it over free cells."""
    owner, boxes = set(), []
    for t in range(h):
        for l in range(w):
            if (t, l) in owner:
                continue
            choices = []
            for b in range(t, h):
                for k in range(l, w):
                    box = frozenset((r, c) for r in range(t, b + 1) for c in range(l, k + 1))
                    if box & owner:
                        break
                    choices.append(box)
            boxes.append(rng.choice(choices))
            owner |= boxes[-1]
    return boxes


def planted(rng, h, w, clue_of):
    """Clues from a random division into rectangles: ``clue_of(cell, box)``
    in a random cell of each; then maybe a clue dropped, added or changed."""
    grid = [["."] * w for _ in range(h)]
    for box in random_division(rng, h, w):
        r, c = rng.choice(sorted(box))
        grid[r][c] = clue_of((r, c), box)
    fix = rng.random()
    if fix < 0.25:
        r, c = rng.randrange(h), rng.randrange(w)
        grid[r][c] = "." if grid[r][c] != "." else clue_of((r, c), {(r, c)})
    elif fix < 0.4:
        r, c = rng.choice(clue_cells(grid))
        grid[r][c] = clue_of((r, c), rng.choice(random_division(rng, h, w)))
    if not clue_cells(grid):
        grid[0][0] = clue_of((0, 0), {(0, 0)})
    return grid


def border_ops(grid, rows):
    """pzprjs's steps: a border between neighbouring cells of different labels."""
    labels = rows_of(rows)
    h, w = len(labels), len(labels[0])
    return ([pzprjs.border((r, c), (r, c + 1), "setQans", 1)
             for r in range(h) for c in range(w - 1) if labels[r][c] != labels[r][c + 1]]
            + [pzprjs.border((r, c), (r + 1, c), "setQans", 1)
               for r in range(h - 1) for c in range(w) if labels[r][c] != labels[r + 1][c]])


LABELS = [str(i) for i in range(16)]


def unclued(board, cell):
    return board[cell[0]][cell[1]] == "."


# ---------------------------------------------------------------- Nawabari

def walls(cell, box):
    """How many sides of ``cell`` lie on the border of the rectangle ``box``."""
    t, l, b, r = extent(box)
    return (cell[0] == t) + (cell[0] == b) + (cell[1] == l) + (cell[1] == r)


def nawabari_brute(grid):
    def fits(box, k):
        return grid[k[0]][k[1]] == "?" or int(grid[k[0]][k[1]]) == walls(k, box)
    return {labelled(grid, rects) for rects in divisions(grid, fits)}


def nawabari_board(rng, h, w):
    def clue(cell, box):
        return "?" if rng.random() < 0.1 else str(walls(cell, box))
    return planted(rng, h, w, clue)


def test_nawabari_against_brute_force():
    rng = random.Random(11)
    grids = [nawabari_board(rng, h, w) for h, w in sizes_of(rng, 30, 2, 4)]
    run_genre("nawabari", grids, nawabari_brute)


def nawabari_ops(grid, rows):
    """The borders, and each number on the edge of the board lowered by its
    sides on the edge: the npm package pzpr 0.10.1 does not count the edge
    as a border (robx/pzprjs issue 38, fixed in 2019 after that release;
    today's puzz.link counts it, as pzc does)."""
    h, w = len(grid), len(grid[0])
    edges = [(r, c, (r == 0) + (r == h - 1) + (c == 0) + (c == w - 1))
             for r, c in clue_cells(grid) if grid[r][c] != "?"]
    return border_ops(grid, rows) + [pzprjs.cell(r, c, "setQnum", int(grid[r][c]) - n)
                                     for r, c, n in edges if n]


def test_nawabari_answers_pass_pzprjs(tmp_path):
    rng = random.Random(12)
    grids = [nawabari_board(rng, h, w) for h, w in sizes_of(rng, 14, 2, 4)]
    judged_by_pzprjs(tmp_path, "nawabari", grids, board_text, nawabari_brute, nawabari_ops, LABELS,
                     unclued)


def test_nawabari_bad_instances_are_located(run_pzc, write):
    rejects(run_pzc, write, "nawabari", "2 2\n- .\n- 5\n", "bad.txt:3:3: error: '5' is not allowed")
    rejects(run_pzc, write, "nawabari", "2 2\n- -\n- -\n", "bad.txt:1:1: error: a Nawabari needs")
    url = run_pzc("solve", "nawabari", "https://puzz.link/p?nawabari/3/3/7h")
    assert url.returncode == 2 and ":1:34: error: '7' is not allowed" in url.stderr, url.stderr


# ---------------------------------------------------------------- Tatamibari

SHAPES = {"?": lambda h, w: True, "+": lambda h, w: h == w, "-": lambda h, w: w > h,
          "|": lambda h, w: h > w}


def four_meet(rects, h, w):
    """Some corner inside the board is a corner of four rectangles."""
    owner = {x: i for i, box in enumerate(rects) for x in box}
    return any(len({owner[(y + i, x + j)] for i in (0, 1) for j in (0, 1)}) == 4
               for y in range(h - 1) for x in range(w - 1))


def tatamibari_brute(grid):
    def fits(box, k):
        t, l, b, r = extent(box)
        return SHAPES[grid[k[0]][k[1]]](b - t + 1, r - l + 1)
    h, w = len(grid), len(grid[0])
    return {labelled(grid, rects) for rects in divisions(grid, fits)
            if not four_meet(rects, h, w)}


def tatamibari_board(rng, h, w):
    def mark(cell, box):
        t, l, b, r = extent(box)
        return "?" if rng.random() < 0.1 else next(
            m for m in "+-|" if SHAPES[m](b - t + 1, r - l + 1))
    return planted(rng, h, w, mark)


def test_tatamibari_against_brute_force():
    rng = random.Random(21)
    grids = [tatamibari_board(rng, h, w) for h, w in sizes_of(rng, 30, 2, 4)]
    run_genre("tatamibari", grids, tatamibari_brute)


def test_tatamibari_answers_pass_pzprjs(tmp_path):
    rng = random.Random(22)
    grids = [tatamibari_board(rng, h, w) for h, w in sizes_of(rng, 14, 2, 4)]
    judged_by_pzprjs(tmp_path, "tatamibari", grids, board_text, tatamibari_brute, border_ops,
                     LABELS, unclued)


def test_tatamibari_bad_instances_are_located(run_pzc, write):
    rejects(run_pzc, write, "tatamibari", "2 2\n. +\nx .\n", "bad.txt:3:1: error: 'x' is not allowed")
    url = run_pzc("solve", "tatamibari", "https://puzz.link/p?tatamibari/2/2/4i")
    assert url.returncode == 2 and ":1:36: error: '4' is not allowed" in url.stderr, url.stderr


# ---------------------------------------------------------------- every genre

GENRES = ["nawabari", "tatamibari"]


@pytest.mark.parametrize("genre", GENRES)
def test_examples_are_unique(genre, run_pzc):
    examples_unique(run_pzc, genre)


@pytest.mark.slow
@pytest.mark.parametrize("genre", GENRES)
def test_examples_go_through_urls_and_files_unchanged(genre, tmp_path):
    marks.test_examples_go_through_urls_and_files_unchanged(genre, tmp_path)
