"""`pzc read` on screenshots of puzz.link's page: pzprjs draws each genre's
example on a page in headless Chromium as puzz.link's player page does (its
own colours, tests/pzprjs_page.py), Selenium screenshots the board's box at
a cell size and a device scale factor (24 to 60 pixels a cell), and
`api.read_picture` must give back the example's URL.  A genre the reader
does not read yet at every view is in KNOWN_FAILURES with the reason; it
may end in a located error there, never in another puzzle.  One browser
session takes every picture.  Skipped without selenium, chromium,
chromium-driver, node or the npm package pzpr.
"""

from __future__ import annotations

import pytest

import pzprjs_page
from conftest import example_url
from pzc import api

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(pzprjs_page.missing() is not None,
                                 reason=pzprjs_page.missing() or "")]

GENRES = ["akari", "chocona", "cojun", "countryroad", "fillomino", "hanare", "heyawake",
          "hitori", "kurochute", "kurotto", "lits", "masyu", "nanro", "nawabari", "norinori",
          "numberlink", "nurikabe", "paintarea", "ripple", "shakashaka", "shikaku",
          "shimaguni", "slitherlink", "sudoku", "sukoro", "usoone", "yinyang"]
# genres read at some views only, or not at all, with what the reader says:
# each must still end in a located error, never another puzzle (the list is
# strict: a genre read at every view must leave it)
KNOWN_FAILURES = {
    "kurodoko": "24 px cells: a circled clue is 'a mark that is none of 0-9 ?' (unsure)",
    "juosan": "24 px cells: the small room number in a cell's corner, '3' or '1' (unsure)",
    "moonsun": "the moon is no glyph pzc knows: 'a mark that is none of 0-9 ?'",
    "shirokuro": "pzprjs draws no grid for it: 'found no board' (rsvg pictures too)",
    "hashi": "pzprjs draws no grid for it: 'found no board' (rsvg pictures too)",
    "cave": "its outer cells' grey lines: 'without a frame, but marks outside it'",
    "factors": "the small product in a room's corner: '?' or '7', touching glyphs",
}
# (CSS pixels a cell, device scale factor): 24, 40 and 60 pixels a cell
VIEWS = [(24, 1.0), (32, 1.25), (40, 1.5)]


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    """{(genre, cellsize, scale): PNG path} of every genre's example at every
    view, and the addresses the page asked for off this machine."""
    folder = tmp_path_factory.mktemp("pzprjs-page")
    out = {}
    with pzprjs_page.BoardPage() as page:
        for name in GENRES + sorted(KNOWN_FAILURES):
            for size, scale in VIEWS:
                path = folder / f"{name}-{size}-{scale}.png"
                path.write_bytes(page.screenshot(example_url(name), size, scale))
                out[(name, size, scale)] = path
        outside = page.outside_requests()
    return out, outside


def read_views(screenshots, name):
    """{view: the URL read, or the error's text} of one genre's pictures."""
    pictures, _ = screenshots
    spec = api.load_spec(name)
    out = {}
    for size, scale in VIEWS:
        try:
            out[(size, scale)] = api.read_picture(spec, str(pictures[(name, size, scale)])).url
        except api.PzcError as e:
            out[(size, scale)] = e.format()
    return out


@pytest.mark.parametrize("name", GENRES)
def test_screenshots_read_back(screenshots, name):
    url = example_url(name)
    assert read_views(screenshots, name) == {view: url for view in VIEWS}


@pytest.mark.parametrize("name", sorted(KNOWN_FAILURES))
def test_known_failures_end_in_a_located_error(screenshots, name):
    url = example_url(name)
    seen = read_views(screenshots, name)
    for view, got in seen.items():
        # an error names the picture; a URL read must be the puzzle's own
        assert got == url or got.startswith(str(screenshots[0][(name, *view)]) + ": error: "), \
            (view, got)
    assert any(got != url for got in seen.values()), \
        f"{name} now reads back at every view: move it from KNOWN_FAILURES to GENRES"


def test_the_cells_are_as_large_as_the_view_makes_them(screenshots):
    """The scale factor reaches the picture: the reader finds cells of
    cellsize * scale pixels, the board where the page drew it."""
    pictures, _ = screenshots
    spec = api.load_spec("nurikabe")
    for size, scale in VIEWS:
        reading = api.read_picture(spec, str(pictures[("nurikabe", size, scale)]))
        assert reading.board.cell == pytest.approx(size * scale, abs=1.0), (size, scale)


def test_the_page_asks_nothing_of_the_network(screenshots):
    _, outside = screenshots
    assert outside == []
