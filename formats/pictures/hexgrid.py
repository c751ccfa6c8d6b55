"""Hexagonal boards (a spec's `board hex(...)`): find the pointy-top hexagons
of a picture, number them as the hex text format does (rows top to bottom,
cells left to right), and read each cell: shaded (locked) or not, empty or
holding a number.

    read_hex_picture(spec, image, path) -> HexPicture(text, centres)

The cells are the light regions the grid lines part: white paper or a light
shade, each a hexagon's shape.  Their spacing gives one lattice (a cell's
width apart, rows half a cell apart sideways) that each must fit; the board
is the hexagon on it whose edge is the thick dark border and whose inner
sides are not, so cells lost to blur or compression are still placed.
Whatever is not clear is an UnsurePicture naming the cell (or the board)
and what it saw there.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...board.geometry import HexGrid
from ...encoder import syntax
from ...runtime.errors import PzcError
from .errors import UnsurePicture

SQRT3 = 3 ** 0.5
# a pointy-top hexagon of circumradius R is sqrt(3) R wide and 2 R high
# and fills 3/4 of that box
_HEX_ASPECT = SQRT3 / 2
PAPER = 245              # lighter: white paper
SHADE_BAND = (200, 236)  # a shaded cell's grey (pzc's locked cells: 220)
INK = 128                # darker: ink (numbers, lines)
BORDER = 96              # darker: the board's thick edge (pzc's ink, #222), not a grid line
# how far inside a cell its number is looked for, as a share of the
# cell's inradius: clear of the grid lines and the board's thick border
_INNER = 0.78


@dataclass
class HexPicture:
    """A hex board read from a picture: ``text`` in the hex text format (the
    side, then the rows; '+' before a locked cell, '.' an empty one) and
    ``centres``: cell (row, index in row) -> its centre (x, y) in pixels."""
    text: str
    centres: dict
    side: int
    radius: float            # a hexagon's circumradius in pixels


@dataclass
class _Blob:
    x: float                 # the centre of its bounding box
    y: float
    width: int
    height: int
    area: int


def read_hex_picture(spec, image: np.ndarray, path: str, reader=None) -> HexPicture:
    """The hex board in ``image`` (BGR) as an instance text and cell centres.
    ``reader``: the glyph reader of numbers (formats/pictures/glyphs.py's by
    default).  ``spec``'s board is hex; its cells' numbers are read as
    digits."""
    if spec.board.kind != "hex":
        raise PzcError(f"the spec '{spec.name}' has no hexagonal board", file=path)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    blobs = _cell_blobs(grey, path)
    side, centres, radius = _fit_board(blobs, grey, path)
    geom = HexGrid(side)
    if reader is None:
        from .glyphs import glyph_reader
        reader = glyph_reader()
    alphabet = clue_digits(spec)
    cells = {}
    for cell, (x, y) in centres.items():
        cells[cell] = read_cell(grey, (x, y), radius, cell, path, reader, alphabet)
    lines = [str(side)]
    for r in range(geom.height):
        tokens = [cells[(r, i)] for i in range(geom.row_length(r))]
        lines.append((" " * geom.indent(r) + "".join(
            t if t.startswith("+") else " " + t for t in tokens)).rstrip())
    return HexPicture("\n".join(lines) + "\n", centres, side, radius)


def _cell_blobs(grey: np.ndarray, path: str) -> list:
    """The hexagon-shaped light regions: paper, or a shade, parted by lines."""
    light = (grey >= PAPER) | ((grey >= SHADE_BAND[0]) & (grey <= SHADE_BAND[1])
                               & _flat(grey))
    count, _, stats, _ = cv2.connectedComponentsWithStats(light.astype(np.uint8), connectivity=4)
    found = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if w < 8 or h < 8:
            continue
        touches_edge = x == 0 or y == 0 or x + w == grey.shape[1] or y + h == grey.shape[0]
        if touches_edge:             # the paper around the board
            continue
        aspect = w / h
        fill = area / (w * h)
        # loose: a board's thick border and a cell's number take their share
        if abs(aspect - _HEX_ASPECT) < 0.2 and 0.5 < fill < 0.88:
            found.append(_Blob(x + (w - 1) / 2, y + (h - 1) / 2, w, h, area))
    if not found:
        raise UnsurePicture(path, None, None, "no hexagonal cells: this is no hex board "
                                              "(pointy-top hexagons, as pzc draws them)")
    # the cells are all one size; smaller hexagon-like shapes are something else
    size = float(np.median([b.height for b in found]))
    return [b for b in found if abs(b.height - size) <= 0.2 * size + 2]


def _flat(grey: np.ndarray) -> np.ndarray:
    """Pixels whose neighbours have about their grey: a shade's inside, not
    the blur of a thin line over paper."""
    blurred = cv2.blur(grey, (3, 3))
    return np.abs(grey.astype(np.int16) - blurred.astype(np.int16)) <= 4


def _fit_board(blobs: list, grey: np.ndarray, path: str) -> tuple:
    """(side, centres, radius): the hexagon of cells the blobs lie on.  The
    blobs give the lattice (their spacing, one origin); a blurred or
    compressed picture may lose some cells, so the board is the hexagon
    that holds them all whose edge is the board's thick dark border, and
    whose inner sides are not: else the picture is unsure."""
    pts = np.array([(b.x, b.y) for b in blobs])
    if len(pts) < 2:
        raise UnsurePicture(path, None, _box(blobs), "a single hexagon: no board's lattice")
    gaps = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    step = float(np.median(gaps.min(axis=1)))          # neighbours: sqrt(3) R apart
    unit, pitch = step / 2, step * SQRT3 / 2            # half a width; a row's height
    anchor = pts[np.argmin(np.hypot(*(pts - np.median(pts, axis=0)).T))]
    across = np.rint((pts[:, 0] - anchor[0]) / unit).astype(int)
    down = np.rint((pts[:, 1] - anchor[1]) / pitch).astype(int)
    off = (np.abs(pts[:, 0] - anchor[0] - across * unit) > 0.3 * unit) | (
        np.abs(pts[:, 1] - anchor[1] - down * pitch) > 0.3 * unit) | ((across + down) % 2 == 1)
    if off.any():
        k = int(np.argmax(off))
        raise UnsurePicture(path, None, _box([blobs[k]]),
                            f"a hexagon at x {pts[k, 0]:.0f}, y {pts[k, 1]:.0f}, off the "
                            f"lattice of the others ({step:.1f} pixels apart)")
    # the lattice fitted to every cell found
    unit, x0 = np.polyfit(across, pts[:, 0], 1) if len(set(across)) > 1 else (unit, anchor[0])
    pitch, y0 = np.polyfit(down, pts[:, 1], 1) if len(set(down)) > 1 else (pitch, anchor[1])
    radius = float(unit * 2 / SQRT3)
    top, rows = int(down.min()), int(down.max() - down.min() + 1)
    if rows % 2 == 0:
        raise UnsurePicture(path, None, _box(blobs), f"hexagons in {rows} rows: a hexagonal "
                                                     f"board has an odd number")
    geom = HexGrid((rows + 1) // 2)
    # the board's left end (doubled columns) from every cell's row: each lies
    # between its row's first and last cell
    low = max(int(a) - geom.indent(int(d) - top) - 2 * (geom.row_length(int(d) - top) - 1)
              for a, d in zip(across, down))
    high = min(int(a) - geom.indent(int(d) - top) for a, d in zip(across, down))
    fits = []
    for left in range(low, high + 1):
        centres = {(r, i): (float(x0 + (left + geom.indent(r) + 2 * i) * unit),
                            float(y0 + (top + r) * pitch))
                   for r, i in geom.cells}
        if all(((a - left - geom.indent(d - top)) % 2 == 0) for a, d in zip(across, down)) \
                and _bordered(grey, centres, geom, radius):
            fits.append(centres)
    if len(fits) != 1:
        raise UnsurePicture(path, None, _box(blobs), (
            f"no hexagon of side {geom.side} with the board's thick border around "
            f"the {len(blobs)} cells found" if not fits else
            f"{len(fits)} places for a side-{geom.side} board fit the cells found"))
    return geom.side, fits[0], radius


def _bordered(grey: np.ndarray, centres: dict, geom: HexGrid, radius: float) -> bool:
    """Whether the board's edge is dark ink (pzc draws it thick) and the
    lines between its cells are not: the board is neither larger nor
    smaller than these cells.  Each side is looked for across the middle
    of the way to the next cell's centre (a lattice a pixel off still
    crosses it)."""
    unit = radius * SQRT3 / 2
    for (r, i), (x, y) in centres.items():
        inside = set(geom.neighbours((r, i)))
        for dx, dy in ((2, 0), (-2, 0), (1, -1.5), (-1, -1.5), (1, 1.5), (-1, 1.5)):
            darkest = 255
            for t in np.linspace(0.38, 0.62, 9):
                px = int(round(x + dx * unit * t))
                py = int(round(y + dy * radius * t))
                if not (1 <= px < grey.shape[1] - 1 and 1 <= py < grey.shape[0] - 1):
                    return False
                darkest = min(darkest, int(grey[py - 1:py + 2, px - 1:px + 2].min()))
            beyond = _beside(geom, (r, i), dx, dy)
            if (darkest < BORDER) != (beyond not in inside):
                return False
    return True


def _beside(geom: HexGrid, cell, dx, dy):
    """The cell a half step (dx doubled columns, dy rows: 1.5 per row) away."""
    r, i = cell
    rr = r + int(np.sign(dy))
    if not 0 <= rr < geom.height:
        return None
    doubled = geom.indent(r) + 2 * i + dx
    k, odd = divmod(doubled - geom.indent(rr), 2)
    return (rr, k) if not odd and 0 <= k < geom.row_length(rr) else None


def clue_digits(spec) -> str:
    """The digits a cell may hold: those of the board's `clues: LOW..HIGH`
    range (fewer classes: a faster and surer reading), else all ten."""
    for option in spec.board.options:
        value = option.value
        ends = (value.low, value.high) if isinstance(value, syntax.Range) else ()
        if option.name == "clues" and ends and all(
                isinstance(end, syntax.Num) and 0 <= end.value <= 9 for end in ends):
            return "".join(str(d) for d in range(value.low.value, value.high.value + 1))
    return "0123456789"


def read_cell(grey: np.ndarray, centre, radius: float, cell, path: str, reader,
              alphabet: str = "0123456789") -> str:
    """The cell's token in the hex text format: '.' or a digit, '+' before
    it when the cell is shaded."""
    x, y = centre
    mask = np.zeros(grey.shape, np.uint8)
    inner = radius * _INNER
    corners = np.array([(x + inner * np.cos(np.radians(a)), y + inner * np.sin(np.radians(a)))
                        for a in (-90, -30, 30, 90, 150, 210)], np.int32)
    cv2.fillConvexPoly(mask, corners, 1)
    inside = mask.astype(bool)
    values = grey[inside]
    ink = inside & (grey < INK)
    background = values[values >= INK]
    shade = float(np.median(background)) if background.size else 0.0
    box = _cell_box(x, y, radius)
    if shade >= PAPER - 5:
        prefix = ""
    elif SHADE_BAND[0] - 10 <= shade <= SHADE_BAND[1]:
        prefix = "+"
    else:
        raise UnsurePicture(path, cell, box, f"a background of grey {shade:.0f}, neither paper "
                                             f"nor a light shade")
    ink_share = ink.sum() / max(1, inside.sum())
    if ink_share < 0.01:
        return prefix + "."
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, y0 = max(0, x0), max(0, y0)
    reading = reader.read(ink[y0:y1 + 1, x0:x1 + 1], alphabet=alphabet)
    if reading.unsure or len(reading.text) != 1:
        raise UnsurePicture(path, cell, box, f"ink read as {reading.text!r}"
                            + (f" ({reading.unsure})" if isinstance(reading.unsure, str) else ""))
    return prefix + reading.text


def _cell_box(x, y, radius) -> tuple:
    return (x - radius * SQRT3 / 2, y - radius, x + radius * SQRT3 / 2, y + radius)


def _box(blobs) -> tuple:
    return (min(b.x - b.width / 2 for b in blobs), min(b.y - b.height / 2 for b in blobs),
            max(b.x + b.width / 2 for b in blobs), max(b.y + b.height / 2 for b in blobs))
