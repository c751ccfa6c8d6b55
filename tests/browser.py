"""A real browser for the picture tests: headless Chromium (Debian's package
`chromium`) takes a screenshot of an SVG or HTML page, read back as pixels.

`browser()` is the program, or None (tests that need it skip).  `screenshot`
lays a document at the top left of an empty page at one pixel per SVG unit,
so that a point (x, y) of the SVG is pixel (x, y) of the image.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest


def browser() -> str | None:
    """The headless browser to use: $PZC_BROWSER, else chromium on the PATH."""
    given = os.environ.get("PZC_BROWSER")
    if given:
        return given if shutil.which(given) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def needs_browser(test):
    """A test that drives the browser: marked "browser" (so `make test-fast`
    leaves it out), and skipped where there is none."""
    skip = pytest.mark.skipif(browser() is None, reason="no headless browser (chromium)")
    return pytest.mark.browser(skip(test))


class Image:
    """Pixels as (r, g, b) rows."""

    def __init__(self, width: int, height: int, rows: list):
        self.width, self.height, self.rows = width, height, rows

    def pixel(self, x: float, y: float) -> tuple:
        return self.rows[int(round(y))][int(round(x))]

    def inked(self, box=None, threshold: int = 230):
        """Whether any pixel in box (x0, y0, x1, y1) is darker than white-ish."""
        x0, y0, x1, y1 = box or (0, 0, self.width - 1, self.height - 1)
        for y in range(max(0, int(y0)), min(self.height, int(y1) + 1)):
            row = self.rows[y]
            for x in range(max(0, int(x0)), min(self.width, int(x1) + 1)):
                if min(row[x]) < threshold:
                    return True
        return False

    def ink_box(self, threshold: int = 230):
        """The bounding box (x0, y0, x1, y1) of all non-white pixels, or None."""
        xs, ys = [], []
        for y, row in enumerate(self.rows):
            dark = [x for x, p in enumerate(row) if min(p) < threshold]
            if dark:
                ys.append(y)
                xs.extend((dark[0], dark[-1]))
        if not ys:
            return None
        return min(xs), min(ys), max(xs), max(ys)


def screenshot(document: str, width: float, height: float, html: bool = False) -> Image:
    """A screenshot of an SVG document (or, with ``html``, a whole page) in the browser."""
    program = browser()
    if program is None:
        raise RuntimeError("no browser")
    w, h = int(width + 0.999), int(height + 0.999)
    page = document if html else (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;'
        'background:#fff}svg{display:block}</style></head><body>' + document + "</body></html>")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "page.html"
        out = Path(tmp) / "shot.png"
        src.write_text(page, encoding="utf-8")
        run = subprocess.run(
            [program, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", f"--user-data-dir={tmp}/profile",
             f"--window-size={w},{h}", f"--screenshot={out}", src.as_uri()],
            capture_output=True, text=True, timeout=120)
        if not out.exists():
            raise RuntimeError(f"the browser made no screenshot: {run.stderr[-2000:]}")
        return read_png(out.read_bytes())


def dump_dom(page: str, fragment: str = "") -> str:
    """The page's DOM after its scripts ran, opened at ``#fragment``."""
    program = browser()
    if program is None:
        raise RuntimeError("no browser")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "page.html"
        src.write_text(page, encoding="utf-8")
        url = src.as_uri() + (f"#{fragment}" if fragment else "")
        run = subprocess.run(
            [program, "--headless", "--no-sandbox", "--disable-gpu",
             f"--user-data-dir={tmp}/profile", "--dump-dom", url],
            capture_output=True, text=True, timeout=120)
        return run.stdout


def read_png(data: bytes) -> Image:
    """An 8-bit RGB or RGBA PNG, not interlaced (what Chromium writes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, []
    width = height = colour = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}")
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        _unfilter(kind, line, previous, channels)
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return Image(width, height, rows)


def _unfilter(kind: int, line: bytearray, prev: bytearray, bpp: int):
    if kind == 0:
        return
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = prev[i]
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            corner = prev[i - bpp] if i >= bpp else 0
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            line[i] = (line[i] + pred) & 0xFF
        else:
            raise ValueError(f"bad PNG filter {kind}")
