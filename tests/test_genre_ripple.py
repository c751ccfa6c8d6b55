"""Ripple Effect (specs/ripple.pz) against a brute force written here: on
random small boards (random regions, givens read off a random answer, some
changed) pzc's boards equal, as sets, the fillings a cell-by-cell search
finds; `unique`, the example and pzprjs's checker too."""

from __future__ import annotations

import pytest

from genre_tools import (check_against, counted, examples_unique, needs_pzpr, pzpr_check, pzprv3,
                         rejects, rng, unique_and_several)


def janko(givens, ids):
    return f"{len(ids)} {len(ids[0])}\n" + "".join(" ".join(r) + "\n" for r in givens + ids)


def brute(givens, ids):
    """Every filling: region of k cells holds 1..k once, equal numbers n in a
    line more than n cells apart, givens kept."""
    h, w = len(ids), len(ids[0])
    size = {}
    for row in ids:
        for t in row:
            size[t] = size.get(t, 0) + 1
    cells = [(r, c) for r in range(h) for c in range(w)]
    val, found = {}, []

    def fits(r, c, n):
        if givens[r][c] != "-" and int(givens[r][c]) != n:
            return False
        if any(val.get(p) == n for p in cells if p in val and ids[p[0]][p[1]] == ids[r][c]):
            return False
        return not any(val.get(p) == n for i in range(1, n + 1) for p in ((r - i, c), (r, c - i)))

    def go(i):
        if i == len(cells):
            found.append([[str(val[(r, c)]) for c in range(w)] for r in range(h)])
            return
        r, c = cells[i]
        for n in range(1, size[ids[r][c]] + 1):
            if fits(r, c, n):
                val[(r, c)] = n
                go(i + 1)
                del val[(r, c)]
    go(0)
    return found


def random_regions(g, h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]
    owner, k = {}, 0
    for p in cells:
        if p in owner:
            continue
        k += 1
        owner[p] = chr(ord("a") + k - 1)
        for _ in range(g.choice([0, 1, 2, 3, 4])):
            nxt = [d for q in cells if owner.get(q) == owner[p]
                   for d in ((q[0] + 1, q[1]), (q[0], q[1] + 1), (q[0], q[1] - 1))
                   if d in cells and d not in owner]
            if nxt:
                owner[g.choice(nxt)] = owner[p]
    return [[owner[(r, c)] for c in range(w)] for r in range(h)]


def random_instance(g, h, w):
    for _ in range(100):
        ids = random_regions(g, h, w)
        answers = brute([["-"] * w for _ in range(h)], ids)
        if answers:
            break
    a = g.choice(answers)
    p = g.choice([0.1, 0.25, 0.4])
    givens = [[t if g.random() < p else "-" for t in row] for row in a]
    if g.random() < 0.2:
        givens[g.randrange(h)][g.randrange(w)] = str(g.randint(1, 3))
    return givens, ids


@pytest.mark.slow
def test_random_boards_match_brute_force(tmp_path):
    g = rng(2)
    cases = [random_instance(g, *g.choice([(3, 3), (3, 4), (4, 4), (2, 5)])) for _ in range(40)]
    check_against("ripple", tmp_path, cases, brute, janko)


def test_unique_and_errors(tmp_path, run_pzc, write):
    ids = [list("aab"), list("cab"), list("ccb")]
    one = [list("---"), list("---"), list("-13")]
    two = [list("---"), list("---"), list("--3")]
    unique_and_several("ripple", tmp_path, brute, (one, ids), (two, ids), janko)
    rejects(run_pzc, write, "ripple", "2 2\n- x\n- -\na a\na a\n", "bad.txt:2:3")


def test_example(run_pzc):
    examples_unique(run_pzc, "ripple")


def ripple_file(givens, ids, board):
    """pzprv3: the region borders, the givens, the answer in the other cells."""
    h, w = len(ids), len(ids[0])
    across = [[int(ids[r][c] != ids[r][c + 1]) for c in range(w - 1)] for r in range(h)]
    down = [[int(ids[r][c] != ids[r + 1][c]) for c in range(w)] for r in range(h - 1)]
    return pzprv3("ripple", h, w, across, down,
                  [["." if t == "-" else t for t in row] for row in givens],
                  [[b if t == "-" else "." for t, b in zip(row, brow)]
                   for row, brow in zip(givens, board)])


@needs_pzpr
def test_answers_pass_pzprjs_check(tmp_path):
    """Every board pzc finds, and every answer of the blank board the brute
    force finds, is accepted by puzz.link's checker; with one number changed
    (within its region's size) pzprjs and the brute force agree."""
    g = rng(12)
    files, good = [], []
    while len(files) < 40:
        givens, ids = random_instance(g, *g.choice([(3, 3), (3, 4), (4, 4)]))
        n, boards = counted("ripple", janko(givens, ids), tmp_path, limit=2)
        for b in boards:
            files.append(ripple_file(givens, ids, b))
            good.append(True)
            blank = [["-"] * len(ids[0]) for _ in ids]
            answers = brute(blank, ids)
            other = g.choice(answers)
            files.append(ripple_file(blank, ids, other))
            good.append(True)
            # (a number above its region's size is left out: pzprjs's input
            # never allows one, and its check does not look for it)
            bad = [list(x) for x in b]
            r, c = g.randrange(len(b)), g.randrange(len(b[0]))
            size = sum(t == ids[r][c] for row in ids for t in row)
            bad[r][c] = str(int(bad[r][c]) % size + 1)
            files.append(ripple_file(blank, ids, bad))
            good.append(bad in answers)
    verdicts = pzpr_check(files)
    assert [v["complete"] for v in verdicts] == good, [v["text"] for v in verdicts]
    assert not all(good)
