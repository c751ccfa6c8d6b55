"""puzz.link's board as its page shows it: pzprjs (npm `pzpr`, found as
tests/pzprjs.py finds it) draws a puzzle URL on a page in headless Chromium,
the way puzz.link's player page does (`new pzpr.Puzzle(div, {type:
'player'})`, its own colours, SVG on the page, the board in a padded white
box), and Selenium takes a screenshot of the board's box.

    with BoardPage() as page:
        png = page.screenshot(url, cellsize=32, scale=1.25)    # PNG bytes
        assert page.outside_requests() == []

The page lives in a temporary folder beside links to pzpr.js and its
pzpr-variety/ scripts, opened as file://: nothing comes from the network
(`outside_requests` lists any request that is not file://, from Chromium's
network log).  `scale` is the device scale factor (a HiDPI screen or a
browser zoom): the picture's cells are cellsize * scale pixels.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pzprjs
from browser import browser

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    webdriver = None

DRIVER = shutil.which("chromedriver")
WINDOW = (1400, 1100)

# the layout of puzz.link's player page around the board: a white main box,
# the board's div padded by 8px, centred
PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>pzprjs board</title>
<style>
body { margin: 0; padding: 0; color: black; }
#main { background: white; margin: 8pt auto; text-align: center; }
#quesboard { margin: 16pt auto; text-align: center; }
#divques { display: inline-block; position: relative; padding: 8px; }
</style>
<script src="pzpr.js"></script></head>
<body><div id="main"><div id="quesboard"><div id="divques"></div></div></div>
<script>
// a new player for each URL, as a fresh page would make; `done` gets the URL
// pzprjs reads back, or an error text
function draw(url, cellsize, done) {
  var box = document.getElementById('divques');
  box.innerHTML = '';
  var puzzle = new pzpr.Puzzle(box, {type: 'player'});
  puzzle.setCanvasSizeByCellSize(cellsize);
  puzzle.once('fail-open', function () { done({error: 'pzprjs cannot open ' + url}); });
  try {
    puzzle.open(url, function () { done({url: puzzle.getURL()}); });
  } catch (e) {
    done({error: String(e && e.message || e)});
  }
}
</script></body></html>
"""


def missing() -> str | None:
    """What this machine lacks for these pictures, or None."""
    if webdriver is None:
        return "needs selenium (the test extras)"
    if DRIVER is None or browser() is None:
        return "needs chromium and chromium-driver"
    if not pzprjs.available():
        return "needs node and the npm package pzpr (set PZPR_NODE_MODULES)"
    return None


class BoardPage:
    """One headless Chromium session showing pzprjs boards; a context manager."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="pzprjs-page-"))
        dist = pzprjs.modules() / "pzpr" / "dist"
        (self.folder / "pzpr.js").symlink_to(dist / "pzpr.js")
        (self.folder / "pzpr-variety").symlink_to(dist / "pzpr-variety",
                                                  target_is_directory=True)
        (self.folder / "board.html").write_text(PAGE, encoding="utf-8")
        options = Options()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}"):
            options.add_argument(flag)
        options.binary_location = browser()
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(DRIVER))
        self.driver.set_script_timeout(60)
        self.driver.get((self.folder / "board.html").as_uri())
        self.requested: list = []
        self.scale = None

    def screenshot(self, url: str, cellsize: int, scale: float = 1.0) -> bytes:
        """A PNG of the board's box with ``url`` drawn at ``cellsize`` CSS
        pixels a cell, on a screen of device scale factor ``scale``."""
        if scale != self.scale:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": scale,
                "mobile": False})
            self.scale = scale
        drawn = self.driver.execute_async_script(
            "draw(arguments[0], arguments[1], arguments[2])", url, cellsize)
        if "error" in drawn:
            raise RuntimeError(drawn["error"])
        return self.driver.find_element(By.ID, "divques").screenshot_as_png

    def outside_requests(self) -> list:
        """The addresses the page asked for that are not local files."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                self.requested.append(message["params"]["request"]["url"])
        return [u for u in self.requested if not u.startswith(("file:", "data:", "about:"))]

    def close(self):
        self.driver.quit()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
