"""Number-placement genres of Catalog II (issue 27): Putteria, Nanro, Cojun,
Sukoro, Hanare, Factors, Makaro and Bosanowa.

Each genre against a brute force written here, on seeded random small boards
(no solution, one, several): pzc's `count --show` boards equal, as sets, the
fillings the brute force finds, and `unique` agrees; the rules are puzz.link's
(pzprjs's AnsCheck).  Each example has one solution; URLs and pzprv3 files
written by pzc read back as the same instance; where the npm package pzpr has
the genre, pzc's answers pass its checker and broken ones do not.
"""

from __future__ import annotations

import itertools

import pytest

from genre_tools import (check_against, counted, examples_unique, rejects, rng,
                         unique_and_several)
from loading import spec as load_spec
from pzc import api
from pzc.formats import binding as puzzlink
from pzc.runtime.errors import Source
from conftest import EXAMPLES
from shaded import lines_of, region_lists


# ---------------------------------------------------------------- shared

def layered(*grids):
    """A text instance: an "R C" header, then each grid of tokens."""
    return (f"{len(grids[0])} {len(grids[0][0])}\n"
            + "".join(" ".join(map(str, row)) + "\n" for g in grids for row in g))


def random_regions(g, h, w, largest=4):
    """An id grid of connected regions of 1..largest cells, grown at random."""
    owner = {}
    for start in ((r, c) for r in range(h) for c in range(w)):
        if start in owner:
            continue
        label = chr(ord("a") + len(set(owner.values())))
        members = [start]
        owner[start] = label
        for _ in range(g.randint(0, largest - 1)):
            grow = [(y, x) for (r, c) in members for (y, x) in ((r + 1, c), (r, c + 1),
                                                                  (r, c - 1), (r - 1, c))
                    if 0 <= y < h and 0 <= x < w and (y, x) not in owner]
            if grow:
                cell = g.choice(grow)
                owner[cell] = label
                members.append(cell)
    return [[owner[(r, c)] for c in range(w)] for r in range(h)]


def side_pairs(h, w):
    """Every pair of side-by-side cells once."""
    return ([((r, c), (r, c + 1)) for r in range(h) for c in range(w - 1)]
            + [((r, c), (r + 1, c)) for r in range(h - 1) for c in range(w)])


def content(inst):
    """What an instance holds, whatever format it came from (region ids renumbered)."""
    layers = {k: dict(v) for k, v in inst.layers.items()}
    if "regions" in layers:
        number = {}
        layers["regions"] = {c: number.setdefault(v, len(number))
                             for c, v in sorted(layers["regions"].items())}
    return (inst.geometry.width, inst.geometry.height), dict(inst.clues), layers, inst.params


def round_trips(name, text, tmp_path):
    """The instance, written as a URL and as a pzprv3 file by pzc, reads back the same."""
    path = tmp_path / "round.txt"
    path.write_text(text)
    spec = load_spec(name)
    for inst in api.load_instances(spec, str(path)):
        url = api.write_instance(spec, inst, "url")
        assert url.startswith(f"https://puzz.link/p?{spec.url_types[0]}/")
        assert content(puzzlink.read_url(spec, url, "url")) == content(inst), url
        file = api.write_instance(spec, inst, "pzprv3")
        assert content(puzzlink.read_pzprv3(spec, Source("f.pzp", file))) == content(inst), file


def example_text(name):
    return next((EXAMPLES / name).glob("*.txt")).read_text()


# ---------------------------------------------------------------- Putteria

def putteria_brute(givens, ids):
    """Every answer: one cell a region holds its size, no two such cells side by
    side or with one number in a line, the givens kept, no number on an 'x'."""
    h, w = len(ids), len(ids[0])
    regions = region_lists(ids)
    size = {c: len(g) for g in regions for c in g}
    found = []
    for pick in itertools.product(*regions):
        put = set(pick)
        if any(givens[r][c] == "x" and (r, c) in put
               or givens[r][c] not in "x-" and ((r, c) not in put or int(givens[r][c]) != size[(r, c)])
               for r in range(h) for c in range(w)):
            continue
        if any(a in put and b in put for a, b in side_pairs(h, w)):
            continue
        if any(len([size[c] for c in l if c in put]) != len({size[c] for c in l if c in put})
               for l in lines_of(h, w)):
            continue
        found.append([[str(size[(r, c)]) if (r, c) in put else "." for c in range(w)]
                      for r in range(h)])
    return found


def putteria_case(g, h, w):
    blank = [["-"] * w for _ in range(h)]
    for _ in range(50):         # most divisions have no answer: look for one that has
        ids = random_regions(g, h, w)
        answers = putteria_brute(blank, ids)
        if answers:
            break
    givens = [row[:] for row in blank]
    if answers and g.random() < 0.8:
        a = g.choice(answers)
        for r in range(h):
            for c in range(w):
                if g.random() < 0.2:
                    givens[r][c] = "x" if a[r][c] == "." else a[r][c]
    if g.random() < 0.2:
        givens[g.randrange(h)][g.randrange(w)] = g.choice(["x", "1", "2", "3"])
    return givens, ids


def test_putteria_against_brute_force(tmp_path):
    g = rng(27)
    cases = [putteria_case(g, *g.choice([(3, 3), (3, 4), (4, 4), (2, 5), (4, 5)]))
             for _ in range(40)]
    check_against("putteria", tmp_path, cases, putteria_brute, layered)


def test_putteria_unique_round_trip_and_errors(tmp_path, run_pzc, write):
    ids = [list("aab"), list("aab"), list("ccc")]
    one = [list("-4-"), list("---"), list("x--")]
    two = [list("-4-"), list("---"), list("---")]
    unique_and_several("putteria", tmp_path, putteria_brute, (one, ids), (two, ids), layered)
    round_trips("putteria", example_text("putteria"), tmp_path)
    g = rng(3)
    for _ in range(5):
        round_trips("putteria", layered(*putteria_case(g, 4, 5)), tmp_path)
    rejects(run_pzc, write, "putteria", "2 2\n- y\n- -\na a\nb b\n", "bad.txt:2:3")


def test_putteria_example(run_pzc):
    examples_unique(run_pzc, "putteria")
