"""Bounds on sizes and memory: a puzzle too big to fit is an error that names
its size and points at the statement, not an attempt that ends in a crash.

Two kinds of bound, chosen by measurement (docs/benchmarks.md, "Large domains
and sizes"):

  * sizes checked while grounding, before anything is built: at most
    MAX_DOMAIN_VALUES values in one variable's domain, and at most
    MAX_MODEL_VALUES values over all variables (a bool counts one).  Each value
    is a Boolean of the encoding, and costs about 0.9 kB on the SAT backend
    with its clauses and the solver's copy of them.  A list or set built by a
    comprehension holds at most MAX_COLLECTION_ITEMS elements;
  * the size of a power: ``a ^ b`` is at most 2 ^ MAX_POWER_BITS in size,
    far beyond what a puzzle counts (a binary number of 256 cells), so that
    one `^` cannot build a number of millions of digits;
  * a memory budget (``MemoryBudget``), checked while grounding (every
    65,536 formulas) and encoding: the process's resident memory, and what
    the solver will take for the clauses, must stay under ``budget_bytes()``
    (1.5 GB, less under a smaller ``ulimit -v``).
    A native solver that runs out of memory aborts the whole process, so the
    budget is checked before the clauses are handed over.

    $ pzc solve huge.pz b.txt
    huge.pz:3:9: error: the domain of 'x' has 100,000,000 values; pzc allows at most 1,000,000 ...
"""

from __future__ import annotations

import ctypes
import gc
import os
import resource

from .errors import PzcError

MAX_DOMAIN_VALUES = 1_000_000
MAX_MODEL_VALUES = 1_000_000
MAX_COLLECTION_ITEMS = 2_000_000  # elements of one list or set comprehension
MAX_POWER_BITS = 256              # a ^ b is at most 2 ^ 256 in size
BUDGET_MB = 1536                  # PZC_MEMORY_MB overrides it
AS_SHARE = 0.7                    # of a `ulimit -v`: native solvers reserve more than they touch
SOLVER_BYTES_PER_CLAUSE = 260     # CaDiCaL's copy of a short clause, with its watches (measured)
PYTHON_BYTES_PER_CLAUSE = 180     # a clause as a Python list of ints (measured)
Z3_BYTES_PER_CHAR = 30            # Z3's terms for a character of SMT-LIB text (measured)
CHECK_EVERY = 1 << 16             # clauses between two looks at the process's memory


def budget_bytes() -> int:
    """The memory pzc lets itself use."""
    try:
        budget = int(os.environ.get("PZC_MEMORY_MB", BUDGET_MB)) << 20
    except ValueError:
        raise PzcError(f"PZC_MEMORY_MB is a number of megabytes, "
                       f"not {os.environ['PZC_MEMORY_MB']!r}") from None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        budget = min(budget, int(soft * AS_SHARE))
    return budget


def address_space_limited() -> bool:
    """Is there a `ulimit -v`?  Then an allocation can fail, and a native
    solver aborts the process when one does."""
    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


def used_bytes() -> int:
    """This process's resident memory (its address space under `ulimit -v`)."""
    try:
        with open("/proc/self/statm") as f:
            size, resident = (int(x) for x in f.read().split()[:2])
    except OSError:                               # not Linux: the peak so far
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if os.uname().sysname == "Darwin" else peak * 1024
    page = os.sysconf("SC_PAGE_SIZE")
    if address_space_limited():                    # what that limit counts
        return size * page
    return resident * page


def reclaim_memory() -> None:
    """Collect cycles and give the C heap's free pages back to the system
    (glibc's malloc_trim, which trims every thread's arena; nothing on other
    systems).  The resident size the budget reads keeps freed memory
    otherwise: the instances run in threads, each with an arena of its own."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _mb(n: int) -> str:
    return f"{n / 2**20:,.0f} MB"


class MemoryBudget:
    """Looks at the process's memory as clauses are written; ``statement``
    (a rule of the spec whose Source is ``source``) is where errors point."""

    def __init__(self, source=None):
        self.budget = budget_bytes()
        self.source = source
        self.statement = None
        self.reclaimed = False

    def check(self, clauses: int, more: int = 0, final: bool = False) -> None:
        """Raise if the process, with ``more`` clauses still to write and the
        solver's copy of all of them, would not fit in the budget."""
        self.require(more * PYTHON_BYTES_PER_CLAUSE + (clauses + more) * SOLVER_BYTES_PER_CLAUSE,
                     f"{clauses + more:,} clauses" + ("" if final else " (so far)") +
                     " with the solver's copy")

    def require(self, extra: int, what: str) -> None:
        """Raise if the process's memory and ``extra`` bytes more (``what``
        says for what) break the budget.  Before it raises, the memory freed
        but still held (earlier instances' cycles, the heap's free pages) is
        given back and measured again, once per budget: a loop of instances
        in one process (the API, a benchmark) refused sound ones otherwise."""
        need = used_bytes() + extra
        if need > self.budget and not self.reclaimed:
            self.reclaimed = True
            reclaim_memory()
            need = used_bytes() + extra
        if need > self.budget:
            raise self.error(f"this puzzle is too big for pzc's memory budget of "
                             f"{_mb(self.budget)}: {what} need about "
                             f"{_mb(need)} (PZC_MEMORY_MB raises the budget)")

    def out_of_memory(self, solver: str) -> PzcError:
        """The error for a solver that stopped for want of memory."""
        return self.error(f"{solver} ran out of memory (pzc's budget is {_mb(self.budget)}; "
                          f"PZC_MEMORY_MB raises it)")

    def error(self, message: str) -> PzcError:
        pos = getattr(self.statement, "pos", None)
        if self.source is None or pos is None:
            return PzcError(message)
        return self.source.error(pos, message)
