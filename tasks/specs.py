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
from ..runtime.deep_stack import deep_stack
from ..runtime.errors import PzcError
from .generate.driver import prepare as prepare_generation


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
        text = builtin[name_or_path].read_text(encoding="utf-8")
        path = f"<builtin>/{name_or_path}.pz"
    else:
        if not Path(name_or_path).exists():
            raise PzcError(f"no built-in spec or file named {name_or_path!r} "
                           f"(built-in specs: {', '.join(builtin)})")
        text = read_file(name_or_path, "spec file").text
        path = name_or_path
    return text, path
