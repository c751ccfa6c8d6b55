"""The pictures of results (--format svg): a solve's answer (a plan's boards,
the start first), a count's solutions side by side, a uniqueness check's two
solutions with where they differ marked, what deduce found (the determined
places drawn, the open ones marked), or the bare puzzle when there is no
answer to show; and how they are written (one SVG, numbered files, or one
HTML page of them all)."""

from __future__ import annotations

from ...encoder.render import move_text
from ...runtime.errors import plural
from ..results import CountResult, DeduceResult, UniqueResult
from . import draw

STATUS_HEADINGS = {"unsat": "no solution", "timeout": "time limit reached",
                   "none": "no solution"}


def picture_document(spec, instance, result, solutions: bool = True) -> draw.Document | None:
    """The picture of a solve, count or unique result; None for an instance
    that could not be read.  ``solutions``: a count's solutions are drawn
    (count --show), else only the puzzle."""
    if result.status == "error":
        return None
    heading = f"{instance.name}: {picture_heading(result)}"
    if isinstance(result, CountResult):
        sols = result.found.solutions if result.found is not None and solutions else []
        if sols:
            figs = [draw.board_figure(spec, instance, draw.solution_picture(spec, s.cells))
                    for s in sols]
            return draw.Document(heading, svg=draw.side_by_side(
                figs, [f"solution {k}" for k in range(1, len(figs) + 1)], heading))
    elif isinstance(result, UniqueResult):
        sols = result.found.solutions[:2] if result.found is not None else []
        if len(sols) == 2:
            figs = [draw.board_figure(spec, instance, draw.solution_picture(spec, s.cells),
                                      marks=[tuple(c) for c in result.differ]) for s in sols]
            return draw.Document(heading, svg=draw.side_by_side(
                figs, ["first", "second (differences marked)"], heading))
        if len(sols) == 1:
            return draw.Document(heading, svg=draw.board_svg(
                spec, instance, draw.solution_picture(spec, sols[0].cells), title=heading))
    elif isinstance(result, DeduceResult):
        if result.board is not None:
            # the determined places drawn as an answer, the open (and undecided) ones marked
            return draw.Document(heading, svg=draw.board_svg(
                spec, instance, draw.solution_picture(spec, result.cells), title=heading,
                marks=[tuple(c) for c in result.open + result.undecided]))
    elif result.status == "solved" and result.steps is not None:
        pics = result.picture
        captions = ["start"] + [f"{k}. {move_text(m)}" for k, m in enumerate(result.moves, 1)]
        frames = [draw.board_svg(spec, instance, p, title=f"{heading}, {c}")
                  for p, c in zip(pics, captions)]
        return draw.Document(heading, frames=frames, captions=captions)
    elif result.status == "solved":
        return draw.Document(heading, svg=draw.board_svg(spec, instance, result.picture,
                                                         title=heading))
    return draw.Document(heading, svg=draw.board_svg(spec, instance, None, title=heading))


def picture_heading(result) -> str:
    if isinstance(result, CountResult):
        return plural(result.count, "solution") + ("" if result.complete else " or more")
    if isinstance(result, UniqueResult):
        return {"unique": "exactly one solution", "several": "two solutions differ"}.get(
            result.status, STATUS_HEADINGS.get(result.status, result.status))
    if isinstance(result, DeduceResult):
        if result.board is None:
            return STATUS_HEADINGS.get(result.status, result.status)
        figures = f"{result.determined} places determined, {len(result.open)} open (marked)"
        return {"unique": "exactly one solution", "several": f"several solutions: {figures}",
                "timeout": f"time limit reached, partial: {figures}, "
                           f"{len(result.undecided)} not decided (marked)"}[result.status]
    if result.status == "solved":
        return "solved, verified" + (f", {result.steps} moves" if result.steps is not None else "")
    return STATUS_HEADINGS.get(result.status, result.status)


def write_pictures(documents: list, output: str | None, title: str, write) -> None:
    """One document alone: its SVG (a plan: its page); several: one HTML page,
    or numbered files when ``output`` ends in .svg.  ``write(path, text)``
    writes a file (None or '-': standard output)."""
    if not documents:
        return
    if output is not None and output.lower().endswith(".svg") and len(documents) > 1:
        stem = output[:-4]
        for k, doc in enumerate(documents, 1):
            if doc.is_plan:
                write(f"{stem}-{k}.html", draw.html_page(doc.heading, [doc]))
            else:
                write(f"{stem}-{k}.svg", doc.svg)
        return
    if len(documents) == 1 and not documents[0].is_plan and not (
            output is not None and output.lower().endswith(".html")):
        write(output, documents[0].svg)
        return
    write(output, draw.html_page(title, documents))


