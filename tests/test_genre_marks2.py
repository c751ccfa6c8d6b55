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

import itertools
import json
import random

import pytest

import pzprjs
from conftest import EXAMPLES, run_cli
from genre_tools import examples_unique, rejects
from marks_tools import judged_by_pzprjs, rows_of, urls_and_files_unchanged
from shaded import board_text, connected, printed, run_genre, sizes_of


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


def test_tatamibari_bad_instances_are_located(run_pzc, write):
    rejects(run_pzc, write, "tatamibari", "2 2\n. +\nx .\n", "bad.txt:3:1: error: 'x' is not allowed")
    url = run_pzc("solve", "tatamibari", "https://puzz.link/p?tatamibari/2/2/4i")
    assert url.returncode == 2 and ":1:36: error: '4' is not allowed" in url.stderr, url.stderr


# ---------------------------------------------------------------- Shugaku

STEPS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def near(h, w, cell):
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in STEPS
            if 0 <= cell[0] + dr < h and 0 <= cell[1] + dc < w]


def beddings(room):
    """Every way to lay the ``room`` cells (reading order) as aisles and
    futons of two neighbouring cells: (aisle cells, futons as (a, b) with a
    left of or above b)."""
    room = sorted(room)

    def go(i, taken, aisle, futons):
        while i < len(room) and room[i] in taken:
            i += 1
        if i == len(room):
            yield aisle, futons
            return
        r, c = room[i]
        yield from go(i + 1, taken | {(r, c)}, aisle | {(r, c)}, futons)
        for other in ((r, c + 1), (r + 1, c)):
            if other in room and other not in taken:
                yield from go(i + 1, taken | {(r, c), other}, aisle, futons + [((r, c), other)])
    yield from go(0, frozenset(), frozenset(), [])


def shugaku_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    room = {x for x in cells if grid[x[0]][x[1]] == "."}
    numbers = {x: int(grid[x[0]][x[1]]) for x in cells if grid[x[0]][x[1]] not in ".x"}
    out = set()
    for aisle, futons in beddings(room):
        if (any(all((r + i, c + j) in aisle for i in (0, 1) for j in (0, 1))
                for r in range(h - 1) for c in range(w - 1))
                or not connected(aisle, h, w)
                or not all(any(y in aisle for x in f for y in near(h, w, x)) for f in futons)):
            continue
        # the pillow: either end across, the lower end of an upright futon
        for pillows in itertools.product(*[f if f[0][0] == f[1][0] else f[1:] for f in futons]):
            if all(sum(y in pillows for y in near(h, w, x)) == n for x, n in numbers.items()):
                out.add(printed([["#" if x in aisle else "P" if x in pillows else "F" if x in room
                                  else "." if grid[x[0]][x[1]] == "x" else grid[x[0]][x[1]]
                                  for x in cells[r * w:(r + 1) * w]] for r in range(h)]))
    return out


def shugaku_board(rng, h, w):
    """Pillars in random cells, numbered from one answer of the board with
    their numbers left out (when it has one), some left without number."""
    grid = [["x" if rng.random() < 0.3 else "." for _ in range(w)] for _ in range(h)]
    grid[0][0] = grid[0][1] = "."           # room for a futon
    answers = sorted(shugaku_brute(grid))
    if answers:
        rows = rows_of(rng.choice(answers))
        for r, c in itertools.product(range(h), range(w)):
            if grid[r][c] == "x" and rng.random() < 0.8:
                grid[r][c] = str(sum(rows[y][x] == "P" for y, x in near(h, w, (r, c))))
    if rng.random() < 0.2:                  # a pillar more or a number changed
        r, c = rng.choice([x for x in itertools.product(range(h), range(w)) if x > (0, 1)])
        grid[r][c] = "x" if grid[r][c] == "." else str(rng.randint(0, 2))
    return grid


def futon_pairs(rows):
    """The futons of a printed answer: each 'F' paired with a 'P' left,
    right or below it, each pillow used once; a pairing whose futons all
    touch the aisle if there is one; None when there is no pairing."""
    h, w = len(rows), len(rows[0])
    halves = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "F"]
    found = []

    def go(i, used, pairs):
        if i == len(halves):
            found.append(pairs)
            return
        r, c = halves[i]
        for y, x in ((r, c - 1), (r, c + 1), (r + 1, c)):
            if 0 <= y < h and 0 <= x < w and rows[y][x] == "P" and (y, x) not in used:
                go(i + 1, used | {(y, x)}, pairs + [((y, x), (r, c))])
    go(0, frozenset(), [])
    complete = [p for p in found if len(p) == sum(row.count("P") for row in rows)]
    touching = [p for p in complete if all(any(rows[y][x] == "#" for end in f for y, x in near(h, w, end))
                                           for f in p)]
    return (touching or complete or [None])[0]


