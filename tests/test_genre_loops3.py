"""Issue 27's line genres Pipelink, Shirokuro and Moon or Sun against brute
forces written here.

Every drawing of a small board is made cell by cell (each cell one piece:
a box-drawing character, a crossing, an end, or nothing, its arms matching
its neighbours'), and each genre's rules are applied to them in plain
Python, as puzz.link checks them; that gives the exact answers of a board.
Boards are made here from a seeded random generator: clues read off a
random answer (several answers, one, or none when a clue is then made
wrong).  pzc's `count --show` must list the same answers, `solve` one of
them and `unique` agree.  Every board also goes to a puzz.link URL and a
pzprv3 file and back to the same instance, and pzprjs's own checker (the
npm package pzpr) accepts pzc's answers and refuses them with a link taken
away.
"""

from __future__ import annotations

import functools
import json
import random
import pytest

import pzprjs
from conftest import run_cli
from genre_tools import examples_unique, run_json, tokens, write_instances
from loop_tools import DOWN, LEFT, RIGHT, UP, Genre, add, rejects, same_instance

MOST = 30          # boards with more answers than this are not kept

# a cell's piece: the directions its line leaves it in
ARMS = {"─": {LEFT, RIGHT}, "│": {UP, DOWN}, "┌": {DOWN, RIGHT}, "┐": {DOWN, LEFT},
        "└": {UP, RIGHT}, "┘": {UP, LEFT}, "┼": {UP, DOWN, LEFT, RIGHT},
        "╴": {LEFT}, "╵": {UP}, "╶": {RIGHT}, "╷": {DOWN}, ".": set()}


