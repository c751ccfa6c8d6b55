"""The instance readers (pzc.encoder.instance): character and token grids,
"W H" headers, comments, several instances per file, the "0 0" terminator,
one puzzle per line, slowfrog's hexagon layout, JSON; token values; names."""

from __future__ import annotations

import io
import random

import pytest

import generators as gen
from pzc import api
from pzc.encoder.instance import Record, read_file, read_instances, token_value
from pzc.runtime.errors import PzcError, Source


def read(text, board="square", blank=".", lines=False, path="f.txt"):
    return read_instances(Source(path, text), board, blank=blank, lines=lines)


def one(text, **kw):
    found = read(text, **kw)
    assert len(found) == 1
    return found[0]


def bad(text, **kw) -> PzcError:
    with pytest.raises(PzcError) as info:
        read(text, **kw)
    return info.value


def size(inst):
    return inst.geometry.width, inst.geometry.height


# ------------------------------------------------------------------ char grids

def test_char_grid():
    inst = one("4..1\n...3\n3..4\n1.3.\n")
    assert inst.layout == "chars" and size(inst) == (4, 4)
    assert inst.clues == {(0, 0): 4, (0, 3): 1, (1, 3): 3, (2, 0): 3, (2, 3): 4,
                          (3, 0): 1, (3, 2): 3}
    assert inst.tokens[(0, 0)] == "4"
    assert inst.positions[(2, 3)] == (3, 4)
    assert inst.locked == set()
    assert inst.name == "f.txt" and inst.start_line == 1


def test_char_values_are_base_36_numbers_or_symbols():
    inst = one("09AZ\naz*.\n")
    assert inst.clues == {(0, 0): 0, (0, 1): 9, (0, 2): 10, (0, 3): 35,
                          (1, 0): "a", (1, 1): "z", (1, 2): "*"}
    assert (1, 3) not in inst.clues


@pytest.mark.parametrize("token, layout, value", [
    ("0", "chars", 0), ("7", "chars", 7), ("A", "chars", 10), ("G", "chars", 16),
    ("P", "chars", 25), ("Z", "chars", 35), ("a", "chars", "a"), ("#", "chars", "#"),
    ("A", "lines", 10), ("9", "lines", 9),
    ("12", "tokens", 12), ("-3", "tokens", -3), ("007", "tokens", 7), ("A", "tokens", "A"),
    ("x1", "tokens", "x1"), ("1.5", "tokens", "1.5"), ("5", "hex", 5),
])
def test_token_value(token, layout, value):
    assert token_value(token, layout) == value
    assert type(token_value(token, layout)) is type(value)


