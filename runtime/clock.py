"""The clock: one deadline per instance, watched by every stage.

``--timeout S`` is a promise: pzc stops and reports ``timeout`` (exit 3) within
max(0.5 s, 10%) of S, whatever it is doing.  The API opens one limit around an
instance and every stage reads the same deadline:

    with clock.limit(10.0):          # api: one instance
        ...
        clock.check()                # a loop (rounds, steps, constraints): Timeout when past
        solver.solve(clock.left())   # a solver call: bounded by what is left

Stretches of pure Python that check nothing (the evaluator deep in a
recursive let function, reading a huge file) stop too: a timer thread raises
Timeout at the deadline in the thread that opened the limit, wherever it is
(an asynchronous exception, _Alarm).  Solvers run in C, where neither
reaches: one that can be told to stop from another thread is told so by the
same timer (``interrupting``: PySAT's Glucose and MiniSat family, Z3,
clingo) and solves in process; one that cannot (CaDiCaL), or a big formula
that the solver reads for long before it looks at its interrupt, goes to a
forked worker killed at the deadline (backends/worker.py, used only where
needed: a fork costs tens of milliseconds); external binaries are killed
with their process group.  What a timed-out instance built is freed later
(leave_behind), not in the margin after the limit.
"""

from __future__ import annotations

import atexit
import contextvars
import ctypes
import gc
import signal
import threading
import time
from contextlib import contextmanager

from .limits import reclaim_memory

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


class limit:
    """``with limit(seconds) as at:`` runs the block under a time limit of
    ``seconds`` (None: no new limit); ``at`` is the deadline.

    A limit inside another keeps the earlier deadline.  A timer raises
    Timeout in this thread at the deadline too, once; catch Timeout around
    the block, not inside it: it can come as the block is left, even before
    ``__exit__`` has done anything, so the handler calls ``leave()``, which
    does what ``__exit__`` did not (and nothing twice).  (A generator-based
    context manager, interrupted there, stayed suspended with its deadline
    set, and was closed later in another context: "Exception ignored".)"""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.token = None
        self.alarm = None

    def __enter__(self):
        outer = _deadline.get()
        at = None if self.seconds is None else time.perf_counter() + max(0.0, self.seconds)
        if outer is not None and (at is None or outer < at):
            at = outer
        self.token = _deadline.set(at)
        if at is not None and at != outer:
            self.alarm = _Alarm(at)
            self.alarm.arm()
        return at

    def __exit__(self, *exc_info):
        self.leave()

    def leave(self) -> None:
        """Disarm the alarm and restore the outer deadline, once."""
        alarm, self.alarm = self.alarm, None
        token, self.token = self.token, None
        try:
            if alarm is not None:
                alarm.disarm()
        finally:
            if token is not None:
                _deadline.reset(token)


# items per step when building a big set or dict: set() or dict.fromkeys()
# over a 2000 x 2000 board's cells is one C call that holds the interpreter
# for about a second, and the alarm's Timeout comes only between bytecodes
# (a step of 65,536 cells: at most 0.1-0.2 s, growing the table included)
STEP = 1 << 16


def big_set(items) -> set:
    """set(items), built STEP items at a time, so that a time limit can stop it."""
    items = items if isinstance(items, (tuple, list)) else tuple(items)
    if len(items) <= STEP:
        return set(items)
    out = set()
    for start in range(0, len(items), STEP):
        out.update(items[start:start + STEP])
    return out


def big_dict(keys, value=None) -> dict:
    """dict.fromkeys(keys, value), built STEP keys at a time, as big_set."""
    keys = keys if isinstance(keys, (tuple, list)) else tuple(keys)
    if len(keys) <= STEP:
        return dict.fromkeys(keys, value)
    out = {}
    for start in range(0, len(keys), STEP):
        out.update(dict.fromkeys(keys[start:start + STEP], value))
    return out


_LEFT_BEHIND = []     # what a timed-out instance built, not freed yet


def leave_behind(thing) -> None:
    """Keep what an instance that ran out of time built (its ground model, a
    solver, a Timeout with the frames it unwound) instead of freeing it now:
    freeing a big one takes seconds (a million-cell board, CaDiCaL with many
    cuts) that would be spent past the limit.  The next instance frees it
    before its clock starts (release_left_behind); the command exits without
    freeing it (cli).  The cyclic collector stops looking at what exists now
    (gc.freeze): its first pass after a paused stage (runtime/gc_pause.py)
    would walk all of it, for seconds, too."""
    _LEFT_BEHIND.append(thing)
    gc.freeze()


def release_left_behind() -> None:
    """Free what timed-out instances left behind, before the next clock
    starts.  Its cycles (a Timeout's frames, the ground model) are collected
    here and the freed heap is handed back to the system: an API caller's
    loop never collects them otherwise (stages pause the collector, and the
    thawed objects land in the oldest generation), and every instance after
    a big one's timeout was refused by the memory budget, which reads the
    process's resident size (bench/run.py's Fillomino set: 99 of 840)."""
    if not _LEFT_BEHIND:
        return
    gc.unfreeze()
    while _LEFT_BEHIND:
        thing = _LEFT_BEHIND.pop()
        if hasattr(thing, "delete"):       # a PySAT solver
            with held():                   # never deleted twice (see held)
                thing.delete()
        elif hasattr(thing, "join"):       # a killed worker process
            thing.join()
    reclaim_memory()