def drawings(h, w, allowed):
    """Every board of pieces, cell by cell in reading order, each cell's
    piece one of ``allowed(cell)`` and its arms matched by its neighbours'
    (none leaving the board)."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    board = {}

    def fits(cell, piece):
        arms = ARMS[piece]
        r, c = cell
        if (DOWN in arms and r == h - 1) or (RIGHT in arms and c == w - 1):
            return False
        if (UP in arms) != (r > 0 and DOWN in ARMS[board[r - 1, c]]):
            return False
        return (LEFT in arms) == (c > 0 and RIGHT in ARMS[board[r, c - 1]])

    def place(k):
        if k == len(cells):
            yield [[board[r, c] for c in range(w)] for r in range(h)]
            return
        for piece in allowed(cells[k]):
            if fits(cells[k], piece):
                board[cells[k]] = piece
                yield from place(k + 1)
        board.pop(cells[k], None)
    return list(place(0))


def strands(board):
    """The lines of a board as groups of links (pairs of cells): links join
    through a cell unless the line crosses itself there, where only the
    links straight across join."""
    h, w = len(board), len(board[0])
    links = [((r, c), add((r, c), d)) for r in range(h) for c in range(w)
             for d in (DOWN, RIGHT) if d in ARMS[board[r][c]]]
    parent = {x: x for x in links}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x
    at = {}
    for a, b in links:
        d = (b[0] - a[0], b[1] - a[1])
        at.setdefault(a, []).append(((a, b), d))
        at.setdefault(b, []).append(((a, b), (-d[0], -d[1])))
    for cell, ends in at.items():
        for x, dx in ends:
            for y, dy in ends:
                if len(ends) < 4 or dx == (-dy[0], -dy[1]):
                    parent[root(x)] = root(y)
    return len({root(x) for x in links})


def answers_as_sets(tmp_path, genre, boards, answers_of, layers=lambda board: [board]):
    """pzc's `count --show` lists exactly the brute force's answers for each
    board, `solve` finds one of them (or none) and `unique` agrees; the
    numbers of answers."""
    path = write_instances(tmp_path, boards, layers)
    wants = [answers_of(b) for b in boards]
    counted = run_json("count", genre, path, "--show", "--limit", str(MOST + 1))
    for r, want in zip(counted, wants):
        assert r["complete"] and r["count"] == len(want), r
        got = {tuple(tuple(tokens(row)) for row in s) for s in r["solutions"]}
        assert got == {tuple(map(tuple, a)) for a in want}, r["instance"]
    for r, want in zip(run_json("solve", genre, path), wants):
        if want:
            assert r["status"] == "solved" and r["verified"], r
            assert [tokens(x) for x in r["grid"]] in want
        else:
            assert r["status"] == "unsat", r
    uniq = run_json("unique", genre, path)
    assert [r["unique"] for r in uniq] == [len(a) == 1 for a in wants]
    return [len(a) for a in wants]


# ------------------------------------------------------------------ Pipelink

@functools.lru_cache(maxsize=None)
def pipelink_loops(h, w):
    """Every drawing of one loop through all cells, crossing itself or not."""
    pieces = ["─", "│", "┌", "┐", "└", "┘", "┼"]
    return [b for b in drawings(h, w, lambda cell: pieces) if strands(b) == 1]


def pipelink_answers(board):
    """The loops whose pieces are the given ones ('?' says nothing)."""
    h, w = len(board), len(board[0])
    return [d for d in pipelink_loops(h, w)
            if all(t in (".", "?", d[r][c]) for r, row in enumerate(board)
                   for c, t in enumerate(row))]


def pipelink_boards(rng, h, w, n):
    """A few pieces of a random loop given, now and then a '?'; now and then
    one piece swapped for another (often no answer then)."""
    boards = []
    while len(boards) < n:
        loop = rng.choice(pipelink_loops(h, w))
        board = [["."] * w for _ in range(h)]
        crossings = [(r, c) for r in range(h) for c in range(w) if loop[r][c] == "┼"]
        shown = rng.sample([(r, c) for r in range(h) for c in range(w)], rng.randint(1, h * w // 2))
        for r, c in shown + crossings[:rng.randint(0, 1)]:
            board[r][c] = loop[r][c]
        r, c = shown[0]
        if rng.random() < 0.1:
            board[r][c] = "?"
        elif rng.random() < 0.3:
            board[r][c] = rng.choice([t for t in "─│┌┐└┘┼" if t != loop[r][c]])
        if len(pipelink_answers(board)) <= MOST:
            boards.append(board)
    return boards


def test_pipelink_two_loops_crossing_are_not_one():
    """The brute force's own check: a figure eight is one loop, two rings
    crossing each other are two (as pzprjs counts them)."""
    eight = [list("┌┐."), list("└┼┐"), list(".└┘")]
    rings = [list(".┌┐."), list("┌┼┼┐"), list("└┼┼┘"), list(".└┘.")]
    assert strands(eight) == 1 and strands(rings) == 2


def test_pipelink_two_loops_crossing_are_refused_by_pzprjs(tmp_path):
    """pzprjs agrees with the brute force: lines through every cell that
    make two loops crossing each other are refused as several loops."""
    pzprjs.need()
    two = next(b for b in drawings(4, 5, lambda cell: list("─│┌┐└┘┼")) if strands(b) == 2
               and any("┼" in row for row in b))
    one = pipelink_loops(4, 5)[0]
    url = "https://puzz.link/p?pipelink/5/4/"
    verdicts = pzprjs.check([{"open": url, "ops": line_ops(["".join(r) for r in b])}
                             for b in (two, one)])
    assert [v["complete"] for v in verdicts] == [False, True], verdicts
    assert verdicts[0]["code"] == "lnPlLoop", verdicts


def test_pipelink_errors(tmp_path):
    rejects("pipelink", tmp_path, "3 2\n. ├ .\n. . .\n", "2:3", "'├' is not allowed")
    # a circle (a digit) is puzz.link's Pipelink Returns, another genre
    url = "https://puzz.link/p?pipelink/2/1/1"
    out = run_cli("solve", url)
    assert out.returncode == 2 and f"{url}:1:34: error: '6' is not allowed" in out.stderr
    file = tmp_path / "bad.pzprv3"
    file.write_text("pzprv3\npipelink\n2\n2\npipe\nx . \n. . \n")
    out = run_cli("solve", file)
    assert out.returncode == 2
    assert "bad.pzprv3:6:1: error: the line parts: 'x' is not a line part" in out.stderr


def test_pipelink_generates_puzzles_the_brute_force_finds_unique():
    out = run_cli("generate", "pipelink", "--size", "5", "--count", "3", "--seed", "2",
                  "--format", "json")
    assert out.returncode == 0, out.stderr
    for g in map(json.loads, out.stdout.splitlines()):
        board = [row.split() for row in g["instance"].strip().split("\n")[1:]]
        assert pipelink_answers(board) == [[list(row) for row in g["solution"]]], g


# ------------------------------------------------------------------ every genre

GENRES = {"pipelink": Genre(pipelink_boards, pipelink_answers)}


@pytest.mark.parametrize("genre", sorted(GENRES))
@pytest.mark.parametrize("h, w, seed", [(4, 4, 1), (4, 5, 2), (5, 5, 3), (4, 6, 4)])
def test_against_brute_force_and_back_from_urls_and_files(tmp_path, genre, h, w, seed):
    g = GENRES[genre]
    boards = g.boards(random.Random(seed), h, w, 12)
    counts = answers_as_sets(tmp_path, genre, boards, g.answers, layers=g.layers)
    assert 0 in counts and 1 in counts and any(k > 1 for k in counts), counts
    same_instance(genre, write_instances(tmp_path, boards, g.layers), tmp_path, g.regions)


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_examples_are_unique(genre, run_pzc):
    examples_unique(run_pzc, genre)


def line_ops(grid) -> list:
    """pzc's answer as steps on pzprjs's board: the links of its lines."""
    ops = []
    for r, row in enumerate(grid):
        for c, t in enumerate(tokens(row)):
            if RIGHT in ARMS.get(t, ()):
                ops.append(pzprjs.border((r, c), (r, c + 1), "setLineVal", 1))
            if DOWN in ARMS.get(t, ()):
                ops.append(pzprjs.border((r, c), (r + 1, c), "setLineVal", 1))
    return ops


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_pzprjs_accepts_the_answers_from_urls(tmp_path, genre):
    """Boards made here, written as puzz.link URLs by `pzc convert`, solved
    from the URLs; pzprjs opens each URL, takes pzc's answer and finds it
    complete, and refuses it with one link taken away."""
    pzprjs.need()
    g = GENRES[genre]
    boards = [b for b in g.boards(random.Random(7), 4, 4, 12) if g.answers(b)][:6]
    path = write_instances(tmp_path, boards, g.layers)
    urls = run_cli("convert", genre, path).stdout.split()
    assert len(urls) == len(boards)
    files = run_cli("convert", genre, path, "--format", "pzprv3").stdout.split("\n\n")
    jobs = []
    for url, file, r in zip(urls, files, run_json("solve", genre, *urls)):
        assert r["status"] == "solved", r
        ops = line_ops(r["grid"])
        jobs += [{"open": url, "ops": ops}, {"open": url, "ops": ops[1:]}, {"open": file}]
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts[0::3]] == [True] * len(boards), verdicts
    assert [v["complete"] for v in verdicts[1::3]] == [False] * len(boards), verdicts
    # pzc's pzprv3 files are the puzzles of its URLs to pzprjs too
    assert [v["url"] for v in verdicts[2::3]] == [v["url"] for v in verdicts[0::3]]
