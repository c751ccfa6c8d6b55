"""Deep recursion without crashes.

The interpreter, the checker and the parser's tree walk recurse as deep as a
spec nests, and a let function that walks a 1000-cell row calls itself 1000
times, each call several Python frames deep.  Python's default limit (1000
frames) is far too low for that, and raising it alone risks a segfault once
the C stack (8 MB by default) runs out.  So the limit is raised to
RECURSION_LIMIT together with the stack: on Linux's main thread, whose
stack grows on demand up to RLIMIT_STACK, by raising that soft limit to
MAIN_STACK_BYTES (the kernel leaves at least 128 MB free below the stack);
elsewhere by running the work on a thread of its own with STACK_BYTES of
stack.  Measured: let functions recursing until the frames run out, through
40 nested sums, quantifiers or comprehensions per call (where each level
costs C stack too), need between 8 and 16 MB.  Running on the main thread
where possible keeps signals (the time limit's SIGALRM, Ctrl-C) working as
they do without this module.

The language's own limits, which are located errors (exit 2), sit well
inside: MAX_CALL_DEPTH nested let-function calls (encoder/interpreter/evaluate.py) and
MAX_NESTING levels of one expression (encoder/syntax.py).  Should a spec
still exhaust the frames (a deep body in a deep recursion), the interpreter
reports it at the outermost call.

``deep_stack`` wraps the public API functions and the command line; nested
calls run in place.
"""

from __future__ import annotations

import contextvars
import functools
import sys
import threading

STACK_BYTES = 128 * 2 ** 20          # a thread's stack (address space until touched)
MAIN_STACK_BYTES = 64 * 2 ** 20      # the main thread's RLIMIT_STACK, raised to this
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
    if _main_stack_grows():
        return _run_in_place(fn, args, kwargs)
    outcome = {}
    context = contextvars.copy_context()     # the caller's time limit (runtime/clock.py) and the like

    def target():
        _state.deep = True
        try:
            outcome["value"] = context.run(fn, *args, **kwargs)
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


def _main_stack_grows() -> bool:
    """On Linux's main thread: raise RLIMIT_STACK's soft limit to
    MAIN_STACK_BYTES if it is lower and the hard limit allows; True when the
    stack may now grow that far."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread():
        return False
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft == resource.RLIM_INFINITY or soft >= MAIN_STACK_BYTES:
            return True
        if hard != resource.RLIM_INFINITY and hard < MAIN_STACK_BYTES:
            return False
        resource.setrlimit(resource.RLIMIT_STACK, (MAIN_STACK_BYTES, hard))
        return True
    except (ImportError, ValueError, OSError):
        return False


def _run_in_place(fn, args, kwargs):
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(max(saved, RECURSION_LIMIT))
    _state.deep = True
    try:
        return fn(*args, **kwargs)
    finally:
        _state.deep = False
        sys.setrecursionlimit(saved)
