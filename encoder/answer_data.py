"""Stage: render, as data.  A verified answer -> what it shows, as Python values.

The text output prints an answer as strings (render.py); a program that
plays the puzzle wants the same answer as data:

    values   shown variable -> {key: value}; the key is the variable's index
             (a cell (row, col), an edge or segment as the pair of its ends, a
             dot), a tuple of the indexes when there are several, () for none;
             a move puzzle's state is indexed by the step first: (t, cell)
    kinds    shown variable -> "cells", "edges", "segments" or "other": what
             its keys are (an edge's and a segment's keys look alike)
    cells    (row, col) -> the token the grid shows there
    board    the grid's rows as lists of tokens (None where a JSON board has
             no cell; a hex board's rows have the hexagon's lengths)
    locked   the cells the instance locks (the '+' of hex boards), in order
    moves    the moves as dicts of plain values (cells as tuples)
    paths    lines that shown bool edge or segment variables draw, open ...
    loops    ... and closed, each as its cells (or dots) in order

"Shown variables" are the ones the spec's `show` statements read (the grid,
the `show text` drawing, the moves).  Everything is worked out when first
read, so a result that is only printed pays nothing for it.
"""

from __future__ import annotations

from functools import cached_property

from ..board.geometry import Edge, Segment
from ..board.graphs import lines
from ..runtime.errors import PzcError
from . import syntax as ast
from .render import cell_tokens, move_records, plain, to_json
from .verify import AnswerChecker

_FIELDS = ("values", "kinds", "cells", "board", "locked", "moves", "paths", "loops")


