"""`pzc read`: puzzles read back from pictures nobody here drew.

puzz.link's own engine (npm `pzpr`, tests/pzprjs.py) draws each genre's
example as SVG at a cell size; librsvg (rsvg-convert) rasterizes it at a
zoom; `pzc read` must give back the same puzzle (the same puzz.link URL).
pzc's own pictures are read back too, with other fonts, blur and JPEG
compression.  A picture with a place the reader cannot be sure of ends in a
located error (exit 2), never in another puzzle.  Skipped where node, pzpr
or rsvg-convert are absent (.ci/run installs them).
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

import pzprjs
from conftest import EXAMPLES, example_url, run_cli
from pzc import api

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

# genres whose example pzprjs draws and pzc reads back at every size here:
# numbers, '?', black cells with numbers, circles, numbers in circles,
# region walls with numbers, dashed and dotted grids
GENRES = ["akari", "canal", "chocona", "cojun", "countryroad", "fillomino", "hanare",
          "heyawake", "hitori", "kurodoko", "lits", "masyu", "mines", "nanro",
          "norinori", "numberlink", "nurikabe", "nurimisaki", "ripple",
          "shakashaka", "shikaku", "shimaguni", "slitherlink", "sudoku",
          "sukoro", "yinyang"]
# genres pzc reads exactly at some sizes only (numbers in circles touching
# the ring, tiny corner numbers, moons drawn as crescents, Paint Area's grid
# lines and walls both 2 pixels at 24 px zoom 1.3): exact or a located
# "unsure", never another puzzle
SOMETIMES = ["kurotto", "juosan", "factors", "moonsun", "paintarea"]
# (pzprjs cell size, rsvg-convert zoom)
VIEWS = [(36, 1.0), (24, 1.3), (48, 0.8)]


@pytest.fixture(scope="module")
def pzprjs_pictures(tmp_path_factory):
    """{(genre, size, zoom): PNG path} of pzprjs's pictures of the examples."""
    pzprjs.need()
    if shutil.which("rsvg-convert") is None:
        pytest.skip("needs rsvg-convert (Debian's librsvg2-bin)")
    folder = tmp_path_factory.mktemp("pzprjs-pictures")
    known = pzprjs.known_types({api.load_spec(name).url_types[0] for name in GENRES + SOMETIMES})
    jobs = [(name, size, zoom) for name in GENRES + SOMETIMES for size, zoom in VIEWS
            if api.load_spec(name).url_types[0] in known]
    svgs = pzprjs.svgs([{"open": example_url(name), "cellsize": size}
                        for name, size, _ in jobs])
    out = {}
    for (name, size, zoom), svg in zip(jobs, svgs):
        assert isinstance(svg, str), (name, svg)
        path = folder / f"{name}-{size}-{zoom}.png"
        path.write_bytes(pzprjs.rasterize(svg, zoom))
        out[(name, size, zoom)] = path
    return out


@pytest.mark.parametrize("name", GENRES)
def test_pzprjs_pictures_read_back(pzprjs_pictures, name):
    spec = api.load_spec(name)
    if (name, 36, 1.0) not in pzprjs_pictures:
        pytest.skip(f"the npm package pzpr has no {spec.url_types[0]}")
    url = example_url(name)
    for size, zoom in VIEWS:
        reading = api.read_picture(spec, str(pzprjs_pictures[(name, size, zoom)]))
        assert reading.url == url, (size, zoom)


@pytest.mark.parametrize("name", SOMETIMES)
def test_pzprjs_pictures_never_read_wrong(pzprjs_pictures, name):
    spec = api.load_spec(name)
    if (name, 36, 1.0) not in pzprjs_pictures:
        pytest.skip(f"the npm package pzpr has no {spec.url_types[0]}")
    for size, zoom in VIEWS:
        try:
            reading = api.read_picture(spec, str(pzprjs_pictures[(name, size, zoom)]))
        except api.PzcError as e:
            assert re.search(r"row \d+, column \d+ .*: unsure: ", e.format()), e.format()
        else:
            assert reading.url == example_url(name), (size, zoom)


