"""PySAT's native calls leave Ctrl-C to Python.

On the main thread, PySAT's solvers and cardinality encoders catch SIGINT
themselves: their handler jumps (longjmp) out of the C++ code, wherever it
is.  A jump out of malloc leaves the heap corrupt, and glibc then aborts the
process ("corrupted size vs. prev_size", signal 6): pzc died that way in 1
of about 40 Ctrl-Cs of a blank 70x70 Slitherlink, before saying anything.
PySAT does not install that handler on other threads; importing this module
makes it skip it everywhere.  SIGINT is then Python's own: a flag, and
KeyboardInterrupt as soon as the native call returns.  So no native call is
left to run long in process: backends/sat.py solves in slices of a few
thousand conflicts there, and goes on in a worker process, which Ctrl-C
stops at once.
"""

from __future__ import annotations

from pysat import _utils

_utils.MainThread.check = staticmethod(lambda: False)
