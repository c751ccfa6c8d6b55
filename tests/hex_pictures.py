"""Pictures of hex boards for the tests and bench/hexiom_pictures.py: pzc's
question SVG rasterized by rsvg-convert at a zoom, in a font."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

from pzc.formats.pictures.glyphs import glyph_reader
from pzc.tasks.pictures import draw

RSVG = shutil.which("rsvg-convert")
DEFAULT_FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


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


@cache
def digit_reader():
    """The glyph reader pzc read uses (formats/pictures/glyphs.py), made once."""
    return glyph_reader()
