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
import math
from typing import Callable, NamedTuple

import pytest

import pzprjs
from genre_tools import (check_against, counted, examples_unique, instances, needs_pzpr, rejects,
                         rng, unique_and_several)
from loading import spec as load_spec
from pzc import api
from pzc.formats import binding as puzzlink
from pzc.runtime.errors import Source
from conftest import EXAMPLES
from shaded import connected, lines_of, neighbours, region_lists, shadings


# ---------------------------------------------------------------- shared

def layered(*grids):
    """A text instance: an "R C" header, then each grid of tokens."""
    return (f"{len(grids[0])} {len(grids[0][0])}\n"
            + "".join(" ".join(map(str, row)) + "\n" for g in grids for row in g))


def random_regions(g, h, w, largest=4, holes=()):
    """An id grid of connected regions of 1..largest cells, grown at random;
    each cell of ``holes`` a region of its own."""
    owner = {}
    for start in ((r, c) for r in range(h) for c in range(w)):
        if start in owner:
            continue
        label = chr(ord("a") + len(set(owner.values())))
        members = [start]
        owner[start] = label
        for _ in range(0 if start in holes else g.randint(0, largest - 1)):
            grow = [(y, x) for (r, c) in members for (y, x) in ((r + 1, c), (r, c + 1),
                                                                  (r, c - 1), (r - 1, c))
                    if 0 <= y < h and 0 <= x < w and (y, x) not in owner
                    and (y, x) not in holes]
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


def rows(text):
    """A grid of one-character tokens, its rows separated by spaces: rows("a- b-")."""
    return [list(row) for row in text.split()]


def example_text(name):
    return next((EXAMPLES / name).glob("*.txt")).read_text()


class Genre(NamedTuple):
    """What the tests below need of a genre: its brute force, a maker of random
    cases on a board of a size (``case(g, h, w)``: the brute force's arguments),
    the sizes, a case with one answer and one with several, and a bad instance
    with the place of its error."""
    brute: Callable
    case: Callable
    sizes: list
    one: tuple
    two: tuple
    bad: str
    where: str
    text: Callable = layered


def number_ops(givens, board, blank="-"):
    """pzc's answer as pzprjs's steps: a number in every cell left blank."""
    return [pzprjs.cell(r, c, "setAnum", int(t)) for r, row in enumerate(board)
            for c, t in enumerate(row) if t.isdigit() and givens[r][c] == blank]


def pzprjs_agrees(name, tmp_path, cases, text, broken, ops=number_ops):
    """pzc's answers to each case (at most two), and each with a number changed
    (``broken(case, answer)``: rows, or None), set on the board pzprjs opens
    from pzc's URL of the case: pzprjs accepts exactly the answers pzc finds."""
    jobs, good = [], []
    spec = load_spec(name)
    for case in cases:
        source = text(*case)
        inst, = instances(name, source, tmp_path)
        url = api.write_instance(spec, inst, "url")
        n, answers = counted(name, source, tmp_path, limit=None)
        for board in answers[:2]:
            for b in (board, broken(case, board)):
                if b is not None:
                    jobs.append({"open": url, "ops": ops(case[0], b)})
                    good.append(b in answers)
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == good, [v["text"] for v in verdicts]
    assert True in good and False in good


def region_size(case, r, c):
    """The size of the region of (r, c) in a case (givens, region ids)."""
    ids = case[1]
    return sum(t == ids[r][c] for row in ids for t in row)


def with_number_changed(g, largest=region_size):
    """A broken answer: one number that is no given changed to another in
    1..largest(case, r, c) (pzprjs's input allows no more, and its checks do
    not look for more)."""
    def broken(case, board):
        spots = [(r, c) for r, row in enumerate(board) for c, t in enumerate(row)
                 if t.isdigit() and case[0][r][c] == "-" and largest(case, r, c) > 1]
        if not spots:
            return None
        r, c = g.choice(spots)
        b = [list(row) for row in board]
        b[r][c] = str(int(b[r][c]) % largest(case, r, c) + 1)
        return b
    return broken


