"""Solver backends, one file each, all behind one interface.

A backend opens a *session* on a ground model.  ``session.next(timeout)``
returns an ``Outcome`` (status and, when solved, a value for every model
variable); ``session.block(values)`` rules out every later model that gives
those model variables those values.  ``solve`` is one ``next``; counting and
uniqueness (encoder/enumerate.py) call ``next`` and ``block`` in turn on the
same incremental solver.

  * ``sat``: CNF (encoder/cnf.py) solved by any PySAT solver (default cadical195)
  * ``smt``: SMT-LIB2 text (encoder/smt.py) solved by Z3
  * ``asp``: the same CNF solved by clingo, connectivity as reachability rules
    (backends/asp.py)
  * ``external``: DIMACS written to a file and solved by any solver binary
  * ``portfolio``: several of these at once, one process each, the first
    answer wins (backends/portfolio.py; ``solver`` is its list of members)
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..runtime import clock
from ..runtime.errors import PzcError
from ..runtime.progress import no_progress


@dataclass(eq=False)
class Outcome:
    status: str                      # sat, unsat, timeout; unknown: a session's call_budget ran out
    assignment: dict | None = None   # model Var -> value
    stats: dict = field(default_factory=dict)


class Session:
    """Incremental solving of one ground model."""

    stats: dict
    progress = staticmethod(no_progress)    # runtime/progress.py's callback, set by `watched`

    def next(self, timeout: float | None = None) -> Outcome:  # pragma: no cover
        raise NotImplementedError

    def block(self, values: dict) -> None:  # pragma: no cover
        raise NotImplementedError

    def prefer_other(self, values: dict) -> None:
        """A hint for the next calls: try other values than these (model Var
        -> value) first.  Backends that take no such hint ignore it."""

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Backend:
    """The interface: ``session(ground) -> Session``; ``solve`` is one model.

    ``build(solver, connectivity, solver_cmd)`` makes one from the command
    line's options, refusing those it does not take; ``solvers()`` names the
    solvers a portfolio member of this backend may name (None: it cannot be a
    member), ``default_solver`` the one it runs when none is named."""

    name = "?"
    solver_name = "?"
    default_solver: str | None = None

    @classmethod
    def build(cls, solver: str | None, connectivity: str | None,
              solver_cmd: str | None) -> "Backend":  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def solvers(cls) -> dict | None:
        """Every solver name this backend takes (aliases too) -> its own name."""
        return None

    @staticmethod
    def eager_only(name: str, connectivity: str | None) -> None:
        """For backends that always encode connectivity eagerly."""
        if connectivity == "lazy":
            raise PzcError(f"the {name} backend encodes connectivity eagerly; "
                           "--connectivity lazy is for the sat backend")

    def session(self, ground) -> Session:  # pragma: no cover
        raise NotImplementedError

    def describe(self) -> dict:
        """The stats a result shows even when it never reached a solver."""
        return {"backend": self.name, "solver": self.solver_name}

    def solve(self, ground, timeout: float | None = None, progress=no_progress) -> Outcome:
        start = time.perf_counter()
        with watched(self, ground, progress) as s:
            # the limit counts from here: making the session (encoding) used some
            remaining = None if timeout is None else max(0.0, timeout - (time.perf_counter() - start))
            try:
                outcome = s.next(remaining)
            except clock.Timeout:            # between the solver's own checks
                outcome = Outcome("timeout")
            outcome.stats = dict(s.stats)
            return outcome


@contextmanager
def watched(backend: Backend, ground, progress=no_progress):
    """A session on ``ground`` that reports its phases (encoding while it is
    made, then solving) and its rounds to ``progress`` (runtime/progress.py)."""
    progress("encoding")
    with backend.session(ground) as session:
        session.progress = progress
        progress("solving")
        yield session


def get_backend(name: str, solver: str | None = None, connectivity: str | None = None,
                solver_cmd: str | None = None) -> Backend:
    """The backend ``name`` (registry.py) with its solver; connectivity is lazy
    or eager (SAT only: the others encode connectivity their own way).  Each
    backend's ``build`` checks the options it takes."""
    from .registry import BACKENDS, CONNECTIVITY, backend_class
    if connectivity not in (None, *CONNECTIVITY):
        raise PzcError(f"connectivity is {' or '.join(CONNECTIVITY)}, not {connectivity!r}")
    if solver_cmd is not None and name not in ("external", "portfolio"):
        raise PzcError("--solver-cmd is for --backend external")
    cls = backend_class(name)
    if cls is None:
        raise PzcError(f"unknown backend {name!r}: choose {', '.join(list(BACKENDS)[:-1])} "
                       f"or {list(BACKENDS)[-1]}")
    return cls.build(solver, connectivity, solver_cmd)


def deepen(plan, session, max_steps: int, proved: int = 0) -> Outcome:
    """Look for a plan of 0, 1, 2, ... steps on one incremental session: each
    round adds a step and assumes the goal in the newest state, so the first
    plan found is a shortest one.  Outcome.stats["steps"] is its length; an
    unsat outcome means no plan of at most ``max_steps`` steps.  The time
    limit (runtime/clock.py) is checked at every step: a goal that is false outright
    never reaches the solver, whose own limit would not see the time pass.

    ``proved``: no plan has fewer steps (an explicit-state search showed it,
    backends/states.py); those horizons are not solved, their goals are
    added as false."""
    for t in range(max_steps + 1):
        try:
            clock.check()
            session.progress("depth", steps=t)
            while plan.steps < t:
                grown = plan.extend()
                session.extend(grown.variables, grown.constraints)
            if session.assume(plan.goal(t)) and t >= proved:
                outcome = session.next(clock.left())
                if outcome.status != "unsat":
                    outcome.stats["steps"] = t
                    return outcome
            session.retract()
        except clock.Timeout:
            return Outcome("timeout", None, dict(session.stats, steps=t))
    return Outcome("unsat", None, dict(session.stats, steps=max_steps))


def blocking_clause(var_lits, values) -> list:
    """The clause ruling out ``values`` (model Var -> value) over CNF literals."""
    clause = []
    for var, value in values.items():
        lits = var_lits[var]
        lit = lits if type(lits) is int else lits[value]
        clause.append(-lit if value is not False else lit)
    return clause