class AnswerData:
    """One verified answer of ``spec`` on ``instance`` as data (the module's
    docstring lists the fields).  ``to_json()`` gives the same in JSON terms."""

    def __init__(self, spec, instance, decoded):
        self._spec = spec
        self._instance = instance
        self._decoded = decoded          # decode.Answer (a plan's: with states and actions)

    def __repr__(self) -> str:
        return f"<AnswerData: {', '.join(_FIELDS)}>"

    @cached_property
    def _shown(self) -> tuple:
        """(grid tokens, moves, names of the variables the shows read)."""
        spec, instance, decoded = self._spec, self._instance, self._decoded
        touched = set()
        tokens = {}
        if spec.show_cell is not None:
            tokens = cell_tokens(spec, instance, decoded, spec.show_cell, touched)
        if spec.show_text is not None:
            cell_tokens(spec, instance, decoded, spec.show_text, touched)
        records = move_records(spec, instance, decoded, touched)
        return tokens, records, {name for name, _ in touched}

    @cached_property
    def values(self) -> dict:
        """Shown variable -> {key: value}, in the spec's order of variables."""
        decoded = self._decoded
        names = self._shown[2]
        out = {}
        for name, table in decoded.values.items():
            if name in names:
                out[name] = {index_key(key): plain(v) for key, v in table.items()}
        for t, state in enumerate(decoded.states or ()):
            for name, table in state.items():
                if name in names:
                    into = out.setdefault(name, {})
                    for key, v in table.items():
                        into[index_key(key, t)] = plain(v)
        return out

    @cached_property
    def kinds(self) -> dict:
        """Shown variable -> what it is indexed by: "cells", "edges",
        "segments" (one index of that kind; "cells" also for any (row,
        column) pair, dots among them) or "other" (several indexes, states)."""
        out = {}
        for name in self.values:
            table = self._decoded.values.get(name)
            key = next(iter(table), None) if table else None
            if key is None or len(key) != 1:
                out[name] = "other"
            elif type(key[0]) is Edge:
                out[name] = "edges"
            elif type(key[0]) is Segment:
                out[name] = "segments"
            elif (type(key[0]) is tuple and len(key[0]) == 2
                  and all(type(x) is int for x in key[0])):
                out[name] = "cells"
            else:
                out[name] = "other"
        return out

    def function_values(self, name: str) -> dict:
        """(row, col) -> the value of the spec's `let NAME(c)` on each cell,
        read from this answer (a pzprv3 file's answer section may name such
        a function: formats/answers.py)."""
        decoded = self.__dict__.get("_decoded")
        if decoded is None:
            raise PzcError(f"'{name}' is worked out from the answer, which a copy from "
                           f"another process does not carry")
        with AnswerChecker(self._spec, self._instance, decoded) as checker:
            return {c: checker.call_let(name, (c,)) for c in checker.geometry.cells}

    @cached_property
    def cells(self) -> dict:
        """(row, col) -> the token the grid shows there (a `show grid`
        canvas: its points); empty when the spec shows no grid."""
        return dict(self._shown[0])

    @cached_property
    def board(self) -> list | None:
        """The grid's rows, each a list of tokens (None without a grid)."""
        if self._spec.show_cell is None:
            return None
        tokens = self.cells
        geom = self._instance.geometry
        if geom is not None and geom.kind == "hex" and isinstance(self._spec.show_cell,
                                                                   ast.ShowCell):
            return [[tokens[(r, i)] for i in range(geom.row_length(r))]
                    for r in range(geom.height)]
        if isinstance(self._spec.show_cell, ast.ShowCell) and hasattr(geom, "width"):
            h, w = geom.height, geom.width
        else:                    # a canvas: as high and wide as its points
            h = max((r for r, _ in tokens), default=-1) + 1
            w = max((c for _, c in tokens), default=-1) + 1
        return [[tokens.get((r, c)) for c in range(w)] for r in range(h)]

    @cached_property
    def locked(self) -> list:
        return sorted(self._instance.locked)

    @cached_property
    def moves(self) -> list | None:
        """The moves, each a dict of the `show moves` fields (None without)."""
        return self._shown[1]

    @cached_property
    def _lines(self) -> tuple:
        """(paths, loops) of the shown bool variables indexed by one edge or
        segment; (None, None) when the spec shows none."""
        names = self._shown[2]
        paths = loops = None
        for name, table in self._decoded.values.items():
            if name not in names or not table or not all(
                    len(key) == 1 and type(key[0]) in (Edge, Segment) and type(v) is bool
                    for key, v in table.items()):
                continue
            drawn = lines(plain(key[0]) for key, v in table.items() if v)
            if drawn is not None:
                paths = (paths or []) + drawn[0]
                loops = (loops or []) + drawn[1]
        return paths, loops

    @cached_property
    def paths(self) -> list | None:
        """Open lines, each its cells (dots for segments) from one end to the other."""
        return self._lines[0]

    @cached_property
    def loops(self) -> list | None:
        """Closed lines, each its cells (or dots) in order, the last beside the first."""
        return self._lines[1]

    def to_json(self) -> dict:
        """The fields as JSON data: values as lists of [key, value] pairs
        (JSON objects take no pairs as keys), tuples as lists, cells left out
        (the board holds them: cell (r, c) is board[r][c])."""
        return {"values": {name: [[json_data(k), json_data(v)] for k, v in table.items()]
                           for name, table in self.values.items()},
                "board": self.board, "locked": json_data(self.locked),
                "moves": json_data(self.moves), "paths": json_data(self.paths),
                "loops": json_data(self.loops)}

    def __getstate__(self) -> dict:
        # a copy for another process (generate's workers) carries the fields, not the spec
        return {name: getattr(self, name) for name in _FIELDS}

    def __setstate__(self, state: dict):
        self.__dict__.update(state)


def json_data(value):
    """Plain data as JSON data: tuples and lists as lists, inside dicts too."""
    if isinstance(value, list):
        return [json_data(v) for v in value]
    if type(value) is dict:
        return {k: json_data(v) for k, v in value.items()}
    return to_json(value)


def index_key(key: tuple, step: int | None = None):
    """A variable's key as values gives it: the index itself when there is one,
    else the tuple of the indexes; a state's step is its first index."""
    indexes = ([step] if step is not None else []) + [plain(k) for k in key]
    return indexes[0] if len(indexes) == 1 else tuple(indexes)