def planted(g, ids, brute, given=lambda g, t: t, wrong=("1", "2"), share=3):
    """(givens, ids): givens read off a random answer of the blank board (a
    ``share``-th of the cells at most; ``given(g, token)`` is the given an answer's
    token leaves, None for none), and at times a given of ``wrong`` put
    anywhere (which may leave no answer)."""
    h, w = len(ids), len(ids[0])
    givens = [["-"] * w for _ in range(h)]
    answers = brute(givens, ids)
    if answers:
        a = g.choice(answers)
        spots = [(r, c) for r in range(h) for c in range(w)]
        for r, c in g.sample(spots, g.randint(0, h * w // share)):
            givens[r][c] = given(g, a[r][c]) or "-"
    if g.random() < 0.2:
        givens[g.randrange(h)][g.randrange(w)] = g.choice(wrong)
    return givens, ids


def with_number_moved(g):
    """A broken answer: one number that is no given moved to another cell of its region."""
    def broken(case, board):
        givens, ids = case
        spots = [(r, c, y, x) for r, row in enumerate(board) for c, t in enumerate(row)
                 if t.isdigit() and givens[r][c] == "-" for y, x in itertools.product(
                     range(len(ids)), range(len(ids[0])))
                 if ids[y][x] == ids[r][c] and (y, x) != (r, c)]
        if not spots:
            return None
        r, c, y, x = g.choice(spots)
        b = [list(row) for row in board]
        b[y][x], b[r][c] = b[r][c], "."
        return b
    return broken


# ---------------------------------------------------------------- Putteria

def sizes_placed(givens, ids, rule):
    """Every answer that writes in one cell of each region the region's size,
    keeps the givens (on an 'x' no number) and passes ``rule(put, size)``
    (the set of numbered cells, cell -> its region's size)."""
    h, w = len(ids), len(ids[0])
    regions = region_lists(ids)
    size = {c: len(g) for g in regions for c in g}
    found = []
    for pick in itertools.product(*regions):
        put = set(pick)
        if any(givens[r][c] == "x" and (r, c) in put
               or givens[r][c] not in "x-" and ((r, c) not in put
                                                or int(givens[r][c]) != size[(r, c)])
               for r in range(h) for c in range(w)):
            continue
        if rule(put, size):
            found.append([[str(size[(r, c)]) if (r, c) in put else "." for c in range(w)]
                          for r in range(h)])
    return found


def putteria_brute(givens, ids):
    """No two numbers side by side, none twice in a line."""
    h, w = len(ids), len(ids[0])
    return sizes_placed(givens, ids, lambda put, size: not any(
        a in put and b in put for a, b in side_pairs(h, w)) and all(
        len([size[c] for c in l if c in put]) == len({size[c] for c in l if c in put})
        for l in lines_of(h, w)))


def putteria_case(g, h, w):
    blank = [["-"] * w for _ in range(h)]
    for _ in range(50):         # most divisions have no answer: look for one that has
        ids = random_regions(g, h, w)
        if putteria_brute(blank, ids):
            break
    return planted(g, ids, putteria_brute, lambda g, t: "x" if t == "." else t,
                   ("x", "1", "2", "3"))


# ---------------------------------------------------------------- Hanare-gumi

def hanare_brute(givens, ids):
    """Two numbers of a line with none between them differ by the cells between."""
    lines = lines_of(len(ids), len(ids[0]))

    def rule(put, size):
        spots = [[i for i, c in enumerate(l) if c in put] for l in lines]
        return all(abs(size[l[i]] - size[l[j]]) == j - i - 1 for l, s in zip(lines, spots)
                   for i, j in zip(s, s[1:]))
    return sizes_placed(givens, ids, rule)


def hanare_case(g, h, w):
    return planted(g, random_regions(g, h, w), hanare_brute,
                   lambda g, t: t if t != "." else None)


# ---------------------------------------------------------------- Nanro

def nanro_brute(givens, ids):
    """Every answer: in each region a nonempty set of cells holds its own size,
    takes the givens ('?' any number) and keeps their numbers; equal numbers
    never side by side across a border, the numbers joined, no 2 x 2 of them."""
    h, w = len(ids), len(ids[0])
    choices = []
    for g in region_lists(ids):
        given = [c for c in g if givens[c[0]][c[1]] != "-"]
        ways = []
        for k in range(1, len(g) + 1):
            for chosen in itertools.combinations(g, k):
                if all(c in chosen and givens[c[0]][c[1]] in ("?", str(k)) for c in given):
                    ways.append({c: k for c in chosen})
        choices.append(ways)
    found = []
    for pick in itertools.product(*choices):
        v = {c: n for part in pick for c, n in part.items()}
        if any(a in v and b in v and v[a] == v[b] and ids[a[0]][a[1]] != ids[b[0]][b[1]]
               for a, b in side_pairs(h, w)):
            continue
        if any(all((r + i, c + j) in v for i in (0, 1) for j in (0, 1))
               for r in range(h - 1) for c in range(w - 1)):
            continue
        if connected(v, h, w):
            found.append([[str(v[(r, c)]) if (r, c) in v else "." for c in range(w)]
                          for r in range(h)])
    return found


def nanro_case(g, h, w, unknown="?"):
    return planted(g, random_regions(g, h, w), nanro_brute,
                   lambda g, t: g.choice([t] * 3 + [unknown]) if t != "." else None,
                   ("1", "2", unknown))


# ---------------------------------------------------------------- Cojun

def fillings(givens, ids, fits, low=1, largest=None):
    """Every filling of the board, in reading order, with numbers low..k (k:
    ``largest``, else the size of the cell's region): ``fits(v, r, c, n)``
    says whether n may go in (r, c) with the cells before it filled as ``v``;
    a given other than '-' is kept."""
    h, w = len(ids), len(ids[0])
    size = {}
    for row in ids:
        for t in row:
            size[t] = largest or size.get(t, 0) + 1
    v, found = {}, []

    def go(i):
        if i == h * w:
            found.append([[str(v[(r, c)]) for c in range(w)] for r in range(h)])
            return
        r, c = divmod(i, w)
        for n in range(low, size[ids[r][c]] + 1):
            if givens[r][c] in ("-", str(n)) and fits(v, r, c, n):
                v[(r, c)] = n
                go(i + 1)
                del v[(r, c)]
    go(0)
    return found


def cojun_brute(givens, ids):
    """Regions hold 1..k once, side-by-side cells differ, and in a region the
    cell above is the bigger."""
    def fits(v, r, c, n):
        if any(v[p] == n for p in v if ids[p[0]][p[1]] == ids[r][c]):
            return False
        if v.get((r, c - 1)) == n or v.get((r - 1, c)) == n:
            return False
        return not (r > 0 and ids[r - 1][c] == ids[r][c] and v[(r - 1, c)] < n)
    return fillings(givens, ids, fits)


def cojun_case(g, h, w):
    return planted(g, random_regions(g, h, w), cojun_brute)


# ---------------------------------------------------------------- Rooms of Factors

def factors_brute(clues, ids):
    """Numbers 1..n (the larger side), none twice in a row or column, every
    region with a clue multiplying to it."""
    h, w = len(ids), len(ids[0])

    def fits(v, r, c, n):
        return all(v.get((r, x)) != n for x in range(c)) and all(v.get((y, c)) != n
                                                                 for y in range(r))
    blank = [["-"] * w for _ in range(h)]
    found = []
    for board in fillings(blank, ids, fits, largest=max(h, w)):
        if all(clues[r][c] == "-" or math.prod(int(board[y][x]) for y, x in g) == int(clues[r][c])
               for g in region_lists(ids) for r, c in g):
            found.append(board)
    return found


def factors_case(g, h, w, share=0.6):
    """A random division, the products of a random answer on a ``share`` of the regions, at
    times one product changed; each in the region's top cell, as puzz.link
    keeps it (the topmost of its leftmost column)."""
    ids = random_regions(g, h, w)
    clues = [["-"] * w for _ in range(h)]
    a = g.choice(factors_brute(clues, ids))
    for region in region_lists(ids):
        r, c = min(region, key=lambda x: (x[1], x[0]))
        if g.random() < share:
            clues[r][c] = str(math.prod(int(a[y][x]) for y, x in region))
        if g.random() < 0.05:
            clues[r][c] = str(g.randint(1, max(h, w) ** len(region)))
    return clues, ids


# ---------------------------------------------------------------- Sukoro

def sukoro_brute(givens):
    """Every set of numbered cells: each number counts its numbered neighbours
    (a '?' stays '?' and is not checked), equal numbers never side by side,
    the numbered cells joined, at least one number that is not a '?'."""
    h, w = len(givens), len(givens[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    found = []
    for numbered in shadings(cells):
        n = {x: sum(y in numbered for y in neighbours(h, w, *x)) for x in numbered}
        unknown = {x for x in cells if givens[x[0]][x[1]] == "?"}
        if any(givens[r][c] != "-" and ((r, c) not in numbered or (r, c) not in unknown
                                         and givens[r][c] != str(n[(r, c)]))
               for r, c in cells):
            continue
        if (min(n.values(), default=0) == 0 or not numbered - unknown
                or any(a in numbered and b in numbered and n[a] == n[b]
                       and a not in unknown and b not in unknown for a, b in side_pairs(h, w))
                or not connected(numbered, h, w)):
            continue
        found.append([["?" if (r, c) in unknown else str(n[(r, c)]) if (r, c) in numbered
                       else "." for c in range(w)] for r in range(h)])
    return found


def sukoro_case(g, h, w):
    return planted(g, [["-"] * w for _ in range(h)], lambda givens, ids: sukoro_brute(givens),
                   lambda g, t: g.choice([t] * 4 + ["?"]) if t != "." else None,
                   ("1", "2", "3", "?"), share=1)[:1]


# ---------------------------------------------------------------- Makaro

ARROWS = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def makaro_brute(clues, ids):
    """Regions of white cells hold 1..k once, side-by-side cells differ, and an
    arrow points at a white cell whose number beats every other neighbour's."""
    h, w = len(ids), len(ids[0])
    black = {(r, c) for r in range(h) for c in range(w) if clues[r][c] in "xudlr"}
    givens = [["-" if t in "xudlr" else t for t in row] for row in clues]

    def fits(v, r, c, n):
        return (r, c) in black or (
            not any(v.get(p) == n for p in v if p not in black and ids[p[0]][p[1]] == ids[r][c])
            and not (v.get((r, c - 1)) == n and (r, c - 1) not in black)
            and not (v.get((r - 1, c)) == n and (r - 1, c) not in black))

    def arrows_hold(board):
        for r, c in black:
            if clues[r][c] == "x":
                continue
            y, x = r + ARROWS[clues[r][c]][0], c + ARROWS[clues[r][c]][1]
            if not (0 <= y < h and 0 <= x < w) or (y, x) in black:
                return False
            if any(int(board[b][a]) >= int(board[y][x]) for b, a in neighbours(h, w, r, c)
                   if (b, a) != (y, x) and (b, a) not in black):
                return False
        return True
    return [[["." if (r, c) in black else t for c, t in enumerate(row)]
             for r, row in enumerate(b)]
            for b in fillings(givens, ids, fits) if arrows_hold(b)]


def makaro_case(g, h, w):
    """Black cells (each a region of its own), regions of the white cells, and
    arrows where an answer's largest neighbour is alone; at times one wrong."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    black = set(g.sample(cells, g.randint(0, h * w // 5)))
    ids = random_regions(g, h, w, holes=black)
    clues = [["x" if (r, c) in black else "-" for c in range(w)] for r in range(h)]
    answers = makaro_brute(clues, ids)
    if not answers:
        return clues, ids
    a = g.choice(answers)
    for r, c in black:
        near = sorted(((int(a[y][x]), d) for d, (dr, dc) in ARROWS.items()
                       for y, x in [(r + dr, c + dc)] if (y, x) in cells and (y, x) not in black),
                      reverse=True)
        if near and (len(near) == 1 or near[0][0] > near[1][0]) and g.random() < 0.8:
            clues[r][c] = near[0][1]
        elif g.random() < 0.3:
            clues[r][c] = g.choice("udlr")
    givens, ids = planted(g, ids, lambda *_: [a], share=1)
    return [[t if clues[r][c] == "-" else clues[r][c] for c, t in enumerate(row)]
            for r, row in enumerate(givens)], ids


# ---------------------------------------------------------------- Bosanowa

BOSANOWA_MOST = 6       # the largest number the brute force and pzc try


def bosanowa_text(grid):
    return f"{len(grid)} {len(grid[0])} {BOSANOWA_MOST}\n" + "".join(" ".join(r) + "\n" for r in grid)


def bosanowa_brute(grid):
    """Every filling of the cells ('.' none) with 1..BOSANOWA_MOST, givens kept,
    where each number is the sum of its differences with its neighbours."""
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w) if grid[r][c] != "."]
    v, found = {}, []

    def holds(x):
        return v[x] == sum(abs(v[x] - v[y]) for y in neighbours(h, w, *x) if y in v)

    def go(i):
        if i == len(cells):
            if all(holds(x) for x in cells):
                found.append([[str(v[(r, c)]) if (r, c) in v else "." for c in range(w)]
                              for r in range(h)])
            return
        r, c = cells[i]
        for n in range(1, BOSANOWA_MOST + 1):
            if grid[r][c] in ("-", str(n)):
                v[(r, c)] = n
                # a cell whose neighbours are all filled can be checked now
                done = [x for x in cells[:i + 1] if x[0] < r - 1 or x[0] == r - 1 and x[1] <= c]
                if all(holds(x) for x in done[-w - 1:]):
                    go(i + 1)
                del v[(r, c)]
    go(0)
    return found


def bosanowa_case(g, h, w):
    cells = [(r, c) for r in range(h) for c in range(w)]
    grid = [["-"] * w for _ in range(h)]
    for r, c in g.sample(cells, g.randint(0, h * w // 3)):
        grid[r][c] = "."
    answers = bosanowa_brute(grid)
    if answers:
        a = g.choice(answers)
        for r, c in g.sample(cells, g.randint(0, 3)):
            grid[r][c] = a[r][c]
    return (grid,)


# ---------------------------------------------------------------- the tests

SMALL = [(3, 3), (3, 4), (4, 4), (2, 5)]

GENRES = {
    "putteria": Genre(putteria_brute, putteria_case, SMALL + [(4, 5)],
                      (rows("-4- --- x--"), rows("aab aab ccc")),
                      (rows("-4- --- ---"), rows("aab aab ccc")),
                      "2 2\n- y\n- -\na a\nb b\n", "bad.txt:2:3"),
    "nanro": Genre(nanro_brute, nanro_case, SMALL,
                   (rows("3-- --- --1"), rows("aab acb ccb")),
                   (rows("3-- --- ---"), rows("aab acb ccb")),
                   "2 2\n- -\n0 -\na a\nb b\n", "bad.txt:3:1"),
    "factors": Genre(factors_brute, factors_case, [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)],
                     (rows("2-- --- ---"), rows("aab acb ccb")),
                     (rows("6-- --- ---"), rows("aab acb ccb")),
                     "2 2\n- -\nx -\na a\nb b\n", "bad.txt:1:1: error: a region's product"),
    "sukoro": Genre(sukoro_brute, sukoro_case, [(2, 2), (2, 3), (3, 3), (3, 4), (2, 5)],
                    (rows("-2- 1-- -1-"),),
                    (rows("-2- --- -1-"),),
                    "2 2\n- 5\n- -\n", "bad.txt:2:3"),
    "hanare": Genre(hanare_brute, hanare_case, SMALL + [(4, 5)],
                    (rows("--- -2- 3--"), rows("abb acc ddd")),
                    (rows("--- --- 3--"), rows("abb acc ddd")),
                    "2 2\n- 0\n- -\na a\nb b\n", "bad.txt:2:3"),
    "makaro": Genre(makaro_brute, makaro_case, SMALL + [(4, 5)],
                    (rows("-d- --- ---"), rows("abe ade ade")),
                    (rows("-l- --- ---"), rows("abe ade ade")),
                    "2 2\n- y\n- -\na a\nb b\n", "bad.txt:2:3"),
    "bosanowa": Genre(bosanowa_brute, bosanowa_case, [(2, 2), (2, 3), (3, 3), (2, 4), (3, 4)],
                      (rows("1-- 2-- ---"),), (rows("1-- --- ---"),),
                      "2 2\n- x\n- -\n", "bad.txt:2:3", bosanowa_text),
    "cojun": Genre(cojun_brute, cojun_case, SMALL,
                   (rows("--- --- 3--"), rows("abb acc ddd")),
                   (rows("--- --- ---"), rows("abb acc ddd")),
                   "2 2\n- -\n- x\na a\nb b\n", "bad.txt:3:3"),
}


# Bosanowa's answers take a few seconds each (many values a cell)
SLOW = {"bosanowa"}


def genre_names():
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(GENRES)]


@pytest.mark.parametrize("name", genre_names())
def test_against_brute_force(name, tmp_path):
    genre = GENRES[name]
    g = rng(name)
    cases = [genre.case(g, *g.choice(genre.sizes)) for _ in range(40)]
    check_against(name, tmp_path, cases, genre.brute, genre.text)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_unique_and_errors(name, tmp_path, run_pzc, write):
    genre = GENRES[name]
    unique_and_several(name, tmp_path, genre.brute, genre.one, genre.two, genre.text)
    rejects(run_pzc, write, name, genre.bad, genre.where)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_urls_and_files_read_back(name, tmp_path):
    """The example and random cases, written as URLs and pzprv3 files, read back the same."""
    round_trips(name, example_text(name), tmp_path)
    g = rng("round " + name)
    for _ in range(5):
        round_trips(name, layered(*GENRES[name].case(g, 3, 4)), tmp_path)


@pytest.mark.parametrize("name", genre_names())
def test_example(name, run_pzc):
    examples_unique(run_pzc, name)


# the genres the npm package pzpr has, each with its cases for pzprjs
# (case(g): the brute force's arguments) and how an answer is broken
# (broken(g): the function of (case, answer) that breaks it, or None), and
# how an answer is put on pzprjs's board when not as number_ops does
PZPRJS = {
    # no '?': the npm package (0.10.1) counts it as a number of its own, where
    # today's puzz.link (and pzc) reads it as the region's number
    "nanro": (lambda g: nanro_case(g, *g.choice(SMALL[:3]), unknown="1"), with_number_changed),
    "cojun": (lambda g: cojun_case(g, *g.choice(SMALL[:3])), with_number_changed),
    "hanare": (lambda g: hanare_case(g, *g.choice(SMALL[:3])), with_number_moved),
    # the clues are the regions' products: every cell takes a number; every
    # region has one (the npm package checks a region without one as product -1)
    "factors": (lambda g: factors_case(g, *g.choice([(3, 3), (3, 4), (4, 4)]), share=1),
                lambda g: with_number_changed(g, lambda case, r, c: max(len(case[1]),
                                                                       len(case[1][0]))),
                lambda clues, board: number_ops([["-"] * len(board[0])] * len(board), board)),
    "makaro": (lambda g: makaro_case(g, *g.choice(SMALL)), with_number_changed),
    "bosanowa": (lambda g: bosanowa_case(g, *g.choice([(2, 3), (3, 3), (2, 4)])),
                 lambda g: with_number_changed(g, lambda *_: BOSANOWA_MOST)),
    "sukoro": (lambda g: sukoro_case(g, *g.choice([(3, 3), (3, 4), (2, 5)])),
               lambda g: with_number_changed(g, lambda *_: 4)),
}


@needs_pzpr
@pytest.mark.parametrize("name", sorted(PZPRJS))
def test_answers_pass_pzprjs_check(name, tmp_path):
    case, broken, *ops = PZPRJS[name]
    g = rng("pzprjs " + name)
    pzprjs_agrees(name, tmp_path, [case(g) for _ in range(25)], GENRES[name].text, broken(g),
                  *ops)
