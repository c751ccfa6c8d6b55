"""The Python API: everything the command line does, callable the same way.

    from pzc import api
    spec = api.load_spec("sudoku")
    for inst in api.load_instances(spec, "puzzles.txt"):
        result = api.solve(spec, inst)
        print(result.status, result.grid)

solve, count and unique take ``progress``, a callback called as
``progress(event, **figures)`` while they work: the phases grounding, encoding,
solving and verifying as they begin, ``round`` (rounds=, cuts=) for each round
of lazy connectivity cuts, ``depth`` (steps=) as plan deepening tries longer
plans, ``solution`` (count=) as counting finds each distinct board.  progress.py
lists them; the command line draws them on a terminal.  The callback is
always called in this process, also for rounds solved in a worker process
under a time limit (backends/worker.py).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .runtime import clock
from .backends import deepen, get_backend, watched
from .runtime.clock import Timeout
from .encoder import check as check_stage
from .encoder import syntax
from .encoder import cnf as cnf_stage
from .encoder import dimacs as dimacs_stage
from .formats import binding as puzzlink
from .encoder.decode import decode
from .encoder.enumerate import Enumeration, differences, enumerate_solutions, marked_rows
from .runtime.gc_pause import without_gc
from .encoder.ground import board_option, ground
from .encoder.instance import Grids, Instance, read_file, read_instances
from .encoder.instance import decode as decode_file
from .tasks.pictures import draw
from .tasks.pictures.draw import picture, plan_pictures
from .encoder.render import grid_rows, move_text, moves, plan_boards, text_drawing
from .encoder.unroll import unroll
from .encoder.verify import verify
from .runtime.deep_stack import deep_stack
from .runtime.errors import PzcError
from .runtime.progress import no_progress

# exit codes
EXIT_OK, EXIT_UNSAT, EXIT_USAGE, EXIT_TIMEOUT, EXIT_VERIFY = 0, 1, 2, 3, 4
DEFAULT_MAX_STEPS = 200      # a plan search stops there unless told otherwise


def builtin_specs() -> dict:
    """Built-in spec name -> spec text resource."""
    root = resources.files("pzc").joinpath("specs")
    return {p.name[:-3]: p for p in sorted(root.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".pz")}


_URL_LINE = re.compile(r"^url\s+([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:", re.M)


def builtin_aliases() -> dict:
    """puzz.link type name -> the built-in spec that reads it (from the specs'
    `url` lines: `url lightup, akari: ...` makes lightup and akari name akari's spec)."""
    out = {}
    for name, path in builtin_specs().items():
        m = _URL_LINE.search(path.read_text(encoding="utf-8"))
        for alias in re.split(r"\s*,\s*", m.group(1)) if m else []:
            if alias != name:
                out.setdefault(alias, name)
    return out


def spec_for_puzzle(argument: str) -> str | None:
    """The built-in spec for a puzz.link URL, or a pzprv3 file, given where a
    spec was expected (`pzc solve URL`); None for anything else.  An unknown
    puzz.link type is an error."""
    ptype = None
    if puzzlink.is_url(argument):
        try:
            ptype = puzzlink.parse_url(argument.strip()).type
        except puzzlink.FormatError:
            return None         # read again as an instance: the error is shown there
    elif not argument.endswith(".pz") and Path(argument).is_file():
        try:
            with open(argument, encoding="utf-8") as f:
                head = f.read(4096)
        except (OSError, UnicodeDecodeError):
            return None
        if puzzlink.is_pzprv3(head):
            lines = [line.strip() for line in head.split("\n")]
            ptype = lines[2] if lines[0].startswith("v:") and len(lines) > 2 else (
                lines[1] if len(lines) > 1 else None)
        else:
            first = next((line for line in head.split("\n")
                          if line.strip() and not line.lstrip().startswith("#")), "")
            if puzzlink.is_url(first):
                return spec_for_puzzle(first)
    if ptype is None:
        return None
    builtin = builtin_specs()
    if ptype in builtin:
        return ptype
    name = builtin_aliases().get(ptype)
    if name is None:
        raise PzcError(f"no built-in spec reads puzz.link's '{ptype}' puzzles; give a spec "
                       f"(pzc specs lists the built-in ones and their puzz.link types)")
    return name


@deep_stack
def load_spec(name_or_path: str, source: tuple | None = None) -> syntax.Spec:
    """Parse and check a built-in spec (by name or puzz.link type name) or a
    .pz file (by path).  ``source``: (text, path) as spec_source gave them,
    parsed as they are (pzc batch sends them to cluster workers)."""
    text, path = source if source is not None else spec_source(name_or_path)
    spec = syntax.parse(text, path)
    check_stage.check(spec)
    if spec.generate is not None:        # its generate lines are checked too
        from .tasks.generate.driver import prepare
        prepare(spec)
    return spec


def spec_source(name_or_path: str) -> tuple:
    """(text, path) of a built-in spec (by name or puzz.link type name) or a
    .pz file (by path)."""
    builtin = builtin_specs()
    if name_or_path not in builtin and not Path(name_or_path).exists():
        name_or_path = builtin_aliases().get(name_or_path, name_or_path)
    # a built-in name wins over anything but a file (a folder named 'numberlink'
    # beside the instances must not hide the spec)
    if name_or_path in builtin and not Path(name_or_path).is_file():
        text = builtin[name_or_path].read_text(encoding="utf-8")
        path = f"<builtin>/{name_or_path}.pz"
    else:
        if not Path(name_or_path).exists():
            raise PzcError(f"no built-in spec or file named {name_or_path!r} "
                           f"(built-in specs: {', '.join(builtin)})")
        text = read_file(name_or_path, "spec file").text
        path = name_or_path
    return text, path


def instance_file(path: str) -> str | None:
    """The file an INSTANCE argument reads: itself, FILE for FILE#KEY, '-'
    for standard input; None for a puzz.link URL."""
    if puzzlink.is_url(path):
        return None
    base, _, key = path.rpartition("#")
    if base and key and path != "-" and not Path(path).exists() and Path(base).is_file():
        return base
    return path


@deep_stack
def load_instances(spec: syntax.Spec, path: str, only: str | None = None,
                   text=None, read: str | None = None) -> list:
    """Read every instance in a file ('-' for standard input) for this spec:
    a text or JSON file, a puzz.link URL, a file of URLs (one a line) or a
    pzprv3 file.  ``only``: of a dataset file, just the entry of that name.
    ``text`` (bytes or str): the contents of the file ``read`` (default:
    path itself; FILE for a FILE#KEY path), already read elsewhere, so that
    the file is not opened here (pzc batch sends it to cluster workers)."""
    if puzzlink.is_url(path):
        return [puzzlink.read_url(spec, path, path.strip())]
    if text is None:
        read = instance_file(path)
    base, _, key = path.rpartition("#")
    if read is not None and read != path and read == base:
        # FILE#KEY: one instance of a file holding several (a dataset entry, the k-th)
        every = load_instances(spec, base, only=path, text=text)
        found = [inst for inst in every if inst.name == path]
        if not found and key.isdigit() and 1 <= int(key) <= len(every):
            found = [every[int(key) - 1]]          # FILE#1 of a file holding one
        if not found:
            raise PzcError(f"{base} holds no instance named {path} (instances are named "
                           f"FILE#1, FILE#2, ... or, in a dataset file, FILE#KEY)")
        return found
    source = read_file(path) if text is None else decode_file(
        "<stdin>" if path == "-" else path, text)
    if spec.board.kind == "square" and puzzlink.is_pzprv3(source.text):
        return [puzzlink.read_pzprv3(spec, source)]
    urls = _url_lines(source)
    if urls:
        found = []
        for k, (n, url) in enumerate(urls, 1):
            name = f"{source.path}#{k}" if len(urls) > 1 else source.path
            try:
                found.append(puzzlink.read_url(spec, url, name, source, n))
            except PzcError as e:      # one bad URL is its own error; the others run
                found.append(Instance(name, source, "tokens", None, unreadable=e))
        return found
    blank_opt = board_option(spec, "blank")
    blank = blank_opt.value.value if blank_opt is not None else "."
    lines = board_option(spec, "lines") is not None
    each_opt = board_option(spec, "each")
    each = each_opt.value.value if each_opt is not None else None
    target = board_option(spec, "target") is not None
    return read_instances(source, spec.board.kind, blank=blank, lines=lines, each=each,
                          target=target, grids=grids_of(spec), only=only)


def write_instance(spec: syntax.Spec, inst: Instance, form: str) -> str:
    """An instance as a puzz.link URL ('url'), a pzprv3 file ('pzprv3') or a
    pzc text instance ('text')."""
    if form == "url":
        return puzzlink.write_url(spec, inst)
    if form == "pzprv3":
        return puzzlink.write_pzprv3(spec, inst)
    blank_opt = board_option(spec, "blank")
    return puzzlink.write_text(spec, inst, blank_opt.value.value[0] if blank_opt else ".")


def _url_lines(source) -> list:
    """(line, URL) of a file whose first line holding anything is a puzz.link
    URL: one URL a line; '#' comment lines and blank lines are skipped.
    Anything else on a line is an error there."""
    lines = [(n, line) for n, line in enumerate(source.text.split("\n"), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines or not puzzlink.is_url(lines[0][1]):
        return []
    for n, line in lines:
        if not puzzlink.is_url(line):
            col = len(line) - len(line.lstrip()) + 1
            raise source.error((n, col), "this file holds puzz.link URLs, one a line, but "
                                         "this line is not one")
    return lines


def grids_of(spec: syntax.Spec) -> Grids:
    """The grids and parameters the spec's instances hold."""
    return Grids(tuple(spec.layer_names), tuple(spec.params),
                 tuple((name, p.default.value) for name, p in spec.params.items()
                       if p.default is not None))


@dataclass(eq=False)
class Result:
    """The outcome for one instance, with the fields of the JSON output."""
    instance: str
    spec: str
    status: str                     # solved, unsat, timeout, error
    grid: list | None = None
    moves: list | None = None
    verified: bool | None = None
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK
    steps: int | None = None        # plans: the number of moves (a shortest plan)
    boards: list | None = None      # plans: the board after each move, the start first
    hint: str | None = None         # "explain": a board with no solution, pzc explain says why
    # the `show text ...` drawing is made when first read (only text output
    # prints it, and drawing a big board costs as much as verifying it)
    _draw: object = field(default=None, repr=False)
    # the answer's shown tokens (draw.Picture; a list of them, the start
    # first, for a plan), made when first read: only --format svg draws
    _picture: object = field(default=None, repr=False)

    @property
    def picture(self):
        """The answer's draw.Picture (plans: one a board, the start first; None
        without an answer)."""
        if callable(self._picture):
            self._picture = self._picture()
        return self._picture

    @property
    def drawing(self) -> list | None:
        """The rows of the spec's `show text` drawing (None without one)."""
        if callable(self._draw):
            self._draw = self._draw()
        return self._draw

    def to_json(self, boards: bool = False) -> dict:
        out = {"instance": self.instance, "spec": self.spec, "status": self.status,
               "grid": self.grid, "moves": self.moves, "verified": self.verified,
               "stats": self.stats}
        if self.steps is not None:
            out["steps"] = self.steps
            out["shortest"] = self.status == "solved"
        if boards and self.boards is not None:
            out["boards"] = self.boards
        if self.hint is not None:
            out["hint"] = self.hint
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


def _stats(ground_s, st) -> dict:
    out = {"backend": st.get("backend"), "solver": st.get("solver"),
           "variables": st.get("variables"), "clauses": st.get("clauses"),
           "compile_s": round(ground_s + st.get("encode_s", 0.0), 4),
           "solve_s": round(st.get("solve_s", 0.0), 4)}
    for key in ("connectivity", "rounds", "cuts", "made_eager", "rules", "reachability",
                "members", "portfolio_s"):
        if key in st:
            out[key] = st[key]
    return out


def _ground(spec, instance, result, progress=no_progress):
    """Ground, or record the error in ``result``; returns (ground, seconds)."""
    progress("grounding")
    start = time.perf_counter()
    try:
        return ground(spec, instance), time.perf_counter() - start
    except PzcError as e:
        result.error = e
        result.exit_code = e.exit_code
        return None, 0.0


def _instance_clock(timeout):
    """The instance's time limit (clock.py), started once the solvers an
    earlier instance left behind at its limit are freed."""
    clock.release_left_behind()
    return clock.limit(timeout)


def _solver(spec, backend, solver):
    """--solver if given, else the spec's `solver` line on the SAT backend;
    the portfolio's members written out (the spec's solver where a sat member
    names none)."""
    if backend == "portfolio":
        from .backends.portfolio import DEFAULT, normalize
        if (solver is None or solver.strip() == DEFAULT) and spec.portfolio is not None:
            solver = spec.portfolio.members          # the spec's own portfolio line
        return normalize(solver, spec.solver.name if spec.solver is not None else None)
    if solver is None and backend == "sat" and spec.solver is not None:
        return spec.solver.name
    return solver


@without_gc      # the whole pipeline: its objects die with it, by reference counting
@deep_stack
def solve(spec: syntax.Spec, instance: Instance, backend: str = "sat",
          solver: str | None = None, timeout: float | None = None,
          connectivity: str | None = None, solver_cmd: str | None = None,
          max_steps: int = DEFAULT_MAX_STEPS, progress=no_progress) -> Result:
    """Ground, encode, solve, decode, verify and render one instance.

    ``connectivity`` (lazy or eager) picks the SAT encoding of connected(...);
    ``solver_cmd`` is the DIMACS solver command of the external backend; a
    move puzzle (a spec with a plan) gets a shortest plan of at most
    ``max_steps`` moves; ``progress`` is called as the module says."""
    progress = progress or no_progress
    if spec.plan is not None:
        return solve_plan(spec, instance, backend, solver, timeout, max_steps, progress)
    engine = get_backend(backend, _solver(spec, backend, solver), connectivity, solver_cmd)
    result = Result(instance.name, spec.name, "error")
    started = time.perf_counter()
    deadline = _instance_clock(timeout)
    try:
        with deadline:
            return _solve_board(spec, instance, engine, result, progress)
    except Timeout as e:         # outside the with: it can come while the block is left
        deadline.leave()             # what __exit__ did not do, if it came there
        clock.leave_behind(e)        # its frames hold what was built so far
        return _timed_out(result, engine, started)


def _solve_board(spec, instance, engine, result, progress) -> Result:
    g, ground_s = _ground(spec, instance, result, progress)
    if g is None:
        return result
    try:
        outcome = engine.solve(g, clock.left(), progress)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    result.stats = _stats(ground_s, outcome.stats)
    return _finish(result, spec, instance, g, outcome.status, outcome.assignment,
                   progress=progress)


@deep_stack
def solve_plan(spec: syntax.Spec, instance: Instance, backend: str = "sat",
               solver: str | None = None, timeout: float | None = None,
               max_steps: int = DEFAULT_MAX_STEPS, progress=no_progress) -> Result:
    """A shortest plan: one step more per round on one incremental solver."""
    progress = progress or no_progress
    if max_steps < 0:
        raise PzcError(f"--max-steps is a number of moves, at least 0, not {max_steps}")
    if backend not in ("sat", "smt"):
        raise PzcError(f"move puzzles are solved on the sat or smt backend, not {backend!r} "
                       "(a plan grows a step at a time on one incremental solver)"
                       + ("; leave out --portfolio" if backend == "portfolio" else ""))
    engine = get_backend(backend, _solver(spec, backend, solver),
                         "eager" if backend == "sat" else None)
    result = Result(instance.name, spec.name, "error")
    started = time.perf_counter()
    deadline = _instance_clock(timeout)
    try:
        with deadline:
            return _solve_plan(spec, instance, engine, result, max_steps, progress)
    except Timeout as e:         # outside the with: it can come while the block is left
        deadline.leave()             # what __exit__ did not do, if it came there
        clock.leave_behind(e)        # its frames hold what was built so far
        return _timed_out(result, engine, started)


def _solve_plan(spec, instance, engine, result, max_steps, progress) -> Result:
    progress("grounding")
    start = time.perf_counter()
    try:
        plan = unroll(spec, instance)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    ground_s = time.perf_counter() - start
    try:
        with watched(engine, plan, progress) as session:
            outcome = deepen(plan, session, max_steps)
            stats = dict(session.stats)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    steps = outcome.stats["steps"]
    result.stats = dict(_stats(ground_s, stats), steps=steps)
    if outcome.status == "unsat":
        result.status, result.exit_code = "unsat", EXIT_UNSAT
        result.error = PzcError(f"no plan of at most {max_steps} moves "
                                "(--max-steps raises the bound)", exit_code=EXIT_UNSAT)
        return result
    _finish(result, spec, instance, plan, outcome.status, outcome.assignment, steps, progress)
    if result.status == "solved":
        result.steps = steps
    return result


def _timed_out(result, engine, started):
    """The instance ran out of time before a solver ran (grounding, encoding)."""
    result.status, result.exit_code, result.error = "timeout", EXIT_TIMEOUT, None
    result.stats = _stopped_stats(engine, started)
    return result


def stopped_stats(spec: syntax.Spec, backend: str = "sat", solver: str | None = None,
                  connectivity: str | None = None, solver_cmd: str | None = None) -> dict:
    """The stats of a result stopped before anything ran (the time limit
    reached while reading the instance file)."""
    engine = get_backend(backend, _solver(spec, backend, solver), connectivity, solver_cmd)
    return _stopped_stats(engine, time.perf_counter())


def _stopped_stats(engine, started) -> dict:
    return dict(engine.describe(), variables=None, clauses=None,
                compile_s=round(time.perf_counter() - started, 4), solve_s=0.0)


def _finish(result, spec, instance, g, status, assignment, steps=None,
            progress=no_progress) -> Result:
    """Decode, verify and render a backend's answer into ``result``."""
    if status == "timeout":
        clock.leave_behind(g)            # freed before the next instance's clock
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
        return result
    if status == "unsat":
        result.status, result.exit_code, result.hint = "unsat", EXIT_UNSAT, "explain"
        return result
    result.status = "solved"
    progress("verifying")
    try:
        answer = decode(g, assignment, steps)
        problems = verify(spec, instance, answer)
    except PzcError as e:
        problems = [e.message]
    result.verified = not problems
    if problems:
        result.error = PzcError("verification failed (a bug in pzc): " + "; ".join(problems[:3]),
                                exit_code=EXIT_VERIFY)
        result.exit_code = EXIT_VERIFY
        return result
    try:
        _render(result, spec, instance, answer, steps)
    except PzcError as e:
        result.status, result.error, result.exit_code = "error", e, e.exit_code
    return result


def _render(result, spec, instance, answer, steps=None) -> Result:
    """A verified answer's grid and moves in ``result``; its `show text`
    drawing and pictures made when first read."""
    result.grid = grid_rows(spec, instance, answer)
    result.moves = moves(spec, instance, answer)
    if spec.show_text is not None:
        result._draw = lambda: text_drawing(spec, instance, answer)
    if steps is not None:
        result.boards = plan_boards(spec, instance, answer)
        result._picture = lambda: plan_pictures(spec, instance, answer)
    else:
        result._picture = lambda: picture(spec, instance, answer)
    return result


@dataclass(eq=False)
class CountResult:
    """The outcome of counting one instance's solutions."""
    instance: str
    spec: str
    status: str                     # counted, timeout, error
    count: int = 0
    complete: bool = False
    solutions: list = field(default_factory=list)    # boards (grid rows), in order found
    moves: list = field(default_factory=list)         # their move lists, for specs with moves
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK

    def to_json(self, show: bool = False) -> dict:
        out = {"instance": self.instance, "spec": self.spec, "count": self.count,
               "complete": self.complete, "status": self.status, "stats": self.stats}
        if show:
            out["solutions"] = self.solutions
            if any(m is not None for m in self.moves):
                out["moves"] = self.moves
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@without_gc
@deep_stack
def count(spec: syntax.Spec, instance: Instance, backend: str = "sat",
          solver: str | None = None, timeout: float | None = None,
          limit: int | None = None, connectivity: str | None = None,
          solver_cmd: str | None = None, progress=no_progress) -> CountResult:
    """Count the distinct boards that solve ``instance`` (up to ``limit``).

    ``complete`` says whether every solution was found; ``progress`` is
    called as the module says, ``solution`` as each distinct board comes."""
    progress = progress or no_progress
    result = CountResult(instance.name, spec.name, "error")
    engine = get_backend(backend, _solver(spec, backend, solver), connectivity, solver_cmd)
    started = time.perf_counter()
    deadline = _instance_clock(timeout)
    try:
        with deadline:
            return _count(spec, instance, engine, limit, progress, result)
    except Timeout as e:         # outside the with: it can come while the block is left
        deadline.leave()             # what __exit__ did not do, if it came there
        clock.leave_behind(e)
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
        result.stats = _stopped_stats(engine, started)
        result._found = Enumeration(timed_out=True)
        return result


def _count(spec, instance, engine, limit, progress, result) -> CountResult:
    g, ground_s = _ground(spec, instance, result, progress)
    if g is None:
        return result
    try:
        with watched(engine, g, progress) as session:
            found = enumerate_solutions(g, session, limit, progress)
            result.stats = _stats(ground_s, session.stats)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    result.count = len(found.solutions)
    result.complete = found.complete
    result.solutions = [s.grid for s in found.solutions]
    result.moves = [s.moves for s in found.solutions]
    result._found = found
    if found.timed_out:
        clock.leave_behind(g)
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
    else:
        result.status = "counted"
    return result


@dataclass(eq=False)
class UniqueResult:
    """Whether one instance has exactly one solution, with two witnesses if not."""
    instance: str
    spec: str
    status: str                     # unique, several, none, timeout, error
    witnesses: list = field(default_factory=list)     # their boards (grid rows)
    moves: list = field(default_factory=list)         # their move lists, for specs with moves
    differ: list = field(default_factory=list)
    marks: list | None = None       # a board with '*' where the witnesses differ
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK

    @property
    def unique(self) -> bool:
        return self.status == "unique"

    def to_json(self) -> dict:
        out = {"instance": self.instance, "spec": self.spec, "unique": self.unique,
               "status": self.status, "witnesses": self.witnesses, "differ": self.differ,
               "stats": self.stats}
        if any(m is not None for m in self.moves):
            out["moves"] = self.moves
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@deep_stack
def unique(spec: syntax.Spec, instance: Instance, backend: str = "sat",
           solver: str | None = None, timeout: float | None = None,
           connectivity: str | None = None, solver_cmd: str | None = None,
           progress=no_progress) -> UniqueResult:
    """Look for two solutions: exactly one means unique (exit 0), else exit 1;
    ``progress`` is called as count calls it."""
    counted = count(spec, instance, backend, solver, timeout, 2, connectivity, solver_cmd,
                    progress)
    result = UniqueResult(instance.name, spec.name, "error", stats=counted.stats,
                          error=counted.error, exit_code=counted.exit_code)
    if counted.error is not None:
        return result
    found = result._found = counted._found
    result.witnesses = [s.grid for s in found.solutions]
    result.moves = [s.moves for s in found.solutions]
    if len(found.solutions) >= 2:
        result.status, result.exit_code = "several", EXIT_UNSAT
        result.differ = differences(found.solutions[0], found.solutions[1])
        result.marks = marked_rows(instance, found.solutions[0], result.differ)
    elif found.timed_out:
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
    elif not found.solutions:
        result.status, result.exit_code = "none", EXIT_UNSAT
    else:
        result.status = "unique"
    return result


@deep_stack
def dimacs(spec: syntax.Spec, instance: Instance) -> tuple:
    """(DIMACS text, symbol table as JSON) with connectivity encoded eagerly."""
    g = ground(spec, instance)
    cnf = cnf_stage.encode(g.model, "eager")
    return dimacs_stage.to_dimacs(cnf, spec, instance), dimacs_stage.to_json_map(cnf, spec, instance)


@deep_stack
def decode_model(spec: syntax.Spec, instance: Instance, model_path: str) -> Result:
    """Read a SAT solver's answer for `pzc dimacs`'s formula, then decode,
    verify and render it like `solve` does."""
    result = Result(instance.name, spec.name, "error")
    g, ground_s = _ground(spec, instance, result)
    if g is None:
        return result
    try:
        source = read_file(model_path, "model file")
        cnf = cnf_stage.encode(g.model, "eager")
        status, lits = dimacs_stage.read_model(source.text, source.path)
        assignment = None
        if status == "sat":
            assignment = dimacs_stage.check_model(cnf, lits, source.path)
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result
    result.stats = {"backend": "model file", "solver": source.path, "variables": cnf.nvars,
                    "clauses": len(cnf.clauses), "compile_s": round(ground_s, 4), "solve_s": 0.0}
    if status == "unknown":
        status = "timeout"
    return _finish(result, spec, instance, g, status, assignment)


@deep_stack
def select_instance(spec: syntax.Spec, path: str) -> Instance:
    """One instance: `path`, or `path#k` for the k-th of a file holding several."""
    found = load_instances(spec, path)      # path#k and path#KEY pick one there
    if len(found) > 1:
        raise PzcError(f"{path} holds {len(found)} instances; name one as {path}#1 .. "
                       f"{path}#{len(found)}")
    return found[0]


def worst_exit(codes) -> int:
    """One exit code for many instances: a bug beats bad input beats a timeout
    beats no solution beats success."""
    order = [EXIT_VERIFY, EXIT_USAGE, EXIT_TIMEOUT, EXIT_UNSAT]
    codes = set(codes)
    for c in order:
        if c in codes:
            return c
    return EXIT_OK


_PICTURE_STATUS = {"unsat": "no solution", "timeout": "time limit reached", "none": "no solution"}


def picture_document(spec: syntax.Spec, instance: Instance, result,
                     solutions: bool = True) -> draw.Document | None:
    """The picture of a solve, count or unique result (--format svg): the answer
    (a plan's boards, the start first), several solutions side by side with
    where two differ marked, or the bare puzzle when there is no answer to show;
    None for an instance that could not be read.  ``solutions``: a count's
    solutions are drawn (count --show), else only the puzzle."""
    if result.status == "error":
        return None
    heading = f"{instance.name}: {_picture_heading(result)}"
    if isinstance(result, CountResult):
        found = getattr(result, "_found", None)
        sols = found.solutions if found is not None and solutions else []
        if sols:
            figs = [draw.board_figure(spec, instance, draw.solution_picture(spec, s.cells))
                    for s in sols]
            return draw.Document(heading, svg=draw.side_by_side(
                figs, [f"solution {k}" for k in range(1, len(figs) + 1)], heading))
    elif isinstance(result, ExplainResult):
        return _explain_document(spec, instance, result, heading)
    elif isinstance(result, UniqueResult):
        found = getattr(result, "_found", None)
        sols = found.solutions[:2] if found is not None else []
        if len(sols) == 2:
            figs = [draw.board_figure(spec, instance, draw.solution_picture(spec, s.cells),
                                      marks=[tuple(c) for c in result.differ]) for s in sols]
            return draw.Document(heading, svg=draw.side_by_side(
                figs, ["first", "second (differences marked)"], heading))
        if len(sols) == 1:
            return draw.Document(heading, svg=draw.board_svg(
                spec, instance, draw.solution_picture(spec, sols[0].cells), title=heading))
    elif result.status == "solved" and result.steps is not None:
        pics = result.picture
        captions = ["start"] + [f"{k}. {move_text(m)}" for k, m in enumerate(result.moves, 1)]
        frames = [draw.board_svg(spec, instance, p, title=f"{heading}, {c}")
                  for p, c in zip(pics, captions)]
        return draw.Document(heading, frames=frames, captions=captions)
    elif result.status == "solved":
        return draw.Document(heading, svg=draw.board_svg(spec, instance, result.picture,
                                                         title=heading))
    return draw.Document(heading, svg=draw.board_svg(spec, instance, None, title=heading))


def generated_document(spec: syntax.Spec, g) -> draw.Document:
    """A generated puzzle beside its solution (solved again to draw it)."""
    heading = f"seed {g.seed}: {g.clues} clues"
    solved = solve(spec, g.instance)
    figs = [draw.board_figure(spec, g.instance)]
    captions = ["puzzle"]
    if solved.status == "solved":
        figs.append(draw.board_figure(spec, g.instance, solved.picture))
        captions.append("solution")
    return draw.Document(heading, svg=draw.side_by_side(figs, captions, heading))


def _explain_document(spec, instance, result, heading) -> draw.Document:
    """explain --format svg: the core's clues filled red and the cells its rule
    instances name outlined, the members listed below; the answer when unique;
    two solutions, where they differ and the suggested clue when several."""
    if result.status == "unsat":
        notes = [f"{c['at']}: clue ({c['cell'][0]}, {c['cell'][1]}) = {c['token']}"
                 for c in result.core_clues]
        notes += [f"{r['at']}: {'implied rule' if r['implied'] else 'rule'} {r['rule']}"
                  + (f", {r['shown']}" if r["shown"] else "") for r in result.core_rules]
        clue_cells = [tuple(c["cell"]) for c in result.core_clues]
        rule_cells = [tuple(c) for r in result.core_rules for c in r["cells"]]
        return draw.Document(heading, svg=draw.board_svg(
            spec, instance, None, highlight=clue_cells, involved=rule_cells,
            notes=notes, title=heading))
    if result.status == "unique" and result.solved is not None:
        return draw.Document(heading, svg=draw.board_svg(spec, instance, result.solved.picture,
                                                         title=heading))
    if result.status == "several" and result.several is not None:
        sols = result.several._found.solutions[:2]
        s = result.suggestion
        suggest = [tuple(s["cell"])] if s is not None else []
        differ = [tuple(c) for c in result.several.differ]
        figs = [draw.board_figure(spec, instance, draw.solution_picture(spec, sol.cells),
                                  marks=differ, suggest=suggest if k == 0 else ())
                for k, sol in enumerate(sols)]
        captions = ["first" + (f" (add clue {s['token']} at ({s['cell'][0]}, {s['cell'][1]}))"
                               if s is not None else ""), "second (differences marked)"]
        return draw.Document(heading, svg=draw.side_by_side(figs, captions, heading))
    return draw.Document(heading, svg=draw.board_svg(spec, instance, None, title=heading))


def _picture_heading(result) -> str:
    if isinstance(result, ExplainResult):
        return {"unsat": "no solution, explained", "unique": "exactly one solution",
                "several": "two solutions differ"}.get(
            result.status, _PICTURE_STATUS.get(result.status, result.status))
    if isinstance(result, CountResult):
        n = result.count
        more = "" if result.complete else " or more"
        return f"{n} solution{'' if n == 1 else 's'}{more}"
    if isinstance(result, UniqueResult):
        return {"unique": "exactly one solution", "several": "two solutions differ"}.get(
            result.status, _PICTURE_STATUS.get(result.status, result.status))
    if result.status == "solved":
        return "solved, verified" + (f", {result.steps} moves" if result.steps is not None else "")
    return _PICTURE_STATUS.get(result.status, result.status)


def generate(spec: syntax.Spec, size: tuple | None = None, count: int = 1,
             seed: int | None = None, timeout: float | None = None, params: dict | None = None,
             minimal: bool = True, solver: str | None = None, workers: int = 1,
             progress=no_progress, like: Instance | None = None):
    """Generate ``count`` puzzles with exactly one solution from the spec's
    `generate` lines (generator.py), yielded in seed order as they come.

    ``size``: (width, height) of a square board, (side, None) for a hexagon or
    a square; None: the spec's `generate size`.  Puzzle k has seed
    ``seed + k`` (a random start when None) and is made again from it alone.
    ``timeout``: seconds per puzzle.  ``minimal``: blank every clue that can go
    (else keep all the drawn solution gives).  ``workers``: processes.
    ``like``: an instance whose board, parameters and layers the puzzles
    take (instead of ``size``); its clues are left out."""
    from .tasks.generate import driver as generator
    from .backends.sat import check_solver_name, incremental
    from .tasks.generate import stages as gen_stage
    name = _solver(spec, "sat", solver)
    if name is not None and not incremental(check_solver_name(name)):
        raise PzcError(f"generate draws and repairs on one incremental solver with preferred "
                       f"values; {name} solves once and takes none: choose cadical195, "
                       f"glucose4 or minisat22")
    gspec = generator.prepare(spec)
    if like is not None:
        if size is not None:
            raise PzcError("give the board by --size or by --like, not both")
        blank = gen_stage.like_instance(spec, like, params or {})
    else:
        blank = gen_stage.blank_instance(spec, gen_stage.board_size(spec, size), params or {})
    options = dict(solver=solver, timeout=timeout, minimal=minimal, progress=progress)
    yield from generator.generate_many(spec, gspec, blank, generator.seeds(seed, count),
                                       workers, **options)


@dataclass(eq=False)
class ExplainResult:
    """Why an instance has no solution (a minimal core of clues and rule
    instances), or that it has one, or two and a clue that would tell them
    apart.  ``core_clues`` and ``core_rules`` carry the cells each member
    mentions (``cells``) for a picture to highlight (``highlight``)."""
    instance: str
    spec: str
    status: str                     # unsat, unique, several, timeout, error
    core_clues: list = field(default_factory=list)   # {cell, value, token, at}
    core_rules: list = field(default_factory=list)   # {rule, implied, binding, shown, at, cells}
    minimal: bool = False
    solved: Result | None = None            # unique: the answer, as solve gives it
    several: UniqueResult | None = None     # several: the two witnesses and where they differ
    suggestion: dict | None = None          # several: {cell, value, token, at, where, unique}
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK

    @property
    def highlight(self) -> list:
        """The cells of the core (clue cells, then the cells the rule
        instances' bindings name), for `board_svg(..., highlight=...)`."""
        cells = [tuple(c["cell"]) for c in self.core_clues]
        for r in self.core_rules:
            cells += [tuple(c) for c in r["cells"]]
        return list(dict.fromkeys(cells))

    def to_json(self) -> dict:
        out = {"file": self.instance, "spec": self.spec, "status": self.status}
        if self.status == "unsat":
            out["core"] = {"clues": [{k: c[k] for k in ("cell", "value", "at")}
                                     for c in self.core_clues],
                           "rules": [{k: r[k] for k in ("rule", "implied", "binding", "at",
                                                         "cells")}
                                     for r in self.core_rules]}
            out["minimal"] = self.minimal
        elif self.status == "unique" and self.solved is not None:
            out.update(grid=self.solved.grid, moves=self.solved.moves,
                       verified=self.solved.verified)
        elif self.status == "several" and self.several is not None:
            out.update(witnesses=self.several.witnesses, differ=self.several.differ,
                       suggestion=self.suggestion)
        out["stats"] = self.stats
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@deep_stack
def explain(spec: syntax.Spec, instance: Instance, backend: str = "sat",
            solver: str | None = None, timeout: float | None = None,
            connectivity: str | None = None, implied: bool = True,
            progress=no_progress) -> ExplainResult:
    """Explain ``instance``: with no solution, a minimal set of clues and
    rule instances that already has none (encoder/explain.py,
    backends/cores.py); with one, the answer; with several, two of them,
    where they differ and a clue that rules out the second.  Exit codes:
    0 unique, 1 no solution or several, 2 bad input, 3 time limit."""
    progress = progress or no_progress
    result = ExplainResult(instance.name, spec.name, "error")
    if spec.plan is not None:
        result.error = PzcError(f"explain is for board puzzles; {spec.name} is a move puzzle "
                                f"(pzc solve finds its shortest plan)")
        result.exit_code = EXIT_USAGE
        return result
    if backend not in ("sat", "smt"):
        result.error = PzcError(f"explain runs on the sat or smt backend, not {backend!r} "
                                "(it asks one incremental solver for assumption cores)")
        result.exit_code = EXIT_USAGE
        return result
    if connectivity is not None and backend != "sat":
        result.error = PzcError("--connectivity is for the sat backend")
        result.exit_code = EXIT_USAGE
        return result
    started = time.perf_counter()
    deadline = _instance_clock(timeout)
    try:
        with deadline:
            return _explain(spec, instance, backend, solver, connectivity or EXPLAIN_CONNECTIVITY,
                            implied, result, progress, started)
    except Timeout as e:
        deadline.leave()
        clock.leave_behind(e)
        result.status, result.exit_code, result.error = "timeout", EXIT_TIMEOUT, None
        result.stats = dict(backend=backend, solver=solver or
                            ("z3" if backend == "smt" else EXPLAIN_SOLVER),
                            explain_s=round(time.perf_counter() - started, 4))
        return result
    except PzcError as e:
        result.error, result.exit_code = e, e.exit_code
        return result


# lazy cuts, each guarded by its rule instance: eager ranks made 10x10
# Nurikabe cores take minutes (docs/benchmarks.md); CaDiCaL whatever the
# spec's `solver` line says (chosen for plain solves: Glucose took 10-100x
# longer on the many small questions of a Nurikabe core)
EXPLAIN_CONNECTIVITY = "lazy"
EXPLAIN_SOLVER = "cadical195"


def _explain(spec, instance, backend, solver, connectivity, implied, result, progress,
             started) -> ExplainResult:
    from .tasks.explain.cores import search_within
    from .tasks.explain import members as stage
    progress("grounding")
    found = stage.members(spec, instance, implied=implied)
    ground_s = time.perf_counter() - started
    progress("solving")
    name = solver or (EXPLAIN_SOLVER if backend == "sat" else None)
    reply = search_within(found, backend, name, connectivity, clock.left())
    st = reply["stats"]
    result.stats = dict(_stats(ground_s, st), members=len(found.members),
                        calls=st.get("calls"), explain_s=None)
    if reply["status"] == "sat":
        _explain_solvable(spec, instance, backend, solver, result)
    else:
        result.status, result.exit_code, result.minimal = "unsat", EXIT_UNSAT, True
        result.stats["first_core"] = st.get("first_core")
        _core(instance, found, reply["core"], result)
    result.stats["explain_s"] = round(time.perf_counter() - started, 4)
    return result


def _core(instance, found, core, result):
    """The core's members, with where they are written."""
    from .tasks.explain.members import CLUE, show_value
    from .encoder.render import to_json
    for i in core:
        m = found.members[i]
        if m.kind == CLUE:
            result.core_clues.append({"cell": list(m.cell), "value": m.value,
                                      "token": instance.tokens.get(m.cell, str(m.value)),
                                      "at": clue_at(instance, m.cell)})
        else:
            line, col = m.rule.pos
            result.core_rules.append({
                "rule": m.rule.name, "implied": m.rule.implied,
                "binding": {n: to_json(v) for n, v in m.binding},
                "shown": ", ".join(f"{n} = {show_value(v)}" for n, v in m.binding),
                "at": f"{found.ground.spec.source.path}:{line}:{col}",
                "cells": [list(c) for c in m.cells]})


def clue_at(instance, cell) -> str:
    """Where a cell is written: file:line:col, or the URL of a URL instance."""
    if puzzlink.is_url(instance.name):
        return instance.name
    pos = instance.positions.get(tuple(cell))
    if pos is None:
        return instance.source.path
    return f"{instance.source.path}:{pos[0]}:{pos[1]}"


SUGGEST_TRIES = 4       # clues re-solved at most, looking for one that makes it unique


def _explain_solvable(spec, instance, backend, solver, result):
    """One solution (the answer, as solve prints it) or several (two, where
    they differ, and a clue from the first that rules out the second)."""
    from .tasks.explain import members as stage
    several = unique(spec, instance, backend, solver)
    if several.status == "timeout":
        raise Timeout()
    if several.error is not None:
        raise several.error
    if several.status == "unique":
        result.status, result.exit_code = "unique", EXIT_OK
        # the answer the count found (verified there), not a solve of its own
        result.solved = _render(Result(instance.name, spec.name, "solved", verified=True,
                                       stats=several.stats),
                                spec, instance, several._found.solutions[0].answer)
        return
    if several.status != "several":          # the core search said sat: a bug
        raise PzcError(f"explain: the instance has a solution, but unique says "
                       f"{several.status} (a bug in pzc)", exit_code=EXIT_VERIFY)
    result.status, result.exit_code, result.several = "several", EXIT_UNSAT, several
    first, second = several._found.solutions[:2]
    found = None
    for cell, value in stage.clue_candidates(spec, instance, first, second, SUGGEST_TRIES):
        clock.check()
        extended = stage.with_clue(instance, cell, value)
        try:
            gone = bool(verify(spec, extended, second.answer))
        except PzcError:
            gone = True          # the second answer does not even fit the new board
        if not gone:
            continue
        again = unique(spec, extended, backend, solver)
        if again.status == "timeout":
            raise Timeout()
        if again.status not in ("unique", "several"):
            continue
        pos = instance.positions.get(cell)
        found = {"cell": list(cell), "value": value, "token": extended.tokens[cell],
                 "at": clue_at(instance, cell),
                 "where": (f"line {pos[0]}, column {pos[1]} of {instance.source.path}"
                           if pos is not None and not puzzlink.is_url(instance.name) else None),
                 "unique": again.status == "unique"}
        if found["unique"]:
            break
        if result.suggestion is None:
            result.suggestion = found
        found = None
    if found is not None:
        result.suggestion = found


def batch(spec_name_or_path: str, paths, workers: int | None = None, task: str = "solve",
          timeout: float | None = None, scheduler: str | None = None, done=frozenset(),
          progress=no_progress, **options):
    """Run ``task`` (solve, count or unique) on every instance of every file
    in ``paths``, spread over ``workers`` processes (default: all cores), and
    yield each instance's result as it finishes: the JSON object `pzc solve
    --format json` prints (count and unique: theirs), in the order they
    finish.  Instances named in ``done`` are skipped; an instance named twice
    runs once.  A file that cannot be read is one error result, named by its
    path.  ``scheduler``: a Dask scheduler's address (tcp://HOST:PORT) to run
    on that cluster instead, or "local" for a LocalCluster of ``workers``
    processes (batch.py).  ``timeout``: seconds per instance, counted from
    when a worker starts it.  ``options``: those of solve (backend, solver,
    connectivity, solver_cmd, max_steps), count (limit) or unique.
    ``progress`` is called as ``progress("batch", total=, skipped=)`` once
    the files are read and the workers started (total: the instances to run
    now; a callback may start threads from then on), then
    ``progress("finished", name=, status=, code=, wall_s=, cpu_s=)`` before
    each result is yielded (code: its exit code; cpu_s: the worker's CPU
    seconds on it, its solver processes included)."""
    from .tasks import batch as runner
    progress = progress or no_progress
    if task not in runner.TASKS:
        raise PzcError(f"the batch task is solve, count or unique, not {task!r}")
    if workers is not None and workers < 1:
        raise PzcError(f"a batch needs at least one worker, not {workers}")
    if scheduler is not None:
        runner.check_scheduler(scheduler)
    workers = workers or len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else workers or os.cpu_count() or 1
    spec = runner.spec_of({"spec": spec_name_or_path})
    get_backend(options.get("backend", "sat"), _solver(spec, options.get("backend", "sat"),
                                                        options.get("solver")),
                options.get("connectivity"), options.get("solver_cmd"))
    options = dict(options, timeout=timeout)
    source = spec_source(spec_name_or_path) if scheduler is not None else None
    tasks, texts, seen, failed, skipped = [], {}, set(done), [], 0
    for path in paths:
        stub = {"spec": spec_name_or_path, "file": path}
        read = instance_file(path)
        text = None
        if scheduler is not None and read is not None and read != "-":
            try:
                with open(read, "rb") as f:
                    text = f.read()
            except OSError:
                text = None          # load_instances says why
        try:
            found = runner.instances_of(spec, stub, text)
        except PzcError as e:
            name = "<stdin>" if path == "-" else path
            if name in seen:
                skipped += 1
            else:
                seen.add(name)
                failed.append((name, e))
            continue
        if scheduler is not None and read is not None:       # sent to the workers
            texts[read] = text if text is not None else _stdin_text(found)
        for k, inst in enumerate(found):
            if inst.name in seen:
                skipped += inst.name in done
                continue
            seen.add(inst.name)
            tasks.append(dict(stub, spec_source=source, read=read, index=k, name=inst.name,
                              task=task, options=options))
    def started():
        progress("batch", total=len(tasks) + len(failed), skipped=skipped)
        for name, e in failed:
            progress("finished", name=name, status="error", code=e.exit_code, wall_s=0.0,
                     cpu_s=0.0)

    if not tasks:
        started()
        replies = []
    elif scheduler is None:
        replies = runner.run_local(tasks, min(workers, len(tasks)), started)
    else:
        replies = runner.run_dask(tasks, texts, scheduler, workers, started)
    for name, e in failed:
        yield runner.error_result(task, name, spec.name, e)
    for reply in replies:
        result = reply["result"]
        progress("finished", name=reply["name"], status=result["status"],
                 code=reply["code"], wall_s=reply["wall_s"], cpu_s=reply["cpu_s"])
        yield result


def _stdin_text(found) -> str:
    """The text of standard input, read into these instances."""
    source = getattr(found[0], "source", None) if found else None
    return getattr(source, "text", "")
