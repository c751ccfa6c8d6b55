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
from marks_tools import judged_by_pzprjs, rows_of
from outside_tools import cells_of, examples_unique, reads_what_puzzlink_writes, round_trips
from shaded import printed, run_genre


def round_trips_with_examples(genre, boards, tmp_path):
    """The boards (their ``text()``) and the genre's examples go through URLs
    and files unchanged."""
    examples = [p.read_text() for p in sorted((EXAMPLES / genre).iterdir())]
    round_trips(genre, [b.text() for b in boards] + examples, tmp_path)


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
    round_trips_with_examples("tilepaint", boards, tmp_path)


def test_tilepaint_reads_what_puzzlink_writes(tmp_path):
    # as pzprjs wrote them: numbers outside the grid, a clue cell with 1 down
    # and 0 across ('.' in the rooms); the file's answer ('#', '+') is not read
    reads_what_puzzlink_writes(
        "tilepaint", "http://pzv.jp/p.html?tilepaint/3/3/b0v0h10l2.1.21",
        "pzprv3\ntilepaint\n3\n3\n4\n0 0 . \n1 1 2 \n3 2 2 \n0 2 -1 1 \n"
        "-1 . . 0,1 \n2 . . . \n1 . . . \n# # . \n. + . \n. . # \n",
        {(-1, 0): 2, (-1, 2): 1, (1, -1): 2, (2, -1): 1, (0, 2): "1,0"}, tmp_path)


def test_tilepaint_refuses_a_bad_clue_cell(tmp_path):
    refuses(tmp_path, "tilepaint", "2 2\n. .\n. .\n1;2 .\n. .\na b\nc d\n",
            "a clue cell is '-' or \"down,across\"")


def test_tilepaint_example_is_unique():
    examples_unique("tilepaint")


# ---------------------------------------------------------------- Kakurasu

class Sums:
    """A Kakurasu board: the numbers above the columns and left of the rows;
    ``grid`` whether its text gives the blank grid (it may leave it out)."""

    def __init__(self, top, left, grid=False):
        self.top, self.left, self.grid = top, left, grid
        self.h, self.w = len(left), len(top)

    def text(self):
        lines = [f"{self.h} {self.w}", " ".join(map(str, self.top)), " ".join(map(str, self.left))]
        lines += ["." * self.w] * self.h if self.grid else []
        return "\n".join(lines) + "\n"


def weighed(cells):
    """A line's cells shaded or not as its sum: 1 for its first cell, 2 the next..."""
    return sum(k + 1 for k, on in enumerate(cells) if on)


def kakurasu_brute(board):
    """Every shading whose rows and columns add up to their numbers (a row's
    shadings are those of its sum, so the columns are checked on fewer)."""
    rows = [[bits for bits in itertools.product((False, True), repeat=board.w)
             if weighed(bits) == n] for n in board.left]
    return {printed([["#" if on else "." for on in row] for row in pick])
            for pick in itertools.product(*rows)
            if any(map(any, pick))
            and all(weighed([row[c] for row in pick]) == n for c, n in enumerate(board.top))}


def kakurasu_board(rng, h, w, changed=0.12):
    """The sums of a random shading, some of them (``changed``) changed."""
    shaded = [[rng.random() < 0.5 for _ in range(w)] for _ in range(h)]

    def spoil(n):
        return max(0, n + rng.choice([-2, -1, 1, 2])) if rng.random() < changed else n
    return Sums([spoil(weighed([row[c] for row in shaded])) for c in range(w)],
                [spoil(weighed(row)) for row in shaded], grid=True)


def kakurasu_boards(seed, n, low=2, high=5):
    """``n`` boards, and six 6 x 6 ones unchanged: where all the sums are
    given, several answers are rare below that size."""
    rng = random.Random(seed)
    return ([kakurasu_board(rng, rng.randint(low, high), rng.randint(low, high))
             for _ in range(n)] + [kakurasu_board(rng, 6, 6, 0) for _ in range(6)])


