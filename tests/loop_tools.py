"""Loops through cell centres on small boards, for the loop genres' brute
forces: every simple loop of an h x w board, the directions a loop leaves
each cell in, and the board as pzc prints it (one box-drawing character per
cell)."""

from __future__ import annotations

import functools

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
