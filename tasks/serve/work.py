"""What one workbench job does, in its own process (jobs.py starts it): read
the puzzle the page sent (request.py), run the task the button names under
the time limit every command runs under, and reply with what the page shows
as plain data (a status, the status line, pzc's SVG, the answer's pzprv3
file, figures).
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
from ..text import deduce_lines, solve_lines, unique_lines
from ..timing import left_after, within
from .request import Request, read_puzzle

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
MOST_DRAWN = 10_000         # places: a board with more is solved but not drawn on the page


def run(given: dict) -> dict:
    """The reply to one job: the task's outcome, or the error that stopped it."""
    started = time.perf_counter()
    try:
        req = Request(given)
        # reading is under the limit too (a spec's expressions can take long), as
        # on the command line; the task gets what is left
        read = within(req.timeout, lambda: read_puzzle(req), lambda: None)
        if read is None:
            reply = {"status": "timeout", "line": STATUS_LINES["timeout"], "text": [],
                     "svg": None, "board": None}
        else:
            req.timeout = left_after(req.timeout, time.perf_counter() - started)
            reply = TASKS[req.action](req, *read)
    except PzcError as e:
        reply = error_reply(e)
    reply["elapsed_s"] = round(time.perf_counter() - started, 3)
    return reply


def error_reply(e: PzcError) -> dict:
    """An error located as the command line locates it (file, line, column)."""
    return {"status": "error", "line": STATUS_LINES["error"],
            "error": dict(e.as_json(), source_line=e.source_line, text=e.format())}


def drawn(inst: Instance | None) -> bool:
    """Whether the page gets pictures of this board (a bigger one's SVG would
    run to megabytes, and take longer to draw than to solve)."""
    return inst is not None and len(inst.geometry.cells) <= MOST_DRAWN


def described(spec, inst: Instance | None) -> dict:
    """What the page shows about the puzzle whatever the task: the spec, the
    board as read, where it opens on puzz.link, whether it can be generated."""
    out = {"spec": spec.name, "generate": spec.generate is not None, "url": None,
           "board": None, "notes": []}
    if inst is not None:
        if drawn(inst):
            out["board"] = draw.board_svg(spec, inst, None, title=f"{spec.name}: as read")
        else:
            out["notes"] = [f"(the board has {len(inst.geometry.cells)} places: more than "
                            f"{MOST_DRAWN} are not drawn here)"]
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
    """The reply to a task; ``document()`` draws its picture (only for a board
    that is drawn here)."""
    out = described(spec, inst)
    out.update(status=status, line=STATUS_LINES.get(status, status),
               text=out["notes"] + lines, svg=picture(document()) if drawn(inst) else None,
               stats=getattr(result, "stats", {}) or {}, pzprv3=answer_file(spec, inst, answer))
    if getattr(result, "error", None) is not None:
        out.update(error_reply(result.error), status="error")
    return out


def do_read(req, spec, inst) -> dict:
    out = described(spec, inst)
    out.update(status="read", line=STATUS_LINES["read"], svg=out["board"], text=out["notes"])
    return out


def options(req) -> dict:
    return {"timeout": req.timeout, "backend": req.backend}


def do_solve(req, spec, inst) -> dict:
    result = solve(spec, inst, **options(req))
    status = "none" if result.status == "unsat" else result.status
    return finished(spec, inst, status, result,
                    lambda: documents.picture_document(spec, inst, result),
                    solve_lines(result), result.answer)


def do_unique(req, spec, inst) -> dict:
    result = unique(spec, inst, **options(req))
    return finished(spec, inst, result.status, result,
                    lambda: documents.picture_document(spec, inst, result), unique_lines(result),
                    result.answer)


def do_deduce(req, spec, inst) -> dict:
    result = deduce(spec, inst, **options(req))
    # the file holds what every solution shares, as puzz.link saves a half-solved puzzle
    out = finished(spec, inst, result.status, result,
                   lambda: documents.picture_document(spec, inst, result), deduce_lines(result),
                   result.answer)
    counts = out["counts"] = {"determined": result.determined, "open": len(result.open),
                              "undecided": len(result.undecided)}
    out["partial"] = result.partial
    if result.board is not None and result.status != "unique":
        # where the puzzle is still open, in the status line
        out["line"] += ((" " if out["line"].endswith("!") else ": ")
                        + f"{counts['determined']} places determined, {counts['open']} open"
                        + (f", {counts['undecided']} not decided" if result.partial else ""))
    return out


def do_explain(req, spec, inst) -> dict:
    result = explain(spec, inst, **options(req))
    status = "none" if result.status == "unsat" else result.status
    return finished(spec, inst, status, result,
                    lambda: explain_document(spec, inst, result), explain_lines(result))


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
                   svg=out["board"], text=out["notes"], stats=made.stats, pzprv3=None)
        if made.error is not None:
            out.update(error_reply(made.error))
        return out
    new = made.instance
    out = finished(spec, new, "generated", made, lambda: generated_document(spec, made),
                   [f"seed {made.seed}: {made.clues} clues"], made.answer)
    out["puzzle"] = out["url"] or write_instance(spec, new, "text")
    out["seed"] = made.seed
    return out


TASKS = {"read": do_read, "solve": do_solve, "unique": do_unique, "deduce": do_deduce,
         "explain": do_explain, "generate": do_generate}
