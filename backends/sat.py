"""The SAT backend: encoder/cnf.py's clauses solved by a PySAT solver.

Lazy connectivity cuts (encoder/connectivity.py) and blocking clauses are
added to the same incremental solver, so counting keeps what was learnt.

A solve starts in process, where most puzzles are solved in milliseconds,
a fork costing more than that (Janko's 270 Numberlinks: 5.2 s in process,
7.9 s with a worker each).  But Ctrl-C waits for a native call to return
(runtime/pysat_calls.py), so in process a call gets a budget of
SLICE_CONFLICTS conflicts; the first solve that needs more goes on in a
worker (backends/worker.py), forked with the solver as it stands (nothing
lost), which Ctrl-C stops at once.  The calls are the same wherever they
run (_rounds: calls of SLICE_CONFLICTS, then unbounded ones), so the same
instance gives the same answer on any machine, with a time limit or without
(generate's seeds).  A budget of conflicts bounds a call's time only
loosely: on a blank 70x70 Slitherlink, after 80 quick rounds, a call of at
most 10,000 conflicts took 25 s, of 1,000 (this budget) 2.8 s.

Under a time limit a call in process must end at the deadline too.  Glucose
and the MiniSat family let go of the interpreter while they search
(solve_limited with expect_interrupt) and are told to stop by the clock's
timer (runtime/clock.interrupting).  CaDiCaL cannot be interrupted and holds
the interpreter (its conflict budgets alone ended a 10 s limit after 11-34
s; a call of 100 conflicts can spend 0.2 s simplifying), so it is called in
process only on formulas of at most LIMITED_IN_PROCESS_CLAUSES clauses,
where a call of SLICE_CONFLICTS took at most 0.53 s on a loaded machine,
and only while more than GUARD_S seconds are left; the rest goes to the
worker, killed at the deadline (docs/benchmarks.md, "Issue 28: time
limits").  The worker also keeps an address-space limit (`ulimit -v`) from
aborting pzc: a native solver that cannot allocate aborts its process.
"""

from __future__ import annotations

import pickle
import time
from functools import partial

import pysolvers
from pysat.solvers import Solver, SolverNames

from ..runtime import clock
from ..encoder import cnf as cnf_stage
from ..encoder.cnf import read_assignment, truth_table
from ..encoder import connectivity
from ..runtime import pysat_calls  # noqa: F401  (Ctrl-C stays Python's)
from ..runtime.limits import address_space_limited
from ..runtime.errors import PzcError
from . import Backend, Outcome, Session, blocking_clause
from .registry import DEFAULT_SAT_SOLVER
from .worker import Worker, inside as inside_a_worker


SLICE_CONFLICTS = 1_000       # an in-process solver call's budget (Ctrl-C waits for it)
IN_PROCESS_CLAUSES = 2_000_000  # a bigger formula is solved in a worker from the start
# under a time limit, an uninterruptible solver (CaDiCaL) is called in
# process only on formulas of at most this many clauses, and only with more
# than GUARD_S seconds left (see the module's docstring)
LIMITED_IN_PROCESS_CLAUSES = 200_000
GUARD_S = 2.0
UNBUDGETED = {"lingeling"}    # takes no conflict budget
LOAD_CHUNK = 2048      # clauses a C call loop gives the solver between two bytecodes


def add_clauses(solver, clauses) -> None:
    """Give ``clauses`` to a PySAT Solver.  Its add_clause is a Python call
    around the C one for each clause (millions on a large board); where it
    has the plain form `res = pysolvers.X_add_cl(handle, clause)` (and
    `if res == False: status = False`), the C function is mapped over the
    clauses instead, to the same effect.  In slices of LOAD_CHUNK: the
    command runs in a thread of its own, and a single C loop over millions of
    clauses would hold the interpreter's lock for seconds, so that Ctrl-C
    (handled in the main thread) and the time limit's asynchronous Timeout
    waited for it (the first try, commit fcc2c07, mapped over them all at
    once: Ctrl-C then aborted pzc)."""
    fast = _c_adder(solver)
    if fast is None:
        add = solver.add_clause
        for c in clauses:
            add(c)
        return
    add, inner, has_status = fast
    ok = True
    for i in range(0, len(clauses), LOAD_CHUNK):
        if not min(map(add, clauses[i:i + LOAD_CHUNK]), default=True):
            ok = False
    if not ok and has_status:
        inner.status = False


