"""The shading genres of issue 27 (Minesweeper, Canal View, Aqre,
Nurimisaki, Cave, Kurochute, Paint Area, Chocona, Usoone) against brute
forces written here.

For each genre, seeded random boards of 2x2..4x4 (clues read off a random
shading, some dropped or changed, so that boards with no answer, one answer
and several answers all occur) are written into one file; `pzc count --show`
lists every answer of each, and the set of printed boards must equal the set
the brute force finds by trying every shading and applying the genre's rules
as puzz.link's checker states them (pzprjs's AnsCheck); `pzc unique` must
agree (shaded.run_genre).  Each genre's example is unique, and its URL and
pzprv3 file read back as the same instance.  Where the npm package pzpr has
the genre, pzprjs's own checker takes pzc's answers and refuses them broken.
"""

from __future__ import annotations

import random

import pytest

import pzprjs
from conftest import run_cli
from genre_tools import examples_unique, run_json, tokens
from pzc import api
from shaded import (DIRS, apart, blocks, board_text, clue_layer, connected, layered_text,
                    neighbours, printed, random_regions, region_lists, run_genre, shadings,
                    sizes_of, view)

AROUND = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def cells_of(grid):
    return [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]


def clued(grid, r, c):
    return grid[r][c] not in ("-", ".")


def picture(grid, shaded, hidden=()):
    """The rows pzc prints: '#' on shaded cells, else the clue ('.' for a
    blank or a token in ``hidden``)."""
    return printed([["#" if (r, c) in shaded else
                     "." if not clued(grid, r, c) or t in hidden else str(t)
                     for c, t in enumerate(row)] for r, row in enumerate(grid)])


def free_brute(ok):
    """A brute force: the printed answers among every shading of the cells
    without a clue that ``ok(grid, shaded)`` accepts."""
    def brute(grid):
        free = [x for x in cells_of(grid) if not clued(grid, *x)]
        return {picture(grid, s) for s in shadings(free) if ok(grid, s)}
    return brute


def layered_brute(ok):
    """A brute force for boards of (clues, region ids): the printed answers
    among every shading of the board that ``ok(board, shaded)`` accepts."""
    def brute(board):
        return {picture(board[0], s) for s in shadings(cells_of(board[1])) if ok(board, s)}
    return brute


def numbers_off(rng, h, w, shaded, keep, top, number):
    """A grid of clues on a share ``keep`` of the unshaded cells: what
    ``number(r, c)`` says, now and then '?' or one more (at most ``top``)."""
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells_of(grid):
        if (r, c) not in shaded and rng.random() < keep:
            n, odd = number(r, c), rng.random()
            grid[r][c] = "?" if odd < 0.08 else min(top, n + 1) if odd < 0.16 else n
    return grid


# ---------------------------------------------------------------- Minesweeper

def mines_count(grid, mines, r, c):
    h, w = len(grid), len(grid[0])
    return sum((r + dr, c + dc) in mines for dr, dc in AROUND
               if 0 <= r + dr < h and 0 <= c + dc < w)


def mines_ok(board, mines):
    grid, total = board
    return ((total is None or len(mines) == total)
            and not any(clued(grid, *x) for x in mines)
            and all(grid[r][c] in ("-", "?", "#") or mines_count(grid, mines, r, c) == grid[r][c]
                    for r, c in cells_of(grid)))


def mines_brute(board):
    grid, _ = board
    free = [x for x in cells_of(grid) if not clued(grid, *x)]
    return {picture(grid, m, hidden=("#",)) for m in shadings(free) if mines_ok(board, m)}


