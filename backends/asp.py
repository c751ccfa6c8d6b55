"""The answer set backend: encoder/cnf.py's clauses solved by clingo.

The CNF the sat backend builds goes to clingo through its Python backend
API, with no program text and no grounding by gringo:

  * every CNF variable is an atom left free by one choice rule;
  * every clause  l1 or ... or lk  is the integrity constraint
    ``:- not l1, ..., not lk`` (a negative literal -x becomes the body atom x);
  * every connectivity constraint the sat backend would leave to its lazy
    cuts (encoder/connectivity.LazyConnected) becomes reachability from a
    root over the selected elements s[i]:

        reach(root).                     % an always-selected element, else
        reach(i) :- s[i], not some(i-1). % the first selected one
        some(i) :- s[i].   some(i) :- some(i-1).
        reach(j) :- reach(i), s[j].      % for adjacent i, j
        :- guard, s[i], not reach(i).

    With roots (``connected(... from root)``), reach(i) :- root[i] for
    every element instead of the one root.

    reach is defined only through positive cycles, so clingo's unfounded-set
    propagation rejects any selection not connected to the root while it
    searches: there is no cut loop, and every answer set is connected.

Connectivity bounded by a count (distance layers, encoder/connectivity's
encode_bounded) is already clauses and stays so.

``--solver`` names clingo's configuration (auto, crafty, trendy, jumpy, ...);
``NAME,T`` solves with T threads in clingo's own parallel portfolio.
Blocking a model (counting, unique) adds one more integrity constraint to the
same clingo program (multi-shot), so what clingo learnt is kept.  Under a
time limit clingo solves in process, told to stop at the deadline
(Control.interrupt, runtime/clock.interrupting), on programs of at most
LIMITED_IN_PROCESS_RULES rules; a bigger one runs in a forked worker killed
at the deadline, as the sat backend's big formulas do (backends/worker.py):
clingo prepares a big program (900k rules: seconds) before its search looks
at an interrupt, and a cancelled search in process ended a 30 s limit up to
13 s late.  Move plans (extend/assume/retract) are not supported.
"""

from __future__ import annotations

import time

from ..runtime import clock
from ..encoder import cnf as cnf_stage
from ..runtime.errors import PzcError
from ..runtime.limits import address_space_limited
from . import Backend, Outcome, Session, blocking_clause
from ..encoder.cnf import read_assignment
from ..encoder.connectivity import LazyConnected
from .worker import Worker, bounded

# under a time limit, the most rules (about one a clause) clingo gets in
# process (see the module's docstring)
LIMITED_IN_PROCESS_RULES = 200_000
CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy", "many")


def _clingo():
    try:
        import clingo
    except ImportError:  # pragma: no cover - clingo is a dependency
        raise PzcError("--backend asp needs clingo (pip install clingo)") from None
    return clingo


def parse_solver(name: str | None) -> tuple:
    """``CONFIG`` or ``CONFIG,THREADS`` -> (config, threads)."""
    if not name:
        return "auto", 1
    config, _, threads = name.partition(",")
    if config not in CONFIGURATIONS:
        raise PzcError(f"unknown clingo configuration {config!r} for --backend asp; "
                       f"choose one of: {', '.join(CONFIGURATIONS)} (NAME,THREADS for "
                       "parallel solving, e.g. crafty,2)")
    if threads:
        if not threads.isdigit() or not 1 <= int(threads) <= 64:
            raise PzcError(f"the thread count of --solver {name!r} is a number from 1 to 64")
        return config, int(threads)
    return config, 1


def add_program(backend, cnf, true_lit) -> int:
    """Give clingo's ``backend`` the clauses and connectivity of ``cnf``;
    atom k is CNF variable k.  Returns the number of rules added."""
    n = cnf.nvars
    atoms = [backend.add_atom() for _ in range(n)]
    if atoms and (atoms[0] != 1 or atoms[-1] != n):     # pragma: no cover - clingo numbers from 1
        raise RuntimeError("clingo's atoms are not numbered 1..n")
    backend.add_rule(atoms, choice=True)
    add_rule = backend.add_rule
    for clause in cnf.clauses:
        add_rule((), [-l for l in clause])
    rules = 1 + len(cnf.clauses)
    for item in cnf.lazy:
        if not isinstance(item, LazyConnected):     # a check of the solve loop (groupsizes.py)
            raise PzcError("the asp backend cannot check groupsize(...), whose sizes pzc "
                           "checks in its solve loop: use --backend sat or smt")
        rules += add_reachability(backend, item, true_lit)
    return rules


