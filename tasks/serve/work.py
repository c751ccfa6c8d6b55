"""What one workbench job does, in its own process (jobs.py starts it): read
the puzzle the page sent, run the task the button names under the time limit
every command runs under, and reply with what the page shows as plain data
(a status, the status line, pzc's SVG, the answer's pzprv3 file, figures).

Nothing here opens a file: the puzzle and a pasted spec come as text, and a
spec is named only among the built-in ones.
"""

from __future__ import annotations

import time

from ...encoder.instance import Instance
from ...formats.binding import check_answer_file
from ...formats.reading import write_instance
from ...runtime.errors import PzcError
from ..deducing import deduce
from ..explain.report import explain_document, explain_lines
from ..explain.task import explain
from ..generate.task import generate, generated_document
from ..pictures import documents, draw
from ..solving import solve, unique
from ..specs import SpecChoice, builtin_aliases, builtin_source, builtin_specs, load_spec
from ..timing import left_after
from ..text import deduce_lines, solve_lines, unique_lines

ACTIONS = ("read", "solve", "unique", "deduce", "explain", "generate")
PASTED_SPEC = "<pasted spec>"
PUZZLE_NAME = "puzzle"          # the pasted puzzle's name in messages (it is no file)
BACKENDS = ("sat", "smt")

# the status line as setters know it (cspuz_solver2's words where it has them)
STATUS_LINES = {
    "solved": "Solved (answer verified)",
    "unique": "Unique answer",
    "several": "NOT unique answer (multiple answers)!",
    "none": "No answer",
    "unsat": "No answer",
    "timeout": "Time limit reached",
    "generated": "Generated a puzzle with exactly one answer",
    "read": "Read",
    "error": "Error",
}


class Request:
    """A job's input, checked: which task, the puzzle's text, the spec (a
    built-in name, pasted text, or neither: the puzzle's puzz.link type
    chooses), the time limit, the backend, generate's size and seed."""

    def __init__(self, given: dict):
        def text(key):
            value = given.get(key) or ""
            if not isinstance(value, str):
                raise PzcError(f"'{key}' must be text")
            return value

        self.action = text("action")
        if self.action not in ACTIONS:
            raise PzcError(f"unknown action {self.action!r} (actions: {', '.join(ACTIONS)})")
        self.puzzle = text("puzzle")
        self.spec_name = text("spec").strip()
        self.spec_text = text("spec_text")
        self.backend = text("backend").strip() or "sat"
        if self.backend not in BACKENDS:
            raise PzcError(f"unknown backend {self.backend!r} (backends: {', '.join(BACKENDS)})")
        self.timeout = _number(given.get("timeout"), "time limit", 0.1)
        self.seed = _number(given.get("seed"), "seed", 0, whole=True)
        self.size = _size(text("size"))


def time_limit(given: dict) -> float | None:
    """The job's time limit in seconds (None: none, or none that reads)."""
    try:
        return _number(given.get("timeout"), "time limit", 0.1)
    except PzcError:
        return None


def _number(value, what, least, whole=False):
    if value is None or value == "":
        return None
    try:
        n = float(value)
    except (TypeError, ValueError):
        raise PzcError(f"the {what} must be a number, not {value!r}") from None
    if n != n or n < least or n > 1e9 or (whole and n != int(n)):
        raise PzcError(f"the {what} must be {'a whole number ' if whole else 'a number '}"
                       f"of at least {least}, not {value!r}")
    return int(n) if whole else n


def _size(text: str):
    """generate's board size: 'WxH', 'N' or '' (the spec's own)."""
    t = text.strip().lower().replace(" ", "")
    if not t:
        return None
    w, _, h = t.partition("x")
    if not w.isdigit() or (h and not h.isdigit()) or not 1 <= int(w) <= 100 or (
            h and not 1 <= int(h) <= 100):
        raise PzcError(f"the size must be WxH or N (at most 100), e.g. 10x10, not {text!r}")
    return int(w), int(h) if h else None


# the built-in specs, loaded once before the jobs are forked (warm.py); a job
# that changes its copy changes only its own process's
BUILT_IN: dict = {}


def preload_builtins() -> None:
    for name in builtin_specs():
        BUILT_IN[name] = load_spec(name, builtin_source(name))


def builtin(name: str):
    if name not in BUILT_IN:
        BUILT_IN[name] = load_spec(name, builtin_source(name))
    return BUILT_IN[name]


def chosen_spec(req: Request):
    """The spec that reads the puzzle (None: the puzzle's type chooses)."""
    if req.spec_text.strip():
        return load_spec(PASTED_SPEC, (req.spec_text, PASTED_SPEC))
    if not req.spec_name:
        return None
    name = req.spec_name
    if name not in builtin_specs():
        name = builtin_aliases().get(name, name)
    if name not in builtin_specs():     # never a path: only the built-in specs are named
        raise PzcError(f"no built-in spec named {req.spec_name!r}")
    return builtin(name)


class PageSpecChoice(SpecChoice):
    """The spec of each puzzle as the command line chooses it, but where a
    puzzle names no type the page's own advice (its Spec list)."""

    def __call__(self, ptype, fail):
        if ptype is None:
            raise fail("this names no puzzle type (it is no puzz.link URL or pzprv3 file): "
                       "choose its spec in the Spec list, or paste your own")
        return super().__call__(ptype, fail)