atexit.register(release_left_behind)     # a program that exits normally frees them first


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
    """Timeout raised in the thread that opened the limit, at the deadline,
    wherever it is (between two bytecodes): a timer thread sets it as that
    thread's asynchronous exception.  (The command runs in a thread of its
    own, with a deep stack, so SIGALRM, which only the main thread sees,
    would not do.)"""

    def __init__(self, at):
        self.at = at
        self.thread = threading.get_ident()
        self.lock = threading.Lock()
        self.armed = False
        self.fired = False
        self.timer = None

    def arm(self):
        self.armed = True
        self.timer = threading.Timer(max(0.0, self.at - time.perf_counter()), self._ring)
        self.timer.daemon = True
        self.timer.start()

    def _ring(self):
        with self.lock:
            if not self.armed:
                return
            if _interrupt(self.thread):          # the Timeout comes as its block ends
                return
            with _HOLD_LOCK:
                if _HOLDS.get(self.thread):      # in a held() block: raised as it ends
                    _PENDING.setdefault(self.thread, []).append(self)
                    return
            self.fired = True
            _set_async_exc(self.thread, Timeout)

    def disarm(self):
        with self.lock:
            self.armed = False
            if self.fired:               # not raised yet (it was on its way): drop it
                _set_async_exc(self.thread, None)
        if self.timer is not None:
            self.timer.cancel()


_INTERRUPTS = {}    # thread id -> [stop, rang] of each interrupting block it is in
_INTERRUPTS_LOCK = threading.Lock()


@contextmanager
def interrupting(stop):
    """Inside the block, ``stop()`` is called from the timer's thread when
    the deadline comes (at once if it has passed): a native solver that
    releases the interpreter while it searches (PySAT's solve_limited with
    expect_interrupt, Z3, clingo) returns, and the Timeout is raised as the
    block ends, not inside it: raised asynchronously it could land in a
    callback the solver makes into Python (Z3's error handler), which would
    print it and drop it.  Without a deadline ``stop`` is never called."""
    me = threading.get_ident()
    entry = [stop, False]
    with _INTERRUPTS_LOCK:
        _INTERRUPTS.setdefault(me, []).append(entry)
        at = _deadline.get()
        if at is not None and time.perf_counter() >= at:
            stop()
            entry[1] = True
    try:
        yield
    finally:
        with _INTERRUPTS_LOCK:          # no stop() runs once this block is left
            entries = _INTERRUPTS[me]
            entries.remove(entry)
            if not entries:
                del _INTERRUPTS[me]
        if entry[1]:
            raise Timeout()


def _interrupt(thread_id) -> bool:
    """Stop the native calls of ``thread_id``'s interrupting blocks; False
    when it is in none."""
    with _INTERRUPTS_LOCK:
        entries = _INTERRUPTS.get(thread_id)
        for entry in entries or ():
            entry[0]()
            entry[1] = True
        return bool(entries)


_HOLD_LOCK = threading.Lock()
_HOLDS = {}         # thread id -> depth of held() blocks
_PENDING = {}       # thread id -> alarms that rang inside them


@contextmanager
def held():
    """No asynchronous Timeout inside the block, and no KeyboardInterrupt
    (Ctrl-C) on the main thread; one due meanwhile comes as the block ends.
    For steps an exception must not cut in half: os.fork runs the
    interpreter's at-fork handlers (logging's lock among them), where an
    exception is printed as "Exception ignored" with a traceback, and lost;
    a child process started but not yet known to its Popen object would be
    left running; a native solver deleted but not yet marked so is deleted
    again by the next clean-up (PySAT: a double free, signal 11)."""
    me = threading.get_ident()
    with _HOLD_LOCK:
        _HOLDS[me] = _HOLDS.get(me, 0) + 1
        outermost = _HOLDS[me] == 1
    interrupts = _hold_interrupts() if outermost else None
    try:
        yield
    finally:
        with _HOLD_LOCK:
            _HOLDS[me] -= 1
            due = _PENDING.pop(me, []) if not _HOLDS[me] else []
            if not _HOLDS[me]:
                del _HOLDS[me]
        if interrupts is not None:
            interrupts()
        for alarm in due:
            alarm._ring()


def _hold_interrupts():
    """On the main thread, under Python's own Ctrl-C handler: keep SIGINTs
    aside until the returned function is called, which puts the handler
    back and raises KeyboardInterrupt if one came.  None elsewhere."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        return None
    came = []
    signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))

    def release():
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if came:
            raise KeyboardInterrupt
    return release


def _set_async_exc(thread_id, exc_type):
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc_type) if exc_type else None)
