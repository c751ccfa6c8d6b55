"""The external backend: any DIMACS solver binary, through files.

``--solver-cmd "cadical -q"`` runs the command with the CNF file's path
appended; ``{input}`` and ``{output}`` in the command are replaced by the CNF
path and by a result file the solver writes (MiniSat: "minisat {input}
{output}").  The answer is read as encoder/dimacs.read_model reads it.
Connectivity is encoded eagerly; each model (counting, uniqueness) reruns the
solver on the formula plus the blocking clauses so far.  What the encoding
leaves to the solve loop (groupsize(...): encoder/groupsizes.py) is checked
on each model: a model it cuts off runs the solver again with the cuts.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import time

from ..runtime import clock
from ..encoder import cnf as cnf_stage, connectivity
from ..encoder.cnf import read_assignment, truth_table
from ..encoder.dimacs import model_problem, read_model
from ..runtime.errors import PzcError
from . import Backend, Outcome, Session, blocking_clause
from .worker import bounded


class ExternalSession(Session):
    def __init__(self, command, ground):
        start = time.perf_counter()
        self.command = command
        self.cnf = cnf_stage.encode(ground.model, "eager")
        self.extra = []
        self.model = None                # the literals of the last model
        self.solve_s = 0.0
        self.stats = {"backend": "external", "solver": command, "variables": self.cnf.nvars,
                      "clauses": len(self.cnf.clauses),
                      "encode_s": time.perf_counter() - start, "solve_s": 0.0}

    def next(self, timeout=None) -> Outcome:
        start = time.perf_counter()
        while True:
            outcome = self._once(None if timeout is None
                                 else timeout - (time.perf_counter() - start))
            if outcome.status != "sat" or not self.cnf.lazy:
                return outcome
            truth = truth_table(self.model, self.cnf.nvars)
            cuts = connectivity.cuts(self.cnf.lazy,
                                     lambda l: truth[l] == 1 if l > 0 else truth[-l] == 0)
            if not cuts:
                return outcome
            self.extra += cuts

    def _once(self, timeout) -> Outcome:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="pzc-") as tmp:
            cnf_path = os.path.join(tmp, "formula.cnf")
            out_path = os.path.join(tmp, "result.txt")
            clauses = self.cnf.clauses + self.extra
            with open(cnf_path, "w") as f:
                f.write(f"p cnf {self.cnf.nvars} {len(clauses)}\n")
                f.write("".join(" ".join(map(str, c)) + " 0\n" for c in clauses))
            argv = _command(self.command, cnf_path, out_path)
            # writing the file took some of the time
            run = _run(argv, bounded(None if timeout is None
                                     else timeout - (time.perf_counter() - start)))
            if run is None:
                self._done(start)
                return Outcome("timeout", None, dict(self.stats))
            text = run.stdout
            if "{output}" in self.command and os.path.exists(out_path):
                with open(out_path) as f:
                    text = f.read() + "\n" + text
        self._done(start)
        try:
            status, lits = read_model(text, "the solver's output")
        except PzcError as e:
            raise PzcError(f"could not read the answer of {self.command!r} (exit code "
                           f"{run.returncode}): {e.message}; its stderr: {run.stderr.strip()[:300]}") from None
        if status == "unknown":
            return Outcome("timeout", None, dict(self.stats))
        if status == "unsat":
            return Outcome("unsat", None, dict(self.stats))
        # a wrong model is the solver command's fault (bad input), not pzc's:
        # say so before decoding, where it would look like a pzc bug
        problem = model_problem(self.cnf, lits, self.extra)
        if problem is not None:
            raise PzcError(f"the solver command {self.command!r} gave a wrong model: {problem}")
        self.model = lits
        return Outcome("sat", read_assignment(self.cnf, lits), dict(self.stats))

    def _done(self, start):
        self.solve_s += time.perf_counter() - start
        self.stats["solve_s"] = self.solve_s

    def block(self, values: dict) -> None:
        self.extra.append(blocking_clause(self.cnf.var_lits, values))


def _run(argv, timeout):
    """Run the solver in its own process group; at the time limit (or on any
    interruption: runtime/clock.py's alarm) the whole group is killed, so a shell
    wrapper's children stop too.  None when the time ran out."""
    if timeout is not None and timeout <= 0:
        return None
    try:
        with clock.held():               # never a started solver its Popen does not know
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, start_new_session=True)
    except FileNotFoundError:
        raise PzcError(f"cannot run the solver command {argv[0]!r}: no such program") from None
    except PermissionError:
        raise PzcError(f"cannot run the solver command {argv[0]!r}: not executable") from None
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return None
    except BaseException:
        _kill_group(proc)
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    proc.stdout.close()              # never read on: a grandchild that left the
    proc.stderr.close()              # group must not keep pzc waiting


def _command(command, cnf_path, out_path) -> list:
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise PzcError(f"cannot read the solver command {command!r}: {e}") from None
    if not argv:
        raise PzcError("the solver command is empty")
    if any("{input}" in a for a in argv):
        return [a.replace("{input}", cnf_path).replace("{output}", out_path) for a in argv]
    return [a.replace("{output}", out_path) for a in argv] + [cnf_path]


class ExternalBackend(Backend):
    name = "external"

    @classmethod
    def build(cls, solver, connectivity, solver_cmd):
        cls.eager_only(cls.name, connectivity)
        if solver is not None:
            raise PzcError("the external backend runs --solver-cmd, not --solver")
        if not solver_cmd:
            raise PzcError('--backend external needs --solver-cmd "COMMAND" (a DIMACS solver)')
        return cls(solver_cmd)

    def __init__(self, command: str):
        self.command = self.solver_name = command

    def session(self, ground) -> ExternalSession:
        return ExternalSession(self.command, ground)