def mines_board(rng, h, w):
    """(grid, total or None): numbers read off random mines, a few changed
    to '?' or to a wrong count, some holes; the total given now and then."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    mines = {x for x in cells if rng.random() < 0.3}
    grid = [["-"] * w for _ in range(h)]
    for r, c in cells:
        if (r, c) not in mines and rng.random() < 0.45:
            n = mines_count(grid, mines, r, c)
            # (no hole first in a row: a text line "# ..." is a comment)
            odd = ["?", min(8, n + 1)] + (["#"] if c > 0 else [])
            grid[r][c] = rng.choice(odd) if rng.random() < 0.15 else n
    total = None if rng.random() < 0.6 else len(mines) + (rng.random() < 0.2)
    return grid, total


def mines_text(board):
    grid, total = board
    head = f"{len(grid[0])} {len(grid)}" + ("" if total is None else f" {total}")
    return head + "\n" + "".join(" ".join(map(str, row)) + "\n" for row in grid)


@pytest.mark.slow
def test_mines_against_brute_force():
    rng = random.Random(27)
    boards = [mines_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("mines", boards, mines_brute, text=mines_text)


# ---------------------------------------------------------------- Canal View

def run_length(cells, shaded):
    """How many cells of ``cells`` (nearest first) are shaded before the first one that is not."""
    n = 0
    while n < len(cells) and cells[n] in shaded:
        n += 1
    return n


def rays(h, w, r, c):
    """The cells from (r, c) up, down, left and right, nearest first, to the edge."""
    return [[(r + k * dr, c + k * dc) for k in range(1, max(h, w))
             if 0 <= r + k * dr < h and 0 <= c + k * dc < w] for dr, dc in DIRS]


def no_pool(cells, h, w):
    return not any(all((r + i, c + j) in cells for i in (0, 1) for j in (0, 1))
                   for r in range(h - 1) for c in range(w - 1))


def canal_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    return (connected(shaded, h, w) and no_pool(shaded, h, w)
            and all(not isinstance(grid[r][c], int)
                    or sum(run_length(x, shaded) for x in rays(h, w, r, c)) == grid[r][c]
                    for r, c in cells_of(grid)))


canal_brute = free_brute(canal_ok)


def canal_board(rng, h, w):
    shaded = {x for x in cells_of([[0] * w] * h) if rng.random() < 0.55}
    return numbers_off(rng, h, w, shaded, 0.5, h + w - 2, lambda r, c: sum(
        run_length(x, shaded) for x in rays(h, w, r, c)))


@pytest.mark.slow
def test_canal_against_brute_force():
    rng = random.Random(28)
    run_genre("canal", [canal_board(rng, h, w) for h, w in sizes_of(rng, 40)], canal_brute)


# ---------------------------------------------------------------- Aqre

def runs_of_four(h, w):
    """Every four cells in a row of a row or a column."""
    return ([[(r, c + i) for i in range(4)] for r in range(h) for c in range(w - 3)]
            + [[(r + i, c) for i in range(4)] for r in range(h - 3) for c in range(w)])


def region_numbers_hold(board, shaded):
    """Each region's number (in any of its cells) is its count of shaded cells."""
    clues, ids = board
    return all(not isinstance(clues[r][c], int)
               or sum(x in shaded for x in region) == clues[r][c]
               for region in region_lists(ids) for r, c in region)


def aqre_ok(board, shaded):
    h, w = len(board[1]), len(board[1][0])
    return (all(0 < sum(x in shaded for x in run) < 4 for run in runs_of_four(h, w))
            and region_numbers_hold(board, shaded) and connected(shaded, h, w))


aqre_brute = layered_brute(aqre_ok)


def aqre_board(rng, h, w):
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(2, 4)))
    shaded = {x for x in cells_of(ids) if rng.random() < 0.5}
    return clue_layer(rng, ids, shaded, 0.7), ids


@pytest.mark.slow
def test_aqre_against_brute_force():
    rng = random.Random(29)
    boards = [aqre_board(rng, h, w) for h, w in sizes_of(rng, 30)]
    run_genre("aqre", boards, aqre_brute, text=layered_text)


# ---------------------------------------------------------------- Nurimisaki

def open_around(h, w, white, r, c):
    return sum(x in white for x in neighbours(h, w, r, c))


