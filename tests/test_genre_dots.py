"""Creek, Gokigen and Galaxies: clues on the corners of the cells, on the
sides between them and in them (board options `points` and `doubled`).

Each genre against a brute force written here, on seeded random boards of
2x2..4x4 (planted from a random answer, some clues dropped or changed, so
that boards with no answer, one and several all occur): `pzc count --show`
lists every answer and the set of printed boards must equal the brute
force's, and `pzc unique` must agree (shaded.run_genre).  The brute forces
apply the rules as puzz.link's checker states them:

* Creek: every number on a corner counts the shaded cells touching it, the
  unshaded cells are connected, at least one cell is shaded;
* Gokigen: a diagonal in every cell, none forming a loop (found by joining
  corners, a union-find), every number counts the diagonals at its corner;
* Galaxies: every region that can hold a star (the cells at the star, grown
  by pairs of cells opposite each other about it, always connected) is
  listed, and the answers are the ways to cover the board with one region
  for each star.

Then the puzz.link URL, pzprv3 and text forms round trip, pzprjs (npm
`pzpr`) opens the URLs pzc writes and accepts the answers pzc finds (and
refuses a broken one), and the doubled grid is read and checked as
docs/language.md says.
"""

from __future__ import annotations

import itertools
import json
import random
from functools import lru_cache

import pytest

import pzprjs
from conftest import EXAMPLES, run_cli
from pzc import api
from shaded import connected, printed, run_genre

# ---------------------------------------------------------------- boards as text


def dots_text(grid):
    """A board of corner clues: "W H" counting cells, then the (H+1) x (W+1) corners."""
    return f"{len(grid[0]) - 1} {len(grid) - 1}\n" + "".join(" ".join(row) + "\n" for row in grid)


def doubled_text(board):
    """A Galaxies board (h, w, stars): "W H", then the doubled grid's rows."""
    h, w, stars = board
    return f"{w} {h}\n" + "".join("".join(stars.get((y, x), ".") for x in range(2 * w + 1)) + "\n"
                                  for y in range(2 * h + 1))


def corner_cells(h, w, r, k):
    """The cells round the corner (r, k)."""
    return [(y, x) for y in (r - 1, r) for x in (k - 1, k) if 0 <= y < h and 0 <= x < w]


# ---------------------------------------------------------------- Creek

def creek_ok(grid, shaded):
    h, w = len(grid) - 1, len(grid[0]) - 1
    cells = [(r, c) for r in range(h) for c in range(w)]
    return (len(shaded) > 0 and connected([x for x in cells if x not in shaded], h, w)
            and all(t in ".?" or sum(x in shaded for x in corner_cells(h, w, r, k)) == int(t)
                    for r, row in enumerate(grid) for k, t in enumerate(row)))


def creek_brute(grid):
    h, w = len(grid) - 1, len(grid[0]) - 1
    cells = [(r, c) for r in range(h) for c in range(w)]
    out = set()
    for bits in itertools.product((False, True), repeat=len(cells)):
        shaded = {x for x, b in zip(cells, bits) if b}
        if creek_ok(grid, shaded):
            out.add(printed([["#" if (r, c) in shaded else "." for c in range(w)]
                             for r in range(h)]))
    return out


def creek_board(rng, h, w):
    shaded = {(r, c) for r in range(h) for c in range(w) if rng.random() < 0.4}
    keep = rng.choice([0.4, 0.6, 0.9])
    grid = [[str(sum(x in shaded for x in corner_cells(h, w, r, k))) if rng.random() < keep
             else "." for k in range(w + 1)] for r in range(h + 1)]
    change = rng.random()
    r, k = rng.randrange(h + 1), rng.randrange(w + 1)
    if change < 0.2:
        grid[r][k] = str(rng.randint(0, 4))
    elif change < 0.3:
        grid[r][k] = "?"
    return grid


# ---------------------------------------------------------------- Gokigen

