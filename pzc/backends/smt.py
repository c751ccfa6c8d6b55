"""The SMT backend: encoder/smt.py's SMT-LIB2 text solved by Z3."""

from __future__ import annotations

import time

import z3

from ..encoder.smt import to_smtlib
from . import Backend, Outcome


class SmtBackend(Backend):
    name = "smt"

    def solve(self, ground, timeout=None) -> Outcome:
        start = time.perf_counter()
        text, names = to_smtlib(ground.model)
        solver = z3.Solver()
        if timeout is not None:
            solver.set("timeout", max(1, int(timeout * 1000)))
        solver.from_string(text)
        encode_s = time.perf_counter() - start
        start = time.perf_counter()
        result = solver.check()
        solve_s = time.perf_counter() - start
        stats = {"backend": "smt", "solver": "z3", "variables": sum(
                     1 if isinstance(n, str) else len(n) for n in names.values()),
                 "clauses": len(solver.assertions()), "encode_s": encode_s, "solve_s": solve_s}
        if result == z3.unknown:
            return Outcome("timeout", None, stats)
        if result == z3.unsat:
            return Outcome("unsat", None, stats)
        m = solver.model()
        truth = {d.name(): z3.is_true(m[d]) for d in m.decls()}
        assignment = {}
        for var, n in names.items():
            if isinstance(n, str):
                assignment[var] = truth.get(n, False)
            else:
                chosen = [v for v, name in n.items() if name == "true" or truth.get(name, False)]
                assignment[var] = chosen[0] if len(chosen) == 1 else None
        return Outcome("sat", assignment, stats)