def _c_adder(solver):
    """(the C add function bound to its solver, the inner PySAT object,
    whether its add_clause records a status) or None where add_clause does
    anything else."""
    inner = getattr(solver, "solver", None)
    code = getattr(getattr(inner, "add_clause", None), "__code__", None)
    if code is None:
        return None
    names = code.co_names
    if (len(names) not in (3, 4) or names[1] != "pysolvers" or not names[2].endswith("_add_cl")
            or (len(names) == 4 and names[3] != "status")):
        return None
    handle = getattr(inner, names[0], None)
    fn = getattr(pysolvers, names[2], None)
    if not handle or fn is None:
        return None
    return partial(fn, handle), inner, len(names) == 4


def solver_names() -> list:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def solver_aliases() -> dict:
    """Every name PySAT takes for a solver (its aliases too) -> the solver's own name."""
    names = solver_names()
    return {alias: key for key in names for alias in (key, *getattr(SolverNames, key))}


def check_solver_name(name: str) -> str:
    names = solver_names()
    aliases = {alias: key for key in names for alias in getattr(SolverNames, key)}
    if name in aliases:
        return name
    raise PzcError(f"unknown SAT solver {name!r}; choose one of: {', '.join(names)}")


def incremental(name) -> bool:
    """Kissat in PySAT solves once; a second call aborts the process."""
    return not name.startswith("kissat")


_INTERRUPTIBLE = {}


def interruptible(name) -> bool:
    """Whether PySAT can stop this solver from another thread while it
    searches (Glucose, MiniSat and their kin; not CaDiCaL, Kissat, Lingeling)."""
    if name not in _INTERRUPTIBLE:
        probe = Solver(name=name)
        try:
            probe.clear_interrupt()
            _INTERRUPTIBLE[name] = True
        except NotImplementedError:
            _INTERRUPTIBLE[name] = False
        finally:
            probe.delete()
    return _INTERRUPTIBLE[name]


