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

import pzprjs
from conftest import EXAMPLES, run_cli
from outside_tools import cells_of, examples_unique, reads_what_puzzlink_writes, round_trips
from pzc import api
from genre_tools import tokens
from shaded import blocks, connected, neighbours, printed, run_genre

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


def around(h, w, r, c):
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and 0 <= r + dr < h and 0 <= c + dc < w]


def subsets(cells):
    cells = list(cells)
    for bits in itertools.product((False, True), repeat=len(cells)):
        yield {x for x, b in zip(cells, bits) if b}


def spoil(rng, board):
    """Drop some counts outside the grid and change a few by one (within
    0..the length of the line)."""
    for side, tokens in board.sides.items():
        most = board.h if side in ("top", "bottom") else board.w
        for k, t in enumerate(tokens):
            x = rng.random()
            if x < 0.3:
                tokens[k] = "-"
            elif x < 0.4:
                tokens[k] = t + 1 if t < most else t - 1
    return board


def run_outside(spec, boards, brute, order):
    return run_genre(spec, boards, brute, text=lambda b: b.text(order))


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
    return spoil(rng, board)


TENTS_ORDER = ("top", "left")


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


# ---------------------------------------------------------------- Battleships

def ship_part(shaded, r, c):
    """pzprjs's shape of a ship cell from its neighbours (Board.getShape)."""
    up, down, left, right = ((r + dr, c + dc) in shaded for dr, dc in
                             ((-1, 0), (1, 0), (0, -1), (0, 1)))
    if up and down or left and right:
        return "m"
    return "n" if down else "s" if up else "w" if right else "e" if left else "o"


def battleship_ok(board, shaded):
    """puzz.link's checks: every group of ship cells (side by side) is a
    straight ship, and the groups are the fleet; no two ship cells touch
    diagonally unless the same group holds them; the counts outside; the
    given cells (water, '?', a ship's part)."""
    h, w = board.h, board.w
    group_of = blocks(shaded, h, w)
    groups = set(group_of.values())
    for g in groups:
        rows, cols = {r for r, _ in g}, {c for _, c in g}
        if len(rows) > 1 and len(cols) > 1:
            return False
    lengths = sorted(len(g) for g in groups)
    fleet = sorted(k for k, n in enumerate(board.params, 1) for _ in range(n))
    if lengths != fleet:
        return False
    for (r, c) in shaded:
        for y in ((r + 1, c - 1), (r + 1, c + 1)):
            if y in shaded and group_of[y] != group_of[(r, c)]:
                return False
    if not all(sum(x in shaded for x in board.line(s, k)) == n for s, k, n in board.places()):
        return False
    for r, c in cells_of(h, w):
        t = board.grid[r][c]
        if t == "x" and (r, c) in shaded or t == "?" and (r, c) not in shaded:
            return False
        if t in "nswemo" and ((r, c) not in shaded or ship_part(shaded, r, c) != t):
            return False
    return True


def battleship_picture(board, shaded):
    return printed([[ship_part(shaded, r, c) if (r, c) in shaded else "."
                     for c in range(board.w)] for r in range(board.h)])


def battleship_brute(board):
    return {battleship_picture(board, s) for s in subsets(cells_of(board.h, board.w))
            if battleship_ok(board, s)}


def battleship_board(rng, h, w):
    """A fleet placed at random (ships apart), its counts, a few given cells."""
    fleet = [rng.randint(0, 3), rng.randint(0, 2)] + ([rng.randint(1, 1)] if rng.random() < 0.5
                                                      else [])
    while fleet and fleet[-1] == 0:
        fleet.pop()
    shaded = set()
    for k in sorted((k for k, n in enumerate(fleet, 1) for _ in range(n)), reverse=True):
        for _ in range(30):
            d = rng.choice([(0, 1), (1, 0)])
            r, c = rng.randrange(h), rng.randrange(w)
            body = [(r + i * d[0], c + i * d[1]) for i in range(k)]
            if all(0 <= y < h and 0 <= x < w for y, x in body) and not any(
                    z in shaded for y, x in body for z in around(h, w, y, x) + [(y, x)]):
                shaded |= set(body)
                break
    grid = [["-"] * w for _ in range(h)]
    for r, c in rng.sample(cells_of(h, w), rng.randint(0, 2)):
        grid[r][c] = ship_part(shaded, r, c) if (r, c) in shaded else "x"
        if rng.random() < 0.15:
            grid[r][c] = "?"
    board = Board(grid, {"top": [sum((r, c) in shaded for r in range(h)) for c in range(w)],
                         "left": [sum((r, c) in shaded for c in range(w)) for r in range(h)]},
                  params=fleet)
    return spoil(rng, board)


BATTLESHIP_ORDER = ("top", "left")


