"""Specs by name: the built-in ones (and the puzz.link types that name them),
.pz files, and the loader that parses and checks a spec, each layer checking
the lines it reads:

    syntax.parse -> encoder.check -> formats (url, file lines)
                 -> backends (solver, portfolio lines) -> generate (generate lines)
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from ..backends.choice import check_spec_lines as check_solver_lines
from ..encoder import check as check_stage
from ..encoder import syntax
from ..encoder.instance import read_file
from ..formats import binding as puzzlink
from ..formats.binding import check_spec_lines as check_format_lines
from ..formats.reading import load_by_type, load_instances, only_one
from ..runtime.deep_stack import deep_stack
from ..runtime.errors import PzcError
from .generate.driver import prepare as prepare_generation
from .generate.stages import board_made


def builtin_specs() -> dict:
    """Built-in spec name -> spec text resource."""
    root = resources.files("pzc").joinpath("specs")
    return {p.name[:-3]: p for p in sorted(root.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".pz")}


_TYPE_NAME = r"[A-Za-z_]\w*(?:-[A-Za-z_]\w*)*"
_TYPE_LINE = re.compile(rf"^(?:url|file)\s+({_TYPE_NAME}(?:\s*,\s*{_TYPE_NAME})*)\s*:", re.M)


def builtin_aliases() -> dict:
    """puzz.link type name -> the built-in spec that reads it (from the specs'
    `url` and `file` lines: `url lightup, akari: ...` makes lightup and akari
    name akari's spec)."""
    out = {}
    for name, path in builtin_specs().items():
        for m in _TYPE_LINE.finditer(path.read_text(encoding="utf-8")):
            for alias in re.split(r"\s*,\s*", m.group(1)):
                if alias != name:
                    out.setdefault(alias, name)
    return out


def builtin_for_type(ptype: str) -> str | None:
    """The built-in spec that reads puzz.link's ``ptype`` puzzles (None: none does)."""
    return ptype if ptype in builtin_specs() else builtin_aliases().get(ptype)


def _instance_head(argument: str) -> str | None:
    """The first 4 KB of a file an INSTANCE argument could name (not a .pz
    file); None when there is no such file to read."""
    if argument.endswith(".pz") or not Path(argument).is_file():
        return None
    try:
        with open(argument, encoding="utf-8") as f:
            return f.read(4096)
    except (OSError, UnicodeDecodeError):
        return None


def _first_line(head: str) -> str:
    return next((line for line in head.split("\n")
                 if line.strip() and not line.lstrip().startswith("#")), "")


def names_its_type(argument: str) -> bool:
    """Whether a command line word is an instance that names its own puzzle
    type, not a spec: a puzz.link URL (well formed or not), a pzprv3 file or
    a file of URLs."""
    if puzzlink.is_url(argument):
        return True
    head = _instance_head(argument)
    return head is not None and (puzzlink.is_pzprv3(head) or puzzlink.is_url(_first_line(head)))


def split_spec(spec: str, instances: list) -> tuple:
    """(SPEC, INSTANCE arguments) of a command line whose first positional
    word is ``spec``: SPEC is None when it was left out, the first word then
    being an instance that names its type (names_its_type); each instance is
    then read by the built-in spec of its own type (SpecChoice)."""
    if names_its_type(spec):
        return None, [spec] + list(instances)
    if not instances:
        raise PzcError(f"give at least one INSTANCE after the spec {spec!r} (or a "
                       f"puzz.link URL or pzprv3 file alone)")
    return spec, list(instances)


def spec_for_puzzle(argument: str) -> str | None:
    """The built-in spec for a puzz.link URL, or a pzprv3 file, given where a
    spec was expected (`pzc solve URL`); None for anything else (a URL that
    cannot be read too).  An unknown puzz.link type is an error."""
    ptype = None
    if puzzlink.is_url(argument):
        try:
            ptype = puzzlink.parse_url(argument.strip()).type
        except puzzlink.FormatError:
            return None
    else:
        head = _instance_head(argument)
        if head is None:
            return None
        if puzzlink.is_pzprv3(head):
            lines = [line.strip() for line in head.split("\n")]
            ptype = lines[2] if lines[0].startswith("v:") and len(lines) > 2 else (
                lines[1] if len(lines) > 1 else None)
        elif puzzlink.is_url(_first_line(head)):
            return spec_for_puzzle(_first_line(head))
    if ptype is None:
        return None
    name = builtin_for_type(ptype)
    if name is None:
        raise PzcError(f"no built-in spec reads puzz.link's '{ptype}' puzzles; give a spec "
                       f"(pzc specs lists the built-in ones and their puzz.link types)")
    return name


class SpecChoice:
    """Which spec reads each instance: the SPEC given, or, when it is left
    out (``spec`` None), the built-in spec of each instance's puzz.link type,
    each loaded once.  ``latest``: the spec of the instance read last (a time
    limit reached while reading a file says whose it was; None before any);
    ``latest_name`` its name, known before the spec is loaded (a limit
    reached while loading it still names it)."""

    def __init__(self, spec: syntax.Spec | None = None):
        self.spec = spec
        self.latest = spec
        self.latest_name = spec.name if spec is not None else None
        self.names: dict = {}          # puzz.link type -> the built-in spec's name (or None)
        self.loaded: dict = {}         # built-in spec name -> Spec

    @classmethod
    def of(cls, name_or_path: str | None) -> "SpecChoice":
        return cls(load_spec(name_or_path) if name_or_path is not None else None)

    def __call__(self, ptype: str | None, fail) -> syntax.Spec:
        """The built-in spec of puzz.link's ``ptype`` puzzles (formats/reading.py
        asks, ``fail(message)`` locating the error when there is none)."""
        if ptype is None:
            raise fail("this is no puzz.link URL, file of URLs or pzprv3 file, so it names no "
                       "puzzle type: give the spec that reads it first (SPEC INSTANCE...)")
        if ptype not in self.names:
            self.names[ptype] = builtin_for_type(ptype)
        name = self.names[ptype]
        if name is None:
            raise fail(f"no built-in spec reads puzz.link's '{ptype}' puzzles; give a spec "
                       f"first (pzc specs lists the built-in ones and their puzz.link types)")
        self.latest_name = name
        spec = self.loaded.get(name)
        if spec is None:
            # the built-in, even beside a file of its name
            spec = self.loaded[name] = load_spec(name, builtin_source(name))
        self.latest = spec
        return spec

    def builtin_name(self, spec: syntax.Spec) -> str:
        """The built-in name this choice loaded ``spec`` by."""
        return next(name for name, loaded in self.loaded.items() if loaded is spec)

    def read(self, path: str, text=None, read: str | None = None) -> list:
        """(spec, instance) of every instance of an INSTANCE argument (as
        formats/reading.py's load_instances reads them; ``text``, ``read``:
        as there).  A URL line of a file that cannot be read is an
        ``unreadable`` instance, with no spec when SPEC was left out."""
        if self.spec is not None:
            return [(self.spec, inst) for inst in load_instances(self.spec, path, text=text,
                                                                 read=read)]
        self.latest = self.latest_name = None
        return load_by_type(self, path, text=text, read=read)

    def select(self, path: str) -> tuple:
        """(spec, instance) of the one instance ``path`` names (path#k: the k-th)."""
        return only_one(path, self.read(path))


@deep_stack
def load_spec(name_or_path: str, source: tuple | None = None) -> syntax.Spec:
    """Parse and check a built-in spec (by name or puzz.link type name) or a
    .pz file (by path).  ``source``: (text, path) as spec_source gave them,
    parsed as they are (pzc batch sends them to cluster workers)."""
    text, path = source if source is not None else spec_source(name_or_path)
    spec = syntax.parse(text, path)
    check_stage.check(spec)
    check_format_lines(spec)
    check_solver_lines(spec)
    if spec.generate is not None:        # its generate lines are checked too
        prepare_generation(spec)
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
        return builtin_source(name_or_path)
    if not Path(name_or_path).exists():
        raise PzcError(f"no built-in spec or file named {name_or_path!r} "
                       f"(built-in specs: {', '.join(builtin)})")
    return read_file(name_or_path, "spec file").text, name_or_path


def builtin_source(name: str) -> tuple:
    """(text, path) of the built-in spec ``name``."""
    return builtin_specs()[name].read_text(encoding="utf-8"), f"<builtin>/{name}.pz"


def listing() -> list:
    """`pzc specs`: under a header, a line per built-in spec: its name, the
    board `pzc generate` makes for it (stages.board_made: a default size,
    --size, --like or -), its description and its puzz.link types."""
    rows = [("SPEC", "GENERATE", "DESCRIPTION")]
    for name in builtin_specs():
        spec = load_spec(name)
        types = spec.url_types
        also = f"  (puzz.link: {', '.join(types)})" if types else ""
        rows.append((name, board_made(spec), spec.description + also))
    widths = [max(len(row[k]) for row in rows) for k in (0, 1)]
    return [f"{name:<{widths[0]}}  {made:<{widths[1]}}  {about}" for name, made, about in rows]
