"""What a square board's cells show in a picture.

Each cell is looked at for a few things every puzzle drawing uses, whatever
the genre: its shading (white, grey, black), a circle (white or black) and
its text (a number, '?', a letter), read by the glyph classifier.  The
lines between cells are walls.py's.

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
