"""The shading genres of issue 27 (Minesweeper, ...) against brute forces
written here.

For each genre, seeded random boards of 2x2..4x4 (clues read off a random
shading, some dropped or changed, so that boards with no answer, one answer
and several answers all occur) are written into one file; `pzc count --show`
lists every answer of each, and the set of printed boards must equal the set
the brute force finds by trying every shading and applying the genre's rules
as puzz.link's checker states them (pzprjs's AnsCheck); `pzc unique` must
agree (shaded.run_genre).  Each genre's example is unique, and its URL and
pzprv3 file read back as the same instance.
"""

from __future__ import annotations

import random

import pytest

from genre_tools import examples_unique
from pzc import api
from shaded import DIRS, connected, printed, run_genre, shadings, sizes_of

AROUND = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def cells_of(grid):
    return [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]


def clued(grid, r, c):
    return grid[r][c] not in ("-", ".")


def picture(grid, shaded, hidden=()):
    """The rows pzc prints: '#' on shaded cells, else the clue ('.' for a
    blank or a token in ``hidden``)."""
    return printed([["#" if (r, c) in shaded else
                     "." if not clued(grid, r, c) or t in hidden else str(t)
                     for c, t in enumerate(row)] for r, row in enumerate(grid)])


# ---------------------------------------------------------------- Minesweeper

def mines_count(grid, mines, r, c):
    h, w = len(grid), len(grid[0])
    return sum((r + dr, c + dc) in mines for dr, dc in AROUND
               if 0 <= r + dr < h and 0 <= c + dc < w)


def mines_ok(board, mines):
    grid, total = board
    return ((total is None or len(mines) == total)
            and not any(clued(grid, *x) for x in mines)
            and all(grid[r][c] in ("-", "?", "#") or mines_count(grid, mines, r, c) == grid[r][c]
                    for r, c in cells_of(grid)))


def mines_brute(board):
    grid, _ = board
    free = [x for x in cells_of(grid) if not clued(grid, *x)]
    return {picture(grid, m, hidden=("#",)) for m in shadings(free) if mines_ok(board, m)}


def mines_board(rng, h, w):
    """(grid, total or None): numbers read off random mines, a few changed
    to '?' or to a wrong count, some holes; the total given now and then."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    mines = {x for x in cells if rng.random() < 0.3}
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells:
        if (r, c) not in mines and rng.random() < 0.45:
            n = mines_count(grid, mines, r, c)
            # (no hole first in a row: a text line "# ..." is a comment)
            odd = ["?", min(8, n + 1)] + (["#"] if c > 0 else [])
            grid[r][c] = rng.choice(odd) if rng.random() < 0.15 else n
    total = None if rng.random() < 0.6 else len(mines) + (rng.random() < 0.2)
    return grid, total


def mines_text(board):
    grid, total = board
    head = f"{len(grid[0])} {len(grid)}" + ("" if total is None else f" {total}")
    return head + "\n" + "".join(" ".join(map(str, row)) + "\n" for row in grid)


@pytest.mark.slow
def test_mines_against_brute_force():
    rng = random.Random(27)
    boards = [mines_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("mines", boards, mines_brute, text=mines_text)


# ---------------------------------------------------------------- Canal View

def run_length(cells, shaded):
    """How many cells of ``cells`` (nearest first) are shaded before the first one that is not."""
    n = 0
    while n < len(cells) and cells[n] in shaded:
        n += 1
    return n


def rays(h, w, r, c):
    """The cells from (r, c) up, down, left and right, nearest first, to the edge."""
    return [[(r + k * dr, c + k * dc) for k in range(1, max(h, w))
             if 0 <= r + k * dr < h and 0 <= c + k * dc < w] for dr, dc in DIRS]


def no_pool(cells, h, w):
    return not any(all((r + i, c + j) in cells for i in (0, 1) for j in (0, 1))
                   for r in range(h - 1) for c in range(w - 1))


def canal_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    return (connected(shaded, h, w) and no_pool(shaded, h, w)
            and all(not isinstance(grid[r][c], int)
                    or sum(run_length(x, shaded) for x in rays(h, w, r, c)) == grid[r][c]
                    for r, c in cells_of(grid)))


def canal_brute(grid):
    free = [x for x in cells_of(grid) if not clued(grid, *x)]
    return {picture(grid, s) for s in shadings(free) if canal_ok(grid, s)}


def canal_board(rng, h, w):
    cells = cells_of([[0] * w] * h)
    shaded = {x for x in cells if rng.random() < 0.55}
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells:
        if (r, c) not in shaded and rng.random() < 0.5:
            n = sum(run_length(x, shaded) for x in rays(h, w, r, c))
            grid[r][c] = rng.choice(["?", n + 1]) if rng.random() < 0.15 else n
    return grid


@pytest.mark.slow
def test_canal_against_brute_force():
    rng = random.Random(28)
    run_genre("canal", [canal_board(rng, h, w) for h, w in sizes_of(rng, 40)], canal_brute)


# ---------------------------------------------------------------- every genre

GENRES = ["mines", "canal"]


@pytest.mark.parametrize("name", GENRES)
def test_example_is_unique(name, run_pzc):
    examples_unique(run_pzc, name)


def content(inst, params=True):
    """What an instance holds: its size, clues, layers (regions as the same
    division whatever the ids) and, unless left out, its parameters."""
    layers = {k: dict(v) for k, v in inst.layers.items()}
    if "regions" in layers:
        number = {}
        layers["regions"] = {c: number.setdefault(v, len(number))
                             for c, v in sorted(layers["regions"].items())}
    g = inst.geometry
    return (g.width, g.height), inst.clues, layers, inst.params if params else None


@pytest.mark.parametrize("name", GENRES)
@pytest.mark.parametrize("form", ["url", "pzprv3"])
def test_example_round_trips_through_puzzlink_forms(name, form, examples, tmp_path):
    """The example written as a URL (a pzprv3 file) reads back as the same
    instance (puzz.link holds no parameter such as Minesweeper's total), and
    written back as text, the same again."""
    spec = api.load_spec(name)
    for path in sorted((examples / name).glob("*.txt")):
        for inst in api.load_instances(spec, str(path)):
            written = api.write_instance(spec, inst, form)
            if form == "url":
                assert written.startswith(f"https://puzz.link/p?{name}/")
            source = tmp_path / "written.txt"
            source.write_text(written + "\n")
            back, = api.load_instances(spec, str(source))
            assert content(back, params=False) == content(inst, params=False), written
            source.write_text(api.write_instance(spec, back, "text"))
            again, = api.load_instances(spec, str(source))
            assert content(again) == content(back)


@pytest.mark.parametrize("name,aliases", [("mines", []), ("canal", [])])
def test_puzzlink_type_names_pick_the_genre(name, aliases):
    assert all(api.builtin_for_type(t) == name for t in [name] + aliases)
