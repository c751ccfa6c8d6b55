"""pzc generate: puzzles with exactly one solution, from a spec's `generate`
lines (stages.py: the generation model, drawing, deriving the clues;
driver.py: draw, repair and reduce, one seed a puzzle), and how each is
printed (text, JSON, a URL or pzprv3 file, a picture beside its solution).
"""

from __future__ import annotations

import json

from ...backends.choice import solver_for
from ...backends.sat import check_solver_name, incremental
from ...encoder import syntax
from ...encoder.instance import Instance
from ...formats.reading import write_instance
from ...runtime.errors import PzcError
from ...runtime.progress import no_progress
from ..pictures import draw
from ..results import Generated
from ..solving import solve
from . import driver
from . import stages


def generate(spec: syntax.Spec, size: tuple | None = None, count: int = 1,
             seed: int | None = None, timeout: float | None = None, params: dict | None = None,
             minimal: bool = True, solver: str | None = None, workers: int = 1,
             progress=no_progress, like: Instance | None = None,
             limit_from: float | None = None):
    """Generate ``count`` puzzles with exactly one solution from the spec's
    `generate` lines, yielded (as Generated) in seed order as they come.

    ``size``: (width, height) of a square board, (side, None) for a hexagon or
    a square; None: the spec's `generate size`.  Puzzle k has seed
    ``seed + k`` (a random start when None) and is made again from it alone.
    ``timeout``: seconds per puzzle; the puzzles begun first (one, or one per
    worker) count it from ``limit_from`` if given (a time.monotonic(): the
    command line gives its process's start, so that the start-up, loading
    the spec and starting the workers count, as for solve's first instance).
    ``minimal``: blank every clue that can go (else keep all the drawn
    solution gives).  ``workers``: processes.
    ``like``: an instance whose board, parameters and layers the puzzles
    take (instead of ``size``); its clues are left out."""
    name = solver_for(spec, "sat", solver)
    if name is not None and not incremental(check_solver_name(name)):
        raise PzcError(f"generate draws and repairs on one incremental solver with preferred "
                       f"values; {name} solves once and takes none: choose cadical195, "
                       f"glucose4 or minisat22")
    gspec = driver.prepare(spec)
    if like is not None:
        if size is not None:
            raise PzcError("give the board by --size or by --like, not both")
        blank = stages.like_instance(spec, like, params or {})
    else:
        blank = stages.blank_instance(spec, stages.board_size(spec, size), params or {})
    options = dict(solver=solver, timeout=timeout, minimal=minimal, progress=progress)
    yield from driver.generate_many(spec, gspec, blank, driver.seeds(seed, count),
                                    workers, limit_from=limit_from, **options)


def to_json(spec, g: Generated) -> dict:
    """What --format json prints for one puzzle."""
    out = {"spec": g.spec, "seed": g.seed, "status": g.status, "instance": None, "url": None,
           "solution": g.solution, "clues": g.clues, "stats": g.stats}
    if g.instance is not None:
        out["instance"] = write_instance(spec, g.instance, "text")
        if spec.url is not None:
            out["url"] = write_instance(spec, g.instance, "url")
    if g.error is not None:
        out["error"] = g.error.as_json()
    return out


def generated_text(spec, g: Generated, form: str) -> str:
    """One generated puzzle as --format prints it (text, json, url, pzprv3)."""
    if form == "json":
        return json.dumps(to_json(spec, g)) + "\n"
    if form == "text":
        text = write_instance(spec, g.instance, "text")
        return (f"# seed {g.seed}: {g.clues} clues, {g.stats['seconds']} s\n"
                + text + "\n")
    # a pzprv3 file holds the answer too, as puzz.link saves a solved puzzle
    text = write_instance(spec, g.instance, form, g.answer if form == "pzprv3" else None)
    return text if text.endswith("\n") else text + "\n"


def generated_document(spec: syntax.Spec, g: Generated) -> draw.Document:
    """A generated puzzle beside its solution (solved again to draw it)."""
    heading = f"seed {g.seed}: {g.clues} clues"
    solved = solve(spec, g.instance)
    figs = [draw.board_figure(spec, g.instance)]
    captions = ["puzzle"]
    if solved.status == "solved":
        figs.append(draw.board_figure(spec, g.instance, solved.picture))
        captions.append("solution")
    return draw.Document(heading, svg=draw.side_by_side(figs, captions, heading))
