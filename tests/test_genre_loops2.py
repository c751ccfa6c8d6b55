"""Issue 27's loop and line genres against brute forces written here:
Geradeweg, Simple Loop, Double Back, Koburin, Yajilin (regions), Castle
Wall, Moon or Sun, Shirokuro and Pipelink.

Each genre's rules are applied in plain Python, as puzz.link checks them, to
every candidate answer of a small board (every loop of tests/loop_tools.py,
or every drawing of lines for the genres that are not one loop), which gives
the exact answers of the board.  Boards are made here from a seeded random
generator: clues read off a random answer (several answers, one, or none
when a clue is then made wrong).  pzc's `count --show` must list the same
answers, `solve` one of them and `unique` agree.  Every board also goes to a
puzz.link URL and a pzprv3 file and back to the same instance; where the npm
package pzpr has the genre, pzprjs's own checker accepts pzc's answers.
"""

from __future__ import annotations

import json
import random

import pytest

import pzprjs
import shaded as shaded_tools
from conftest import EXAMPLES, run_cli
from genre_tools import check_against_brute, run_json, tokens, write_instances
from loading import spec
from loop_tools import (DOWN, LEFT, RIGHT, UP, Genre, add, all_loops, cells_of, directions, draw,
                        rejects, rooms_apart, same_instance)
from pzc import api

MOST = 30          # boards with more answers than this are not kept (counting is slow)

# a cell's line by the sides it leaves from: pzc's characters, ends and crossings too
SIDES = {"─": (LEFT, RIGHT), "│": (UP, DOWN), "┌": (DOWN, RIGHT), "┐": (DOWN, LEFT),
         "└": (UP, RIGHT), "┘": (UP, LEFT), "┼": (UP, DOWN, LEFT, RIGHT),
         "╴": (LEFT,), "╵": (UP,), "╶": (RIGHT,), "╷": (DOWN,)}


def run(dirs, cell, d):
    """How many steps a line runs straight from ``cell`` in direction ``d``."""
    n = 0
    while d in dirs.get(cell, ()):
        cell, n = add(cell, d), n + 1
    return n


# ------------------------------------------------------------------ Geradeweg

def geradeweg_ok(board, loop) -> bool:
    """Every number on the loop; its horizontal and vertical stretches each
    that long, or absent; '?' and 0: a turn's two stretches equally long."""
    dirs = directions(loop)
    for r, c in cells_of(board):
        t = board[r][c]
        if t == "-":
            continue
        if (r, c) not in dirs:
            return False
        across = run(dirs, (r, c), LEFT) + run(dirs, (r, c), RIGHT)
        along = run(dirs, (r, c), UP) + run(dirs, (r, c), DOWN)
        if t in ("?", "0"):
            if across and along and across != along:
                return False
        elif {across, along} - {0, int(t)}:
            return False
    return True


def geradeweg_answers(board):
    h, w = len(board), len(board[0])
    return [draw(h, w, loop) for loop in [frozenset()] + all_loops(h, w)
            if geradeweg_ok(board, loop)]


def geradeweg_boards(rng, h, w, n):
    """Numbers read off a random loop where it allows one, a random few kept;
    now and then one made '?' or one more than the loop gives."""
    loops = all_loops(h, w)
    boards = []
    while len(boards) < n:
        dirs = directions(rng.choice(loops))
        cand = []
        for cell in dirs:
            across = run(dirs, cell, LEFT) + run(dirs, cell, RIGHT)
            along = run(dirs, cell, UP) + run(dirs, cell, DOWN)
            if not (across and along) or across == along:
                cand.append((cell, max(across, along)))
        rng.shuffle(cand)
        board = [["-"] * w for _ in range(h)]
        for (r, c), k in cand[:rng.randint(1, 4)]:
            board[r][c] = str(k)
        r, c = cand[0][0]
        if rng.random() < 0.2:
            board[r][c] = "?"
        elif rng.random() < 0.2:
            board[r][c] = str(int(board[r][c]) + 1)
        if len(geradeweg_answers(board)) <= MOST:
            boards.append(board)
    return boards


