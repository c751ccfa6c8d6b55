"""The Python API: everything the command line does, callable the same way.

    from pzc import api
    spec = api.load_spec("sudoku")
    for inst in api.load_instances(spec, "puzzles.txt"):
        result = api.solve(spec, inst)
        print(result.status, result.grid)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .backends import get_backend
from .encoder import check as check_stage
from .encoder import syntax
from .encoder.decode import decode
from .encoder.ground import board_option, ground
from .encoder.instance import Instance, read_file, read_instances
from .encoder.render import grid_rows, moves, text_drawing
from .encoder.verify import verify
from .errors import PzcError

# exit codes
EXIT_OK, EXIT_UNSAT, EXIT_USAGE, EXIT_TIMEOUT, EXIT_VERIFY = 0, 1, 2, 3, 4


def builtin_specs() -> dict:
    """Built-in spec name -> spec text resource."""
    root = resources.files("pzc").joinpath("specs")
    return {p.name[:-3]: p for p in sorted(root.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".pz")}


def load_spec(name_or_path: str) -> syntax.Spec:
    """Parse and check a built-in spec (by name) or a .pz file (by path)."""
    builtin = builtin_specs()
    if name_or_path in builtin and not Path(name_or_path).exists():
        text = builtin[name_or_path].read_text(encoding="utf-8")
        path = f"<builtin>/{name_or_path}.pz"
    else:
        p = Path(name_or_path)
        if not p.is_file():
            names = ", ".join(builtin)
            if p.exists():
                raise PzcError(f"{name_or_path} is not a spec file")
            raise PzcError(f"no built-in spec or file named {name_or_path!r} "
                           f"(built-in specs: {names})")
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise PzcError(f"cannot read {name_or_path}: {e}") from None
        path = name_or_path
    spec = syntax.parse(text, path)
    check_stage.check(spec)
    return spec


def load_instances(spec: syntax.Spec, path: str) -> list:
    """Read every instance in a file ('-' for standard input) for this spec."""
    source = read_file(path)
    blank_opt = board_option(spec, "blank")
    blank = blank_opt.value.value if blank_opt is not None else "."
    lines = board_option(spec, "lines") is not None
    return read_instances(source, spec.board.kind, blank=blank, lines=lines)


@dataclass(eq=False)
class Result:
    """The outcome for one instance, with the fields of the JSON output."""
    instance: str
    spec: str
    status: str                     # solved, unsat, timeout, error
    grid: list | None = None
    moves: list | None = None
    drawing: list | None = None     # `show text ...`, printed by --format text
    verified: bool | None = None
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK

    def to_json(self) -> dict:
        out = {"instance": self.instance, "spec": self.spec, "status": self.status,
               "grid": self.grid, "moves": self.moves, "verified": self.verified,
               "stats": self.stats}
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


def solve(spec: syntax.Spec, instance: Instance, backend: str = "sat",
          solver: str | None = None, timeout: float | None = None,
          connectivity: str | None = None) -> Result:
    """Ground, encode, solve, decode, verify and render one instance.

    ``connectivity`` (lazy or eager) picks the SAT encoding of connected(...)."""
    engine = get_backend(backend, solver, connectivity)
    result = Result(instance.name, spec.name, "error")
    start = time.perf_counter()
    try:
        g = ground(spec, instance)
    except PzcError as e:
        result.error = e
        result.exit_code = e.exit_code
        return result
    ground_s = time.perf_counter() - start
    remaining = None if timeout is None else max(0.0, timeout - ground_s)
    outcome = engine.solve(g, remaining)
    st = outcome.stats
    result.stats = {"backend": st.get("backend"), "solver": st.get("solver"),
                    "variables": st.get("variables"), "clauses": st.get("clauses"),
                    "compile_s": round(ground_s + st.get("encode_s", 0.0), 4),
                    "solve_s": round(st.get("solve_s", 0.0), 4)}
    for key in ("connectivity", "rounds", "cuts"):
        if key in st:
            result.stats[key] = st[key]
    if outcome.status == "timeout":
        result.status, result.exit_code = "timeout", EXIT_TIMEOUT
        return result
    if outcome.status == "unsat":
        result.status, result.exit_code = "unsat", EXIT_UNSAT
        return result
    result.status = "solved"
    try:
        answer = decode(g, outcome.assignment)
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
        result.grid = grid_rows(spec, instance, answer)
        result.moves = moves(spec, instance, answer)
        result.drawing = text_drawing(spec, instance, answer)
    except PzcError as e:
        result.status, result.error, result.exit_code = "error", e, e.exit_code
    return result


def worst_exit(codes) -> int:
    """One exit code for many instances: a bug beats bad input beats a timeout
    beats no solution beats success."""
    order = [EXIT_VERIFY, EXIT_USAGE, EXIT_TIMEOUT, EXIT_UNSAT]
    codes = set(codes)
    for c in order:
        if c in codes:
            return c
    return EXIT_OK
