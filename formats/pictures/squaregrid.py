"""Finding a square board in a picture: its outer frame, its rows and columns.

A board as puzz.link, pzc and most apps draw it: a dark frame (or the
outermost grid lines) around cells separated by thin lines, which may be
grey, dashed or dotted (only dots at the corners, as Slitherlink's).  The
frame is the largest dark shape of the picture; inside it, a line between
cells is a column (or row) of pixels that is ink along most of the board's
height (width), so counting columns is choosing the number of equal cells
whose every inner line is such a column:

    ink fraction per column x:  |..:..|..:..|   -> 2 columns, not 4
                                 ^frame ^line

Dots only (no lines): the dots' centres are the corners; the same count
works on a picture of their positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...runtime.errors import PzcError

# an inner line is ink along at least this share of the board (dashed lines
# are about half ink; a column of digits' strokes stays well below)
LINE_SHARE = 0.42
MIN_CELL = 8            # pixels: smaller cells are no board pzc can read
MAX_CELLS = 80          # columns or rows


@dataclass
class SquareBoard:
    """Where a square board lies in a picture.

    ``left``, ``top``: the pixel position of the board's outer corner (the
    middle of the frame line); ``cell_w``, ``cell_h``: a cell's size in
    pixels; ``rows``, ``cols``; ``frame``: the frame line's width in pixels
    (the thin lines' width when the board has no frame)."""
    left: float
    top: float
    cell_w: float
    cell_h: float
    rows: int
    cols: int
    frame: float
    line: float

    def box(self, r: int, c: int) -> tuple:
        """Cell (r, c)'s pixels (x0, y0, x1, y1), lines included."""
        x0 = self.left + c * self.cell_w
        y0 = self.top + r * self.cell_h
        return (x0, y0, x0 + self.cell_w, y0 + self.cell_h)

    def centre(self, r: int, c: int) -> tuple:
        x0, y0, x1, y1 = self.box(r, c)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def cell(self) -> float:
        return (self.cell_w + self.cell_h) / 2


def ink_mask(grey: np.ndarray, threshold: int = 170) -> np.ndarray:
    """Pixels darker than ``threshold`` (grid lines are often mid grey)."""
    return grey < threshold


def find_square_board(grey: np.ndarray, path: str) -> SquareBoard:
    """The square board in a grey picture (white paper, dark ink)."""
    ink = ink_mask(grey)
    box = _frame_box(ink)
    if box is None:
        raise PzcError("found no board in the picture (no dark frame or grid lines)", file=path)
    x0, y0, x1, y1 = box
    frame = _frame_width(ink, box)
    inner = ink[y0:y1 + 1, x0:x1 + 1]
    # filled shapes (black cells, black circles) are no lines: take them out
    size = int(2 * frame + 1)
    filled = cv2.morphologyEx(inner.astype(np.uint8), cv2.MORPH_OPEN,
                              np.ones((size, size), np.uint8)).astype(bool)
    inner = inner & ~filled
    across = _lines_along(inner, 0, frame) or _dots_along(inner, 0, frame)
    down = _lines_along(inner, 1, frame) or _dots_along(inner, 1, frame)
    if across is None or down is None:
        raise PzcError(f"found a frame at pixels x {x0}-{x1}, y {y0}-{y1} but no rows and "
                       f"columns of cells inside it", file=path)
    (left, cell_w, cols), (top, cell_h, rows) = across, down
    if abs(cell_w - cell_h) > 0.12 * max(cell_w, cell_h):
        raise PzcError(f"the board's cells are not square: {cols} columns of {cell_w:.1f} "
                       f"pixels, {rows} rows of {cell_h:.1f}", file=path)
    return SquareBoard(x0 + left, y0 + top, cell_w, cell_h, rows, cols, frame,
                       _line_width(inner, cols, rows, frame))


def _frame_box(ink: np.ndarray):
    """The bounding box (x0, y0, x1, y1) of the largest connected dark shape
    that looks like a frame (its box is mostly empty inside)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    best = None
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if w < 3 * MIN_CELL or h < 3 * MIN_CELL:
            continue
        if best is None or w * h > best[2] * best[3]:
            best = (x, y, w, h)
    if best is None:
        return None
    x, y, w, h = best
    return (x, y, x + w - 1, y + h - 1)


def _frame_width(ink: np.ndarray, box) -> float:
    """The frame line's width: the median run of ink from each side inwards."""
    x0, y0, x1, y1 = box
    runs = []
    for t in np.linspace(0.15, 0.85, 15):
        y = int(y0 + t * (y1 - y0))
        x = int(x0 + t * (x1 - x0))
        runs += [_run(ink[y, x0:x1 + 1]), _run(ink[y, x0:x1 + 1][::-1]),
                 _run(ink[y0:y1 + 1, x]), _run(ink[y0:y1 + 1, x][::-1])]
    return float(np.median(runs)) or 1.0


def _run(values) -> int:
    """How many leading entries are true."""
    off = np.flatnonzero(~values)
    return int(off[0]) if len(off) else len(values)


def _runs(flags: np.ndarray) -> list:
    """(start, end) of each run of true entries, end exclusive."""
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


def _spacing(centres: list, length: float):
    """(first line, step, count) of equally spaced lines from their centres
    (some may be missing), the board spanning ``length`` pixels; None when
    they are not equally spaced."""
    if len(centres) < 2:
        return None
    gaps = np.diff(centres)
    step = float(np.min(gaps))
    if step < MIN_CELL:
        return None
    # the step is the smallest gap, refined over all lines by their index
    index = np.round((np.array(centres) - centres[0]) / step)
    if len(centres) > 1 and index[-1] > 0:
        step = float((centres[-1] - centres[0]) / index[-1])
    if np.max(np.abs(centres[0] + index * step - centres)) > max(2.0, 0.12 * step):
        return None
    before = round((centres[0]) / step)
    count = int(round(length / step))
    first = centres[0] - before * step
    return first, step, count


def _lines_along(inner: np.ndarray, axis: int, frame: float):
    """(board edge, cell size, cell count) along an axis (0: across, from
    vertical lines), from the columns of pixels that are ink along most of
    the board: the frame's two sides and the inner lines; None when there
    are no inner lines."""
    share = inner.mean(axis=axis)
    runs = _runs(share >= LINE_SHARE)
    if len(runs) < 3:
        return None
    # the frame's two sides are the outermost runs; the board's edges lie
    # on them, inside by a line's half width
    lines = [(a + b - 1) / 2 for a, b in runs[1:-1]]
    outer_a, outer_b = runs[0], runs[-1]
    length = inner.shape[1 - axis]
    found = _spacing(lines, length)
    if found is None:
        return None
    first, step, _ = found
    # the edges: the frame's runs hold them (a frame may be drawn outside the cells)
    lo = first
    while lo - step > outer_a[1] - 1 - 0.5 * step:
        lo -= step
    count = int(round((outer_b[0] - lo) / step))
    if count < 2 or abs(lo + count * step - (outer_b[0] + outer_b[1] - 1) / 2) > step * 0.5:
        return None
    return lo, step, count


def _dots_along(inner: np.ndarray, axis: int, frame: float):
    """The same from dots at the corners of cells (no inner lines): small
    shapes all alike whose centres are equally spaced."""
    count, _, stats, centroids = cv2.connectedComponentsWithStats(inner.astype(np.uint8), 8)
    sizes = [(stats[k][2], stats[k][3]) for k in range(1, count)]
    if not sizes:
        return None
    # dots: small filled shapes about as wide as high (digits are neither)
    small = [k for k in range(1, count) if max(stats[k][2], stats[k][3]) <= max(2 * frame, 6)
             and abs(int(stats[k][2]) - int(stats[k][3])) <= 1
             and stats[k][4] >= 0.6 * stats[k][2] * stats[k][3] and stats[k][4] >= 2]
    if len(small) < 4:
        return None
    areas = np.array([stats[k][4] for k in small])
    usual = np.median(areas)
    dots = [centroids[k][axis] for k in small if 0.5 * usual <= stats[k][4] <= 2 * usual]
    positions = np.sort(np.array(dots))
    # cluster positions into lines
    centres = []
    for p in positions:
        if centres and p - centres[-1][-1] <= 2:
            centres[-1].append(p)
        else:
            centres.append([p])
    lines = [float(np.mean(c)) for c in centres if len(c) >= 2]
    if len(lines) < 2:
        return None
    found = _spacing(lines, inner.shape[1 - axis])
    if found is None:
        return None
    # the outermost dots are the board's corners
    step = found[1]
    count = int(round((lines[-1] - lines[0]) / step))
    return (lines[0], step, count) if count >= 1 else None


def _line_width(inner: np.ndarray, cols: int, rows: int, frame: float) -> float:
    """The thin lines' width: the ink run across the first inner vertical line."""
    if cols < 2:
        return max(1.0, frame / 3)
    h, w = inner.shape
    x = int(round(w / cols))
    widths = []
    for t in np.linspace(0.1, 0.9, 9):
        y = int(t * (h - 1))
        row = inner[y]
        lo = x
        while lo > 0 and row[lo - 1]:
            lo -= 1
        hi = x
        while hi < w - 1 and row[hi + 1]:
            hi += 1
        if row[x]:
            widths.append(hi - lo + 1)
    return float(np.median(widths)) if widths else 1.0
