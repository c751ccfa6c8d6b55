"""What a square board's cells and borders show in a picture.

Each cell is looked at for a few things every puzzle drawing uses, whatever
the genre: its shading (white, grey, black), a circle (white or black) and
its text (a number, '?', a letter), read by the glyph classifier.  Each
border between two cells is thin (a grid line) or thick (a region's wall):
its ink is summed across the line, so antialiasing counts, and the two
kinds are told apart over the whole board at once.

    cell (2, 3):  shade black, no circle, text "2"    -> an Akari wall "2"
    cell (0, 1):  shade white, circle white, text ""  -> a Masyu white pearl
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import UnsurePicture
from .squaregrid import SquareBoard

INSET = 0.12            # of a cell, each side: what is taken for its inside
TEXT_INSET = 0.05       # the same for its text, which may sit in a corner
TEXT_INK = 190          # dark text on paper: darker than this
BLACK = 96              # grey levels: darker is black ink, paper is lighter than
PAPER = 232             # lighter is paper; between the two, grey shading


@dataclass
class CellLook:
    """What one cell shows: ``shade`` "white" | "grey" | "black"; ``circle``
    None | "white" | "black"; ``text`` the glyphs read ("" none); ``ink``:
    the share of the cell's inside that is ink of neither (a mark no reader
    knows, such as a star or an arrow)."""
    shade: str
    circle: str | None
    text: str
    stray: float = 0.0

    @property
    def blank(self) -> bool:
        return self.shade == "white" and self.circle is None and not self.text


def cell_pixels(board: SquareBoard, grey: np.ndarray, r: int, c: int, inset: float = INSET):
    """The grey pixels inside cell (r, c) and their box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = board.box(r, c)
    d = inset * board.cell
    xa, ya = int(round(x0 + d)), int(round(y0 + d))
    xb, yb = int(round(x1 - d)), int(round(y1 - d))
    return grey[max(ya, 0):max(yb, 0), max(xa, 0):max(xb, 0)], (xa, ya, xb, yb)