def test_geradeweg_errors(tmp_path):
    rejects("geradeweg", tmp_path, "3 2\n- 9 -\n- - -\n", "2:3", "'9' is not allowed")


def test_geradeweg_generates_puzzles_the_brute_force_finds_unique():
    out = run_cli("generate", "geradeweg", "--size", "4", "--count", "3", "--seed", "2",
                  "--format", "json")
    assert out.returncode == 0, out.stderr
    for g in map(json.loads, out.stdout.splitlines()):
        board = [row.split() for row in g["instance"].strip().split("\n")[1:]]
        assert geradeweg_answers(board) == [[list(row) for row in g["solution"]]], g


# ------------------------------------------------------------------ Simple Loop

def simpleloop_answers(board):
    """The loops (or none) through exactly the cells that are not 'x'."""
    h, w = len(board), len(board[0])
    open_cells = {(r, c) for r, c in cells_of(board) if board[r][c] != "x"}
    return [draw(h, w, loop) for loop in [frozenset()] + all_loops(h, w)
            if {x for e in loop for x in e} == open_cells]


def simpleloop_boards(rng, h, w, n):
    """The cells off a random loop blocked; now and then one of them opened
    (often no answer then) or one more blocked; or a few cells blocked at
    random (several answers, or none)."""
    boards = []
    while len(boards) < n:
        on = {x for e in rng.choice(all_loops(h, w)) for x in e}
        if rng.random() < 0.3:
            on = set(cells_of([[0] * w] * h)) - set(rng.sample(sorted(on), rng.randint(0, 1)))
        board = [["-" if (r, c) in on else "x" for c in range(w)] for r in range(h)]
        r, c = rng.choice(cells_of(board))
        if rng.random() < 0.3:
            board[r][c] = "-" if board[r][c] == "x" else "x"
        if len(simpleloop_answers(board)) <= MOST:
            boards.append(board)
    return boards


def test_simpleloop_errors(tmp_path):
    rejects("simpleloop", tmp_path, "3 2\n- o -\n- - -\n", "2:3", "'o' is not allowed")
    file = tmp_path / "bad.pzprv3"             # pzprjs's '*' marks an empty cell
    file.write_text("pzprv3\nsimpleloop\n2\n2\n* o \n. . \n")
    out = run_cli("solve", file)
    assert out.returncode == 2
    assert "bad.pzprv3:5:1: error: the empty cells: 'o' is not '*' (empty) or '.'" in out.stderr


# ------------------------------------------------------------------ Koburin

def koburin_answers(board):
    """Every loop (or none) off the numbered cells such that the other cells
    off it, the shaded ones, are never side by side and each number counts
    the shaded cells beside it."""
    h, w = len(board), len(board[0])
    clue = {(r, c): board[r][c] for r, c in cells_of(board) if board[r][c] != "-"}
    out = []
    for loop in [frozenset()] + all_loops(h, w):
        on = {x for e in loop for x in e}
        if on & set(clue):
            continue
        shaded = set(cells_of(board)) - on - set(clue)
        if any(add(x, d) in shaded for x in shaded for d in (DOWN, RIGHT)):
            continue
        if all(t == "?" or int(t) == sum(add(x, d) in shaded for d in (UP, DOWN, LEFT, RIGHT))
               for x, t in clue.items()):
            out.append(draw(h, w, loop, lambda x: clue.get(x) or ("#" if x in shaded else None)))
    return out


def koburin_boards(rng, h, w, n):
    """The cells off a random loop shaded where they may be, numbered
    otherwise (now and then '?' or a wrong count); a few numbers dropped."""
    boards = []
    while len(boards) < n:
        on = {x for e in rng.choice(all_loops(h, w)) for x in e}
        off = [x for x in cells_of([[0] * w] * h) if x not in on]
        rng.shuffle(off)
        shaded = set()
        for x in off:
            if rng.random() < 0.6 and not any(add(x, d) in shaded for d in (UP, DOWN, LEFT, RIGHT)):
                shaded.add(x)
        board = [["-"] * w for _ in range(h)]
        for r, c in off:
            if (r, c) not in shaded:
                board[r][c] = str(sum(add((r, c), d) in shaded for d in (UP, DOWN, LEFT, RIGHT)))
                if rng.random() < 0.1:
                    board[r][c] = "?"
                elif rng.random() < 0.1:
                    board[r][c] = str((int(board[r][c]) + 1) % 5)
        if len(koburin_answers(board)) <= MOST:
            boards.append(board)
    return boards


