"""solve, count and unique (and dimacs and decode beside them): the pipeline
run on one instance, under its own time limit.

    ground -> backend (encode, solve) -> decode -> verify -> render

Every answer a result carries was verified by the independent evaluator
(encoder/verify.py); a failure is exit 4, a bug, never hidden.
"""

from __future__ import annotations

import time

from ..backends import deepen, states, watched
from ..backends.registry import INCREMENTAL
from ..encoder import cnf as cnf_stage
from ..encoder import dimacs as dimacs_stage
from ..encoder import syntax
from ..encoder.decode import Answer, decode
from ..encoder.enumerate import Enumeration, differences, enumerate_solutions, marked_rows
from ..encoder.ground import ground
from ..encoder.instance import Instance, read_file
from ..encoder.unroll import unroll
from ..encoder.verify import verify
from ..runtime import clock
from ..runtime.deep_stack import deep_stack
from ..runtime.errors import EXIT_TIMEOUT, EXIT_UNSAT, EXIT_VERIFY, PzcError
from ..runtime.gc_pause import without_gc
from ..runtime.progress import no_progress
from .options import PLAN_SEARCHES, Options
from .results import CountResult, Result, UniqueResult
from .timing import Phases, within


def run_stats(ground_s: float, st: dict) -> dict:
    """The stats a result shows: backend, solver, sizes, compile and solve seconds."""
    out = {"backend": st.get("backend"), "solver": st.get("solver"),
           "variables": st.get("variables"), "clauses": st.get("clauses"),
           "compile_s": round(ground_s + st.get("encode_s", 0.0), 4),
           "solve_s": round(st.get("solve_s", 0.0), 4)}
    for key in ("connectivity", "rounds", "cuts", "made_eager", "rules", "reachability",
                "members", "portfolio_s", "state_search"):
        if key in st:
            out[key] = st[key]
    return out


def stopped_stats(spec: syntax.Spec, options: Options | None = None, **given) -> dict:
    """The stats of a result stopped before anything ran (the time limit
    reached while reading the instance file)."""
    return stopped_stats_of(Options.of(options, **given).engine(spec), Phases(no_progress))


def stopped_stats_of(engine, phases: Phases) -> dict:
    """The stats of a result the time limit stopped before its backend
    answered: the time so far, split where its solving began."""
    return dict(engine.describe(), variables=None, clauses=None, **phases.split())


def ground_or_error(spec, instance, result, progress=no_progress):
    """Ground, or record the error in ``result``; returns (ground, seconds)."""
    progress("grounding")
    start = time.perf_counter()
    try:
        return ground(spec, instance), time.perf_counter() - start
    except PzcError as e:
        result.error = e
        result.exit_code = e.exit_code
        return None, 0.0


@without_gc      # the whole pipeline: its objects die with it, by reference counting
@deep_stack
def solve(spec: syntax.Spec, instance: Instance, options: Options | None = None,
          **given) -> Result:
    """Ground, encode, solve, decode, verify and render one instance.

    ``options`` (or the same as keywords: backend, solver, timeout,
    connectivity, solver_cmd, max_steps, progress; tasks/options.py): a move
    puzzle (a spec with a plan) gets a shortest plan of at most ``max_steps``
    moves; ``progress`` is called as runtime/progress.py says."""
    opts = Options.of(options, **given)
    if spec.plan is not None:
        return solve_plan(spec, instance, opts)
    engine = opts.engine(spec)
    result = Result(instance.name, spec.name, "error")
    phases = Phases(opts.progress)
    return within(opts.timeout,
                  lambda: _solve_board(spec, instance, engine, result, phases),
                  lambda: _timed_out(result, engine, phases))


def _solve_board(spec, instance, engine, result, phases) -> Result:
    g, ground_s = ground_or_error(spec, instance, result, phases)
    if g is None:
        return result
    try:
        outcome = engine.solve(g, clock.left(), phases)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    result.stats = run_stats(ground_s, outcome.stats)
    if outcome.status == "timeout":
        solving_cut_off(result.stats, phases)
    return finish(result, spec, instance, g, outcome.status, outcome.assignment,
                  progress=phases)


def solving_cut_off(stats, phases):
    """The solve time of a result the limit stopped while solving: the
    backend's own count misses a solver call the clock's alarm broke into."""
    stats["solve_s"] = max(stats["solve_s"], phases.split()["solve_s"])


