"""The SMT backend: encoder/smt.py's SMT-LIB2 text solved by Z3."""

from __future__ import annotations

import time

import z3

from ..encoder.smt import to_smtlib
from . import Backend, Outcome, Session


class SmtSession(Session):
    def __init__(self, ground):
        start = time.perf_counter()
        text, self.names = to_smtlib(ground.model)
        self.solver = z3.Solver()
        self.solver.from_string(text)
        self.solve_s = 0.0
        self.stats = {"backend": "smt", "solver": "z3",
                      "variables": sum(1 if isinstance(n, str) else len(n)
                                       for n in self.names.values()),
                      "clauses": len(self.solver.assertions()),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}

    def next(self, timeout=None) -> Outcome:
        self.solver.set("timeout", 0 if timeout is None else max(1, int(timeout * 1000)))
        start = time.perf_counter()
        result = self.solver.check()
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if result == z3.unknown:
            return Outcome("timeout", None, dict(self.stats))
        if result == z3.unsat:
            return Outcome("unsat", None, dict(self.stats))
        m = self.solver.model()
        truth = {d.name(): z3.is_true(m[d]) for d in m.decls()}
        assignment = {}
        for var, n in self.names.items():
            if isinstance(n, str):
                assignment[var] = truth.get(n, False)
            else:
                chosen = [v for v, name in n.items() if name == "true" or truth.get(name, False)]
                assignment[var] = chosen[0] if len(chosen) == 1 else None
        return Outcome("sat", assignment, dict(self.stats))

    def block(self, values: dict) -> None:
        parts = []
        for var, value in values.items():
            n = self.names[var]
            name = n if isinstance(n, str) else n[value]
            if name in ("true", "false"):
                if (name == "true") == (value is not False):
                    continue
                return                     # the values cannot occur anyway
            b = z3.Bool(name)
            parts.append(b if value is False else z3.Not(b))
        self.solver.add(z3.Or(parts) if parts else z3.BoolVal(False))


class SmtBackend(Backend):
    name = "smt"

    def session(self, ground) -> SmtSession:
        return SmtSession(ground)
