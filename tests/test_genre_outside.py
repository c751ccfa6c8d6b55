"""The genres with clues outside the grid (Tents, ...) against brute forces of
this file's own on small boards, through puzz.link URLs and pzprv3 files, and
against puzz.link's own checker where the npm package pzpr has the type.

Each genre's boards are seeded random ones (2x2..4x4 or so): an answer is
planted, the clues it gives are written (outside the grid: one token a row
or column, '-' none), and some are dropped or changed, so that boards with
no answer, one answer and several answers all occur.  `pzc count --show`
lists every answer of each board and `pzc unique` judges it; both must agree
with the brute force below, which tries every answer and applies the rules
as puzz.link's checker (pzprjs AnsCheck) states them.
"""

from __future__ import annotations

import itertools
import random

import pytest

from conftest import EXAMPLES, run_cli
from pzc import api
from shaded import connected, neighbours, printed, run_genre

SIDES = ("top", "bottom", "left", "right")


# ---------------------------------------------------------------- boards

class Board:
    """A board with clues outside the grid: ``sides`` maps a side to its
    tokens (one a column for top and bottom, one a row for left and right;
    '-' none), ``grid`` is the rows of cell tokens, ``params`` numbers after
    the size."""

    def __init__(self, grid, sides, params=()):
        self.grid = grid
        self.sides = sides
        self.params = list(params)
        self.h, self.w = len(grid), len(grid[0])

    def text(self, order):
        """The text instance: "R C [params]", a line a side in ``order``, the grid."""
        head = " ".join(map(str, [self.h, self.w] + self.params))
        lines = [" ".join(map(str, self.sides[s])) for s in order]
        return "\n".join([head] + lines + [" ".join(map(str, r)) for r in self.grid]) + "\n"

    def clue(self, side, k):
        t = self.sides.get(side, ["-"] * (self.w if side in ("top", "bottom") else self.h))[k]
        return None if t == "-" else t

    def line(self, side, k):
        """The cells seen from the clue at ``side``'s k-th place, nearest first."""
        if side in ("top", "bottom"):
            cells = [(r, k) for r in range(self.h)]
        else:
            cells = [(k, c) for c in range(self.w)]
        return cells if side in ("top", "left") else cells[::-1]

    def places(self):
        """(side, k, clue) for every clue outside the grid."""
        return [(s, k, self.clue(s, k)) for s in self.sides
                for k in range(len(self.sides[s])) if self.clue(s, k) is not None]


def cells_of(h, w):
    return [(r, c) for r in range(h) for c in range(w)]


def around(h, w, r, c):
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and 0 <= r + dr < h and 0 <= c + dc < w]


def subsets(cells):
    cells = list(cells)
    for bits in itertools.product((False, True), repeat=len(cells)):
        yield {x for x, b in zip(cells, bits) if b}


def spoil(rng, board, change):
    """Drop some clues outside the grid and change a few (``change(t)``)."""
    for side, tokens in board.sides.items():
        for k, t in enumerate(tokens):
            x = rng.random()
            if x < 0.3:
                tokens[k] = "-"
            elif x < 0.4:
                tokens[k] = change(t)
    return board


def run_outside(spec, boards, brute, order):
    return run_genre(spec, boards, brute, text=lambda b: b.text(order))


def same_instance(a, b):
    return (a.geometry.width, a.geometry.height, a.clues, a.params,
            {k: dict(v) for k, v in a.layers.items()}) == \
        (b.geometry.width, b.geometry.height, b.clues, b.params,
         {k: dict(v) for k, v in b.layers.items()})


def round_trips(spec_name, texts, tmp_path):
    """Each text instance written as a puzz.link URL and as a pzprv3 file reads
    back as the same instance."""
    spec = api.load_spec(spec_name)
    for i, text in enumerate(texts):
        path = tmp_path / f"inst{i}.txt"
        path.write_text(text)
        inst, = api.load_instances(spec, str(path))
        url = api.write_instance(spec, inst, "url")
        assert url.startswith(f"https://puzz.link/p?{spec.url_types[0]}/")
        again, = api.load_instances(spec, url)
        assert same_instance(inst, again), (text, url)
        assert api.write_instance(spec, again, "url") == url
        file = tmp_path / f"inst{i}.pzprv3"
        file.write_text(api.write_instance(spec, inst, "pzprv3"))
        back, = api.load_instances(spec, str(file))
        assert same_instance(inst, back), (text, file.read_text())


def examples_unique(spec):
    files = sorted((EXAMPLES / spec).iterdir())
    assert files
    for path in files:
        run = run_cli("unique", spec, path)
        assert run.returncode == 0, run.stdout + run.stderr