def test_koburin_variants_are_refused(tmp_path):
    """puzz.link's options 'o' (shaded cells outside the loop) and 'm'
    (numbers count the eight cells around) change the rules."""
    for flag in ("o", "m"):
        out = run_cli("solve", f"https://puzz.link/p?koburin/{flag}/3/3/0j")
        assert out.returncode == 2 and f"this URL's flag '{flag}' asks for a variant" in out.stderr
        file = tmp_path / "variant.pzprv3"
        file.write_text(f"pzprv3\nkoburin\n2\n2\n{flag}\n0 . \n. . \n")
        out = run_cli("solve", file)
        assert out.returncode == 2 and "asks for a variant of the rules" in out.stderr, out.stderr


# ------------------------------------------------------------------ Yajilin (regions)

def regions_of(ids):
    """Region id -> its cells, in reading order."""
    out = {}
    for r, c in cells_of(ids):
        out.setdefault(ids[r][c], []).append((r, c))
    return out


def yajilin_regions_answers(board):
    """Every loop (or none) such that the cells off it, the shaded ones, are
    never side by side and each region's number counts its shaded cells."""
    clues, ids = board
    h, w = len(ids), len(ids[0])
    rooms = regions_of(ids)
    out = []
    for loop in [frozenset()] + all_loops(h, w):
        shaded = set(cells_of(ids)) - {x for e in loop for x in e}
        if any(add(x, d) in shaded for x in shaded for d in (DOWN, RIGHT)):
            continue
        if all(clues[r][c] in "-?" or int(clues[r][c]) == len(shaded & set(rooms[ids[r][c]]))
               for r, c in cells_of(ids)):
            out.append(draw(h, w, loop, lambda x: "#" if x in shaded else None))
    return out


