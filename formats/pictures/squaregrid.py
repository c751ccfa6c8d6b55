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

# an inner line is ink along at least this much more of the board than the
# pixels a little to one side of it (dashed lines are about half ink)
LINE_SHARE = 0.08
MIN_CELL = 8            # pixels: smaller cells are no board pzc can read
MAX_CELLS = 80          # columns or rows


@dataclass
class SquareBoard:
    """Where a square board lies in a picture.

    ``left``, ``top``: the pixel position of the board's outer corner (the
    middle of the frame line); ``cell_w``, ``cell_h``: a cell's size in
    pixels; ``rows``, ``cols``; ``frame``: the frame line's width in pixels
    (0 when the board has no frame)."""
    left: float
    top: float
    cell_w: float
    cell_h: float
    rows: int
    cols: int
    frame: float

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


def ink_mask(grey: np.ndarray, threshold: int = 210) -> np.ndarray:
    """Pixels darker than ``threshold`` (grid lines are often mid or light
    grey, and fainter still when drawn small)."""
    return grey < threshold


def find_square_board(grey: np.ndarray, path: str) -> SquareBoard:
    """The square board in a grey picture (white paper, dark ink)."""
    ink = ink_mask(grey)
    box = _frame_box(ink)
    if box is None:
        # no frame: a board of dots at the cells' corners (Slitherlink's), or
        # of lines alone (the outermost ones are its edges)
        fit = _square(_dots_along(ink, 0, 6.0), _dots_along(ink, 1, 6.0)) or \
            _square(_lines_along(ink, 0, 1.0, framed=False), _lines_along(ink, 1, 1.0, framed=False))
        if fit is None:
            raise PzcError("found no board in the picture (no frame, grid lines or dots)",
                           file=path)
        x0 = y0 = 0
        frame = 0.0
        inner = ink
    else:
        x0, y0, x1, y1 = box
        frame = _frame_width(ink, box)
        whole = ink[y0:y1 + 1, x0:x1 + 1]
        # filled shapes (black cells, black circles) are no lines: take them out
        size = int(2 * frame + 1)
        filled = cv2.morphologyEx(whole.astype(np.uint8), cv2.MORPH_OPEN,
                                  np.ones((size, size), np.uint8))
        # with their antialiased rims
        filled = cv2.dilate(filled, np.ones((5, 5), np.uint8)).astype(bool)
        inner = whole & ~filled
        across, down = _lines_along(inner, 0, frame), _lines_along(inner, 1, frame)
        fit = _square(across, down)
        if fit is None:
            found = (f"lines for {across[0][3]} columns and {down[0][3]} rows, not square"
                     if across and down else "no rows and columns of cells inside it")
            raise PzcError(f"found a frame at pixels x {x0}-{x1}, y {y0}-{y1} but {found}",
                           file=path)
    (left, cell_w, cols), (top, cell_h, rows) = fit
    board = SquareBoard(x0 + left, y0 + top, cell_w, cell_h, rows, cols, frame)
    if box is None:
        _nothing_outside(ink, board, path)
    return board


def _nothing_outside(ink: np.ndarray, board: SquareBoard, path: str) -> None:
    """A board without a frame ends at its outermost lines or dots, which a
    picture may draw too faintly to find: then clues lie outside the board
    found, and that is an error, not a smaller board."""
    h, w = ink.shape
    margin = 0.3 * board.cell
    x0, y0 = board.left - margin, board.top - margin
    x1 = board.left + board.cols * board.cell_w + margin
    y1 = board.top + board.rows * board.cell_h + margin
    outside = ink.copy()
    outside[max(int(y0), 0):max(int(y1) + 1, 0), max(int(x0), 0):max(int(x1) + 1, 0)] = False
    count, _, stats, _ = cv2.connectedComponentsWithStats(outside.astype(np.uint8), 8)
    for k in range(1, count):
        x, y, bw, bh, area = stats[k]
        if area >= 4:
            raise PzcError(f"found a board of {board.rows} rows and {board.cols} columns without "
                           f"a frame, but marks outside it at pixels x {x}-{x + bw - 1}, "
                           f"y {y}-{y + bh - 1}: its outermost lines may be too faint to "
                           f"find", file=path)


