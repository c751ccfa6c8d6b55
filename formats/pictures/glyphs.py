"""Reading the text of one cell: the ink's glyphs, left to right, each
classified by its nearest neighbours among glyphs pzc rendered itself
(glyphset.py), or "unsure" with what was seen.

    reader = glyph_reader()
    reading = reader.read(ink, alphabet="0123456789?")
    reading.text, reading.unsure, reading.glyphs

A glyph is sure when its nearest training glyphs are near (NEAREST_FAR, by
the glyph's height) and those of any other class are clearly farther
(SECOND_RATIO); the thresholds were chosen on renders held out of training
(docs/benchmarks.md, "Issue 30: the glyph classifier").  Glyphs that touch
are unsure: cutting them apart guessed wrong."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import cv2
import numpy as np

from .glyphset import CLASSES, glyph_features, trained_set

# the nearest glyph of another class must be this much farther than the best
SECOND_RATIO = 1.2
# a class's distance: the mean over its nearest training glyphs, this many
NEIGHBOURS = 3
# a glyph farther than this from every training glyph is no glyph we know:
# (height in pixels, distance) points, linear between them; a small glyph's
# mask is coarse, a large one matches its training glyphs closely (on clean
# held-out renders the farthest right read was 3.9 below 12 px, 2.6 at 18-26
# px, 1.8 above; halves of digits and blobs of 22-35 px were 2.5-3.5 away)
NEAREST_FAR = ((10, 4.0), (24, 2.4))
# pieces of ink smaller than this share of the text height squared are specks
SPECK_AREA = 0.006
# pieces of at most this many pixels, 2 wide and high, are specks anywhere
TINY_SPECK = 3
# glyphs of one number share a height, within this share of the tallest
SAME_HEIGHT = 0.72


@dataclass
class TextReading:
    """What one cell's ink reads as: ``text`` ("" for no glyph), ``unsure``
    (None when sure, else what was seen, in words) and ``glyphs``: (char, box
    (x0, y0, x1, y1) in the ink's pixels, exclusive ends, score) left to right;
    score 0..1 is 1 - best / second distance (0: a tie)."""
    text: str
    unsure: str | None = None
    glyphs: list = field(default_factory=list)


def describe_alphabet(alphabet: str) -> list:
    """['0-9', '?'] for '0123456789?': runs of consecutive characters shortened."""
    out, i = [], 0
    while i < len(alphabet):
        j = i
        while j + 1 < len(alphabet) and ord(alphabet[j + 1]) == ord(alphabet[j]) + 1:
            j += 1
        out += list(alphabet[i:j + 1]) if j - i < 2 else [f"{alphabet[i]}-{alphabet[j]}"]
        i = j + 1
    return out


class GlyphReader:
    """Nearest-neighbour glyph classification over a training set."""

    def __init__(self, features: np.ndarray, labels: np.ndarray, widest: np.ndarray):
        self.features = features
        self.labels = labels
        self.widest = widest
        self.norms = (features ** 2).sum(1)
        self.subsets: dict = {}

    def subset(self, alphabet: str):
        """(features, norms, where each class's rows start, classes) for an
        alphabet: its classes' rows, one class after another."""
        if alphabet not in self.subsets:
            unknown = sorted(set(alphabet) - set(CLASSES))
            if unknown or not alphabet:
                raise ValueError(f"no glyphs to read as {unknown or 'an empty alphabet'}")
            classes = sorted(set(alphabet), key=CLASSES.index)
            index = np.full(len(CLASSES), -1)
            for i, char in enumerate(classes):
                index[CLASSES.index(char)] = i
            rows = np.nonzero(index[self.labels] >= 0)[0]
            rows = rows[np.argsort(index[self.labels[rows]], kind="stable")]
            starts = np.searchsorted(index[self.labels[rows]], np.arange(len(classes)))
            self.subsets[alphabet] = (self.features[rows], self.norms[rows], starts, classes)
        return self.subsets[alphabet]

    def classify(self, mask: np.ndarray, alphabet: str) -> tuple[str, float, str | None]:
        """(best char, score, None) for one glyph's mask, or ("", score, what
        was seen) when unsure."""
        features, norms, starts, classes = self.subset(alphabet)
        x = glyph_features(mask)
        if x is None:
            return "", 0.0, "no ink"
        squared = norms - 2.0 * (features @ x) + float(x @ x)
        if NEIGHBOURS == 1:
            nearest = np.minimum.reduceat(squared, starts)
        else:   # each class's mean over its NEIGHBOURS nearest rows
            ends = list(starts[1:]) + [len(squared)]
            nearest = np.array([np.partition(squared[a:b], min(NEIGHBOURS, b - a) - 1)[:NEIGHBOURS].mean()
                                for a, b in zip(starts, ends)])
        nearest = np.sqrt(np.maximum(nearest, 0.0))
        order = np.argsort(nearest, kind="stable")
        best = nearest[order[0]]
        second = nearest[order[1]] if len(classes) > 1 else np.inf
        score = float(1.0 - best / second) if second > 0 else 0.0
        (small, far_small), (large, far_large) = NEAREST_FAR
        height = ink_height(mask)   # of the ink, whatever margin the mask has
        far = float(np.interp(height, (small, large), (far_small, far_large)))
        if best > far:
            return "", score, f"a mark that is none of {' '.join(describe_alphabet(alphabet))}"
        if second < SECOND_RATIO * best:
            return "", score, f"'{classes[order[0]]}' or '{classes[order[1]]}'"
        return classes[order[0]], score, None

    def read(self, ink: np.ndarray, alphabet: str = "0123456789?") -> TextReading:
        """The text of one cell's ink (2-D, nonzero = ink of the text)."""
        self.subset(alphabet)   # refuses characters it has no glyphs of
        mask = np.asarray(ink)
        if mask.ndim != 2:
            raise ValueError(f"ink must be a 2-D mask, not of shape {mask.shape}")
        glyphs, unsure = glyph_boxes(mask > 0)
        if unsure:
            return TextReading("", unsure, [])
        read = [self.read_glyph(piece, (x0, y0, x1, y1), alphabet)
                for x0, y0, x1, y1, piece in glyphs]
        reading = TextReading("", None, [(char, box, score) for char, box, score, _ in read])
        doubts = [(i, what) for i, (_, _, _, what) in enumerate(read) if what]
        if not doubts:
            reading.text = "".join(char for char, _, _, _ in read)
        elif len(read) == 1:
            reading.unsure = doubts[0][1]
        else:
            i, what = doubts[0]
            reading.unsure = f"glyph {i + 1} of {len(read)}: {what}"
        return reading

    def read_glyph(self, piece: np.ndarray, box, alphabet: str):
        """(char, box, score, unsure) for one connected glyph.  Ink wider than
        any glyph of the alphabet is glyphs touching: unsure (cutting them
        apart at the columns of least ink read '48' as '43')."""
        height, width = piece.shape
        widest = max(self.widest[CLASSES.index(c)] for c in set(alphabet))
        if width > 1.15 * widest * height:
            return "", box, 0.0, f"touching glyphs {width} pixels wide, {height} high"
        char, score, what = self.classify(piece, alphabet)
        return char, box, score, what


def ink_height(mask: np.ndarray) -> int:
    """The rows from the first with ink to the last (0 for no ink)."""
    rows = np.nonzero(np.asarray(mask).any(1))[0]
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


def glyph_boxes(mask: np.ndarray):
    """([(x0, y0, x1, y1, glyph mask)] left to right, unsure): the ink's
    connected pieces, those above one another joined into one glyph (a '?'
    and its dot, a thin stroke broken by the threshold), specks dropped."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    # dots of a pixel or two alone are specks (no glyph is that small): a
    # cell holding only such reads as empty; beside a glyph, one may be the
    # dot of a '?'
    tiny = [stats[i, cv2.CC_STAT_AREA] <= TINY_SPECK
            and max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) <= 2
            for i in range(count)]
    if all(tiny[1:]):
        return [], None
    tallest = int(max(stats[i, cv2.CC_STAT_HEIGHT] for i in range(1, count) if not tiny[i]))
    parts = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= SPECK_AREA * tallest ** 2]
    group = {i: i for i in parts}

    def root(i):
        while group[i] != i:
            i = group[i]
        return i

    for i in parts:
        for j in parts:
            if i < j and columns_overlap(stats[i], stats[j]):
                group[root(j)] = root(i)
    members: dict = {}
    for i in parts:
        members.setdefault(root(i), []).append(i)
    glyphs = []
    for pieces in members.values():
        x0 = min(stats[i, 0] for i in pieces)
        y0 = min(stats[i, 1] for i in pieces)
        x1 = max(stats[i, 0] + stats[i, 2] for i in pieces)
        y1 = max(stats[i, 1] + stats[i, 3] for i in pieces)
        area = sum(stats[i, cv2.CC_STAT_AREA] for i in pieces)
        glyphs.append((int(x0), int(y0), int(x1), int(y1), np.isin(labels[y0:y1, x0:x1], pieces), area))
    height = max(g[3] - g[1] for g in glyphs)
    kept = []
    for x0, y0, x1, y1, inside, area in sorted(glyphs, key=lambda g: g[0]):
        if y1 - y0 >= SAME_HEIGHT * height:
            kept.append((x0, y0, x1, y1, inside))
        elif area >= 2 * SPECK_AREA * height ** 2:
            return [], f"a mark {x1 - x0}x{y1 - y0} pixels beside text {height} pixels high"
    return kept, None


def columns_overlap(a, b) -> bool:
    """Whether two pieces' columns overlap by half the narrower one's width."""
    overlap = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    return overlap > 0.5 * min(a[2], b[2])


_READER: GlyphReader | None = None
_READER_LOCK = threading.Lock()


def glyph_reader() -> GlyphReader:
    """The process's GlyphReader: trained (or loaded from the cache) at the
    first call."""
    global _READER
    with _READER_LOCK:
        if _READER is None:
            _READER = GlyphReader(*trained_set())
        return _READER
