"""Reading an instance from a picture, driven by the spec's `url` line.

The spec's `url` line names the layer codecs a puzz.link URL of the genre
holds; each codec's values have one look in a picture, the same in every
genre that uses it, so the picture's looks are turned into the codecs'
raw values, written as the genre's URL, and read by the spec's own URL
reader:

    url masyu: circles(clues, [(1, "w"), (2, "b")])
    picture: cell (0, 1) white circle, cell (5, 0) black circle
        -> circles {(0, 1): 1, (5, 0): 2} -> https://puzz.link/p?mashu/6/6/...
        -> the instance, as `pzc solve masyu URL` reads it

A hexagonal board (`board hex`) is read by hexgrid.py into pzc's text form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...encoder.instance import Source
from ...runtime.errors import PzcError
from .. import codecs as codec_table
from ..binding import Binding, read_url
from ..puzzlink import make_url
from .errors import UnsurePicture
from .image import ink_levels, load_picture
from .marks import CellLook, look_at_cell
from .squaregrid import SquareBoard, find_square_board
from .walls import find_borders

UNKNOWN = -2            # pzprjs's "?": a clue cell without a number

# numbers a codec holds: the largest (and whether black cells without a
# number are its -2); the codecs of region walls; of circles; of marked cells
NUMBER_CODECS = {"number16": codec_table.N16_MAX, "number10": 9, "number36": 35,
                 "cells4": 4, "roomnumber16": codec_table.N16_MAX}
REGION_CODECS = {"border"}
CIRCLE_CODECS = {"circles"}
MARK_CODECS = {"binary"}
READABLE = set(NUMBER_CODECS) | REGION_CODECS | CIRCLE_CODECS | MARK_CODECS


@dataclass
class PictureReading:
    """What `pzc read` found: the instance, the URL it was written as (None
    for a board puzz.link has no URL of), the board's geometry and each
    cell's look, and the cells' pixel centres (for a bot's clicks)."""
    instance: object
    url: str | None
    board: SquareBoard | None
    looks: dict = field(default_factory=dict)
    centres: dict = field(default_factory=dict)
    borders: object = None


def readable(spec) -> str | None:
    """Why pzc cannot read this spec's puzzles from a picture, or None."""
    if spec.board.kind == "hex":
        return None
    if spec.board.kind != "square" or spec.url is None:
        return (f"the spec '{spec.name}' has no puzz.link `url` line, which says what its "
                f"clues look like; pzc reads pictures of square boards of such specs and of "
                f"hexagonal boards")
    names = [c.name for c in spec.url.codecs]
    pairs = Binding(spec, spec.url).pairs
    # binary's 1 must be the marked cell (Nondango's 1 is its blank cell)
    unknown = [n for i, n in enumerate(names) if n not in READABLE or n in MARK_CODECS and any(
        raw == 1 and tok in (".", " ") for raw, tok in pairs[i])]
    # a number codec whose numbers stand for shapes (Hakoiri's circle,
    # triangle, square; Tatamibari's bars) draws them as shapes, not digits
    shapes = [n for i, n in enumerate(names) if n in NUMBER_CODECS and any(
        isinstance(raw, int) and raw >= 0 and tok != raw for raw, tok in pairs[i])]
    if shapes:
        return (f"pzc cannot yet read the spec '{spec.name}''s clues from a picture: its "
                f"{shapes[0]} numbers stand for marks ("
                + ", ".join(f"{raw} {tok!r}" for raw, tok in pairs[names.index(shapes[0])])
                + "), drawn as shapes")
    if unknown:
        return (f"pzc cannot yet read {', '.join(unknown)} clues from a picture (the spec "
                f"'{spec.name}' reads its URLs with {', '.join(names)}); it reads "
                f"{', '.join(sorted(READABLE))}")
    return None


def read_picture(spec, path: str, data: bytes | None = None, reader=None) -> PictureReading:
    """The instance a picture of a board shows, read for ``spec``.  Errors
    (exit 2): no board found, a spec whose clues have no known look, a place
    the reader is unsure of (UnsurePicture, with the place and what it saw)."""
    why = readable(spec)
    if why:
        raise PzcError(why, file=path)
    image = load_picture(path, data)
    if reader is None:
        from .glyphs import glyph_reader
        reader = glyph_reader()
    if spec.board.kind == "hex":
        from .hexgrid import read_hex_picture
        found = read_hex_picture(spec, image, path, reader)
        from ..reading import load_instances
        inst = load_instances(spec, path, text=found.text)[0]
        return PictureReading(inst, None, None, centres=found.centres)
    grey = ink_levels(image)
    board = find_square_board(grey, path)
    return _read_square(spec, grey, board, path, reader)


def _read_square(spec, grey, board: SquareBoard, path: str, reader) -> PictureReading:
    binding = Binding(spec, spec.url)
    names = binding.codecs
    alphabet = "0123456789?" + ("ABCDEFGHIJKLMNOPQRSTUVWXYZ" if binding.letters else "")
    cells = [(r, c) for r in range(board.rows) for c in range(board.cols)]
    looks = {cell: look_at_cell(board, grey, *cell, reader, alphabet, path) for cell in cells}
    used = set()
    values = []
    borders = None
    for k, name in enumerate(names):
        if name in REGION_CODECS:
            black = frozenset(c for c, look in looks.items() if look.shade == "black")
            borders = find_borders(board, grey, path, skip=black)
            values.append(codec_table.regions_from_borders(
                board.rows, board.cols, borders.vertical, borders.horizontal))
        elif name in NUMBER_CODECS:
            values.append(_numbers(binding, k, looks, board, path, NUMBER_CODECS[name], used))
        elif name in CIRCLE_CODECS:
            layer = {}
            for cell, look in looks.items():
                if look.circle and not look.text and look.shade != "black":
                    layer[cell] = 1 if look.circle == "white" else 2
                    used.add(cell)
            values.append(layer)
        elif name in MARK_CODECS:
            values.append(_marked(binding, k, looks, used))
    for cell, look in looks.items():
        if cell not in used and not look.blank:
            raise UnsurePicture(path, cell, board.box(*cell),
                                f"{describe_look(look)}, which no clue of the spec "
                                f"'{spec.name}' looks like")
    ptype = binding.types[0]
    try:
        body = codec_table.encode_layers(names, values, board.rows, board.cols,
                                         optional=binding.optional)
    except codec_table.FormatError as e:
        raise PzcError(f"the board read does not make a puzz.link '{ptype}' puzzle: "
                       f"{e.message}", file=path) from None
    url = make_url(ptype, board.cols, board.rows, body)
    inst = read_url(spec, url, path, Source(path, url))
    centres = {cell: board.centre(*cell) for cell in cells}
    return PictureReading(inst, url, board, looks, centres, borders)


def _numbers(binding: Binding, k: int, looks: dict, board, path, largest: int, used: set) -> dict:
    """A number layer: each cell's number, UNKNOWN for '?' and for a black
    cell without one where the spec names UNKNOWN (Akari's walls)."""
    black_unknown = any(raw == UNKNOWN and tok != "?" for raw, tok in binding.pairs[k])
    layer = {}
    for cell, look in looks.items():
        if look.text:
            if look.text == "?":
                value = UNKNOWN
            elif look.text.isdigit():
                value = int(look.text)
            elif binding.letters and len(look.text) == 1 and look.text.isupper():
                value = ord(look.text) - ord("A") + 1      # puzz.link's letters are 1..26
            else:
                raise UnsurePicture(path, cell, board.box(*cell),
                                    f"'{look.text}', which is no number")
            if value > largest:
                raise UnsurePicture(path, cell, board.box(*cell),
                                    f"the number {value}, but this genre's clues go up to "
                                    f"{largest}")
        elif look.shade == "black" and black_unknown:
            value = UNKNOWN
        else:
            continue
        layer[cell] = value
        used.add(cell)
    return layer


def _marked(binding: Binding, k: int, looks: dict, used: set) -> dict:
    """A layer of marked cells (shaded or circled, no text): binary's 1."""
    layer = {}
    for cell, look in looks.items():
        if not look.text and (look.shade != "white" or look.circle):
            layer[cell] = 1
            used.add(cell)
    return layer


def describe_look(look: CellLook) -> str:
    """A cell's look in words: 'a black cell with 2', 'a white circle'."""
    what = {"black": "a black cell", "grey": "a grey cell", "white": "a cell"}[look.shade]
    if look.circle:
        what = f"a {look.circle} circle"
    return f"{what} with '{look.text}'" if look.text else what