def nurimisaki_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    white = set(cells_of(grid)) - shaded
    return (bool(shaded) and connected(white, h, w)
            and no_pool(shaded, h, w) and no_pool(white, h, w)
            and all((open_around(h, w, white, r, c) == 1) == clued(grid, r, c) for r, c in white)
            and all(not isinstance(grid[r][c], int) or view(h, w, shaded, r, c) == grid[r][c]
                    for r, c in white))


nurimisaki_brute = free_brute(nurimisaki_ok)


def nurimisaki_board(rng, h, w):
    """Circles on the dead ends of a random shading's white cells, some of
    them numbered with what they see (now and then one more), a few dropped."""
    cells = cells_of([[0] * w] * h)
    shaded = {x for x in cells if rng.random() < 0.4}
    white = set(cells) - shaded
    grid = [["-"] * w for _ in range(h)]
    for r, c in white:
        if open_around(h, w, white, r, c) == 1 and rng.random() < 0.85:
            n = view(h, w, shaded, r, c) + (rng.random() < 0.1)
            grid[r][c] = "?" if rng.random() < 0.3 else n
    return grid


@pytest.mark.slow
def test_nurimisaki_against_brute_force():
    rng = random.Random(30)
    boards = [nurimisaki_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("nurimisaki", boards, nurimisaki_brute)


# ---------------------------------------------------------------- Cave

def cave_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    cave = set(cells_of(grid)) - shaded
    groups = blocks(shaded, h, w)
    return (bool(shaded) and connected(cave, h, w)
            and all(any(r in (0, h - 1) or c in (0, w - 1) for r, c in g) for g in groups.values())
            and all(not isinstance(grid[r][c], int) or view(h, w, shaded, r, c) == grid[r][c]
                    for r, c in cave))


cave_brute = free_brute(cave_ok)


def cave_board(rng, h, w):
    shaded = {x for x in cells_of([[0] * w] * h) if rng.random() < 0.35}
    return numbers_off(rng, h, w, shaded, 0.4, h + w - 1,
                       lambda r, c: view(h, w, shaded, r, c))


@pytest.mark.slow
def test_cave_against_brute_force():
    rng = random.Random(31)
    run_genre("cave", [cave_board(rng, h, w) for h, w in sizes_of(rng, 40)], cave_brute)


def cave_wall(rows):
    """The loop around the cave of a printed answer, as cell sides (pairs of
    dots): each side between a cave cell and a shaded cell or the edge."""
    h, w = len(rows), len(tokens(rows[0]))
    cave = {(r, c) for r, row in enumerate(rows) for c, t in enumerate(tokens(row)) if t != "#"}
    sides = []
    for r, c in sorted(cave):
        for (dr, dc), side in (((-1, 0), ((r, c), (r, c + 1))),
                               ((1, 0), ((r + 1, c), (r + 1, c + 1))),
                               ((0, -1), ((r, c), (r + 1, c))),
                               ((0, 1), ((r, c + 1), (r + 1, c + 1)))):
            if (r + dr, c + dc) not in cave:
                sides.append(side)
    return sides


def test_cave_answers_pass_pzprjs_as_bag(tmp_path, examples):
    """The npm package has Cave only as its older form, BAG, answered by the
    loop around the cave: pzc's answers, from the URLs pzc writes, drawn as
    that loop pass pzprjs's check, and fail with one side of it taken away."""
    pzprjs.need()
    rng = random.Random(32)
    boards = [b for b in (cave_board(rng, h, w) for h, w in sizes_of(rng, 30, 3, 4))
              if len(cave_brute(b)) == 1][:6]
    path = tmp_path / "boards.txt"
    path.write_text((examples / "cave" / "six.txt").read_text() + "".join(map(board_text, boards)))
    urls = run_cli("convert", "cave", path, "--format", "url").stdout.split()
    jobs = []
    for url, res in zip(urls, run_json("solve", *urls)):
        assert res["status"] == "solved" and res["spec"] == "cave", res
        ops = [pzprjs.side(d, e, "setLineVal", 1) for d, e in cave_wall(res["grid"])]
        jobs += [{"open": url, "ops": ops}, {"open": url, "ops": ops[1:]}]
    verdicts = pzprjs.check(jobs)
    assert len(jobs) == 2 * (len(boards) + 1) and all("error" not in v for v in verdicts)
    assert [v["complete"] for v in verdicts] == [True, False] * (len(boards) + 1), verdicts


# ---------------------------------------------------------------- Kurochute

def shots(h, w, r, c, n):
    """The cells n steps from (r, c) up, down, left and right, on the board."""
    return [(r + n * dr, c + n * dc) for dr, dc in DIRS
            if 0 <= r + n * dr < h and 0 <= c + n * dc < w]


def kurochute_ok(grid, shaded):
    h, w = len(grid), len(grid[0])
    return (bool(shaded) and apart(shaded, h, w)
            and connected(set(cells_of(grid)) - shaded, h, w)
            and all(not isinstance(grid[r][c], int)
                    or sum(x in shaded for x in shots(h, w, r, c, grid[r][c])) == 1
                    for r, c in cells_of(grid)))


kurochute_brute = free_brute(kurochute_ok)


def kurochute_board(rng, h, w):
    """Clues that see a shaded cell at their distance, on a random shading
    whose shaded cells are apart."""
    shaded = set()
    for x in rng.sample(cells_of([[0] * w] * h), h * w):
        if rng.random() < 0.35 and not any(y in shaded for y in neighbours(h, w, *x)):
            shaded.add(x)
    top = max(h, w) - 1

    def distance(r, c):
        hits = [n for n in range(1, top + 1) if any(x in shaded for x in shots(h, w, r, c, n))]
        return rng.choice(hits) if hits else 1
    return numbers_off(rng, h, w, shaded, 0.4, top, distance)


@pytest.mark.slow
def test_kurochute_against_brute_force():
    rng = random.Random(33)
    boards = [kurochute_board(rng, h, w) for h, w in sizes_of(rng, 40)]
    run_genre("kurochute", boards, kurochute_brute)


# ---------------------------------------------------------------- Paint Area

def shaded_around(h, w, shaded, r, c):
    return sum(x in shaded for x in neighbours(h, w, r, c))


def paintarea_ok(board, shaded):
    clues, ids = board
    h, w = len(ids), len(ids[0])
    return (connected(shaded, h, w) and no_pool(shaded, h, w)
            and no_pool(set(cells_of(ids)) - shaded, h, w)
            and all(not isinstance(clues[r][c], int) or shaded_around(h, w, shaded, r, c)
                    == clues[r][c] for r, c in cells_of(ids)))


def paintarea_brute(board):
    """Every choice of whole regions to shade."""
    rooms = region_lists(board[1])
    return {picture(board[0], s) for chosen in shadings(range(len(rooms)))
            for s in [{x for i in chosen for x in rooms[i]}] if paintarea_ok(board, s)}


def paintarea_board(rng, h, w):
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(2, 3)))
    shaded = {x for g in region_lists(ids) if rng.random() < 0.5 for x in g}
    clues = numbers_off(rng, h, w, set(), 0.35, 4,
                        lambda r, c: shaded_around(h, w, shaded, r, c))
    return clues, ids


