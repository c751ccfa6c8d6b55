"""Deep recursion without crashes.

The interpreter, the checker and the parser's tree walk recurse as deep as a
spec nests, and a let function that walks a 1000-cell row calls itself 1000
times, each call several Python frames deep.  Python's default limit (1000
frames) is far too low for that, and raising it on the main thread risks a
segfault once the C stack (8 MB) runs out.  So the work runs in a thread of
its own with a large stack (STACK_BYTES) and a recursion limit that stack
holds with a wide margin (RECURSION_LIMIT): let functions recursing until the
frames run out, through 40 nested sums, quantifiers or comprehensions per
call (where each level costs C stack too), fit in 32 MB.  The stack is
address space only until touched, but it counts under `ulimit -v`, so it is
no larger than that margin needs.

The language's own limits, which are located errors (exit 2), sit well
inside: MAX_CALL_DEPTH nested let-function calls (encoder/evaluate.py) and
MAX_NESTING levels of one expression (encoder/syntax.py).  Should a spec
still exhaust the frames (a deep body in a deep recursion), the interpreter
reports it at the outermost call.

``deep_stack`` wraps the public API functions and the command line; nested
calls run in place.
"""

from __future__ import annotations

import functools
import sys
import threading

STACK_BYTES = 128 * 2 ** 20
RECURSION_LIMIT = 120_000

_lock = threading.Lock()
_state = threading.local()
_running = 0                  # deep threads under way (the limit is raised meanwhile)
_saved_limit = None


def run_deep(fn, *args, **kwargs):
    """fn(*args, **kwargs) on a thread with a large stack; its result, or its
    exception raised here."""
    if getattr(_state, "deep", False):
        return fn(*args, **kwargs)
    outcome = {}

    def target():
        _state.deep = True
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as e:   # handed to the caller, who decides
            outcome["error"] = e

    thread = threading.Thread(target=target, name="pzc-deep", daemon=True)
    global _running, _saved_limit
    with _lock:
        if _running == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _running += 1
        old_size = threading.stack_size()
        try:
            threading.stack_size(STACK_BYTES)
            thread.start()
        except (RuntimeError, ValueError, MemoryError):
            thread = None            # no room for the stack: run here, at the usual depth
            _running -= 1
            if _running == 0:
                sys.setrecursionlimit(_saved_limit)
        finally:
            threading.stack_size(old_size)
    if thread is None:
        return fn(*args, **kwargs)
    try:
        thread.join()
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and not thread.is_alive():
                sys.setrecursionlimit(_saved_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def deep_stack(fn):
    """Decorator: run ``fn`` through ``run_deep``."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return run_deep(fn, *args, **kwargs)
    return wrapper
