"""Hexagonal boards (a spec's `board hex(...)`): find the pointy-top hexagons
of a picture, number them as the hex text format does (rows top to bottom,
cells left to right), and read each cell: shaded (locked) or not, empty or
holding a number.

    read_hex_picture(spec, image, path) -> HexPicture(text, centres)

The cells are the light regions the grid lines part: white paper or a light
shade, each a hexagon's shape.  Their rows give the board's side; each
cell's place in its row must fit one lattice (a cell's width apart, rows
half a cell apart sideways), else the picture is no hex board we can read.
Whatever is not clear is an UnsurePicture naming the cell and what it saw.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...board.geometry import HexGrid
from .errors import UnsurePicture

SQRT3 = 3 ** 0.5
# a pointy-top hexagon of circumradius R fills 3/4 of its bounding box,
# which is sqrt(3) R wide and 2 R high
_HEX_FILL = 0.75
_HEX_ASPECT = SQRT3 / 2
PAPER = 245              # lighter: white paper
SHADE_BAND = (200, 236)  # a shaded cell's grey (pzc's locked cells: 220)
INK = 128                # darker: ink (numbers, lines)
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
    default).  ``spec`` says the board is hex; its cells' numbers are read
    as digits."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    blobs = _cell_blobs(grey, path)
    rows = _rows(blobs, grey, path)
    side = (len(rows) + 1) // 2
    geom = HexGrid(side)
    centres, radius = _lattice(rows, geom, grey, path)
    if reader is None:
        from .glyphs import glyph_reader
        reader = glyph_reader()
    cells = {}
    for cell, (x, y) in centres.items():
        cells[cell] = read_cell(grey, (x, y), radius, cell, path, reader)
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


def _rows(blobs: list, grey, path: str) -> list:
    """The cells in rows, top to bottom, each sorted left to right; the
    rows' count and lengths must be a hexagon's."""
    blobs = sorted(blobs, key=lambda b: b.y)
    pitch = float(np.median([b.height for b in blobs])) * 0.75   # rows are 1.5 R apart
    rows = [[blobs[0]]]
    for b in blobs[1:]:
        if b.y - rows[-1][-1].y > pitch / 2:
            rows.append([])
        rows[-1].append(b)
    rows = [sorted(row, key=lambda b: b.x) for row in rows]
    lengths = [len(row) for row in rows]
    side = (len(rows) + 1) // 2
    want = [HexGrid(side).row_length(r) for r in range(2 * side - 1)] if len(rows) % 2 else None
    if want != lengths:
        box = _box(blobs)
        raise UnsurePicture(path, None, box, f"hexagons in rows of {lengths}, which is no "
                                             f"hexagonal board's (side n: rows of n, n+1, ... "
                                             f"2n-1, ... n cells)")
    return rows


def _lattice(rows: list, geom: HexGrid, grey, path: str) -> tuple:
    """Each cell's centre, checked against one lattice: x = x0 + (indent + 2 i) u,
    y = y0 + 1.5 R r with u = sqrt(3)/2 R.  A cell far from it is unsure."""
    xs, ys, steps, levels = [], [], [], []
    for r, row in enumerate(rows):
        for i, b in enumerate(row):
            xs.append(b.x)
            ys.append(b.y)
            steps.append(geom.indent(r) + 2 * i)
            levels.append(r)
    steps, levels = np.array(steps, float), np.array(levels, float)
    unit, x0 = np.polyfit(steps, xs, 1) if len(set(steps)) > 1 else (rows[0][0].width / 2, xs[0])
    pitch, y0 = np.polyfit(levels, ys, 1) if len(rows) > 1 else (1.5 * rows[0][0].height / 2, ys[0])
    radius = unit * 2 / SQRT3
    if len(rows) > 1 and abs(pitch - 1.5 * radius) > 0.08 * radius:
        raise UnsurePicture(path, None, _box([b for row in rows for b in row]),
                            f"rows {pitch:.1f} pixels apart for hexagons {2 * unit:.1f} wide: "
                            f"not a hexagonal lattice")
    centres = {}
    for r, row in enumerate(rows):
        for i, b in enumerate(row):
            x = x0 + (geom.indent(r) + 2 * i) * unit
            y = y0 + pitch * r
            if abs(b.x - x) > 0.2 * unit or abs(b.y - y) > 0.2 * unit:
                raise UnsurePicture(path, (r, i), _cell_box(x, y, radius),
                                    f"a hexagon at x {b.x:.0f}, y {b.y:.0f}, off the lattice")
            centres[(r, i)] = (float(x), float(y))
    return centres, float(radius)


def read_cell(grey: np.ndarray, centre, radius: float, cell, path: str, reader) -> str:
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
    reading = reader.read(ink[y0:y1 + 1, x0:x1 + 1], alphabet="0123456789")
    if reading.unsure or len(reading.text) != 1:
        raise UnsurePicture(path, cell, box, f"ink read as {reading.text!r}"
                            + (f" ({reading.unsure})" if isinstance(reading.unsure, str) else ""))
    return prefix + reading.text


def _cell_box(x, y, radius) -> tuple:
    return (x - radius * SQRT3 / 2, y - radius, x + radius * SQRT3 / 2, y + radius)


def _box(blobs) -> tuple:
    return (min(b.x - b.width / 2 for b in blobs), min(b.y - b.height / 2 for b in blobs),
            max(b.x + b.width / 2 for b in blobs), max(b.y + b.height / 2 for b in blobs))
