"""Solver backends, one file each, all behind one interface.

A backend takes a ground model and returns an ``Outcome``: the status and,
when solved, a value for every model variable.  ``get_backend(name)`` picks one.

  * ``sat``: CNF (encoder/cnf.py) solved by any PySAT solver (default cadical195)
  * ``smt``: SMT-LIB2 text (encoder/smt.py) solved by Z3
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import PzcError


@dataclass(eq=False)
class Outcome:
    status: str                      # sat, unsat, timeout
    assignment: dict | None = None   # model Var -> value
    stats: dict = field(default_factory=dict)


class Backend:
    """The interface: ``solve(ground, timeout) -> Outcome``."""

    name = "?"

    def solve(self, ground, timeout: float | None = None) -> Outcome:  # pragma: no cover
        raise NotImplementedError


def get_backend(name: str, solver: str | None = None, connectivity: str | None = None) -> Backend:
    """The backend ``name`` with its solver; connectivity is lazy or eager (SAT only:
    Z3 always gets the eager encoding)."""
    if connectivity not in (None, "lazy", "eager"):
        raise PzcError(f"connectivity is lazy or eager, not {connectivity!r}")
    if name == "sat":
        from .sat import SatBackend
        return SatBackend(solver or "cadical195", connectivity or "lazy")
    if name == "smt":
        from .smt import SmtBackend
        if solver not in (None, "z3"):
            raise PzcError(f"the smt backend runs z3, not {solver!r}")
        if connectivity == "lazy":
            raise PzcError("the smt backend encodes connectivity eagerly; "
                           "--connectivity lazy is for the sat backend")
        return SmtBackend()
    raise PzcError(f"unknown backend {name!r}: choose sat or smt")
