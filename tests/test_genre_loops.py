"""The loop genres (Masyu, Yajilin, Country Road) against a brute force written here.

Every loop through cell centres on a small board is the boundary of the set
of unit squares it encloses (the squares whose corners are four cell
centres), so trying every set of squares and keeping those whose boundary is
one simple loop lists every loop exactly once.  The rules of each genre are
then applied to each loop in plain Python, as puzz.link states them, which
gives the exact number of answers of a board.  Boards are made here from a
seeded random generator: clues read off a random loop (several, one or no
answers) and a few stray clues (often none).  pzc's `count` must give the
same numbers, every board `solve` prints must be one of the brute force's
answers, and `unique` must agree.
"""

from __future__ import annotations

import functools
import random

import pytest

import pzprjs
from conftest import EXAMPLES, run_cli
from genre_tools import check_against_brute, run_json, tokens, write_instances
from loop_tools import BOX, DOWN, LEFT, RIGHT, UP, add, all_loops, directions, draw, straight

MOST = 30          # boards with more answers than this are not kept (counting is slow)


def layers_of(spec, board):
    """A board as the grids of its instance: Yajilin's clues such as "2d" go
    in two grids, the numbers ('?' stays) and the arrows."""
    if spec == "countryroad":
        return list(board)
    if spec != "yajilin":
        return [board]
    return [[[t[:-1] if len(t) > 1 else t for t in row] for row in board],
            [[t[-1] if len(t) > 1 else "-" for t in row] for row in board]]


# ------------------------------------------------------------------ Masyu

def masyu_ok(board, loop) -> bool:
    """puzz.link's Masyu checks on one loop: every pearl on the loop; white:
    straight, and a turn in a cell next to it on the loop; black: a turn,
    and straight in both cells next to it on the loop."""
    dirs = directions(loop)
    for r, row in enumerate(board):
        for c, t in enumerate(row):
            if t == "-":
                continue
            ds = dirs.get((r, c))
            if not ds:
                return False
            nexts = [dirs[add((r, c), d)] for d in ds]
            if t == "w" and not (straight(ds) and any(not straight(n) for n in nexts)):
                return False
            if t == "b" and (straight(ds) or not all(straight(n) for n in nexts)):
                return False
    return True


def masyu_answers(board):
    h, w = len(board), len(board[0])
    return [draw(h, w, loop) for loop in all_loops(h, w) if masyu_ok(board, loop)]


def masyu_boards(rng, h, w, n):
    """Boards with pearls read off a random loop (every pearl the loop
    allows is a candidate; a random few are kept), now and then one stray
    pearl anywhere."""
    loops = all_loops(h, w)
    boards = []
    while len(boards) < n:
        loop = rng.choice(loops)
        dirs = directions(loop)
        cand = []
        for cell, ds in dirs.items():
            nexts = [dirs[add(cell, d)] for d in ds]
            if straight(ds) and any(not straight(x) for x in nexts):
                cand.append((cell, "w"))
            if not straight(ds) and all(straight(x) for x in nexts):
                cand.append((cell, "b"))
        board = [["-"] * w for _ in range(h)]
        rng.shuffle(cand)
        for (r, c), t in cand[:rng.randint(1, h + w - 1)]:
            board[r][c] = t
        if rng.random() < 0.4:          # aim at a unique board: more pearls
            for (r, c), t in cand:
                board[r][c] = t
                if len(masyu_answers(board)) == 1:
                    break
        if rng.random() < 0.3:
            board[rng.randrange(h)][rng.randrange(w)] = rng.choice("wb")
        if len(masyu_answers(board)) <= MOST:
            boards.append(board)
    return boards


def test_masyu_reads_janko_numbers_and_characters(tmp_path):
    """1 and 2 are white and black (janko's variant files); a character grid
    with '.' works too, and prints one character per cell."""
    board = masyu_boards(random.Random(5), 4, 4, 1)[0]
    numeric = [[{"w": "1", "b": "2"}.get(t, t) for t in row] for row in board]
    want = run_json("count", "masyu", write_instances(tmp_path, [board]))[0]["count"]
    assert run_json("count", "masyu", write_instances(tmp_path, [numeric]))[0]["count"] == want
    path = tmp_path / "chars.txt"
    path.write_text("".join("".join(t if t != "-" else "." for t in row) + "\n" for row in board))
    assert run_json("count", "masyu", str(path))[0]["count"] == want


# ------------------------------------------------------------------ Yajilin

