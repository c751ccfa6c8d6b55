"""Explanations on the solvers: a minimal unsatisfiable set of members
(tasks/explain/members.py: clues and rule instances) by assumption cores.

Every member gets a selector literal.  A rule instance is enforced under a
guard literal g that its own selector and the selectors of the clues it
states switch on:

    (not sel_R or not sel_k1 or ... or not sel_kn or g),   g -> the instance

so that dropping a clue (its selector false) drops the rule instances that
state it.  Variable domains and the rest of the encoding are hard.  One
incremental solver answers every question: solve under the assumption that
the chosen selectors are true; when unsat, the solver's assumption core
(PySAT ``get_core``, Z3 ``unsat_core``) is a subset that is unsat already,
and explain.shrink deletes members one at a time down to a minimal set.

  * sat: encoder/cnf.py's Encoder, each instance asserted with ``guard=(g,)``.
    Lazy connectivity cuts carry the guard of their connected(...) instance
    (connectivity.LazyConnected), so a cut found under one set of
    assumptions holds under every other; the counts that bound a connected
    selection (distance layers) are not used, as a count's rule instance
    may be dropped while the connectivity stays.
  * smt: encoder/smt.py's writer, each instance asserted as
    ``(=> (and sel_R sel_k1 ...) instance)``, solved by Z3's
    ``check(*assumptions)``.

Under a time limit the whole search runs in a forked worker
(backends/worker.py) that is killed at the deadline.
"""

from __future__ import annotations

import time

from ...runtime import clock
from ...encoder import connectivity
from ...encoder.cnf import Encoder
from .members import RULE, shrink
from ...runtime.errors import PzcError
from ...backends.registry import DEFAULT_SAT_SOLVER
from ...backends.worker import Worker


class SatCores:
    """Selector-guarded CNF on one PySAT solver."""

    def __init__(self, found, solver_name: str, connectivity_mode: str = "lazy"):
        from pysat.solvers import Solver
        from ...encoder.cnf import truth_table
        from ...backends.sat import add_clauses, check_solver_name, incremental
        name = check_solver_name(solver_name)
        if not incremental(name):
            raise PzcError(f"explain asks one incremental solver many questions; {name} "
                           f"solves once: choose cadical195, glucose4 or minisat22")
        start = time.perf_counter()
        model = found.ground.model
        enc = Encoder(model, connectivity_mode)
        enc.limit_rules = []
        for var in model.vars:
            enc.declare(var)
        members = found.members
        self.selectors = sel = [enc.new() for _ in members]
        for i, m in enumerate(members):
            if m.kind != RULE:
                continue
            if m.states:
                g = enc.new()
                enc.clauses.append([-sel[i]] + [-sel[c] for c in m.states] + [g])
            else:
                g = sel[i]
            enc.memory.statement = m.rule
            enc.assert_(m.node, (g,))
        enc.check_memory(final=True)
        self.encoder = enc
        self.truth = truth_table
        self.solver = Solver(name=name)
        add_clauses(self.solver, enc.clauses)
        self.stats = {"backend": "sat", "solver": name, "variables": enc.nvars,
                      "clauses": len(enc.clauses), "encode_s": time.perf_counter() - start,
                      "solve_s": 0.0, "calls": 0}
        if enc.lazy:
            self.stats.update(connectivity=connectivity_mode, cuts=0)
        self._add = add_clauses

    def check(self, indices):
        """(True, None) when the members ``indices`` have a solution, else
        (False, the members of the solver's assumption core)."""
        assumptions = [self.selectors[i] for i in indices]
        start = time.perf_counter()
        rounds = 0
        try:
            while True:
                self.stats["calls"] += 1
                self._make_eager(connectivity.due_for_eager(self.encoder.lazy, rounds))
                rounds += 1
                if not self.solver.solve(assumptions=assumptions):
                    back = dict(zip(assumptions, indices))
                    return False, [back[l] for l in (self.solver.get_core() or []) if l in back]
                if not self.encoder.lazy:
                    return True, None
                truth = self.truth(self.solver.get_model(), self.encoder.nvars)
                extra = connectivity.cuts(self.encoder.lazy,
                                          lambda l: truth[l] == 1 if l > 0 else truth[-l] == 0)
                if not extra:
                    return True, None
                self.stats["cuts"] += len(extra)
                self._add(self.solver, extra)
                clock.check()
        finally:
            self.stats["solve_s"] += time.perf_counter() - start

    def _make_eager(self, items):
        """The connected(...) instances connectivity.due_for_eager picked
        (broken in EAGER_AFTER models, once a question has had
        EAGER_AFTER_ROUNDS rounds) get their rank encoding too (under the
        same guard), as in a plain solve."""
        enc = self.encoder
        if not items:
            return
        start = len(enc.clauses)
        for item in items:
            connectivity.encode_eager(enc, item.lits, item.adjacent, item.guard, item.roots)
        enc.lazy = [x for x in enc.lazy if x not in items]
        self._add(self.solver, enc.clauses[start:])
        self.stats["made_eager"] = self.stats.get("made_eager", 0) + len(items)

    def close(self):
        self.solver.delete()