def test_solve_reads_a_picture(pzprjs_pictures):
    """Any command takes a picture as its INSTANCE: solve prints the verified
    answer of the puzzle in it, the same as of its URL."""
    picture = pzprjs_pictures[("masyu", 36, 1.0)]
    by_picture = run_cli("solve", "masyu", str(picture), "--format", "json")
    by_url = run_cli("solve", "masyu", example_url("masyu"), "--format", "json")
    assert by_picture.returncode == 0, by_picture.stderr
    got, want = json.loads(by_picture.stdout), json.loads(by_url.stdout)
    assert got["verified"] is True
    assert got["grid"] == want["grid"]


def test_several_pictures(pzprjs_pictures, tmp_path):
    """One URL a picture, in order; one that cannot be read is reported and
    the others are still written (exit 2)."""
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((100, 100, 3), 255, np.uint8))
    pictures = [str(pzprjs_pictures[("nurikabe", size, zoom)]) for size, zoom in VIEWS]
    run = run_cli("read", "nurikabe", pictures[0], str(blank), *pictures[1:], "--format", "url")
    assert run.returncode == 2 and "blank.png: error: found no board" in run.stderr
    assert run.stdout.split() == [example_url("nurikabe")] * 3


def test_read_formats(pzprjs_pictures, tmp_path):
    picture = str(pzprjs_pictures[("heyawake", 36, 1.0)])
    url = run_cli("read", "heyawake", picture, "--format", "url")
    assert url.returncode == 0, url.stderr
    assert url.stdout.strip() == example_url("heyawake")
    text = run_cli("read", "heyawake", picture)
    spec = api.load_spec("heyawake")
    (tmp_path / "h.txt").write_text(text.stdout)
    again = api.load_instances(spec, str(tmp_path / "h.txt"))[0]
    assert api.write_instance(spec, again, "url") == url.stdout.strip()
    data = json.loads(run_cli("read", "heyawake", picture, "--format", "json").stdout)
    assert data["url"] == url.stdout.strip()
    assert data["board"]["rows"] == 6 and data["board"]["cols"] == 6
    # each cell's centre lies in the picture, a cell apart from its neighbour
    centres = {(c["row"], c["col"]): (c["x"], c["y"]) for c in data["cells"]}
    assert len(centres) == 36
    step = centres[(0, 1)][0] - centres[(0, 0)][0]
    assert step == pytest.approx(data["board"]["cell"], abs=0.5)
    assert centres[(5, 5)][1] - centres[(0, 5)][1] == pytest.approx(5 * step, abs=1)
    pz = run_cli("read", "heyawake", picture, "--format", "pzprv3")
    assert pz.stdout.startswith("pzprv3")


def test_debug_image(pzprjs_pictures, tmp_path):
    picture = str(pzprjs_pictures[("akari", 36, 1.0)])
    out = tmp_path / "seen.png"
    run = run_cli("read", "akari", picture, "--debug-image", str(out))
    assert run.returncode == 0, run.stderr
    drawn, original = cv2.imread(str(out)), cv2.imread(picture)
    assert drawn.shape == original.shape and (drawn != original).any()


# ---------------------------------------------------------------------------
# pzc's own pictures, other fonts, blur, JPEG

OWN = ["akari", "heyawake", "masyu", "nurikabe", "slitherlink", "sudoku", "lits", "hitori"]


def own_picture(name: str, font: str, zoom: float) -> np.ndarray:
    from pzc.tasks.pictures.draw import board_svg
    spec = api.load_spec(name)
    inst = api.load_instances(spec, str(sorted((EXAMPLES / name).glob("*"))[0]))[0]
    svg = re.sub(r'font-family="[^"]*"', f'font-family="{font}"', board_svg(spec, inst))
    png = pzprjs.rasterize(svg, zoom)
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)


@pytest.mark.parametrize("name", OWN)
@pytest.mark.parametrize("font,zoom,spoil", [("DejaVu Sans", 1.0, None),
                                             ("Liberation Sans", 1.4, None),
                                             ("DejaVu Sans", 1.2, "blur"),
                                             ("Liberation Sans", 1.0, "jpeg")])
