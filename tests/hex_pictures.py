"""Pictures of hex boards for the tests and bench/hexiom_pictures.py: pzc's
question SVG rasterized by rsvg-convert at a zoom, in a font; and the digit
reader the hex reader takes (formats/pictures/glyphs.py's glyph reader when
it is there, else a stand-in: the nearest of templates cut from a picture of
known digits drawn in the same font and zoom)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from pzc import api
from pzc.formats.pictures.hexgrid import read_hex_picture
from pzc.tasks.pictures import draw

RSVG = shutil.which("rsvg-convert")
DEFAULT_FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'
# the digits 0-6 on a side-2 board: the stand-in reader's templates
KNOWN_DIGITS = "2\n  0 1\n 2 3 4\n  5 6\n"


def question_svg(spec, inst, font: str | None = None) -> str:
    svg = draw.board_svg(spec, inst)
    if font is not None:
        assert DEFAULT_FONT in svg
        svg = svg.replace(DEFAULT_FONT, f'font-family="{font}"')
    return svg


def rasterize(svg: str, zoom: float, out: Path) -> Path:
    """The PNG of ``svg`` at ``zoom``, written to ``out``."""
    src = out.with_suffix(".svg")
    src.write_text(svg, encoding="utf-8")
    subprocess.run([RSVG, str(src), "-z", str(zoom), "-o", str(out)], check=True)
    return out


def glyph_reader_or_none():
    try:
        from pzc.formats.pictures.glyphs import glyph_reader
    except ImportError:
        return None
    return glyph_reader()


class TemplateDigits:
    """The stand-in digit reader: ink masks compared with templates cut from
    a picture of known digits (the same font and zoom), the nearest wins;
    unsure when two are about as near."""

    SIZE = 20

    def __init__(self, templates: dict):
        self.templates = templates

    @classmethod
    def calibrated(cls, spec, zoom: float, font: str | None, folder: Path):
        inst = api.load_instances(spec, "known.txt", text=KNOWN_DIGITS)[0]
        png = rasterize(question_svg(spec, inst, font), zoom, folder / f"known-{zoom}.png")
        masks = []
        read_hex_picture(spec, cv2.imread(str(png)), str(png), _Recorder(masks))
        return cls({str(k): cls.normal(m) for k, m in enumerate(masks)})

    @classmethod
    def normal(cls, mask: np.ndarray) -> np.ndarray:
        ys, xs = np.nonzero(mask)
        crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
        return cv2.resize(crop, (cls.SIZE, cls.SIZE), interpolation=cv2.INTER_AREA)

    def read(self, mask, alphabet="0123456789"):
        seen = self.normal(mask)
        ranked = sorted((float(np.abs(seen - t).mean()), k) for k, t in self.templates.items()
                        if k in alphabet)
        (best, k), (second, _) = ranked[0], ranked[1]
        unsure = best > 0.3 or second - best < 0.03
        return SimpleNamespace(text=k, unsure=unsure, glyphs=None)


class _Recorder:
    """Keeps the ink masks it is asked to read (cells in reading order)."""

    def __init__(self, masks: list):
        self.masks = masks

    def read(self, mask, alphabet="0123456789"):
        self.masks.append(mask.copy())
        return SimpleNamespace(text="0", unsure=False, glyphs=None)


def digit_reader(spec, zoom: float, font: str | None, folder: Path):
    return glyph_reader_or_none() or TemplateDigits.calibrated(spec, zoom, font, folder)