def yajilin_regions_boards(rng, h, w, n):
    """Random regions and a random loop whose cells off it are apart; some
    regions numbered (at puzz.link's top cell: leftmost column, topmost
    there) with their shaded cells, now and then '?' or a wrong count."""
    boards = []
    while len(boards) < n:
        on = {x for e in rng.choice(all_loops(h, w)) for x in e}
        shaded = set(cells_of([[0] * w] * h)) - on
        if any(add(x, d) in shaded for x in shaded for d in (DOWN, RIGHT)):
            continue
        ids = shaded_tools.random_regions(rng, h, w, rng.randint(h * w // 4, h * w))
        clues = [["-"] * w for _ in range(h)]
        every = rng.random() < 0.5
        for room in regions_of(ids).values():
            r, c = min(room, key=lambda x: (x[1], x[0]))
            if every or rng.random() < 0.7:
                clues[r][c] = str(len(shaded & set(room)))
        if rng.random() < 0.1:
            clues[r][c] = "?"
        elif rng.random() < 0.3:
            clues[r][c] = str(len(shaded & set(room)) + 1)
        if len(yajilin_regions_answers((clues, ids))) <= MOST:
            boards.append((clues, ids))
    return boards


def test_yajilin_regions_is_named_by_puzzlinks_type():
    """puzz.link's type name has a hyphen, which a spec's name cannot: the
    spec is yajilin_regions, and yajilin-regions names it (a URL picks it)."""
    url = api.write_instance(spec("yajilin_regions"), api.load_instances(
        spec("yajilin_regions"), str(EXAMPLES / "yajilin_regions" / "small.txt"))[0], "url")
    assert url.startswith("https://puzz.link/p?yajilin-regions/5/5/")
    by_url, = run_json("solve", url)
    by_alias, = run_json("solve", "yajilin-regions", url)
    assert by_url["spec"] == by_alias["spec"] == "yajilin_regions"
    assert by_url["grid"] == by_alias["grid"] and by_url["verified"]


# ------------------------------------------------------------------ Double Back

def enters_twice(room, loop) -> bool:
    crossings = {}
    for a, b in loop:
        if room[a] != room[b]:
            crossings[room[a]] = crossings.get(room[a], 0) + 1
            crossings[room[b]] = crossings.get(room[b], 0) + 1
    return all(crossings.get(r, 0) == 4 for r in set(room.values()))


def doubleback_answers(ids):
    """The loops (or none) through exactly the cells that are not holes,
    crossing into and out of every region twice."""
    h, w = len(ids), len(ids[0])
    room = rooms_apart(ids)
    return [draw(h, w, loop) for loop in [frozenset()] + all_loops(h, w)
            if {x for e in loop for x in e} == set(room) and enters_twice(room, loop)]


def doubleback_boards(rng, h, w, n):
    """Random regions and up to two holes, drawn until about a third of the
    boards have no answer, a third one and a third several (most have none)."""
    boards, kinds = [], {0: 0, 1: 0, 2: 0}
    while len(boards) < n:
        ids = shaded_tools.random_regions(rng, h, w, rng.randint(2, h * w // 3))
        for r, c in rng.sample(cells_of(ids), rng.randint(0, 2)):
            ids[r][c] = "x"
        found = len(doubleback_answers(ids))
        if kinds[min(found, 2)] < -(-n // 3) and found <= MOST:
            kinds[min(found, 2)] += 1
            boards.append(ids)
    return boards


# ------------------------------------------------------------------ Moon or Sun

def cycle(loop):
    """The cells of a loop in the order it visits them."""
    dirs = directions(loop)
    order = [min(dirs)]
    while len(order) < len(dirs):
        order.append(next(y for y in (add(order[-1], d) for d in dirs[order[-1]])
                          if y not in order[-2:]))
    return order


def moonsun_ok(board, loop) -> bool:
    """puzz.link's checks: every region entered once (at most two links
    cross its border) and passed; in each, the loop passes no moon or no
    sun, all moons or none, all suns or none, and some mark; two regions in
    a row along the loop do not both pass moons, nor both suns."""
    marks, ids = board
    room = {x: ids[x[0]][x[1]] for x in cells_of(ids)}
    on = {x for e in loop for x in e}
    crossings = {}
    for a, b in loop:
        if room[a] != room[b]:
            for g in (room[a], room[b]):
                crossings[g] = crossings.get(g, 0) + 1
    passed = {}
    for x, g in room.items():
        t = marks[x[0]][x[1]]
        if t != "-":
            passed.setdefault(g, {"s": [], "m": []})[t].append(x in on)
    for g in set(room.values()):
        kinds = passed.get(g, {"s": [], "m": []})
        moons, suns = any(kinds["m"]), any(kinds["s"])
        if crossings.get(g, 0) > 2 or moons == suns or not all(kinds["m"] if moons else
                                                                 kinds["s"]):
            return False
    return not any(room[a] != room[b] and any(passed[room[a]]["m"]) == any(passed[room[b]]["m"])
                   for a, b in loop)


def moonsun_answers(board):
    marks, ids = board
    h, w = len(ids), len(ids[0])
    return [draw(h, w, loop, lambda x: marks[x[0]][x[1]] if marks[x[0]][x[1]] != "-"
                 and x not in {y for e in loop for y in e} else None)
            for loop in all_loops(h, w) if moonsun_ok(board, loop)]


def loop_regions(rng, order, cells, k):
    """Regions around a loop: the loop (cells in order) cut into ``k`` arcs,
    each a region, grown over the cells off the loop; region id -> cells."""
    cuts = sorted(rng.sample(range(len(order)), k))
    owner = {}
    for i in range(k):
        end = cuts[i + 1] if i + 1 < k else cuts[0] + len(order)
        for j in range(cuts[i], end):
            owner[order[j % len(order)]] = i
    while len(owner) < len(cells):
        x = rng.choice([x for x in cells if x not in owner and any(
            add(x, d) in owner for d in (UP, DOWN, LEFT, RIGHT))])
        owner[x] = rng.choice([owner[y] for y in (add(x, d) for d in (UP, DOWN, LEFT, RIGHT))
                               if y in owner])
    return owner


def moonsun_boards(rng, h, w, n):
    """Regions cut along a random loop (an even number of arcs, moons and
    suns in turn: a few marks of a region's kind on its arc, now and then one
    of the other kind off it); now and then a mark moved; about a third of
    the boards with no answer, one and several."""
    cells = cells_of([[0] * w] * h)
    boards, kinds = [], {0: 0, 1: 0, 2: 0}
    while len(boards) < n:
        order = cycle(rng.choice(all_loops(h, w)))
        k = 2 * rng.randint(1, len(order) // 4)
        owner = loop_regions(rng, order, cells, k)
        marks = [["-"] * w for _ in range(h)]
        for g in range(k):
            kind = "ms"[g % 2]
            arc = [x for x in order if owner[x] == g]
            for r, c in rng.sample(arc, rng.randint(1, len(arc))):
                marks[r][c] = kind
            rest = [x for x in cells if owner[x] == g and x not in arc]
            if rest and rng.random() < 0.5:
                r, c = rng.choice(rest)
                marks[r][c] = "sm"[g % 2]
        if rng.random() < 0.2:
            (r, c), (y, x) = rng.sample(cells, 2)
            marks[r][c], marks[y][x] = marks[y][x], marks[r][c]
        board = (marks, [["abcdefgh"[owner[r, c]] for c in range(w)] for r in range(h)])
        found = len(moonsun_answers(board))
        if kinds[min(found, 2)] < -(-n // 3) and found <= MOST:
            kinds[min(found, 2)] += 1
            boards.append(board)
    return boards


# ------------------------------------------------------------------ Shirokuro

def shirokuro_answers(board):
    """Every way to pair the circles by straight lines through empty cells,
    lines not crossing, never two of one colour ('?' goes with either): each
    circle's line runs to the first circle it meets."""
    h, w = len(board), len(board[0])
    circles = [x for x in cells_of(board) if board[x[0]][x[1]] != "-"]
    out = []

    def pair(left, used, sides):
        if not left:
            if sides:          # puzz.link: a board with no line at all is no answer
                out.append([[LINE_CHAR[frozenset(sides.get((r, c), ()))] for c in range(w)]
                            for r in range(h)])
            return
        a = left[0]
        for d in (UP, DOWN, LEFT, RIGHT):
            path, x = [], add(a, d)
            while 0 <= x[0] < h and 0 <= x[1] < w and board[x[0]][x[1]] == "-":
                path.append(x)
                x = add(x, d)
            if x not in left[1:] or used & set(path) or \
                    {board[a[0]][a[1]], board[x[0]][x[1]]} in ({"w"}, {"b"}):
                continue
            back = (-d[0], -d[1])
            more = {a: {d}, x: {back}, **{y: {d, back} for y in path}}
            pair([y for y in left[1:] if y != x], used | set(path), {**sides, **more})
    pair(circles, set(), {})
    return out


LINE_CHAR = {frozenset(): ".", **{frozenset(ds): t for t, ds in SIDES.items()}}


def shirokuro_boards(rng, h, w, n):
    """Lines drawn at random (each between two free cells of a row or a
    column, over free cells), their ends circles of two colours; now and
    then a stray circle, a '?' or a colour changed; about a third of the
    boards with no answer, one and several."""
    boards, kinds = [], {0: 0, 1: 0, 2: 0}
    while len(boards) < n:
        board = [["-"] * w for _ in range(h)]
        used = set()
        for _ in range(rng.randint(1, h * w // 3)):
            a = rng.choice(cells_of(board))
            d = rng.choice((DOWN, RIGHT))
            line = [a, add(a, d)]
            while rng.random() < 0.5 and add(line[-1], d) in set(cells_of(board)):
                line.append(add(line[-1], d))
            if line[-1] in set(cells_of(board)) and not used & set(line):
                used |= set(line)
                ends = rng.sample("wb", 2)
                board[a[0]][a[1]], board[line[-1][0]][line[-1][1]] = ends
        for _ in range(rng.randint(0, 2)):
            r, c = rng.choice(cells_of(board))
            board[r][c] = rng.choice("wb?" if board[r][c] == "-" else "wb")
        found = len(shirokuro_answers(board))
        if kinds[min(found, 2)] < -(-n // 3) and found <= MOST:
            kinds[min(found, 2)] += 1
            boards.append(board)
    return boards


# ------------------------------------------------------------------ every genre

GENRES = {"geradeweg": Genre(geradeweg_boards, geradeweg_answers),
          "simpleloop": Genre(simpleloop_boards, simpleloop_answers),
          "koburin": Genre(koburin_boards, koburin_answers),
          "yajilin_regions": Genre(yajilin_regions_boards, yajilin_regions_answers, list, (1,)),
          "doubleback": Genre(doubleback_boards, doubleback_answers, regions=(0,)),
          "moonsun": Genre(moonsun_boards, moonsun_answers, list, (1,)),
          # a URL has no grey circle (decodeCircle), a pzprv3 file has ('-')
          "shirokuro": Genre(shirokuro_boards, shirokuro_answers,
                             in_urls=lambda inst: "?" not in inst.clues.values())}


@pytest.mark.parametrize("genre", sorted(GENRES))
@pytest.mark.parametrize("h, w, seed", [(3, 4, 1), (4, 4, 2),
                                        pytest.param(4, 5, 3, marks=pytest.mark.slow)])
def test_against_brute_force_and_back_from_urls_and_files(tmp_path, genre, h, w, seed):
    g = GENRES[genre]
    boards = g.boards(random.Random(seed), h, w, 16)
    counts = check_against_brute(tmp_path, genre, boards, g.answers, layers=g.layers)
    assert 0 in counts and 1 in counts and any(k > 1 for k in counts), counts
    same_instance(genre, write_instances(tmp_path, boards, g.layers), tmp_path, g.regions,
                  g.in_urls)


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_examples_are_unique(genre):
    for path in sorted((EXAMPLES / genre).iterdir()):
        uniq = run_json("unique", genre, str(path))
        assert [u["unique"] for u in uniq] == [True], (path, uniq)


# ------------------------------------------------------------------ pzprjs

def line_ops(grid) -> list:
    """pzc's answer as steps on pzprjs's board: a line on each link."""
    return [pzprjs.border((r, c), add((r, c), d), "setLineVal", 1)
            for r, row in enumerate(grid) for c, t in enumerate(tokens(row))
            for d in SIDES.get(t, ()) if d in (RIGHT, DOWN)]


NPM = ["moonsun", "shirokuro"]          # the genres here that the npm package pzpr has


@pytest.mark.parametrize("genre", NPM)
def test_pzprjs_accepts_the_answers_and_refuses_them_broken(tmp_path, genre):
    """Boards made here, written as pzprv3 files (they hold Shirokuro's grey
    circles, which URLs cannot), solved from the files; pzprjs opens each
    file, takes pzc's answer and finds it complete, and refuses it with one
    link taken away."""
    pzprjs.need()
    g = GENRES[genre]
    s = spec(genre)
    boards = [b for b in g.boards(random.Random(7), 4, 4, 12) if g.answers(b)]
    files = []
    for k, inst in enumerate(api.load_instances(s, write_instances(tmp_path, boards, g.layers))):
        files.append(tmp_path / f"{k}.pzprv3")
        files[-1].write_text(api.write_instance(s, inst, "pzprv3"))
    jobs = []
    for file, r in zip(files, run_json("solve", *files)):
        assert r["status"] == "solved" and r["spec"] == genre, r
        ops = line_ops(r["grid"])
        jobs += [{"open": file.read_text(), "ops": ops}, {"open": file.read_text(), "ops": ops[1:]}]
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == [True, False] * len(files), verdicts
