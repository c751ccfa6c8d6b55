"""The SMT backend: encoder/smt.py's SMT-LIB2 text solved by Z3."""

from __future__ import annotations

import time
from contextlib import contextmanager

import z3

from ..runtime import clock
from ..runtime.errors import PzcError
from ..runtime.limits import MemoryBudget, budget_bytes
from ..encoder.smt import more_smtlib, start_smtlib
from . import Backend, Outcome, Session
from .worker import Worker


# under a time limit, the longest SMT-LIB text Z3 reads in process: Z3 reads
# about a million characters a second and looks at no interrupt meanwhile
LIMITED_IN_PROCESS_CHARS = 200_000


class Z3State:
    """The Z3 side of a session: it runs the session's commands (SMT-LIB text
    to assert, blocking clauses, the goal of a plan) and checks.  It lives in
    process, where under a time limit Z3 is interrupted at the deadline
    (runtime/clock.interrupting), except for a formula of more than
    LIMITED_IN_PROCESS_CHARS characters under a limit: parsing a big
    formula alone can take Z3 half a minute, deaf to its timeout and
    interrupt, so it lives in a worker process (backends/worker.py), which
    is killed at the deadline.  Z3 is held to pzc's memory budget; running
    out is the status "memory"."""

    def __init__(self, budget: int):
        self.solver = z3.Solver()
        self.budget = budget             # bytes
        self.decls = {}                  # every Bool and Int declared so far, for later text
        self.ints = []                   # names of the Ints (wide int ranges)
        self.started = False
        self.goal = None                 # plans: the goal asserted inside push/pop

    def run(self, commands):
        for kind, arg, names in commands:
            if kind == "text":
                if not self.started:     # the whole formula: declares its own names
                    self.solver.from_string(arg)
                    self.started = True
                else:                    # a plan's next step: names earlier Bools
                    self.solver.add(z3.parse_smt2_string(arg, decls=self.decls))
            elif kind == "block":
                parts = [z3.Int(n) != v if k == "int" else z3.Bool(n) if v else z3.Not(z3.Bool(n))
                         for k, n, v in arg]
                self.solver.add(z3.Or(parts) if parts else z3.BoolVal(False))
            elif kind == "goal":
                self.goal = None if arg is None else z3.And(*z3.parse_smt2_string(arg, decls=self.decls))
            elif kind == "retract":
                if self.goal is not None:
                    self.solver.add(z3.Not(self.goal))
                self.goal = None
            for n, kind in names:
                if kind == "int":
                    self.decls[n] = z3.Int(n)
                    self.ints.append(n)
                else:
                    self.decls[n] = z3.Bool(n)

    def interrupt(self):
        self.solver.ctx.interrupt()

    def check(self, commands):
        """(status, {Bool name: truth, Int name: value}) after running
        ``commands``; status sat, unsat, timeout (interrupted) or memory."""
        try:
            self.run(commands)
            with self._memory_limit():
                if self.goal is None:
                    result = self.solver.check()
                    model = self.solver.model() if result == z3.sat else None
                else:
                    self.solver.push()
                    self.solver.add(self.goal)
                    result = self.solver.check()
                    model = self.solver.model() if result == z3.sat else None
                    self.solver.pop()
        except z3.Z3Exception as e:
            if "memory" not in str(e):
                raise
            return "memory", None
        if result == z3.unknown and "memory" in self.solver.reason_unknown():
            return "memory", None
        if result != z3.sat:
            return ("unsat" if result == z3.unsat else "timeout"), None
        values = {d.name(): z3.is_true(model[d]) for d in model.decls() if d.arity() == 0
                  and z3.is_bool(model[d])}
        for n in self.ints:
            values[n] = model.eval(self.decls[n], model_completion=True).as_long()
        return "sat", values

    @contextmanager
    def _memory_limit(self):
        """While solving, Z3 stops at the budget (reason "out of memory")
        instead of taking the machine.  Not while parsing: there Z3 may exit
        the whole process (status 101), so encoder/smt.py measures the text
        beforehand."""
        z3.set_param("memory_max_size", max(1, self.budget >> 20))
        try:
            yield
        finally:
            z3.set_param("memory_max_size", 0)


