"""Hexiom from a picture, and a bot's move list: pzc's question pictures of
the examples and of slowfrog's 40 levels (../shared/corpus), rasterized by
rsvg-convert at three zooms in two fonts, read back to the same instance;
the tile moves replayed on the start board give the verified answer, and
are as few as a breadth-first search over boards finds; bad pictures and
answers with no moves end in located errors (exit 2)."""

from __future__ import annotations

import itertools
import json
import random
from collections import deque
from pathlib import Path

import cv2
import numpy as np
import pytest

from conftest import CORPUS, ROOT, reads_corpus
from hex_pictures import RSVG, digit_reader, question_svg, rasterize
from pzc import api
from pzc.formats.pictures.errors import UnsurePicture
from pzc.formats.pictures.hexgrid import read_hex_picture
from pzc.tasks.moves import plan_moves
from pzc.tasks.pictures import draw

LEVELS = CORPUS / "hexiom" / "slowfrog"
EXAMPLES = sorted((ROOT / "specs" / "examples" / "hexiom").glob("*.txt"))
ZOOMS = (1.0, 1.4, 1.8)
FONTS = (None, "Liberation Sans")           # None: the picture's own, DejaVu Sans
needs_rsvg = pytest.mark.skipif(RSVG is None, reason="rsvg-convert (librsvg2-bin) is absent")

SPEC = api.load_spec("hexiom")


def level_files() -> list:
    return sorted(LEVELS.glob("level*.txt"))


def replay(start: dict, moves) -> dict:
    """The board after the moves, each checked: a tile leaves its cell for a free one."""
    board = dict(start)
    for m in moves:
        assert board.get(m.source) == m.tile, m
        assert m.target not in board, f"{m}: onto an occupied cell"
        board[m.target] = board.pop(m.source)
    return board


def answer_tiles(result) -> dict:
    return {cell: t for cell, t in result.picture.cells.items() if t not in (".", "")}


def start_tiles(inst) -> dict:
    return {cell: inst.tokens[cell] for cell in inst.clues}


# ---------------------------------------------------------------- moves

def fewest_moves(start: dict, end: dict, cells: list) -> int:
    """Breadth-first over boards: the fewest moves of a tile to a free cell."""
    goal = frozenset(end.items())
    first = frozenset(start.items())
    seen = {first: 0}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if state == goal:
            return seen[state]
        board = dict(state)
        free = [c for c in cells if c not in board]
        for source, target in itertools.product(list(board), free):
            nxt = dict(board)
            nxt[target] = nxt.pop(source)
            key = frozenset(nxt.items())
            if key not in seen:
                seen[key] = seen[state] + 1
                queue.append(key)
    raise AssertionError("no way")


def test_moves_are_fewest_against_a_breadth_first_search():
    rng = random.Random(30)
    cells = [(0, i) for i in range(7)]
    tried = 0
    for _ in range(150):
        k = rng.randint(1, 5)
        tokens = [rng.choice("012") for _ in range(k)]
        start = dict(zip(rng.sample(cells, k), tokens))
        end = dict(zip(rng.sample(cells, k), tokens))
        moves = plan_moves(start, end, cells)
        assert replay(start, moves) == end
        assert len(moves) == fewest_moves(start, end, cells), (start, end, moves)
        tried += 1
    assert tried == 150


def test_a_cycle_of_tiles_is_broken_through_a_free_cell():
    cells = [(0, 0), (0, 1), (0, 2), (0, 3)]
    start = {(0, 0): "1", (0, 1): "2", (0, 2): "3"}
    end = {(0, 0): "2", (0, 1): "3", (0, 2): "1"}
    moves = plan_moves(start, end, cells)
    assert replay(start, moves) == end
    assert len(moves) == 4 and moves[0].target == (0, 3)


def test_no_free_cell_for_a_cycle_is_an_error():
    cells = [(0, 0), (0, 1)]
    with pytest.raises(api.PzcError, match="no free cell"):
        plan_moves({(0, 0): "1", (0, 1): "2"}, {(0, 0): "2", (0, 1): "1"}, cells)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_moves_of_an_example_replayed_give_the_verified_answer(path):
    inst = api.load_instances(SPEC, str(path))[0]
    result = api.solve(SPEC, inst)
    assert result.status == "solved" and result.verified
    moves = api.tile_moves(inst, result)
    end = answer_tiles(result)
    assert replay(start_tiles(inst), moves) == end
    misplaced = sum(end.get(c) != t for c, t in start_tiles(inst).items())
    assert len(moves) >= misplaced
    assert all(m.source not in inst.locked and m.target not in inst.locked for m in moves)


