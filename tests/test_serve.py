"""pzc serve (tasks/serve/): every endpoint through werkzeug's test client,
with real jobs in real processes; the page itself in a real browser is
tests/test_serve_browser.py."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest
from werkzeug.test import Client

from outcomes import no_traceback
from pzc import api
from pzc.tasks.explain.report import explain_lines
from pzc.tasks.serve.app import MAX_BODY, Workbench
from pzc.tasks.serve.jobs import Jobs, promised
from pzc.tasks.serve.work import MOST_DRAWN
from processes import holding
from serve_cases import BLANK_3X3, NONE, ONE_CLUE_SHORT, SEVERAL, UNIQUE
from timelimit_cases import EXPONENTIAL


@pytest.fixture(scope="module")
def jobs():
    jobs = Jobs()
    yield jobs
    jobs.close()


@pytest.fixture(scope="module")
def client(jobs):
    return Client(Workbench(jobs))


def start(client, **given):
    response = client.post("/api/jobs", json=given)
    assert response.status_code == 202, response.get_data(as_text=True)
    return response.json["job"]


def reply_of(client, key, limit=120):
    """The job's reply, polling as the page does."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        reply = client.get(f"/api/jobs/{key}?wait=5").json
        if reply["status"] != "running":
            return reply
    raise AssertionError(f"job {key} still running after {limit} s")


def run(client, **given):
    return reply_of(client, start(client, **given))


def same_instance(url):
    """The puzzle read here as the server reads it (named "puzzle")."""
    spec = api.load_spec(api.spec_for_puzzle(url))
    return spec, api.load_instances(spec, "puzzle", text=url)[0]


@pytest.mark.parametrize("url", UNIQUE)
def test_read_draws_the_board_and_links_back_to_puzzlink(client, url):
    reply = run(client, action="read", puzzle=url)
    spec, inst = same_instance(url)
    assert reply["status"] == "read" and reply["spec"] == spec.name
    assert reply["board"].startswith("<svg") and reply["svg"] == reply["board"]
    assert reply["url"] == api.write_instance(spec, inst, "url")
    assert reply["generate"] == (spec.generate is not None)


@pytest.mark.parametrize("url", UNIQUE)
def test_solve_and_unique_answer_as_the_library_does(client, url):
    spec, inst = same_instance(url)
    solved = run(client, action="solve", puzzle=url, timeout=60)
    expected = api.solve(spec, inst)
    assert solved["status"] == "solved" and expected.verified
    assert solved["text"][1:] == ["  " + row for row in expected.grid]
    assert solved["svg"].startswith("<svg") and solved["svg"] != solved["board"]
    # the answer file is the one --format pzprv3 writes, and it reads back as the puzzle
    assert solved["pzprv3"] == api.write_instance(spec, inst, "pzprv3", expected.answer)
    assert api.load_instances(spec, "x", text=solved["pzprv3"])[0].layers == inst.layers
    checked = run(client, action="unique", puzzle=url, timeout=60, backend="smt")
    assert checked["status"] == "unique" and checked["line"] == "Unique answer"
    assert api.count(spec, inst, limit=2).count == 1          # the other backend agrees


@pytest.mark.parametrize("url", UNIQUE)
def test_a_pzprv3_file_and_a_text_instance_read_as_the_url_does(client, url):
    spec, inst = same_instance(url)
    from_file = run(client, action="solve", puzzle=api.write_instance(spec, inst, "pzprv3"))
    assert from_file["status"] == "solved" and from_file["url"] == url
    # a text instance names no type: the spec is chosen on the page
    text = api.write_instance(spec, inst, "text")
    unread = run(client, action="read", puzzle=text)
    assert unread["status"] == "error" and unread["error"]["line"] == 1
    assert "choose its spec in the Spec list" in unread["error"]["message"]
    from_text = run(client, action="solve", puzzle=text, spec=spec.name)
    assert from_text["status"] == "solved" and from_text["url"] == url
    assert from_text["text"] == from_file["text"]


