"""Generation's uniqueness checks: does a puzzle made from a drawn answer
have another solution?

The answer is known, so one solver call says it: the answer's board is
blocked from the start (as counting blocks each board it finds), and a model
is a second solution, none means the answer is the only one.  Counting to
two instead takes two calls, and a third to say whether there are more:
three size-5 Hexioms, whose checks are most of their time, took 8.0 s of CPU
this way against 9.4 s counted, both one clue at a time (docs/benchmarks.md,
issue 28).  Such a call gets a budget of conflicts: a check it does not
decide keeps its clue (and ends the reduction: driver.UNDECIDED).  A spec
whose generation model does not hold the variables its board shows
(Nurikabe draws islands, not the spec's owners) is counted as before,
without a budget.
"""

from __future__ import annotations

from ...backends import get_backend
from ...encoder.decode import decode
from ...encoder.enumerate import differences, show_solution
from ...encoder.ground import ground
from ...encoder.verify import verify
from ...runtime import clock
from ...runtime.clock import Timeout
from ...runtime.errors import EXIT_VERIFY, PzcError
from ...runtime.gc_pause import without_gc
from ..solving import count

# conflicts a check may take before it is left undecided (its clue then stays):
# proving a size-6 Hexiom with 14 locks unique took up to 134,000 conflicts
# and 22 s, most checks of one puzzle over 30,000 (issue 28: with 20,000 and
# three undecided checks, seeds 7 and 8 took 14.1 and 13.6 s of CPU, with
# 10,000 and two 9.0 and 10.9 s); a count, unlike a time, gives the same
# puzzle on any machine
CHECK_CONFLICTS = 10_000


def unique(spec, inst, answer, solver, stats) -> tuple:
    """(unique, several, none or undecided; where two solutions differ) for
    ``inst``, which ``answer`` (a drawn solution) solves; undecided when one
    call spends CHECK_CONFLICTS (after a first slice, backends/sat.py);
    Timeout at the limit."""
    stats["checks"] += 1
    beside = _beside_answer(spec, inst, answer, solver)
    if beside is not None:
        return beside
    counted = count(spec, inst, solver=solver, limit=2)
    if counted.status == "timeout":
        raise Timeout()
    if counted.error is not None:
        raise counted.error
    if counted.count < 2:
        return ("none", "unique")[counted.count], []
    return "several", differences(*counted.found.solutions[:2])


@without_gc      # its objects die with it, by reference counting (as count's)
def _beside_answer(spec, inst, answer, solver):
    """unique() by one solver call, or None where the drawn answer is no
    answer of the spec on this instance: a variable it lacks, an element the
    instance gives another variable (Kurotto's near[k, c], for c in the area
    of k's clue) or values that break the spec's rules (variables the
    generation model leaves free)."""
    g = ground(spec, inst)
    for name, table in g.model.spec_vars.items():
        values = answer.values.get(name)
        if values is None or any(key not in values for key in table):
            return None
    if verify(spec, inst, answer):
        return None
    touched = set()
    known = show_solution(spec, inst, answer, touched)
    # in the variables' order, as counting's blocking clauses (encoder/enumerate.py)
    shown = sorted(((g.model.spec_vars[name][key], answer.values[name][key])
                    for name, key in touched), key=lambda pair: pair[0].uid)
    with get_backend("sat", solver).session(g) as session:
        session.block(dict(shown))
        session.call_budget = CHECK_CONFLICTS
        outcome = session.next(clock.left())
    if outcome.status == "timeout":
        raise Timeout()
    if outcome.status == "unsat":
        return "unique", []
    if outcome.status == "unknown":
        return "undecided", []
    other = decode(g, outcome.assignment)
    problems = verify(spec, inst, other)
    if problems:
        raise PzcError("verification failed (a bug in pzc): " + "; ".join(problems[:3]),
                       exit_code=EXIT_VERIFY)
    return "several", differences(known, show_solution(spec, inst, other, set()))
