"""deduce: what every solution of an instance shows alike (a setter's view of
where a puzzle is still open), from one incremental solver.

    ground -> backend session -> backbone (encoder/backbone.py) -> the board
    with each determined place's text and '?' where solutions differ

Every solution the search meets is decoded and verified.  At the time limit
the places not yet decided are marked '~' and the result is partial.
"""

from __future__ import annotations

from ..encoder import syntax
from ..encoder.backbone import Backbone, backbone
from ..encoder.instance import Instance
from ..encoder.render import token_rows
from ..runtime.deep_stack import deep_stack
from ..runtime.errors import EXIT_TIMEOUT, EXIT_UNSAT, PzcError
from ..runtime.gc_pause import without_gc
from .options import Options
from .results import DeduceResult
from .solving import run_stats, searched, solving_cut_off, stopped_stats_of
from .timing import Phases, within


def deducible(spec: syntax.Spec):
    """The show statement deduce reads (the board's grid, else its text
    drawing); PzcError for a spec that shows no board."""
    if spec.plan is not None:
        raise PzcError(f"pzc deduce reads a board; '{spec.name}' is a move puzzle, whose answer "
                       f"is a plan (use pzc unique to see whether it is the only one)")
    show = spec.show_cell if spec.show_cell is not None else spec.show_text
    if show is None:
        raise PzcError(f"pzc deduce reads a board; '{spec.name}' shows none (no `show` of a "
                       f"grid or a text drawing)")
    return show


@without_gc
@deep_stack
def deduce(spec: syntax.Spec, instance: Instance, options: Options | None = None,
           **given) -> DeduceResult:
    """Which places of the board are the same in every solution.

    ``options`` as solve takes them (backend, solver, timeout, connectivity,
    solver_cmd, progress); ``progress("solution", count=n)`` as each solution
    is met.  status: unique (one solution: every place determined), several,
    none (exit 1), timeout (exit 3, the result partial)."""
    opts = Options.of(options, **given)
    result = DeduceResult(instance.name, spec.name, "error")
    try:
        show = deducible(spec)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    engine = opts.engine(spec)
    phases = Phases(opts.progress)
    found = Backbone()
    sizes = {}

    def timed_out():
        found.timed_out = not found.complete
        result.stats = (run_stats(sizes["ground_s"], sizes["stats"]) if sizes
                        else stopped_stats_of(engine, phases))
        return _deduced(result, instance, show, found, phases)

    return within(opts.timeout,
                  lambda: _deduce(spec, instance, engine, show, phases, result, found, sizes),
                  timed_out)


def _deduce(spec, instance, engine, show, phases, result, found, sizes) -> DeduceResult:
    if not searched(spec, instance, engine, phases, result, found, sizes,
                    lambda g, session: backbone(g, session, show, phases, found)):
        return result
    return _deduced(result, instance, show, found, phases)


def _deduced(result, instance, show, found: Backbone, phases) -> DeduceResult:
    result.found = found
    result.solutions = found.solutions
    if found.timed_out:
        solving_cut_off(result.stats, phases)
        result.status, result.exit_code, result.partial = "timeout", EXIT_TIMEOUT, True
    elif found.solutions == 0:
        result.status, result.exit_code = "none", EXIT_UNSAT
        return result
    else:
        result.status = "unique" if found.solutions == 1 else "several"
    if not found.tokens:
        return result
    marks = {"open": DeduceResult.OPEN, "undecided": DeduceResult.UNDECIDED}
    shown = {}
    for place, token in found.tokens.items():
        state = found.place_state(place)
        if state == "determined":
            result.determined += 1
            shown[place] = token
        else:
            getattr(result, state).append(list(place))
            shown[place] = marks[state]
    result.board = token_rows(instance, show, shown)
    return result