# pzprjs's futon halves by where the other half lies: a pillow 42-45, the
# other half 47-50 (up, down, left, right); 41 and 46 a half alone
PILLOW = {(-1, 0): 42, (1, 0): 43, (0, -1): 44, (0, 1): 45}


def shugaku_ops(grid, rows):
    rows = rows_of(rows)
    h, w = len(rows), len(rows[0])
    qans = {(r, c): {"#": 1, "P": 41, "F": 46}[t]
            for r in range(h) for c in range(w) for t in rows[r][c] if t in "#PF"}
    for pillow, half in futon_pairs(rows) or []:
        qans[pillow] = PILLOW[(half[0] - pillow[0], half[1] - pillow[1])]
        qans[half] = PILLOW[(pillow[0] - half[0], pillow[1] - half[1])] + 5
    return [pzprjs.cell(r, c, "setQans", v) for (r, c), v in qans.items()]


def test_shugaku_bad_instances_are_located(run_pzc, write):
    rejects(run_pzc, write, "shugaku", "2 2\n. x\n. 5\n", "bad.txt:3:3: error: '5' is not allowed")
    rejects(run_pzc, write, "shugaku", "2 2\n. x\nx .\n", "bad.txt:1:1: error: a Shugaku needs room")
    url = run_pzc("solve", "shugaku", "https://puzz.link/p?shugaku/2/2/1A")
    assert url.returncode == 2 and ":1:34: error: unexpected 'A'" in url.stderr, url.stderr


def test_shugaku_reads_the_file_pzprjs_writes_with_an_answer(tmp_path):
    """pzprjs keeps the futons and the aisle in the cells' section of its
    file, beside the pillars: pzc reads that file as the puzzle alone."""
    example = EXAMPLES / "shugaku" / "six.txt"
    url = run_cli("convert", "shugaku", example, "--format", "url").stdout.strip()
    solved = run_cli("solve", "shugaku", example, "--format", "json")
    rows = json.loads(solved.stdout)["grid"]
    verdict, = pzprjs.check([{"open": url, "ops": shugaku_ops(None, rows)}])
    assert verdict["complete"], verdict["text"]
    assert "#" in verdict["file"] and "e" in verdict["file"]     # an aisle, a pillow (45)
    path = tmp_path / "answered.txt"
    path.write_text(verdict["file"])
    again = run_cli("solve", "shugaku", path, "--format", "json")
    assert json.loads(again.stdout)["grid"] == rows
    assert run_cli("convert", "shugaku", path, "--format", "url").stdout.strip() == url


# ---------------------------------------------------------------- every genre

GENRES = ["nawabari", "tatamibari", "shugaku"]
# each genre's random boards (the seeds, and the smallest side of the boards
# pzprjs judges), brute force, pzprjs's steps to set an answer, the answer's tokens
CASES = {"nawabari": ((11, 12, 2), nawabari_board, nawabari_brute, nawabari_ops, LABELS),
         "tatamibari": ((21, 22, 2), tatamibari_board, tatamibari_brute, border_ops, LABELS),
         "shugaku": ((31, 32, 3), shugaku_board, shugaku_brute, shugaku_ops, "#PF")}


@pytest.mark.parametrize("genre", GENRES)
def test_against_brute_force(genre):
    (seed, _, _), board, brute, _, _ = CASES[genre]
    rng = random.Random(seed)
    run_genre(genre, [board(rng, h, w) for h, w in sizes_of(rng, 30, 2, 4)], brute)


@pytest.mark.parametrize("genre", GENRES)
def test_answers_pass_pzprjs(genre, tmp_path):
    (_, seed, small), board, brute, ops, tokens = CASES[genre]
    rng = random.Random(seed)
    boards = [board(rng, h, w) for h, w in sizes_of(rng, 14, small, 4)]
    judged_by_pzprjs(tmp_path, genre, boards, board_text, brute, ops, tokens, unclued)


@pytest.mark.parametrize("genre", GENRES)
def test_examples_are_unique(genre, run_pzc):
    examples_unique(run_pzc, genre)


@pytest.mark.slow
@pytest.mark.parametrize("genre", GENRES)
def test_examples_go_through_urls_and_files_unchanged(genre, tmp_path):
    urls_and_files_unchanged(genre, tmp_path)
