"""docs/genres.md's table of genres: one row per built-in spec, with the
puzz.link type names its `url` and `file` lines read (in the spec's order)
and an answer kind from the conventions of docs/language.md (Output)."""

from __future__ import annotations

import re
from pathlib import Path

from pzc import api

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"shading", "objects", "lines", "numbers", "regions", "moves", "bridges", "letters",
         "marks", "slashes", "bars", "triangles", "futons", "circles", "a loop on the grid lines"}


def table():
    text = (ROOT / "docs" / "genres.md").read_text(encoding="utf-8")
    head = text.index("| genre | puzz.link | answer |")
    rows = {}
    for line in text[head:].split("\n")[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows[cells[0]] = ([n.strip() for n in cells[1].split(",") if n.strip()], cells[2])
    return rows


def test_every_built_in_spec_is_in_the_table_once():
    assert sorted(table()) == sorted(api.builtin_specs())


def test_the_table_names_the_types_the_specs_read():
    aliases = api.builtin_aliases()
    for name, (types, _) in table().items():
        spec = api.load_spec(name)
        read = spec.url_types + [t for t, _ in (spec.file.types if spec.file else [])
                                 if t not in spec.url_types]
        assert types == read, name
        assert all(aliases.get(t, name) == name for t in types), name


def test_every_answer_kind_is_one_of_the_conventions():
    for name, (_, answer) in table().items():
        kinds = {k.strip() for k in re.sub(r"\s*\(.*?\)", "", answer).split(",")}
        assert kinds <= KINDS, (name, kinds - KINDS)
