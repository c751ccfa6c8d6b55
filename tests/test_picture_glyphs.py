"""The glyph classifier of `pzc read` (formats/pictures/glyphs.py): numbers
rendered at sizes and in fonts outside its training read back exactly, or
as unsure, never as a wrong number; garbage reads as unsure or nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pzc.formats.pictures import glyphset
from pzc.formats.pictures.glyphs import GlyphReader, TextReading, describe_alphabet, glyph_reader

NUMBERS = ["0", "1", "4", "7", "9", "12", "38", "105", "?", "2?", "66", "111"]
FONTS = Path("/usr/share/fonts/truetype")


@pytest.fixture(scope="module")
def reader() -> GlyphReader:
    return glyph_reader()


def text_mask(text: str, font, light_on_dark: bool = False, spacing: int = 0) -> np.ndarray:
    """The ink mask of ``text`` drawn in a cell, as a caller would pass it:
    grey level thresholded at 50%, the polarity chosen."""
    width = int(font.getlength(text)) + 20 + spacing * len(text)
    _, top, _, bottom = font.getbbox(text)
    paper, ink = (0, 255) if light_on_dark else (255, 0)
    image = Image.new("L", (width, bottom + 12), paper)
    draw = ImageDraw.Draw(image)
    x = 10
    for char in text:   # one by one so that ``spacing`` can bring them together
        draw.text((x, 6), char, font=font, fill=ink)
        x += font.getlength(char) + spacing
    grey = np.asarray(image)
    return grey >= 128 if light_on_dark else grey < 128


def font_or_skip(name: str, size: int):
    path = FONTS / name
    if not path.exists():
        pytest.skip(f"{name} is not on this machine")
    return ImageFont.truetype(str(path), size)


@pytest.mark.parametrize("size", [13, 23, 35, 50])
def test_pillows_font_at_sizes_between_the_trained_ones(reader, size):
    assert size not in glyphset.FONT_SIZES
    font = ImageFont.load_default(size)
    for text in NUMBERS:
        reading = reader.read(text_mask(text, font))
        assert (reading.text, reading.unsure) == (text, None), (size, text, reading)


@pytest.mark.parametrize("name", ["dejavu/DejaVuSans.ttf", "liberation/LiberationSans-Bold.ttf"])
@pytest.mark.parametrize("size", [19, 27, 41])
def test_training_fonts_at_other_sizes_read_exactly(reader, name, size):
    font = font_or_skip(name, size)
    for text in NUMBERS:
        reading = reader.read(text_mask(text, font))
        assert reading.text == text and reading.unsure is None, (name, size, text, reading)
        assert [char for char, _, _ in reading.glyphs] == list(text)


def test_light_ink_on_a_black_cell_is_the_same_mask(reader):
    font = ImageFont.load_default(30)
    for text in ("5", "27", "?"):
        mask = text_mask(text, font, light_on_dark=True)
        assert reader.read(mask).text == text
        assert reader.read(mask.astype(np.uint8) * 255).text == text   # 255 = ink too


def test_glyph_boxes_run_left_to_right_on_one_baseline(reader):
    font = ImageFont.load_default(30)
    mask = text_mask("105", font)
    reading = reader.read(mask)
    boxes = [box for _, box, _ in reading.glyphs]
    assert [b[0] for b in boxes] == sorted(b[0] for b in boxes)
    assert len({b[3] for b in boxes}) == 1   # digits share the baseline here
    for x0, y0, x1, y1 in boxes:
        assert mask[y0:y1, x0:x1].any() and not mask[y0:y1, x1:x1 + 1].all()
    assert all(0 < score <= 1 for _, _, score in reading.glyphs)


def test_touching_digits_are_unsure_never_another_number(reader):
    touching = 0
    for size in (20, 30, 44):
        for text in ("48", "11", "105", "23", "12", "70"):
            for spacing in (-3, -4, -5, -6):
                mask = text_mask(text, ImageFont.load_default(size), spacing=spacing)
                pieces = cv2.connectedComponents(mask.astype(np.uint8))[0] - 1
                touching += pieces < len(text)
                reading = reader.read(mask)
                assert reading.text in (text, ""), (size, text, spacing, reading)
                assert bool(reading.unsure) == (reading.text == "")
    assert touching > 30


@pytest.mark.parametrize("name", ["liberation/LiberationSansNarrow-Regular.ttf",
                                  "dejavu/DejaVuSansCondensed-Bold.ttf",
                                  "dejavu/DejaVuSansMono.ttf"])
def test_fonts_outside_training_read_right_or_unsure(reader, name):
    right = 0
    total = 0
    for size in (14, 22, 34):
        font = font_or_skip(name, size)
        for text in NUMBERS:
            reading = reader.read(text_mask(text, font))
            total += 1
            if reading.unsure is None:
                assert reading.text == text, (name, size, text, reading)
                right += 1
    assert right >= 0.8 * total


def test_opencv_hershey_fonts_are_never_read_wrong(reader):
    sure = 0
    for face in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX):
        for scale in (0.6, 1.0, 1.6):
            for text in ("3", "8", "14", "60", "92"):
                canvas = np.zeros((70, 120), np.uint8)
                cv2.putText(canvas, text, (10, 55), face, scale, 255, 2, cv2.LINE_AA)
                reading = reader.read(canvas >= 128)
                if reading.unsure is None:
                    assert reading.text == text, (face, scale, text, reading)
                    sure += 1
    assert sure > 0


def garbage_masks():
    rng = np.random.default_rng(30)
    for _ in range(25):   # random blobs: a few overlapping ellipses
        canvas = np.zeros((40, 40), np.uint8)
        for _ in range(rng.integers(2, 5)):
            centre = tuple(int(v) for v in rng.integers(8, 32, 2))
            axes = tuple(int(v) for v in rng.integers(2, 10, 2))
            cv2.ellipse(canvas, centre, axes, float(rng.integers(0, 180)), 0, 360, 255, -1)
        yield "blob", canvas
    circle = np.zeros((40, 40), np.uint8)
    cv2.circle(circle, (20, 20), 15, 255, 2)
    yield "circle outline", circle
    disk = np.zeros((40, 40), np.uint8)
    cv2.circle(disk, (20, 20), 15, 255, -1)
    yield "disk", disk
    cross = np.zeros((40, 40), np.uint8)
    cv2.line(cross, (5, 5), (35, 35), 255, 3)
    cv2.line(cross, (35, 5), (5, 35), 255, 3)
    yield "cross", cross
    font = ImageFont.load_default(34)
    for digit in "0235689":
        mask = text_mask(digit, font)
        ys, xs = np.nonzero(mask)
        middle_row, middle_column = (ys.min() + ys.max()) // 2, (xs.min() + xs.max()) // 2
        yield f"top half of {digit}", mask[:middle_row]
        yield f"right half of {digit}", mask[:, middle_column:]


def test_garbage_is_unsure_or_nothing_never_a_confident_digit(reader):
    for what, mask in garbage_masks():
        reading = reader.read(mask)
        assert reading.unsure is not None or reading.text == "", (what, reading)
        if reading.unsure is not None:
            assert reading.text == ""


def test_no_ink_and_specks_read_as_nothing(reader):
    assert reader.read(np.zeros((30, 30), bool)) == TextReading("", None, [])
    specks = np.zeros((30, 30), np.uint8)
    font = ImageFont.load_default(24)
    specks[:] = text_mask("7", font)[:30, :30]
    specks[2, 2] = 255   # a pixel of grid line left over
    assert reader.read(specks).text == "7"
    alone = np.zeros((40, 40), bool)
    alone[17, 8] = alone[30:32, 30] = True   # what a circle's ring may leave
    assert reader.read(alone) == TextReading("", None, [])
    alone[5:9, 5:9] = True   # more than a speck, and no glyph
    assert reader.read(alone).unsure


def test_a_mark_beside_the_number_makes_it_unsure(reader):
    mask = text_mask("3", ImageFont.load_default(30)).copy()
    mask[2:8, 2:8] = True
    reading = reader.read(mask)
    assert reading.unsure and reading.text == ""


def test_letters_read_with_their_alphabet_and_zero_or_o_is_unsure(reader):
    font = ImageFont.load_default(28)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for char in "AKQRWX":
        assert reader.read(text_mask(char, font), alphabet=letters).text == char
    # a round glyph with both alphabets: '0' and 'O' differ little; never the other one
    for char in "0O":
        reading = reader.read(text_mask(char, font), alphabet="0123456789" + letters)
        assert reading.text in ("", char)


def test_an_alphabet_outside_the_classes_is_refused(reader):
    with pytest.raises(ValueError, match="'a'"):
        reader.read(np.ones((5, 5), bool), alphabet="a1")


def test_describe_alphabet():
    assert describe_alphabet("0123456789?") == ["0-9", "?"]
    assert describe_alphabet("ABCXY") == ["A-C", "X", "Y"]


@pytest.mark.skipif(not shutil.which("rsvg-convert"), reason="rsvg-convert is not installed")
def test_svg_text_rasterized_by_rsvg_reads_back(reader, tmp_path):
    texts = ["3", "10", "27", "105", "?", "8", "64"]
    for size in (14, 20, 29, 40):
        cells = "".join(
            f'<text x="{i * size * 2.5 + size * 1.25}" y="{size * 1.4}" font-family="sans-serif" '
            f'font-size="{size}" text-anchor="middle">{t}</text>' for i, t in enumerate(texts))
        width, height = size * 2.5 * len(texts), size * 2
        (tmp_path / "t.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'<rect width="100%" height="100%" fill="white"/>{cells}</svg>')
        for zoom in (1.0, 1.3):
            subprocess.run(["rsvg-convert", str(tmp_path / "t.svg"), "-z", str(zoom), "-o",
                            str(tmp_path / "t.png")], check=True)
            grey = cv2.imread(str(tmp_path / "t.png"), cv2.IMREAD_GRAYSCALE)
            step = size * 2.5 * zoom
            for i, text in enumerate(texts):
                cell = grey[:, int(i * step):int((i + 1) * step)]
                reading = reader.read(cell < 128)
                assert (reading.text, reading.unsure) == (text, None), (size, zoom, text, reading)


def small_recipe(monkeypatch, cache):
    """A recipe of Pillow's font at one size, its cache in ``cache``: quick."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(glyphset, "FONT_SIZES", (20,))
    monkeypatch.setattr(glyphset, "font_files", lambda: [])


def test_the_trained_set_is_cached_and_read_back_the_same(monkeypatch, tmp_path):
    small_recipe(monkeypatch, tmp_path)
    first = glyphset.trained_set()
    stored = list((tmp_path / "pzc").glob("glyphs-*.npz"))
    assert len(stored) == 1
    again = glyphset.trained_set()
    for a, b in zip(first, again):
        assert np.array_equal(a, b)
    # a corrupt cache is rendered again and rewritten
    stored[0].write_bytes(b"PK\x03\x04 not a zip")
    rebuilt = glyphset.trained_set()
    assert np.array_equal(rebuilt[0], first[0])
    assert np.array_equal(glyphset.trained_set()[0], first[0])


def test_a_cache_that_cannot_be_written_is_no_error(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would go")
    small_recipe(monkeypatch, blocked)
    features, labels, widest = glyphset.trained_set()
    assert len(features) == len(labels) > 0
    assert set(labels.tolist()) == set(range(len(glyphset.CLASSES)))


def test_rendering_is_deterministic(monkeypatch, tmp_path):
    small_recipe(monkeypatch, tmp_path)
    a = glyphset.render_training_set()
    b = glyphset.render_training_set()
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