@deep_stack
def solve_plan(spec: syntax.Spec, instance: Instance, options: Options | None = None,
               **given) -> Result:
    """A shortest plan: one step more per round on one incremental solver."""
    opts = Options.of(options, **given)
    if opts.max_steps < 0:
        raise PzcError(f"--max-steps is a number of moves, at least 0, not {opts.max_steps}")
    if opts.plan_search not in PLAN_SEARCHES:
        raise PzcError(f"the plan search is {', '.join(PLAN_SEARCHES[:-1])} or "
                       f"{PLAN_SEARCHES[-1]}, not {opts.plan_search!r}")
    if opts.backend not in INCREMENTAL:
        raise PzcError(f"move puzzles are solved on the {' or '.join(INCREMENTAL)} backend, not "
                       f"{opts.backend!r} (a plan grows a step at a time on one incremental "
                       f"solver)" + ("; leave out --portfolio" if opts.backend == "portfolio"
                                     else ""))
    engine = Options.of(opts, connectivity="eager" if opts.backend == "sat" else None,
                        solver_cmd=None).engine(spec)
    result = Result(instance.name, spec.name, "error")
    phases = Phases(opts.progress)
    return within(opts.timeout,
                  lambda: _solve_plan(spec, instance, engine, result, opts, phases),
                  lambda: _timed_out(result, engine, phases))


def _solve_plan(spec, instance, engine, result, opts, progress) -> Result:
    """The state search first (opts.plan_search auto or states), the SAT
    deepening for what it leaves (auto or sat): backends/states.py says when.
    ``progress``: the instance's Phases (opts.progress, noting when solving began)."""
    max_steps = opts.max_steps
    progress("grounding")
    start = time.perf_counter()
    try:
        plan = unroll(spec, instance)
        ground_s = time.perf_counter() - start
        found = None
        if opts.plan_search != "sat":
            found = states.try_search(plan, max_steps, forced=opts.plan_search == "states",
                                      progress=progress)
        if found is not None and found.status != "budget":
            result.stats = dict(run_stats(ground_s, states.run_figures(found)), steps=found.bound)
            if found.status == "unsat":
                return _no_plan(result, max_steps, found)
            answer = Answer({}, found.path, found.moves)
            _check_answer(result, spec, instance, answer, found.bound, progress)
            if result.status == "solved":
                result.steps = found.bound
            return result
        proved = 0 if found is None else found.bound
        with watched(engine, plan, progress) as session:
            outcome = deepen(plan, session, max_steps, proved)
            stats = dict(session.stats)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    steps = outcome.stats["steps"]
    result.stats = dict(run_stats(ground_s, stats), steps=steps)
    if found is not None:
        result.stats.update(states.run_figures(found, before_sat=True))
    if outcome.status == "unsat":
        return _no_plan(result, max_steps)
    finish(result, spec, instance, plan, outcome.status, outcome.assignment, steps, progress)
    if result.status == "solved":
        result.steps = steps
    return result


def _no_plan(result, max_steps, found=None) -> Result:
    result.status, result.exit_code = "unsat", EXIT_UNSAT
    if found is not None and found.exhausted:
        message = f"no plan of any length: {found.exhausted}"
    else:
        message = f"no plan of at most {max_steps} moves (--max-steps raises the bound)"
    result.error = PzcError(message, exit_code=EXIT_UNSAT)
    return result


def _timed_out(result, engine, phases):
    """The instance ran out of time before its backend answered."""
    result.status, result.exit_code, result.error = "timeout", EXIT_TIMEOUT, None
    result.stats = stopped_stats_of(engine, phases)
    return result


def finish(result, spec, instance, g, status, assignment, steps=None,
           progress=no_progress) -> Result:
    """Decode, verify and render a backend's answer into ``result``."""
    if status == "timeout":
        clock.leave_behind(g)            # freed before the next instance's clock
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
        return result
    if status == "unsat":
        result.status, result.exit_code, result.hint = "unsat", EXIT_UNSAT, "explain"
        return result
    try:
        answer = decode(g, assignment, steps)
    except PzcError as e:
        result.status = "solved"
        return _not_verified(result, [e.message])
    return _check_answer(result, spec, instance, answer, steps, progress)


def _check_answer(result, spec, instance, answer, steps, progress) -> Result:
    """Verify a decoded answer and attach it to ``result``."""
    result.status = "solved"
    progress("verifying")
    try:
        problems = verify(spec, instance, answer)
    except PzcError as e:
        problems = [e.message]
    if problems:
        return _not_verified(result, problems)
    result.verified = True
    try:
        result.attach(spec, instance, answer, steps)
    except PzcError as e:
        result.status, result.error, result.exit_code = "error", e, e.exit_code
    return result


def _not_verified(result, problems) -> Result:
    result.verified = False
    result.error = PzcError("verification failed (a bug in pzc): " + "; ".join(problems[:3]),
                            exit_code=EXIT_VERIFY)
    result.exit_code = EXIT_VERIFY
    return result