def test_kakurasu_against_brute_force():
    run_genre("kakurasu", kakurasu_boards(27, 34), kakurasu_brute, text=Sums.text)


def test_kakurasu_answers_pass_pzprjs_check(tmp_path):
    judged_by_pzprjs(tmp_path, "kakurasu", kakurasu_boards(28, 24), Sums.text,
                     kakurasu_brute, shading_ops, "#.", lambda board, x: True)


def test_kakurasu_round_trips_through_urls_and_files(tmp_path):
    boards = kakurasu_boards(29, 16, 1, 9)
    for b in boards[::2]:       # alone in its file, a board may leave its grid out
        b.grid = False
    round_trips_with_examples("kakurasu", boards, tmp_path)


def test_kakurasu_reads_what_puzzlink_writes(tmp_path):
    # as pzprjs wrote them: base-32 numbers, '-' and two digits for 36; the
    # file's answer ('#' shaded, '+' a dot) is not read
    reads_what_puzzlink_writes(
        "kakurasu", "http://pzv.jp/p.html?box/8/3/10361120-1407",
        "pzprv3\nbox\n3\n8\n. 1 0 3 6 1 1 2 0 \n36 # # # # # # # # \n"
        "0 + . . . . . . . \n7 . . + # . . . . \n",
        dict(zip([(-1, c) for c in range(8)] + [(r, -1) for r in range(3)],
                 [1, 0, 3, 6, 1, 1, 2, 0, 36, 0, 7])), tmp_path)


def test_kakurasu_refuses_a_missing_number(tmp_path):
    refuses(tmp_path, "kakurasu", "2 2\n1 .\n1 2\n", "every row and column has its number")
    refuses(tmp_path, "kakurasu", "2 2\n1 1\n1 2\n. .\n. 3\n", "the grid holds no clues")


def test_kakurasu_example_is_unique():
    examples_unique("kakurasu")


# ---------------------------------------------------------------- Easy as ABC

class Letters:
    """An Easy as ABC board: ``n`` letters, ``sides`` the letters outside
    ({side: tokens}, '.' none), ``grid`` the given letters ('.' none)."""

    def __init__(self, n, sides, grid):
        self.n, self.sides, self.grid = n, sides, grid
        self.h, self.w = len(grid), len(grid[0])

    def text(self):
        lines = [f"{self.h} {self.w} {self.n}"]
        lines += [" ".join(self.sides[s]) for s in ("top", "bottom", "left", "right")]
        return "\n".join(lines + [" ".join(r) for r in self.grid]) + "\n"

    def letters(self):
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:self.n]


def seen(line):
    """The first letter of a line of tokens ('.' empty), or None."""
    return next((t for t in line if t != "."), None)


def row_fillings(board, r):
    """The fillings of row r with each letter once that keep its given
    letters and show the letters left and right of it."""
    out = []
    for spots in itertools.permutations(range(board.w), board.n):
        row = ["."] * board.w
        for letter, c in zip(board.letters(), spots):
            row[c] = letter
        if (all(g in (".", t) for g, t in zip(board.grid[r], row))
                and board.sides["left"][r] in (".", seen(row))
                and board.sides["right"][r] in (".", seen(row[::-1]))):
            out.append(row)
    return out


def abc_brute(board, first=False, rng=None):
    """Every answer (puzz.link's checks: each letter once a row and a column,
    the letters outside seen first), row by row; with ``first`` the first
    one found (the rows tried in ``rng``'s order: a random answer)."""
    options = [row_fillings(board, r) for r in range(board.h)]
    if rng:
        for o in options:
            rng.shuffle(o)
    found = set()

    def columns_ok(rows, full):
        for c in range(board.w):
            col = [row[c] for row in rows]
            letters = [t for t in col if t != "."]
            if len(set(letters)) != len(letters) or (full and len(letters) != board.n):
                return False
            if full and (board.sides["top"][c] not in (".", seen(col))
                         or board.sides["bottom"][c] not in (".", seen(col[::-1]))):
                return False
        return True

    def extend(rows):
        if len(rows) == board.h:
            if columns_ok(rows, True):
                found.add(printed(rows))
            return
        for row in options[len(rows)]:
            if columns_ok(rows + [row], False):
                extend(rows + [row])
                if first and found:
                    return
    extend([])
    return found


