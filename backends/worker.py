"""A solver in a forked worker process, killed at the deadline.

A time limit holds only if the solver can be stopped whatever it is doing, and
in process it often cannot: PySAT cannot interrupt CaDiCaL and holds the
interpreter while it solves, Z3 spends half a minute parsing a big formula
without looking at its interrupt.  A killed process stops at once.  So under
a time limit a session forks a worker (a copy of itself), sends it requests
and waits for each answer at most until the deadline:

    worker = Worker(session.serve)         # serve(request) -> reply, run in the copy
    reply = worker.call(request, timeout)  # None: the deadline came first (worker killed)

The worker lives from call to call, so an incremental solver keeps what it
learnt (counting, plan deepening, connectivity rounds).
"""

from __future__ import annotations

import multiprocessing

from .. import clock
from ..encoder.limits import budget_bytes
from ..errors import PzcError


class Worker:
    def __init__(self, serve, name: str):
        self.name = name
        ctx = multiprocessing.get_context("fork")
        here, there = ctx.Pipe()

        def loop():
            here.close()
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
        self.proc.start()
        there.close()
        self.conn = here

    def call(self, request, timeout):
        """The worker's reply, or None when the deadline came first (the
        worker is then stopped)."""
        try:
            self.conn.send(request)
            if not self.conn.poll(timeout):
                self.stop()
                return None
            status, reply = self.conn.recv()
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

    def out_of_memory(self, how: str) -> PzcError:
        """A native solver that cannot allocate aborts its process (CaDiCaL:
        std::bad_alloc, signal 6): the likeliest end of a worker that dies."""
        return PzcError(f"the {self.name} solver ran out of memory ({how}; pzc's budget "
                        f"is {budget_bytes() >> 20} MB, PZC_MEMORY_MB changes it)")

    def stop(self):
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()