def add_reachability(backend, item, true_lit) -> int:
    """The rules of one lazy connectivity constraint (see the module doc)."""
    lits, adjacent, guard = item.lits, item.adjacent, list(item.guard)
    n = len(lits)
    add_rule, new = backend.add_rule, backend.add_atom
    live = [i for i in range(n) if lits[i] != -true_lit]
    reach = {i: new() for i in live}
    rules = 0
    # a CNF literal is a body literal as it is: atom k is variable k, and -k
    # (default negation) is its complement
    forced = [i for i in live if lits[i] == true_lit]
    roots = item.roots
    if roots is not None:             # every group holds a root: reach(i) :- root[i]
        for i in live:
            if roots[i] != -true_lit:
                add_rule([reach[i]], [roots[i]] if roots[i] != true_lit else [])
                rules += 1
    elif forced:
        add_rule([reach[forced[0]]], [])
        rules += 1
    else:
        some = None                    # an atom: some element before i is selected
        for i in live:
            add_rule([reach[i]], [lits[i]] + ([-some] if some is not None else []))
            s = new()
            add_rule([s], [lits[i]])
            if some is not None:
                add_rule([s], [some])
            rules += 3
            some = s
    for i in live:
        for j in adjacent[i]:
            if j in reach:
                add_rule([reach[j]], [reach[i], lits[j]])
                rules += 1
    for i in live:
        if lits[i] != true_lit or (forced and i != forced[0]) or roots is not None:
            add_rule((), guard + [lits[i], -reach[i]])
            rules += 1
    return rules


