"""The SAT backend: encoder/cnf.py's clauses solved by a PySAT solver."""

from __future__ import annotations

import multiprocessing
import threading
import time

from pysat.solvers import Solver, SolverNames

from ..errors import PzcError
from ..encoder import cnf as cnf_stage
from ..encoder import connectivity
from . import Backend, Outcome


def solver_names() -> list:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def check_solver_name(name: str) -> str:
    names = solver_names()
    aliases = {alias: key for key in names for alias in getattr(SolverNames, key)}
    if name in aliases:
        return name
    raise PzcError(f"unknown SAT solver {name!r}; choose one of: {', '.join(names)}")


def run_solver(name, cnf, timeout, refine=None):
    """Solve, adding ``refine(holds)`` clauses (lazy cuts) until a model needs none.

    Returns (status, model list or None, seconds, rounds, cuts).  A time limit
    interrupts the solver where PySAT can (MiniSat, Glucose, ...); CaDiCaL and
    Kissat cannot be interrupted there, so they solve in slices of a conflict
    budget with the clock checked in between; a solver with neither (Lingeling)
    runs in a forked child process that is killed at the deadline."""
    start = time.perf_counter()
    if timeout is not None and (_limit_kind(name) == "none" or not incremental(name)):
        status, model, rounds, cut_count = _solve_in_child(name, cnf, timeout, refine)
    else:
        deadline = None if timeout is None else start + timeout
        status, model, rounds, cut_count = _solve_loop(name, cnf, deadline, refine)
    return status, model, time.perf_counter() - start, rounds, cut_count


def incremental(name) -> bool:
    """Kissat in PySAT solves once; a second call aborts the process."""
    return not name.startswith("kissat")


def _solve_loop(name, cnf, deadline, refine):
    rounds = cut_count = 0
    cuts = []
    s = Solver(name=name, bootstrap_with=cnf.clauses)
    try:
        while True:
            ok = _solve_once(s, name, deadline)
            rounds += 1
            if not ok:
                break
            model = s.get_model()
            if refine is None:
                break
            truth = _truth(model, cnf.nvars)
            extra = refine(lambda l: truth[l] == 1 if l > 0 else truth[-l] == 0)
            if not extra:
                break
            cut_count += len(extra)
            if incremental(name):
                for clause in extra:
                    s.add_clause(clause)
            else:                        # start again with the cuts so far
                cuts += extra
                s.delete()
                s = Solver(name=name, bootstrap_with=cnf.clauses + cuts)
    finally:
        s.delete()
    if ok is None:
        return "timeout", None, rounds, cut_count
    return ("sat", model, rounds, cut_count) if ok else ("unsat", None, rounds, cut_count)


_LIMIT_KIND = {}


def _limit_kind(name) -> str:
    """How a time limit can stop this solver: interrupt, budget or none."""
    if name not in _LIMIT_KIND:
        with Solver(name=name, bootstrap_with=[[1]]) as s:
            try:
                s.interrupt()
                kind = "interrupt"
            except NotImplementedError:
                kind = "none"
                if incremental(name):    # slices need several solve calls
                    try:
                        s.conf_budget(1)
                        s.solve_limited()
                        kind = "budget"
                    except NotImplementedError:
                        pass
        _LIMIT_KIND[name] = kind
    return _LIMIT_KIND[name]


SLICE_S = 0.5    # with a conflict budget, look at the clock about this often


def _solve_budgeted(s, deadline):
    """Solve in slices of conflicts, sized from the measured rate, until done
    or the deadline passes (None)."""
    budget = 2000
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        t = time.perf_counter()
        s.conf_budget(budget)
        ok = s.solve_limited()
        if ok is not None:
            return ok
        rate = budget / max(time.perf_counter() - t, 1e-4)
        budget = int(min(max(rate * min(remaining, SLICE_S), 500), 10 ** 8))


def _solve_in_child(name, cnf, timeout, refine):
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def child():
        try:
            send.send(_solve_loop(name, cnf, None, refine))
        except BaseException as e:          # report, never hang the parent
            send.send(("error", repr(e), 0, 0))
        finally:
            send.close()

    proc = ctx.Process(target=child, daemon=True)
    proc.start()
    send.close()
    try:
        if receive.poll(timeout):
            result = receive.recv()
        else:
            result = ("timeout", None, 0, 0)
    except EOFError:
        result = ("error", "the solver process died", 0, 0)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        receive.close()
    if result[0] == "error":
        raise RuntimeError(f"SAT solver {name} failed: {result[1]}")
    return result


def _solve_once(s, name, deadline):
    if deadline is None:
        return s.solve()
    if _limit_kind(name) == "budget":
        return _solve_budgeted(s, deadline)
    remaining = deadline - time.perf_counter()
    if remaining <= 0:
        return None
    timer = threading.Timer(remaining, s.interrupt)
    timer.start()
    try:
        ok = s.solve_limited(expect_interrupt=True)
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
    """Model Var -> value from a list of true/false literals."""
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


class SatBackend(Backend):
    name = "sat"

    def __init__(self, solver: str, connectivity: str = "lazy"):
        self.solver = check_solver_name(solver)
        self.connectivity = connectivity

    def solve(self, ground, timeout=None) -> Outcome:
        start = time.perf_counter()
        cnf = cnf_stage.encode(ground.model, self.connectivity)
        encode_s = time.perf_counter() - start
        refine = (lambda holds: connectivity.cuts(cnf.lazy, holds)) if cnf.lazy else None
        status, model, solve_s, rounds, cut_count = run_solver(
            self.solver, cnf, timeout, refine)
        stats = {"backend": "sat", "solver": self.solver, "variables": cnf.nvars,
                 "clauses": len(cnf.clauses), "encode_s": encode_s, "solve_s": solve_s}
        if cnf.lazy:
            stats.update(connectivity=self.connectivity, rounds=rounds, cuts=cut_count)
        if status != "sat":
            return Outcome(status, None, stats)
        return Outcome(status, read_assignment(cnf, model), stats)
