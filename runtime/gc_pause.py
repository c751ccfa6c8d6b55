"""The cyclic garbage collector, paused while a stage runs.

Grounding, encoding and verification allocate hundreds of thousands of small
containers (model nodes, clauses, closures' environments) that all stay alive
until the stage ends.  Python starts a collection every few hundred
allocations and a full one whenever the heap grew by a quarter, walking those
live objects again and again: on Janko's Numberlink puzzles that took 40% of
the compile time.  A paused stage frees nothing less (reference counting
still runs); cycles left over are collected after it.
"""

from __future__ import annotations

import functools
import gc


def without_gc(stage):
    """Run ``stage`` with the collector paused (as it was, if already off)."""

    @functools.wraps(stage)
    def run(*args, **kwargs):
        if not gc.isenabled():
            return stage(*args, **kwargs)
        gc.disable()
        try:
            return stage(*args, **kwargs)
        finally:
            gc.enable()
    return run