@without_gc
@deep_stack
def count(spec: syntax.Spec, instance: Instance, options: Options | None = None,
          **given) -> CountResult:
    """Count the distinct boards that solve ``instance`` (up to the option ``limit``).

    ``complete`` says whether every solution was found; ``progress`` is
    called as runtime/progress.py says, ``solution`` as each distinct board comes."""
    opts = Options.of(options, **given)
    result = CountResult(instance.name, spec.name, "error")
    engine = opts.engine(spec)
    phases = Phases(opts.progress)

    found = Enumeration()
    sizes = {}           # the session's stats, once it has them

    def timed_out():
        # the boards found so far count even when the clock's Timeout lands
        # past the enumeration (the alarm rings as a worker's wait ends)
        found.timed_out = not found.complete
        if not sizes:
            result.stats = stopped_stats_of(engine, phases)
            result.found = found
            found.timed_out = True
            result.status, result.exit_code = "timeout", EXIT_TIMEOUT
            return result
        result.stats = run_stats(sizes["ground_s"], sizes["stats"])
        return _counted(result, found, phases)

    return within(opts.timeout,
                  lambda: _count(spec, instance, engine, opts.limit, phases, result, found,
                                 sizes),
                  timed_out)


def _count(spec, instance, engine, limit, phases, result, found, sizes) -> CountResult:
    if not searched(spec, instance, engine, phases, result, found, sizes,
                    lambda g, session: enumerate_solutions(g, session, limit, phases, found)):
        return result
    return _counted(result, found, phases)


def searched(spec, instance, engine, phases, result, found, sizes, search) -> bool:
    """Ground, then run ``search(ground, session)`` on a session of the
    engine, which fills ``found`` as it goes (its ``timed_out`` set at the
    time limit); ``sizes`` gets the grounding time and the session's stats as
    soon as there are some, for a result the time limit cuts off.  False
    (the error in ``result``) when grounding or solving failed."""
    g, ground_s = ground_or_error(spec, instance, result, phases)
    if g is None:
        return False
    try:
        with watched(engine, g, phases) as session:
            sizes.update(ground_s=ground_s, stats=session.stats)
            search(g, session)
            result.stats = run_stats(ground_s, session.stats)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return False
    if found.timed_out:
        clock.leave_behind(g)
    return True


def _counted(result, found, phases) -> CountResult:
    result.count = len(found.solutions)
    result.complete = found.complete
    result.solutions = [s.grid for s in found.solutions]
    result.moves = [s.moves for s in found.solutions]
    result.found = found
    if found.timed_out:
        solving_cut_off(result.stats, phases)
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
    else:
        result.status = "counted"
    return result


@deep_stack
def unique(spec: syntax.Spec, instance: Instance, options: Options | None = None,
           **given) -> UniqueResult:
    """Look for two solutions: exactly one means unique (exit 0), else exit 1;
    ``progress`` is called as count calls it."""
    counted = count(spec, instance, Options.of(options, **given, limit=2))
    result = UniqueResult(instance.name, spec.name, "error", stats=counted.stats,
                          error=counted.error, exit_code=counted.exit_code)
    if counted.error is not None:
        return result
    found = result.found = counted.found
    result.witnesses = [s.grid for s in found.solutions]
    result.moves = [s.moves for s in found.solutions]
    if len(found.solutions) >= 2:
        result.status, result.exit_code = "several", EXIT_UNSAT
        result.differ = differences(found.solutions[0], found.solutions[1])
        result.marks = marked_rows(instance, found.solutions[0], result.differ)
    elif found.timed_out:
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
    elif not found.solutions:
        result.status, result.exit_code = "none", EXIT_UNSAT
    else:
        result.status = "unique"
    return result


@deep_stack
def dimacs(spec: syntax.Spec, instance: Instance) -> tuple:
    """(DIMACS text, symbol table as JSON) with connectivity encoded eagerly."""
    g = ground(spec, instance)
    cnf = cnf_stage.encode(g.model, "eager")
    if cnf.lazy:
        raise PzcError("pzc dimacs cannot write groupsize(...): pzc checks its sizes in the "
                       "solve loop, where a DIMACS file has no part")
    return dimacs_stage.to_dimacs(cnf, spec, instance), dimacs_stage.to_json_map(cnf, spec, instance)


@deep_stack
def decode_model(spec: syntax.Spec, instance: Instance, model_path: str) -> Result:
    """Read a SAT solver's answer for `pzc dimacs`'s formula, then decode,
    verify and render it like `solve` does."""
    result = Result(instance.name, spec.name, "error")
    g, ground_s = ground_or_error(spec, instance, result)
    if g is None:
        return result
    try:
        source = read_file(model_path, "model file")
        cnf = cnf_stage.encode(g.model, "eager")
        status, lits = dimacs_stage.read_model(source.text, source.path)
        assignment = None
        if status == "sat":
            assignment = dimacs_stage.check_model(cnf, lits, source.path)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    result.stats = {"backend": "model file", "solver": source.path, "variables": cnf.nvars,
                    "clauses": len(cnf.clauses), "compile_s": round(ground_s, 4), "solve_s": 0.0}
    if status == "unknown":
        status = "timeout"
    return finish(result, spec, instance, g, status, assignment)
