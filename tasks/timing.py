"""The instance clock: each instance runs under a time limit of its own.

    result = within(timeout, lambda: work(...), lambda: timed_out_result())

``within`` frees what an earlier instance left behind at its limit, starts the
limit, runs ``work`` and returns its value; when the limit is reached it
keeps what the instance built for later (clock.leave_behind: freeing it now
would cost seconds past the limit) and returns ``timed_out()`` instead.  It is
a function, not a ``with`` block, because the Timeout may come as the block
is left, before ``__exit__`` runs (runtime/clock.py's ``limit`` says why):
only an ``except`` around the ``with`` sees it there.
"""

from __future__ import annotations

import time

from ..runtime import clock
from ..runtime.clock import Timeout

# the least a first instance whose limit counts from an earlier start gets
# (or half its limit): a slow start-up on a busy machine must not time out a
# quick instance, nor push the end far past the limit
FIRST_AT_LEAST_S = 0.25


def left_after(timeout: float | None, spent: float) -> float | None:
    """What is left of ``timeout`` seconds once ``spent`` are gone, but at
    least min(timeout / 2, FIRST_AT_LEAST_S); None: no limit."""
    if timeout is None:
        return None
    return max(timeout - spent, min(timeout / 2, FIRST_AT_LEAST_S))


def left_since(timeout: float | None, started: float | None) -> float | None:
    """``timeout`` counted from ``started`` (a time.monotonic()), as
    left_after; from now when ``started`` is None."""
    if started is None:
        return timeout
    return left_after(timeout, time.monotonic() - started)


def within(timeout: float | None, work, timed_out):
    """``work()`` within ``timeout`` seconds (None: no limit); ``timed_out()``
    when the limit is reached first."""
    clock.release_left_behind()
    deadline = clock.limit(timeout)
    try:
        with deadline:
            return work()
    except Timeout as e:            # outside the with: it can come while the block is left
        deadline.leave()            # what __exit__ did not do, if it came there
        clock.leave_behind(e)       # its frames hold what was built so far
        return timed_out()


class Phases:
    """An instance's progress callback that also notes when its solving
    began, so that a result the time limit cuts off splits its time right:
    compile_s up to the first "solving" event (grounding, encoding), solve_s
    after it, rather than all of it as compile time."""

    def __init__(self, progress):
        self.progress = progress
        self.started = time.perf_counter()
        self.solving = None

    def __call__(self, event, **figures):
        if event == "solving" and self.solving is None:
            self.solving = time.perf_counter()
        self.progress(event, **figures)

    def split(self) -> dict:
        """{"compile_s": ..., "solve_s": ...} so far."""
        now = time.perf_counter()
        solving = self.solving if self.solving is not None else now
        return {"compile_s": round(solving - self.started, 4), "solve_s": round(now - solving, 4)}