@pytest.mark.slow
def test_paintarea_against_brute_force():
    rng = random.Random(35)
    boards = [paintarea_board(rng, h, w) for h, w in sizes_of(rng, 40, 2, 5)]
    run_genre("paintarea", boards, paintarea_brute, text=layered_text)


# ---------------------------------------------------------------- Chocona

def rectangles(shaded, h, w):
    """Every group of shaded cells fills the box around it."""
    return all(len(g) == (max(r for r, _ in g) - min(r for r, _ in g) + 1)
               * (max(c for _, c in g) - min(c for _, c in g) + 1)
               for g in blocks(shaded, h, w).values())


def chocona_ok(board, shaded):
    h, w = len(board[1]), len(board[1][0])
    return bool(shaded) and region_numbers_hold(board, shaded) and rectangles(shaded, h, w)


chocona_brute = layered_brute(chocona_ok)


def chocona_board(rng, h, w):
    """Region numbers off random rectangles placed apart."""
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(1, 3)))
    shaded = set()
    for _ in range(rng.randint(1, 3)):
        r, c = rng.randrange(h), rng.randrange(w)
        box = {(y, x) for y in range(r, min(h, r + rng.randint(1, 2)))
               for x in range(c, min(w, c + rng.randint(1, 3)))}
        if not any(y in shaded for x in box for y in neighbours(h, w, *x) + [x]):
            shaded |= box
    return clue_layer(rng, ids, shaded, 1.0), ids