def test_several_and_none_as_a_count_finds_them(client):
    spec, inst = same_instance(SEVERAL)
    reply = run(client, action="unique", puzzle=SEVERAL, timeout=60)
    assert api.count(spec, inst, limit=2, backend="smt").count == 2
    assert reply["status"] == "several" and "NOT unique" in reply["line"]
    assert reply["svg"].count("<svg") >= 1 and "first" in reply["svg"]
    spec, inst = same_instance(NONE)
    assert api.count(spec, inst, backend="smt").count == 0
    for action in ("solve", "unique", "deduce"):
        reply = run(client, action=action, puzzle=NONE, timeout=60)
        assert reply["status"] == "none" and reply["line"] == "No answer", action
        assert reply["pzprv3"] is None


@pytest.mark.parametrize("url", [SEVERAL, ONE_CLUE_SHORT])
def test_deduce_counts_what_every_solution_shares(client, url):
    spec, inst = same_instance(url)
    reply = run(client, action="deduce", puzzle=url, timeout=60)
    other = api.deduce(spec, inst, backend="smt")
    assert reply["status"] == other.status == "several"
    assert reply["counts"] == {"determined": other.determined, "open": len(other.open),
                               "undecided": 0}
    assert reply["line"] == (f"NOT unique answer (multiple answers)! {other.determined} places "
                             f"determined, {len(other.open)} open")
    assert reply["text"][1:] == ["  " + row for row in other.board]
    # the download holds what every solution shares, as `pzc deduce --format pzprv3` writes
    # it (for SEVERAL, where nothing is determined, the puzzle alone)
    expected = api.write_instance(spec, inst, "pzprv3", api.deduce(spec, inst).answer)
    assert reply["pzprv3"] == expected


def test_deduce_on_a_unique_puzzle_downloads_its_answer(client):
    spec, inst = same_instance(UNIQUE[0])
    reply = run(client, action="deduce", puzzle=UNIQUE[0], timeout=60)
    assert reply["status"] == "unique" and reply["line"] == "Unique answer"
    solved = api.solve(spec, inst)
    assert reply["pzprv3"] == api.write_instance(spec, inst, "pzprv3", solved.answer)


def test_explain_names_a_core_of_a_puzzle_with_no_answer(client):
    spec, inst = same_instance(NONE)
    reply = run(client, action="explain", puzzle=NONE, timeout=60)
    expected = api.explain(spec, inst)
    assert reply["status"] == "none" and expected.status == "unsat"
    assert reply["text"] == explain_lines(expected)
    assert reply["svg"].startswith("<svg")


def test_generate_makes_a_unique_puzzle_like_the_one_shown(client):
    reply = run(client, action="generate", puzzle=UNIQUE[0], seed=7, timeout=60)
    assert reply["status"] == "generated" and reply["seed"] == 7
    spec, made = same_instance(reply["puzzle"])
    assert (made.geometry.width, made.geometry.height) == (5, 5)
    assert api.unique(spec, made).status == "unique"
    again = run(client, action="generate", puzzle=UNIQUE[0], seed=7, timeout=60)
    assert again["puzzle"] == reply["puzzle"]         # the seed alone makes it
    sized = run(client, action="generate", spec="nurikabe", size="6x4", seed=1, timeout=60)
    _, made = same_instance(sized["puzzle"])
    assert (made.geometry.width, made.geometry.height) == (6, 4)


def test_generate_is_refused_where_the_spec_has_no_generate_lines(client):
    reply = run(client, action="generate", puzzle="https://puzz.link/p?lits/5/5/9arkk285")
    assert reply["status"] == "error" and "generate" in reply["error"]["message"]


def test_a_pasted_spec_is_used_and_its_errors_are_located(client):
    spec = ("puzzle mine\nboard square\nvar v[c in cells] : bool\nshow v\n"
            "rule r: all c in cells: v[c]\n")
    reply = run(client, action="solve", puzzle=BLANK_3X3, spec_text=spec)
    assert reply["status"] == "solved" and reply["spec"] == "mine"
    broken = spec.replace("all c in", "all c on")
    reply = run(client, action="read", puzzle=BLANK_3X3, spec_text=broken)
    assert reply["status"] == "error"
    error = reply["error"]
    assert (error["file"], error["line"], error["column"]) == ("<pasted spec>", 5, 15)
    assert error["source_line"] == "rule r: all c on cells: v[c]"


