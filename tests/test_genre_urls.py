"""Kakuro, Shikaku, Fillomino, Star Battle and Ripple Effect through puzz.link
URLs: each example is written as a URL by `pzc convert`, solved from the URL
alone (`pzc solve URL`, no spec: the URL's type picks it), and the answer,
put on the board pzprjs opens from the same URL, passes pzprjs's checker; the
answer with one cell changed does not.  Skipped without node and pzpr."""

from __future__ import annotations

import json

import pytest

import pzprjs
from conftest import EXAMPLES
from pzc import api


def tokens(row):
    return row.split() if " " in row else list(row)


def kakuro_ops(grid):
    # pzprjs's board leaves out the clue row and column that pzc's board has
    return [pzprjs.cell(r - 1, c - 1, "setAnum", int(t)) for r, row in enumerate(grid)
            for c, t in enumerate(row) if t.isdigit()]


def region_ops(grid):
    h, w = len(grid), len(grid[0])
    return ([pzprjs.border((r, c), (r, c + 1), "setQans", 1) for r in range(h)
             for c in range(w - 1) if grid[r][c] != grid[r][c + 1]]
            + [pzprjs.border((r, c), (r + 1, c), "setQans", 1) for r in range(h - 1)
               for c in range(w) if grid[r][c] != grid[r + 1][c]])


def number_ops(grid):
    return [pzprjs.cell(r, c, "setAnum", int(t)) for r, row in enumerate(grid)
            for c, t in enumerate(row)]


def star_ops(grid):
    return [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(grid)
            for c, t in enumerate(row) if t == "*"]


OPS = {"kakuro": kakuro_ops, "shikaku": region_ops, "fillomino": number_ops,
       "starbattle": star_ops, "ripple": number_ops}


def broken(name, grid, fixed):
    """The answer with one cell (not in ``fixed``) changed so that it breaks a rule."""
    g = [list(row) for row in grid]
    if name == "starbattle":
        r = 0
        c = g[r].index("*")
        g[r][c], g[r][(c + 1) % len(g[r])] = ".", "*"
    elif name == "shikaku":
        c = next(c for c in range(len(g[0]) - 1) if g[0][c] != g[0][c + 1])
        g[0][c] = g[0][c + 1]
    else:
        r, c = next((r, c) for r, row in enumerate(g) for c, t in enumerate(row)
                    if t.isdigit() and (r, c) not in fixed)
        g[r][c] = str(int(g[r][c]) % 2 + 1)
    return g


@pytest.mark.parametrize("name", sorted(OPS))
def test_example_solved_from_its_url_passes_pzprjs(name, run_pzc):
    pzprjs.need()
    example = EXAMPLES / name / "small.txt"
    url = run_pzc("convert", name, example, "--format", "url")
    assert url.returncode == 0, url.stderr
    url = url.stdout.strip()
    assert url.startswith(f"https://puzz.link/p?{name}/")
    solved = run_pzc("solve", url, "--format", "json")
    assert solved.returncode == 0, solved.stderr
    out = json.loads(solved.stdout)
    assert out["spec"] == name and out["verified"]
    # the same board as the example's own answer
    direct = json.loads(run_pzc("solve", name, example, "--format", "json").stdout)
    assert out["grid"] == direct["grid"]
    grid = [tokens(row) for row in out["grid"]]
    spec = api.load_spec(name)
    inst, = api.load_instances(spec, str(example))
    fixed = set(inst.clues) if name in ("fillomino", "ripple") else set()
    good, bad = pzprjs.check([{"open": url, "ops": OPS[name](grid)},
                              {"open": url, "ops": OPS[name](broken(name, grid, fixed))}])
    assert good["complete"], good["text"]
    assert not bad["complete"], bad["text"]
