"""A workbench job's input, checked, and the puzzle it names, read: the
puzzle and a pasted spec come as text, and a spec is named only among the
built-in ones, so nothing here opens a file a request names.
"""

from __future__ import annotations

from ...runtime.errors import PzcError
from ..specs import SpecChoice, builtin_aliases, builtin_source, builtin_specs, load_spec

ACTIONS = ("read", "solve", "unique", "deduce", "explain", "generate")
PASTED_SPEC = "<pasted spec>"
PUZZLE_NAME = "puzzle"          # the pasted puzzle's name in messages (it is no file)
BACKENDS = ("sat", "smt")


class Request:
    """A job's input, checked: which task, the puzzle's text, the spec (a
    built-in name, pasted text, or neither: the puzzle's puzz.link type
    chooses), the time limit, the backend, generate's size and seed."""

    def __init__(self, given: dict):
        def text(key):
            value = given.get(key) or ""
            if not isinstance(value, str):
                raise PzcError(f"'{key}' must be text")
            return value

        self.action = text("action")
        if self.action not in ACTIONS:
            raise PzcError(f"unknown action {self.action!r} (actions: {', '.join(ACTIONS)})")
        self.puzzle = text("puzzle")
        self.spec_name = text("spec").strip()
        self.spec_text = text("spec_text")
        self.backend = text("backend").strip() or "sat"
        if self.backend not in BACKENDS:
            raise PzcError(f"unknown backend {self.backend!r} (backends: {', '.join(BACKENDS)})")
        self.timeout = _number(given.get("timeout"), "time limit", 0.1)
        self.seed = _number(given.get("seed"), "seed", 0, whole=True)
        self.size = _size(text("size"))


def time_limit(given: dict) -> float | None:
    """The job's time limit in seconds (None: none, or none that reads)."""
    try:
        return _number(given.get("timeout"), "time limit", 0.1)
    except PzcError:
        return None


def _number(value, what, least, whole=False):
    if value is None or value == "":
        return None
    try:
        n = float(value)
    except (TypeError, ValueError):
        raise PzcError(f"the {what} must be a number, not {value!r}") from None
    if n != n or n < least or n > 1e9 or (whole and n != int(n)):
        raise PzcError(f"the {what} must be {'a whole number ' if whole else 'a number '}"
                       f"of at least {least}, not {value!r}")
    return int(n) if whole else n


def _size(text: str):
    """generate's board size: 'WxH', 'N' or '' (the spec's own)."""
    t = text.strip().lower().replace(" ", "")
    if not t:
        return None
    w, _, h = t.partition("x")
    if not w.isdigit() or (h and not h.isdigit()) or not 1 <= int(w) <= 100 or (
            h and not 1 <= int(h) <= 100):
        raise PzcError(f"the size must be WxH or N (at most 100), e.g. 10x10, not {text!r}")
    return int(w), int(h) if h else None


# the built-in specs, loaded once before the jobs are forked (warm.py); a job
# that changes its copy changes only its own process's
BUILT_IN: dict = {}


def preload_builtins() -> None:
    for name in builtin_specs():
        builtin(name)


def builtin(name: str):
    if name not in BUILT_IN:
        BUILT_IN[name] = load_spec(name, builtin_source(name))
    return BUILT_IN[name]


def chosen_spec(req: Request):
    """The spec that reads the puzzle (None: the puzzle's type chooses)."""
    if req.spec_text.strip():
        return load_spec(PASTED_SPEC, (req.spec_text, PASTED_SPEC))
    if not req.spec_name:
        return None
    name = req.spec_name
    if name not in builtin_specs():
        name = builtin_aliases().get(name, name)
    if name not in builtin_specs():     # never a path: only the built-in specs are named
        raise PzcError(f"no built-in spec named {req.spec_name!r}")
    return builtin(name)


class PageSpecChoice(SpecChoice):
    """The spec of each puzzle as the command line chooses it, but where a
    puzzle names no type the page's own advice (its Spec list)."""

    def __call__(self, ptype, fail):
        if ptype is None:
            raise fail("this names no puzzle type (it is no puzz.link URL or pzprv3 file): "
                       "choose its spec in the Spec list, or paste your own")
        return super().__call__(ptype, fail)


def read_puzzle(req: Request) -> tuple:
    """(spec, instance) of the pasted puzzle: its first instance."""
    if not req.puzzle.strip():
        if req.action == "generate":
            return chosen_spec(req), None
        raise PzcError("paste a puzz.link URL, a pzprv3 file or a text instance first")
    choice = PageSpecChoice(chosen_spec(req))
    choice.loaded.update(BUILT_IN)
    found = choice.read(PUZZLE_NAME, text=req.puzzle)
    if not found:
        raise PzcError("the text holds no puzzle")
    spec, inst = found[0]
    if inst.unreadable is not None:
        raise inst.unreadable
    return spec, inst
