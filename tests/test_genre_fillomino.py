"""Fillomino (specs/fillomino.pz) against a brute force written here: every
division of a small board into connected blocks in which no two blocks of
the same size touch is listed (a block's cells then hold its size), and the
ones that keep the givens are the solutions.  On random instances (givens
read off a random answer, some changed) pzc's boards equal those, as sets;
`unique` and the example too."""

from __future__ import annotations

from functools import lru_cache

import pytest

from genre_tools import (check_against, counted, examples_unique, grid_text, needs_pzpr,
                         pzpr_check, pzprv3, rejects, rng, unique_and_several)


def neighbours(h, w, r, c):
    return [(y, x) for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= y < h and 0 <= x < w]


@lru_cache(maxsize=None)
def answers(h, w):
    """Every filled board (a tuple of rows of sizes) that breaks no rule."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    pieces = {}                  # first cell -> connected sets whose first cell it is
    for mask in range(1, 1 << len(cells)):
        s = [cells[i] for i in range(len(cells)) if mask >> i & 1]
        seen, todo = {s[0]}, [s[0]]
        while todo:
            for d in neighbours(h, w, *todo.pop()):
                if d in s and d not in seen:
                    seen.add(d)
                    todo.append(d)
        if len(seen) == len(s):
            pieces.setdefault(s[0], []).append(frozenset(s))
    out = []
    size = {}

    def go():
        free = [p for p in cells if p not in size]
        if not free:
            out.append(tuple(tuple(size[(r, c)] for c in range(w)) for r in range(h)))
            return
        for s in pieces[free[0]]:
            if any(p in size for p in s):
                continue
            if any(size.get(d) == len(s) for p in s for d in neighbours(h, w, *p) if d not in s):
                continue
            for p in s:
                size[p] = len(s)
            go()
            for p in s:
                del size[p]
    go()
    return out


def brute(rows):
    h, w = len(rows), len(rows[0])
    return [[[str(v) for v in row] for row in a] for a in answers(h, w)
            if all(t == "-" or int(t) == a[r][c]
                   for r, row in enumerate(rows) for c, t in enumerate(row))]


def random_instance(g, h, w):
    a = g.choice(answers(h, w))
    p = g.choice([0.3, 0.45, 0.6])
    rows = [[str(v) if g.random() < p else "-" for v in row] for row in a]
    if g.random() < 0.25:
        rows[g.randrange(h)][g.randrange(w)] = str(g.randint(1, 4))
    return rows


@pytest.mark.slow
def test_random_boards_match_brute_force(tmp_path):
    g = rng(3)
    cases = [random_instance(g, *g.choice([(3, 3), (2, 4), (3, 4), (2, 5)])) for _ in range(60)]
    cases = [rows for rows in cases if len(brute(rows)) <= 20][:40]
    check_against("fillomino", tmp_path, cases, brute)
    assert len(cases) >= 30


def test_z3_matches_brute_force(tmp_path):
    """The spec's groupsize on Z3 (its own encoding of the sizes), on small boards."""
    g = rng(4)
    cases = [random_instance(g, *g.choice([(2, 3), (3, 3), (2, 4)])) for _ in range(40)]
    cases = [rows for rows in cases if len(brute(rows)) <= 6][:14]
    check_against("fillomino", tmp_path, cases, brute, backend="smt")
    assert len(cases) >= 10


def test_unique_and_errors(tmp_path, run_pzc, write):
    one = [["3", "-", "-"], ["-", "1", "-"], ["-", "-", "3"]]
    two = [["2", "-", "-"], ["-", "-", "-"], ["-", "-", "-"]]
    unique_and_several("fillomino", tmp_path, brute, one, two)
    rejects(run_pzc, write, "fillomino", "2 2\n4 x\n- -\n", "bad.txt:2:3")


@pytest.mark.slow
def test_example(run_pzc):
    examples_unique(run_pzc, "fillomino")


def fillomino_file(rows, board):
    """pzprv3: the givens, the answer in the other cells, no borders drawn."""
    h, w = len(rows), len(rows[0])
    givens = [[t if t != "-" else "." for t in row] for row in rows]
    answer = [[b if t == "-" else "." for t, b in zip(row, brow)] for row, brow in zip(rows, board)]
    return pzprv3("fillomino", h, w, givens, answer,
                  [[0] * (w - 1)] * h, [[0] * w] * (h - 1))


@needs_pzpr
def test_answers_pass_pzprjs_check(tmp_path):
    """Every board pzc finds on random instances is accepted by puzz.link's
    own checker, and a board with one number changed is not."""
    g = rng(5)
    files, good = [], []
    for _ in range(25):
        rows = random_instance(g, *g.choice([(3, 3), (3, 4), (2, 5), (2, 6)]))
        n, boards = counted("fillomino", grid_text(rows), tmp_path, limit=3)
        for b in boards:
            files.append(fillomino_file(rows, b))
            good.append(True)
            free = [(r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t == "-"]
            if free:
                r, c = g.choice(free)
                bad = [list(x) for x in b]
                bad[r][c] = str(int(bad[r][c]) % 4 + 1)
                files.append(fillomino_file(rows, bad))
                good.append(False)
    assert sum(good) >= 20
    verdicts = pzpr_check(files)
    assert [v["complete"] for v in verdicts] == good, [v["text"] for v in verdicts]
