"""The clock: one deadline per instance, watched by every stage.

``--timeout S`` is a promise: pzc stops and reports ``timeout`` (exit 3) within
max(0.5 s, 10%) of S, whatever it is doing.  The API opens one limit around an
instance and every stage reads the same deadline:

    with clock.limit(10.0):          # api: one instance
        ...
        clock.check()                # a loop (rounds, steps, constraints): Timeout when past
        solver.solve(clock.left())   # a solver call: bounded by what is left

Stretches of pure Python that check nothing (the evaluator deep in a
recursive let function, reading a huge file) stop too: in the main thread an
interval timer (SIGALRM) raises Timeout at the deadline wherever the program
is.  Solvers, which run in C where neither reaches, solve in a forked worker
killed at the deadline (backends/worker.py: PySAT and Z3) or are killed with
their process group (external binaries).  What a timed-out instance built is
freed later (leave_behind), not in the margin after the limit.
"""

from __future__ import annotations

import contextvars
import gc
import signal
import threading
import time
from contextlib import contextmanager

_deadline: contextvars.ContextVar = contextvars.ContextVar("pzc_deadline", default=None)


class Timeout(Exception):
    """The instance's time limit is reached; api reports status ``timeout``, exit 3."""

    def __init__(self):
        super().__init__("time limit reached")


def deadline() -> float | None:
    """The current deadline (a time.perf_counter() value), None without a limit."""
    return _deadline.get()


def left() -> float | None:
    """Seconds left before the deadline (0.0 once past it), None without a limit."""
    at = _deadline.get()
    if at is None:
        return None
    return max(0.0, at - time.perf_counter())


def check() -> None:
    """Raise Timeout when the deadline has passed (cheap: call it in loops)."""
    at = _deadline.get()
    if at is not None and time.perf_counter() >= at:
        raise Timeout()


@contextmanager
def limit(seconds: float | None):
    """Run the block under a time limit of ``seconds`` (None: no new limit).

    A limit inside another keeps the earlier deadline.  In the main thread a
    SIGALRM timer raises Timeout at the deadline too, once."""
    outer = _deadline.get()
    at = None if seconds is None else time.perf_counter() + max(0.0, seconds)
    if outer is not None and (at is None or outer < at):
        at = outer
    token = _deadline.set(at)
    alarm = _Alarm(at) if at is not None and at != outer else None
    try:
        if alarm is not None:
            alarm.arm()
        yield at
    finally:
        if alarm is not None:
            alarm.disarm()
        _deadline.reset(token)


_LEFT_BEHIND = []     # what a timed-out instance built, not freed yet


def leave_behind(thing) -> None:
    """Keep what an instance that ran out of time built (its ground model, a
    solver, a Timeout with the frames it unwound) instead of freeing it now:
    freeing a big one takes seconds (a million-cell board, CaDiCaL with many
    cuts) that would be spent past the limit.  The next instance frees it
    before its clock starts (release_left_behind); the command exits without
    freeing it (cli).  The cyclic collector stops looking at what exists now
    (gc.freeze): its first pass after a paused stage (encoder/gc_pause.py)
    would walk all of it, for seconds, too."""
    _LEFT_BEHIND.append(thing)
    gc.freeze()


def release_left_behind() -> None:
    if _LEFT_BEHIND:
        gc.unfreeze()
    while _LEFT_BEHIND:
        thing = _LEFT_BEHIND.pop()
        if hasattr(thing, "delete"):       # a PySAT solver
            thing.delete()


def any_left_behind() -> bool:
    return bool(_LEFT_BEHIND)


@contextmanager
def unlimited():
    """No deadline inside (a forked solver child, killed from outside instead)."""
    token = _deadline.set(None)
    try:
        yield
    finally:
        _deadline.reset(token)


class _Alarm:
    """SIGALRM at the deadline, raising Timeout in the main thread (elsewhere,
    and where SIGALRM is not available, the stages' own checks stop the work)."""

    def __init__(self, at):
        self.at = at
        self.armed = False
        self.fired = False
        self.previous = None

    def arm(self):
        if (not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):
            return
        self.previous = signal.signal(signal.SIGALRM, self._ring)
        if self.previous is None:              # set outside Python: put the default back
            self.previous = signal.SIG_DFL
        self.previous_timer = signal.setitimer(signal.ITIMER_REAL, 0)
        self.armed = True
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, self.at - time.perf_counter()))

    def _ring(self, signum, frame):
        if not self.armed or self.fired:
            return
        remaining = self.at - time.perf_counter()
        if remaining > 0:                      # woken early: sleep on
            signal.setitimer(signal.ITIMER_REAL, remaining)
            return
        self.fired = True
        raise Timeout()

    def disarm(self):
        if not self.armed:
            return
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        delay, interval = self.previous_timer
        if delay > 0:                          # someone else's timer: let it run on
            signal.setitimer(signal.ITIMER_REAL, delay, interval)