ARROWS = {"u": UP, "d": DOWN, "r": RIGHT, "l": LEFT}


def yajilin_answers(board):
    """Every loop (or none) such that the open cells off it are the shaded
    ones: no clue on the loop, shaded cells apart, arrows counting them."""
    h, w = len(board), len(board[0])
    clue = {(r, c): t for r in range(h) for c in range(w) if (t := board[r][c]) != "-"}
    open_cells = {(r, c) for r in range(h) for c in range(w)} - set(clue)
    out = []
    for loop in [frozenset()] + all_loops(h, w):
        on = {x for e in loop for x in e}
        if on & set(clue):
            continue
        shaded = open_cells - on
        if any(add(x, d) in shaded for x in shaded for d in (DOWN, RIGHT)):
            continue
        ok = True
        for cell, t in clue.items():
            if t == "?":
                continue
            d, k, n = ARROWS[t[-1]], cell, 0
            while True:
                k = add(k, d)
                if not (0 <= k[0] < h and 0 <= k[1] < w):
                    break
                n += k in shaded
            ok = ok and n == int(t[:-1])
        if ok:
            out.append(draw(h, w, loop, lambda x: clue.get(x) or ("#" if x in shaded else None)))
    return out


def yajilin_boards(rng, h, w, n):
    """Boards with arrows read off a random loop and shading (one to three
    arrows, each counting truly), now and then one arrow with a wrong count."""
    loops = all_loops(h, w)
    boards = []
    while len(boards) < n:
        loop = rng.choice(loops)
        on = {x for e in loop for x in e}
        rest = [(r, c) for r in range(h) for c in range(w) if (r, c) not in on]
        rng.shuffle(rest)
        shaded, clues = set(), []
        for x in rest:      # each cell off the loop: shaded if it may be, else a clue
            if rng.random() < 0.7 and not any(add(x, d) in shaded for d in ARROWS.values()):
                shaded.add(x)
            else:
                clues.append(x)
        if not clues:
            continue
        board = [["-"] * w for _ in range(h)]
        for x in clues:
            a = rng.choice("udlr")
            k, m = x, 0
            while True:
                k = add(k, ARROWS[a])
                if not (0 <= k[0] < h and 0 <= k[1] < w):
                    break
                m += k in shaded
            if rng.random() < 0.15:
                m += 1
            board[x[0]][x[1]] = "?" if rng.random() < 0.1 else f"{m}{a}"
        if len(yajilin_answers(board)) <= MOST:
            boards.append(board)
    return boards


