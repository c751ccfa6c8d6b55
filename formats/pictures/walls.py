"""Which lines of a square board in a picture are walls (thick) and which
grid lines (thin).

Each line's ink is summed across it (darkness, so antialiasing and blur
count as the ink they spread), the median of several places along it; the
two kinds are told apart over the whole board at once, at a ratio between
the lines' ink that must stand out, else the line is UnsurePicture:

    ink of the board's lines: 0.8 0.8 ... 1.6 1.6 | 4.0 4.0 5.0   -> split at |
    ink of the board's lines: 1 1 2 2 3 3 4 4                     -> unsure
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import UnsurePicture
from .squaregrid import SquareBoard


@dataclass
class Borders:
    """The board's thick borders: ``vertical[(r, c)]`` between (r, c) and
    (r, c + 1), ``horizontal[(r, c)]`` between (r, c) and (r + 1, c)."""
    vertical: dict
    horizontal: dict


def darkness(grey: np.ndarray) -> np.ndarray:
    """0 for paper .. 1 for black, per pixel (a blur spreads a line's
    darkness but keeps its sum)."""
    return (255.0 - grey.astype(np.float32)) / 255.0


def edge_ink(board: SquareBoard, ink: np.ndarray, a: tuple, b: tuple) -> float:
    """The ink across the line between neighbouring cells a and b: the sum
    of ``ink`` (darkness(grey)) over a window across the line, the median of
    several places along it (text near the line counts at one)."""
    (r, c), (r2, _) = a, b
    half = max(2, int(round(0.18 * board.cell)))
    sums = []
    for t in np.linspace(0.2, 0.8, 7):
        if r == r2:          # a vertical line
            x = int(round(board.left + (c + 1) * board.cell_w))
            y = int(round(board.top + (r + t) * board.cell_h))
            sums.append(ink[y, max(x - half, 0):x + half + 1].sum())
        else:
            x = int(round(board.left + (c + t) * board.cell_w))
            y = int(round(board.top + (r + 1) * board.cell_h))
            sums.append(ink[max(y - half, 0):y + half + 1, x].sum())
    return float(np.median(sums))


def find_borders(board: SquareBoard, grey: np.ndarray, path: str, skip=frozenset()) -> Borders:
    """Which inner lines are thick.  Thin and thick are told apart over the
    board: the frame's ink is thick's measure, the thinnest lines thin's; a
    line between the two kinds is UnsurePicture.  Lines next to a cell in
    ``skip`` (black cells, where ink is everywhere) count as thin."""
    edges = []
    for r in range(board.rows):
        for c in range(board.cols):
            if c + 1 < board.cols:
                edges.append(((r, c), (r, c + 1)))
            if r + 1 < board.rows:
                edges.append(((r, c), (r + 1, c)))
    ink = darkness(grey)
    measured = {e: edge_ink(board, ink, *e) for e in edges
                if e[0] not in skip and e[1] not in skip}
    vertical, horizontal = {}, {}
    cut, unsure = _line_cut(sorted(measured.values()), frame_ink(board, ink))
    for (a, b), v in measured.items():
        if unsure is not None and unsure[0] < v < unsure[1]:
            raise UnsurePicture(path, (a, b), _edge_box(board, a, b),
                                f"a line neither thin nor thick (ink {v:.1f}; thin lines "
                                f"have up to {unsure[0]:.1f}, thick ones from {unsure[1]:.1f})")
        (vertical if a[0] == b[0] else horizontal)[a] = cut is not None and v >= cut
    for e in edges:
        if e not in measured:
            (vertical if e[0][0] == e[1][0] else horizontal)[e[0]] = False
    return Borders(vertical, horizontal)


def frame_ink(board: SquareBoard, ink: np.ndarray) -> float:
    """The ink across the frame's left side (0 without a frame): the darkness
    summed from a little outside the board to a little inside, the median of
    several rows; a blur spreads it but keeps its sum."""
    if not board.frame:
        return 0.0
    x = int(round(board.left))
    lo, hi = max(x - int(round(0.3 * board.cell)), 0), x + int(round(0.1 * board.cell)) + 1
    sums = [ink[int(round(board.top + t * board.rows * board.cell_h)), lo:hi].sum()
            for t in np.linspace(0.1, 0.9, 9)]
    return float(np.median(sums))


def _line_cut(values: list, frame: float = 0.0) -> tuple:
    """(cut, unsure): lines with at least ``cut`` ink are thick (None: every
    line is thin, a board with no walls drawn).  The two kinds are split
    between neighbouring values at a clear ratio that stands out:
    a line's ink is quantized by the pixels it falls on (a 1.3 pixel line
    covers 1 or 2), so each kind spreads, but a wall holds well over twice a
    grid line's ink, and about as much as the frame (``frame``: its ink, 0
    for none).  ``unsure``: the open range (thin's top, thick's bottom)
    where no line should fall, None when there is no doubt."""
    if len(values) < 2:
        return None, None
    raw = np.array(values)
    v = np.maximum(raw, 0.2)
    ratios = v[1:] / v[:-1]
    # no split under the ink of a pixel wide black line, or well under the
    # frame's (no wall is that thin; grid lines too faint to draw at a small
    # zoom leave none, and the visible ones must not be taken for walls)
    ratios[v[1:] < max(1.5, 0.45 * frame)] = 0
    gaps = v[1:] - v[:-1]
    # the split: the clear ratio parting the most ink; it must stand out,
    # by ratio or by ink, from every other ratio that could be one (with
    # lines of 1, 2, 3 and 4 pixels, grid lines of 1 or 2 and walls of 3 or
    # 4, or walls of 2 or 3, none does)
    if (ratios >= 1.8).any():
        i = int(np.argmax(np.where(ratios >= 1.8, ratios * gaps, -1.0)))
        valid = ratios >= 1.25         # any clear jump between two values
        valid[i] = False
        if not valid.any() or ratios[i] >= 1.6 * ratios[valid].max() or \
                gaps[i] >= 1.6 * gaps[valid].max():
            return float((v[i] * v[i + 1]) ** 0.5), None
    visible = v[raw >= 0.1]
    if not len(visible) or visible[-1] < max(1.5, 2.2 * visible[0] + 0.3):
        return None, None           # all alike: thin
    # walls and grid lines without a clear gap between them
    return None, (float(visible[0]) * 1.3, float(visible[-1]) / 1.3)


def _edge_box(board: SquareBoard, a, b):
    xa0, ya0, xa1, ya1 = board.box(*a)
    xb0, yb0, xb1, yb1 = board.box(*b)
    return (min(xa0, xb0), min(ya0, yb0), max(xa1, xb1), max(ya1, yb1))
