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
        for r, c in g.sample([(r, c) for r in range(h) for c in range(w)], g.randint(0, h * w // share)):
            givens[r][c] = given(g, a[r][c]) or "-"
    if g.random() < 0.2:
        givens[g.randrange(h)][g.randrange(w)] = g.choice(wrong)
    return givens, ids


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
        if putteria_brute(blank, ids):
            break
    return planted(g, ids, putteria_brute, lambda g, t: "x" if t == "." else t,
                   ("x", "1", "2", "3"))


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

def fillings(givens, ids, fits, low=1):
    """Every filling of the board, in reading order, with a region of k cells
    holding low..k: ``fits(v, r, c, n)`` says whether n may go in (r, c) with
    the cells before it filled as ``v``."""
    h, w = len(ids), len(ids[0])
    size = {}
    for row in ids:
        for t in row:
            size[t] = size.get(t, 0) + 1
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


# ---------------------------------------------------------------- the tests

SMALL = [(3, 3), (3, 4), (4, 4), (2, 5)]

GENRES = {
    "putteria": Genre(putteria_brute, putteria_case, SMALL + [(4, 5)],
                      ([list("-4-"), list("---"), list("x--")], [list("aab"), list("aab"), list("ccc")]),
                      ([list("-4-"), list("---"), list("---")], [list("aab"), list("aab"), list("ccc")]),
                      "2 2\n- y\n- -\na a\nb b\n", "bad.txt:2:3"),
    "nanro": Genre(nanro_brute, nanro_case, SMALL,
                   ([list("3--"), list("---"), list("--1")], [list("aab"), list("acb"), list("ccb")]),
                   ([list("3--"), list("---"), list("---")], [list("aab"), list("acb"), list("ccb")]),
                   "2 2\n- -\n0 -\na a\nb b\n", "bad.txt:3:1"),
    "sukoro": Genre(sukoro_brute, sukoro_case, [(2, 2), (2, 3), (3, 3), (3, 4), (2, 5)],
                    ([list("-2-"), list("1--"), list("-1-")],),
                    ([list("-2-"), list("---"), list("-1-")],),
                    "2 2\n- 5\n- -\n", "bad.txt:2:3"),
    "cojun": Genre(cojun_brute, cojun_case, SMALL,
                   ([list("---"), list("---"), list("3--")], [list("abb"), list("acc"), list("ddd")]),
                   ([list("---"), list("---"), list("---")], [list("abb"), list("acc"), list("ddd")]),
                   "2 2\n- -\n- x\na a\nb b\n", "bad.txt:3:3"),
}


@pytest.mark.parametrize("name", sorted(GENRES))
def test_against_brute_force(name, tmp_path):
    genre = GENRES[name]
    g = rng(name)
    cases = [genre.case(g, *g.choice(genre.sizes)) for _ in range(40)]
    check_against(name, tmp_path, cases, genre.brute, layered)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_unique_and_errors(name, tmp_path, run_pzc, write):
    genre = GENRES[name]
    unique_and_several(name, tmp_path, genre.brute, genre.one, genre.two, layered)
    rejects(run_pzc, write, name, genre.bad, genre.where)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_urls_and_files_read_back(name, tmp_path):
    """The example and random cases, written as URLs and pzprv3 files, read back the same."""
    round_trips(name, example_text(name), tmp_path)
    g = rng("round " + name)
    for _ in range(5):
        round_trips(name, layered(*GENRES[name].case(g, 3, 4)), tmp_path)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_example(name, run_pzc):
    examples_unique(run_pzc, name)


# the genres the npm package pzpr has, each with its cases for pzprjs
# (case(g): the brute force's arguments) and the largest number a cell takes
# (largest(case, r, c))
PZPRJS = {
    # no '?': the npm package (0.10.1) counts it as a number of its own, where
    # today's puzz.link (and pzc) reads it as the region's number
    "nanro": (lambda g: nanro_case(g, *g.choice(SMALL[:3]), unknown="1"), region_size),
    "cojun": (lambda g: cojun_case(g, *g.choice(SMALL[:3])), region_size),
    "sukoro": (lambda g: sukoro_case(g, *g.choice([(3, 3), (3, 4), (2, 5)])), lambda *_: 4),
}


@needs_pzpr
@pytest.mark.parametrize("name", sorted(PZPRJS))
def test_answers_pass_pzprjs_check(name, tmp_path):
    case, largest = PZPRJS[name]
    g = rng("pzprjs " + name)
    pzprjs_agrees(name, tmp_path, [case(g) for _ in range(25)], layered,
                  with_number_changed(g, largest))