class SmtSession(Session):
    def __init__(self, ground):
        start = time.perf_counter()
        self.memory = MemoryBudget()
        text, self.writer = start_smtlib(ground.model)
        self.names = self.writer.names
        self.pending = [("text", text, self._decls(ground.model.vars))]
        self.sent = []                   # commands the worker has run, for a new worker
        self.z3 = None                   # in process
        self.worker = None               # in a worker (a big formula under a time limit)
        self.assertions = text.count("(assert ")
        self.solve_s = 0.0
        self.stats = {"backend": "smt", "solver": "z3",
                      "variables": self._variables(), "clauses": self.assertions,
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}

    def _variables(self):
        return sum(1 if isinstance(n, str) else len(n) for n in self.names.values())

    def _decls(self, variables) -> list:
        """(name, "bool" or "int") of each Z3 constant of these variables."""
        out = []
        for var in variables:
            n = self.names[var]
            if var in self.writer.ints:
                out.append((n, "int"))
                continue
            out += [(name, "bool") for name in ([n] if isinstance(n, str) else n.values())
                    if name not in ("true", "false")]
        return out

    def next(self, timeout=None) -> Outcome:
        start = time.perf_counter()
        commands, self.pending = self.pending, []
        if self._here(timeout, commands):
            status, truth = self._check_here(commands, timeout)
        else:
            if self.worker is None:      # a new worker runs everything from the start
                commands, self.sent = self.sent + commands, []
                self.worker = Worker(_z3_serve, "z3")
            self.sent += commands
            try:
                reply = self.worker.call(commands, timeout)
            except BaseException:
                self.worker = None
                raise
            if reply is None:
                self.worker = None
                reply = ("timeout", None)
            status, truth = reply
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s
        if status == "memory":
            raise self.memory.out_of_memory("Z3")
        if status != "sat":
            return Outcome(status, None, dict(self.stats))
        assignment = {}
        for var, n in self.names.items():
            if var in self.writer.ints:
                assignment[var] = truth[n]
            elif isinstance(n, str):
                assignment[var] = truth.get(n, False)
            else:
                chosen = [v for v, name in n.items() if name == "true" or truth.get(name, False)]
                assignment[var] = chosen[0] if len(chosen) == 1 else None
        return Outcome("sat", assignment, dict(self.stats))

    def _here(self, timeout, commands) -> bool:
        """Whether Z3 runs these commands in process (Z3State's docstring)."""
        if self.worker is not None:
            return False
        if self.z3 is not None or (timeout is None and clock.deadline() is None):
            return True
        return sum(len(arg) for kind, arg, _ in commands if kind == "text") <= \
            LIMITED_IN_PROCESS_CHARS

    def _check_here(self, commands, timeout):
        """Z3State.check in process until the deadline (``timeout`` seconds,
        or the clock's)."""
        deadline = clock.limit(timeout)
        try:
            with deadline:
                if self.z3 is None:
                    self.z3 = Z3State(self.memory.budget)
                # interrupted, Z3 may raise Z3Exception ("push canceled"):
                # the block then raises Timeout instead
                with clock.interrupting(self.z3.interrupt):
                    return self.z3.check(commands)
        except clock.Timeout:            # outside the with: it can come as the block is left
            deadline.leave()
            return "timeout", None

    def close(self):
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.z3 is not None and clock.left() == 0:    # Z3 frees a big context slowly
            clock.leave_behind(self.z3)
        self.z3 = None

    def _command(self, kind, arg, names=()):
        self.pending.append((kind, arg, list(names)))

    def block(self, values: dict) -> None:
        parts = []
        for var, value in values.items():
            n = self.names[var]
            if var in self.writer.ints:
                parts.append(("int", n, value))
                continue
            name = n if isinstance(n, str) else n[value]
            if name in ("true", "false"):
                if (name == "true") == (value is not False):
                    continue
                return                     # the values cannot occur anyway
            parts.append(("bool", name, value is False))
        self._command("block", parts)
        self.assertions += 1


    # plans (backends.deepen): more steps, and the goal under push/pop

    def extend(self, variables, nodes) -> None:
        start = time.perf_counter()
        text = more_smtlib(self.writer, variables, nodes)   # declares the new ones
        self._command("text", text, self._decls(variables))
        self.assertions += text.count("(assert ")
        self.stats["encode_s"] += time.perf_counter() - start
        self.stats.update(variables=self._variables(), clauses=self.assertions)

    def assume(self, node) -> bool:
        self._command("goal", None if node is None else more_smtlib(self.writer, [], [node]))
        return True

    def retract(self) -> None:
        self._command("retract", None)
        self.assertions += 1


_WORKER_STATE = []        # the worker's Z3State (made in the worker, at its first request)


def _z3_serve(commands):
    """In the worker: run the commands on its Z3 state and check."""
    if not _WORKER_STATE:
        _WORKER_STATE.append(Z3State(budget_bytes()))
    return _WORKER_STATE[0].check(commands)


class SmtBackend(Backend):
    name = "smt"
    solver_name = default_solver = "z3"

    @classmethod
    def build(cls, solver, connectivity, solver_cmd):
        cls.eager_only(cls.name, connectivity)
        if solver not in (None, "z3"):
            raise PzcError(f"the smt backend runs z3, not {solver!r}")
        return cls()

    @classmethod
    def solvers(cls) -> dict:
        return {"z3": "z3"}

    def session(self, ground) -> SmtSession:
        return SmtSession(ground)
