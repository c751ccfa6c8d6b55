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
from typing import Callable, NamedTuple

import pytest

from conftest import EXAMPLES, run_cli
from genre_tools import check_against_brute, run_json, write_instances
from loading import spec
from loop_tools import DOWN, LEFT, RIGHT, UP, add, all_loops, directions, draw
from pzc import api

MOST = 30          # boards with more answers than this are not kept (counting is slow)


def cells_of(board):
    return [(r, c) for r in range(len(board)) for c in range(len(board[0]))]


def run(dirs, cell, d):
    """How many steps a line runs straight from ``cell`` in direction ``d``."""
    n = 0
    while d in dirs.get(cell, ()):
        cell, n = add(cell, d), n + 1
    return n


def same_instance(genre, path, tmp_path, regions=()):
    """Every instance of ``path`` written as a puzz.link URL and as a pzprv3
    file reads back as the same instance (its text form; the grids numbered
    ``regions`` compared as partitions, since the readers number regions)."""
    s = spec(genre)
    for k, inst in enumerate(api.load_instances(s, path)):
        want = canonical(api.write_instance(s, inst, "text"), regions)
        url = api.write_instance(s, inst, "url")
        assert url.startswith(f"https://puzz.link/p?{s.url_types[0]}/")
        back, = api.load_instances(s, url)
        assert canonical(api.write_instance(s, back, "text"), regions) == want, url
        file = tmp_path / f"{k}.pzprv3"
        file.write_text(api.write_instance(s, inst, "pzprv3"))
        back, = api.load_instances(s, str(file))
        assert canonical(api.write_instance(s, back, "text"), regions) == want, file.read_text()


def canonical(text, regions):
    """A text instance with the ids of its grids numbered ``regions`` renamed
    by first appearance (tokens that are not numbers kept)."""
    head, *rows = text.strip().split("\n")
    height = int(head.split()[1])
    grids = [rows[i:i + height] for i in range(0, len(rows), height)]
    for g in regions:
        names = {}
        grids[g] = [" ".join(names.setdefault(t, str(len(names) + 1)) if t.isdigit() else t
                             for t in row.split()) for row in grids[g]]
    return [head] + [row for g in grids for row in g]


def rejects(genre, tmp_path, text, where, message):
    """The instance ``text`` is refused at line:column ``where`` with ``message``."""
    path = tmp_path / "bad.txt"
    path.write_text(text)
    out = run_cli("solve", genre, path)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert f"bad.txt:{where}: error: {message}" in out.stderr, out.stderr


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


# ------------------------------------------------------------------ every genre

class Genre(NamedTuple):
    boards: Callable            # (rng, h, w, n) -> n boards
    answers: Callable           # board -> its answers, as pzc prints them
    layers: Callable = lambda board: [board]     # board -> the grids of its instance
    regions: tuple = ()         # which of those grids hold region ids


GENRES = {"geradeweg": Genre(geradeweg_boards, geradeweg_answers),
          "simpleloop": Genre(simpleloop_boards, simpleloop_answers),
          "koburin": Genre(koburin_boards, koburin_answers)}


@pytest.mark.parametrize("genre", sorted(GENRES))
@pytest.mark.parametrize("h, w, seed", [(3, 4, 1), (4, 4, 2), (4, 5, 3)])
def test_against_brute_force_and_back_from_urls_and_files(tmp_path, genre, h, w, seed):
    g = GENRES[genre]
    boards = g.boards(random.Random(seed), h, w, 12)
    counts = check_against_brute(tmp_path, genre, boards, g.answers, layers=g.layers)
    assert 0 in counts and 1 in counts and any(k > 1 for k in counts), counts
    same_instance(genre, write_instances(tmp_path, boards, g.layers), tmp_path, g.regions)


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_examples_are_unique(genre):
    for path in sorted((EXAMPLES / genre).iterdir()):
        uniq = run_json("unique", genre, str(path))
        assert [u["unique"] for u in uniq] == [True], (path, uniq)

