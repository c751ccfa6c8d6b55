"""The NAME backend: TEMPLATE, copy me to backends/NAME.py (docs/backends.md).

A backend solves a ground model (encoder/ground.py: ``ground.model`` holds the
variables and constraints).  Most backends start from an encoding the
compiler already makes:

  * CNF: ``encoder.cnf.encode(ground.model, "eager")`` gives ``cnf.clauses``
    and ``cnf.var_lits`` (model variable -> literal(s)); turn a model (the
    true literals) back into values with ``encoder.cnf.read_assignment``;
  * SMT-LIB2 text: ``encoder.smt.start_smtlib(ground.model)``.

Then register it with one line in backends/registry.py:

    "NAME": ("NAME", "NameBackend", "what it is, for --help"),

and `pzc solve SPEC INSTANCE --backend NAME` uses it: answers are decoded and
verified by the task layer, counting and uniqueness call ``next`` and
``block`` in turn, and ``--portfolio NAME`` races it against the others when
``solvers()`` names its solvers.  Time limits: ``clock.left()`` is the time
left; a solver that runs in C where no Python check reaches is stopped by
``clock.interrupting(stop)`` if it can be told to stop from another thread,
else it runs in a forked worker (backends/worker.py) killed at the deadline.
"""

from __future__ import annotations

import time

from ..encoder import cnf as cnf_stage
from ..runtime.errors import PzcError
from . import Backend, Outcome, Session, blocking_clause


class TemplateSession(Session):
    """Incremental solving of one ground model."""

    def __init__(self, ground):
        start = time.perf_counter()
        self.cnf = cnf_stage.encode(ground.model, "eager")
        self.clauses = list(self.cnf.clauses)
        # the figures --stats prints (tasks/results.py: Result.stats)
        self.stats = {"backend": "NAME", "solver": "NAME", "variables": self.cnf.nvars,
                      "clauses": len(self.clauses), "encode_s": time.perf_counter() - start,
                      "solve_s": 0.0}

    def next(self, timeout: float | None = None) -> Outcome:
        """Solve: Outcome("sat", model variable -> value), Outcome("unsat"), or
        Outcome("timeout") when ``timeout`` seconds (None: no limit) ran out."""
        raise PzcError("the NAME backend is a template: fill in its next()")

    def block(self, values: dict) -> None:
        """Rule out every later model giving these model variables these values."""
        self.clauses.append(blocking_clause(self.cnf.var_lits, values))


class TemplateBackend(Backend):
    name = "NAME"
    default_solver = None

    @classmethod
    def build(cls, solver, connectivity, solver_cmd):
        """The backend for these command-line options; refuse those it does not take."""
        cls.eager_only(cls.name, connectivity)
        if solver is not None or solver_cmd is not None:
            raise PzcError("the NAME backend takes no --solver and no --solver-cmd")
        return cls()

    @classmethod
    def solvers(cls):
        """{solver name or alias: its own name} for --portfolio members; None: not a member."""
        return None

    def session(self, ground) -> TemplateSession:
        return TemplateSession(ground)
