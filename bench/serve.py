"""pzc benchmark: what the workbench's jobs cost (pzc serve), as the page sees it.

    python bench/serve.py                  # 20 rounds
    python bench/serve.py --rounds 50
    python bench/serve.py --browser        # and the same Stop seen on the page

Starts a real `pzc serve --port 0` (this checkout's) and talks HTTP to it, as
the page does (start a job, poll for its reply).  Median and worst of each:

  first job          the first Read after the start (it waits for the jobs'
                     fork server to load the built-in specs: tasks/serve/warm.py)
  job vs in-process  a Solve job's round trip beside the same api.solve in
                     this process, on four genres' puzz.link URLs: the price
                     of a process per job
  stop               Stop on a job that would run for ever (an exponential
                     require, no time limit): the stop request's round trip,
                     the seconds until the killed process is reaped
                     (freed_s), and the next Solve job's round trip after it
  --browser          the page in headless Chromium (Selenium, chromium-driver):
                     from the click on Stop to the status line "Stopped",
                     and from the next click on Solve to "Solved" (beside what
                     WebDriver alone takes for a click and a look)
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pzc import api  # noqa: E402
from serve_cases import BLANK_3X3, UNIQUE  # noqa: E402
from timelimit_cases import EXPONENTIAL  # noqa: E402


class Server:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "pzc.cli", "serve", "--port", "0"],
                                        stdout=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().split(" at ")[1].split()[0]

    def call(self, path, body=None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.address + path.lstrip("/"), data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())

    def job(self, **given) -> dict:
        key = self.call("/api/jobs", given)["job"]
        while True:
            reply = self.call(f"/api/jobs/{key}?wait=5")
            if reply["status"] != "running":
                return reply

    def close(self):
        self.process.terminate()
        self.process.wait(30)


def timed(fn):
    began = time.perf_counter()
    out = fn()
    return time.perf_counter() - began, out


def line(name, values):
    ms = [v * 1000 for v in values]
    print(f"  {name:<34} median {statistics.median(ms):7.1f} ms   worst {max(ms):7.1f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--browser", action="store_true",
                        help="also time Stop on the page in headless Chromium")
    args = parser.parse_args(argv)
    server = Server()
    try:
        first, _ = timed(lambda: server.job(action="read", puzzle=UNIQUE[0]))
        print(f"pzc serve jobs, {args.rounds} rounds")
        line("first job (Read)", [first])
        for url in UNIQUE:
            spec = api.load_spec(api.spec_for_puzzle(url))
            inst = api.load_instances(spec, "puzzle", text=url)[0]
            here = [timed(lambda: api.solve(spec, inst))[0] for _ in range(args.rounds)]
            there = [timed(lambda: server.job(action="solve", puzzle=url))[0]
                     for _ in range(args.rounds)]
            print(url)
            line("api.solve in process", here)
            line("Solve job (round trip)", there)
        stops, freed, after = [], [], []
        for _ in range(args.rounds):
            key = server.call("/api/jobs", {"action": "solve", "puzzle": BLANK_3X3,
                                            "spec_text": EXPONENTIAL})["job"]
            time.sleep(0.3)
            seconds, reply = timed(lambda: server.call(f"/api/jobs/{key}/stop", {}))
            assert reply["status"] == "stopped", reply
            stops.append(seconds)
            freed.append(reply["freed_s"])
            seconds, reply = timed(lambda: server.job(action="solve", puzzle=UNIQUE[0]))
            assert reply["status"] == "solved", reply
            after.append(seconds)
        print("Stop on a job that runs for ever")
        line("stop request (round trip)", stops)
        line("killed process reaped (freed_s)", freed)
        line("next Solve job (round trip)", after)
        if args.browser:
            on_the_page(server.address, args.rounds)
    finally:
        server.close()


def on_the_page(address, rounds):
    """Stop and the next Solve as the page shows them: the page's requests,
    and WebDriver's own round trips for the click and each look at the
    status line, included."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from browser import browser

    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(flag)
    # Debian's chromium and chromedriver, named: Selenium would otherwise look online
    options.binary_location = browser()
    page = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))

    def paste(name, text):
        page.execute_script("const e = document.getElementById(arguments[0]); "
                            "e.value = arguments[1]; e.dispatchEvent(new Event('input'));",
                            name, text)

    def until(kind):
        WebDriverWait(page, 30, poll_frequency=0.005).until(
            lambda _: page.find_element(By.ID, "status").get_attribute("class") == kind)

    def click(button, kind):
        began = time.perf_counter()
        page.find_element(By.ID, button).click()
        until(kind)
        return time.perf_counter() - began

    try:
        page.get(address)
        page.find_element(By.ID, "timeout").clear()
        stops, after, idle = [], [], []
        for _ in range(rounds):
            paste("puzzle", BLANK_3X3)
            paste("spec-text", EXPONENTIAL)
            until("idle")
            page.find_element(By.ID, "solve").click()
            until("running")
            time.sleep(0.3)
            stops.append(click("stop", "stopped"))
            paste("spec-text", "")
            paste("puzzle", UNIQUE[0])
            until("idle")
            after.append(click("solve", "solved"))
            idle.append(click("result-caption", "solved"))      # a click that does nothing
        print("On the page (headless Chromium)")
        line("WebDriver alone: a click, a look", idle)
        line("Stop clicked -> 'Stopped' shown", stops)
        line("Solve clicked -> 'Solved' shown", after)
    finally:
        page.quit()


if __name__ == "__main__":
    main()