def abc_board(rng, h, w):
    """The letters a random answer shows outside, and some of its letters in
    the grid; some dropped or changed."""
    n = rng.randint(max(1, min(h, w) - 2), min(h, w))
    blank = Letters(n, {s: ["."] * (w if s in ("top", "bottom") else h)
                        for s in ("top", "bottom", "left", "right")}, [["."] * w for _ in range(h)])
    answer, = abc_brute(blank, first=True, rng=rng)
    rows = rows_of(answer)
    cols = [[row[c] for row in rows] for c in range(w)]
    sides = {"top": [seen(col) for col in cols], "bottom": [seen(col[::-1]) for col in cols],
             "left": [seen(row) for row in rows], "right": [seen(row[::-1]) for row in rows]}

    def spoil(t):
        x = rng.random()
        return "." if x < 0.4 else rng.choice(blank.letters()) if x < 0.5 else t
    grid = [[t if t != "." and rng.random() < 0.1 else "." for t in row] for row in rows]
    return Letters(n, {s: [spoil(t) for t in ts] for s, ts in sides.items()}, grid)


def abc_boards(seed, n, low=2, high=5):
    """Square boards: every row and every column holds the n letters, so
    there are as many rows as columns."""
    rng = random.Random(seed)
    sizes = [rng.randint(low, high) for _ in range(n)]
    return [abc_board(rng, k, k) for k in sizes]


def test_easyasabc_against_brute_force():
    run_genre("easyasabc", abc_boards(27, 40), abc_brute, text=Letters.text)


def letter_ops(board, rows):
    # the given letters too: the npm package's Easy as ABC has none in its cells
    return [pzprjs.cell(r, c, "setAnum", "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(t) + 1)
            for r, row in enumerate(rows_of(rows)) for c, t in enumerate(row) if t != "."]


def test_easyasabc_answers_pass_pzprjs_check(tmp_path):
    judged_by_pzprjs(tmp_path, "easyasabc", abc_boards(28, 30), Letters.text, abc_brute,
                     letter_ops, ".ABCDE", lambda board, x: board.grid[x[0]][x[1]] == ".")


def test_easyasabc_round_trips_through_urls_and_files(tmp_path):
    round_trips_with_examples("easyasabc", abc_boards(29, 16, 1, 7), tmp_path)


def test_easyasabc_reads_what_puzzlink_writes(tmp_path):
    # as today's puzz.link (robx/pzprjs, built from its source) wrote them: 3
    # letters, the numbers 1..3 outside on the four sides and one in a cell
    # ('q1'); the file's answer (a letter '2', '+' a dot) is not read
    reads_what_puzzlink_writes(
        "easyasabc", "http://pzv.jp/p.html?easyasabc/4/4/3/1g3h2h2h33g1gh1s",
        "pzprv3\neasyasabc\n4\n4\n3\n. 1 . 3 . . \n2 . . q1 + 3 \n. 2 . . . . \n"
        ". . . . . 1 \n3 . . . . . \n. . 2 . . . \n",
        {(-1, 0): "A", (-1, 2): "C", (4, 1): "B", (0, -1): "B", (3, -1): "C", (0, 4): "C",
         (2, 4): "A", (0, 2): "A"}, tmp_path)


def test_easyasabc_refuses_letters_past_its_range(tmp_path):
    refuses(tmp_path, "easyasabc", "2 2 1\nA .\n. .\n. .\n. B\n. .\n. .\n", "'B' is not allowed")


def test_easyasabc_example_is_unique():
    examples_unique("easyasabc")
