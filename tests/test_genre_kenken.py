"""KenKen (specs/kenken.pz) against a brute force written here: every Latin
square of a small size is listed, and the ones whose cages give their targets
are the solutions.  Random instances (cages grown at random, labels from a
random square with + - * / x or no sign, some targets nudged) give pzc's
boards equal to those, as sets; `unique`, the example and the puzzlekit
dataset (skipped when absent) too.  pzprjs has no KenKen, so no puzz.link
check."""

from __future__ import annotations

import itertools
import json
import math
from functools import lru_cache

import pytest

from conftest import CORPUS, reads_corpus
from genre_tools import check_against, counted, examples_unique, rejects, rng, unique_and_several


@lru_cache(maxsize=None)
def latin(n):
    """Every n x n Latin square over 1..n, as a tuple of rows."""
    perms = list(itertools.permutations(range(1, n + 1)))
    out = []

    def go(rows):
        if len(rows) == n:
            out.append(tuple(rows))
            return
        for p in perms:
            if all(p[i] != r[i] for r in rows for i in range(n)):
                go(rows + [p])
    go([])
    return out


def gives(label, vals):
    """Whether a cage with this label holds these numbers."""
    sign = label[-1]
    if sign.isdigit():
        goal = int(label)
        ops = "+*" + ("-/" if len(vals) == 2 else "")
    else:
        goal, ops = int(label[:-1]), {"x": "*"}.get(sign, sign)
    a, b = (max(vals), min(vals)) if len(vals) == 2 else (None, None)
    return any((op == "+" and sum(vals) == goal) or (op == "*" and math.prod(vals) == goal)
               or (op == "-" and a - b == goal) or (op == "/" and a == goal * b)
               for op in ops)


def cages_of(ids):
    out = {}
    for r, row in enumerate(ids):
        for c, t in enumerate(row):
            out.setdefault(t, []).append((r, c))
    return out


def brute(labels, ids):
    n = len(ids)
    cages = cages_of(ids)
    want = [(next(labels[r][c] for r, c in g if labels[r][c] != "."), g) for g in cages.values()]
    return [[[str(v) for v in row] for row in sq] for sq in latin(n)
            if all(gives(lab, [sq[r][c] for r, c in g]) for lab, g in want)]


def janko(labels, ids):
    n = len(ids)
    return f"{n} {n}\n" + "".join(" ".join(r) + "\n" for r in labels + ids)


def random_instance(g, n):
    sq = g.choice(latin(n))
    cells = [(r, c) for r in range(n) for c in range(n)]
    ids, k = {}, 0
    for p in cells:
        if p in ids:
            continue
        k += 1
        group = [p]
        for _ in range(g.choice([0, 1, 1, 2])):
            nxt = [(y, x) for y, x in ((p[0] + 1, p[1]), (p[0], p[1] + 1))
                   for p in group if (y, x) in cells and (y, x) not in ids and (y, x) not in group]
            if nxt:
                group.append(g.choice(nxt))
        for q in group:
            ids[q] = str(k)
    labels = [["."] * n for _ in range(n)]
    for cage in cages_of([[ids[(r, c)] for c in range(n)] for r in range(n)]).values():
        vals = [sq[r][c] for r, c in cage]
        ops = ["+", "*", "x", ""] + (["-", "/"] if len(vals) == 2 else [])
        op = g.choice(ops) if len(vals) > 1 else ""
        if op == "/" and max(vals) % min(vals):
            op = "-"
        goal = {"+": sum(vals), "*": math.prod(vals), "x": math.prod(vals), "": sum(vals),
                "-": max(vals) - min(vals), "/": max(vals) // min(vals)}[op]
        if g.random() < 0.05:
            goal += 1
        r, c = g.choice(cage)
        labels[r][c] = f"{goal}{op}"
    return labels, [[ids[(r, c)] for c in range(n)] for r in range(n)]


@pytest.mark.slow
def test_random_boards_match_brute_force(tmp_path):
    g = rng(6)
    cases = [random_instance(g, g.choice([3, 4, 4, 5])) for _ in range(40)]
    check_against("kenken", tmp_path, cases, brute, janko)


def test_unique_and_errors(tmp_path, run_pzc, write):
    one = ([[".", "4+", "2/", "."], ["4", "1-", ".", "5"], [".", ".", ".", "."],
            ["6*", "4", "12*", "1"]],
           [["1", "1", "2", "3"], ["4", "5", "2", "3"], ["6", "5", "7", "7"], ["6", "8", "7", "9"]])
    two = ([["3*", "3+", "."], [".", ".", "6*"], [".", "5", "1"]],
           [["1", "2", "3"], ["1", "2", "3"], ["4", "4", "5"]])
    unique_and_several("kenken", tmp_path, brute, one, two, janko)
    rejects(run_pzc, write, "kenken", "2 2\n3+ 1\n. .\na b\na c\n", "exactly one label")
    rejects(run_pzc, write, "kenken", "2 2\n3- .\n. 1\na a\na b\n", "two cells")


def test_example(run_pzc):
    examples_unique(run_pzc, "kenken")


DATASET = CORPUS / "other" / "puzzlekit" / "KenKen_dataset.json"


@reads_corpus(DATASET)
def test_dataset_sample(tmp_path):
    """Every 15th of janko.at's KenKens: pzc's numbers are the dataset's."""
    data = json.loads(DATASET.read_text())["data"]
    for k in sorted(data)[::15]:
        n, boards = counted("kenken", data[k]["problem"], tmp_path, limit=2)
        assert n == 1, k
        sol = [l.split() for l in data[k]["solution"].strip().split("\n")[1:]]
        assert sol == boards[0], k
