"""Shikaku (specs/shikaku.pz) against a brute force written here: every
tiling of a small board by rectangles is listed, and the ones whose every
rectangle holds exactly one clue equal to its area ('?': any) are the
solutions.  On random instances (clues from a random tiling, some '?', some
dropped or changed) pzc's boards equal those, as sets; `unique` and the
example too."""

from __future__ import annotations

from functools import lru_cache

import pytest

from genre_tools import (check_against, counted, examples_unique, grid_text, needs_pzpr,
                         pzpr_check, pzprv3, rejects, rng, unique_and_several)


@lru_cache(maxsize=None)
def tilings(h, w):
    """Every division of an h x w board into rectangles, each a tuple of
    rectangles (frozensets of cells)."""
    out = []

    def go(covered, rects):
        free = [(r, c) for r in range(h) for c in range(w) if (r, c) not in covered]
        if not free:
            out.append(tuple(rects))
            return
        t, l = free[0]
        for b in range(t, h):
            for k in range(l, w):
                box = frozenset((r, c) for r in range(t, b + 1) for c in range(l, k + 1))
                if box & covered:
                    break
                go(covered | box, rects + [box])
    go(frozenset(), [])
    return out


def brute(rows):
    h, w = len(rows), len(rows[0])
    clues = [(r, c) for r in range(h) for c in range(w) if rows[r][c] != "-"]
    label = {k: str(i) for i, k in enumerate(clues)}
    found = []
    for tiling in tilings(h, w):
        board = [[None] * w for _ in range(h)]
        for box in tiling:
            inside = [k for k in clues if k in box]
            if len(inside) != 1:
                break
            t = rows[inside[0][0]][inside[0][1]]
            if t != "?" and int(t) != len(box):
                break
            for r, c in box:
                board[r][c] = label[inside[0]]
        else:
            found.append(board)
    return found


def random_instance(g, h, w):
    rows = [["-"] * w for _ in range(h)]
    for box in g.choice(tilings(h, w)):
        r, c = g.choice(sorted(box))
        rows[r][c] = "?" if g.random() < 0.15 else str(len(box))
    fix = g.random()
    if fix < 0.2:            # a clue more or less, or a wrong number
        r, c = g.randrange(h), g.randrange(w)
        rows[r][c] = "-" if rows[r][c] != "-" else str(g.randint(1, 4))
    elif fix < 0.3:
        r, c = next((r, c) for r in range(h) for c in range(w) if rows[r][c] != "-")
        rows[r][c] = str(g.randint(1, h * w))
    if all(t == "-" for row in rows for t in row):
        rows[0][0] = "2"
    return rows


@pytest.mark.slow
def test_random_boards_match_brute_force(tmp_path):
    g = rng(7)
    cases = [random_instance(g, *g.choice([(3, 3), (3, 4), (4, 4), (2, 5), (3, 5)]))
             for _ in range(60)]
    check_against("shikaku", tmp_path, cases, brute)


def test_unique_and_errors(tmp_path, run_pzc, write):
    one = [["-", "3", "-"], ["2", "-", "-"], ["-", "-", "4"]]
    two = [["-", "?", "-"], ["?", "-", "-"], ["-", "-", "4"]]
    unique_and_several("shikaku", tmp_path, brute, one, two)
    rejects(run_pzc, write, "shikaku", "2 2\n4 x\n- -\n", "bad.txt:2:3")
    rejects(run_pzc, write, "shikaku", "2 2\n- -\n- -\n", "at least one number")


def test_example(run_pzc):
    examples_unique(run_pzc, "shikaku")


def shikaku_file(rows, board):
    """pzprv3: the numbers ('?' as '-'), then the borders between rectangles."""
    h, w = len(rows), len(rows[0])
    numbers = [["." if t == "-" else "-" if t == "?" else t for t in row] for row in rows]
    across = [[int(board[r][c] != board[r][c + 1]) for c in range(w - 1)] for r in range(h)]
    down = [[int(board[r][c] != board[r + 1][c]) for c in range(w)] for r in range(h - 1)]
    return pzprv3("shikaku", h, w, numbers, across, down)


@needs_pzpr
def test_answers_pass_pzprjs_check(tmp_path):
    """Every board pzc finds on random instances is accepted by puzz.link's
    own checker, and one with two neighbouring cells' rectangles swapped is not."""
    g = rng(9)
    files, good = [], []
    for _ in range(25):
        rows = random_instance(g, *g.choice([(3, 3), (3, 4), (4, 4), (2, 5)]))
        n, boards = counted("shikaku", grid_text(rows), tmp_path, limit=3)
        for b in boards:
            files.append(shikaku_file(rows, b))
            good.append(True)
            pairs = [(r, c) for r in range(len(b)) for c in range(len(b[0]) - 1)
                     if b[r][c] != b[r][c + 1]]
            r, c = g.choice(pairs)
            bad = [list(x) for x in b]
            bad[r][c] = bad[r][c + 1]
            files.append(shikaku_file(rows, bad))
            good.append(False)
    assert sum(good) >= 15
    verdicts = pzpr_check(files)
    assert [v["complete"] for v in verdicts] == good, [v["text"] for v in verdicts]
