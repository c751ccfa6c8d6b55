"""Which backend and solver run: the spec's `solver` and `portfolio` lines,
checked where they are written, and --solver / --portfolio against them.

    solver glucose4                       # the spec's SAT solver (--solver wins)
    portfolio glucose4:lazy, asp          # the spec's --portfolio members
"""

from __future__ import annotations

from ..runtime.errors import PzcError


def check_spec_lines(spec) -> None:
    """The spec's `solver` line names a PySAT solver and its `portfolio` line
    valid members; errors point at the line (the spec loader calls this after
    encoder/check.py)."""
    if spec.solver is not None:
        from .sat import solver_aliases, solver_names
        if spec.solver.name not in solver_aliases():
            raise spec.source.error(spec.solver.pos, f"unknown SAT solver '{spec.solver.name}'; "
                                                     f"choose one of: {', '.join(solver_names())}")
    if spec.portfolio is not None:
        from .portfolio import parse
        try:
            parse(spec.portfolio.members, spec.solver.name if spec.solver is not None else None)
        except PzcError as e:
            raise spec.source.error(spec.portfolio.pos, e.message.replace(
                "--portfolio", "portfolio", 1)) from None


def solver_for(spec, backend: str, solver: str | None) -> str | None:
    """--solver if given, else the spec's `solver` line on the SAT backend;
    the portfolio's members written out (the spec's solver where a sat member
    names none; the spec's `portfolio` line for a bare --portfolio)."""
    if backend == "portfolio":
        from .portfolio import DEFAULT, normalize
        if (solver is None or solver.strip() == DEFAULT) and spec.portfolio is not None:
            solver = spec.portfolio.members
        return normalize(solver, spec.solver.name if spec.solver is not None else None)
    if solver is None and backend == "sat" and spec.solver is not None:
        return spec.solver.name
    return solver


def engine_for(spec, backend: str = "sat", solver: str | None = None,
               connectivity: str | None = None, solver_cmd: str | None = None):
    """The Backend that runs this spec's instances with these options."""
    from . import get_backend
    return get_backend(backend, solver_for(spec, backend, solver), connectivity, solver_cmd)