def test_battleship_reads_what_puzzlink_writes(tmp_path):
    # a fleet of its own (two ships of 1 cell, one of 2), piece by piece; the
    # file's answer ('#') is not read
    reads_what_puzzlink_writes(
        "battleship", "http://pzv.jp/p.html?battleship/3/3/202211h10k/3/11g/11g/21o",
        "pzprv3\nbattleship\n3\n3\n3\n11g\n11g\n21o\n. 2 0 2 \n2 . . 1 \n1 0 . . \n"
        "1 . . . \n# . . \n. . # \n# . . \n0 0 0 \n",
        {(-1, 0): 2, (-1, 1): 0, (-1, 2): 2, (0, -1): 2, (1, -1): 1, (2, -1): 1,
         (0, 2): "n", (1, 0): "x"}, tmp_path)


def test_battleship_fleet_of_any_ships(tmp_path):
    """A fleet that is not one of pzprjs's presets is written piece by piece,
    and a bank with a piece that is not a straight ship is refused."""
    spec = api.load_spec("battleship")
    path = tmp_path / "fleet.txt"
    path.write_text("2 7 1 0 0 0 0 0 1\n- - - - - - -\n- -\n- - - - - - -\n- - - - - - -\n")
    inst, = api.load_instances(spec, str(path))
    url = api.write_instance(spec, inst, "url")
    assert url.endswith("/2/11g/71vo")
    assert api.load_instances(spec, url)[0].params == {"fleet": (1, 0, 0, 0, 0, 0, 1)}
    run = run_cli("solve", url.replace("/2/11g/71vo", "/2/11g/22u"))
    assert run.returncode == 2 and "not a straight ship" in run.stderr, run.stderr


# ---------------------------------------------------------------- Snake

def snake_ok(board, shaded):
    """puzz.link's checks (snake.js): some cell shaded; no 2 x 2 shaded; no
    cell with three shaded neighbours; circles shaded, a black one ('x') an
    end (one shaded neighbour), a white one ('o') not (two); no 2 x 2 with
    just two shaded cells corner to corner; the counts outside; the shaded
    cells connected and not a loop."""
    h, w = board.h, board.w
    if not shaded:
        return False
    degree = {x: sum(y in shaded for y in neighbours(h, w, *x)) for x in shaded}
    if any(d > 2 for d in degree.values()):
        return False
    for r in range(h - 1):
        for c in range(w - 1):
            square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            on = [x in shaded for x in square]
            if all(on) or on in ([True, False, False, True], [False, True, True, False]):
                return False
    for r, c in cells_of(h, w):
        t = board.grid[r][c]
        if t in ("x", "o") and ((r, c) not in shaded or degree[(r, c)] != (1 if t == "x" else 2)):
            return False
    if not all(sum(x in shaded for x in board.line(s, k)) == n for s, k, n in board.places()):
        return False
    return len(set(blocks(shaded, h, w).values())) == 1 and any(d < 2 for d in degree.values())


def snake_brute(board):
    return {shaded_picture(board, s) for s in subsets(cells_of(board.h, board.w))
            if snake_ok(board, s)}


def snake_board(rng, h, w):
    """A random walk that keeps to puzz.link's rules, its counts, its ends
    marked 'x' (sometimes), a cell on its way 'o' (sometimes)."""
    path = [(rng.randrange(h), rng.randrange(w))]
    for _ in range(rng.randint(0, h * w)):
        nexts = [x for x in neighbours(h, w, *path[-1]) if x not in path
                 and snake_ok(Board([["-"] * w for _ in range(h)], {}), set(path) | {x})]
        if not nexts:
            break
        path.append(rng.choice(nexts))
    grid = [["-"] * w for _ in range(h)]
    for end in {path[0], path[-1]}:
        if rng.random() < 0.6 and len(path) > 1:
            grid[end[0]][end[1]] = "x"
    if len(path) > 2 and rng.random() < 0.3:
        r, c = rng.choice(path[1:-1])
        grid[r][c] = "o"
    shaded = set(path)
    board = Board(grid, {"top": [sum((r, c) in shaded for r in range(h)) for c in range(w)],
                         "left": [sum((r, c) in shaded for c in range(w)) for r in range(h)]})
    return spoil(rng, board)


SNAKE_ORDER = ("top", "left")


def test_snake_reads_what_puzzlink_writes(tmp_path):
    # circles, then counts; in the file a cell is its circle plus 4 (shaded) or 8 (a dot)
    reads_what_puzzlink_writes(
        "snake", "http://pzv.jp/p.html?snake/3/3/i0313g2g2",
        "pzprv3\nsnake\n3\n3\n. 1 3 . \n2 6 4 0 \n. 0 4 8 \n2 0 5 4 \n",
        {(-1, 0): 1, (-1, 1): 3, (0, -1): 2, (2, -1): 2, (0, 0): "x", (2, 1): "o"}, tmp_path)