def test_solve_format_moves_and_json(run_pzc):
    path = str(EXAMPLES[0])
    inst = api.load_instances(SPEC, path)[0]
    run = run_pzc("solve", "hexiom", path, "--format", "json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    expected = [m.as_json() for m in api.tile_moves(inst, api.solve(SPEC, inst))]
    assert record["moves"] == expected and expected
    run = run_pzc("solve", "hexiom", path, "--format", "moves")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].endswith("solved, verified")
    assert len([x for x in lines[1:] if x.strip()]) == len(expected)
    first = expected[0]
    assert f"tile {first['tile']} from row {first['from'][0] + 1}, column " in lines[1]


@pytest.mark.parametrize("spec, example, message", [
    ("sudoku", "grid4.txt", "grid4.txt: error: the answer is not a rearrangement of the clues"),
    ("puzlogic", "level.json", "level.json: error: the answer is not a rearrangement"),
    ("sliding", "three.txt", "three.txt: error: tile moves need an answer shown per cell "
                             "(a move puzzle prints its plan's own moves)")])
def test_moves_of_an_answer_that_is_no_rearrangement_exit_2(spec, example, message, run_pzc):
    path = str(ROOT / "specs" / "examples" / spec / example)
    run = run_pzc("solve", spec, path, "--format", "moves")
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


# ---------------------------------------------------------------- pictures

def check_reads_back(inst, zoom, font, folder, reader) -> object:
    """The picture of ``inst`` read back: the same instance."""
    png = rasterize(question_svg(SPEC, inst, font), zoom, folder / "board.png")
    got = read_hex_picture(SPEC, cv2.imread(str(png)), str(png), reader)
    back = api.load_instances(SPEC, "read.txt", text=got.text)[0]
    assert back.clues == inst.clues and back.locked == inst.locked, (inst.name, zoom, font,
                                                                     got.text)
    assert back.geometry.side == inst.geometry.side
    assert set(got.centres) == set(inst.geometry.cells)
    return got


class AnyTile:
    """Reads any ink as the tile 0: the board's reading without its digits."""

    def read(self, mask, alphabet="0123456789"):
        return type("Reading", (), {"text": "0", "unsure": False, "glyphs": None})()


@needs_rsvg
@pytest.mark.parametrize("font", FONTS, ids=lambda f: f or "own")
@pytest.mark.parametrize("zoom", ZOOMS)
def test_the_examples_read_back_from_their_pictures(zoom, font, tmp_path):
    reader = digit_reader()
    for path in EXAMPLES:
        check_reads_back(api.load_instances(SPEC, str(path))[0], zoom, font, tmp_path, reader)


@needs_rsvg
@reads_corpus(LEVELS)
@pytest.mark.parametrize("font", FONTS, ids=lambda f: f or "own")
@pytest.mark.parametrize("zoom", ZOOMS)
def test_the_40_levels_read_back_from_their_pictures(zoom, font, tmp_path):
    reader = digit_reader()
    files = level_files()
    assert len(files) == 40
    for path in files:
        check_reads_back(api.load_instances(SPEC, str(path))[0], zoom, font, tmp_path, reader)


@needs_rsvg
def test_a_picture_read_solved_and_moved_end_to_end(tmp_path):
    """A drawn board read, solved, its moves replayed; each move carries the
    pixel centres of the cells it names."""
    inst = api.load_instances(SPEC, str(EXAMPLES[0]))[0]
    reader = digit_reader()
    got = check_reads_back(inst, 1.4, None, tmp_path, reader)
    read = api.load_instances(SPEC, "read.txt", text=got.text)[0]
    result = api.solve(SPEC, read)
    assert result.status == "solved" and result.verified
    read.centres = got.centres
    moves = api.tile_moves(read, result)
    assert replay(start_tiles(read), moves) == answer_tiles(result)
    for m in moves:
        assert m.source_xy == got.centres[m.source] and m.target_xy == got.centres[m.target]
    (x0, y0), (x1, y1) = moves[0].source_xy, moves[0].target_xy
    assert moves[0].as_text().endswith(
        f"  (pixels {x0:.0f},{y0:.0f} -> {x1:.0f},{y1:.0f})")
    assert moves[0].as_json()["from_xy"] == [round(x0, 1), round(y0, 1)]


def test_a_picture_of_no_hex_board_is_a_located_error(tmp_path):
    blank = np.full((120, 160, 3), 255, np.uint8)
    with pytest.raises(UnsurePicture) as e:
        read_hex_picture(SPEC, blank, "blank.png", reader=None)
    assert e.value.exit_code == 2 and "blank.png: error: the board" in e.value.format()


