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
    progress = staticmethod(no_progress)    # progress.py's callback, set by `watched`

    def next(self, timeout: float | None = None) -> Outcome:  # pragma: no cover
        raise NotImplementedError

    def block(self, values: dict) -> None:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Backend:
    """The interface: ``session(ground) -> Session``; ``solve`` is one model."""

    name = "?"
    solver_name = "?"

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
    made, then solving) and its rounds to ``progress`` (progress.py)."""
    progress("encoding")
    with backend.session(ground) as session:
        session.progress = progress
        progress("solving")
        yield session


def get_backend(name: str, solver: str | None = None, connectivity: str | None = None,
                solver_cmd: str | None = None) -> Backend:
    """The backend ``name`` with its solver; connectivity is lazy or eager (SAT
    only: Z3 and external solvers always get the eager encoding)."""
    if connectivity not in (None, "lazy", "eager"):
        raise PzcError(f"connectivity is lazy or eager, not {connectivity!r}")
    if name == "portfolio":
        from .portfolio import PortfolioBackend, parse
        if connectivity is not None or solver_cmd is not None:
            raise PzcError("--portfolio names each member's connectivity and solver: "
                           "leave out --connectivity and --solver-cmd")
        return PortfolioBackend(parse(solver))
    if solver_cmd is not None and name != "external":
        raise PzcError("--solver-cmd is for --backend external")
    if name == "sat":
        from .sat import SatBackend
        return SatBackend(solver or "cadical195", connectivity or "lazy")
    if name == "asp":
        from .asp import AspBackend
        if connectivity is not None:
            raise PzcError("the asp backend states connectivity as reachability rules; "
                           "--connectivity is for the sat backend")
        return AspBackend(solver)
    if connectivity == "lazy":
        raise PzcError(f"the {name} backend encodes connectivity eagerly; "
                       "--connectivity lazy is for the sat backend")
    if name == "smt":
        from .smt import SmtBackend
        if solver not in (None, "z3"):
            raise PzcError(f"the smt backend runs z3, not {solver!r}")
        return SmtBackend()
    if name == "external":
        from .external import ExternalBackend
        if solver is not None:
            raise PzcError("the external backend runs --solver-cmd, not --solver")
        if not solver_cmd:
            raise PzcError('--backend external needs --solver-cmd "COMMAND" (a DIMACS solver)')
        return ExternalBackend(solver_cmd)
    raise PzcError(f"unknown backend {name!r}: choose sat, smt, asp or external")


def deepen(plan, session, max_steps: int) -> Outcome:
    """Look for a plan of 0, 1, 2, ... steps on one incremental session: each
    round adds a step and assumes the goal in the newest state, so the first
    plan found is a shortest one.  Outcome.stats["steps"] is its length; an
    unsat outcome means no plan of at most ``max_steps`` steps.  The time
    limit (clock.py) is checked at every step: a goal that is false outright
    never reaches the solver, whose own limit would not see the time pass."""
    for t in range(max_steps + 1):
        try:
            clock.check()
            session.progress("depth", steps=t)
            while plan.steps < t:
                grown = plan.extend()
                session.extend(grown.variables, grown.constraints)
            if session.assume(plan.goal(t)):
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