def look_at_cell(board: SquareBoard, grey: np.ndarray, r: int, c: int, reader,
                 alphabet: str, path: str) -> CellLook:
    """Cell (r, c)'s look; its text read with ``reader`` (glyphs.GlyphReader)
    among ``alphabet``.  A glyph the reader is unsure of is UnsurePicture."""
    inside, box = cell_pixels(board, grey, r, c)
    h, w = inside.shape
    if h < 4 or w < 4:
        raise UnsurePicture(path, (r, c), box, "the cell is too small to read")
    dark = inside < (BLACK + PAPER) // 2
    corners = _corners(dark)
    shade = "white"
    if corners > 0.75:
        shade = "black"
    elif np.median(_corner_pixels(inside)) < PAPER:
        shade = "grey"
    # a circle may reach almost to the lines: looked for in the whole cell
    whole = cell_pixels(board, grey, r, c, 0.0)[0]
    circle, radius = (None, None) if shade == "black" else \
        _circle(whole < (BLACK + PAPER) // 2)
    # the text: from the whole cell but its lines (small numbers sit in a
    # corner), light on black (a black cell or a black circle), else dark
    around, centre = _text_pixels(board, whole, shade == "black")
    reading = None
    # dark text: first a little past half way to paper (a bold glyph's
    # antialiased joints stay joined), then, in a white circle, at half way
    # (a glyph touching the ring comes apart from it).  Only there: a thinner
    # reading of a small glyph elsewhere can be a sure wrong one ('4' as '1')
    for level in ((BLACK + PAPER) // 2,) if shade == "black" or circle == "black" else \
            (TEXT_INK, (BLACK + PAPER) // 2) if circle == "white" else (TEXT_INK,):
        if shade == "black" or circle == "black":
            ink = around > level
            if circle == "black":
                ink = _without_rim_bits(ink & _disc(around.shape, centre, radius * 0.92),
                                        centre, radius, board.cell)
        else:
            ink = around < level
            if circle == "white":
                ink = _without_ring(ink, around < (BLACK + PAPER) // 2, centre, radius,
                                    board.cell)
        reading = reader.read(_without_specks(ink, board.cell), alphabet)
        if not reading.unsure:
            break
    if reading.unsure:
        raise UnsurePicture(path, (r, c), box, reading.unsure)
    return CellLook(shade, circle, reading.text)


def _without_ring(ink: np.ndarray, dark: np.ndarray, centre: tuple, radius: float,
                  cell: float) -> np.ndarray:
    """The ink inside a white circle without the circle: cut where the ring
    begins inside, found along rays from the centre.  Each ray's edge is the
    median of its neighbours' (a glyph touching the ring there does not move
    it), so a circle a pixel off the cell's centre is followed all round.
    The ring is found in ``dark`` (only the darker ink: its antialiased rim
    would widen it), the glyphs are kept from ``ink``."""
    import cv2
    h, w = ink.shape
    cx, cy = centre
    y, x = np.ogrid[:h, :w]
    dist = np.sqrt((x - cx) ** 2 + (y - cy) ** 2)
    outer = radius + max(2.0, 0.08 * cell)
    rays = 48
    edges = np.full(rays, np.nan)
    for k, angle in enumerate(np.linspace(0, 2 * np.pi, rays, endpoint=False)):
        ray = np.arange(outer, 0, -0.5)
        ys = np.round(cy + ray * np.sin(angle)).astype(int)
        xs = np.round(cx + ray * np.cos(angle)).astype(int)
        inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        hits = np.zeros(len(ray), bool)
        hits[inside] = dark[ys[inside], xs[inside]]
        seen = np.flatnonzero(hits)
        if len(seen):
            after = np.flatnonzero(~hits[seen[0]:])
            edges[k] = ray[seen[0] + after[0]] if len(after) else 0.0
    if np.isnan(edges).all():
        edges[:] = radius - 2
    fallback = float(np.nanmedian(edges))
    edges = np.where(np.isnan(edges), fallback, edges)
    # the median of seven neighbouring rays, round the circle
    ring = np.concatenate([edges[-3:], edges, edges[:3]])
    smooth = np.array([np.median(ring[k:k + 7]) for k in range(rays)])
    angle = (np.arctan2(y - cy, x - cx) % (2 * np.pi)) / (2 * np.pi) * rays
    edge_at = smooth[np.round(angle).astype(int) % rays]
    # the ring's antialiased inner rim is uneven: pixels near it stay only
    # when they belong to a shape reaching further in (a glyph's edge)
    core = ink & (dist < edge_at - 2.0)
    near = ink & (dist <= edge_at - 0.5)
    count, labels = cv2.connectedComponents(near.astype(np.uint8), connectivity=8)
    keep = np.zeros(count, bool)
    keep[np.unique(labels[core])] = True
    keep[0] = False
    return _without_rim_bits(keep[labels], centre, radius, cell)


def _without_rim_bits(ink: np.ndarray, centre: tuple, radius: float, cell: float) -> np.ndarray:
    """The ink inside a circle without bits of its rim left over: small
    shapes near the rim are no glyph (a glyph is a good part of the circle's
    height)."""
    import cv2
    out = ink.copy()
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(out.astype(np.uint8), 8)
    for k in range(1, count):
        gx, gy = centroids[k]
        if max(stats[k][2], stats[k][3]) <= 0.2 * cell and \
                np.hypot(gx - centre[0], gy - centre[1]) >= 0.5 * radius:
            out[labels == k] = False
    return out


def _without_specks(ink: np.ndarray, cell: float) -> np.ndarray:
    """The ink without what the cell's lines leave at the crop's border:
    specks (where two walls meet, a line's corner pixel) and strips along a
    whole side (a blurred wall's halo); a glyph is neither."""
    import cv2
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    h, w = ink.shape
    out = ink.copy()
    for k in range(1, count):
        x, y, bw, bh, area = stats[k]
        touches = x == 0 or y == 0 or x + bw == w or y + bh == h
        speck = area <= max(2.0, 0.012 * cell * cell) and max(bw, bh) <= 0.15 * cell
        strip = ((x == 0 or x + bw == w) and bh >= 0.8 * h and bw <= 0.2 * w) or \
            ((y == 0 or y + bh == h) and bw >= 0.8 * w and bh <= 0.2 * h)
        if touches and (speck or strip):
            out[labels == k] = False
    return out


def _text_pixels(board: SquareBoard, whole: np.ndarray, black: bool) -> tuple:
    """(pixels, centre): the cell's pixels (``whole``: all of them) inside its
    four lines, each side cut where that side's line ends (a wall is thicker
    than a grid line), a black cell's by a fixed margin; and the cell's
    centre (x, y) in them, for a circle's disc."""
    h, w = whole.shape
    if black:
        cuts = [TEXT_INSET * board.cell] * 4
    else:
        dark = whole < TEXT_INK         # as the text is read: a blurred line's halo too
        most = 0.25 * board.cell
        cuts = []
        for side in ("left", "right", "top", "bottom"):
            runs = []
            # along the whole side: a glyph touching the line in the middle
            # must not count as line
            for t in np.linspace(0.08, 0.92, 15):
                if side in ("left", "right"):
                    line = dark[int(round(t * (h - 1))), :]
                else:
                    line = dark[:, int(round(t * (w - 1)))]
                runs.append(_ink_run(line if side in ("left", "top") else line[::-1], most))
            cuts.append(float(np.percentile(runs, 25)) + 1)
    left, right, top, bottom = (int(round(v)) for v in cuts)
    crop = whole[top:max(h - bottom, top + 1), left:max(w - right, left + 1)]
    return crop, ((w - 1) / 2 - left, (h - 1) / 2 - top)


def _ink_run(line: np.ndarray, most: float) -> float:
    """How far from the start of ``line`` (a row or column of the cell, from
    one of its sides) the side's line reaches: the first run of ink, if it
    begins within two pixels; 0 when no line is drawn there."""
    ink = np.flatnonzero(line[:int(most)])
    if not len(ink) or ink[0] > 2:
        return 0.0
    gap = np.flatnonzero(~line[ink[0]:int(most)])
    return float(ink[0] + (gap[0] if len(gap) else int(most) - ink[0]))


def _corners(dark: np.ndarray) -> float:
    """The share of ink in the cell's four corner patches."""
    return float(np.mean([p.mean() for p in _patches(dark)]))


def _corner_pixels(inside: np.ndarray) -> np.ndarray:
    return np.concatenate([p.ravel() for p in _patches(inside)])


def _patches(a: np.ndarray) -> list:
    h, w = a.shape
    k = max(1, min(h, w) // 6)
    return [a[:k, :k], a[:k, -k:], a[-k:, :k], a[-k:, -k:]]


def _disc(shape: tuple, centre: tuple, radius: float) -> np.ndarray:
    y, x = np.ogrid[:shape[0], :shape[1]]
    return (x - centre[0]) ** 2 + (y - centre[1]) ** 2 <= radius ** 2


def _circle(dark: np.ndarray):
    """("white" | "black", radius) when a circle about the cell's centre is
    drawn: a ring of ink all round at one radius; (None, None) else."""
    h, w = dark.shape
    cy, cx = (h - 1) / 2, (w - 1) / 2
    angles = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    ring = []
    for radius in np.arange(0.3, 0.495, 0.015) * min(h, w):
        hit = np.zeros(len(angles), bool)
        # ink at the radius or a pixel either side
        for d in (-1, 0, 1):
            ys = np.clip(np.round(cy + (radius + d) * np.sin(angles)).astype(int), 0, h - 1)
            xs = np.clip(np.round(cx + (radius + d) * np.cos(angles)).astype(int), 0, w - 1)
            hit |= dark[ys, xs]
        if hit.mean() >= 0.92:
            ring.append(radius)
    if not ring:
        return None, None
    # the outermost radius all ink round: a filled disc is ink at every radius
    radius = max(ring)
    y, x = np.ogrid[:h, :w]
    dist = np.sqrt((x - cx) ** 2 + (y - cy) ** 2)
    # black when the band between the centre (a light number) and the rim is ink
    band = dark[(dist >= 0.45 * radius) & (dist <= 0.75 * radius)].mean()
    return ("black" if band > 0.5 else "white"), radius


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
