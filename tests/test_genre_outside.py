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

    def __init__(self, grid, sides, params=(), lists=False):
        self.grid = grid
        self.sides = sides
        self.params = list(params)
        self.lists = lists          # each clue a list of numbers: a line each
        self.h, self.w = len(grid), len(grid[0])

    def text(self, order):
        """The text instance: "R C [params]", a line a side in ``order`` (with
        lists, a line a row or column: its numbers, or '-'), the grid."""
        head = " ".join(map(str, [self.h, self.w] + self.params))
        if self.lists:
            lines = [" ".join(map(str, t)) if t != "-" else "-" for s in order
                     for t in self.sides[s]]
        else:
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
    spare = [x for x in cells_of(h, w) if x not in trees | tents]
    if rng.random() < 0.2 and spare:                       # a tree without a tent
        trees.add(rng.choice(spare))
    grid = [["x" if (r, c) in trees else "-" for c in range(w)] for r in range(h)]
    board = Board(grid, {"top": [sum((r, c) in tents for r in range(h)) for c in range(w)],
                         "left": [sum((r, c) in tents for c in range(w)) for r in range(h)]})
    return spoil(rng, board, lambda t: t + 1)


TENTS_ORDER = ("top", "left")


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


def test_tents_refuses_a_number_in_a_cell(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("2 2\n1 0\n1 0\nx 2\n- -\n")
    run = run_cli("solve", "tents", path)
    assert run.returncode == 2 and "a cell holds a tree 'x' or nothing" in run.stderr, run.stderr


# ---------------------------------------------------------------- Nonogram

def runs(cells, shaded):
    """The lengths of the runs of shaded cells along ``cells``, in order."""
    out, n = [], 0
    for x in list(cells) + [None]:
        if x in shaded:
            n += 1
        elif n:
            out, n = out + [n], 0
    return out


def nonogram_ok(board, shaded):
    """puzz.link's check: every row's and column's runs are its list (no list,
    or "0": none)."""
    return all(runs(board.line(side, k), shaded) == [n for n in (board.clue(side, k) or [])
                                                     if n > 0]
               for side in ("top", "left") for k in range(board.w if side == "top" else board.h))


def shaded_picture(board, shaded):
    return printed([["#" if (r, c) in shaded else "." for c in range(board.w)]
                    for r in range(board.h)])


def nonogram_brute(board):
    return {shaded_picture(board, s) for s in subsets(cells_of(board.h, board.w))
            if nonogram_ok(board, s)}


def nonogram_board(rng, h, w, zeros=True):
    shaded = {x for x in cells_of(h, w) if rng.random() < 0.55}
    board = Board([["-"] * w for _ in range(h)], {}, lists=True)
    board.sides = {"top": [runs(board.line("top", c), shaded) for c in range(w)],
                   "left": [runs(board.line("left", r), shaded) for r in range(h)]}
    for tokens in board.sides.values():
        for k, t in enumerate(tokens):
            x = rng.random()
            if not t:
                tokens[k] = [0] if zeros and x < 0.5 else "-"
            elif x < 0.1:
                tokens[k] = "-"
            elif x < 0.25:
                i = rng.randrange(len(t))
                changed = t[:i] + [max(1, t[i] + rng.choice([-1, 1]))] + t[i + 1:]
                if sum(changed) + len(changed) - 1 <= (h if len(tokens) == w else w):
                    tokens[k] = changed
    return board


NONOGRAM_ORDER = ("top", "left")


def test_nonogram_writes_an_empty_line_for_0(tmp_path):
    """janko.at's "0" (an empty line) is puzz.link's line without numbers: the
    URL and the file leave it out, and read back the answers are the same."""
    path = tmp_path / "zero.txt"
    path.write_text("2 2\n0\n2\n1\n1\n")
    spec = api.load_spec("nonogram")
    inst, = api.load_instances(spec, str(path))
    url = api.write_instance(spec, inst, "url")
    again, = api.load_instances(spec, url)
    assert again.clues == {(-1, 1): (2,), (0, -1): (1,), (1, -1): (1,)}
    assert api.solve(spec, inst).grid == api.solve(spec, again).grid == [".#", ".#"]


def test_nonogram_reads_what_puzzlink_writes(tmp_path):
    # lists of numbers read toward the board; the file's answer ('#', '+') is not read
    reads_what_puzzlink_writes(
        "nonogram", "http://pzv.jp/p.html?nonogram/4/3/2g1g2g2g214i",
        "pzprv3\nnonogram\n3\n4\n. . . . . . \n. . 2 1 2 2 \n1 2 # . # # \n"
        ". 4 # # # # \n. . . + . . \n",
        {(-1, 0): (2,), (-1, 1): (1,), (-1, 2): (2,), (-1, 3): (2,), (0, -1): (1, 2),
         (1, -1): (4,)}, tmp_path)


def test_nonogram_refuses_a_list_too_long_for_its_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("2 3\n1\n1\n1\n1 1 1\n-\n")
    run = run_cli("solve", "nonogram", path)
    assert run.returncode == 2 and "longer than its row or column" in run.stderr, run.stderr


# ---------------------------------------------------------------- every genre

class Case:
    """How a genre's boards are made and judged: ``make(rng, h, w)`` a random
    board, ``brute(board)`` its answers as printed rows, ``order`` the sides
    as its text instances give them, ``sizes`` (low, high) of the brute
    force's boards, ``example`` its example's file, ``trip`` boards for the
    round trips (default: ``make``, on boards up to 9 x 9)."""

    def __init__(self, make, brute, order, example, sizes=(2, 4), seed=27, trip=None):
        self.make, self.brute, self.order, self.example = make, brute, order, example
        self.sizes, self.seed, self.trip = sizes, seed, trip or make


CASES = {
    "tents": Case(tents_board, tents_brute, TENTS_ORDER, "six.txt"),
    "nonogram": Case(nonogram_board, nonogram_brute, NONOGRAM_ORDER, "house.txt", seed=11,
                     trip=lambda rng, h, w: nonogram_board(rng, h, w, zeros=False)),
}


@pytest.mark.slow
@pytest.mark.parametrize("genre", sorted(CASES))
def test_against_brute_force(genre):
    case = CASES[genre]
    rng = random.Random(case.seed)
    low, high = case.sizes
    boards = [case.make(rng, rng.randint(low, high), rng.randint(low, high)) for _ in range(40)]
    run_outside(genre, boards, case.brute, case.order)


@pytest.mark.parametrize("genre", sorted(CASES))
def test_round_trips_through_urls_and_files(genre, tmp_path):
    case = CASES[genre]
    rng = random.Random(case.seed + 1)
    boards = [case.trip(rng, rng.randint(1, 9), rng.randint(1, 9)) for _ in range(16)]
    texts = [b.text(case.order) for b in boards]
    round_trips(genre, texts + [(EXAMPLES / genre / case.example).read_text()], tmp_path)


@pytest.mark.parametrize("genre", sorted(CASES))
def test_example_is_unique(genre):
    examples_unique(genre)
