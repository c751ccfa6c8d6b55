"""The workbench's web server (werkzeug, WSGI): the page and its JSON API.

    GET  /                      the page (index.html; ?url=... loads a puzzle)
    GET  /static/NAME           its script and style sheet (a fixed list, read at start)
    GET  /api/specs             the built-in specs' names
    POST /api/jobs              start a job: {"action", "puzzle", "spec", "spec_text",
                                "timeout", "backend", "size", "seed"} -> {"job": key}
    GET  /api/jobs/KEY?wait=S   its reply (work.py) once done, else {"status": "running"}
    POST /api/jobs/KEY/stop     ({}) end it at once -> {"status": "stopped", "freed_s": ...}

Safety: no request names a file (the page's files are read once, from the
package); a request body is at most MAX_BODY bytes; a POST must be JSON (a
page of another site cannot send one without the browser asking first,
which this server never allows); and on a loopback address only requests
addressed to it by its own name are answered (no DNS rebinding).
"""

from __future__ import annotations

import json
import re
from importlib import resources

from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from ..specs import builtin_aliases, builtin_specs
from .jobs import Jobs, JobsBusy, NoSuchJob

MAX_BODY = 1 << 20            # bytes: a 100x100 pzprv3 file is about 30 kB
LONGEST_WAIT = 20.0           # seconds a GET of a job holds on before saying "running"
ASSETS = {"index.html": "text/html; charset=utf-8",
          "workbench.js": "text/javascript; charset=utf-8",
          "workbench.css": "text/css; charset=utf-8"}
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def read_assets() -> dict:
    """The page's files, from the installed package: name -> bytes."""
    folder = resources.files("pzc.tasks.serve").joinpath("static")
    return {name: folder.joinpath(name).read_bytes() for name in ASSETS}


class Workbench:
    """The WSGI application.  ``loopback``: answer only requests addressed
    to a loopback name (the server listens on 127.0.0.1)."""

    def __init__(self, jobs: Jobs | None = None, loopback: bool = True):
        self.jobs = jobs if jobs is not None else Jobs()
        self.loopback = loopback
        self.assets = read_assets()
        self.routes = Map([
            Rule("/", endpoint="page", methods=["GET"]),
            Rule("/static/<name>", endpoint="asset", methods=["GET"]),
            Rule("/api/specs", endpoint="specs", methods=["GET"]),
            Rule("/api/jobs", endpoint="start", methods=["POST"]),
            Rule("/api/jobs/<key>", endpoint="reply", methods=["GET"]),
            Rule("/api/jobs/<key>/stop", endpoint="stop", methods=["POST"]),
        ])

    def __call__(self, environ, start_response):
        request = Request(environ)
        request.max_content_length = MAX_BODY
        return self.respond(request)(environ, start_response)

    def respond(self, request: Request) -> Response:
        try:
            if self.loopback and host_name(request.host) not in LOOPBACK_NAMES:
                return problem(403, f"this server answers requests to 127.0.0.1 only, "
                                    f"not to {request.host!r}")
            endpoint, values = self.routes.bind_to_environ(request.environ).match()
            return getattr(self, "on_" + endpoint)(request, **values)
        except RequestEntityTooLarge:
            return problem(413, f"the request is larger than {MAX_BODY // 1024} kB")
        except HTTPException as e:
            return problem(e.code or 400, e.description or e.name)

    def on_page(self, request):
        return self.on_asset(request, "index.html")

    def on_asset(self, request, name):
        if name not in ASSETS:
            return problem(404, f"no such file: {name}")
        return Response(self.assets[name], content_type=ASSETS[name],
                        headers={"Cache-Control": "no-cache"})

    def on_specs(self, request):
        return answer({"specs": list(builtin_specs()), "aliases": builtin_aliases()})

    def on_start(self, request):
        if request.mimetype != "application/json":
            return not_json()
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise RequestEntityTooLarge()
        try:
            given = json.loads(request.get_data(cache=False).decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            return problem(400, f"the job is not JSON: {e}")
        if not isinstance(given, dict):
            return problem(400, "the job must be a JSON object")
        try:
            key = self.jobs.start(given)
        except JobsBusy as e:
            return problem(429, str(e))
        return answer({"job": key}, 202)

    def on_reply(self, request, key):
        try:
            wait = min(max(float(request.args.get("wait", "0")), 0.0), LONGEST_WAIT)
        except ValueError:
            return problem(400, "wait: a number of seconds")
        try:
            reply = self.jobs.wait(key, wait)
        except NoSuchJob as e:
            return problem(404, str(e))
        return answer(reply if reply is not None else {"status": "running", "job": key})

    def on_stop(self, request, key):
        if request.mimetype != "application/json":
            return not_json()
        try:
            return answer(self.jobs.stop(key))
        except NoSuchJob as e:
            return problem(404, str(e))


def not_json() -> Response:
    """A POST that is not JSON: what a page of another site can send unasked."""
    return problem(415, "send JSON (Content-Type: application/json)")


def host_name(host: str) -> str:
    """The name in a Host header, without its port."""
    return re.sub(r":\d+$", "", host)


def answer(data: dict, code: int = 200) -> Response:
    return Response(json.dumps(data), status=code, content_type="application/json")


def problem(code: int, message: str) -> Response:
    """An error the page shows: the same shape as a job's error reply."""
    return answer({"status": "error", "line": "Error",
                   "error": {"message": message, "file": None, "line": None, "column": None}},
                  code)
