"""pzc explain: with no solution, a minimal set of clues and rule instances
that already has none (members.py grounds them under selectors, cores.py asks
the solver for assumption cores and shrinks them); with one, the answer; with
several, two of them, where they differ and a clue that rules out the second.
"""

from __future__ import annotations

import time

from ...backends.registry import DEFAULT_SAT_SOLVER, INCREMENTAL
from ...encoder import syntax
from ...encoder.instance import Instance
from ...encoder.render import to_json
from ...encoder.verify import verify
from ...formats import binding as puzzlink
from ...runtime import clock
from ...runtime.clock import Timeout
from ...runtime.deep_stack import deep_stack
from ...runtime.errors import EXIT_OK, EXIT_TIMEOUT, EXIT_UNSAT, EXIT_USAGE, EXIT_VERIFY, PzcError
from ..results import ExplainResult, Result
from ..solving import run_stats, unique
from ..options import Options
from ..timing import within
from . import members as stage
from .cores import search_within
from .members import CLUE, show_value


@deep_stack
def explain(spec: syntax.Spec, instance: Instance, options: Options | None = None,
            implied: bool = True, **given) -> ExplainResult:
    """Explain ``instance``: with no solution, a minimal set of clues and
    rule instances that already has none (members.py, cores.py); with one,
    the answer; with several, two of them, where they differ and a clue that
    rules out the second.  ``options``: backend (sat or smt), solver, timeout,
    connectivity, progress (tasks/options.py); ``implied``: implied rules are
    members too.  Exit codes: 0 unique, 1 no solution or several, 2 bad
    input, 3 time limit."""
    opts = Options.of(options, **given)
    backend, solver, connectivity = opts.backend, opts.solver, opts.connectivity
    result = ExplainResult(instance.name, spec.name, "error")
    if spec.plan is not None:
        result.error = PzcError(f"explain is for board puzzles; {spec.name} is a move puzzle "
                                f"(pzc solve finds its shortest plan)")
        result.exit_code = EXIT_USAGE
        return result
    if backend not in INCREMENTAL:
        result.error = PzcError(f"explain runs on the {' or '.join(INCREMENTAL)} backend, not "
                                f"{backend!r} "
                                "(it asks one incremental solver for assumption cores)")
        result.exit_code = EXIT_USAGE
        return result
    if connectivity is not None and backend != "sat":
        result.error = PzcError("--connectivity is for the sat backend")
        result.exit_code = EXIT_USAGE
        return result
    started = time.perf_counter()

    def work():
        try:
            return _explain(spec, instance, backend, solver,
                            connectivity or EXPLAIN_CONNECTIVITY, implied, result,
                            opts.progress, started)
        except PzcError as e:
            result.error, result.exit_code = e, e.exit_code
            return result

    def timed_out():
        result.status, result.exit_code, result.error = "timeout", EXIT_TIMEOUT, None
        result.stats = dict(backend=backend, solver=solver or
                            ("z3" if backend == "smt" else EXPLAIN_SOLVER),
                            explain_s=round(time.perf_counter() - started, 4))
        return result

    return within(opts.timeout, work, timed_out)


# lazy cuts, each guarded by its rule instance: eager ranks made 10x10
# Nurikabe cores take minutes (docs/benchmarks.md); CaDiCaL whatever the
# spec's `solver` line says (chosen for plain solves: Glucose took 10-100x
# longer on the many small questions of a Nurikabe core)
EXPLAIN_CONNECTIVITY = "lazy"


EXPLAIN_SOLVER = DEFAULT_SAT_SOLVER


def _explain(spec, instance, backend, solver, connectivity, implied, result, progress,
             started) -> ExplainResult:
    progress("grounding")
    found = stage.members(spec, instance, implied=implied)
    ground_s = time.perf_counter() - started
    progress("solving")
    name = solver or (EXPLAIN_SOLVER if backend == "sat" else None)
    reply = search_within(found, backend, name, connectivity, clock.left())
    st = reply["stats"]
    result.stats = dict(run_stats(ground_s, st), members=len(found.members),
                        calls=st.get("calls"), explain_s=None)
    if reply["status"] == "sat":
        _explain_solvable(spec, instance, backend, solver, result)
    else:
        result.status, result.exit_code, result.minimal = "unsat", EXIT_UNSAT, True
        result.stats["first_core"] = st.get("first_core")
        _core(instance, found, reply["core"], result)
    result.stats["explain_s"] = round(time.perf_counter() - started, 4)
    return result


def _core(instance, found, core, result):
    """The core's members, with where they are written."""
    for i in core:
        m = found.members[i]
        if m.kind == CLUE:
            result.core_clues.append({"cell": list(m.cell), "value": m.value,
                                      "token": instance.tokens.get(m.cell, str(m.value)),
                                      "at": clue_at(instance, m.cell)})
        else:
            line, col = m.rule.pos
            result.core_rules.append({
                "rule": m.rule.name, "implied": m.rule.implied,
                "binding": {n: to_json(v) for n, v in m.binding},
                "shown": ", ".join(f"{n} = {show_value(v)}" for n, v in m.binding),
                "at": f"{found.ground.spec.source.path}:{line}:{col}",
                "cells": [list(c) for c in m.cells]})


def clue_at(instance, cell) -> str:
    """Where a cell is written: file:line:col, or the URL of a URL instance."""
    if puzzlink.is_url(instance.name):
        return instance.name
    pos = instance.positions.get(tuple(cell))
    if pos is None:
        return instance.source.path
    return f"{instance.source.path}:{pos[0]}:{pos[1]}"


SUGGEST_TRIES = 4       # clues re-solved at most, looking for one that makes it unique


def _explain_solvable(spec, instance, backend, solver, result):
    """One solution (the answer, as solve prints it) or several (two, where
    they differ, and a clue from the first that rules out the second)."""
    several = unique(spec, instance, backend=backend, solver=solver)
    if several.status == "timeout":
        raise Timeout()
    if several.error is not None:
        raise several.error
    if several.status == "unique":
        result.status, result.exit_code = "unique", EXIT_OK
        # the answer the count found (verified there), not a solve of its own
        result.solved = Result(instance.name, spec.name, "solved", verified=True,
                               stats=several.stats).attach(
            spec, instance, several.found.solutions[0].decoded)
        return
    if several.status != "several":          # the core search said sat: a bug
        raise PzcError(f"explain: the instance has a solution, but unique says "
                       f"{several.status} (a bug in pzc)", exit_code=EXIT_VERIFY)
    result.status, result.exit_code, result.several = "several", EXIT_UNSAT, several
    first, second = several.found.solutions[:2]
    found = None
    for cell, value in stage.clue_candidates(spec, instance, first, second, SUGGEST_TRIES):
        clock.check()
        extended = stage.with_clue(instance, cell, value)
        try:
            gone = bool(verify(spec, extended, second.decoded))
        except PzcError:
            gone = True          # the second answer does not even fit the new board
        if not gone:
            continue
        again = unique(spec, extended, backend=backend, solver=solver)
        if again.status == "timeout":
            raise Timeout()
        if again.status not in ("unique", "several"):
            continue
        pos = instance.positions.get(cell)
        found = {"cell": list(cell), "value": value, "token": extended.tokens[cell],
                 "at": clue_at(instance, cell),
                 "where": (f"line {pos[0]}, column {pos[1]} of {instance.source.path}"
                           if pos is not None and not puzzlink.is_url(instance.name) else None),
                 "unique": again.status == "unique"}
        if found["unique"]:
            break
        if result.suggestion is None:
            result.suggestion = found
        found = None
    if found is not None:
        result.suggestion = found