def test_yajilin_bad_token_is_located(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("3 2\n- x -\n- - -\n\n- r -\n- - -\n")
    run = run_cli("solve", "yajilin", str(path))
    assert run.returncode == 2
    assert "bad.txt:2:3: error: 'x' is not allowed" in run.stderr
    assert "Traceback" not in run.stderr


# ------------------------------------------------------------------ Country Road

def countryroad_loops(board):
    """The loops puzz.link accepts: each region entered once (at most two
    links cross its border) and visited, a number counts the region's cells
    on the loop, and two cells side by side in different regions are not
    both off the loop."""
    clues, ids = board
    h, w = len(ids), len(ids[0])
    region = {(r, c): ids[r][c] for r in range(h) for c in range(w)}
    for loop in all_loops(h, w):
        on = {x for e in loop for x in e}
        crossings = {}
        for a, b in loop:
            if region[a] != region[b]:
                crossings[region[a]] = crossings.get(region[a], 0) + 1
                crossings[region[b]] = crossings.get(region[b], 0) + 1
        if any(n > 2 for n in crossings.values()):
            continue
        if set(region.values()) != {region[x] for x in on}:
            continue
        if any(clues[r][c] not in "-?" and int(clues[r][c]) != sum(
                1 for x in on if region[x] == region[r, c]) for r, c in region):
            continue
        if any(region[x] != region[y] and x not in on and y not in on
               for x in region for y in (add(x, DOWN), add(x, RIGHT)) if y in region):
            continue
        yield loop, on


def countryroad_answers(board):
    clues, ids = board
    return [draw(len(ids), len(ids[0]), loop,
                 lambda x: None if x in on or clues[x[0]][x[1]] == "-" else clues[x[0]][x[1]])
            for loop, on in countryroad_loops(board)]


def countryroad_boards(rng, h, w, n):
    """Regions grown from random seeds; numbers in some regions (or all)
    read off one of the loops that fit the regions, now and then one wrong
    (or a '?')."""
    boards = []
    while len(boards) < n:
        cells = [(r, c) for r in range(h) for c in range(w)]
        seeds = rng.sample(cells, rng.randint(2, 6))
        region = {x: i for i, x in enumerate(seeds)}
        while len(region) < len(cells):
            x = rng.choice([x for x in cells if x not in region
                            and any(add(x, d) in region for d in (UP, DOWN, LEFT, RIGHT))])
            region[x] = region[rng.choice([add(x, d) for d in (UP, DOWN, LEFT, RIGHT)
                                           if add(x, d) in region])]
        ids = [[str(region[r, c]) for c in range(w)] for r in range(h)]
        fits = [on for _, on in countryroad_loops(([["-"] * w for _ in range(h)], ids))]
        if not fits:
            continue
        on = rng.choice(fits)
        clues = [["-"] * w for _ in range(h)]
        every = rng.random() < 0.5
        for i, seed in enumerate(seeds):
            if every or rng.random() < 0.5:
                clues[seed[0]][seed[1]] = str(sum(1 for x in on if region[x] == i))
        if rng.random() < 0.25:
            r, c = rng.choice(seeds)
            clues[r][c] = str(int(clues[r][c]) + 1) if clues[r][c] != "-" else "?"
        board = (clues, ids)
        if len(countryroad_answers(board)) <= MOST:
            boards.append(board)
    return boards


# ------------------------------------------------------------------ every genre

GENRES = {"masyu": (masyu_boards, masyu_answers), "yajilin": (yajilin_boards, yajilin_answers),
          "countryroad": (countryroad_boards, countryroad_answers)}


@pytest.mark.slow
@pytest.mark.parametrize("genre", sorted(GENRES))
@pytest.mark.parametrize("h, w, seed", [(4, 4, 1), (4, 5, 2), (5, 5, 5)])
def test_counts_match_brute_force(tmp_path, genre, h, w, seed):
    make, answers_of = GENRES[genre]
    boards = make(random.Random(seed), h, w, 12)
    counts = check_against_brute(tmp_path, genre, boards, answers_of,
                                 layers=functools.partial(layers_of, genre))
    assert 0 in counts and 1 in counts and any(n > 1 for n in counts), counts


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_example_is_unique(genre):
    uniq = run_json("unique", genre, str(EXAMPLES / genre / "small.txt"))
    assert uniq[0]["unique"], uniq


@pytest.mark.slow
@pytest.mark.parametrize("genre", sorted(GENRES))
def test_eager_connectivity_agrees(tmp_path, genre):
    make, answers_of = GENRES[genre]
    check_against_brute(tmp_path, genre, make(random.Random(4), 4, 5, 8), answers_of,
                        extra=("--connectivity", "eager"),
                        layers=functools.partial(layers_of, genre))


# ------------------------------------------------------------------ pzprjs

def answer_ops(grid) -> list:
    """pzc's answer as steps on pzprjs's board: the loop's links, shaded cells."""
    ops = []
    for r, row in enumerate(grid):
        for c, t in enumerate(tokens(row)):
            ds = BOX.get(t, set())
            if RIGHT in ds:
                ops.append(pzprjs.border((r, c), (r, c + 1), "setLineVal", 1))
            if DOWN in ds:
                ops.append(pzprjs.border((r, c), (r + 1, c), "setLineVal", 1))
            if t == "#":
                ops.append(pzprjs.cell(r, c, "setQans", 1))
    return ops


def test_answers_from_urls_are_accepted_by_pzprjs(tmp_path):
    """Boards made here, written as puzz.link URLs by `pzc convert`, solved
    from the URLs; pzprjs opens each URL, takes pzc's answer and finds it
    complete, and refuses it with one link of the loop taken away."""
    pzprjs.need()
    jobs = []
    for genre, (make, answers_of) in sorted(GENRES.items()):
        boards = [b for b in make(random.Random(7), 4, 5, 8) if answers_of(b)][:4]
        path = write_instances(tmp_path, boards, functools.partial(layers_of, genre))
        urls = run_cli("convert", genre, path).stdout.split()
        assert len(urls) == len(boards) and all(u.startswith("https://puzz.link/p?") for u in urls)
        for url, r in zip(urls, run_json("solve", genre, *urls)):
            assert r["status"] == "solved", r
            ops = answer_ops(r["grid"])
            jobs += [{"open": url, "ops": ops}, {"open": url, "ops": ops[1:]}]
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == [True, False] * (len(jobs) // 2), verdicts