class AspSession(Session):
    def __init__(self, config, threads, ground):
        _clingo()
        start = time.perf_counter()
        self.cnf = cnf_stage.encode(ground.model, "lazy")
        self.args = [f"--configuration={config}", "--models=1"]
        if threads > 1:
            self.args.append(f"--parallel-mode={threads}")
        # the clingo program is built on first use: for a big program under a
        # time limit that is in the worker, killed at the deadline (clingo
        # prepares it, for seconds, before its search looks at any interrupt)
        self.ctl = None
        self.blocks = []                 # blocking constraints, in order
        self.worker = None               # the forked copy that solves, if any
        self.pending = []                # blocks the worker has not been sent yet
        # the positive literals of the model variables, read from each answer
        self.shown = sorted({abs(l) for lits in self.cnf.var_lits.values()
                             for l in ((lits,) if type(lits) is int else lits.values())})
        self.solve_s = 0.0
        self.stats = {"backend": "asp", "solver": config + (f",{threads}" if threads > 1 else ""),
                      "variables": self.cnf.nvars, "clauses": len(self.cnf.clauses),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}
        if self.cnf.lazy:
            self.stats["reachability"] = len(self.cnf.lazy)

    def _control(self):
        if self.ctl is None:
            ctl = _clingo().Control(self.args, logger=lambda code, message: None)
            with ctl.backend() as backend:
                self.stats["rules"] = add_program(backend, self.cnf, self.cnf.true_lit) + len(self.blocks)
                for clause in self.blocks:
                    backend.add_rule((), [-l for l in clause])
            self.ctl = ctl
        return self.ctl

    def _solve(self, wait):
        """Solve on this copy's program; ``wait(handle)`` waits for the search
        and says whether it finished.  Returns (status, true atoms)."""
        found = []
        shown = self.shown

        def on_model(model):
            is_true = model.is_true
            found.append([a for a in shown if is_true(a)])

        # leaving the with block (clock.Timeout, Ctrl-C too) stops the search
        ctl = self._control()
        with clock.interrupting(ctl.interrupt), ctl.solve(on_model=on_model, async_=True) as handle:
            if not wait(handle):
                handle.cancel()
                return "timeout", None
            result = handle.get()
        if result.satisfiable and found:
            return "sat", found[-1]
        return ("unsat" if result.unsatisfiable else "timeout"), None

    @staticmethod
    def _until_done(handle):
        while not handle.wait(0.25):     # Ctrl-C and runtime/clock.py's alarm get in between
            pass
        return True

    def next(self, timeout=None) -> Outcome:
        start = time.perf_counter()
        if self._here(timeout):
            status, model = self._next_here(timeout)
        else:
            status, model = self._next_in_worker(bounded(timeout))
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if status != "sat":
            return Outcome(status, None, dict(self.stats))
        return Outcome("sat", read_assignment(self.cnf, model), dict(self.stats))

    def _here(self, timeout) -> bool:
        """Whether this solve runs in process (the module's docstring)."""
        if self.worker is not None:
            return False
        if self.ctl is not None:         # built here: solved here
            return True
        limited = timeout is not None or clock.deadline() is not None
        return not address_space_limited() and (
            not limited or len(self.cnf.clauses) + len(self.blocks) <= LIMITED_IN_PROCESS_RULES)

    def _next_here(self, timeout):
        """Solve in process until done or the deadline (``timeout``
        seconds, or the clock's): (status, true atoms)."""
        deadline = clock.limit(timeout)
        try:
            with deadline:
                return self._solve(self._until_done)
        except clock.Timeout:            # outside the with: it can come as the block is left
            deadline.leave()
            return "timeout", None

    def _next_in_worker(self, timeout):
        """Solve in a forked copy of this session (backends/worker.py), which
        builds the clingo program and keeps it from call to call; the blocks
        added here since its last call go with the request.  A copy killed at
        the deadline is replaced by a new one built from all the blocks."""
        if self.worker is None:
            self.worker = Worker(self._serve, "clingo", self)
            self.pending = list(self.blocks)
        request, self.pending = self.pending, []
        try:
            reply = self.worker.call(request, timeout)
        except BaseException:
            self.worker = None
            raise
        if reply is None:
            self.worker = None
            return "timeout", None
        status, model, self.stats["rules"] = reply
        return status, model

    def _serve(self, blocks):
        """In the worker: add the blocks, solve to the end (the parent kills
        this process at the deadline)."""
        ctl = self._control()
        if blocks:
            with ctl.backend() as backend:
                for clause in blocks:
                    backend.add_rule((), [-l for l in clause])
            self.stats["rules"] += len(blocks)
        status, model = self._solve(lambda handle: handle.wait() or True)
        return status, model, self.stats["rules"]

    def block(self, values: dict) -> None:
        clause = blocking_clause(self.cnf.var_lits, values)
        self.blocks.append(clause)
        if self.worker is not None:
            self.pending.append(clause)
        elif self.ctl is not None:
            with self.ctl.backend() as backend:
                backend.add_rule((), [-l for l in clause])
            self.stats["rules"] += 1

    def _no_plans(self, *args):
        raise PzcError("the asp backend cannot solve move puzzles (a plan grows a step at a "
                       "time on one incremental solver): use --backend sat or smt")

    extend = assume = retract = _no_plans

    def close(self):
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.ctl is not None and clock.left() == 0:
            clock.leave_behind(self.ctl)     # freeing a big program takes a while
        self.ctl = None


class AspBackend(Backend):
    name = "asp"
    default_solver = "auto"

    @classmethod
    def build(cls, solver, connectivity, solver_cmd):
        if connectivity is not None:
            raise PzcError("the asp backend states connectivity as reachability rules; "
                           "--connectivity is for the sat backend")
        return cls(solver)

    @classmethod
    def solvers(cls) -> dict:
        return {c: c for c in CONFIGURATIONS}

    def __init__(self, solver: str | None = None):
        _clingo()
        self.config, self.threads = parse_solver(solver)
        self.solver_name = self.config + (f",{self.threads}" if self.threads > 1 else "")

    def session(self, ground) -> AspSession:
        return AspSession(self.config, self.threads, ground)
