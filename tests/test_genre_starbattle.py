"""Star Battle (specs/starbattle.pz) against a brute force written here: on
random small boards (random regions, now and then a blocked '#' cell or an
'@' cell outside the board, 1 or 2 stars) pzc's boards equal, as sets, the
placements a row-by-row search finds; `unique`, the example, pzprjs's
checker and the puzzlekit dataset (skipped when absent) too."""

from __future__ import annotations

import itertools
import json

from conftest import CORPUS, reads_corpus

from genre_tools import (check_against, counted, examples_unique, needs_pzpr, pzpr_check, pzprv3,
                         rng, unique_status)


def janko(rows, stars):
    return f"{len(rows)} {len(rows[0])} {stars}\n" + "".join(" ".join(r) + "\n" for r in rows)


def brute(rows, stars):
    """Every placement of stars that the rules allow, as printed boards."""
    h, w = len(rows), len(rows[0])
    shut = lambda t: t in ("#", "@")
    ids = {t for row in rows for t in row if not shut(t)}
    found = []

    def go(r, placed):
        if r == h:
            per_col = [sum(1 for y, x in placed if x == c) for c in range(w)]
            per_id = {i: sum(1 for y, x in placed if rows[y][x] == i) for i in ids}
            if all(n == stars for n in per_col) and all(n == stars for n in per_id.values()):
                found.append([["*" if (y, x) in placed else "." for x in range(w)]
                              for y in range(h)])
            return
        for cs in itertools.combinations(range(w), stars):
            if any(shut(rows[r][c]) for c in cs) or any(b - a < 2 for a, b in zip(cs, cs[1:])):
                continue
            if any(abs(x - c) <= 1 for c in cs for y, x in placed if y == r - 1):
                continue
            go(r + 1, placed | {(r, c) for c in cs})
    go(0, frozenset())
    return found


def random_regions(g, n, k):
    """An n x n board cut into k regions grown from random seeds, numbered 1..k."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    owner = {p: i + 1 for i, p in enumerate(g.sample(cells, k))}
    while len(owner) < n * n:
        r, c = g.choice(sorted(owner))
        d = g.choice([(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)])
        if d in cells and d not in owner:
            owner[d] = owner[(r, c)]
    return [[str(owner[(r, c)]) for c in range(n)] for r in range(n)]


def random_instance(g):
    n, stars = g.choice([(4, 1), (5, 1), (6, 1), (5, 1), (6, 2)])
    rows = random_regions(g, n, n + g.choice([-1, 0, 0, 0, 1]))
    if g.random() < 0.3:        # (not in the first column: a text row "# ..." is a comment)
        rows[g.randrange(n)][g.randrange(1, n)] = g.choice(["#", "@"])
    return rows, stars


def test_random_boards_match_brute_force(tmp_path):
    g = rng(4)
    cases = [random_instance(g) for _ in range(60)]
    check_against("starbattle", tmp_path, cases, brute, janko)


def test_unique_and_header(tmp_path):
    rows = [list("4211"), list("4211"), list("4213"), list("4333")]
    assert len(brute(rows, 1)) == 1
    assert unique_status("starbattle", janko(rows, 1), tmp_path) == "unique"
    # without N on the header line, one star
    text = "4 4\n" + "".join(" ".join(r) + "\n" for r in rows)
    assert unique_status("starbattle", text, tmp_path) == "unique"
    two = [list("11144"), list("11544"), list("11544"), list("33544"), list("33522")]
    assert len(brute(two, 1)) == 2
    assert unique_status("starbattle", janko(two, 1), tmp_path) == "several"
    none = [list("1133"), list("2233"), list("4444"), list("4444")]
    assert len(brute(none, 1)) == 0
    assert unique_status("starbattle", janko(none, 1), tmp_path) == "none"


def test_example(run_pzc):
    examples_unique(run_pzc, "starbattle")


def starbattle_file(rows, stars, board):
    """pzprv3: the star count, the rooms (a count, then a room a cell), the stars."""
    ids = sorted({t for row in rows for t in row})
    return pzprv3("starbattle", len(rows), len(rows[0]), [[stars], [len(ids)]],
                  [[ids.index(t) for t in row] for row in rows],
                  [["#" if t == "*" else "." for t in row] for row in board])


@needs_pzpr
def test_answers_pass_pzprjs_check(tmp_path):
    """Every board pzc finds is accepted by puzz.link's checker; moving a
    star one cell along its row is not."""
    g = rng(8)
    files, good = [], []
    while len(files) < 40:
        rows, stars = random_instance(g)
        if any(t in "#@" for row in rows for t in row):
            continue
        n, boards = counted("starbattle", janko(rows, stars), tmp_path, limit=2)
        for b in boards:
            files.append(starbattle_file(rows, stars, b))
            good.append(True)
            r = g.randrange(len(b))
            c = b[r].index("*")
            bad = [list(x) for x in b]
            bad[r][c], bad[r][c - 1 if c else c + 1] = ".", "*"
            files.append(starbattle_file(rows, stars, bad))
            good.append(False)
    verdicts = pzpr_check(files)
    assert [v["complete"] for v in verdicts] == good, [v["text"] for v in verdicts]


DATASET = CORPUS / "other" / "puzzlekit" / "Starbattle_dataset.json"


@reads_corpus(DATASET)
def test_dataset_sample(tmp_path):
    """Every 20th of janko.at's Star Battles: pzc's stars are the dataset's."""
    data = json.loads(DATASET.read_text())["data"]
    for k in sorted(data)[::20]:
        if not data[k].get("solution"):
            continue
        n, boards = counted("starbattle", data[k]["problem"], tmp_path, limit=1)
        sol = [l.split() for l in data[k]["solution"].strip().split("\n")[1:]]
        assert [[t == "x" for t in row] for row in sol] == \
               [[t == "*" for t in row] for row in boards[0]], k