def _square(across: list, down: list):
    """The best pair of lattices across and down whose cells are square:
    ((left, width, columns), (top, height, rows)), or None."""
    pairs = [(a[0] + d[0], a, d) for a in across for d in down
             if abs(a[2] - d[2]) <= 0.12 * max(a[2], d[2])]
    if not pairs:
        return None
    _, a, d = max(pairs, key=lambda p: p[0])
    return a[1:], d[1:]


def _frame_box(ink: np.ndarray):
    """The bounding box (x0, y0, x1, y1) of the largest connected dark shape
    that looks like a frame: ink all along the four sides of its box."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    best = None
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if w < 3 * MIN_CELL or h < 3 * MIN_CELL:
            continue
        shape = labels[y:y + h, x:x + w] == k
        sides = [shape[:3].any(axis=0).mean(), shape[-3:].any(axis=0).mean(),
                 shape[:, :3].any(axis=1).mean(), shape[:, -3:].any(axis=1).mean()]
        if min(sides) < 0.9:
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


def _fit_lattice(found: list, start: float, end: float, tolerance: float,
                 crossings=None, strength=None) -> list:
    """Candidate (score, edge, step, count) lattices, best first: ``count``
    equally spaced cells between ``start`` and ``end`` (the board's outer
    edges, roughly) explaining the line positions ``found``.  A count scores
    the lines it predicts that were found, less those it predicts that were
    not (a line too faint to draw at a small zoom), the found ones it leaves
    unexplained (a digit's stem, a stray mark) and (``crossings(positions)``)
    the marks its lines would cut through (a digit is drawn inside its
    cell); each candidate's edge and step are fitted to its matched lines
    (``strength``: each found line's, the strongest taken where several are
    near one of the lattice's lines)."""
    order = np.argsort(found)
    found = np.array(found, dtype=float)[order]
    strength = np.ones(len(found)) if strength is None else np.array(strength, float)[order]
    length = end - start
    out = []
    for count in range(1, min(MAX_CELLS, int(length / MIN_CELL)) + 1):
        step = length / count
        tol = max(tolerance, 0.12 * step)
        predicted = start + step * np.arange(0, count + 1)
        if len(found):
            near = np.abs(found[:, None] - predicted[None, :])
            matched_found = near.min(axis=1) <= tol
            matched_line = near.min(axis=0) <= tol
        else:
            matched_found = np.zeros(0, bool)
            matched_line = np.zeros(count + 1, bool)
        inner = matched_line[1:-1]
        if count > 1 and inner.mean() < 0.6:
            continue
        score = 2 * inner.sum() - (~inner).sum() * 2 - (~matched_found).sum()
        if crossings is not None:
            score -= 3 * crossings(predicted[1:-1])
        edge, fitted = _refine(found, strength, start, step, count, tolerance)
        out.append((float(score), edge, fitted, count))
    out.sort(key=lambda c: -c[0])
    return out[:6]


def _refine(found, strength, start, step, count, tolerance) -> tuple:
    """(edge, step) fitted by least squares to the strongest found line near
    each of a lattice's lines, twice: first within a loose reach, then, from
    that fit, only lines within a pixel or two (a circle's rim beside a line
    must not pull it)."""
    edge = start
    # faint marks (a circle's rim, a digit's stem) only where no clear line is
    strong = strength >= 0.5 * strength.max() if len(strength) else strength
    if strong.sum() >= 2:
        found, strength = found[strong], strength[strong]
    for reach in (max(tolerance, 0.12 * step), max(1.5, 0.05 * step)):
        nearest = {}
        for x, strong in zip(found, strength):
            k = int(round((x - edge) / step))
            miss = abs(x - (edge + k * step))
            if 0 <= k <= count and miss <= reach and (k not in nearest or strong > nearest[k][0]):
                nearest[k] = (strong, x)
        if len(nearest) < 2:
            break
        index = sorted(nearest)
        step, edge = np.polyfit(np.array(index, dtype=float), [nearest[k][1] for k in index], 1)
    return float(edge), float(step)


def _lines_along(inner: np.ndarray, axis: int, frame: float, framed: bool = True):
    """(board edge, cell size, cell count) along an axis (0: across, from the
    vertical lines), from the columns of pixels that are ink along much of
    the board while the columns a little to one side are not (a line is
    narrow); a digit's stem may look the same, but the lines of the count
    taken do not cut through the marks (digits lie inside their cells).
    Without a frame (``framed`` false) the outermost lines are the edges.
    None when no inner line is found."""
    share = inner.mean(axis=axis)
    d = int(max(3, round(frame) + 2))
    padded = np.pad(share, d, mode="edge")
    beside = np.minimum(padded[:-2 * d], padded[2 * d:])
    signal = share - beside
    runs = _runs(signal >= LINE_SHARE)
    length = inner.shape[1 - axis]
    margin = frame + 1 if framed else -1
    kept = [(a, b) for a, b in runs if a > margin and b < length - margin]
    lines = [(a + b - 1) / 2 for a, b in kept]
    strength = [float(signal[a:b].max()) for a, b in kept]
    if len(lines) < (1 if framed else 3):
        return []
    # the marks between the lines (digits, circles): ink that is not part of
    # a long straight line, nor a dash (one or two pixels thin)
    long = max(2 * MIN_CELL, length // 4)
    inked = inner.astype(np.uint8)
    straight = cv2.morphologyEx(inked, cv2.MORPH_OPEN, np.ones((long, 1), np.uint8)) | \
        cv2.morphologyEx(inked, cv2.MORPH_OPEN, np.ones((1, long), np.uint8))
    marks = inked & (1 - straight)
    count, _, stats, _ = cv2.connectedComponentsWithStats(marks, 8)
    spans = [(stats[k][axis], stats[k][axis] + stats[k][2 + axis] - 1)
             for k in range(1, count) if min(stats[k][2], stats[k][3]) >= 3]
    spans = np.array(spans, dtype=float).reshape(-1, 2)

    def crossings(positions) -> int:
        if not len(spans):
            return 0
        cut = (spans[:, 0:1] < positions[None, :] - 2) & (spans[:, 1:2] > positions[None, :] + 2)
        return int(cut.any(axis=1).sum())

    # the board's edges: the frame's middle, refined by the fit
    start, end = (frame / 2, length - frame / 2) if framed else (lines[0], lines[-1])
    fits = [f for f in _fit_lattice(lines, start, end, 2.0, crossings, strength) if f[3] >= 2]
    if not framed:
        # no frame to vouch for it: every line of the board is long (a row of
        # circles' edges is not)
        fits = [(score, edge, step, count) for score, edge, step, count in fits
                if min(share[max(x - 1, 0):x + 2].max(initial=0) for x in
                       (int(round(edge + k * step)) for k in range(count + 1))) >= 0.3]
    return fits


def _dots_along(inner: np.ndarray, axis: int, frame: float):
    """The same from dots at the corners of cells (no inner lines): small
    filled shapes all alike; the outermost dots are the board's corners."""
    count, _, stats, centroids = cv2.connectedComponentsWithStats(inner.astype(np.uint8), 8)
    # dots: small filled shapes about as wide as high (digits are neither)
    small = [k for k in range(1, count) if max(stats[k][2], stats[k][3]) <= max(2 * frame, 6)
             and abs(int(stats[k][2]) - int(stats[k][3])) <= 1
             and stats[k][4] >= 0.45 * stats[k][2] * stats[k][3]]
    if len(small) < 4:
        return []
    areas = np.array([stats[k][4] for k in small])
    usual = np.median(areas)
    dots = [k for k in small if 0.5 * usual <= stats[k][4] <= 2 * usual]
    positions = np.sort(np.array([centroids[k][axis] for k in dots]))
    # dots in one line of the lattice share a position
    lines = []
    for p in positions:
        if lines and p - lines[-1][-1] <= 2:
            lines[-1].append(p)
        else:
            lines.append([p])
    lines = [float(np.mean(c)) for c in lines if len(c) >= 2]
    if len(lines) < 2:
        return []
    return _fit_lattice(lines, lines[0], lines[-1], 1.5)
