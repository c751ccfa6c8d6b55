"""Akari, Hitori, Kurodoko and Kurotto against brute force on small boards.

For each genre, seeded random boards of 2x2..4x4 (clues planted from a random
answer, some dropped or changed, so that boards with no answer, one answer and
several answers all occur) are written into one file; `pzc count --show`
lists every answer of each, and the set of printed boards must equal the set
the brute force below finds by trying every shading (every placement of
lights) and applying the genre's rules directly.  `pzc unique` must agree.
The rules are those puzz.link's checker applies (pzprjs AnsCheck), including
its "at least one shaded cell" for Hitori, Kurodoko and Kurotto.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from conftest import CORPUS, run_cli
from pzc import api

DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


# ---------------------------------------------------------------- helpers

def neighbours(h, w, r, c):
    return [(r + dr, c + dc) for dr, dc in DIRS if 0 <= r + dr < h and 0 <= c + dc < w]


def connected(cells, h, w):
    """The set of (r, c) cells is one orthogonally connected group (or empty)."""
    cells = set(cells)
    if not cells:
        return True
    seen, todo = set(), [next(iter(cells))]
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        todo += [y for y in neighbours(h, w, *x) if y in cells]
    return seen == cells


def blocks(cells, h, w):
    """The connected groups of a set of cells: cell -> frozenset of its group."""
    cells, out = set(cells), {}
    for x in cells:
        if x not in out:
            group, todo = set(), [x]
            while todo:
                y = todo.pop()
                if y not in group:
                    group.add(y)
                    todo += [z for z in neighbours(h, w, *y) if z in cells]
            for y in group:
                out[y] = frozenset(group)
    return out


def apart(shaded, h, w):
    return not any(y in shaded for x in shaded for y in neighbours(h, w, *x))


def lines_of(h, w):
    """The rows and then the columns of an h x w board, as lists of cells."""
    return ([[(r, c) for c in range(w)] for r in range(h)]
            + [[(r, c) for r in range(h)] for c in range(w)])


def shadings(cells):
    """Every subset of cells."""
    cells = list(cells)
    for bits in itertools.product((False, True), repeat=len(cells)):
        yield {c for c, b in zip(cells, bits) if b}


def board_text(grid):
    """A token grid with its "W H" header."""
    return f"{len(grid[0])} {len(grid)}\n" + "".join(" ".join(map(str, row)) + "\n" for row in grid)


def printed(cells):
    """The rows pzc prints for a grid of tokens: spaced when a token is wider than one character."""
    sep = " " if any(len(t) > 1 for row in cells for t in row) else ""
    return tuple(sep.join(row) for row in cells)


def picture(grid, marked, mark):
    """The rows pzc prints: `mark` on marked cells, else the clue or '.'."""
    return printed([[mark if (r, c) in marked else ("." if t in ("-", ".") else str(t))
                     for c, t in enumerate(row)] for r, row in enumerate(grid)])


def run_genre(spec, grids, brute, text=board_text):
    """Count and list every board's answers with pzc; compare with the brute force.
    Returns the answer counts."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "boards.txt"
        path.write_text("".join(text(g) for g in grids))
        count = run_cli("count", spec, path, "--show", "--format", "json")
        unique = run_cli("unique", spec, path, "--format", "json")
    assert count.returncode == 0, count.stderr
    assert unique.returncode in (0, 1), unique.stderr
    counted = [json.loads(line) for line in count.stdout.splitlines()]
    uniq = [json.loads(line) for line in unique.stdout.splitlines()]
    assert len(counted) == len(uniq) == len(grids)
    sizes = []
    for grid, got, one in zip(grids, counted, uniq):
        want = brute(grid)
        assert got["complete"] and got["count"] == len(want), (grid, got)
        assert {tuple(s) for s in got["solutions"]} == want, grid
        assert one["unique"] == (len(want) == 1), (grid, one)
        assert all(tuple(wit) in want for wit in one["witnesses"]), (grid, one)
        assert len(one["witnesses"]) == min(len(want), 2)
        sizes.append(len(want))
    # the boards cover every case
    assert 0 in sizes and 1 in sizes and any(n > 1 for n in sizes), sizes
    return sizes


