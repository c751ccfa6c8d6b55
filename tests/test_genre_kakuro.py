"""Kakuro (specs/kakuro.pz) against a brute force written here: on random
small boards (some runs starting at the edge, clue sides left out, sums
from a real filling or nudged off it) pzc's solutions equal, as sets, those a
plain backtracking search finds; `unique`, the example and the puzzlekit
dataset (skipped when absent) too."""

from __future__ import annotations

import json

from conftest import CORPUS, reads_corpus

from genre_tools import (check_against, counted, examples_unique, grid_text, needs_pzpr,
                         pzpr_check, pzprv3, rejects, rng, unique_and_several)

WAYS = [(1, 0), (0, 1)]      # clue part 0 is the sum down, part 1 across


def runs(rows):
    """[(cells of a maximal white run, its sum or None)], rows of tokens."""
    h, w = len(rows), len(rows[0])
    white = lambda r, c: 0 <= r < h and 0 <= c < w and rows[r][c] == "0"
    out = []
    for i, (dr, dc) in enumerate(WAYS):
        for r in range(h):
            for c in range(w):
                if not white(r, c) or white(r - dr, c - dc):
                    continue
                cells = []
                y, x = r, c
                while white(y, x):
                    cells.append((y, x))
                    y, x = y + dr, x + dc
                total = None
                if 0 <= r - dr and 0 <= c - dc and "," in rows[r - dr][c - dc]:
                    part = rows[r - dr][c - dc].split(",")[i]
                    total = int(part) if part else None
                out.append((cells, total))
    return out


def brute(rows):
    """Every filling of the white cells with 1..9 that the rules allow."""
    whites = [(r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t == "0"]
    rs = runs(rows)
    by_cell = {p: [k for k, (cells, _) in enumerate(rs) if p in cells] for p in whites}
    val, found = {}, []

    def ok(k):
        cells, total = rs[k]
        vs = [val[p] for p in cells if p in val]
        if len(set(vs)) < len(vs):
            return False
        if total is None:
            return True
        return sum(vs) == total if len(vs) == len(cells) else sum(vs) < total

    def go(i):
        if i == len(whites):
            found.append([[str(val[(r, c)]) if t == "0" else t for c, t in enumerate(row)]
                          for r, row in enumerate(rows)])
            return
        for d in range(1, 10):
            val[whites[i]] = d
            if all(ok(k) for k in by_cell[whites[i]]):
                go(i + 1)
            del val[whites[i]]
    go(0)
    return found


def random_board(g, h, w):
    """A board: whites at random (rarely on the top row or left column, so
    some runs start at the edge), clue cells before runs, sums from a
    random filling, nudged or left out now and then."""
    white = [[(r > 0 and c > 0 and g.random() < 0.75) or g.random() < 0.08
              for c in range(w)] for r in range(h)]
    rows = [["0" if white[r][c] else "-" for c in range(w)] for r in range(h)]
    fill = brute_fill(g, rows)
    for r in range(h):
        for c in range(w):
            if white[r][c]:
                continue
            parts = ["", ""]
            for i, (dr, dc) in enumerate(WAYS):
                y, x, total = r + dr, c + dc, 0
                while y < h and x < w and white[y][x]:
                    total += fill[(y, x)] if fill else g.randint(1, 9)
                    y, x = y + dr, x + dc
                if total and g.random() < 0.9:
                    parts[i] = str(total + (g.choice([-1, 1]) if g.random() < 0.15 else 0))
            if any(parts):
                rows[r][c] = ",".join(parts)
    return rows


def brute_fill(g, rows):
    """A random filling with no digit twice in any run (sums ignored), or None."""
    rs = runs(rows)
    whites = [(r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t == "0"]
    val = {}
    for p in whites:
        used = {val[q] for cells, _ in rs if p in cells for q in cells if q in val}
        free = [d for d in range(1, 10) if d not in used]
        if not free:
            return None
        val[p] = g.choice(free)
    return val


def test_random_boards_match_brute_force(tmp_path):
    g = rng(12)
    cases = [random_board(g, g.randint(3, 4), g.randint(3, 5)) for _ in range(40)]
    cases = [rows for rows in cases if sum(t == "0" for row in rows for t in row) <= 8]
    check_against("kakuro", tmp_path, cases, brute)
    assert len(cases) >= 25


def test_unique_and_errors(tmp_path, run_pzc, write):
    one = [["-", "4,", "3,"], [",3", "0", "0"], [",4", "0", "0"]]
    two = [["-", "4,", "4,"], [",4", "0", "0"], [",4", "0", "0"]]
    unique_and_several("kakuro", tmp_path, brute, one, two)
    rejects(run_pzc, write, "kakuro", "3 2\n- 4, x\n,3 0 0\n", "clue \"down,across\"")


def test_example(run_pzc):
    examples_unique(run_pzc, "kakuro")


DATASET = CORPUS / "other" / "puzzlekit" / "Kakuro_dataset.json"


@reads_corpus(DATASET)
def test_dataset_sample(tmp_path):
    """Every 50th of janko.at's Kakuros, read as the dataset writes them:
    pzc's digits are the dataset's solution."""
    data = json.loads(DATASET.read_text())["data"]
    keys = sorted(data)[::50]
    for k in keys:
        n, boards = counted("kakuro", data[k]["problem"], tmp_path, limit=2)
        assert n == 1, k
        sol = [l.split() for l in data[k]["solution"].strip().split("\n")[1:]]
        assert all(s == "-" or s == b for srow, brow in zip(sol, boards[0])
                   for s, b in zip(srow, brow)), k


def kakuro_file(rows, board):
    """pzprv3 of a board whose top row and left column hold no white cell:
    they become pzprjs's outer clue cells (a down sum above each column, an
    across sum left of each row); inside, a block or clue cell is written
    "across,down" (0 for none), a white cell '.', then the answer digits."""
    h, w = len(rows), len(rows[0])
    part = lambda t, i: (t.split(",")[i] or "0") if "," in t else "0"
    top = ["0"] + [part(t, 0) for t in rows[0][1:]]
    inner = [[part(row[0], 1)] + ["." if t == "0" else f"{part(t, 1)},{part(t, 0)}"
                                  for t in row[1:]] for row in rows[1:]]
    digits = [[b if t == "0" else "." for t, b in zip(row[1:], brow[1:])]
              for row, brow in zip(rows[1:], board[1:])]
    return pzprv3("kakuro", h - 1, w - 1, [top] + inner, digits)


@needs_pzpr
def test_answers_pass_pzprjs_check(tmp_path):
    """Every board pzc finds on random framed boards is accepted by
    puzz.link's own checker, and one with a digit changed is not."""
    g = rng(21)
    files, good = [], []
    while len(files) < 40:
        rows = random_board(g, g.randint(3, 5), g.randint(3, 5))
        if any(t == "0" for t in rows[0]) or any(row[0] == "0" for row in rows):
            continue
        n, boards = counted("kakuro", grid_text(rows), tmp_path, limit=2)
        for b in boards:
            files.append(kakuro_file(rows, b))
            good.append(True)
            whites = [(r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t == "0"]
            r, c = g.choice(whites)
            bad = [list(x) for x in b]
            bad[r][c] = str(int(bad[r][c]) % 9 + 1)
            files.append(kakuro_file(rows, bad))
            good.append(False)
    verdicts = pzpr_check(files)
    assert [v["complete"] for v in verdicts] == good, [v["text"] for v in verdicts]
