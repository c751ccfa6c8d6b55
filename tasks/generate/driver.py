"""Generation's driver: draw solutions, keep the first that makes a unique
puzzle, blank its clues while it stays unique (stages.py has the stages;
task.py's generate, which api.generate is, calls this).

Every puzzle comes from one seed: the random phases of each draw and the
order clues are tried in are taken from ``random.Random(seed)``, the generate
lines' random(...) from the seed and the draw's number, and the solvers are
deterministic; no decision waits on the clock (the solve loop's switches
count rounds and models, checks and draws count conflicts), so the same seed
gives the same puzzle on any machine and under any load.  Puzzle k of a batch started
at seed S has seed S + k.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import replace

from ...backends import get_backend
from ...backends.choice import solver_for
from ...encoder import check as check_stage
from ...encoder import cnf as cnf_stage
from ...encoder.decode import decode
from ...encoder.ground import ground
from ...encoder.instance import Instance
from ...runtime import clock
from ...runtime.clock import Timeout
from ...runtime.errors import EXIT_TIMEOUT, EXIT_USAGE, EXIT_VERIFY, PzcError
from ...runtime.progress import no_progress
from ..results import Generated
from ..solving import solve
from ..timing import left_since, within
from . import stages as stage
from .checks import unique
from .reduce import remove_while_unique

REPAIRS = 50          # repairs of one drawn solution before a new draw
# conflicts one solver call of a draw may take before the draw starts again
# with new phases, doubled at each new start (a model with no solution is
# still found out): random draws have a heavy tail (Numberlink 40x40: most in
# 2-8 s, one in ten past two minutes), and a count, unlike a time, keeps a
# seed's puzzle the same on any machine
DRAW_CONFLICTS = 100_000
# the solver that draws, unless --solver names one (the spec's `solver` line is
# for solving its puzzles, and still checks their uniqueness): with random
# phases on all its variables it drew 10x10 Star Battle regions in 2-5 s
# where CaDiCaL took 7-30 s
DRAW_SOLVER = "glucose4"
WINDOW = 2            # how far (cells) around the differences a repair redraws
# checks left undecided by their conflict budget (checks.py) after which reduce
# keeps every clue left: on a size-6 Hexiom, once a few were, nearly every check
# after them was too, each costing its whole budget (issue 28, seeds 1-4 under
# load 4-5, a budget of 20,000: with a stop after three 19-26 locks kept,
# 8.4-14 s a puzzle; without it 15-24 locks, 10-68 s; with no budget either,
# up to 140 s; seeds 7, 8, 5 with 10,000: after one, 6.4, 4.2, 5.2 s of CPU
# and 27, 24, 18 locks, after two, 9.0, 10.9, 5.9 s and 26, 22, 18)
UNDECIDED = 1


def prepare(spec):
    """The generation model, checked (errors point into the spec)."""
    gspec = stage.generation_spec(spec)
    check_stage.check(gspec)
    return gspec


def generate_one(spec, gspec, blank: Instance, seed: int, solver: str | None = None,
                 timeout: float | None = None, minimal: bool = True,
                 progress=no_progress, limit_from: float | None = None) -> Generated:
    """One puzzle from ``seed`` on the blank board, within ``timeout`` seconds
    (counted from ``limit_from``, a time.monotonic(), if given: timing.left_since)."""
    out = Generated(spec.name, seed, "error")
    rng = random.Random(seed)
    drawer = solver or DRAW_SOLVER
    solver = solver_for(spec, "sat", solver)
    stats = out.stats = {"draws": 0, "repairs": 0, "checks": 0, "removed": 0}
    started = time.perf_counter()

    def make():
        try:
            drawn = _draw_unique(spec, gspec, blank, seed, rng, drawer, solver, stats,
                                  progress)
            inst = drawn.instance
            if minimal:
                inst = _reduce(spec, drawn, rng, solver, stats, progress)
            inst = stage.shuffled(spec, gspec, inst, drawn.answer, rng)
            result = solve(spec, inst, solver=solver)
            _check(result.status == "solved" and result.verified,
                   f"the generated puzzle did not solve and verify: {result.status}")
            out.status, out.instance, out.solution = "generated", inst, result.grid
            out.answer = result.answer
            out.clues = len(inst.clues)
            if inst.locked:
                stats["locked"] = len(inst.locked)
        except PzcError as e:
            if e.file == stage.GENERATED:    # the spec refuses the board: no line to point at
                e = PzcError(f"the generated board: {e.message}", exit_code=e.exit_code)
            out.error, out.exit_code = e, e.exit_code

    def timed_out():
        out.status, out.exit_code = "timeout", EXIT_TIMEOUT

    within(left_since(timeout, limit_from), make, timed_out)
    stats["seconds"] = round(time.perf_counter() - started, 3)
    return out


def _check(ok, message):
    if not ok:
        raise PzcError(message + " (a bug in pzc)", exit_code=EXIT_VERIFY)


def _draw_unique(spec, gspec, blank, seed, rng, drawer, solver, stats, progress):
    """Draw solutions (with the solver ``drawer``) until one gives a puzzle
    with exactly one solution (checked with ``solver``).  The board of draw k
    is ``blank`` marked "SEED/k": the generate lines' random(...) read it.

    A drawn solution whose clues leave a second solution is repaired before it
    is given up: the cells near where the two solutions differ are drawn
    again (new random phases, a changed assignment there), everything else is
    kept by assumptions on the same incremental solver."""
    engine = get_backend("sat", drawer)
    while True:
        clock.check()
        stats["draws"] += 1
        progress("draw", draws=stats["draws"])
        board = replace(blank, draw=f"{seed}/{stats['draws']}")
        g = ground(gspec, board)
        with engine.session(g) as session:
            session.call_budget = DRAW_CONFLICTS << stats.get("restarts", 0)
            session.set_phases(stage.random_phases(session.cnf.var_lits, gspec.vars, rng,
                                                    _encoding_phases(session)))
            outcome = session.next(clock.left())
            if outcome.status == "unknown":
                stats["restarts"] = stats.get("restarts", 0) + 1
                continue                 # a long draw: again, with new phases
            _check_drawn(spec, outcome)
            for repair in range(REPAIRS + 1):
                drawn = stage.derive(spec, gspec, board, decode(g, outcome.assignment))
                verdict, diff = unique(spec, drawn.instance, drawn.answer, solver, stats)
                _check(verdict != "none", "a drawn solution's own clues have no solution")
                if verdict == "unique":
                    return drawn
                if repair == REPAIRS or verdict == "undecided":   # (no second solution to mend)
                    break
                stats["repairs"] += 1
                outcome = _repair(session, g, gspec, outcome.assignment,
                                  _near(blank, diff, WINDOW), rng)
                if outcome is None:          # nothing near there can change: draw again
                    break


def _check_drawn(spec, outcome):
    if outcome.status == "timeout":
        raise Timeout()
    if outcome.status != "sat":
        raise PzcError(f"the generation model of '{spec.name}' has no solution on this "
                       "board (its size, or its generate rules)", exit_code=EXIT_USAGE)


def _repair(session, g, gspec, assignment, window: set, rng):
    """A solution that differs from ``assignment`` inside ``window`` (cells)
    and equals it outside; None if there is none."""
    var_lits = session.cnf.var_lits
    fixed, inside = [], {}
    for table in g.model.spec_vars.values():
        for key, var in table.items():
            lits = var_lits.get(var)
            if lits is None:
                continue
            cells = _key_cells(key)
            if cells and not any(c in window for c in cells):
                value = assignment[var]
                fixed.append(lits if value is True else -lits if value is False else lits[value])
            else:
                inside[var] = assignment[var]
    guard = cnf_stage.fresh_literal(session.cnf)
    session.block(inside, guard)
    session.set_phases(stage.random_phases(var_lits, gspec.vars, rng,
                                           _encoding_phases(session)))
    session.assumptions = fixed + [guard]
    try:
        outcome = session.next(clock.left())
    finally:
        session.assumptions = []
    if outcome.status == "timeout":
        raise Timeout()
    return outcome if outcome.status == "sat" else None     # unsat, or out of budget


def _encoding_phases(session) -> int:
    """How many CNF variables get random phases besides the spec's: all for
    the MiniSat family (MiniSat, Glucose, Maple), which branches first on the
    encoding's own variables (with the spec's alone, every seed drew the same
    Sudoku); none for CaDiCaL, which follows the spec's, and where phases on
    the rest made Star Battle draws slower (10x10, 2 stars: median 14.6 s
    against 5.3 s)."""
    return 0 if session.name.startswith("cadical") else session.cnf.nvars


def _key_cells(key) -> list:
    """The board positions an element's key names: cells, the ends of edges
    and segments (a dot stands for the cell it is the corner of)."""
    out = []
    for part in key:
        if hasattr(part, "a"):
            out += [part.a, part.b]
        elif type(part) is tuple and len(part) == 2 and all(type(x) is int for x in part):
            out.append(part)
    return out


def _near(blank, diff, radius) -> set:
    """The cells within ``radius`` (in rows and columns) of the differing
    positions of the shown boards (a canvas's points scaled to the board)."""
    geom = blank.geometry
    height = max((r for r, _ in geom.cells), default=0) + 1
    width = max((c for _, c in geom.cells), default=0) + 1
    shown_h = max((r for r, _ in diff), default=0) + 1
    shown_w = max((c for _, c in diff), default=0) + 1
    scale_r = height / shown_h if shown_h > height else 1
    scale_c = width / shown_w if shown_w > width else 1
    centres = {(int(r * scale_r), int(c * scale_c)) for r, c in diff}
    return {cell for cell in geom.cells
            if any(abs(cell[0] - r) <= radius and abs(cell[1] - c) <= radius for r, c in centres)}


def _reduce(spec, drawn, rng, solver, stats, progress):
    """Blank each removable clue and open each lock, in random order, where
    the puzzle stays unique: one at a time, each tried on what the ones
    before left, but checked a run at a time (reduce.py), to the same end.
    A check the solver leaves undecided (checks.py's budget) keeps the
    clue; after UNDECIDED of them the rest are kept too."""
    order = [("clue", c) for c in drawn.removable] + [("lock", c) for c in drawn.locks]
    rng.shuffle(order)

    def without(inst, item):
        kind, cell = item
        return (stage.without_clue(inst, cell, drawn.removed) if kind == "clue"
                else stage.without_lock(inst, cell))

    def goes(inst):
        if stats.get("undecided", 0) >= UNDECIDED:
            return False                 # the rest would each spend a check's budget
        verdict = unique(spec, inst, drawn.answer, solver, stats)[0]
        if verdict == "undecided":
            stats["undecided"] = stats.get("undecided", 0) + 1
        return verdict == "unique"

    inst, removed = remove_while_unique(drawn.instance, order, without, goes, progress)
    stats["removed"] += removed
    return inst


def seeds(seed: int | None, count: int) -> list:
    """The seeds of a batch: ``seed``, seed + 1, ...; a random start if none."""
    start = seed if seed is not None else int.from_bytes(os.urandom(4), "big") >> 1
    return [start + k for k in range(count)]


_WORKER_JOB = []    # in a forked worker only: (spec, gspec, blank, options), set by its pool


def _start_worker(job):
    _WORKER_JOB.append(job)


def _run_seed(seed, limit_from):
    spec, gspec, blank, options = _WORKER_JOB[0]
    return generate_one(spec, gspec, blank, seed, limit_from=limit_from, **options)


def generate_many(spec, gspec, blank, seed_list, workers: int = 1, limit_from=None,
                  **options):
    """generate_one for each seed, in order; ``workers`` processes at once.
    The puzzles begun first (one, or one per worker) count their time limit
    from ``limit_from`` (a time.monotonic(); None: from their own start), the
    others from their own start.  The workers are forked with the job (the
    pool's initializer keeps it in each worker; this process holds no job
    between calls)."""
    if workers <= 1 or len(seed_list) <= 1:
        for k, seed in enumerate(seed_list):
            yield generate_one(spec, gspec, blank, seed,
                               limit_from=limit_from if k == 0 else None, **options)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    options.pop("progress", None)            # a callback stays in this process
    job = (spec, gspec, blank, options)
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                             initializer=_start_worker, initargs=(job,)) as pool:
        firsts = [limit_from if k < workers else None for k in range(len(seed_list))]
        yield from pool.map(_run_seed, seed_list, firsts)
