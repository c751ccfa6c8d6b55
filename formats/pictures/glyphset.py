"""The glyphs pzc's reader learns from: digits, '?' and capital letters that
pzc renders itself with the sans fonts of this machine and Pillow's own font,
at several sizes, with small shifts, stroke weights and blur; the features a
glyph is compared by; the trained set cached on disk.

Nothing is downloaded: a machine without any font file still has Pillow's
bundled font.  The cache is keyed by the recipe and the font files' bytes,
so a new font or recipe trains afresh; a cache that cannot be written or read
back is no error (the set is rendered again)."""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont
from PIL import __version__ as PILLOW_VERSION

CLASSES = "0123456789?ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# the well-known sans families that pictures of puzzles use (pzprjs draws in
# the browser's sans-serif, pzc's SVG asks for DejaVu Sans or Arial); upright
# only: their regular, bold and condensed cuts
TRAINING_FONTS = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf",
    "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf",
    "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "FreeSans.ttf", "FreeSansBold.ttf",
    "NimbusSans-Regular.otf", "NimbusSans-Bold.otf", "Arial.ttf", "arial.ttf",
    "Arial Bold.ttf", "arialbd.ttf",
)
FONT_FOLDERS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts",
                "~/.fonts", "/Library/Fonts", "/System/Library/Fonts/Supplemental",
                "C:/Windows/Fonts")

# font sizes in pixels: capital heights from about 8 to 46 pixels
FONT_SIZES = (11, 14, 18, 24, 32, 44, 62)
SHIFTS = ((0.0, 0.0), (0.5, 0.25), (0.25, 0.6))   # sub-pixel placements
THRESHOLDS = (0.3, 0.55, 0.8)                      # thin, plain and bold strokes
BLURS = (0.0, 0.8)                                 # sharp, then a soft scan
SIDE = 20                                          # a glyph's feature is SIDE x SIDE
RECIPE = ("glyphset 2", CLASSES, FONT_SIZES, SHIFTS, THRESHOLDS, BLURS, SIDE, PILLOW_VERSION)


def font_files() -> list[Path]:
    """The training fonts found on this machine, in TRAINING_FONTS order."""
    found = {}
    for folder in FONT_FOLDERS:
        root = Path(folder).expanduser()
        if not root.is_dir():
            continue
        for dirpath, _, names in os.walk(root):
            for name in names:
                if name in TRAINING_FONTS and name.lower() not in found:
                    found[name.lower()] = Path(dirpath) / name
    return [found[n.lower()] for n in TRAINING_FONTS if n.lower() in found]


def glyph_features(mask: np.ndarray) -> np.ndarray | None:
    """The feature vector of one glyph's ink (a 2-D mask, nonzero = ink):
    its bounding box scaled, aspect kept, into SIDE x SIDE and centred, as
    ink coverage 0..1, softened a little so that a pixel's shift costs
    little.  None when there is no ink."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    ink = (mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.float32)
    h, w = ink.shape
    scale = (SIDE - 2) / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(ink, (nw, nh), interpolation=interpolation)
    box = np.zeros((SIDE, SIDE), np.float32)
    y0, x0 = (SIDE - nh) // 2, (SIDE - nw) // 2
    box[y0:y0 + nh, x0:x0 + nw] = small
    return cv2.GaussianBlur(box, (3, 3), 0.6).ravel()


def rendered_glyph(font, char: str) -> np.ndarray:
    """``char`` in ``font`` as a grey image, 0..1 (1 = ink), cropped to its ink
    with a margin."""
    left, top, right, bottom = font.getbbox(char)
    pad = 3
    image = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), char, font=font, fill=255)
    return np.asarray(image, np.float32) / 255.0


def variants(grey: np.ndarray):
    """The masks of one rendered glyph under each shift, blur and stroke
    threshold of the recipe."""
    for dx, dy in SHIFTS:
        moved = grey if (dx, dy) == (0.0, 0.0) else cv2.warpAffine(
            grey, np.float32([[1, 0, dx], [0, 1, dy]]), grey.shape[::-1],
            flags=cv2.INTER_LINEAR)
        for sigma in BLURS:
            soft = moved if sigma == 0 else cv2.GaussianBlur(moved, (0, 0), sigma)
            peak = float(soft.max())
            for level in THRESHOLDS:
                yield soft >= level * peak


def training_fonts(paths: list[Path]):
    """(name, font at each size) for each training font: the files found, then
    Pillow's own font."""
    for path in paths:
        yield path.name, [ImageFont.truetype(str(path), size) for size in FONT_SIZES]
    yield "pillow", [ImageFont.load_default(size) for size in FONT_SIZES]


def render_training_set(fonts=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, labels, widest): one row per distinct glyph variant, labels
    as indices into CLASSES; widest: each class's greatest width / height.
    ``fonts``: (name, fonts by size) pairs; the training fonts when None."""
    rows, labels = [], []
    widest = np.zeros(len(CLASSES), np.float32)
    for _, sized in (fonts if fonts is not None else training_fonts(font_files())):
        for font in sized:
            for label, char in enumerate(CLASSES):
                grey = rendered_glyph(font, char)
                ys, xs = np.nonzero(grey >= 0.5)
                aspect = (np.ptp(xs) + 1) / (np.ptp(ys) + 1)
                widest[label] = max(widest[label], aspect)
                for mask in variants(grey):
                    feature = glyph_features(mask)
                    if feature is not None:
                        rows.append(feature)
                        labels.append(label)
    # a byte per pixel is plenty (the features are coverages 0..1): the
    # cache stores bytes, and the first run reads from the same values
    quantized = np.round(np.asarray(rows, np.float32) * 255.0).astype(np.uint8)
    labels = np.asarray(labels, np.int16)
    # identical variants of one glyph (a shift that thresholds to the same
    # mask) count once; the same mask under two labels ('0' and 'O') stays
    seen, first = set(), []
    for i, (row, label) in enumerate(zip(quantized, labels)):
        key = (int(label), row.tobytes())
        if key not in seen:
            seen.add(key)
            first.append(i)
    features = quantized[first].astype(np.float32) / 255.0
    return features, labels[first], widest


def cache_folder() -> Path:
    """$XDG_CACHE_HOME/pzc, or ~/.cache/pzc."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pzc"


def recipe_key(paths: list[Path]) -> str:
    """A hash of the recipe and of the bytes of the font files it uses."""
    digest = hashlib.sha256(repr(RECIPE).encode())
    for path in paths:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def trained_set() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The training set (render_training_set's): from the cache when it holds
    this recipe's, else rendered now and cached."""
    paths = font_files()
    cache = cache_folder() / f"glyphs-{recipe_key(paths)}.npz"
    try:
        with np.load(cache) as stored:
            features = stored["features"].astype(np.float32) / 255.0
            labels, widest = stored["labels"], stored["widest"]
        if (features.ndim == 2 and features.shape[1] == SIDE * SIDE
                and labels.shape == (len(features),) and len(labels)
                and 0 <= labels.min() and labels.max() < len(CLASSES)
                and widest.shape == (len(CLASSES),)):
            return features, labels, widest
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        pass   # absent or corrupt: render it again
    features, labels, widest = render_training_set(training_fonts(paths))
    quantized = np.round(features * 255.0).astype(np.uint8)   # exact: they are bytes / 255
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, features=quantized, labels=labels, widest=widest)
        partial = cache.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(buffer.getvalue())
        partial.replace(cache)   # readers never see half a file
    except OSError:
        pass   # a cache that cannot be written only costs the next run the rendering
    return features, labels, widest
