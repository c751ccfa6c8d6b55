"""The options every task takes, in one object:

    from pzc.api import Options, solve
    solve(spec, inst, Options(backend="smt", timeout=10))
    solve(spec, inst, backend="smt", timeout=10)          # the same, as keywords

Each task reads the fields it uses (count: ``limit``; a move puzzle's solve:
``max_steps``) and ignores none silently: a keyword that is not a field is a
TypeError.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Callable

from ..backends.choice import engine_for
from ..backends.registry import DEFAULT_BACKEND
from ..runtime.progress import no_progress

DEFAULT_MAX_STEPS = 200      # a plan search stops there unless told otherwise
PLAN_SEARCHES = ("auto", "states", "sat")     # plan_search: backends/states.py


@dataclass(frozen=True)
class Options:
    """How to run a task.

    ``backend``: sat, smt, asp, external (backends/registry.py) or portfolio;
    ``solver``: the backend's solver (sat: a PySAT name, default the spec's
    `solver` line, else cadical195; asp: clingo's configuration; portfolio:
    its members, as --portfolio takes them); ``timeout``: seconds for each
    instance (None: no limit); ``connectivity``: lazy or eager, how the sat
    backend encodes connected(...); ``solver_cmd``: the DIMACS solver command
    of the external backend; ``max_steps``: the longest plan a move puzzle's
    search tries; ``plan_search``: how a move puzzle is searched: auto (the
    state search, then SAT for what it leaves: backends/states.py), states
    or sat (that search alone); ``limit``: count stops after this many solutions;
    ``progress``: called as ``progress(event, **figures)`` (runtime/progress.py)."""
    backend: str = DEFAULT_BACKEND
    solver: str | None = None
    timeout: float | None = None
    connectivity: str | None = None
    solver_cmd: str | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    plan_search: str = "auto"
    limit: int | None = None
    progress: Callable = no_progress

    def __post_init__(self):
        if self.progress is None:
            object.__setattr__(self, "progress", no_progress)

    @classmethod
    def of(cls, options: "Options | None" = None, **given) -> "Options":
        """``options`` (default: all defaults) with the keywords ``given`` changed."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - known)
        if unknown:
            raise TypeError(f"unknown option{'s' if len(unknown) > 1 else ''}: "
                            f"{', '.join(unknown)} (options: {', '.join(sorted(known))})")
        base = options if options is not None else cls()
        return replace(base, **given) if given else base

    def engine(self, spec):
        """The Backend these options choose for this spec's instances."""
        return engine_for(spec, self.backend, self.solver, self.connectivity, self.solver_cmd)
