"""pzc benchmark: what the workbench's jobs cost (pzc serve), as the page sees it.

    python bench/serve.py                  # 20 rounds
    python bench/serve.py --rounds 50

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
"""

from __future__ import annotations

import argparse
import json
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
    finally:
        server.close()


if __name__ == "__main__":
    main()
