"""pzc serve's page in a real browser: headless Chromium driven by Selenium
(Debian's chromium and chromium-driver; .ci/run installs them), against a
real `pzc serve --port 0`.  Skipped where either is missing.

PZC_SCREENSHOTS=1 also writes the screenshots docs/workbench.md shows
(docs/workbench-*.png), so that the docs do not change on every run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from browser import browser
from pzc import api
from serve_cases import BLANK_3X3, NONE, ONE_CLUE_SHORT, SEVERAL, UNIQUE
from timelimit_cases import EXPONENTIAL

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    webdriver = None

DOCS = Path(__file__).resolve().parents[1] / "docs"
DRIVER = shutil.which("chromedriver")
FINAL = ("solved", "unique", "several", "none", "timeout", "stopped", "generated", "error")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(webdriver is None or DRIVER is None or browser() is None,
                                 reason="needs selenium, chromium and chromium-driver")]


@pytest.fixture(scope="module")
def address():
    """A real `pzc serve` on a free port; its address."""
    server = subprocess.Popen([sys.executable, "-m", "pzc.cli", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert "the workbench is at http://127.0.0.1:" in line, line
        yield line.split(" at ")[1].split()[0]
    finally:
        server.terminate()
        server.wait(30)


@pytest.fixture(scope="module")
def page(address):
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,900"):
        options.add_argument(flag)
    options.binary_location = browser()
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})    # its requests
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.get(address)
    yield driver
    driver.quit()


def by_id(page, name):
    return page.find_element(By.ID, name)


def paste(page, name, text):
    """Put text in a field as a paste does (the page hears an input event)."""
    page.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                        " e.dispatchEvent(new Event('input'));", name, text)


def wait_for(page, what, seconds=60):
    return WebDriverWait(page, seconds, poll_frequency=0.05).until(lambda _: what())


def status(page) -> str:
    return by_id(page, "status").get_attribute("class")


def press(page, button, seconds=60) -> str:
    """Click a button; the status it ends with (its line checked against the class)."""
    old = by_id(page, "status").get_attribute("data-job")
    by_id(page, button).click()
    wait_for(page, lambda: status(page) in FINAL
             and by_id(page, "status").get_attribute("data-job") != old, seconds)
    return status(page)


def load(page, url):
    """Paste a URL; wait until the board as read is drawn."""
    paste(page, "spec-text", "")
    paste(page, "puzzle", url)
    wait_for(page, lambda: "Read as" in by_id(page, "status").text)
    return by_id(page, "board").get_attribute("innerHTML")


def svg(page, name="result") -> str:
    return by_id(page, name).get_attribute("innerHTML")


def screenshot(page, name):
    if os.environ.get("PZC_SCREENSHOTS") == "1":
        page.save_screenshot(str(DOCS / f"workbench-{name}.png"))


@pytest.mark.parametrize("url", UNIQUE)
def test_each_button_on_a_unique_puzzle(page, url):
    board = load(page, url)
    assert board.startswith("<svg") and "as read" in board
    assert by_id(page, "puzzlink").get_attribute("href") == url
    assert press(page, "solve") == "solved"
    assert svg(page).startswith("<svg") and svg(page) != board
    assert by_id(page, "download").is_displayed()
    assert by_id(page, "download").get_attribute("download").endswith("-answer.txt")
    assert press(page, "unique") == "unique"
    assert by_id(page, "status").text.startswith("Unique answer (")
    if url == UNIQUE[0]:
        screenshot(page, "unique")
    assert press(page, "deduce") == "unique"


@pytest.mark.parametrize("url", [SEVERAL, ONE_CLUE_SHORT])
def test_several_answers_and_what_they_share(page, url):
    load(page, url)
    assert press(page, "unique") == "several"
    assert "NOT unique" in by_id(page, "status").text
    assert press(page, "deduce") == "several"
    assert "places determined" in by_id(page, "status").text
    assert "places determined" in by_id(page, "text").text
    # the download holds what every solution shares (the puzzle alone when nothing is)
    assert by_id(page, "download").is_displayed()
    if url == ONE_CLUE_SHORT:
        screenshot(page, "deduce")


def test_no_answer_and_why(page):
    load(page, NONE)
    assert press(page, "solve") == "none"
    assert by_id(page, "status").text.startswith("No answer (")
    assert "suggested" in by_id(page, "explain").get_attribute("class")
    assert not by_id(page, "download").is_displayed()
    assert press(page, "explain") == "none"
    assert "no solution: these" in by_id(page, "text").text
    screenshot(page, "explain")


def test_generate_puts_a_new_puzzle_on_the_board(page):
    load(page, UNIQUE[0])
    assert by_id(page, "generate").is_enabled()
    assert press(page, "generate") == "generated"
    assert by_id(page, "status").text.startswith("Generated a puzzle with exactly one answer")
    made = by_id(page, "puzzle").get_property("value")
    assert made.startswith("https://puzz.link/p?nurikabe/5/5/") and made != UNIQUE[0]
    assert by_id(page, "puzzlink").get_attribute("href") == made
    assert press(page, "unique") == "unique"          # the new puzzle is the one checked


def test_a_located_error_for_a_bad_url_and_a_bad_spec(page):
    paste(page, "puzzle", "https://puzz.link/p?akari/3/3/4")
    wait_for(page, lambda: by_id(page, "error").is_displayed())
    assert "1:32: error: the body ends" in by_id(page, "error").text
    by_id(page, "own-spec").click()
    paste(page, "puzzle", BLANK_3X3)
    paste(page, "spec-text", "puzzle mine\nboard square\nvar v[c in cells] : bool\nshow v\n"
                             "rule r: all c on cells: v[c]\n")
    wait_for(page, lambda: "<pasted spec>:5:15" in by_id(page, "error").text)
    screenshot(page, "error")
    by_id(page, "own-spec").click()


def test_a_pzprv3_file_and_a_text_instance_with_its_spec_chosen(page):
    spec = api.load_spec(api.spec_for_puzzle(UNIQUE[1]))
    inst = api.load_instances(spec, "puzzle", text=UNIQUE[1])[0]
    board = load(page, api.write_instance(spec, inst, "pzprv3"))
    assert board.startswith("<svg") and press(page, "solve") == "solved"
    paste(page, "puzzle", api.write_instance(spec, inst, "text"))
    wait_for(page, lambda: by_id(page, "error").is_displayed())
    assert "choose its spec in the Spec list" in by_id(page, "error").text
    Select(by_id(page, "spec")).select_by_value(spec.name)
    wait_for(page, lambda: "Read as akari" in by_id(page, "status").text)
    assert not by_id(page, "error").is_displayed()
    assert by_id(page, "puzzlink").get_attribute("href") == UNIQUE[1]
    assert press(page, "solve") == "solved"
    Select(by_id(page, "spec")).select_by_value("")
    load(page, "https://puzz.link/p?lits/5/5/9arkk285")     # no generate lines
    assert not by_id(page, "generate").is_enabled()


def test_stop_ends_a_long_job_and_the_next_runs_at_once(page):
    by_id(page, "timeout").clear()                     # no time limit: only Stop ends it
    paste(page, "puzzle", BLANK_3X3)
    paste(page, "spec-text", EXPONENTIAL)
    wait_for(page, lambda: "Read as" in by_id(page, "status").text)
    by_id(page, "solve").click()
    wait_for(page, lambda: status(page) == "running")
    time.sleep(1.0)
    assert status(page) == "running"
    screenshot(page, "running")
    assert press(page, "stop", seconds=10) == "stopped"
    load(page, UNIQUE[1])
    assert press(page, "solve", seconds=10) == "solved"
    by_id(page, "timeout").send_keys("20")


def test_a_time_limit_from_the_page(page):
    by_id(page, "timeout").clear()
    by_id(page, "timeout").send_keys("1")
    paste(page, "puzzle", BLANK_3X3)
    paste(page, "spec-text", EXPONENTIAL)
    wait_for(page, lambda: "Read as" in by_id(page, "status").text)
    assert press(page, "solve", seconds=10) == "timeout"
    assert by_id(page, "status").text.startswith("Time limit reached (")
    by_id(page, "timeout").clear()
    by_id(page, "timeout").send_keys("20")


def test_a_url_parameter_sends_a_puzzle_to_the_page(page, address):
    page.get(address + "?url=" + quote(UNIQUE[2], safe=""))
    wait_for(page, lambda: "Read as" in by_id(page, "status").text)
    assert by_id(page, "puzzle").get_property("value") == UNIQUE[2]
    assert svg(page, "board").startswith("<svg")
    mark = by_id(page, "bookmarklet").get_dom_attribute("href")
    assert mark.startswith("javascript:") and f'"{address}?url="' in mark
    # the bookmarklet run on another page (here the page's style sheet, as no puzz.link
    # page is at hand offline) sends that page's address to the workbench
    elsewhere = address + "static/workbench.css?p=nurikabe/5/5/g5k2o1k3g"
    page.get(elsewhere)
    page.execute_script(mark[len("javascript:"):])
    wait_for(page, lambda: page.current_url.startswith(address + "?url="))
    wait_for(page, lambda: by_id(page, "puzzle").get_property("value") == elsewhere)



def test_the_page_loads_nothing_from_another_host(page, address):
    """Offline: every request the page made in these tests went to pzc serve."""
    page.get(address + "?url=" + quote(UNIQUE[0], safe=""))
    wait_for(page, lambda: "Read as" in by_id(page, "status").text)
    assert press(page, "solve") == "solved"
    asked = [json.loads(entry["message"])["message"] for entry in page.get_log("performance")]
    urls = [m["params"]["request"]["url"] for m in asked
            if m["method"] == "Network.requestWillBeSent"]
    assert any(url.startswith(address + "api/jobs") for url in urls)
    assert [url for url in urls if not url.startswith((address, "data:", "blob:"))] == []