# ---------------------------------------------------------------- Skyscrapers

def seen(heights):
    """How many buildings one sees along ``heights``, nearest first."""
    top, n = 0, 0
    for x in heights:
        if x > top:
            top, n = x, n + 1
    return n


def fillings(h, w, ok_row=lambda r, row: True):
    """Every filling of an h x w board with 1..max(h, w), no number twice in
    a row or column (``ok_row`` may refuse a row early)."""
    n = max(h, w)
    rows = [p for p in itertools.permutations(range(1, n + 1), w)]

    def extend(done):
        if len(done) == h:
            yield done
            return
        for row in rows:
            if ok_row(len(done), row) and all(row[c] != d[c] for d in done for c in range(w)):
                yield from extend(done + [row])
    yield from extend([])


def skyscrapers_ok(board, grid):
    return all(seen(grid[r][c] for r, c in board.line(s, k)) == n for s, k, n in board.places())


def skyscrapers_brute(board):
    def givens(r, row):
        return all(t == "-" or row[c] == t for c, t in enumerate(board.grid[r]))
    return {printed([[str(x) for x in row] for row in g])
            for g in fillings(board.h, board.w, givens) if skyscrapers_ok(board, g)}


def skyscrapers_board(rng, h, w, givens=True, drop=0.4):
    n = max(h, w)               # a cyclic square, its rows, columns and heights shuffled
    rows, cols, heights = (rng.sample(range(n), n) for _ in range(3))
    grid = [[heights[(rows[r] + cols[c]) % n] + 1 for c in range(w)] for r in range(h)]
    board = Board([["-"] * w for _ in range(h)], {})
    board.sides = {side: [seen(grid[r][c] for r, c in board.line(side, k))
                          for k in range(w if side in ("top", "bottom") else h)]
                   for side in SIDES}
    for r, c in cells_of(h, w):
        if givens and rng.random() < 0.08:
            board.grid[r][c] = grid[r][c]
    spoil(rng, board)
    for tokens in board.sides.values():       # fewer counts: several answers too
        for k in range(len(tokens)):
            if rng.random() < drop:
                tokens[k] = "-"
    return board


def test_skyscrapers_reads_what_puzzlink_writes(tmp_path):
    # counts on four sides, then the given height (2, 2); in the file 'q3' is
    # given, the answer's numbers are not read
    reads_what_puzzlink_writes(
        "skyscrapers", "http://pzv.jp/p.html?skyscrapers/3/3/3j2g2jj3j",
        "pzprv3\nskyscrapers\n3\n3\n. 3 . . . \n. 1 2 3 . \n2 2 q3 1 . \n"
        ". 3 1 2 . \n. . . 2 . \n",
        {(-1, 0): 3, (3, 2): 2, (1, -1): 2, (1, 1): 3}, tmp_path)


def test_skyscrapers_pzprjs_checks_the_answers(tmp_path):
    """Boards without given heights (the npm package's Building has none) as
    URLs: pzprjs opens them, takes each answer pzc finds (up to two) and
    says complete; the only answer with a height changed it refuses."""
    pzprjs.need()
    rng = random.Random(12)
    spec = api.load_spec("skyscrapers")
    jobs, expect = [], []
    for i in range(20):
        board = skyscrapers_board(rng, rng.randint(2, 5), rng.randint(2, 5), givens=False,
                                  drop=0.1)
        path = tmp_path / f"b{i}.txt"
        path.write_text(board.text(SIDES))
        inst, = api.load_instances(spec, str(path))
        url = api.write_instance(spec, inst, "url")
        found = api.count(spec, inst, limit=2)
        for k, rows in enumerate(found.solutions):
            grid = [[int(t) for t in tokens(row)] for row in rows]
            ops = [pzprjs.cell(r, c, "setAnum", x) for r, row in enumerate(grid)
                   for c, x in enumerate(row)]
            jobs.append({"open": url, "ops": ops})
            expect.append(True)
            if found.count == 1:
                broken = [list(op) for op in ops]
                broken[0][-1] = grid[0][0] % max(board.h, board.w) + 1
                jobs.append({"open": url, "ops": broken})
                expect.append(False)
    verdicts = pzprjs.check(jobs)
    assert [v.get("complete") for v in verdicts] == expect, verdicts
    assert expect.count(True) >= 10 and expect.count(False) >= 3


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
    "battleship": Case(battleship_board, battleship_brute, BATTLESHIP_ORDER, "seven.txt",
                       seed=3),
    "snake": Case(snake_board, snake_brute, SNAKE_ORDER, "seven.txt", seed=8),
    "skyscrapers": Case(skyscrapers_board, skyscrapers_brute, SIDES, "five.txt", seed=4),
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
