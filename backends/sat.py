"""The SAT backend: encoder/cnf.py's clauses solved by a PySAT solver.

Lazy connectivity cuts (encoder/connectivity.py) and blocking clauses are
added to the same incremental solver, so counting keeps what was learnt.
"""

from __future__ import annotations

import multiprocessing
import threading
import time

from pysat.solvers import Solver, SolverNames

from ..encoder import cnf as cnf_stage
from ..encoder import connectivity
from ..encoder.limits import address_space_limited, budget_bytes
from ..errors import PzcError
from . import Backend, Outcome, Session, blocking_clause


def solver_names() -> list:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def check_solver_name(name: str) -> str:
    names = solver_names()
    aliases = {alias: key for key in names for alias in getattr(SolverNames, key)}
    if name in aliases:
        return name
    raise PzcError(f"unknown SAT solver {name!r}; choose one of: {', '.join(names)}")


def incremental(name) -> bool:
    """Kissat in PySAT solves once; a second call aborts the process."""
    return not name.startswith("kissat")


_LIMIT_KIND = {}


def limit_kind(name) -> str:
    """How a time limit can stop this solver: interrupt, budget or none.

    MiniSat, Glucose and friends can be interrupted; CaDiCaL cannot in PySAT,
    but it takes conflict budgets, so it solves in slices with the clock
    checked in between; a solver with neither (Lingeling, and Kissat, which
    cannot be called twice) runs in a forked child killed at the deadline."""
    if name not in _LIMIT_KIND:
        with Solver(name=name, bootstrap_with=[[1]]) as s:
            try:
                s.interrupt()
                kind = "interrupt"
            except NotImplementedError:
                kind = "none"
                if incremental(name):
                    try:
                        s.conf_budget(1)
                        s.solve_limited()
                        kind = "budget"
                    except NotImplementedError:
                        pass
        _LIMIT_KIND[name] = kind
    return _LIMIT_KIND[name]


SLICE_S = 0.5    # with a conflict budget, look at the clock about this often


def _solve_budgeted(s, deadline, assumptions=()):
    budget = 2000
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        t = time.perf_counter()
        s.conf_budget(budget)
        ok = s.solve_limited(assumptions=assumptions)
        if ok is not None:
            return ok
        rate = budget / max(time.perf_counter() - t, 1e-4)
        budget = int(min(max(rate * min(remaining, SLICE_S), 500), 10 ** 8))


def _solve_interrupted(s, deadline, assumptions=()):
    remaining = deadline - time.perf_counter()
    if remaining <= 0:
        return None
    timer = threading.Timer(remaining, s.interrupt)
    timer.start()
    try:
        ok = s.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    s.clear_interrupt()
    return ok


def _truth(model, nvars):
    truth = bytearray(nvars + 1)
    for l in model:
        if 0 < l <= nvars:
            truth[l] = 1
    return truth


def read_assignment(cnf, model) -> dict:
    """Model Var -> value from a list of true literals."""
    truth = _truth(model, cnf.nvars)

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