@pytest.mark.slow
def test_chocona_against_brute_force():
    rng = random.Random(36)
    run_genre("chocona", [chocona_board(rng, h, w) for h, w in sizes_of(rng, 30)],
              chocona_brute, text=layered_text)


# ---------------------------------------------------------------- Usoone

def usoone_ok(board, shaded):
    clues, ids = board
    h, w = len(ids), len(ids[0])

    def lies(r, c):
        return isinstance(clues[r][c], int) and shaded_around(h, w, shaded, r, c) != clues[r][c]
    return (not any(clued(clues, *x) for x in shaded) and apart(shaded, h, w)
            and all(sum(lies(r, c) for r, c in g) == 1 for g in region_lists(ids))
            and connected(set(cells_of(ids)) - shaded, h, w))


def usoone_brute(board):
    clues, ids = board
    free = [x for x in cells_of(ids) if not clued(clues, *x)]
    return {picture(clues, s) for s in shadings(free) if usoone_ok(board, s)}


def usoone_board(rng, h, w):
    """Numbers off a random shading with its cells apart, in regions of two
    to four cells; in each region one number (now and then none, or two) lies."""
    ids = random_regions(rng, h, w, max(1, h * w // rng.randint(2, 4)))
    shaded = set()
    for x in rng.sample(cells_of(ids), h * w):
        if rng.random() < 0.35 and not any(y in shaded for y in neighbours(h, w, *x)):
            shaded.add(x)
    clues = numbers_off(rng, h, w, shaded, 0.6, 4,
                        lambda r, c: shaded_around(h, w, shaded, r, c))
    for g in region_lists(ids):
        numbered = [(r, c) for r, c in g if isinstance(clues[r][c], int)]
        for r, c in rng.sample(numbered, min(len(numbered), rng.choice([0, 1, 1, 1, 2]))):
            clues[r][c] = (clues[r][c] + rng.randint(1, 4)) % 5
    return clues, ids


@pytest.mark.slow
def test_usoone_against_brute_force():
    rng = random.Random(37)
    run_genre("usoone", [usoone_board(rng, h, w) for h, w in sizes_of(rng, 40)],
              usoone_brute, text=layered_text)


# ---------------------------------------------------------------- every genre

GENRES = ["mines", "canal", "aqre", "nurimisaki", "cave", "kurochute", "paintarea", "chocona", "usoone"]
# the boards and brute force of each genre that pzprjs judges
BOARDS = {"kurochute": (kurochute_board, kurochute_brute),
          "paintarea": (paintarea_board, paintarea_brute),
          "usoone": (usoone_board, usoone_brute)}
TEXTS = {"paintarea": layered_text, "usoone": layered_text}


def shading_ops(rows):
    return [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(rows)
            for c, t in enumerate(tokens(row)) if t == "#"]


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_answers_pass_pzprjs(name, tmp_path, examples):
    """The example and small boards with one answer, written as URLs by pzc:
    pzc's answers, put on the board pzprjs opens from each URL, pass its
    check, and fail with one shaded cell taken away."""
    pzprjs.need()
    rng = random.Random(34)
    make, brute = BOARDS[name]
    boards = [b for b in (make(rng, h, w) for h, w in sizes_of(rng, 40, 3, 4))
              if len(brute(b)) == 1][:6]
    path = tmp_path / "boards.txt"
    text = TEXTS.get(name, board_text)
    path.write_text("".join((examples / name / f).read_text() + "\n"
                            for f in sorted(p.name for p in (examples / name).glob("*.txt")))
                    + "".join(map(text, boards)))
    urls = run_cli("convert", name, path, "--format", "url").stdout.split()
    assert len(urls) == len(boards) + len(list((examples / name).glob("*.txt")))
    jobs = []
    for url, res in zip(urls, run_json("solve", *urls)):
        assert res["status"] == "solved" and res["spec"] == name, res
        ops = shading_ops(res["grid"])
        jobs += [{"open": url, "ops": ops}, {"open": url, "ops": ops[1:]}]
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == [True, False] * (len(jobs) // 2), verdicts


@pytest.mark.parametrize("name", GENRES)
def test_example_is_unique(name, run_pzc):
    examples_unique(run_pzc, name)


def content(inst, params=True):
    """What an instance holds: its size, clues, layers (regions as the same
    division whatever the ids) and, unless left out, its parameters."""
    layers = {k: dict(v) for k, v in inst.layers.items()}
    if "regions" in layers:
        number = {}
        layers["regions"] = {c: number.setdefault(v, len(number))
                             for c, v in sorted(layers["regions"].items())}
    g = inst.geometry
    return (g.width, g.height), inst.clues, layers, inst.params if params else None


@pytest.mark.parametrize("name", GENRES)
@pytest.mark.parametrize("form", ["url", "pzprv3"])
def test_example_round_trips_through_puzzlink_forms(name, form, examples, tmp_path):
    """The example written as a URL (a pzprv3 file) reads back as the same
    instance (puzz.link holds no parameter such as Minesweeper's total), and
    written back as text, the same again."""
    spec = api.load_spec(name)
    for path in sorted((examples / name).glob("*.txt")):
        for inst in api.load_instances(spec, str(path)):
            written = api.write_instance(spec, inst, form)
            if form == "url":
                assert written.startswith(f"https://puzz.link/p?{name}/")
            source = tmp_path / "written.txt"
            source.write_text(written + "\n")
            back, = api.load_instances(spec, str(source))
            assert content(back, params=False) == content(inst, params=False), written
            source.write_text(api.write_instance(spec, back, "text"))
            again, = api.load_instances(spec, str(source))
            assert content(again) == content(back)


@pytest.mark.parametrize("name,aliases", [("mines", []), ("canal", []), ("aqre", []),
                                          ("nurimisaki", []), ("cave", ["bag"]), ("kurochute", []),
                                          ("paintarea", []), ("chocona", []),
                                          ("usoone", [])])
def test_puzzlink_type_names_pick_the_genre(name, aliases):
    assert all(api.builtin_for_type(t) == name for t in [name] + aliases)


@pytest.mark.parametrize("args,where,message", [
    (("mines", "bad.txt"), "bad.txt:2:3:", "'9' is not allowed in a mines instance"),
    (("https://puzz.link/p?aqre/b/2/2/0",), "p?aqre/b/2/2/0:1:26:",
     "this URL's flag 'b' asks for a variant of the rules"),
    (("https://puzz.link/p?canal/3/2/2i",), "p?canal/3/2/2i:1:33:",
     "the body ends after 4 of 6 cells"),
])
def test_bad_instances_are_located_errors(args, where, message, run_pzc, write):
    write("bad.txt", "3 2\n- 9 -\n- - -\n")
    res = run_pzc("solve", *args)
    assert res.returncode == 2 and where in res.stderr and message in res.stderr, res.stderr
    assert "Traceback" not in res.stderr
