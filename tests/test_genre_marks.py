"""Yin-Yang, Nondango, Hakoiri, Juosan and Shakashaka: the genres whose
answers are issue 27's new kinds of circles, marks, bars and triangles
(Shugaku, Tatamibari and Nawabari: tests/test_genre_marks2.py).

For each genre, seeded random boards of 2x2..4x4 (or 5x5; clues planted from
a random answer, some dropped or changed, so that boards with no answer, one
answer and several answers all occur) are written into one file; `pzc count
--show` lists every answer of each, and the set of printed boards must equal
the set the brute force below finds by trying every filling and applying the
genre's rules as puzz.link's checker (pzprjs AnsCheck) states them; `pzc
unique` must agree.  Then puzz.link's own engine judges: the boards, written
as URLs by `pzc convert`, are opened in pzprjs, each of pzc's answers is set
on its board and must pass check(), and the answer with one cell changed so
that the brute force refuses it must fail.  And every example is unique and
goes through a puzz.link URL and a pzprv3 file unchanged.
"""

from __future__ import annotations

import itertools
import random

import pytest

import pzprjs
from genre_tools import examples_unique
from marks_tools import judged_by_pzprjs, rows_of, urls_and_files_unchanged
from shaded import (board_text, connected, layered_text, neighbours, printed, random_regions,
                    region_lists, run_genre, sizes_of)


def cells_of(h, w):
    return [(r, c) for r in range(h) for c in range(w)]


def squares(h, w):
    """The cells of every 2 x 2 square."""
    return [[(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            for r in range(h - 1) for c in range(w - 1)]


def fillings(cells, tokens):
    """Every assignment of one of ``tokens`` to each of ``cells``."""
    for choice in itertools.product(tokens, repeat=len(cells)):
        yield dict(zip(cells, choice))


def grid_of(h, w, answer):
    return printed([[answer[(r, c)] for c in range(w)] for r in range(h)])


# ---------------------------------------------------------------- Yin-Yang

def yinyang_brute(grid):
    h, w = len(grid), len(grid[0])
    free = [x for x in cells_of(h, w) if grid[x[0]][x[1]] == "-"]
    out = set()
    for fill in fillings(free, "#."):
        colour = {(r, c): fill.get((r, c)) or ("#" if grid[r][c] == "b" else ".")
                  for r, c in cells_of(h, w)}
        black = [x for x in colour if colour[x] == "#"]
        white = [x for x in colour if colour[x] == "."]
        if (connected(black, h, w) and connected(white, h, w)
                and all(len({colour[x] for x in s}) == 2 for s in squares(h, w))):
            out.add(grid_of(h, w, colour))
    return out


def yinyang_board(rng, h, w):
    """Clues from a random colouring (often not a valid answer): some cells given."""
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells_of(h, w):
        if rng.random() < 0.35:
            grid[r][c] = rng.choice("bw")
    return grid


def test_yinyang_against_brute_force():
    rng = random.Random(4)
    grids = [yinyang_board(rng, h, w) for h, w in sizes_of(rng, 30)]
    run_genre("yinyang", grids, yinyang_brute)


def yinyang_ops(grid, rows):
    return [pzprjs.cell(r, c, "setAnum", 2 if t == "#" else 1)
            for r, row in enumerate(rows_of(rows)) for c, t in enumerate(row)
            if grid[r][c] == "-"]


def test_yinyang_answers_pass_pzprjs(tmp_path):
    rng = random.Random(8)
    grids = [yinyang_board(rng, h, w) for h, w in sizes_of(rng, 12, 3, 4)]
    judged_by_pzprjs(tmp_path, "yinyang", grids, board_text, yinyang_brute, yinyang_ops, "#.")


# ---------------------------------------------------------------- Nondango

LINES3 = [(0, 1), (1, 0), (1, 1), (1, -1)]


def nondango_brute(board):
    circles, ids = board
    h, w = len(ids), len(ids[0])
    spots = [x for x in cells_of(h, w) if circles[x[0]][x[1]] == "o"]
    rooms = region_lists(ids)
    threes = [[(r + k * dr, c + k * dc) for k in range(3)] for r, c in spots
              for dr, dc in LINES3 if all(x in spots for x in
                                          [(r + k * dr, c + k * dc) for k in range(3)])]
    out = set()
    for fill in fillings(spots, "#o"):
        if (all(sum(fill.get(x) == "#" for x in room) == 1 for room in rooms)
                and all(len({fill[x] for x in t}) == 2 for t in threes)):
            out.add(grid_of(h, w, {x: fill.get(x, ".") for x in cells_of(h, w)}))
    return out


def nondango_board(rng, h, w):
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(2, 4)))
    circles = [["o" if rng.random() < 0.75 else "-" for _ in range(w)] for _ in range(h)]
    return circles, ids