class SatSession(Session):
    def __init__(self, name, connectivity_mode, ground):
        start = time.perf_counter()
        self.name = name
        self.cnf = cnf_stage.encode(ground.model, connectivity_mode)
        self.added = []                  # cuts and blocking clauses, in order
        self.solver = Solver(name=name, bootstrap_with=self.cnf.clauses)
        self.fresh = True                # a non-incremental solver not yet called
        self.rounds = self.cuts = 0
        self.lazy_at_start = list(self.cnf.lazy)
        self.made_eager = []             # lazy constraints given their eager encoding
        self.assumptions = []            # literals assumed for the next solve (plans)
        self.solve_s = 0.0
        self.stats = {"backend": "sat", "solver": name, "variables": self.cnf.nvars,
                      "clauses": len(self.cnf.clauses),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}
        if self.cnf.lazy:
            self.stats["connectivity"] = connectivity_mode

    def _add(self, clauses):
        """Cuts and blocking clauses: kept apart from the encoding's clauses."""
        self.added += clauses
        self._push(clauses)

    def _push(self, clauses):
        if incremental(self.name):
            for c in clauses:
                self.solver.add_clause(c)
        else:                            # start again with everything so far
            self.solver.delete()
            self.solver = Solver(name=self.name, bootstrap_with=self.cnf.clauses + self.added)
            self.fresh = True

    def _once(self, deadline):
        if not incremental(self.name) and not self.fresh:
            self._add([])                # rebuild before a second call
        self.fresh = False
        if deadline is None:
            return self.solver.solve(assumptions=self.assumptions)
        kind = limit_kind(self.name)
        if kind == "budget":
            return _solve_budgeted(self.solver, deadline, self.assumptions)
        return _solve_interrupted(self.solver, deadline, self.assumptions)

    def _loop(self, deadline):
        """Solve and cut until a model breaks no connectivity rule.
        Returns (status, model, clauses added)."""
        added_before = len(self.added)
        started = time.perf_counter() - self.solve_s     # earlier calls' solving counts too
        while True:
            ok = self._once(deadline)
            self.rounds += 1
            if ok is None:
                return "timeout", None, self.added[added_before:]
            if not ok:
                return "unsat", None, self.added[added_before:]
            model = self.solver.get_model()
            if not self.cnf.lazy:
                return "sat", model, self.added[added_before:]
            truth = _truth(model, self.cnf.nvars)
            extra = connectivity.cuts(self.cnf.lazy,
                                      lambda l: truth[l] == 1 if l > 0 else truth[-l] == 0)
            if not extra:
                return "sat", model, self.added[added_before:]
            self.cuts += len(extra)
            self._add(extra)
            self.progress("round", rounds=self.rounds, cuts=self.cuts)
            if time.perf_counter() - started >= connectivity.EAGER_AFTER_S:
                self._make_eager([x for x in self.cnf.lazy
                                  if x.broken >= connectivity.EAGER_AFTER])

    def _make_eager(self, items):
        if items:
            self._add_encoded(cnf_stage.make_eager(self.cnf, items))
            self.made_eager += items

    def next(self, timeout=None) -> Outcome:
        start = time.perf_counter()
        if (timeout is not None and (limit_kind(self.name) == "none" or not incremental(self.name))
                or address_space_limited()):
            # under `ulimit -v` a native solver that cannot allocate aborts the
            # process: in a child, its death is reported instead
            status, model = self._next_in_child(timeout)
        else:
            deadline = None if timeout is None else start + timeout
            status, model, _ = self._loop(deadline)
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if self.cnf.lazy or self.made_eager:
            self.stats.update(rounds=self.rounds, cuts=self.cuts, made_eager=len(self.made_eager))
        if status != "sat":
            return Outcome(status, None, dict(self.stats))
        return Outcome("sat", read_assignment(self.cnf, model), dict(self.stats))

    def _next_in_child(self, timeout):
        """Run the loop in a forked copy killed at the deadline; the cuts it
        found come back and are added here too."""
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)

        def child():
            try:
                status, model, added = self._loop(None)
                eager = [self.lazy_at_start.index(x) for x in self.made_eager]
                send.send((status, model, added, self.rounds, self.cuts, eager))
            except BaseException as e:      # report, never hang the parent
                send.send(("error", repr(e), [], 0, 0, []))
            finally:
                send.close()

        proc = ctx.Process(target=child, daemon=True)
        proc.start()
        send.close()
        try:
            if receive.poll(timeout):
                result = receive.recv()
            else:
                result = ("timeout", None, [], self.rounds, self.cuts, [])
        except EOFError:
            result = ("died", None, [], 0, 0, [])
        finally:
            if proc.is_alive():
                proc.kill()
            proc.join()
            receive.close()
        status, model, added, self.rounds, self.cuts, eager = result
        if status == "died" or (status == "error" and model.startswith("MemoryError")):
            how = (f"signal {-proc.exitcode}" if proc.exitcode and proc.exitcode < 0
                   else f"status {proc.exitcode}")
            raise PzcError(f"the SAT solver {self.name} ran out of memory (its process ended "
                           f"with {how}; pzc's budget is {budget_bytes() >> 20} MB)")
        if status == "error":
            raise RuntimeError(f"SAT solver {self.name} failed: {model}")
        if added:
            self._add(added)
        self._make_eager([x for x in map(self.lazy_at_start.__getitem__, eager)
                          if x in self.cnf.lazy])           # the child's switches, here too
        return status, model

    def block(self, values: dict) -> None:
        self._add([blocking_clause(self.cnf.var_lits, values)])

    def extend(self, variables, nodes) -> None:
        """Encode a plan's next step into the same solver."""
        start = time.perf_counter()
        self._add_encoded(cnf_stage.extend(self.cnf, variables, nodes))
        self.stats["encode_s"] += time.perf_counter() - start
        self.stats.update(variables=self.cnf.nvars, clauses=len(self.cnf.clauses))

    def assume(self, node) -> bool:
        """Solve the next calls with ``node`` assumed (None: nothing assumed);
        False when the node is false outright."""
        if node is None:
            self.assumptions = []
            return True
        lit, clauses = cnf_stage.literal(self.cnf, node)
        self._add_encoded(clauses)
        self.assumptions = [] if lit is True else [lit] if lit is not False else []
        return lit is not False

    def retract(self) -> None:
        """The assumed node is false for good: keep that as a clause."""
        self._add([[-l] for l in self.assumptions])
        self.assumptions = []

    def _add_encoded(self, clauses):
        # the encoder appended them to self.cnf.clauses: a rebuilt solver has them
        self._push(clauses)

    def close(self):
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


class SatBackend(Backend):
    name = "sat"

    def __init__(self, solver: str, connectivity: str = "lazy"):
        self.solver = check_solver_name(solver)
        self.connectivity = connectivity

    def session(self, ground) -> SatSession:
        return SatSession(self.solver, self.connectivity, ground)
