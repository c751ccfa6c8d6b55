"""How well pzc's glyph classifier (formats/pictures/glyphs.py) reads glyphs
it was not trained on, and what it costs.

    python bench/glyphs.py                 # the figures of docs/benchmarks.md
    python bench/glyphs.py --ratios 1.1,1.2 --neighbours 1

Held-out sets, each glyph a mask thresholded from a grey render:
  sizes   the training fonts at font sizes between the trained ones, other
          sub-pixel shifts; clean (threshold 50%) and degraded (blur 0.7 px,
          thresholds 35% and 65%)
  fonts   sans fonts outside training (Liberation Sans Narrow, DejaVu Sans
          Condensed Bold, DejaVu Sans ExtraLight) when this machine has them
  hershey OpenCV's putText fonts: another family altogether
  rsvg    <text font-family="sans-serif"> in an SVG rasterized by rsvg-convert
          (what pzprjs pictures look like), whole numbers read through
          GlyphReader.read
For each: the share read right and sure, sure but wrong (must be 0), unsure.
With --ratios and --neighbours, the same for other choices of SECOND_RATIO
and NEIGHBOURS."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT.parent))

from pzc.formats.pictures import glyphs, glyphset  # noqa: E402

DIGITS = "0123456789?"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HELD_OUT_SIZES = (13, 16, 21, 28, 38, 52)
OTHER_FONTS = ("LiberationSansNarrow-Regular.ttf", "LiberationSansNarrow-Bold.ttf",
               "DejaVuSansCondensed-Bold.ttf", "DejaVuSans-ExtraLight.ttf")


def find_font(name: str):
    for folder in glyphset.FONT_FOLDERS:
        for path in Path(folder).expanduser().rglob(name) if Path(folder).expanduser().is_dir() else ():
            return path
    return None


def rendered_masks(fonts, shifts, blur, thresholds, alphabet):
    """[(char, mask)] of each font (a callable size -> font) at each held-out size."""
    out = []
    for font_at in fonts:
        for size in HELD_OUT_SIZES:
            font = font_at(size)
            for char in alphabet:
                grey = glyphset.rendered_glyph(font, char)
                for dx, dy in shifts:
                    moved = cv2.warpAffine(grey, np.float32([[1, 0, dx], [0, 1, dy]]), grey.shape[::-1])
                    if blur:
                        moved = cv2.GaussianBlur(moved, (0, 0), blur)
                    for level in thresholds:
                        out.append((char, moved >= level * moved.max()))
    return out


def hershey_masks(alphabet):
    out = []
    for face in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN):
        for scale in (0.5, 0.8, 1.2, 1.8):
            for thickness in (1, 2):
                for char in alphabet:
                    canvas = np.zeros((80, 80), np.uint8)
                    cv2.putText(canvas, char, (20, 60), face, scale, 255, thickness, cv2.LINE_AA)
                    out.append((char, canvas >= 128))
    return out


def judged(reader, masks, alphabet, ratio):
    """(right and sure, sure but wrong, unsure) counts over [(char, mask)]."""
    saved = glyphs.SECOND_RATIO
    glyphs.SECOND_RATIO = ratio
    right = wrong = unsure = 0
    try:
        for char, mask in masks:
            read, _, what = reader.classify(mask, alphabet)
            if what:
                unsure += 1
            elif read == char:
                right += 1
            else:
                wrong += 1
    finally:
        glyphs.SECOND_RATIO = saved
    return right, wrong, unsure


def rsvg_reads(reader, family="sans-serif"):
    """(right, wrong, unsure) reading numbers drawn by rsvg-convert at font
    sizes 12-48 and zooms 1 and 1.3, each cell thresholded at 50%."""
    texts = [str(n) for n in range(20)] + ["105", "99", "?", "23", "48", "67", "256", "7?"]
    counts = [0, 0, 0]
    with tempfile.TemporaryDirectory() as folder:
        for size in (12, 14, 17, 20, 24, 30, 38, 48):
            for zoom in (1.0, 1.3):
                w, h = size * 2.2, size * 2
                cells = "".join(
                    f'<text x="{(i % 10) * w + w / 2}" y="{(i // 10) * h + size * 1.4}" '
                    f'font-family="{family}" font-size="{size}" text-anchor="middle">{t}</text>'
                    for i, t in enumerate(texts))
                svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * 10}" height="{h * 3}">'
                       f'<rect width="100%" height="100%" fill="white"/>{cells}</svg>')
                Path(folder, "t.svg").write_text(svg)
                subprocess.run(["rsvg-convert", f"{folder}/t.svg", "-z", str(zoom), "-o",
                                f"{folder}/t.png"], check=True)
                image = cv2.imread(f"{folder}/t.png", cv2.IMREAD_GRAYSCALE)
                for i, text in enumerate(texts):
                    x0, y0 = int((i % 10) * w * zoom), int((i // 10) * h * zoom)
                    cell = image[y0:y0 + int(h * zoom), x0:x0 + int(w * zoom)]
                    reading = reader.read(cell < 128)
                    counts[0 if reading.text == text else 2 if reading.unsure else 1] += 1
    return tuple(counts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ratios", default=str(glyphs.SECOND_RATIO))
    parser.add_argument("--neighbours", type=int, default=glyphs.NEIGHBOURS)
    args = parser.parse_args()
    glyphs.NEIGHBOURS = args.neighbours
    with tempfile.TemporaryDirectory() as cache:
        import os
        os.environ["XDG_CACHE_HOME"] = cache
        start = time.process_time()
        reader = glyphs.GlyphReader(*glyphset.trained_set())
        first = time.process_time() - start
        start = time.process_time()
        glyphs.GlyphReader(*glyphset.trained_set())
        again = time.process_time() - start
        stored = sum(p.stat().st_size for p in Path(cache, "pzc").glob("*.npz"))
    print(f"training fonts: {', '.join(p.name for p in glyphset.font_files())}, Pillow's own")
    print(f"training glyphs: {len(reader.labels)}; first use {first:.2f} s CPU, "
          f"from the cache {again * 1000:.0f} ms CPU ({stored / 1e6:.1f} MB)")
    trained = [lambda s, p=p: ImageFont.truetype(str(p), s) for p in glyphset.font_files()]
    trained.append(ImageFont.load_default)
    others = [lambda s, p=p: ImageFont.truetype(str(p), s)
              for p in filter(None, map(find_font, OTHER_FONTS))]
    shifts = ((0.33, 0.1), (0.7, 0.45))
    sets = []
    for alphabet, name in ((DIGITS, "0-9?"), (LETTERS, "A-Z")):
        sets += [
            (f"sizes, clean, {name}", alphabet, rendered_masks(trained, shifts, 0, (0.5,), alphabet)),
            (f"sizes, degraded, {name}", alphabet,
             rendered_masks(trained, shifts, 0.7, (0.35, 0.65), alphabet)),
            (f"fonts, clean, {name}", alphabet, rendered_masks(others, shifts, 0, (0.5,), alphabet)),
            (f"hershey, {name}", alphabet, hershey_masks(alphabet)),
        ]
    for ratio in map(float, args.ratios.split(",")):
        print(f"\nSECOND_RATIO {ratio}, NEIGHBOURS {glyphs.NEIGHBOURS}, NEAREST_FAR {glyphs.NEAREST_FAR}")
        print(f"{'set':28} {'glyphs':>7} {'right':>7} {'WRONG':>6} {'unsure':>7}")
        for name, alphabet, masks in sets:
            start = time.process_time()
            right, wrong, unsure = judged(reader, masks, alphabet, ratio)
            each = (time.process_time() - start) / len(masks) * 1000
            n = len(masks)
            print(f"{name:28} {n:7} {right / n:7.1%} {wrong:6} {unsure / n:7.1%}   {each:.2f} ms CPU/glyph")
    if shutil.which("rsvg-convert"):
        for family in ("sans-serif", "Liberation Sans"):
            right, wrong, unsure = rsvg_reads(reader, family)
            n = right + wrong + unsure
            print(f"rsvg {family!r} numbers (font 12-48 px): {n} cells, {right / n:.1%} right, "
                  f"{wrong} wrong, {unsure / n:.1%} unsure")


if __name__ == "__main__":
    main()