@needs_rsvg
def test_a_square_board_is_no_hex_board(tmp_path):
    sudoku = api.load_spec("sudoku")
    inst = api.load_instances(sudoku, str(ROOT / "specs" / "examples" / "sudoku" / "grid4.txt"))[0]
    png = rasterize(draw.board_svg(sudoku, inst), 1.0, tmp_path / "square.png")
    with pytest.raises(UnsurePicture) as e:
        read_hex_picture(SPEC, cv2.imread(str(png)), "square.png", reader=None)
    assert e.value.exit_code == 2
    assert "square.png: error: the board (pixels x" in e.value.format()


@needs_rsvg
def test_an_unreadable_number_names_its_cell(tmp_path):
    """A reader that cannot tell a digit: the cell it was in, in the error."""
    inst = api.load_instances(SPEC, str(EXAMPLES[0]))[0]

    class Unsure:
        def read(self, mask, alphabet="0123456789"):
            return type("Reading", (), {"text": "3", "unsure": True, "glyphs": None})()

    png = rasterize(question_svg(SPEC, inst), 1.2, tmp_path / "board.png")
    with pytest.raises(UnsurePicture) as e:
        read_hex_picture(SPEC, cv2.imread(str(png)), "board.png", Unsure())
    first = min(inst.clues)
    assert e.value.place == first
    assert e.value.format().startswith(
        f"board.png: error: row {first[0] + 1}, column {first[1] + 1} (pixels x ")


@needs_rsvg
def test_the_bots_loop_from_the_command_line(run_pzc, tmp_path):
    """`pzc solve hexiom board.png --format json`: the picture read, solved,
    and the moves with the pixels of their cells; replayed, the answer."""
    inst = api.load_instances(SPEC, str(EXAMPLES[-1]))[0]
    png = rasterize(question_svg(SPEC, inst), 1.2, tmp_path / "board.png")
    run = run_pzc("solve", "hexiom", str(png), "--format", "json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["verified"] is True and record["moves"]
    board = start_tiles(inst)
    for move in record["moves"]:
        source, target = tuple(move["from"]), tuple(move["to"])
        assert board.get(source) == move["tile"] and target not in board
        assert len(move["from_xy"]) == 2 and len(move["to_xy"]) == 2
        board[target] = board.pop(source)
    read = api.load_instances(SPEC, "grid.txt", text=f"{inst.geometry.side}\n"
                              + "\n".join(record["grid"]) + "\n")[0]
    assert board == {cell: read.tokens[cell] for cell in read.clues}
    run = run_pzc("solve", "hexiom", str(png), "--format", "moves")
    assert run.returncode == 0 and "  (pixels " in run.stdout.splitlines()[1]


def damaged(image: np.ndarray, how: str) -> np.ndarray:
    """The picture blurred, or saved as a JPEG of quality N ("jpeg40")."""
    if how == "blur":
        return cv2.GaussianBlur(image, (3, 3), 0.8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(how[4:])])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@needs_rsvg
@reads_corpus(LEVELS)
@pytest.mark.parametrize("how", ["blur", "jpeg40"])
@pytest.mark.parametrize("zoom", [1.2, 1.8])
def test_blurred_and_compressed_pictures_keep_their_board(zoom, how, tmp_path):
    """The board, its locks and its tiles' places read back from a blurred
    or badly compressed picture (the digits are the glyph reader's part)."""
    for path in level_files()[::3]:
        inst = api.load_instances(SPEC, str(path))[0]
        png = rasterize(question_svg(SPEC, inst), zoom, tmp_path / "board.png")
        got = read_hex_picture(SPEC, damaged(cv2.imread(str(png)), how), "board.jpg", AnyTile())
        back = api.load_instances(SPEC, "read.txt", text=got.text)[0]
        assert set(back.clues) == set(inst.clues) and back.locked == inst.locked, path.name


@needs_rsvg
def test_a_picture_of_no_hex_board_exits_2_on_the_command_line(run_pzc, tmp_path):
    sudoku = api.load_spec("sudoku")
    inst = api.load_instances(sudoku, str(ROOT / "specs" / "examples" / "sudoku" / "grid4.txt"))[0]
    rasterize(draw.board_svg(sudoku, inst), 1.0, tmp_path / "square.png")
    for command in ("read", "solve"):
        run = run_pzc(command, "hexiom", "square.png")
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert run.stderr.startswith("square.png: error: the board (pixels x "), run.stderr
