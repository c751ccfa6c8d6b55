"""Yin-Yang, Nondango, Hakoiri, Juosan, Shakashaka, Shugaku, Tatamibari and
Nawabari: the genres whose answers are issue 27's new kinds (circles, marks,
bars, triangles, futons, regions).

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
import json
import random

import pytest

import pzprjs
from conftest import EXAMPLES, run_cli
from genre_tools import examples_unique
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


def judged_by_pzprjs(tmp_path, genre, boards, text, brute, ops_of, tokens, free=None):
    """pzc's answers to ``boards`` (up to two a board), set on the boards
    pzprjs opens from the URLs `pzc convert` writes, pass pzprjs's check();
    each answer with one cell changed (to another of ``tokens``; a cell
    ``free(board, cell)`` allows, by default one without a clue) so that the
    brute force refuses it fails.  ``ops_of(board, rows)``: pzprjs's steps."""
    free = free or (lambda board, cell: board[cell[0]][cell[1]] == "-")
    pzprjs.need()
    path = tmp_path / "boards.txt"
    path.write_text("".join(text(b) for b in boards))
    urls = run_cli("convert", genre, path).stdout.split()
    assert len(urls) == len(boards)
    counted = run_cli("count", genre, path, "--show", "--limit", "2", "--format", "json")
    jobs, want = [], []
    for board, url, line in zip(boards, urls, counted.stdout.splitlines()):
        answers = json.loads(line)["solutions"]
        valid = brute(board)
        for rows in answers:
            jobs.append({"open": url, "ops": ops_of(board, rows)})
            want.append(True)
        if answers:
            jobs.append({"open": url, "ops": ops_of(board, broken(answers[0], tokens, valid,
                                                              lambda x: free(board, x)))})
            want.append(False)
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == want, [
        (j, v["text"]) for j, v, w in zip(jobs, verdicts, want) if v["complete"] != w]
    assert want.count(False) >= 3


def broken(rows, tokens, valid, free):
    """The printed answer ``rows`` with the first change of a ``free`` cell
    to another of ``tokens`` that is not among the ``valid`` answers."""
    cells = rows_of(rows)
    for r, c in itertools.product(range(len(cells)), range(len(cells[0]))):
        if not free((r, c)):
            continue
        for t in tokens:
            changed = [row[:] for row in cells]
            changed[r][c] = t
            if t != cells[r][c] and printed(changed) not in valid:
                return list(printed(changed))
    raise AssertionError(f"no change of {rows} breaks a rule")


def rows_of(rows):
    return [list(r.split() if " " in r else r) for r in rows]


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


# ---------------------------------------------------------------- every genre

GENRES = ["yinyang", "nondango"]


@pytest.mark.parametrize("genre", GENRES)
def test_examples_are_unique(genre, run_pzc):
    examples_unique(run_pzc, genre)


@pytest.mark.parametrize("genre", GENRES)
def test_examples_go_through_urls_and_files_unchanged(genre, tmp_path):
    """`pzc convert` writes each example as a URL and as a pzprv3 file; the
    file read back is the same URL and file again, and the URL read back,
    written as text, is the same URL again."""
    def convert(path, form, spec=()):
        run = run_cli("convert", *spec, path, "--format", form)
        assert run.returncode == 0, run.stderr
        out = tmp_path / f"{form}.{len(list(tmp_path.iterdir()))}"
        out.write_text(run.stdout)
        return run.stdout, out
    for path in sorted((EXAMPLES / genre).iterdir()):
        url, url_file = convert(path, "url", [genre])
        pzprv3, pzprv3_file = convert(path, "pzprv3", [genre])
        assert url.startswith(f"https://puzz.link/p?{genre}/")
        assert convert(pzprv3_file, "url")[0] == url
        assert convert(pzprv3_file, "pzprv3")[0] == pzprv3
        text, text_file = convert(url_file, "text")
        assert convert(text_file, "url", [genre])[0] == url