# ---------------------------------------------------------------- Tents

def tents_ok(board, tents):
    """puzz.link's checks: no two tents touch (diagonals too); each group of
    trees and tents joined side by side holds as many tents as trees; the
    counts outside the grid."""
    h, w = board.h, board.w
    trees = {(r, c) for r, c in cells_of(h, w) if board.grid[r][c] == "x"}
    if tents & trees or any(y in tents for x in tents for y in around(h, w, *x)):
        return False
    seen = set()
    for start in trees | tents:
        if start in seen:
            continue
        camp, todo = set(), [start]
        while todo:
            x = todo.pop()
            if x in camp:
                continue
            camp.add(x)
            other = tents if x in trees else trees
            todo += [y for y in neighbours(h, w, *x) if y in other]
        seen |= camp
        if len(camp & trees) != len(camp & tents):
            return False
    return all(sum(x in tents for x in board.line(s, k)) == n for s, k, n in board.places())


def tents_picture(board, tents):
    return printed([["x" if board.grid[r][c] == "x" else "*" if (r, c) in tents else "."
                     for c in range(board.w)] for r in range(board.h)])


def tents_brute(board):
    free = [x for x in cells_of(board.h, board.w) if board.grid[x[0]][x[1]] != "x"]
    return {tents_picture(board, t) for t in subsets(free) if tents_ok(board, t)}


def tents_board(rng, h, w):
    tents, trees = set(), set()
    for r, c in rng.sample(cells_of(h, w), h * w):
        if (r, c) in trees or any(y in tents for y in around(h, w, r, c)) or rng.random() < 0.3:
            continue
        free = [y for y in neighbours(h, w, r, c) if y not in trees | tents]
        if free:
            tents.add((r, c))
            trees.add(rng.choice(free))
    if rng.random() < 0.2 and len(trees) < h * w:         # a tree without a tent
        trees.add(rng.choice([x for x in cells_of(h, w) if x not in trees | tents]))
    grid = [["x" if (r, c) in trees else "-" for c in range(w)] for r in range(h)]
    board = Board(grid, {"top": [sum((r, c) in tents for r in range(h)) for c in range(w)],
                         "left": [sum((r, c) in tents for c in range(w)) for r in range(h)]})
    return spoil(rng, board, lambda t: t + 1)


TENTS_ORDER = ("top", "left")


@pytest.mark.slow
def test_tents_against_brute_force():
    rng = random.Random(27)
    boards = [tents_board(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(40)]
    run_outside("tents", boards, tents_brute, TENTS_ORDER)


def test_tents_round_trips_through_urls_and_files(tmp_path):
    rng = random.Random(5)
    boards = [tents_board(rng, rng.randint(2, 6), rng.randint(2, 6)) for _ in range(12)]
    texts = [b.text(TENTS_ORDER) for b in boards]
    round_trips("tents", texts + [(EXAMPLES / "tents" / "six.txt").read_text()], tmp_path)


def reads_what_puzzlink_writes(spec_name, url, file, clues, tmp_path):
    """A URL and a pzprv3 file (its answer in it) as today's puzz.link (robx/pzprjs,
    built from its source) wrote them read as ``clues``; pzc writes the same
    URL body back."""
    spec = api.load_spec(spec_name)
    from_url, = api.load_instances(spec, url)
    path = tmp_path / "puzzlink.pzprv3"
    path.write_text(file)
    from_file, = api.load_instances(spec, str(path))
    assert from_url.clues == from_file.clues == clues
    assert api.write_instance(spec, from_url, "url").rpartition("/")[2] == url.rpartition("/")[2]


def test_tents_reads_what_puzzlink_writes(tmp_path):
    # counts above and left; a tree at (0, 1); in the file's answer a tent 'A', a dot '-'
    reads_what_puzzlink_writes(
        "tents", "http://pzv.jp/p.html?tents/3/2/10112i4",
        "pzprv3\ntents\n2\n3\n. 1 0 1 \n1 A 1 . \n2 . . - \n0 0 \n0 0 \n0 0 0 \n",
        {(-1, 0): 1, (-1, 1): 0, (-1, 2): 1, (0, -1): 1, (1, -1): 2, (0, 1): "x"}, tmp_path)


def test_tents_example_is_unique():
    examples_unique("tents")


def test_tents_refuses_a_number_in_a_cell(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("2 2\n1 0\n1 0\nx 2\n- -\n")
    run = run_cli("solve", "tents", path)
    assert run.returncode == 2 and "a cell holds a tree 'x' or nothing" in run.stderr, run.stderr
