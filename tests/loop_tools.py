"""Loops through cell centres on small boards, for the loop genres' brute
forces: every simple loop of an h x w board, the directions a loop leaves
each cell in, and the board as pzc prints it (one box-drawing character per
cell); and what the loop genres' tests share: an instance through URLs and
files, a refused instance, a genre's boards and brute force (Genre)."""

from __future__ import annotations

import functools
from typing import Callable, NamedTuple

import pytest

from conftest import run_cli
from loading import spec
from pzc import api

UP, DOWN, LEFT, RIGHT = (-1, 0), (1, 0), (0, -1), (0, 1)
BOX = {"─": {LEFT, RIGHT}, "│": {UP, DOWN}, "┌": {DOWN, RIGHT}, "┐": {DOWN, LEFT},
       "└": {UP, RIGHT}, "┘": {UP, LEFT}}


def add(c, d):
    return (c[0] + d[0], c[1] + d[1])


def link(a, b):
    return (a, b) if a < b else (b, a)


@functools.lru_cache(maxsize=None)
def all_loops(h, w):
    """Every simple loop through cell centres of an h x w board, as a
    frozenset of links (pairs of neighbouring cells)."""
    squares = [(r, c) for r in range(h - 1) for c in range(w - 1)]
    sides = {}
    for r, c in squares:
        a, b, d, e = (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
        sides[r, c] = [link(a, b), link(a, d), link(b, e), link(d, e)]
    loops = []
    for mask in range(1, 1 << len(squares)):
        edge_set = set()
        for i, s in enumerate(squares):
            if mask >> i & 1:
                edge_set.symmetric_difference_update(sides[s])
        if is_one_loop(edge_set):
            loops.append(frozenset(edge_set))
    return loops


def is_one_loop(links) -> bool:
    nbrs = {}
    for a, b in links:
        nbrs.setdefault(a, []).append(b)
        nbrs.setdefault(b, []).append(a)
    if not nbrs or any(len(v) != 2 for v in nbrs.values()):
        return False
    start = next(iter(nbrs))
    seen, todo = {start}, [start]
    while todo:
        for y in nbrs[todo.pop()]:
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return len(seen) == len(nbrs)


def directions(loop):
    """cell -> the set of directions the loop leaves it in."""
    out = {}
    for a, b in loop:
        d = (b[0] - a[0], b[1] - a[1])
        out.setdefault(a, set()).add(d)
        out.setdefault(b, set()).add((-d[0], -d[1]))
    return out


def straight(dirs):
    return dirs in ({UP, DOWN}, {LEFT, RIGHT})


def draw(h, w, loop, cell_text=lambda c: None):
    """The board as pzc prints a loop, as rows of tokens: box characters,
    '.' off the loop (``cell_text`` may say otherwise for a cell)."""
    dirs = directions(loop)
    rows = []
    for r in range(h):
        row = []
        for c in range(w):
            t = cell_text((r, c))
            if t is None:
                t = next((ch for ch, ds in BOX.items() if ds == dirs.get((r, c))), ".")
            row.append(t)
        rows.append(row)
    return rows


# ---------------------------------------------------------------- shared by the loop genres' tests

def cells_of(board):
    return [(r, c) for r in range(len(board)) for c in range(len(board[0]))]


def same_instance(genre, path, tmp_path, regions=(), in_urls=lambda inst: True):
    """Every instance of ``path`` written as a puzz.link URL and as a pzprv3
    file reads back as the same instance (its text form; the grids numbered
    ``regions`` compared as partitions, since the readers number regions).
    An instance that ``in_urls`` says puzz.link's URLs cannot hold is refused."""
    s = spec(genre)
    for k, inst in enumerate(api.load_instances(s, path)):
        want = canonical(api.write_instance(s, inst, "text"), regions)
        if not in_urls(inst):
            with pytest.raises(api.PzcError, match="cannot be written as a puzz.link URL"):
                api.write_instance(s, inst, "url")
        else:
            url = api.write_instance(s, inst, "url")
            assert url.startswith(f"https://puzz.link/p?{s.url_types[0]}/")
            back, = api.load_instances(s, url)
            assert canonical(api.write_instance(s, back, "text"), regions) == want, url
        file = tmp_path / f"{k}.pzprv3"
        file.write_text(api.write_instance(s, inst, "pzprv3"))
        back, = api.load_instances(s, str(file))
        assert canonical(api.write_instance(s, back, "text"), regions) == want, file.read_text()


def canonical(text, regions):
    """A text instance with its grids numbered ``regions`` written as their
    regions, connected groups of one id (Double Back's holes 'x' kept), each
    numbered by its first cell: the readers number regions their own way."""
    head, *rows = text.strip().split("\n")
    height = int(head.split()[1])
    grids = [rows[i:i + height] for i in range(0, len(rows), height)]
    for g in regions:
        ids = [row.split() for row in grids[g]]
        room = rooms_apart(ids)
        names = {}
        grids[g] = [" ".join("x" if t == "x" else names.setdefault(room[r, c], str(len(names) + 1))
                             for c, t in enumerate(row)) for r, row in enumerate(ids)]
    return [head] + [row for g in grids for row in g]


def rejects(genre, tmp_path, text, where, message):
    """The instance ``text`` is refused at line:column ``where`` with ``message``."""
    path = tmp_path / "bad.txt"
    path.write_text(text)
    out = run_cli("solve", genre, path)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert f"bad.txt:{where}: error: {message}" in out.stderr, out.stderr


def rooms_apart(ids):
    """Double Back's regions: the connected groups of cells of one id, holes
    ('x') in none; cell -> the index of its region."""
    room = {}
    for start in cells_of(ids):
        if start in room or ids[start[0]][start[1]] == "x":
            continue
        room[start], todo = start, [start]
        while todo:
            x = todo.pop()
            for d in (UP, DOWN, LEFT, RIGHT):
                y = add(x, d)
                if y in set(cells_of(ids)) and y not in room and ids[y[0]][y[1]] == ids[x[0]][x[1]]:
                    room[y] = start
                    todo.append(y)
    return room


class Genre(NamedTuple):
    boards: Callable            # (rng, h, w, n) -> n boards
    answers: Callable           # board -> its answers, as pzc prints them
    layers: Callable = lambda board: [board]     # board -> the grids of its instance
    regions: tuple = ()         # which of those grids hold region ids
    in_urls: Callable = lambda inst: True        # puzz.link's URLs can hold the instance
