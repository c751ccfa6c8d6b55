"""Steady decisions: heuristics that would read the clock read work instead.

A few solver heuristics change course once something has taken long: lazy
connectivity rounds get the eager encoding after EAGER_AFTER_S seconds, cuts
through a separator come once a constraint has been broken for
SEPARATE_AFTER_S (encoder/connectivity.py).  On a loaded machine the same
formula reaches those seconds sooner in its search, the solver takes another
path and, where several answers exist, finds another one.  Where the answer
must not depend on the machine's speed or load (pzc generate: its seed alone
makes the puzzle) the work runs inside ``steady()``, and "long" is counted
in the solver's own work, its propagations, at PROPAGATIONS_PER_S to the
second:

    with work.steady():
        ...        # the sessions made here measure their solver's work, not time
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

_steady: contextvars.ContextVar = contextvars.ContextVar("pzc_steady", default=False)

# propagations per second: Glucose made 2.6-4.4 million a second in the long
# calls of lazy Nurikabe rounds on this project's machine (issue 28), and the
# rounds' own Python time comes on top
PROPAGATIONS_PER_S = 3_000_000


@contextmanager
def steady():
    """Inside, decisions depend on work done, never on elapsed time."""
    token = _steady.set(True)
    try:
        yield
    finally:
        _steady.reset(token)


def is_steady() -> bool:
    return _steady.get()
