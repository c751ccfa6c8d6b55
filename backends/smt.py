"""The SMT backend: encoder/smt.py's SMT-LIB2 text solved by Z3."""

from __future__ import annotations

import time
from contextlib import contextmanager

import z3

from ..encoder.limits import MemoryBudget
from ..encoder.smt import more_smtlib, start_smtlib
from . import Backend, Outcome, Session


class SmtSession(Session):
    def __init__(self, ground):
        start = time.perf_counter()
        self.memory = MemoryBudget()
        text, self.writer = start_smtlib(ground.model)
        self.names = self.writer.names
        self.decls = {}                  # every Bool declared so far, for later text
        self._declare(ground.model.vars)
        self.solver = z3.Solver()
        with self._memory_errors():
            self.solver.from_string(text)
        self.goal = None                 # plans: the goal asserted inside push/pop
        self.solve_s = 0.0
        self.stats = {"backend": "smt", "solver": "z3", "variables": self._count(),
                      "clauses": len(self.solver.assertions()),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}

    def next(self, timeout=None) -> Outcome:
        self.solver.set("timeout", 0 if timeout is None else max(1, int(timeout * 1000)))
        start = time.perf_counter()
        with self._memory_errors(), self._memory_limit():
            if self.goal is None:
                result = self.solver.check()
            else:
                self.solver.push()
                self.solver.add(self.goal)
                result = self.solver.check()
                model = self.solver.model() if result == z3.sat else None
                self.solver.pop()
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if result == z3.unknown and "memory" in self.solver.reason_unknown():
            raise self.memory.out_of_memory("Z3")
        if result == z3.unknown:
            return Outcome("timeout", None, dict(self.stats))
        if result == z3.unsat:
            return Outcome("unsat", None, dict(self.stats))
        m = self.solver.model() if self.goal is None else model
        truth = {d.name(): z3.is_true(m[d]) for d in m.decls()}
        assignment = {}
        for var, n in self.names.items():
            if var in self.writer.ints:
                assignment[var] = m.eval(self.decls[n], model_completion=True).as_long()
            elif isinstance(n, str):
                assignment[var] = truth.get(n, False)
            else:
                chosen = [v for v, name in n.items() if name == "true" or truth.get(name, False)]
                assignment[var] = chosen[0] if len(chosen) == 1 else None
        return Outcome("sat", assignment, dict(self.stats))

    def block(self, values: dict) -> None:
        parts = []
        for var, value in values.items():
            n = self.names[var]
            if var in self.writer.ints:
                parts.append(self.decls[n] != value)
                continue
            name = n if isinstance(n, str) else n[value]
            if name in ("true", "false"):
                if (name == "true") == (value is not False):
                    continue
                return                     # the values cannot occur anyway
            b = z3.Bool(name)
            parts.append(b if value is False else z3.Not(b))
        self.solver.add(z3.Or(parts) if parts else z3.BoolVal(False))


    # plans (backends.deepen): more steps, and the goal under push/pop

    @contextmanager
    def _memory_limit(self):
        """While solving, Z3 stops at the budget (reason "out of memory")
        instead of taking the machine.  Not while parsing: there Z3 may exit
        the whole process (status 101), so the text is measured beforehand."""
        z3.set_param("memory_max_size", max(1, self.memory.budget >> 20))
        try:
            yield
        finally:
            z3.set_param("memory_max_size", 0)

    @contextmanager
    def _memory_errors(self):
        """Z3's out-of-memory exception as pzc's error (others are bugs)."""
        try:
            yield
        except z3.Z3Exception as e:
            if "memory" not in str(e):
                raise
            raise self.memory.out_of_memory("Z3") from None

    def _count(self) -> int:
        return sum(1 if isinstance(n, str) else len(n) for n in self.names.values())

    def _declare(self, variables):
        for var in variables:
            n = self.names[var]
            if var in self.writer.ints:
                self.decls[n] = z3.Int(n)
                continue
            for name in ([n] if isinstance(n, str) else n.values()):
                if name not in ("true", "false"):
                    self.decls[name] = z3.Bool(name)

    def _parse(self, variables, nodes):
        text = more_smtlib(self.writer, variables, nodes)   # declares the new ones
        with self._memory_errors():
            parsed = z3.parse_smt2_string(text, decls=self.decls)
        self._declare(variables)
        return parsed

    def extend(self, variables, nodes) -> None:
        start = time.perf_counter()
        self.solver.add(self._parse(variables, nodes))
        self.stats["encode_s"] += time.perf_counter() - start
        self.stats.update(variables=self._count(), clauses=len(self.solver.assertions()))

    def assume(self, node) -> bool:
        self.goal = None if node is None else z3.And(*self._parse([], [node]))
        return True

    def retract(self) -> None:
        if self.goal is not None:
            self.solver.add(z3.Not(self.goal))
        self.goal = None


class SmtBackend(Backend):
    name = "smt"

    def session(self, ground) -> SmtSession:
        return SmtSession(ground)