def test_trailing_spaces_do_not_count():
    inst = one("12  \n34\n")
    assert size(inst) == (2, 2) and inst.clues == {(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 4}


def test_custom_blank_characters():
    inst = one("1.0-\n-0.2\n", blank=".0-")
    assert inst.clues == {(0, 0): 1, (1, 3): 2}


# ------------------------------------------------------------------ token grids

def test_token_grid():
    inst = one("10 . x\n. 12 -1\n")
    assert inst.layout == "tokens" and size(inst) == (3, 2)
    assert inst.clues == {(0, 0): 10, (0, 2): "x", (1, 1): 12, (1, 2): -1}
    assert inst.tokens[(1, 1)] == "12"
    assert inst.positions[(1, 1)] == (2, 3) and inst.positions[(1, 2)] == (2, 6)


def test_token_grid_with_tabs_and_runs_of_spaces():
    inst = one("1\t  2   .\n.  3\t4\n")
    assert size(inst) == (3, 2)
    assert inst.clues == {(0, 0): 1, (0, 1): 2, (1, 1): 3, (1, 2): 4}


def test_a_headed_grid_of_single_character_tokens_separated_by_spaces():
    inst = one("3 2\n1 . 2\n. 3 .\n")
    assert inst.layout == "tokens" and size(inst) == (3, 2)
    assert inst.clues == {(0, 0): 1, (0, 2): 2, (1, 1): 3}


def test_a_headed_grid_one_column_wide_of_longer_tokens():
    # a row of one token cannot show its spaces: the header's width tells
    inst = one("1 3\n10\n.\n2,\n")
    assert inst.layout == "tokens" and size(inst) == (1, 3)
    assert inst.clues == {(0, 0): 10, (2, 0): "2,"}
    assert "this row has 3 cells" in bad("2 2\n12\n345\n").message     # wider: still chars

# ------------------------------------------------------------------ headers

def test_header_is_width_then_height():
    inst = one("3 2\n1.2\n.3.\n")
    assert size(inst) == (3, 2)
    assert inst.clues == {(0, 0): 1, (0, 2): 2, (1, 1): 3}
    assert inst.start_line == 1
    assert inst.positions[(0, 0)] == (2, 1)
    inst = one("2 3\n12\n..\n3.\n")
    assert size(inst) == (2, 3) and inst.clues == {(0, 0): 1, (0, 1): 2, (2, 0): 3}


def test_header_errors():
    err = bad("3 2\n12\n34\n")
    assert (err.message, err.line, err.column) == \
        ("the header says 3 columns, but the rows have 2", 2, 1)
    err = bad("2 3\n12\n34\n")
    assert (err.message, err.line, err.column) == \
        ("the header says 3 rows, but only 2 follow (line 4)", 1, 1)
    err = bad("2 0\n")
    assert (err.message, err.line, err.column) == ("a board of 2 x 0 cells has no cells", 1, 1)


def test_blank_lines_inside_a_headed_block_are_tolerated():
    inst = one("2 2\n12\n\n34\n")
    assert inst.clues == {(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 4}
    assert inst.positions[(1, 0)] == (4, 1)


# ------------------------------------------------------------------ comments

def test_comment_lines_are_skipped_and_positions_stay_true():
    inst = one("# a puzzle\n12\n   # indented comment\n34\n# the end\n")
    assert size(inst) == (2, 2)
    assert inst.clues == {(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 4}
    assert inst.positions[(0, 0)] == (2, 1) and inst.positions[(1, 1)] == (4, 2)


def test_a_file_of_comments_holds_no_instance():
    for text in ("", "\n\n", "# only a comment\n", "0 0\n12\n"):
        err = bad(text)
        assert err.message == "the file holds no instance" and err.line is None


# ------------------------------------------------------------------ several instances

def test_instances_separated_by_blank_lines():
    found = read("12\n34\n\n\n56\n78\n\n9.\n.9\n", path="many.txt")
    assert [i.name for i in found] == ["many.txt#1", "many.txt#2", "many.txt#3"]
    assert [i.clues[(0, 0)] for i in found] == [1, 5, 9]
    assert [i.start_line for i in found] == [1, 5, 8]
    assert found[1].positions[(1, 1)] == (6, 2)


def test_instances_separated_by_their_header_lines():
    found = read("2 2\n12\n34\n3 1\n5.6\n2 2\n..\n.7\n", path="h.txt")
    assert [i.name for i in found] == ["h.txt#1", "h.txt#2", "h.txt#3"]
    assert [size(i) for i in found] == [(2, 2), (3, 1), (2, 2)]
    assert found[1].clues == {(0, 0): 5, (0, 2): 6}
    assert found[2].clues == {(1, 1): 7}
    assert [i.start_line for i in found] == [1, 4, 6]


def test_zero_zero_ends_the_file():
    found = read("2 2\n12\n34\n0 0\nthis is not read\n\n***\n")
    assert len(found) == 1 and found[0].name == "f.txt"
    found = read("2 1\n12\n2 1\n34\n0 0\n2 1\n56\n", path="z.txt")
    assert [i.name for i in found] == ["z.txt#1", "z.txt#2"]


def test_two_number_rows_of_a_two_column_token_grid_are_rows_not_headers():
    inst = one("x 1\n2 3\n4 5\n")
    assert size(inst) == (2, 3)
    assert inst.clues == {(0, 0): "x", (0, 1): 1, (1, 0): 2, (1, 1): 3, (2, 0): 4, (2, 1): 5}


def test_a_single_instance_is_named_by_its_path_alone():
    assert one("1\n", path="dir/one.txt").name == "dir/one.txt"


# ------------------------------------------------------------------ ragged rows

def test_ragged_char_rows():
    err = bad("4..1\n...3\n3..4\n1.3\n")
    assert (err.line, err.column) == (4, 4)
    assert err.message == ("this row has 3 cells, but the row on line 1 has 4; "
                           "every row must have the same length")
    err = bad("12\n345\n")
    assert (err.line, err.column) == (2, 3)            # the first extra cell
    assert err.message.startswith("this row has 3 cells, but the row on line 1 has 2")


def test_ragged_token_rows():
    err = bad("1 . x\n. 2\n")
    assert (err.line, err.column) == (2, 4)
    assert err.message.startswith("this row has 2 cells, but the row on line 1 has 3")


# ------------------------------------------------------------------ one per line

SUDOKU_LINE = ".7....246.3.46........5..3.85....4.9..3....5.......3.2..5..1.9..9....1.4..1.76..."


def test_one_puzzle_per_line():
    zeros = SUDOKU_LINE.replace(".", "0")
    found = read(f"# two puzzles\n{SUDOKU_LINE}\n{zeros}\n", blank=".0", lines=True,
                 path="l.txt")
    assert [i.name for i in found] == ["l.txt#1", "l.txt#2"]
    for inst in found:
        assert inst.layout == "lines" and size(inst) == (9, 9)
        assert inst.clues[(0, 1)] == 7 and inst.clues[(1, 1)] == 3
        assert len(inst.clues) == sum(ch != "." for ch in SUDOKU_LINE)
        assert (0, 0) not in inst.clues
    assert found[0].clues == found[1].clues
    assert found[0].positions[(1, 1)] == (2, 11)       # character 11 of line 2
    assert found[1].start_line == 3


def test_a_sixteen_character_line_is_a_four_by_four_board():
    inst = one("1000" * 4 + "\n", blank=".0", lines=True)
    assert inst.layout == "lines" and size(inst) == (4, 4)
    assert inst.clues == {(r, 0): 1 for r in range(4)}
    assert inst.positions[(3, 0)] == (1, 13)


def test_lines_need_the_lines_option():
    found = read(f"{SUDOKU_LINE}\n{SUDOKU_LINE}\n", lines=False)
    assert len(found) == 1 and found[0].layout == "chars" and size(found[0]) == (81, 2)


def test_a_square_block_as_high_as_its_lines_are_long_is_one_grid():
    # n*n rows of n*n characters: a grid, not n*n one-line puzzles
    rows = ["1234", "3412", "2143", "4321"]
    inst = one("\n".join(rows) + "\n", blank=".0", lines=True)
    assert inst.layout == "chars" and size(inst) == (4, 4)
    # two lines of nine characters are two 3 x 3 puzzles
    found = read("123......\n.........\n", blank=".0", lines=True)
    assert [(i.layout, size(i)) for i in found] == [("lines", (3, 3))] * 2
    assert found[0].clues == {(0, 0): 1, (0, 1): 2, (0, 2): 3} and found[1].clues == {}


def test_one_per_line_in_a_sudoku_file_through_the_api(write):
    rng = random.Random(3)
    puzzles = [gen.sudoku_puzzle(3, 0.5, rng) for _ in range(3)]
    path = write("p.txt", "".join("".join(rows) + "\n" for rows, _ in puzzles))
    found = api.load_instances(api.load_spec("sudoku"), str(path))
    assert [i.name for i in found] == [f"{path}#{k}" for k in (1, 2, 3)]
    for inst, (rows, _) in zip(found, puzzles):
        assert inst.layout == "lines" and size(inst) == (9, 9)
        assert inst.clues == {(r, c): int(ch) for r, row in enumerate(rows)
                              for c, ch in enumerate(row) if ch != "."}


# ------------------------------------------------------------------ hex

SMALL_HEX = "3\n   . 2 .\n  . 4 0+.\n 4 . 1+. 2\n  . . 4+.\n   2 . 3\n"


def test_hex_layout():
    inst = one(SMALL_HEX, board="hex")
    assert inst.layout == "hex"
    assert inst.geometry.side == 3
    assert [inst.geometry.row_length(r) for r in range(5)] == [3, 4, 5, 4, 3]
    assert inst.clues == {(0, 1): 2, (1, 1): 4, (1, 2): 0, (2, 0): 4, (2, 2): 1, (2, 4): 2,
                          (3, 2): 4, (4, 0): 2, (4, 2): 3}
    assert inst.locked == {(1, 3), (2, 3), (3, 3)}
    assert (1, 3) not in inst.clues                 # locked and empty
    assert inst.positions[(0, 0)] == (2, 4)
    assert inst.positions[(1, 3)] == (3, 9)         # the value, after its '+'


def test_hex_with_crlf_line_ends_reads_the_same():
    lf = one(SMALL_HEX, board="hex")
    crlf = one(SMALL_HEX.replace("\n", "\r\n"), board="hex")
    assert crlf.clues == lf.clues and crlf.locked == lf.locked
    assert crlf.positions == lf.positions


def test_hex_file_with_crlf_through_the_api(write, examples):
    text = (examples / "hexiom" / "small.txt").read_text()
    path = write("crlf.txt", text.replace("\n", "\r\n"))
    assert "\r\n" in path.read_bytes().decode()
    (inst,) = api.load_instances(api.load_spec("hexiom"), str(path))
    rows = text.splitlines()[1:]
    assert len(inst.locked) == text.count("+") > 0
    assert len(inst.clues) == sum(ch.isdigit() for row in rows for ch in row)
    (plain,) = api.load_instances(api.load_spec("hexiom"), str(examples / "hexiom" / "small.txt"))
    assert (inst.locked, inst.clues) == (plain.locked, plain.clues)


def test_several_hex_instances_and_comments():
    text = "# two levels\n" + SMALL_HEX + "\n" + "1\n+3\n" + "2\n . .\n. 1 .\n . .\n"
    found = read(text, board="hex", path="hx.txt")
    assert [i.name for i in found] == ["hx.txt#1", "hx.txt#2", "hx.txt#3"]
    assert [i.geometry.side for i in found] == [3, 1, 2]
    assert found[1].clues == {(0, 0): 3} and found[1].locked == {(0, 0)}
    assert found[2].clues == {(1, 1): 1} and found[2].locked == set()
    assert [i.start_line for i in found] == [2, 9, 11]


def test_generated_hex_levels_read_back():
    rng = random.Random(5)
    for side in (2, 3, 4):
        text = gen.hexiom_level(side, 0.5, 3, rng)
        inst = one(text, board="hex")
        assert inst.geometry.side == side
        assert len(inst.locked) == 3
        assert len(inst.positions) == 3 * side * (side - 1) + 1


HEX_ERRORS = [
    ("2\n . .\n. 1\n . .\n", 3, 4, "row 2 of a side-2 hexagon has 3 cells, but this row has 2"),
    ("2\n . . .\n. 1 .\n . .\n", 2, 6, "row 1 of a side-2 hexagon has 2 cells, but this row has 3"),
    ("2\n . .\n. x .\n . .\n", 3, 3,
     "a hex cell is '.' or a digit, with '+' before it when locked; 'x' is neither"),
    ("2\n . .\n. + .\n . .\n", 3, 3, "'+' (locked) must stand right before a cell value"),
    ("2\n . .\n. 1 .\n", 1, 1, "a hexagon of side 2 has 3 rows, but 2 follow"),
    ("2\n . .\n\n. 1 .\n . .\n", 1, 1, "a hexagon of side 2 has 3 rows, but 1 follows"),
    ("x\n", 1, 1, "a hex board starts with its side length n on a line of its own"),
    ("  4..1\n", 1, 3, "a hex board starts with its side length n on a line of its own"),
    ("0\n", 1, 1, "the side length of a hexagon is at least 1"),
]


@pytest.mark.parametrize("text, line, column, message", HEX_ERRORS,
                         ids=[m for *_, m in HEX_ERRORS])
def test_hex_errors(text, line, column, message):
    err = bad(text, board="hex")
    assert (err.message, err.line, err.column) == (message, line, column)


# ------------------------------------------------------------------ JSON

def test_json_instance():
    inst = one('{"board": [[0, 0, 1], [0, 1, -1]], "pieces": [2], "meta": {"name": "x"}}',
               board="json", path="l.json")
    assert inst.layout == "json" and inst.geometry is None and inst.name == "l.json"
    data = inst.data
    assert isinstance(data, Record)
    assert data["board"] == ((0, 0, 1), (0, 1, -1))            # lists become tuples
    assert data["pieces"] == (2,)
    assert isinstance(data["meta"], Record) and data["meta"]["name"] == "x"
    hash(data)                                                  # usable as a key


def test_json_errors():
    err = bad('{"a": 1', board="json")
    assert (err.message, err.line, err.column) == ("bad JSON: Expecting ',' delimiter", 1, 8)
    err = bad('{\n  "a": 1,\n  "b": \n}\n', board="json")
    assert err.message.startswith("bad JSON: ") and (err.line, err.column) == (4, 1)
    err = bad("4..1\n...3\n", board="json")
    assert (err.message, err.line, err.column) == \
        ("this spec reads a JSON instance, but the file is not JSON", 1, 1)


@pytest.mark.parametrize("board", ["square", "hex"])
def test_json_given_to_a_text_board(board):
    err = bad('\n  {"board": []}\n', board=board)
    assert (err.message, err.line, err.column) == \
        (f"this is a JSON instance, but the spec reads a {board} text board", 2, 3)


# ------------------------------------------------------------------ files

def test_read_file_reads_crlf_and_cr_line_ends_and_reports_missing_files(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"12\r\n34\r\n")
    assert read_file(str(path)).text == "12\n34\n"
    path.write_bytes(b"12\r34\r")           # old Mac line ends: two rows, not one
    assert read_file(str(path)).text == "12\n34\n"
    with pytest.raises(PzcError) as info:
        read_file(str(tmp_path / "missing.txt"))
    assert info.value.message == f"no such instance file: {tmp_path / 'missing.txt'}"
    assert info.value.line is None and info.value.exit_code == 2
    with pytest.raises(PzcError) as info:
        read_file(str(tmp_path))
    assert info.value.message == f"{tmp_path} is a directory, not an instance file"
    (tmp_path / "latin1.txt").write_bytes(b"12\n3\xe9\xe9\n")
    with pytest.raises(PzcError) as info:
        read_file(str(tmp_path / "latin1.txt"))
    assert info.value.message.startswith(f"{tmp_path / 'latin1.txt'} is not UTF-8 text: byte 0xe9")
    assert (info.value.line, info.value.column) == (2, 2)


def test_cr_only_rows_keep_their_line_numbers():
    src = Source("cr.txt", "2 2\r12\r3x4\r")
    with pytest.raises(PzcError) as info:
        read_instances(src, "square")
    err = info.value
    assert err.line == 3 and err.source_line == "3x4"
    assert err.format().splitlines()[1].strip() == "3x4"


@pytest.mark.parametrize("depth", [101, 900, 100_000])
def test_json_nested_too_deep_is_a_located_error(depth):
    text = '{"board":\n' + "[" * depth + "]" * depth + "}"
    with pytest.raises(PzcError) as info:
        read_instances(Source("deep.json", text), "json")
    err = info.value
    assert err.message == "JSON nested more than 100 levels deep"
    assert (err.line, err.column) == (2, 100)
    assert len(err.format().splitlines()[1]) < 120      # a long line is shown in part


def test_json_as_deep_as_allowed_is_read():
    text = "[" * 100 + "]" * 100
    inst, = read_instances(Source("deep.json", text), "json")
    depth, value = 0, inst.data
    while value:
        value, depth = value[0], depth + 1
    assert depth == 99


@pytest.mark.parametrize("number", ["1.5", "1e400", "2E3", "NaN", "-Infinity"])
def test_json_numbers_are_whole(number):
    text = f'{{"pieces": [1, 2],\n "sums": [[1, "1.5", {number}]]}}'
    with pytest.raises(PzcError) as info:
        read_instances(Source("f.json", text), "json")
    err = info.value
    assert err.message.startswith(f"{number} is not a whole number")
    assert (err.line, err.column) == (2, 22)


def test_read_file_dash_is_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("2 1\n12\n2 1\n34\n"))
    source = read_file("-")
    assert source.path == "<stdin>"
    found = read_instances(source, "square")
    assert [i.name for i in found] == ["<stdin>#1", "<stdin>#2"]
