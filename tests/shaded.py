"""Shaded-cell genres for the tests (Akari, Hitori, Kurodoko, Kurotto,
Norinori, Heyawake, Shimaguni, LITS): cells and groups on a small board,
seeded random boards of each genre, and run_genre, which holds pzc's count
and unique to a brute force.  test_genre_shading.py and test_genre_regions.py
hold the brute forces; test_genre_pzprjs.py sends the same boards to
puzz.link's own checker.

Boards are grids of tokens: '-' an empty cell, 'x' a black Akari cell, a
number or '?' a clue; a region genre's board is (clue grid or None, grid of
region ids).
"""

from __future__ import annotations

import itertools
import json
import tempfile
from pathlib import Path

from conftest import run_cli

# ---------------------------------------------------------------- cells and groups

DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


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


def run_genre(spec, grids, brute, text=board_text):
    """Count and list every board's answers with pzc; compare with the brute force.
    Returns the answer counts."""
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


# ---------------------------------------------------------------- random boards

def akari_seen(grid, r, c):
    """White cells seen from (r, c) in its row and column (not itself)."""
    h, w, out = len(grid), len(grid[0]), []
    for dr, dc in DIRS:
        y, x = r + dr, c + dc
        while 0 <= y < h and 0 <= x < w and grid[y][x] == "-":
            out.append((y, x))
            y, x = y + dr, x + dc
    return out


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


def hitori_board(rng, h, w):
    n = max(h, w)
    grid = [[rng.randint(1, n) for _ in range(w)] for _ in range(h)]
    if rng.random() < 0.2:
        grid[rng.randrange(h)][rng.randrange(w)] = "-"
    return grid


def view(h, w, shaded, r, c):
    """Unshaded cells seen from (r, c), itself included."""
    n = 1
    for dr, dc in DIRS:
        y, x = r + dr, c + dc
        while 0 <= y < h and 0 <= x < w and (y, x) not in shaded:
            n, y, x = n + 1, y + dr, x + dc
    return n


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


def kurotto_sum(h, w, groups, r, c):
    touching = {groups[y] for y in neighbours(h, w, r, c) if y in groups}
    return sum(len(g) for g in touching)


def kurotto_board(rng, h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]
    shaded = {x for x in cells if rng.random() < 0.45}
    groups = blocks(shaded, h, w)
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells:
        if (r, c) not in shaded and rng.random() < 0.5:
            grid[r][c] = "?" if rng.random() < 0.1 else kurotto_sum(h, w, groups, r, c)
    return grid


# ---------------------------------------------------------------- random boards cut into regions

def random_regions(rng, h, w, k):
    """A random cut of the h x w board into at most k connected regions: grid of ids."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    owner = {x: i for i, x in enumerate(rng.sample(cells, k))}
    while len(owner) < len(cells):
        x = rng.choice([x for x in cells if x not in owner])
        near = [owner[y] for y in neighbours(h, w, *x) if y in owner]
        if near:
            owner[x] = rng.choice(near)
    names = "abcdefghijklmnopqrstuvwxyz"
    return [[names[owner[(r, c)]] for c in range(w)] for r in range(h)]


def region_lists(ids):
    out = {}
    for r, row in enumerate(ids):
        for c, t in enumerate(row):
            out.setdefault(t, []).append((r, c))
    return list(out.values())


def layered_text(board):
    """A "W H" header, then the clue rows (Heyawake, Shimaguni), then the region ids."""
    clues, ids = board
    rows = (clues or []) + ids
    return f"{len(ids[0])} {len(ids)}\n" + "".join(" ".join(map(str, row)) + "\n" for row in rows)


def shape_key(cells):
    """The least normal form of four cells over their turns and mirror images."""
    def norm(ps):
        r0, c0 = min(p[0] for p in ps), min(p[1] for p in ps)
        return tuple(sorted((p[0] - r0, p[1] - c0) for p in ps))
    forms, ps = [], list(cells)
    for _ in range(4):
        ps = [(c, -r) for r, c in ps]
        forms += [norm(ps), norm([(r, -c) for r, c in ps])]
    return min(forms)


SHAPES = {shape_key(base): name for name, base in (
    ("L", [(0, 0), (1, 0), (2, 0), (2, 1)]), ("I", [(0, 0), (1, 0), (2, 0), (3, 0)]),
    ("T", [(0, 0), (0, 1), (0, 2), (1, 1)]), ("S", [(0, 1), (0, 2), (1, 0), (1, 1)]),
    ("O", [(0, 0), (0, 1), (1, 0), (1, 1)]))}


def shape(cells):
    return SHAPES[shape_key(cells)]


def clue_layer(rng, ids, shaded, keep):
    """A number in a random cell of some regions: the planted shading's count."""
    h, w = len(ids), len(ids[0])
    clues = [["-"] * w for _ in range(h)]
    for g in region_lists(ids):
        if rng.random() < keep:
            n = sum(x in shaded for x in g)
            r, c = rng.choice(g)
            clues[r][c] = n if rng.random() < 0.85 else rng.choice([n + 1, "?"])
    return clues


def heyawake_board(rng, h, w):
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(3, 5)))
    shaded = set()
    for x in rng.sample([(r, c) for r in range(h) for c in range(w)], h * w):
        if rng.random() < 0.3 and not any(y in shaded for y in neighbours(h, w, *x)):
            shaded.add(x)
    return clue_layer(rng, ids, shaded, 0.8), ids


def shimaguni_board(rng, h, w):
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(2, 4)))
    shaded = set()
    for g in region_lists(ids):
        start = rng.choice(g)
        shaded.add(start)
        for x in g:
            if rng.random() < 0.3 and any(y in shaded for y in neighbours(h, w, *x)):
                shaded.add(x)
    return clue_layer(rng, ids, shaded, 0.7), ids


def planted_lits(rng, h, w, count):
    """Regions grown around `count` tetrominoes placed to be a LITS answer."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    shapes = [frozenset(q) for q in itertools.combinations(cells, 4)
              if connected(q, h, w) and shape(q) != "O"]
    while True:
        tets, shaded = [rng.choice(shapes)], set()
        shaded |= tets[0]
        for _ in range(500):
            p = rng.choice(shapes)
            touch = [q for q in tets if any(y in q for x in p for y in neighbours(h, w, *x))]
            both = shaded | p
            if (len(tets) < count and not p & shaded and touch
                    and all(shape(q) != shape(p) for q in touch)
                    and not any(all((r + i, c + j) in both for i in (0, 1) for j in (0, 1))
                                for r in range(h - 1) for c in range(w - 1))):
                tets.append(p)
                shaded = both
        if len(tets) == count:
            break
    owner = {x: i for i, q in enumerate(tets) for x in q}
    while len(owner) < h * w:
        x = rng.choice([x for x in cells if x not in owner])
        near = [owner[y] for y in neighbours(h, w, *x) if y in owner]
        if near:
            owner[x] = rng.choice(near)
    return [["abcdefghij"[owner[(r, c)]] for c in range(w)] for r in range(h)], shaded