def test_own_pictures_read_back(tmp_path, name, font, zoom, spoil):
    image = own_picture(name, font, zoom)
    if spoil == "blur":
        image = cv2.GaussianBlur(image, (3, 3), 0.8)
    suffix = ".jpg" if spoil == "jpeg" else ".png"
    path = tmp_path / f"{name}{suffix}"
    params = [cv2.IMWRITE_JPEG_QUALITY, 75] if spoil == "jpeg" else []
    assert cv2.imwrite(str(path), image, params)
    assert api.read_picture(api.load_spec(name), str(path)).url == example_url(name)


# ---------------------------------------------------------------------------
# errors: located, exit 2, never another puzzle

def test_a_smudged_digit_is_unsure_at_its_cell(pzprjs_pictures, tmp_path):
    """A blot over one clue: the error names that cell and what it saw."""
    picture = pzprjs_pictures[("nurikabe", 36, 1.0)]
    image = cv2.imread(str(picture))
    spec = api.load_spec("nurikabe")
    reading = api.read_picture(spec, str(picture))
    (r, c), _ = next((cell, look) for cell, look in sorted(reading.looks.items()) if look.text)
    x, y = reading.centres[(r, c)]
    cell = reading.board.cell
    cv2.ellipse(image, (int(x), int(y)), (int(cell * 0.3), int(cell * 0.12)), 30, 0, 360,
                (0, 0, 0), -1)
    path = tmp_path / "blot.png"
    cv2.imwrite(str(path), image)
    seen = tmp_path / "seen.png"
    run = run_cli("read", "nurikabe", str(path), "--debug-image", str(seen))
    assert run.returncode == 2
    assert f"row {r + 1}, column {c + 1}" in run.stderr and "unsure" in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""
    # the debug picture boxes the unsure cell in red
    drawn = cv2.imread(str(seen))
    x0, y0, x1, y1 = (int(v) for v in re.search(
        r"pixels x (\d+)-(\d+), y (\d+)-(\d+)", run.stderr).group(1, 3, 2, 4))
    edge = drawn[y0, x0:x1 + 1]
    assert ((edge[:, 2] > 200) & (edge[:, 0] < 60)).mean() > 0.8


def test_a_mark_the_spec_has_no_clue_for(pzprjs_pictures):
    """Masyu's circles read as Nurikabe: a located error at the first circle."""
    run = run_cli("read", "nurikabe", str(pzprjs_pictures[("masyu", 36, 1.0)]))
    assert run.returncode == 2
    assert re.search(r"row \d+, column \d+ \(pixels x \d+-\d+, y \d+-\d+\): unsure: a white "
                     r"circle, which no clue of the spec 'nurikabe' looks like", run.stderr)


def test_pictures_that_hold_no_board(tmp_path):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 255, np.uint8))
    run = run_cli("read", "nurikabe", str(blank))
    assert run.returncode == 2 and "found no board" in run.stderr
    fake = tmp_path / "fake.png"
    fake.write_text("not a picture\n")
    run = run_cli("read", "nurikabe", str(fake))
    assert run.returncode == 2 and "not a picture" in run.stderr and "Traceback" not in run.stderr
    run = run_cli("read", "nurikabe", str(tmp_path / "missing.png"))
    assert run.returncode == 2 and "cannot read the picture" in run.stderr


def test_specs_whose_clues_have_no_known_look(tmp_path):
    picture = tmp_path / "p.png"
    cv2.imwrite(str(picture), np.full((50, 50, 3), 255, np.uint8))
    run = run_cli("read", "kenken", str(picture))
    assert run.returncode == 2 and "no puzz.link `url` line" in run.stderr
    run = run_cli("read", "hakoiri", str(picture))
    assert run.returncode == 2 and "drawn as shapes" in run.stderr
    run = run_cli("read", "castle", str(picture))
    assert run.returncode == 2 and "cannot yet read colourarrows" in run.stderr