@pytest.mark.parametrize("given, said", [
    ({"puzzle": "https://puzz.link/p?akari/3/3/4"}, "1:32: error: the body ends"),
    ({"puzzle": "https://puzz.link/p?nosuchgenre/3/3/4"}, "no built-in spec reads"),
    ({"puzzle": ""}, "paste a puzz.link URL"),
    ({"puzzle": BLANK_3X3, "spec": "/etc/passwd"}, "no built-in spec named '/etc/passwd'"),
    ({"puzzle": BLANK_3X3, "spec": "../specs/akari.pz"}, "no built-in spec named"),
    ({"puzzle": UNIQUE[0], "timeout": "soon"}, "time limit must be a number"),
    ({"puzzle": UNIQUE[0], "backend": "external"}, "unknown backend"),
    ({"puzzle": UNIQUE[0], "action": "format"}, "unknown action"),
])
def test_bad_input_is_a_located_error_not_a_crash(client, given, said):
    reply = run(client, **dict({"action": "solve"}, **given))
    assert reply["status"] == "error" and reply["line"] == "Error"
    assert said in reply["error"]["text"]


def test_no_request_names_a_file(client):
    assert client.get("/static/app.py").status_code == 404
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/workbench.js").status_code == 200
    page = client.get("/").get_data(as_text=True)
    # offline: nothing is loaded from another host
    assert "http://" not in page and "https://" not in page.replace("https://puzz.link/p?", "")
    for name in ("workbench.js", "workbench.css"):
        text = client.get(f"/static/{name}").get_data(as_text=True)
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_requests_are_limited_in_size_and_kind(client):
    huge = {"action": "read", "puzzle": "x" * MAX_BODY}
    response = client.post("/api/jobs", json=huge)
    assert response.status_code == 413 and "larger than" in response.json["error"]["message"]
    # a form post (what another site's page can send without asking) is refused
    response = client.post("/api/jobs", data={"action": "read"})
    assert response.status_code == 415
    key = start(client, action="read", puzzle=UNIQUE[0])
    assert client.post(f"/api/jobs/{key}/stop", data={"x": "1"}).status_code == 415
    response = client.post("/api/jobs", data="[1", content_type="application/json")
    assert response.status_code == 400
    assert client.get("/api/jobs/j999999").status_code == 404
    # DNS rebinding: a request addressed to another name is refused
    response = client.get("/api/specs", headers={"Host": "evil.example:8329"})
    assert response.status_code == 403
    assert "nurikabe" in client.get("/api/specs").json["specs"]


def test_stop_ends_the_job_at_once_and_frees_its_worker(client, jobs):
    key = start(client, action="solve", puzzle=BLANK_3X3, spec_text=EXPONENTIAL)
    time.sleep(0.5)
    assert client.get(f"/api/jobs/{key}?wait=0").json["status"] == "running"
    process = jobs.get(key).process
    stopped = client.post(f"/api/jobs/{key}/stop", json={}).json
    assert stopped["status"] == "stopped" and stopped["line"] == "Stopped"
    assert not process.is_alive()
    with pytest.raises(ProcessLookupError):         # its process group is gone too
        os.killpg(process.pid, 0)
    assert reply_of(client, key)["status"] == "stopped"
    assert run(client, action="solve", puzzle=UNIQUE[0])["status"] == "solved"


@pytest.mark.slow
@pytest.mark.parametrize("action", ["solve", "unique", "deduce", "explain", "generate"])
def test_a_time_limit_stops_the_job_and_says_so(client, action):
    began = time.monotonic()
    if action == "generate":        # a board too big to make in a second
        reply = run(client, action=action, spec="nurikabe", size="40x40", seed=1, timeout=1)
    else:
        reply = run(client, action=action, puzzle=BLANK_3X3, spec_text=EXPONENTIAL, timeout=1)
    assert reply["status"] == "timeout" and reply["line"] == "Time limit reached"
    assert reply["elapsed_s"] <= promised(1)
    assert time.monotonic() - began < 1 + 5       # the reply came, not a hang


