"""Answers in pzprv3 files: the raw tokens of the answer sections a spec's
`file` line names, from a verified answer's values.

    file: rooms(regions), cellqnum(clues, [(-2, "?")]), cellans(shaded)
    file: flag_f(), cellqnum(clues, [(1, "w"), (2, "b")]), borderline(link)
    file: cellqnum(clues), cellanumsub(shown), borderans(shown)

An answer section (``Codec.answer``: "cells" or "borders") takes as its
argument a shown variable of the spec, ``shown``, the grid the spec shows
(one token a cell), or a `let` function of one cell, worked out on the
answer (Shugaku's futon halves, which pzprjs writes with the direction of
their other half); a section that also holds the question (``cellqnumans``,
``cell``, ``cellexcell``) takes it after its layers and their pairs
(``cellqnumans(clues, [(-2, "x")], light)``).  What a value is written as:

* a pair of the section, ``(raw, value)``, names it (``cellans(shaded,
  [("1", true)])``); a raw -1 is pzprjs's empty place: not written;
* else true is the section's mark (``Codec.answer_mark``: ``#`` in cells,
  ``1`` on borders), false nothing; a number is itself (a letter of a
  ``letters`` board its number 1..26); ``#`` and ``+`` in a cell section
  are themselves; a blank token is nothing; any other value is an error.

On borders, a variable indexed by edges fills the borders between its
cells, one indexed by segments the lines of the dot lattice (the board's
rim too: pzprjs's hasborder 2), and one indexed by cells (or ``shown``) the
borders between neighbouring cells whose values differ (regions).

Values missing from the answer (a partial one, as `pzc deduce` finds) are
left empty.  Nothing here knows a genre.
"""

from __future__ import annotations

from ..encoder import syntax as ast
from ..runtime.errors import PzcError
from .codecs import Borders

SHOWN = "shown"          # the argument that names the grid the spec shows
EMPTY = -1               # pzprjs's empty place
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CELL_MARKS = ("#", "+")  # tokens a cell answer section writes as they are


def split_source(codec, args: list) -> tuple:
    """A file codec's arguments as (layer names, their pairs, the answer's
    source or None, the answer's pairs).  An answer section takes the
    source, then its pairs; a question section that holds the answer too
    takes its layers, their pairs, then the source and its pairs:

        cellans(shaded, [("1", true)])
        cellexcell(clues, [("1", "x")], tent, [("A", true)])

    Arguments left over stay with the layer names (an error there)."""
    def pairs_at(i):
        return args[i].items if i < len(args) and _is_list(args[i]) else None

    if codec is None or codec.answer is None:
        if args and _is_list(args[-1]):
            return args[:-1], args[-1].items, None, []
        return args, [], None, []
    names = args[:codec.layers]
    i = len(names)
    pairs = pairs_at(i)
    if pairs is not None:
        i += 1
    if i >= len(args) or _is_list(args[i]):
        return names + args[i:], pairs or [], None, []
    source = args[i]
    answer_pairs = pairs_at(i + 1)
    i += 2 if answer_pairs is not None else 1
    return names + args[i:], pairs or [], source, answer_pairs or []


def cell_function(spec, name: str) -> bool:
    """Whether ``name`` is a `let` function of one argument (a cell), which
    an answer section may name: its value on each cell of the answer."""
    let = spec.lets.get(name)
    return let is not None and let.params is not None and len(let.params) == 1


def _is_list(node) -> bool:
    return isinstance(node, ast.Collection) and node.kind == "list"


def answer_tokens(spec, binding, k: int, answer, cells, margin: int, letters: bool,
                  blanks, clue_reads) -> dict | Borders:
    """Codec ``k``'s answer as raw tokens by place: cells (r, c) of pzprjs's
    board (``margin`` rows and columns fewer than the values' board), or a
    Borders.  ``clue_reads(cell, raw)``: whether a question section that
    also holds the answer keeps its clue at ``cell`` with ``raw`` written
    there (a cell with a clue keeps it otherwise)."""
    codec = binding.registry[binding.codecs[k]]
    name = binding.sources[k]
    pairs = binding.answer_pairs[k]
    what = f"the section '{binding.codecs[k]}({name})'"
    if name == SHOWN:
        if not isinstance(spec.show_cell, ast.ShowCell):
            raise PzcError(f"{what}: the spec shows no grid of cells, so 'shown' names nothing "
                           f"to write")
        table, kind = answer.cells, "cells"
    elif cell_function(spec, name):
        # worked out from a whole answer; a partial one (deduce's) has none
        values = getattr(answer, "function_values", None)
        table, kind = (values(name) if values is not None else {}), "cells"
    else:
        if name not in answer.values:
            raise PzcError(f"{what}: the variable '{name}' is not in the answer (only the "
                           f"variables the spec's `show` reads are)")
        table, kind = answer.values[name], answer.kinds.get(name)

    def raw(value):
        for r, v in pairs:
            if v == value and (type(v) is bool) == (type(value) is bool):
                return None if r == EMPTY else str(r)
        if value is True:
            return codec.answer_mark
        if value is False or value is None:
            return None
        if type(value) is int:
            return str(value)
        if isinstance(value, str):
            if value in blanks or value.strip() in ("", "."):
                return None
            if letters and value in LETTERS:
                return str(LETTERS.index(value) + 1)
            if codec.answer == "cells" and value in CELL_MARKS:
                return value
            if value.lstrip("-").isdigit():
                return value
        raise PzcError(f"{what}: pzc cannot write the value {value!r} in it; a pair "
                       f"(raw, value) in the section says how")

    if codec.answer == "cells":
        if kind != "cells":
            raise PzcError(f"{what}: a cell section is filled from a variable indexed by "
                           f"cells, and '{name}' is not")
        out = {}
        for (r, c), value in table.items():
            if (r, c) not in cells:
                continue
            token = raw(value)
            if token is not None and clue_reads((r, c), token):
                out[(r - margin, c - margin)] = token
        return out
    out = Borders()
    if kind in ("edges", "segments"):
        out.lattice = kind == "segments"
        for ((r1, c1), (r2, c2)), value in table.items():
            token = raw(value)
            if token is None or token == "0":
                continue
            if kind == "edges":     # the border between two cells: their centres' midpoint
                out[(r1 + r2 + 1 - 2 * margin, c1 + c2 + 1 - 2 * margin)] = token
            else:                   # a line of the lattice: its dots' midpoint
                out[(r1 + r2 - 2 * margin, c1 + c2 - 2 * margin)] = token
        return out
    if kind != "cells":
        raise PzcError(f"{what}: a border section is filled from a variable indexed by edges, "
                       f"segments or cells, and '{name}' is not")
    for (r, c), value in table.items():     # regions: a border between different values
        for other in ((r, c + 1), (r + 1, c)):
            if (r, c) in cells and other in cells and other in table \
                    and table[other] != value:
                out[(r + other[0] + 1 - 2 * margin, c + other[1] + 1 - 2 * margin)] = \
                    codec.answer_mark
    return out