def test_nondango_against_brute_force():
    rng = random.Random(6)
    boards = [nondango_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("nondango", boards, nondango_brute, layered_text)


def nondango_ops(board, rows):
    return [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(rows_of(rows))
            for c, t in enumerate(row) if t == "#"]


def test_nondango_answers_pass_pzprjs(tmp_path):
    rng = random.Random(9)
    boards = [nondango_board(rng, h, w) for h, w in sizes_of(rng, 16, 3, 4)]
    judged_by_pzprjs(tmp_path, "nondango", boards, layered_text, nondango_brute, nondango_ops,
                     "#o", free=lambda board, x: board[0][x[0]][x[1]] == "o")


# ---------------------------------------------------------------- Hakoiri

def around(h, w, r, c):
    return [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
            if (i or j) and 0 <= r + i < h and 0 <= c + j < w]


def hakoiri_answers(board, order="cts."):
    """Every answer (as {cell: mark}): each cell in reading order gets one of
    ``order``; a choice that repeats a mark in its box or beside an equal
    mark is cut at once."""
    clues, ids = board
    h, w = len(ids), len(ids[0])
    cells = cells_of(h, w)
    rooms = region_lists(ids)
    box = {x: room for room in rooms for x in room}
    last = {room[-1] for room in rooms}          # where a box is complete
    mark = {}

    def place(k):
        if k == len(cells):
            marked = [x for x in cells if mark[x] != "."]
            if (all(sorted(mark[x] for x in room if mark[x] != ".") == ["c", "s", "t"]
                    for room in rooms) and connected(marked, h, w)):
                yield dict(mark)
            return
        r, c = cells[k]
        given = clues[r][c]
        for m in order:
            if (given == "-" or m == given or given == "?" and m != ".") and (m == "." or not any(
                    mark.get(y) == m for y in around(h, w, r, c) + box[(r, c)])):
                mark[(r, c)] = m
                if (r, c) not in last or sum(mark[x] != "." for x in box[(r, c)]) == 3:
                    yield from place(k + 1)
                del mark[(r, c)]
    return place(0)


def hakoiri_brute(board):
    h, w = len(board[1]), len(board[1][0])
    return {grid_of(h, w, mark) for mark in hakoiri_answers(board)}


def hakoiri_board(rng, h, w):
    """Boxes of three cells or more, and some marks of an answer (one of them
    '?', or changed), planted from the first answer of a random search."""
    blank = [["-"] * w for _ in range(h)]
    answer = None
    while answer is None:
        ids = random_regions(rng, h, w, max(1, h * w // rng.randint(3, 5)))
        if min(len(room) for room in region_lists(ids)) >= 3:
            answer = next(hakoiri_answers((blank, ids), "".join(rng.sample("cts.", 4))), None)
    clues = [[answer[(r, c)] if answer[(r, c)] != "." and rng.random() < 0.7 else "-"
              for c in range(w)] for r in range(h)]
    r, c = rng.randrange(h), rng.randrange(w)
    if clues[r][c] != "-":
        clues[r][c] = rng.choice("?cts")
    return clues, ids


@pytest.mark.slow
def test_hakoiri_against_brute_force():
    rng = random.Random(2)
    boards = [hakoiri_board(rng, h, w) for h, w in sizes_of(rng, 40, 3, 4)]
    run_genre("hakoiri", boards, hakoiri_brute, layered_text)


def hakoiri_ops(board, rows):
    return [pzprjs.cell(r, c, "setAnum", "cts".index(t) + 1)
            for r, row in enumerate(rows_of(rows)) for c, t in enumerate(row)
            if t != "." and board[0][r][c] == "-"]


def test_hakoiri_answers_pass_pzprjs(tmp_path):
    rng = random.Random(3)
    boards = [hakoiri_board(rng, h, w) for h, w in sizes_of(rng, 16, 3, 4)]
    judged_by_pzprjs(tmp_path, "hakoiri", boards, layered_text, hakoiri_brute, hakoiri_ops,
                     ".cts", free=lambda board, x: board[0][x[0]][x[1]] == "-")


# ---------------------------------------------------------------- Juosan

def top_cell(room):
    """puzz.link's cell for a region's number: the leftmost column, topmost there."""
    return min(room, key=lambda x: (x[1], x[0]))


def apart_bars(bars, h, w):
    """No three vertical bars side by side in a row, nor three horizontal ones
    in a column."""
    return not (any(bars[(r, c)] == bars[(r, c + 1)] == bars[(r, c + 2)] == "|"
                    for r in range(h) for c in range(w - 2))
                or any(bars[(r, c)] == bars[(r + 1, c)] == bars[(r + 2, c)] == "-"
                       for r in range(h - 2) for c in range(w)))


def juosan_brute(board):
    clues, ids = board
    h, w = len(ids), len(ids[0])
    rooms = region_lists(ids)
    out = set()
    for fill in fillings(cells_of(h, w), "|-"):
        if apart_bars(fill, h, w) and all(clues[r][c] in ("-", "?") or max(sum(fill[x] == "|" for x in room),
                                         sum(fill[x] == "-" for x in room)) == clues[r][c]
               for room in rooms for r, c in room):
            out.add(grid_of(h, w, fill))
    return out


def juosan_board(rng, h, w):
    """Random regions, the majority of a random answer on their top cells,
    some numbers left out, one changed or '?' now and then."""
    ids = random_regions(rng, h, w, rng.randint(2, max(2, h * w // 2)))
    bars = {}
    while not bars or not apart_bars(bars, h, w):
        bars = {x: rng.choice("|-") for x in cells_of(h, w)}
    clues = [["-"] * w for _ in range(h)]
    for room in region_lists(ids):
        if rng.random() < 0.9:
            r, c = top_cell(room)
            clues[r][c] = max(sum(bars[x] == t for x in room) for t in "|-")
    if rng.random() < 0.3:
        r, c = top_cell(rng.choice(region_lists(ids)))
        clues[r][c] = rng.choice([1, 2, "?"])
    return clues, ids


# Juosan is seldom unique on boards this small (about 1 in 300 random 3 x 3
# boards): these three were found among them
JUOSAN_UNIQUE = [
    ([[1, 4, "-"], [2, "-", "-"], [1, "-", "-"]], ["cbb", "ddb", "aab"]),
    ([[5, "-", "-"], [3, "-", "-"], ["-", "-", "-"]], ["aaa", "baa", "bbb"]),
    ([[2, "-", 1], [1, 4, "-"], [1, "-", "-"]], ["ccd", "aee", "bee"]),
]


@pytest.mark.slow
def test_juosan_against_brute_force():
    rng = random.Random(6)
    boards = [juosan_board(rng, h, w) for h, w in sizes_of(rng, 30)]
    boards += [(clues, [list(row) for row in ids]) for clues, ids in JUOSAN_UNIQUE]
    run_genre("juosan", boards, juosan_brute, layered_text)


def juosan_ops(board, rows):
    return [pzprjs.cell(r, c, "setQans", 12 if t == "|" else 13)
            for r, row in enumerate(rows_of(rows)) for c, t in enumerate(row)]


def test_juosan_answers_pass_pzprjs(tmp_path):
    rng = random.Random(7)
    boards = [juosan_board(rng, h, w) for h, w in sizes_of(rng, 16, 3, 4)]
    judged_by_pzprjs(tmp_path, "juosan", boards, layered_text, juosan_brute, juosan_ops,
                     "|-", free=lambda board, x: True)


# ---------------------------------------------------------------- Shakashaka

# the sides (up, down, left, right) the white part of a cell covers
SHAKA_OPEN = {".": "udlr", "◤": "dr", "◥": "dl", "◢": "ul", "◣": "ur"}
SIDES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
FACING = {"u": "d", "d": "u", "l": "r", "r": "l"}


def shakashaka_ok(grid, fill):
    """pzprjs's check: numbers count the triangles beside them, some
    triangle exists, and every white area (cells joined through the sides
    both cover) is a rectangle: upright (all its cells white, filling their
    bounding box) or turned (each cell's covered sides are exactly those
    that face a cell of the area)."""
    h, w = len(grid), len(grid[0])
    if all(t == "." for t in fill.values()):
        return False
    for r, c in cells_of(h, w):
        n = grid[r][c]
        if n not in ("-", "x") and sum(fill.get(y, ".") != "." for y in neighbours(h, w, r, c)
                                       if y in fill) != n:
            return False
    area = {}
    for start in fill:
        if start in area:
            continue
        group, todo = [], [start]
        area[start] = start
        while todo:
            x = todo.pop()
            group.append(x)
            for s in SHAKA_OPEN[fill[x]]:
                y = (x[0] + SIDES[s][0], x[1] + SIDES[s][1])
                if y in fill and y not in area and FACING[s] in SHAKA_OPEN[fill[y]]:
                    area[y] = start
                    todo.append(y)
        rows = [x[0] for x in group]
        cols = [x[1] for x in group]
        upright = all(fill[x] == "." for x in group) and len(group) == (
            (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1))
        turned = all((s in SHAKA_OPEN[fill[x]]) == (area.get((x[0] + d[0], x[1] + d[1])) == start)
                     for x in group for s, d in SIDES.items())
        if not (upright or turned):
            return False
    return True


def shakashaka_brute(grid):
    h, w = len(grid), len(grid[0])
    white = [x for x in cells_of(h, w) if grid[x[0]][x[1]] == "-"]
    out = set()
    for fill in fillings(white, SHAKA_OPEN):
        if shakashaka_ok(grid, fill):
            out.add(grid_of(h, w, {(r, c): fill.get((r, c)) or
                                   ("." if grid[r][c] == "x" else str(grid[r][c]))
                                   for r, c in cells_of(h, w)}))
    return out


def shakashaka_board(rng, h, w):
    """Black cells (six white cells at most, for the brute force's sake),
    some numbered with the triangles of a random answer of the board without
    numbers (when it has one) next to them, one number now and then changed."""
    grid = [["x" if rng.random() < 0.3 else "-" for _ in range(w)] for _ in range(h)]
    for r, c in rng.sample(cells_of(h, w), h * w)[6:]:     # six white cells at most
        grid[r][c] = "x"
    answers = sorted(shakashaka_brute(grid))
    if answers:
        answer = rng.choice(answers)
        for r, c in cells_of(h, w):
            if grid[r][c] == "x" and rng.random() < 0.6:
                grid[r][c] = sum(answer[y[0]][y[1]] in "◤◥◢◣" for y in neighbours(h, w, r, c))
                if rng.random() < 0.1:
                    grid[r][c] = (grid[r][c] + 1) % 5
    return grid


def shakashaka_boards(rng, solvable, unsolvable):
    """Random boards, as many with answers and without as asked (most
    random boards have none)."""
    out, counts = [], {True: 0, False: 0}
    want = {True: solvable, False: unsolvable}
    while counts[True] < solvable or counts[False] < unsolvable:
        grid = shakashaka_board(rng, rng.randint(2, 4), rng.randint(2, 4))
        has = bool(shakashaka_brute(grid))
        if counts[has] < want[has]:
            counts[has] += 1
            out.append(grid)
    return out


@pytest.mark.slow
def test_shakashaka_against_brute_force():
    run_genre("shakashaka", shakashaka_boards(random.Random(4), 25, 10), shakashaka_brute)


def shakashaka_ops(grid, rows):
    return [pzprjs.cell(r, c, "setQans", 2 + "◣◢◥◤".index(t))
            for r, row in enumerate(rows_of(rows)) for c, t in enumerate(row) if t in "◣◢◥◤"]


def test_shakashaka_answers_pass_pzprjs(tmp_path):
    grids = shakashaka_boards(random.Random(5), 10, 2)
    judged_by_pzprjs(tmp_path, "shakashaka", grids, board_text, shakashaka_brute,
                     shakashaka_ops, ".◤◥◢◣")


# ---------------------------------------------------------------- every genre

GENRES = ["yinyang", "nondango", "hakoiri", "juosan", "shakashaka"]


@pytest.mark.parametrize("genre", GENRES)
def test_examples_are_unique(genre, run_pzc):
    examples_unique(run_pzc, genre)


@pytest.mark.parametrize("genre", GENRES)
def test_examples_go_through_urls_and_files_unchanged(genre, tmp_path):
    urls_and_files_unchanged(genre, tmp_path)
