"""The SMT backend: encoder/smt.py's SMT-LIB2 text solved by Z3."""

from __future__ import annotations

import threading
import time

import z3

from .. import clock
from ..encoder.smt import more_smtlib, start_smtlib
from . import Backend, Outcome, Session


class SmtSession(Session):
    def __init__(self, ground):
        start = time.perf_counter()
        text, self.writer = start_smtlib(ground.model)
        self.names = self.writer.names
        self.decls = {}                  # every Bool declared so far, for later text
        self._declare(ground.model.vars)
        self.solver = z3.Solver()
        self.solver.from_string(text)
        self.goal = None                 # plans: the goal asserted inside push/pop
        self.solve_s = 0.0
        self.stats = {"backend": "smt", "solver": "z3",
                      "variables": sum(1 if isinstance(n, str) else len(n)
                                       for n in self.names.values()),
                      "clauses": len(self.solver.assertions()),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}

    def next(self, timeout=None) -> Outcome:
        if timeout is not None and timeout <= 0:
            return Outcome("timeout", None, dict(self.stats))
        self.solver.set("timeout", 0 if timeout is None else max(1, int(timeout * 1000)))
        start = time.perf_counter()
        # Z3's own timeout is not looked at in every phase of a check: an
        # interrupt at the deadline stops the rest (the check answers unknown)
        alarm = None
        if timeout is not None:
            alarm = threading.Timer(timeout, self.solver.ctx.interrupt)
            alarm.daemon = True
            alarm.start()
        try:
            if self.goal is None:
                result = self.solver.check()
            else:
                self.solver.push()
                self.solver.add(self.goal)
                result = self.solver.check()
                model = self.solver.model() if result == z3.sat else None
                self.solver.pop()
        finally:
            if alarm is not None:
                alarm.cancel()
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if result == z3.unknown:
            return Outcome("timeout", None, dict(self.stats))
        if result == z3.unsat:
            return Outcome("unsat", None, dict(self.stats))
        m = self.solver.model() if self.goal is None else model
        truth = {d.name(): z3.is_true(m[d]) for d in m.decls()}
        assignment = {}
        for var, n in self.names.items():
            if isinstance(n, str):
                assignment[var] = truth.get(n, False)
            else:
                chosen = [v for v, name in n.items() if name == "true" or truth.get(name, False)]
                assignment[var] = chosen[0] if len(chosen) == 1 else None
        return Outcome("sat", assignment, dict(self.stats))

    def close(self):
        if clock.left() == 0:            # Z3 frees a big context slowly too
            clock.leave_behind(self.solver)
        self.solver = None

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


    # plans (backends.deepen): more steps, and the goal under push/pop

    def _declare(self, variables):
        for var in variables:
            n = self.names[var]
            for name in ([n] if isinstance(n, str) else n.values()):
                if name not in ("true", "false"):
                    self.decls[name] = z3.Bool(name)

    def _parse(self, variables, nodes):
        text = more_smtlib(self.writer, variables, nodes)   # declares the new ones
        parsed = z3.parse_smt2_string(text, decls=self.decls)
        self._declare(variables)
        return parsed

    def extend(self, variables, nodes) -> None:
        start = time.perf_counter()
        self.solver.add(self._parse(variables, nodes))
        self.stats["encode_s"] += time.perf_counter() - start
        self.stats.update(variables=sum(1 if isinstance(n, str) else len(n)
                                        for n in self.names.values()),
                          clauses=len(self.solver.assertions()))

    def assume(self, node) -> bool:
        self.goal = None if node is None else z3.And(*self._parse([], [node]))
        return True

    def retract(self) -> None:
        if self.goal is not None:
            self.solver.add(z3.Not(self.goal))
        self.goal = None


class SmtBackend(Backend):
    name = "smt"
    solver_name = "z3"

    def session(self, ground) -> SmtSession:
        return SmtSession(ground)
