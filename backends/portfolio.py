"""The portfolio backend: several solver configurations at once, the first answer wins.

    pzc solve nurikabe hard.txt --portfolio                      # the default pair
    pzc solve nurikabe hard.txt --portfolio glucose4:lazy,cadical195:eager

A *configuration* (a member) is a backend, a solver and a connectivity mode,
written as names joined by ':' in any order, each part optional; members are
joined by ','.  A part is a backend name (``sat``, ``smt``, ``asp``), a connectivity
mode (``lazy``, ``eager``) or a solver name of some backend (PySAT's
``cadical195``, ``glucose4``, ... and their aliases for sat; ``z3`` for smt;
clingo's configurations ``auto``, ``crafty``, ``trendy``, ... for asp);
a solver alone names its backend.  A sat member without a solver gets the
spec's `solver` line (else cadical195), without a connectivity mode lazy.
Every backend of registry.py whose class names its solvers (``solvers()``)
can be a member; get_backend builds and checks every member.

Each member runs in a process of its own (backends/worker.py's forked worker),
and the first to answer wins: a model (decoded and verified by the API, as for
any backend), or unsat, a proof from any member being final.  The others are
killed at once; at the time limit all are.  A member that fails (out of
memory, an error) drops out; the portfolio fails only when every member has.

Counting and uniqueness (``next`` and ``block`` in turn) go on with the member
that answered the first call, alone: its solver keeps what it learnt, and the
losers' processes are gone.  Move puzzles are refused (a plan grows a step at a
time on one incremental solver; api says so).

Where each member encodes: in its own process, after the fork.  The ground
model is built once, before the fork, and shared; each member then encodes
its CNF (or SMT text) itself, on its own core, while the other does the same.
Members with different connectivity modes need different clauses anyway, and
encoding in the parent before the fork would run the encodings one after the
other on one core and keep every copy in the parent too.  Measured on
Nurikabe #1055 57x40 (docs/benchmarks.md, "Portfolio"): 1.0 s + 1.8 s of
encoding one after the other, and a parent of 381 MB before any solver,
against a parent of 49 MB and 909 MB in all with both solvers running.

Two rules keep the portfolio from costing where it cannot gain (a member is
a forked process, 10-25 ms, and on a busy machine a second member takes CPU
from the first): members that would encode and solve alike (without a
connected(...) constraint, members that differ only in connectivity) run
once, and a single member left runs as its backend alone would; and members
start STAGGER_S apart, so an instance the first solves within that never
forks the second.
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.connection import wait

from ..runtime import clock
from ..runtime.errors import PzcError
from . import Backend, Outcome, Session, get_backend
from .registry import BACKENDS, CONNECTIVITY, DEFAULT_SAT_SOLVER, backend_class
from .worker import Worker, bounded

def member_backends() -> dict:
    """Backend name -> (its solvers: {name or alias: solver}, its default
    solver), for every registered backend that can be a member (registry.py;
    sat's default is the spec's `solver` line, else cadical195)."""
    out = {}
    for name in BACKENDS:
        cls = backend_class(name)
        solvers = cls.solvers()
        if solvers is not None:
            out[name] = (solvers, None if name == "sat" else cls.default_solver)
    return out


DEFAULT = "default"          # --portfolio alone: DEFAULT_MEMBERS
# the k-th member starts k * STAGGER_S after the first, unless an answer came
# (or every member started so far failed): most instances are solved by the
# first member within it, and a second process racing it on a busy machine
# only slows it (docs/benchmarks.md, "Portfolio")
STAGGER_S = 1.0


def default_members(spec_solver: str | None) -> str:
    """The default pair for two cores: the spec's solver (else cadical195) with
    lazy connectivity, and clingo (the asp backend).  On the 18 hardest
    Nurikabe boards the two win different boards (docs/benchmarks.md,
    "Portfolio"); lazy beside eager ranks lost to the lazy member alone."""
    return f"{spec_solver or DEFAULT_SAT_SOLVER}:lazy,asp"


class Member:
    """One configuration: backend name, solver (None: the backend's default)
    and connectivity (None: the backend's)."""

    __slots__ = ("backend", "solver", "connectivity")

    def __init__(self, backend, solver, connectivity):
        self.backend, self.solver, self.connectivity = backend, solver, connectivity

    def key(self):
        return (self.backend, self.solver, self.connectivity)

    def __str__(self):
        """The short form: sat members as solver:connectivity, the others
        without their default solver."""
        if self.backend == "sat":
            return f"{self.solver}:{self.connectivity}"
        solver = None if self.solver == member_backends()[self.backend][1] else self.solver
        return ":".join(p for p in (self.backend, solver, self.connectivity) if p)

    def make(self) -> Backend:
        return get_backend(self.backend, self.solver, self.connectivity)


def parse(text: str, spec_solver: str | None = None) -> list:
    """The members of a --portfolio value; a PzcError (exit 2) names the
    offending part.  ``spec_solver``: the spec's `solver` line, for sat
    members that name none."""
    if text is None or text.strip() == DEFAULT:
        text = default_members(spec_solver)
    members, seen = [], {}
    backends = member_backends()
    tables = {name: solvers for name, (solvers, _) in backends.items()}
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise PzcError(f"--portfolio {text!r}: an empty member (members are joined "
                           f"by ',', e.g. glucose4:lazy,cadical195:eager)")
        backend = solver = connectivity = None
        for part in item.split(":"):
            part = part.strip()
            if part in tables:
                kind, value = "backend", part
            elif part in CONNECTIVITY:
                kind, value = "connectivity", part
            else:
                owners = [name for name, names in tables.items() if part in names]
                if not part or not owners:
                    raise PzcError(_unknown(text, item, part, tables))
                kind, value = "solver", part
            if {"backend": backend, "solver": solver, "connectivity": connectivity}[kind] is not None:
                raise PzcError(f"--portfolio: the member {item!r} names two "
                               f"{'connectivity modes' if kind == 'connectivity' else kind + 's'} "
                               f"(a member is backend:solver:connectivity, each at most once)")
            if kind == "backend":
                backend = value
            elif kind == "connectivity":
                connectivity = value
            else:
                solver = value
        if solver is not None:
            owners = [name for name, names in tables.items() if solver in names]
            if backend is None:
                backend = owners[0]
            elif backend not in owners:
                raise PzcError(f"--portfolio: in the member {item!r}, {solver!r} is not a "
                               f"solver of the {backend} backend")
            solver = tables[backend][solver]          # an alias: the solver's own name
        backend = backend or "sat"
        solver = solver or backends[backend][1]
        if backend == "sat":
            solver = solver or spec_solver or DEFAULT_SAT_SOLVER
            connectivity = connectivity or "lazy"
        member = Member(backend, solver, connectivity)
        try:
            member.make()                          # the backend's own checks
        except PzcError as e:
            raise PzcError(f"--portfolio: the member {item!r}: {e.message}") from None
        if member.key() in seen:
            raise PzcError(f"--portfolio: the members {seen[member.key()]!r} and {item!r} "
                           f"are the same configuration ({member})")
        seen[member.key()] = item
        members.append(member)
    return members


def _unknown(text, item, part, tables) -> str:
    where = f"in the member {item!r}" if item != text else f"in {text!r}"
    what = f"{part!r} is not" if part else "an empty part is not"
    solvers = "; ".join(f"{name}: {', '.join(sorted(set(names.values())))}"
                        for name, names in tables.items())
    return (f"--portfolio: {where}, {what} a backend ({', '.join(tables)}), a "
            f"connectivity mode (lazy, eager) or a solver name ({solvers})")


def normalize(text: str | None, spec_solver: str | None = None) -> str:
    """The --portfolio value with every member written out in full."""
    return ",".join(str(m) for m in parse(text, spec_solver))


def looks_like_members(token: str) -> bool:
    """Whether a command-line token after a bare --portfolio is its value
    (a member list) rather than the spec or an instance."""
    if "," in token or ":" in token:
        return not any(c in token for c in "/?=\\")
    if token == DEFAULT or token in CONNECTIVITY or token in BACKENDS:
        return True
    return any(token in solvers for solvers, _ in member_backends().values())


class _Member:
    """What a member's process runs: its backend's session on the ground
    model, made at the first request (so the encoding is done there)."""

    progress = None                 # set in the member's process by the worker (its reports)

    def __init__(self, member: Member, ground):
        self.member = member
        self.ground = ground
        self.session = None

    def serve(self, blocks):
        """Block the models in ``blocks`` ({var index: value} each), then
        solve: (status, {var index: value} or None, stats)."""
        try:
            if self.session is None:
                multiprocessing.current_process().daemon = False    # may fork a worker
                self.session = self.member.make().session(self.ground)
                self.session.progress = self.progress
            variables = self.ground.model.vars
            for values in blocks:
                self.session.block({variables[i]: v for i, v in values.items()})
            outcome = self.session.next(None)
        except PzcError as e:
            return ("failed", e.message, e.exit_code)
        assignment = None
        if outcome.assignment is not None:
            assignment = {var.index: value for var, value in outcome.assignment.items()}
        return (outcome.status, assignment, outcome.stats)


def distinct(members, model) -> list:
    """The members, those that would encode and solve alike run once: without
    a connected(...) constraint, members that differ only in connectivity."""
    if model.has_connectivity():
        return list(members)
    out, seen = [], set()
    for m in members:
        if (m.backend, m.solver) not in seen:
            seen.add((m.backend, m.solver))
            out.append(m)
    return out


class PortfolioSession(Session):
    def __init__(self, members, ground):
        self.members = distinct(members, ground.model)
        self.ground = ground
        # one member left: it runs as its backend alone would (no process of
        # its own but under a time limit), without a portfolio's overhead
        self.alone = self.members[0].make().session(ground) if len(self.members) == 1 else None
        self.workers = None               # member index -> Worker, while they race
        self.waiting = []                 # members not started yet (STAGGER_S)
        self.race_start = 0.0
        self.winner = None                # (index, Worker) once one has answered
        self.failures = []                # (member, PzcError) of members that dropped out
        self.pending = []                 # blocking clauses for the winner's next call
        self.wall_s = 0.0
        self.stats = dict(self._describe(), variables=None, clauses=None,
                          encode_s=0.0, solve_s=0.0)

    def _describe(self) -> dict:
        return {"backend": "portfolio", "solver": ",".join(map(str, self.members)),
                "members": [str(m) for m in self.members]}

    def next(self, timeout=None) -> Outcome:
        start = time.perf_counter()
        try:
            if self.alone is not None:
                self.alone.progress = self.progress
                outcome = self.alone.next(timeout)
                self.winner = (0, None)
                outcome = self._outcome(outcome.status, outcome.assignment, outcome.stats,
                                        by_index=False)
            elif self.winner is None:
                outcome = self._race(timeout)
            else:
                outcome = self._winner_next(timeout)
        finally:
            self.wall_s += time.perf_counter() - start
            self.stats["portfolio_s"] = round(self.wall_s, 4)
        outcome.stats["portfolio_s"] = self.stats["portfolio_s"]
        return outcome

    def _race(self, timeout) -> Outcome:
        deadline = _deadline(timeout)
        self.workers = {}
        self.waiting = list(range(len(self.members)))
        self.race_start = time.perf_counter()
        return self._first(deadline)

    def _start(self, i):
        """Fork member ``i`` and ask it to solve."""
        state = _Member(self.members[i], self.ground)
        state.progress = self.progress
        worker = Worker(state.serve, str(self.members[i]), state)
        self.workers[i] = worker
        worker.conn.send([])                     # no models to block: solve

    def _first(self, deadline) -> Outcome:
        """The first reply of the members in ``workers`` (the ``waiting`` ones
        started on the way, STAGGER_S apart); the others are killed then,
        all of them at the deadline."""
        try:
            while self.workers or self.waiting:
                now = time.perf_counter()
                wake = deadline
                if self.waiting:
                    at = self.race_start + self.waiting[0] * STAGGER_S
                    if now >= at or not self.workers:      # its turn, or no one else runs
                        self._start(self.waiting.pop(0))
                        continue
                    wake = at if wake is None else min(wake, at)
                left = None if wake is None else max(0.0, wake - now)
                ready = wait([w.conn for w in self.workers.values()], left)
                if not ready:
                    if deadline is None or time.perf_counter() < deadline:
                        continue                 # the next member's turn
                    self._stop_all()
                    self.winner = None if self.winner is None else (self.winner[0], None)
                    return self._outcome("timeout", None, None)
                for i, worker in list(self.workers.items()):
                    if worker.conn not in ready:
                        continue
                    reply = self._receive(i, worker)
                    if reply is None:            # a progress report, or it dropped out
                        continue
                    del self.workers[i]
                    self._stop_all()
                    self.winner = (i, worker)
                    return self._outcome(*reply)
        except BaseException:                # clock.Timeout from the alarm, Ctrl-C
            self._stop_all()
            if self.winner is not None:
                self.winner = (self.winner[0], None)
            raise
        if self.winner is not None:
            self.winner = (self.winner[0], None)
        raise self._all_failed()

    def _receive(self, i, worker):
        """A member's reply (status, assignment, stats); None after a
        progress report (passed on) or when the member dropped out."""
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            del self.workers[i]
            worker.stop()
            code = worker.proc.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"status {code}"
            self.failures.append((self.members[i], worker.out_of_memory(f"its process ended "
                                                                        f"with {how}")))
            return None
        if message[0] == "progress":
            self.progress(message[1], **message[2])
            return None
        status, reply = message
        if status == "ok" and reply[0] != "failed":
            return reply
        del self.workers[i]
        worker.stop()
        if status == "ok":
            error = PzcError(reply[1], exit_code=reply[2])
        elif reply.startswith("MemoryError"):
            error = worker.out_of_memory("Python's MemoryError")
        else:
            error = RuntimeError(f"the {self.members[i]} member failed: {reply}")
        self.failures.append((self.members[i], error))
        return None

    def _all_failed(self):
        """Every member dropped out: the first one's error, naming the others'."""
        member, error = self.failures[0]
        if isinstance(error, PzcError) and len(self.failures) == 1:
            return error
        text = "; ".join(f"{m}: {e.message if isinstance(e, PzcError) else e}"
                         for m, e in self.failures)
        if all(isinstance(e, PzcError) for _, e in self.failures):
            return PzcError(f"every member of the portfolio failed ({text})",
                            exit_code=error.exit_code)
        return RuntimeError(f"every member of the portfolio failed ({text})")

    def _winner_next(self, timeout) -> Outcome:
        """Later calls (counting): the member that answered first, alone."""
        i, worker = self.winner
        if worker is None:
            raise PzcError("the portfolio's member was stopped (time limit or failure); "
                           "a new session starts the race again")
        deadline = _deadline(timeout)
        request, self.pending = self.pending, []
        worker.conn.send(request)                # block these models, then solve
        self.workers = {i: worker}
        return self._first(deadline)

    def _outcome(self, status, assignment, stats, by_index=True) -> Outcome:
        if stats is not None:
            # "solver": the member that answered; none did at a time limit
            member = str(self.members[self.winner[0]]) if status != "timeout" else None
            self.stats = dict(stats, **self._describe())
            self.stats["solver"] = member or self.stats["solver"]
        if assignment is not None and by_index:
            variables = self.ground.model.vars
            assignment = {variables[i]: v for i, v in assignment.items()}
        return Outcome(status, assignment, dict(self.stats))

    def block(self, values: dict) -> None:
        if self.alone is not None:
            self.alone.block(values)
            return
        if self.winner is None:
            raise PzcError("the portfolio blocks a model only after its first answer")
        self.pending.append({var.index: value for var, value in values.items()})

    def _stop_all(self):
        """Kill every member still racing, and start no other; the dying ones
        are reaped later (clock.leave_behind: before the next instance, or at
        exit), not on the way to the answer."""
        for worker in (self.workers or {}).values():
            _kill(worker)
        self.workers = {}
        self.waiting = []

    def close(self):
        if self.alone is not None:
            self.alone.close()
        self._stop_all()
        if self.winner is not None and self.winner[1] is not None:
            _kill(self.winner[1])
            self.winner = (self.winner[0], None)


def _deadline(timeout):
    timeout = bounded(timeout)
    return None if timeout is None else time.perf_counter() + timeout


def _kill(worker: Worker) -> None:
    if worker.proc.is_alive():
        worker.proc.kill()
        clock.leave_behind(worker.proc)
    else:
        worker.proc.join()
    worker.conn.close()


class PortfolioBackend(Backend):
    name = "portfolio"

    @classmethod
    def build(cls, solver, connectivity, solver_cmd):
        if connectivity is not None or solver_cmd is not None:
            raise PzcError("--portfolio names each member's connectivity and solver: "
                           "leave out --connectivity and --solver-cmd")
        return cls(parse(solver))

    def __init__(self, members: list):
        self.members = members
        self.solver_name = ",".join(map(str, members))

    def describe(self) -> dict:
        return {"backend": self.name, "solver": self.solver_name,
                "members": [str(m) for m in self.members]}

    def session(self, ground) -> PortfolioSession:
        return PortfolioSession(self.members, ground)