class SatSession(Session):
    def __init__(self, name, connectivity_mode, ground):
        start = time.perf_counter()
        self.name = name
        self.cnf = cnf_stage.encode(ground.model, connectivity_mode)
        self.added = []                  # cuts and blocking clauses, in order
        self.packed = 0                  # batches in added still pickled (from a worker)
        # the solver is built on first use: under a time limit that is in the
        # worker, killed at the deadline (loading millions of clauses is one
        # long C call that no alarm interrupts)
        self._solver = None
        self.fresh = True                # a non-incremental solver not yet called
        self.rounds = self.cuts = 0
        self.lazy_at_start = list(self.cnf.lazy)
        self.made_eager = []             # lazy constraints given their eager encoding
        self.assumptions = []            # literals assumed for the next solve (plans)
        self.phases = []                 # literals the solver tries first (generate's draws)
        self.phases_new = None           # phases set since the worker was last called
        self.call_budget = None          # conflicts a solver call may take (generate's draws)
        self.sliced = True               # this solve's calls are still of SLICE_CONFLICTS (_rounds)
        self.refused = False             # a call could not run in this process (_once)
        self.solve_s = 0.0
        self.worker = None               # (process, connection): the solving copy, if any
        self.pending = []                # clauses the worker has not been sent yet
        self.stale = False               # this copy's solver lacks what the worker has
        self.stats = {"backend": "sat", "solver": name, "variables": self.cnf.nvars,
                      "clauses": len(self.cnf.clauses),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}
        if self.cnf.lazy:
            self.stats["connectivity"] = connectivity_mode

    @property
    def solver(self):
        if self._solver is None:
            self._solver = Solver(name=self.name)
            add_clauses(self._solver, self.cnf.clauses)
            add_clauses(self._solver, self._added_clauses())
            if self.phases:              # after the clauses: CaDiCaL ignores phases of unknown variables
                self._solver.set_phases(self.phases)
            self.fresh = True
        return self._solver

    def _drop_solver(self):
        """Delete this copy's solver; the next use builds it from everything so far."""
        if self._solver is not None:
            with clock.held():           # Ctrl-C halfway through: deleted twice
                self._solver.delete()
                self._solver = None

    def _add(self, clauses):
        """Cuts and blocking clauses: kept apart from the encoding's clauses."""
        self.added += clauses
        self._push(clauses)

    def _push(self, clauses):
        if self.worker is not None:      # the worker solves; it gets them with its next call
            self.pending += clauses
            self.stale = True
            return
        if self._solver is None:         # built later, from cnf.clauses and added
            return
        if incremental(self.name):
            add_clauses(self._solver, clauses)
        else:                            # start again with everything so far
            self._drop_solver()

    def _once(self, budget=None):
        """True, False, or None when ``budget`` conflicts did not decide, or
        when this call may not run in this process (``refused``: see
        _may_solve_here)."""
        if not inside_a_worker() and not self._may_solve_here():
            self.refused = True
            return None
        if not incremental(self.name) and not self.fresh:
            self._drop_solver()          # rebuild before a second call
        solver = self.solver
        self.fresh = False
        if budget is None:
            return solver.solve(assumptions=self.assumptions)
        solver.conf_budget(budget)       # for this call only
        if clock.deadline() is not None and interruptible(self.name):
            with clock.interrupting(solver.interrupt):
                return solver.solve_limited(assumptions=self.assumptions, expect_interrupt=True)
        return solver.solve_limited(assumptions=self.assumptions)

    def _may_solve_here(self) -> bool:
        """Whether the next solver call may run in this process: not too big
        a formula, and under a time limit one that the deadline stops (see
        the module's docstring)."""
        size = len(self.cnf.clauses) + len(self.added)
        if size > IN_PROCESS_CLAUSES or address_space_limited():
            return False
        if clock.deadline() is None or interruptible(self.name):
            return True
        left = clock.left()
        return size <= LIMITED_IN_PROCESS_CLAUSES and left > GUARD_S

    def _added_clauses(self) -> list:
        """``added``, with the batches a worker sent back still pickled
        (bytes) unpickled in place."""
        if self.packed:
            self.packed = 0
            flat = []
            for x in self.added:
                if type(x) is bytes:
                    flat += pickle.loads(x)
                else:
                    flat.append(x)
            self.added = flat
        return self.added

    def _loop(self, budget=None):
        """Solve and cut until a model breaks no connectivity rule.
        Returns (status, model, clauses added); with a ``budget`` of
        conflicts per call (in process), status "unknown" when a call ran out
        of it."""
        added_before = len(self._added_clauses())
        while True:
            ok = self._once(budget)
            if ok is None:
                return "unknown", None, self.added[added_before:]
            self.rounds += 1
            if not ok:
                return "unsat", None, self.added[added_before:]
            model = self.solver.get_model()
            if not self.cnf.lazy:
                return "sat", model, self.added[added_before:]
            truth = truth_table(model, self.cnf.nvars)
            extra = connectivity.cuts(self.cnf.lazy,
                                      lambda l: truth[l] == 1 if l > 0 else truth[-l] == 0)
            if not extra:
                return "sat", model, self.added[added_before:]
            self.cuts += len(extra)
            self._add(extra)
            self.progress("round", rounds=self.rounds, cuts=self.cuts)
            self._make_eager(connectivity.due_for_eager(self.cnf.lazy, self.rounds))

    def _make_eager(self, items, push=True):
        if items:
            clauses = cnf_stage.make_eager(self.cnf, items)
            if push:
                self._add_encoded(clauses)
            self.made_eager += items

    def next(self, timeout=None) -> Outcome:
        start = time.perf_counter()
        if inside_a_worker():            # a portfolio member: its parent kills it
            status, model = self._rounds(self._budgeted())
        else:
            status, model = self._next_here_first(timeout)
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if self.cnf.lazy or self.made_eager:
            self.stats.update(rounds=self.rounds, cuts=self.cuts, made_eager=len(self.made_eager))
        if status != "sat":
            return Outcome(status, None, dict(self.stats))
        return Outcome("sat", read_assignment(self.cnf, model), dict(self.stats))

    def _budgeted(self) -> bool:
        """Whether a solve starts with calls of SLICE_CONFLICTS conflicts."""
        return incremental(self.name) and self.name not in UNBUDGETED

    def _rounds(self, sliced: bool):
        """One solve's rounds (_loop), from where they stand: while
        ``sliced``, solver calls of at most SLICE_CONFLICTS conflicts; from
        the first that needs more, calls of ``call_budget`` (None: no
        bound).  The same calls in process and in the worker, so that where
        they ran never changes the answer.  In process the sliced calls
        alone run: (status "unknown", None) and ``sliced`` says where the
        worker goes on from."""
        self.sliced = sliced
        if sliced:
            slice_ = SLICE_CONFLICTS if self.call_budget is None else min(SLICE_CONFLICTS,
                                                                          self.call_budget)
            status, model, _ = self._loop(slice_)
            if status != "unknown" or slice_ < SLICE_CONFLICTS or self.refused:
                return status, model
            self.sliced = False
        if not inside_a_worker():        # Ctrl-C would wait for an unbounded call here
            return "unknown", None
        status, model, _ = self._loop(self.call_budget)
        return status, model

    def _next_here_first(self, timeout):
        """The rounds in process while they may run here, then in the worker
        (the module's docstring); ``timeout`` (seconds; None: the clock's
        deadline, if any) ends them with the status timeout."""
        deadline = clock.limit(timeout)
        try:
            with deadline:
                self.refused = False
                if self.worker is None and self._budgeted() and self._may_solve_here():
                    status, model = self._rounds(True)
                    # done, or a call_budget (generate's) ran out
                    if status != "unknown" or (self.sliced and not self.refused):
                        return status, model
                else:
                    self.sliced = self._budgeted()
                clock.check()            # an interrupted call: no worker at the deadline
                return self._next_in_worker(clock.left())
        except clock.Timeout:            # outside the with: it can come as the block is left
            deadline.leave()
            return "timeout", None

    def _next_in_worker(self, timeout):
        """Solve in the worker (backends/worker.py), a forked copy of this
        session.  Clauses added here since its last call go with the request;
        the cuts it finds and its switches to eager come back and are recorded
        here too, so that a later copy starts from all of them."""
        if self.worker is None:
            if self.stale:               # a killed worker had clauses this copy lacks
                self._drop_solver()
                self.stale = False
            self.worker = Worker(self._serve, self.name, self)     # its rounds reported here
            self._drop_solver()          # the worker's copy goes on; this one would be stale
        request, self.pending = (self.pending, self.assumptions, self.phases_new,
                                 self.call_budget, self.sliced), []
        self.phases_new = None
        try:
            reply = self.worker.call(request, timeout)
        except BaseException:
            self.worker, self.stale = None, True
            raise
        if reply is None:
            self.worker, self.stale = None, True
            return "timeout", None
        status, model, added, self.rounds, self.cuts, eager = reply
        # the worker has them already; kept pickled (bytes) until a copy of the
        # solver is built here: unpickling 100,000 cuts is one long call that
        # no alarm breaks, and the reply may come a moment before the deadline
        self.added.append(added)
        self.packed += 1
        self.stale = True
        self._make_eager([x for x in map(self.lazy_at_start.__getitem__, eager)
                          if x in self.cnf.lazy], push=False)   # the worker's switches
        return status, model

    def _serve(self, request):
        """In the worker: add what the parent sent, solve, report."""
        clauses, self.assumptions, phases, self.call_budget, sliced = request
        self.refused = False             # (as forked: nothing is refused here)
        self._add(clauses)
        if phases is not None:
            self.set_phases(phases)
        added_before = len(self._added_clauses())
        status, model = self._rounds(sliced)
        eager = [self.lazy_at_start.index(x) for x in self.made_eager]
        return (status, model, pickle.dumps(self.added[added_before:]), self.rounds, self.cuts,
                eager)

    def set_phases(self, literals: list) -> None:
        """The polarities the solver tries first (random ones draw a random solution)."""
        self.phases = literals
        if self.worker is not None:
            self.phases_new = literals
        elif self._solver is not None:
            self._solver.set_phases(literals)

    def prefer_other(self, values: dict) -> None:
        """The solver's first polarity of each value's literal: the other one."""
        self.set_phases(blocking_clause(self.cnf.var_lits, values))

    def block(self, values: dict, guard: int | None = None) -> None:
        """No later model repeats these values; with ``guard``, only models
        where the literal ``guard`` is true (a blocking clause to assume)."""
        clause = blocking_clause(self.cnf.var_lits, values)
        self._add([clause + [-guard]] if guard is not None else [clause])

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
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self._solver is not None:
            if clock.left() == 0:
                clock.leave_behind(self._solver)
                self._solver = None
            else:
                self._drop_solver()


class SatBackend(Backend):
    name = "sat"
    default_solver = DEFAULT_SAT_SOLVER

    @classmethod
    def build(cls, solver, connectivity, solver_cmd):
        return cls(solver or DEFAULT_SAT_SOLVER, connectivity or "lazy")

    @classmethod
    def solvers(cls) -> dict:
        return solver_aliases()

    def __init__(self, solver: str, connectivity: str = "lazy"):
        self.solver = self.solver_name = check_solver_name(solver)
        self.connectivity = connectivity

    def session(self, ground) -> SatSession:
        return SatSession(self.solver, self.connectivity, ground)