def diagonal(r, c, token):
    """The corners a diagonal joins: '\\' top left to bottom right, '/' the others."""
    return ((r, c), (r + 1, c + 1)) if token == "\\" else ((r, c + 1), (r + 1, c))


def loop_free(fill):
    parent = {}

    def root(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    for (r, c), token in fill.items():
        a, b = (root(x) for x in diagonal(r, c, token))
        if a == b:
            return False
        parent[a] = b
    return True


def gokigen_ok(grid, fill):
    if not loop_free(fill):
        return False
    at = {}
    for (r, c), token in fill.items():
        for x in diagonal(r, c, token):
            at[x] = at.get(x, 0) + 1
    return all(t in ".?" or at.get((r, k), 0) == int(t)
               for r, row in enumerate(grid) for k, t in enumerate(row))


def gokigen_brute(grid):
    h, w = len(grid) - 1, len(grid[0]) - 1
    cells = [(r, c) for r in range(h) for c in range(w)]
    out = set()
    for tokens in itertools.product("/\\", repeat=len(cells)):
        fill = dict(zip(cells, tokens))
        if gokigen_ok(grid, fill):
            out.add(printed([[fill[(r, c)] for c in range(w)] for r in range(h)]))
    return out


def gokigen_board(rng, h, w):
    while True:
        fill = {(r, c): rng.choice("/\\") for r in range(h) for c in range(w)}
        if loop_free(fill):
            break
    at = {}
    for (r, c), token in fill.items():
        for x in diagonal(r, c, token):
            at[x] = at.get(x, 0) + 1
    keep = rng.choice([0.3, 0.5, 0.8])
    grid = [[str(at.get((r, k), 0)) if rng.random() < keep else "." for k in range(w + 1)]
            for r in range(h + 1)]
    if rng.random() < 0.25:
        r, k = rng.randrange(h + 1), rng.randrange(w + 1)
        grid[r][k] = rng.choice(["?", str(rng.randint(0, 4))])
    return grid


@pytest.mark.slow
@pytest.mark.parametrize("genre, board, brute, seed", [
    ("creek", creek_board, creek_brute, 271), ("gokigen", gokigen_board, gokigen_brute, 272)])
def test_corner_clues_against_brute_force(genre, board, brute, seed):
    rng = random.Random(seed)
    grids = [board(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(30)]
    run_genre(genre, grids, brute, text=dots_text)


def test_gokigen_answers_print_backslashes(tmp_path):
    """'\\' is a token of the text answer as is; JSON escapes it as JSON does."""
    grid = [[".", ".", "."], [".", "4", "."], [".", ".", "."]]
    assert gokigen_brute(grid) == {("\\/", "/\\")}
    path = tmp_path / "g.txt"
    path.write_text(dots_text(grid))
    text = run_cli("solve", "gokigen", path)
    assert text.stdout.splitlines()[1:3] == ["  \\/", "  /\\"], text.stdout
    out = run_cli("solve", "gokigen", path, "--format", "json")
    assert '"grid": ["\\\\/", "/\\\\"]' in out.stdout
    assert json.loads(out.stdout)["grid"] == ["\\/", "/\\"]


# ---------------------------------------------------------------- Galaxies

def place_cells(h, w, place):
    y, x = place
    rows = [y // 2] if y % 2 else [y // 2 - 1, y // 2]
    cols = [x // 2] if x % 2 else [x // 2 - 1, x // 2]
    return frozenset((r, c) for r in rows for c in cols if 0 <= r < h and 0 <= c < w)


def opposite(cell, place):
    return place[0] - 1 - cell[0], place[1] - 1 - cell[1]


@lru_cache(maxsize=None)
def galaxy_regions(h, w, place):
    """Every region a star at ``place`` may have: its cells at the star, grown
    a pair of opposite cells at a time, each pair next to the region."""
    core = place_cells(h, w, place)
    if any(not (0 <= r < h and 0 <= c < w) for r, c in (opposite(x, place) for x in core)):
        return ()
    seen, todo = {core}, [core]
    while todo:
        region = todo.pop()
        for r, c in region:
            for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                y = opposite(x, place)
                if x not in region and 0 <= x[0] < h and 0 <= x[1] < w \
                        and 0 <= y[0] < h and 0 <= y[1] < w:
                    bigger = region | {x, y}
                    if bigger not in seen:
                        seen.add(bigger)
                        todo.append(bigger)
    return tuple(seen)


def galaxies_brute(board):
    h, w, stars = board
    order = sorted(stars)
    options = [galaxy_regions(h, w, p) for p in order]
    every = frozenset((r, c) for r in range(h) for c in range(w))
    out = set()

    def cover(k, used, chosen):
        if k == len(order):
            if used == every:
                label = {x: i for i, region in enumerate(chosen) for x in region}
                out.add(printed([[_label(label[(r, c)]) for c in range(w)] for r in range(h)]))
            return
        for region in options[k]:
            if not region & used:
                cover(k + 1, used | region, chosen + [region])
    cover(0, frozenset(), [])
    return out


def _label(i):
    return "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i]


def galaxies_board(rng, h, w):
    """Stars of a random division into symmetric regions, or random stars,
    then perhaps a star more; or (few boards have several answers) a star in
    the middle of each column of four rows, or of each row of four columns,
    whose regions can take their cells in more ways than one."""
    stars = {}
    kind = rng.random()
    if kind < 0.12 and w >= 3:
        return 4, w, {(4, 2 * k + 1): "o" for k in range(w)}
    if kind < 0.24 and h >= 3:
        return h, 4, {(2 * r + 1, 4): "o" for r in range(h)}
    if kind < 0.8:
        free = {(r, c) for r in range(h) for c in range(w)}
        while free:
            cell = rng.choice(sorted(free))
            places = [(2 * cell[0] + 1 + dy, 2 * cell[1] + 1 + dx)
                      for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
            places = [p for p in places if 0 < p[0] < 2 * h and 0 < p[1] < 2 * w
                      and place_cells(h, w, p) <= free]
            if not places:
                break
            p = rng.choice(places)
            region = set(place_cells(h, w, p))
            for _ in range(rng.randint(0, 3)):
                grow = [x for r, c in region for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                        if x in free and x not in region and opposite(x, p) in free
                        and opposite(x, p) not in region]
                if grow:
                    x = rng.choice(grow)
                    region |= {x, opposite(x, p)}
            free -= region
            stars[p] = rng.choice("o*")
    else:
        for _ in range(rng.randint(1, 4)):
            stars[(rng.randint(1, 2 * h - 1), rng.randint(1, 2 * w - 1))] = "o"
    if rng.random() < 0.2:
        stars[(rng.randint(1, 2 * h - 1), rng.randint(1, 2 * w - 1))] = "o"
    return h, w, stars


def test_galaxies_against_brute_force():
    rng = random.Random(273)
    boards = [galaxies_board(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(40)]
    run_genre("galaxies", boards, galaxies_brute, text=doubled_text)


# ---------------------------------------------------------------- examples, round trips

GENRES = {"creek": (creek_board, dots_text), "gokigen": (gokigen_board, dots_text),
          "galaxies": (galaxies_board, doubled_text)}


def random_texts(genre, seed, n=12):
    make, text = GENRES[genre]
    rng = random.Random(seed)
    return [text(make(rng, rng.randint(1, 5), rng.randint(1, 6))) for _ in range(n)]


def examples(genre):
    return [p.read_text() for p in sorted((EXAMPLES / genre).iterdir())]


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_examples_have_one_answer(genre, run_pzc):
    for path in sorted((EXAMPLES / genre).iterdir()):
        res = run_pzc("unique", genre, path)
        assert res.returncode == 0 and "exactly one solution" in res.stdout, res.stdout + res.stderr


def loaded(spec, text, tmp_path, name="inst.txt"):
    path = tmp_path / name
    path.write_text(text)
    return api.load_instances(spec, str(path))


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_url_file_and_text_round_trips(genre, tmp_path):
    """Each instance written as a URL, a pzprv3 file and a text instance reads
    back as the same clues on the same board, and writes the same URL again."""
    spec = api.load_spec(genre)
    for text in random_texts(genre, f"trip-{genre}") + examples(genre):
        inst, = loaded(spec, text, tmp_path)
        url = api.write_instance(spec, inst, "url")
        assert url.startswith("https://puzz.link/p?" + spec.url_types[0] + "/")
        again = [api.load_instances(spec, url)[0]]
        for form in ("pzprv3", "text"):
            again += loaded(spec, api.write_instance(spec, inst, form), tmp_path, f"x.{form}")
        for other in again:
            assert (other.geometry.width, other.geometry.height) == \
                (inst.geometry.width, inst.geometry.height)
            assert other.clues == inst.clues, (text, form)
            assert api.write_instance(spec, other, "url") == url


# ---------------------------------------------------------------- pzprjs

def answer_ops(genre, rows):
    """An answer as pzprjs steps: shaded cells, diagonals (31 '\\', 32 '/'),
    borders between regions."""
    grid = [r.split() if " " in r else list(r) for r in rows]
    h, w = len(grid), len(grid[0])
    if genre == "creek":
        return [pzprjs.cell(r, c, "setQans", 1) for r in range(h) for c in range(w)
                if grid[r][c] == "#"]
    if genre == "gokigen":
        return [pzprjs.cell(r, c, "setQans", 31 if grid[r][c] == "\\" else 32)
                for r in range(h) for c in range(w)]
    return ([pzprjs.border((r, c), (r, c + 1), "setQans", 1) for r in range(h)
             for c in range(w - 1) if grid[r][c] != grid[r][c + 1]]
            + [pzprjs.border((r, c), (r + 1, c), "setQans", 1) for r in range(h - 1)
               for c in range(w) if grid[r][c] != grid[r + 1][c]])


def broken(genre, rows):
    """One answer's steps with one cell changed: a shading less, a diagonal
    turned, a border less (two stars in a region); None where there is none
    to change (a board that is one region)."""
    ops = answer_ops(genre, rows)
    if not ops:
        return None
    if genre == "gokigen":
        kind, x, y, method, value = ops[0]
        return [[kind, x, y, method, 63 - value]] + ops[1:]
    return ops[1:]


def test_answers_pass_pzprjs_check(tmp_path):
    """pzprjs opens the URL pzc writes and writes it back the same; every
    answer pzc finds (up to two a board) passes pzprjs's check, and on a
    board with one answer, that answer broken in one place does not."""
    pzprjs.need()
    jobs, expect = [], []
    for genre in sorted(GENRES):
        spec = api.load_spec(genre)
        texts = random_texts(genre, f"pzprjs-{genre}", 24) + examples(genre)
        urls = [api.write_instance(spec, inst, "url")
                for text in texts for inst in loaded(spec, text, tmp_path)]
        opened = pzprjs.check([{"open": u} for u in urls])
        assert [v["url"].split("?", 1)[1] for v in opened] == [u.split("?", 1)[1] for u in urls]
        listing = tmp_path / f"{genre}.txt"
        listing.write_text("".join(u + "\n" for u in urls))
        run = run_cli("count", listing, "--show", "--limit", "2", "--format", "json")
        assert run.returncode == 0, run.stderr
        for url, got in zip(urls, map(json.loads, run.stdout.splitlines())):
            assert got["spec"] == genre
            for rows in got["solutions"]:
                jobs.append({"open": url, "ops": answer_ops(genre, rows)})
                expect.append((genre, True))
            wrong = broken(genre, got["solutions"][0]) if got["count"] == 1 else None
            if wrong is not None:
                jobs.append({"open": url, "ops": wrong})
                expect.append((genre, False))
    verdicts = pzprjs.check(jobs)
    seen = {}
    for job, verdict, (genre, ok) in zip(jobs, verdicts, expect):
        assert verdict.get("complete") == ok, (genre, job, verdict)
        seen[(genre, ok)] = seen.get((genre, ok), 0) + 1
    for genre in GENRES:
        assert seen.get((genre, True), 0) >= 8 and seen.get((genre, False), 0) >= 4, seen


# ---------------------------------------------------------------- the doubled grid

TOUCH = """\
puzzle touch
board square(doubled)
var shaded[c in cells] : bool
show c: if shaded[c] then "#" else "."
rule counts: all p in places where given(p): count(c in cells_at(p): shaded[c]) = clue(p)
"""


def test_doubled_grid_reads_places(write):
    spec = api.load_spec(str(write("touch.pz", TOUCH)))
    # "R C" too: 2 rows of 3 cells; the first row has 7 places
    inst, = api.load_instances(spec, str(write("t.txt", "2 3\n. . . . . . .\n. 1 . . . . .\n"
                                                    ". . . 2 . 1 .\n. . . . . . .\n"
                                                    "0 . . . . . 1\n")))
    assert inst.doubled and (inst.geometry.width, inst.geometry.height) == (3, 2)
    assert inst.clues == {(1, 1): 1, (2, 3): 2, (2, 5): 1, (4, 0): 0, (4, 6): 1}
    assert inst.positions[(2, 3)] == (4, 7)
    res = api.solve(spec, inst)
    assert res.status == "solved" and res.grid == ["##.", ".##"]
    assert api.write_instance(spec, inst, "text").splitlines()[1:] == [
        ". . . . . . .", ". 1 . . . . .", ". . . 2 . 1 .", ". . . . . . .", "0 . . . . . 1"]


@pytest.mark.parametrize("text, message", [
    ("......\n......\n", "t.txt:1:1: error: a doubled grid of clues has 2h+1 rows of 2w+1 "
                         "places for a board of h x w cells (odd sizes, at least 3 x 3), not 6 x 2"),
    ("3 2\n.......\n.......\n", "t.txt:1:1: error: the header says 5 rows, but only 2 follow"),
    ("1 1\n...\n.x.\n...\n", "t.txt:3:2: error: 'x' is not allowed"),
])
def test_doubled_grid_errors(text, message, write, run_pzc):
    write("touch.pz", TOUCH.replace("board square(doubled)", "board square(doubled, clues: 0..4)"))
    write("t.txt", text)
    res = run_pzc("solve", "touch.pz", "t.txt")
    assert res.returncode == 2 and message in res.stderr, res.stderr


def test_clue_off_the_doubled_grid_is_an_error(write, run_pzc):
    write("far.pz", TOUCH + "require given((9, 9))\n")
    write("t.txt", "1 1\n...\n.1.\n...\n")
    res = run_pzc("solve", "far.pz", "t.txt")
    assert res.returncode == 2
    assert "far.pz:6:15: error: expected a cell of the board or a place of the doubled grid, " \
           "but this is (9, 9)" in res.stderr, res.stderr


def test_galaxies_refuses_what_standard_rules_lack(write, run_pzc):
    """Today's puzz.link may add a layer of cells left out of the board after
    the stars: not Galaxies' standard rules, refused at that layer."""
    res = run_pzc("solve", "https://puzz.link/p?tentaisho/2/2/neg")
    assert res.returncode == 2 and "unexpected 'g' after the puzzle's layers" in res.stderr
    write("s.txt", "pzprv3\ntentaisho\n2\n2\nX..\n...\n..1\n")
    res = run_pzc("solve", "galaxies", "s.txt")
    assert res.returncode == 2 and "s.txt:5:1: error: the stars: 'X' is not '1'" in res.stderr
    write("rim.txt", "1 1\n..o\n...\n...\n")
    res = run_pzc("solve", "galaxies", "rim.txt")
    assert res.returncode == 2
    assert "rim.txt:1:1: error: a star sits inside the board, not on its rim" in res.stderr