def test_too_many_jobs_at_once_are_refused(client, jobs):
    keys = [start(client, action="solve", puzzle=BLANK_3X3, spec_text=EXPONENTIAL)
            for _ in range(jobs.most_running - jobs.running())]
    response = client.post("/api/jobs", json={"action": "read", "puzzle": UNIQUE[0]})
    assert response.status_code == 429
    for key in keys:
        client.post(f"/api/jobs/{key}/stop", json={})
    assert jobs.running() == 0


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_server_that_dies_leaves_no_job_running(how):
    """Its jobs (and the fork server they come from) end with it, however it ends."""
    mark = f"pzc-serve-test-{uuid.uuid4()}"
    server = subprocess.Popen([sys.executable, "-m", "pzc.cli", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PZC_SERVE_TEST_MARK=mark))
    address = server.stdout.readline().split(" at ")[1].split()[0]
    body = json.dumps({"action": "solve", "puzzle": BLANK_3X3, "spec_text": EXPONENTIAL})
    request = urllib.request.Request(address + "api/jobs", data=body.encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 202
    assert wait_until(lambda: len(holding(mark, "environ")) >= 3, 30)    # server, fork server, job
    server.send_signal(how)
    server.wait(30)
    assert wait_until(lambda: not holding(mark, "environ"), 10), holding(mark, "environ")


def wait_until(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.parametrize("args, said", [
    (["--port", "70000"], "expected a port number from 0 to 65535"),
    (["--port", "0", "--host", "203.0.113.1"], "pzc serve cannot listen on 203.0.113.1 port 0"),
    (["--port", "0", "--host", "no-such-host.invalid"], "pzc serve cannot listen on"),
])
def test_pzc_serve_that_cannot_listen_says_why(run_pzc, args, said):
    run = run_pzc("serve", *args, timeout=60)
    no_traceback(run)
    assert run.returncode == 2 and said in run.stderr


def test_pzc_serve_on_a_port_in_use_says_so(run_pzc):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        run = run_pzc("serve", "--port", str(port), timeout=60)
    no_traceback(run)
    assert run.returncode == 2 and "another program has it" in run.stderr


def test_reading_is_under_the_time_limit_too(client):
    """A board that takes a while to read (a 700x700 Akari, just under the
    size limit) stops at the limit, as on the command line."""
    side = 700
    board = "\n".join(" ".join("-" * side) for _ in range(side))
    reply = run(client, action="solve", spec="akari", puzzle=f"{side} {side}\n{board}\n",
                timeout=0.2)
    assert reply["status"] == "timeout" and reply["elapsed_s"] <= promised(0.2)


@pytest.mark.slow
def test_a_board_too_big_to_draw_is_solved_and_not_drawn(client):
    side = 101                          # more places than the page draws (MOST_DRAWN)
    assert side * side > MOST_DRAWN
    text = f"{side} {side}\n" + "\n".join(" ".join("-" * side) for _ in range(side)) + "\n"
    reply = run(client, action="solve", spec="akari", puzzle=text, timeout=60)
    assert reply["status"] == "solved" and reply["svg"] is None and reply["board"] is None
    assert reply["text"][0] == f"(the board has {side * side} places: more than {MOST_DRAWN} " \
                               f"are not drawn here)"
    assert reply["text"][1] == "puzzle: solved, verified"


def keeps_no_limit(conn, lifeline, given):
    """A job's stand-in that never answers (pzc's tasks keep their limits)."""
    time.sleep(3600)


@pytest.mark.slow
def test_a_job_that_keeps_no_limit_is_killed_within_the_promise():
    jobs = Jobs(target=keeps_no_limit)
    try:
        client = Client(Workbench(jobs))
        key = start(client, action="solve", timeout=1)
        process = jobs.get(key).process
        reply = reply_of(client, key)
        assert reply["status"] == "timeout" and reply["line"] == "Time limit reached"
        assert 1 < reply["elapsed_s"] <= promised(1)
        assert not process.is_alive()
    finally:
        jobs.close()
