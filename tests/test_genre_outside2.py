"""Tile Paint, Kakurasu and Easy as ABC: genres with clues outside the grid,
against brute forces of this file's own on small boards, through puzz.link
URLs and pzprv3 files, and against puzz.link's own checker (the npm package
pzpr has all three).

Each genre's boards are seeded random ones (2x2..5x5): an answer is planted,
the clues it gives are written, and some are dropped or changed, so that
boards with no answer, one answer and several answers all occur.  `pzc count
--show` lists every answer of each board and `pzc unique` judges it; both
must agree with the brute force here, which tries every answer and applies
the rules as puzz.link's checker (pzprjs AnsCheck) states them.  Then pzprjs
opens each board from the URL `pzc convert` writes: each of pzc's answers
must pass its check(), and the answer changed so that the brute force
refuses it must fail.
"""

from __future__ import annotations

import itertools
import random

import pytest

import pzprjs
from conftest import EXAMPLES, run_cli
from pzc import api
from shaded import printed, run_genre
from test_genre_marks import judged_by_pzprjs, rows_of
from test_genre_outside import cells_of, examples_unique, round_trips


def refuses(tmp_path, genre, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    run = run_cli("solve", genre, path)
    assert run.returncode == 2 and message in run.stderr, run.stderr
    return run.stderr


# ---------------------------------------------------------------- Tile Paint

class Tiles:
    """A Tile Paint board: ``top`` and ``left`` the tokens outside the grid
    ('.' or '-' none), ``grid`` the cells ('.' free, '-' or "D,A" a clue
    cell), ``ids`` a tile id a cell ('.' on the clue cells)."""

    def __init__(self, top, left, grid, ids):
        self.top, self.left, self.grid, self.ids = top, left, grid, ids
        self.h, self.w = len(grid), len(grid[0])

    def text(self):
        lines = [f"{self.h} {self.w}", " ".join(self.top), " ".join(self.left)]
        lines += [" ".join(r) for r in self.grid] + [" ".join(r) for r in self.ids]
        return "\n".join(lines) + "\n"

    def free(self, r, c):
        return 0 <= r < self.h and 0 <= c < self.w and self.grid[r][c] == "."

    def run(self, r, c, dr, dc):
        out = []
        while self.free(r + dr, c + dc):
            r, c = r + dr, c + dc
            out.append((r, c))
        return out

    def numbers(self):
        """(place, (dr, dc), token) of every number: above the columns (down),
        left of the rows (across), both sides of each clue cell."""
        out = [((-1, c), (1, 0), t) for c, t in enumerate(self.top)]
        out += [((r, -1), (0, 1), t) for r, t in enumerate(self.left)]
        for r, c in cells_of(self.h, self.w):
            if "," in self.grid[r][c]:
                down, across = self.grid[r][c].split(",")
                out += [((r, c), (1, 0), down), ((r, c), (0, 1), across)]
        return out

    def tiles(self):
        out = {}
        for r, c in cells_of(self.h, self.w):
            if self.free(r, c):
                out.setdefault(self.ids[r][c], []).append((r, c))
        return list(out.values())


def tilepaint_ok(board, shaded):
    """puzz.link's checks: some cell shaded; every number whose run is not
    empty counts its run's shaded cells (whole tiles: the brute force shades
    tiles)."""
    return bool(shaded) and all(
        len(board.run(*p, *d)) == 0 or sum(x in shaded for x in board.run(*p, *d)) == int(t)
        for p, d, t in board.numbers() if t not in ("", ".", "-"))


def tilepaint_picture(board, shaded):
    return printed([[board.grid[r][c] if not board.free(r, c) else "#" if (r, c) in shaded
                     else "." for c in range(board.w)] for r in range(board.h)])


def tilepaint_brute(board):
    tiles = board.tiles()
    out = set()
    for bits in itertools.product((False, True), repeat=len(tiles)):
        shaded = {x for t, b in zip(tiles, bits) if b for x in t}
        if tilepaint_ok(board, shaded):
            out.add(tilepaint_picture(board, shaded))
    return out


def tilepaint_board(rng, h, w):
    """Clue cells at random, free cells cut into tiles of 1..3 cells, some
    tiles shaded; the numbers of that shading, some dropped or changed (a
    number on an empty run is any, as puzz.link keeps one there)."""
    clue_cells = {x for x in cells_of(h, w) if rng.random() < 0.15}
    free = [x for x in cells_of(h, w) if x not in clue_cells]
    ids, names = {}, iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for x in rng.sample(free, len(free)):
        if x in ids:
            continue
        name, tile = next(names), [x]
        ids[x] = name
        for _ in range(rng.randint(0, 2)):
            near = [(t[0] + dr, t[1] + dc) for t in tile for dr, dc in
                    ((0, 1), (1, 0), (0, -1), (-1, 0))]
            near = [y for y in near if y in free and y not in ids]
            if near:
                y = rng.choice(near)
                ids[y] = name
                tile.append(y)
    tiles = {}
    for x, name in ids.items():
        tiles.setdefault(name, []).append(x)
    shaded = {x for t in tiles.values() if rng.random() < 0.45 for x in t}
    grid = [["-" if (r, c) in clue_cells else "." for c in range(w)] for r in range(h)]
    board = Tiles([], [], grid, [[ids.get((r, c), ".") for c in range(w)] for r in range(h)])

    def number(p, d):
        run = board.run(*p, *d)
        n = sum(x in shaded for x in run) if run else rng.choice([0, 2])
        x = rng.random()
        return "" if x < 0.3 else str(max(0, n + rng.choice([-1, 1]))) if x < 0.4 else str(n)
    board.top = [number((-1, c), (1, 0)) or rng.choice(".-") for c in range(w)]
    board.left = [number((r, -1), (0, 1)) or "." for r in range(h)]
    for r, c in clue_cells:
        down, across = number((r, c), (1, 0)), number((r, c), (0, 1))
        grid[r][c] = f"{down},{across}" if down or across else "-"
    return board


def tilepaint_boards(seed, n, low=2, high=5):
    rng = random.Random(seed)
    return [tilepaint_board(rng, rng.randint(low, high), rng.randint(low, high))
            for _ in range(n)]


@pytest.mark.slow
def test_tilepaint_against_brute_force():
    run_genre("tilepaint", tilepaint_boards(27, 40), tilepaint_brute, text=Tiles.text)


def shading_ops(board, rows):
    return [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(rows_of(rows))
            for c, t in enumerate(row) if t == "#"]


def test_tilepaint_answers_pass_pzprjs_check(tmp_path):
    judged_by_pzprjs(tmp_path, "tilepaint", tilepaint_boards(28, 30), Tiles.text,
                     tilepaint_brute, shading_ops, "#.", lambda board, x: board.free(*x))


def test_tilepaint_round_trips_through_urls_and_files(tmp_path):
    boards = tilepaint_boards(29, 16, 1, 9)
    for b in boards:            # '-' outside, a number left out, is written '.'
        b.top = ["." if t == "-" else t for t in b.top]
    texts = [b.text() for b in boards]
    round_trips("tilepaint", texts + [p.read_text() for p in
                                      sorted((EXAMPLES / "tilepaint").iterdir())], tmp_path)


def test_tilepaint_reads_what_puzzlink_writes(tmp_path):
    """A URL and a file as pzprjs wrote them (the file's answer, '#' shaded and
    '+' a dot, is not read; '.' in the rooms is the clue cell): numbers
    outside the grid, a clue cell with 1 down and 0 across."""
    spec = api.load_spec("tilepaint")
    url = "http://pzv.jp/p.html?tilepaint/3/3/b0v0h10l2.1.21"
    path = tmp_path / "puzzlink.pzprv3"
    path.write_text("pzprv3\ntilepaint\n3\n3\n4\n0 0 . \n1 1 2 \n3 2 2 \n0 2 -1 1 \n"
                    "-1 . . 0,1 \n2 . . . \n1 . . . \n# # . \n. + . \n. . # \n")
    from_url, = api.load_instances(spec, url)
    from_file, = api.load_instances(spec, str(path))
    clues = {(-1, 0): 2, (-1, 2): 1, (1, -1): 2, (2, -1): 1, (0, 2): "1,0"}
    assert from_url.clues == from_file.clues == clues
    assert dict(from_url.layers["regions"]) == dict(from_file.layers["regions"])
    assert api.write_instance(spec, from_url, "url").rpartition("?")[2] == url.rpartition("?")[2]


def test_tilepaint_refuses_a_bad_clue_cell(tmp_path):
    refuses(tmp_path, "tilepaint", "2 2\n. .\n. .\n1;2 .\n. .\na b\nc d\n",
            "a clue cell is '-' or \"down,across\"")


def test_tilepaint_example_is_unique():
    examples_unique("tilepaint")