class SmtCores:
    """Selector-guarded SMT-LIB text on one Z3 solver."""

    def __init__(self, found):
        import z3
        from ...encoder.smt import SmtWriter
        start = time.perf_counter()
        model = found.ground.model
        w = SmtWriter(model)
        for var in model.vars:
            w.declare(var)
        members = found.members
        names = [f"sel{i}" for i in range(len(members))]
        for n in names:
            w.lines.append(f"(declare-const {n} Bool)")
        for i, m in enumerate(members):
            if m.kind != RULE:
                continue
            on = " ".join([names[i]] + [names[c] for c in m.states])
            w.lines.append(f"(assert (=> (and {on}) {w.term(m.node)}))")
        text = "\n".join(w.lines)
        self.z3 = z3
        self.solver = z3.Solver()
        self.solver.from_string(text)
        self.selectors = [z3.Bool(n) for n in names]
        self.index = {n: i for i, n in enumerate(names)}
        self.stats = {"backend": "smt", "solver": "z3",
                      "variables": sum(1 if isinstance(n, str) else len(n)
                                       for n in w.names.values()) + len(names),
                      "clauses": text.count("(assert "), "encode_s": time.perf_counter() - start,
                      "solve_s": 0.0, "calls": 0}

    def check(self, indices):
        start = time.perf_counter()
        self.stats["calls"] += 1
        try:
            result = self.solver.check(*[self.selectors[i] for i in indices])
        finally:
            self.stats["solve_s"] += time.perf_counter() - start
        if result == self.z3.sat:
            return True, None
        if result != self.z3.unsat:
            raise PzcError(f"z3 gave up: {self.solver.reason_unknown()}")
        return False, [self.index[str(x)] for x in self.solver.unsat_core()]

    def close(self):
        self.solver = None


def search(found, backend: str = "sat", solver: str | None = None,
           connectivity_mode: str = "lazy") -> dict:
    """Solve with every member; when unsat, shrink the core to a minimal one.
    Returns {"status": "sat" | "unsat", "core": member indices, "stats"}."""
    oracle = (SmtCores(found) if backend == "smt"
              else SatCores(found, solver or DEFAULT_SAT_SOLVER, connectivity_mode))
    try:
        everything = list(range(len(found.members)))
        sat, core = oracle.check(everything)
        if sat:
            return {"status": "sat", "core": None, "stats": dict(oracle.stats)}
        first = len(core)
        core, _ = shrink(found.members, oracle.check, core)
        return {"status": "unsat", "core": core,
                "stats": dict(oracle.stats, first_core=first)}
    finally:
        oracle.close()


def search_within(found, backend, solver, connectivity_mode, timeout) -> dict:
    """``search``, in a worker killed at the deadline when there is one;
    clock.Timeout when it comes first."""
    if timeout is None:
        return search(found, backend, solver, connectivity_mode)

    def serve(_):
        try:
            return search(found, backend, solver, connectivity_mode)
        except PzcError as e:            # (an exception would come back as its repr)
            return {"status": "error", "error": (e.message, e.file, e.line, e.column,
                                                 e.source_line, e.exit_code)}

    worker = Worker(serve, "z3" if backend == "smt" else (solver or DEFAULT_SAT_SOLVER))
    reply = worker.call(None, timeout)   # the worker is stopped when the deadline comes
    if reply is None:
        raise clock.Timeout()
    worker.stop()
    if reply["status"] == "error":
        raise PzcError(*reply["error"][:5], exit_code=reply["error"][5])
    return reply
