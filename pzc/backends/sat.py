"""The SAT backend: encoder/cnf.py's clauses solved by a PySAT solver."""

from __future__ import annotations

import threading
import time

from pysat.solvers import Solver, SolverNames

from ..errors import PzcError
from ..encoder import cnf as cnf_stage
from . import Backend, Outcome


def solver_names() -> list:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def check_solver_name(name: str) -> str:
    names = solver_names()
    aliases = {alias: key for key in names for alias in getattr(SolverNames, key)}
    if name in aliases:
        return name
    raise PzcError(f"unknown SAT solver {name!r}; choose one of: {', '.join(names)}")


def run_solver(name, clauses, timeout):
    """Solve clauses; return (status, model list or None, seconds)."""
    start = time.perf_counter()
    with Solver(name=name, bootstrap_with=clauses) as s:
        if timeout is None:
            ok = s.solve()
        else:
            timer = threading.Timer(timeout, s.interrupt)
            timer.start()
            try:
                ok = s.solve_limited(expect_interrupt=True)
            except NotImplementedError:
                raise PzcError(f"the SAT solver {name} cannot be interrupted, so --timeout "
                               f"does not work with it; choose another --solver") from None
            finally:
                timer.cancel()
        model = s.get_model() if ok else None
    status = "timeout" if ok is None else ("sat" if ok else "unsat")
    return status, model, time.perf_counter() - start


def read_assignment(cnf, model) -> dict:
    """Model Var -> value from a list of true/false literals."""
    truth = bytearray(cnf.nvars + 1)
    for l in model:
        if 0 < l <= cnf.nvars:
            truth[l] = 1
    def holds(l):
        return truth[l] == 1 if l > 0 else truth[-l] == 0
    out = {}
    for var, lits in cnf.var_lits.items():
        if type(lits) is int:
            out[var] = holds(lits)
        else:
            chosen = [v for v, l in lits.items() if holds(l)]
            out[var] = chosen[0] if len(chosen) == 1 else None
    return out


class SatBackend(Backend):
    name = "sat"

    def __init__(self, solver: str):
        self.solver = check_solver_name(solver)

    def solve(self, ground, timeout=None) -> Outcome:
        start = time.perf_counter()
        cnf = cnf_stage.encode(ground.model)
        encode_s = time.perf_counter() - start
        status, model, solve_s = run_solver(self.solver, cnf.clauses, timeout)
        stats = {"backend": "sat", "solver": self.solver, "variables": cnf.nvars,
                 "clauses": len(cnf.clauses), "encode_s": encode_s, "solve_s": solve_s}
        if status != "sat":
            return Outcome(status, None, stats)
        return Outcome(status, read_assignment(cnf, model), stats)
