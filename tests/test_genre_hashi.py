"""Hashi against a brute force written here.

On a small board every pair of islands that see each other along a row or
column (no island between) may hold 0, 1 or 2 bridges; trying every choice
for every such pair, and keeping those where each island has its number of
bridges, no two bridges cross and all islands are joined, gives the exact
answers of a board.  Boards are made here from a seeded random generator:
islands at random places, numbered from a random valid set of bridges
(one or more answers), now and then one number changed (often none).
"""

from __future__ import annotations

import itertools
import random

import pytest

import pzprjs
from conftest import EXAMPLES, run_cli
from genre_tools import check_against_brute, run_json, write_instances


def pairs_of(islands, h, w):
    """The pairs of islands that see each other, with the water cells between."""
    out = []
    for (r, c) in islands:
        for dr, dc in ((0, 1), (1, 0)):
            k, between = (r + dr, c + dc), []
            while 0 <= k[0] < h and 0 <= k[1] < w and k not in islands:
                between.append(k)
                k = (k[0] + dr, k[1] + dc)
            if k in islands:
                out.append(((r, c), k, between, dr == 0))
    return out


def joined(islands, chosen):
    nbrs = {x: set() for x in islands}
    for (a, b, _, _), n in chosen:
        if n:
            nbrs[a].add(b)
            nbrs[b].add(a)
    start = next(iter(islands))
    seen, todo = {start}, [start]
    while todo:
        for y in nbrs[todo.pop()] - seen:
            seen.add(y)
            todo.append(y)
    return len(seen) == len(islands)


def bridge_sets(islands, h, w):
    """Every set of bridges (numbers aside): no crossing, all islands joined."""
    pairs = pairs_of(islands, h, w)
    out = []
    for counts in itertools.product(range(3), repeat=len(pairs)):
        used = {}
        ok = True
        for (a, b, between, across), n in zip(pairs, counts):
            for x in between if n else ():
                if x in used:
                    ok = False
                used[x] = (across, n)
        if ok and joined(islands, list(zip(pairs, counts))):
            out.append((list(zip(pairs, counts)), used))
    return out


def degrees(islands, chosen):
    deg = dict.fromkeys(islands, 0)
    for (a, b, _, _), n in chosen:
        deg[a] += n
        deg[b] += n
    return deg


def draw(board, chosen):
    """The answer as the spec draws it: 2H-1 rows of 2W-1 characters, cells at
    even rows and columns, the gaps between them, bridges through both."""
    h, w = len(board), len(board[0])
    canvas = [[" "] * (2 * w - 1) for _ in range(2 * h - 1)]
    for r, row in enumerate(board):
        for c, t in enumerate(row):
            canvas[2 * r][2 * c] = t if t != "-" else "."
    for (a, b, between, across), n in chosen:
        if n:
            mark = ("─═" if across else "│║")[n - 1]
            (r0, c0), (r1, c1) = a, b
            for R in range(2 * r0, 2 * r1 + 1):
                for C in range(2 * c0, 2 * c1 + 1):
                    if (R, C) not in ((2 * r0, 2 * c0), (2 * r1, 2 * c1)):
                        canvas[R][C] = mark
    return canvas


def hashi_answers(board):
    h, w = len(board), len(board[0])
    islands = {(r, c): int(t) for r, row in enumerate(board) for c, t in enumerate(row) if t != "-"}
    out = []
    for chosen, used in bridge_sets(tuple(islands), h, w):
        if degrees(islands, chosen) == islands:
            out.append(draw(board, chosen))
    return out


def hashi_boards(rng, h, w, n):
    boards = []
    while len(boards) < n:
        k = rng.randint(3, 6)
        islands = tuple(sorted(rng.sample([(r, c) for r in range(h) for c in range(w)], k)))
        sets = bridge_sets(islands, h, w)
        if not sets:
            continue
        chosen, _ = rng.choice(sets)
        deg = degrees(islands, chosen)
        if min(deg.values()) == 0 or max(deg.values()) > 8:
            continue
        board = [["-"] * w for _ in range(h)]
        for (r, c), d in deg.items():
            board[r][c] = str(d)
        if rng.random() < 0.2:
            r, c = rng.choice(islands)
            board[r][c] = str(max(1, min(8, deg[r, c] + rng.choice((-1, 1)))))
        boards.append(board)
    return boards


@pytest.mark.slow
def test_hashi_counts_match_brute_force(tmp_path):
    rng = random.Random(21)
    boards = [b for h, w in ((4, 4), (4, 5), (5, 5), (3, 6)) for b in hashi_boards(rng, h, w, 10)]
    # a square of four 3s: a double and a single bridge at each island, two ways
    boards += [[["3", "-", "3"], ["-", "-", "-"], ["3", "-", "3"]],
               [["3", "-", "3", "-"], ["-", "-", "-", "-"], ["3", "-", "4", "1"]],
               # islands side by side: bridges with no water cell to show them in
               [["2", "2", "-"], ["-", "-", "-"]],
               [["3", "3", "-"], ["2", "2", "-"]],
               [["2", "3", "1"], ["-", "2", "-"]]]
    counts = check_against_brute(tmp_path, "hashi", boards, hashi_answers, split=list)
    assert 0 in counts and 1 in counts and any(n > 1 for n in counts), counts


def test_hashi_example_is_unique():
    uniq = run_json("unique", "hashi", str(EXAMPLES / "hashi" / "small.txt"))
    assert uniq[0]["unique"], uniq


def test_hashi_no_bridge_leaves_the_board(tmp_path):
    """Two islands in a corner, each wanting a bridge that could only run
    off the board: no answer (a bridge ends at an island, never in water)."""
    path = tmp_path / "edge.txt"
    path.write_text("3 3\n1 - -\n- - -\n- - 1\n")
    assert run_json("count", "hashi", str(path))[0]["count"] == 0


def test_answers_from_urls_are_accepted_by_pzprjs(tmp_path):
    """Boards made here, written as URLs by `pzc convert` and solved from them: pzprjs
    takes pzc's bridges and finds the answer complete, and refuses it with
    one bridge piece taken away."""
    pzprjs.need()
    rng = random.Random(31)
    boards = []
    while len(boards) < 8:
        b = hashi_boards(rng, 6, 6, 1)[0]
        if hashi_answers(b):
            boards.append(b)
    path = write_instances(tmp_path, boards)
    urls = run_cli("convert", "hashi", path).stdout.split()
    jobs = []
    for url, r in zip(urls, run_json("solve", "hashi", *urls)):
        assert r["status"] == "solved", r
        ops = []
        for i, row in enumerate(r["grid"]):     # bridges in the gaps between cells
            for j, t in enumerate(row):
                if i % 2 == 0 and j % 2 == 1 and t in "─═":
                    ops.append(pzprjs.border((i // 2, j // 2), (i // 2, j // 2 + 1),
                                             "setLineVal", "─═".index(t) + 1))
                if i % 2 == 1 and j % 2 == 0 and t in "│║":
                    ops.append(pzprjs.border((i // 2, j // 2), (i // 2 + 1, j // 2),
                                             "setLineVal", "│║".index(t) + 1))
        jobs += [{"open": url, "ops": ops}, {"open": url, "ops": ops[1:]}]
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == [True, False] * len(boards), verdicts