def read_puzzle(req: Request) -> tuple:
    """(spec, instance) of the pasted puzzle: its first instance."""
    if not req.puzzle.strip():
        if req.action == "generate":
            return chosen_spec(req), None
        raise PzcError("paste a puzz.link URL, a pzprv3 file or a text instance first")
    choice = PageSpecChoice(chosen_spec(req))
    choice.loaded.update(BUILT_IN)
    found = choice.read(PUZZLE_NAME, text=req.puzzle)
    if not found:
        raise PzcError("the text holds no puzzle")
    spec, inst = found[0]
    if inst.unreadable is not None:
        raise inst.unreadable
    return spec, inst


def run(given: dict) -> dict:
    """The reply to one job: the task's outcome, or the error that stopped it."""
    started = time.perf_counter()
    try:
        req = Request(given)
        spec, inst = read_puzzle(req)
        # the limit counts from the job's start, as a command's from its process's
        req.timeout = left_after(req.timeout, time.perf_counter() - started)
        reply = TASKS[req.action](req, spec, inst)
    except PzcError as e:
        reply = error_reply(e)
    reply["elapsed_s"] = round(time.perf_counter() - started, 3)
    return reply


def error_reply(e: PzcError) -> dict:
    """An error located as the command line locates it (file, line, column)."""
    return {"status": "error", "line": STATUS_LINES["error"],
            "error": dict(e.as_json(), source_line=e.source_line, text=e.format())}


def described(spec, inst: Instance | None) -> dict:
    """What the page shows about the puzzle whatever the task: the spec, the
    board as read, where it opens on puzz.link, whether it can be generated."""
    out = {"spec": spec.name, "generate": spec.generate is not None, "url": None,
           "board": None}
    if inst is not None:
        out["board"] = draw.board_svg(spec, inst, None, title=f"{spec.name}: as read")
        out["url"] = puzzlink_url(spec, inst)
    return out


def puzzlink_url(spec, inst) -> str | None:
    """The puzzle as a puzz.link URL, None where the spec writes none."""
    if spec.url is None:
        return None
    try:
        return write_instance(spec, inst, "url")
    except PzcError:
        return None


def answer_file(spec, inst, answer) -> str | None:
    """The answer as a pzprv3 file (as puzz.link saves a solved puzzle),
    None where the spec writes no such files."""
    if answer is None:
        return None
    try:
        check_answer_file(spec)
        return write_instance(spec, inst, "pzprv3", answer)
    except PzcError:
        return None


def picture(document) -> str | None:
    """An SVG of a picture document: a plan's last board (its goal)."""
    if document is None:
        return None
    return document.svg if document.svg is not None else document.frames[-1]


def finished(spec, inst, status, result, document, lines, answer=None) -> dict:
    out = described(spec, inst)
    out.update(status=status, line=STATUS_LINES.get(status, status), text=lines,
               svg=picture(document), stats=getattr(result, "stats", {}) or {},
               pzprv3=answer_file(spec, inst, answer))
    if getattr(result, "error", None) is not None:
        out.update(error_reply(result.error), status="error")
    return out


def do_read(req, spec, inst) -> dict:
    out = described(spec, inst)
    out.update(status="read", line=STATUS_LINES["read"], svg=out["board"], text=[])
    return out


def options(req) -> dict:
    return {"timeout": req.timeout, "backend": req.backend}


def do_solve(req, spec, inst) -> dict:
    result = solve(spec, inst, **options(req))
    status = "none" if result.status == "unsat" else result.status
    return finished(spec, inst, status, result, documents.picture_document(spec, inst, result),
                    solve_lines(result), result.answer)


def do_unique(req, spec, inst) -> dict:
    result = unique(spec, inst, **options(req))
    answers = result.answers if result.status in ("unique", "several") else []
    return finished(spec, inst, result.status, result,
                    documents.picture_document(spec, inst, result), unique_lines(result),
                    answers[0] if answers else None)


def do_deduce(req, spec, inst) -> dict:
    result = deduce(spec, inst, **options(req))
    # the file holds what every solution shares, as puzz.link saves a half-solved puzzle
    out = finished(spec, inst, result.status, result,
                   documents.picture_document(spec, inst, result), deduce_lines(result),
                   result.answer)
    out["counts"] = {"determined": result.determined, "open": len(result.open),
                     "undecided": len(result.undecided)}
    out["partial"] = result.partial
    return out


def do_explain(req, spec, inst) -> dict:
    result = explain(spec, inst, **options(req))
    status = "none" if result.status == "unsat" else result.status
    return finished(spec, inst, status, result, explain_document(spec, inst, result),
                    explain_lines(result))


def do_generate(req, spec, inst) -> dict:
    """A new puzzle like the one shown (its board and parameters), or of the
    size asked; the reply carries it as the page's next puzzle."""
    if spec is None:
        raise PzcError("choose a spec (or paste a puzzle) to generate one")
    if spec.generate is None:
        raise PzcError(f"the spec '{spec.name}' has no `generate` lines: pzc cannot make its "
                       f"puzzles")
    like = inst if req.size is None else None
    made = next(iter(generate(spec, req.size, 1, req.seed, req.timeout, like=like)))
    if made.status != "generated":
        out = described(spec, inst)
        out.update(status=made.status, line=STATUS_LINES.get(made.status, made.status),
                   svg=out["board"], text=[], stats=made.stats, pzprv3=None)
        if made.error is not None:
            out.update(error_reply(made.error))
        return out
    new = made.instance
    out = finished(spec, new, "generated", made, generated_document(spec, made),
                   [f"seed {made.seed}: {made.clues} clues"], made.answer)
    out["puzzle"] = out["url"] or write_instance(spec, new, "text")
    out["seed"] = made.seed
    return out


TASKS = {"read": do_read, "solve": do_solve, "unique": do_unique, "deduce": do_deduce,
         "explain": do_explain, "generate": do_generate}
