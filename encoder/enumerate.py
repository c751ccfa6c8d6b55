"""Stage: enumerate.  Count solutions, or find two, by blocking clauses.

Each model is decoded, verified and rendered; the board it prints (grid and
moves) is what counts as a solution.  The blocking clause is projected on the
model variables that rendering read, so models that differ only in variables
the board does not show are never counted twice, and auxiliary variables never
multiply the count:

    model 1: v[(0,0)] = 1, v[(0,1)] = 2, ...   prints  12 / 21
    block:   not (v[(0,0)] = 1 and v[(0,1)] = 2 and ...)

Boards are also compared as printed, so two assignments that happen to print
the same board count once.  The session (a backend's incremental solver)
keeps lazy connectivity cuts and blocking clauses side by side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..runtime import clock
from ..runtime.clock import Timeout
from ..runtime.errors import EXIT_VERIFY, PzcError
from ..runtime.progress import no_progress
from .answer_data import AnswerData
from .decode import decode
from .render import cell_tokens, grid_rows, layout_rows, moves
from .verify import verify


@dataclass(eq=False)
class Solution:
    grid: list | None
    moves: list | None
    cells: dict          # (row, col) -> token, to say where two boards differ
    decoded: object = field(default=None, repr=False)   # the decoded answer (explain reads it)
    answer: AnswerData | None = field(default=None, repr=False)   # the answer as data


@dataclass(eq=False)
class Enumeration:
    solutions: list = field(default_factory=list)
    complete: bool = False           # every solution was found
    timed_out: bool = False


def show_solution(spec, instance, answer, touched) -> Solution:
    """The board an answer prints, collecting the variables read into ``touched``."""
    cells = {}
    grid = None
    if spec.show_cell is not None:
        cells = cell_tokens(spec, instance, answer, spec.show_cell, touched)
        grid = grid_rows(spec, instance, answer, spec.show_cell)
    elif spec.show_text is not None:
        cells = cell_tokens(spec, instance, answer, spec.show_text, touched)
        grid = grid_rows(spec, instance, answer, spec.show_text)
    return Solution(grid, moves(spec, instance, answer, touched), cells)


def enumerate_solutions(ground, session, limit=None, progress=no_progress,
                        out: Enumeration | None = None) -> Enumeration:
    """Up to ``limit`` distinct boards; ``complete`` when no other exists;
    ``progress("solution", count=n)`` as each comes (runtime/progress.py).  At the
    time limit (runtime/clock.py) the boards found so far are kept.  ``out``
    (filled as boards come) lets a caller keep them even when the clock's
    Timeout lands after this returns."""
    return kept_at_timeout(lambda o: _enumerate(ground, session, limit, progress, o),
                           Enumeration() if out is None else out)


def kept_at_timeout(search, out):
    """``search(out)``, where search fills ``out`` as it goes; at the time
    limit (runtime/clock.py) what it holds is kept, ``out.timed_out`` set."""
    try:
        search(out)
    except Timeout:
        out.timed_out = True
    return out


def _enumerate(ground, session, limit, progress, out):
    spec, instance, model = ground.spec, ground.instance, ground.model
    seen = set()
    while True:
        # past the limit the search goes on only to say whether the limit cut
        # the enumeration short: a new board says yes, unsat says no
        full = limit is not None and len(out.solutions) >= limit
        outcome, answer = next_answer(ground, session, out)
        if answer is None:
            return
        touched = set()
        sol = show_solution(spec, instance, answer, touched)
        sol.decoded = answer
        sol.answer = AnswerData(spec, instance, answer)
        key = json.dumps([sol.grid, sol.moves], sort_keys=True)
        if key not in seen:
            if full:
                return
            seen.add(key)
            out.solutions.append(sol)
            progress("solution", count=len(out.solutions))
        # in the variables' order: ``touched`` is a set of names and keys, whose
        # order changes with Python's string hashing from run to run, and the
        # order of a clause's literals steers the solver to one next model or another
        shown_vars = sorted((model.spec_vars[name][k] for name, k in touched),
                            key=lambda var: var.uid)
        shown = {var: outcome.assignment[var] for var in shown_vars}
        if not shown:            # the board reads no variable: it is the only one
            out.complete = True
            return
        session.block(shown)


def next_answer(ground, session, out) -> tuple:
    """The session's next solution: (outcome, its verified answer), or
    (outcome, None) when there is none (``out.complete`` set) or the time
    ran out (``out.timed_out`` set)."""
    outcome = session.next(clock.left())
    if outcome.status in ("timeout", "unknown"):
        out.timed_out = True
        return outcome, None
    if outcome.status == "unsat":
        out.complete = True
        return outcome, None
    return outcome, verified_answer(ground, outcome.assignment)


def verified_answer(ground, assignment):
    """The decoded answer of a solver's model, verified (exit 4 if not: a bug)."""
    answer = decode(ground, assignment)
    problems = verify(ground.spec, ground.instance, answer)
    if problems:
        raise PzcError("verification failed (a bug in pzc): " + "; ".join(problems[:3]),
                       exit_code=EXIT_VERIFY)
    return answer


def differences(a: Solution, b: Solution) -> list:
    """[row, col] of every cell (or canvas point) the two boards show differently."""
    return [list(c) for c in sorted(set(a.cells) | set(b.cells)) if a.cells.get(c) != b.cells.get(c)]


def marked_rows(instance, a: Solution, diff) -> list:
    """A board of the same shape with '*' where two solutions differ."""
    marks = {c: ("*" if [*c] in diff else ".") for c in a.cells}
    if instance.geometry is not None and set(marks) == set(instance.geometry.cells):
        rows = layout_rows(instance, marks)
        if a.grid and instance.layout != "hex" and any(len(t) > 1 for t in a.cells.values()):
            rows = [" ".join(row) for row in rows]     # aligned with the spaced board
        return rows
    h = max(r for r, _ in marks) + 1 if marks else 0
    w = max(c for _, c in marks) + 1 if marks else 0
    return ["".join(marks.get((r, c), " ") for c in range(w)) for r in range(h)]