def sizes_of(rng, n, small=2, large=4):
    return [(rng.randint(small, large), rng.randint(small, large)) for _ in range(n)]


# ---------------------------------------------------------------- Akari

def akari_seen(grid, r, c):
    """White cells seen from (r, c) in its row and column (not itself)."""
    h, w, out = len(grid), len(grid[0]), []
    for dr, dc in DIRS:
        y, x = r + dr, c + dc
        while 0 <= y < h and 0 <= x < w and grid[y][x] == "-":
            out.append((y, x))
            y, x = y + dr, x + dc
    return out


def akari_ok(grid, lights):
    h, w = len(grid), len(grid[0])
    white = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
    return (all(x in white for x in lights)
            and not any(y in lights for x in lights for y in akari_seen(grid, *x))
            and all(x in lights or any(y in lights for y in akari_seen(grid, *x)) for x in white)
            and all(grid[r][c] in ("-", "x")
                    or sum(y in lights for y in neighbours(h, w, r, c)) == grid[r][c]
                    for r in range(h) for c in range(w)))


def akari_brute(grid):
    h, w = len(grid), len(grid[0])
    white = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
    return {picture(grid, lights, "*") for lights in shadings(white) if akari_ok(grid, lights)}


def akari_board(rng, h, w):
    grid = [["x" if rng.random() < 0.25 else "-" for _ in range(w)] for _ in range(h)]
    lights = set()
    for r, c in rng.sample([(r, c) for r in range(h) for c in range(w)], h * w):
        if grid[r][c] == "-" and not any(y in lights for y in akari_seen(grid, r, c)):
            if rng.random() < 0.6:
                lights.add((r, c))
    for r in range(h):
        for c in range(w):
            if grid[r][c] == "x" and rng.random() < 0.6:
                n = sum(y in lights for y in neighbours(h, w, r, c))
                grid[r][c] = n if rng.random() < 0.85 else min(4, n + 1)
    return grid


