"""A solver in a forked worker process, killed at the deadline.

A time limit holds only if the solver can be stopped whatever it is doing, and
in process it sometimes cannot: PySAT cannot interrupt CaDiCaL and holds the
interpreter while it solves, Z3 spends half a minute parsing a big formula
without looking at its interrupt.  A killed process stops at once.  So where
nothing else stops the work (the backends say when), a session forks a
worker (a copy of itself), sends it requests and waits for each answer at
most until the deadline:

    worker = Worker(session.serve)         # serve(request) -> reply, run in the copy
    reply = worker.call(request, timeout)  # None: the deadline came first (worker killed)

The worker lives from call to call, so an incremental solver keeps what it
learnt (counting, plan deepening, connectivity rounds).  What the copy reports
to its ``progress`` callback (runtime/progress.py: connectivity rounds) comes back
and is reported here, where the caller's callback lives.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import time

from ..runtime import clock
from ..runtime.limits import budget_bytes
from ..runtime.errors import PzcError


_inside = False          # this process is a worker


def inside() -> bool:
    """Whether this process is a worker (or a portfolio member): its parent
    stops it, by killing it, so it solves in place."""
    return _inside


def die_with(parent: int) -> None:
    """This process is killed when the one that forked it dies (Linux): a
    killed pzc, or a portfolio member killed at the deadline, must not leave
    solvers running (holding its output pipes open)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)         # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:                # it died before that
        os._exit(1)


def bounded(timeout):
    """``timeout``, but no later than the clock's deadline: a wait in a system
    call (poll, communicate) is not broken by runtime/clock.py's alarm, and a timeout
    reckoned before encoding would let it run on by the encoding's time."""
    left = clock.left()
    if left is None:
        return timeout
    return left if timeout is None else min(timeout, left)


REAP_MARGIN_S = 1.0     # a killed worker is joined only with this much time left


class Worker:
    def __init__(self, serve, name: str, reporter=None):
        """``reporter``: an object (the session) whose ``progress`` callback
        is called in the worker; those calls are made here too."""
        self.name = name
        self.progress = getattr(reporter, "progress", None)
        ctx = multiprocessing.get_context("fork")
        here, there = ctx.Pipe()
        parent = os.getpid()

        def loop():
            global _inside
            _inside = True
            die_with(parent)
            here.close()
            # Ctrl-C is the parent's to handle (it kills this copy); here it
            # would only race the parent with a reply of its own
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            if reporter is not None:
                reporter.progress = lambda event, **figures: there.send(("progress", event, figures))
            with clock.unlimited():      # the parent kills it at the deadline
                while True:
                    try:
                        request = there.recv()
                    except EOFError:     # the parent is gone
                        return
                    try:
                        reply = ("ok", serve(request))
                    except BaseException as e:      # report, never hang the parent
                        there.send(("error", repr(e)))
                        return
                    there.send(reply)

        self.proc = ctx.Process(target=loop, daemon=True)
        with clock.held():               # the alarm never lands inside the fork
            self.proc.start()
        there.close()
        self.conn = here

    def call(self, request, timeout):
        """The worker's reply, or None when the deadline came first (the
        worker is then stopped)."""
        timeout = bounded(timeout)
        try:
            self.conn.send(request)
            answer = self._answer(timeout)
            if answer is None:
                self.stop()
                return None
            status, reply = answer
        except (EOFError, BrokenPipeError):
            self.stop()
            code = self.proc.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"status {code}"
            raise self.out_of_memory(f"its process ended with {how}") from None
        except BaseException:            # clock.Timeout from the alarm, Ctrl-C
            self.stop()
            raise
        if status == "error":
            self.stop()
            if reply.startswith("MemoryError"):
                raise self.out_of_memory("Python's MemoryError")
            raise RuntimeError(f"the {self.name} solver failed: {reply}")
        return reply

    def _answer(self, timeout):
        """The worker's (status, reply), or None at the deadline; its progress
        reports on the way are passed on."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            if not self.conn.poll(left):
                return None
            message = self.conn.recv()
            if message[0] != "progress":
                return message
            self.progress(message[1], **message[2])

    def out_of_memory(self, how: str) -> PzcError:
        """A native solver that cannot allocate aborts its process (CaDiCaL:
        std::bad_alloc, signal 6): the likeliest end of a worker that dies."""
        return PzcError(f"the {self.name} solver ran out of memory ({how}; pzc's budget "
                        f"is {budget_bytes() >> 20} MB, PZC_MEMORY_MB changes it)")

    def stop(self):
        killed = self.proc.is_alive()
        if killed:
            self.proc.kill()
        self.conn.close()
        left = clock.left()
        if killed and left is not None and left < REAP_MARGIN_S:
            # a big worker takes a while to die (its memory is freed first):
            # reaped before the next instance's clock starts, not now, with
            # the deadline a moment away (a blank 30x30 Slitherlink ended
            # 0.3-0.7 s past --timeout 5 while it was joined here)
            clock.leave_behind(self.proc)
        else:
            self.proc.join()