def test_akari_against_brute_force():
    rng = random.Random(12)
    grids = [akari_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("akari", grids, akari_brute)


# ---------------------------------------------------------------- Hitori

def hitori_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not shaded or not apart(shaded, h, w):
        return False
    lines = lines_of(h, w)
    for line in lines:
        nums = [grid[r][c] for r, c in line if (r, c) not in shaded and grid[r][c] != "-"]
        if len(nums) != len(set(nums)):
            return False
    white = [(r, c) for r in range(h) for c in range(w) if (r, c) not in shaded]
    return connected(white, h, w)


def hitori_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    return {picture(grid, s, "#") for s in shadings(cells) if hitori_ok(grid, s)}


def hitori_board(rng, h, w):
    n = max(h, w)
    grid = [[rng.randint(1, n) for _ in range(w)] for _ in range(h)]
    if rng.random() < 0.2:
        grid[rng.randrange(h)][rng.randrange(w)] = "-"
    return grid


def test_hitori_against_brute_force():
    rng = random.Random(7)
    grids = [hitori_board(rng, h, w) for h, w in sizes_of(rng, 30, 2, 4)]
    run_genre("hitori", grids, hitori_brute)


# ---------------------------------------------------------------- Kurodoko

def view(h, w, shaded, r, c):
    """Unshaded cells seen from (r, c), itself included."""
    n = 1
    for dr, dc in DIRS:
        y, x = r + dr, c + dc
        while 0 <= y < h and 0 <= x < w and (y, x) not in shaded:
            n, y, x = n + 1, y + dr, x + dc
    return n


def kurodoko_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not shaded or not apart(shaded, h, w):
        return False
    for r in range(h):
        for c in range(w):
            t = grid[r][c]
            if t != "-" and ((r, c) in shaded or t != "?" and view(h, w, shaded, r, c) != t):
                return False
    return connected([(r, c) for r in range(h) for c in range(w) if (r, c) not in shaded], h, w)


def kurodoko_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    return {picture(grid, s, "#") for s in shadings(cells) if kurodoko_ok(grid, s)}


def kurodoko_board(rng, h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]
    shaded = set()
    for x in rng.sample(cells, len(cells)):
        if rng.random() < 0.35 and not any(y in shaded for y in neighbours(h, w, *x)):
            shaded.add(x)
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells:
        if (r, c) not in shaded and rng.random() < 0.3:
            seen = min(h + w - 1, view(h, w, shaded, r, c) + (rng.random() < 0.1))
            grid[r][c] = "?" if rng.random() < 0.1 else seen
    return grid


def test_kurodoko_against_brute_force():
    rng = random.Random(3)
    grids = [kurodoko_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("kurodoko", grids, kurodoko_brute)


# ---------------------------------------------------------------- Kurotto

def kurotto_sum(h, w, groups, r, c):
    touching = {groups[y] for y in neighbours(h, w, r, c) if y in groups}
    return sum(len(g) for g in touching)


def kurotto_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    if not shaded:
        return False
    groups = blocks(shaded, h, w)
    for r in range(h):
        for c in range(w):
            t = grid[r][c]
            if t != "-" and ((r, c) in shaded or t != "?" and kurotto_sum(h, w, groups, r, c) != t):
                return False
    return True


def kurotto_brute(grid):
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "-"]
    return {picture(grid, s, "#") for s in shadings(cells) if kurotto_ok(grid, s)}


def kurotto_board(rng, h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]
    shaded = {x for x in cells if rng.random() < 0.45}
    groups = blocks(shaded, h, w)
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells:
        if (r, c) not in shaded and rng.random() < 0.5:
            grid[r][c] = "?" if rng.random() < 0.1 else kurotto_sum(h, w, groups, r, c)
    return grid


def test_kurotto_against_brute_force():
    rng = random.Random(5)
    grids = [kurotto_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("kurotto", grids, kurotto_brute)


# ---------------------------------------------------------------- datasets

PUZZLEKIT = CORPUS / "other" / "puzzlekit"


@pytest.mark.parametrize("genre,name,ok,mark", [
    ("akari", "Akari", akari_ok, "o"), ("hitori", "Hitori", hitori_ok, "x")])
def test_puzzlekit_sample_against_the_datasets_answers(genre, name, ok, mark):
    """Twenty entries of the dataset (seeded, and its largest), read from the
    dataset file itself: pzc's answer keeps the rules (checked here) and is
    the dataset's own answer."""
    path = PUZZLEKIT / f"{name}_dataset.json"
    if not path.is_file():
        pytest.skip(f"needs {path}")
    data = json.loads(path.read_text())["data"]
    spec = api.load_spec(genre)
    insts = api.load_instances(spec, str(path))
    assert len(insts) == len(data)
    keys = list(data)
    largest = max(range(len(keys)), key=lambda i: len(data[keys[i]]["problem"]))
    chosen = random.Random(12).sample(range(len(keys)), 19) + [largest]
    for i in chosen:
        key = keys[i]
        assert insts[i].name.endswith("#" + key)
        grid = [[int(t) if t.isdigit() else t for t in line.split()]
                for line in data[key]["problem"].strip().splitlines()[1:]]
        res = api.solve(spec, insts[i])
        assert res.status == "solved" and res.verified, key
        marked = {(r, c) for r, row in enumerate(res.grid)
                  for c, t in enumerate(row.split() if " " in row else row) if t in "#*"}
        assert ok(grid, marked), key
        answer = {(r, c) for r, line in enumerate(data[key]["solution"].strip().splitlines()[1:])
                  for c, t in enumerate(line.split()) if t == mark}
        assert marked == answer, key


# ---------------------------------------------------------------- examples

@pytest.mark.parametrize("spec", ["akari", "hitori", "kurodoko", "kurotto",
                                  "norinori", "heyawake", "shimaguni", "lits"])
def test_examples_are_unique(spec, examples):
    files = sorted((examples / spec).iterdir())
    assert files
    for path in files:
        run = run_cli("unique", spec, path, "--format", "json")
        assert run.returncode == 0, run.stderr
        assert all(json.loads(line)["unique"] for line in run.stdout.splitlines())
