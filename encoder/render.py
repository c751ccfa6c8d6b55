"""Stage: render.  Decoded answer -> board rows and move list, then text or JSON.

The grid comes out in the instance's own layout: one character per cell for
character grids and one-per-line puzzles (numbers 10..35 as A..Z), tokens
joined by spaces for token grids, the indented hexagon with '+' on locked
cells for hex boards, and rows with '#' where a JSON board has no cell.
"""

from __future__ import annotations

import json

from ..runtime.deep_stack import deep_stack
from ..board.geometry import Edge, Segment
from . import syntax as ast
from ..runtime.gc_pause import without_gc
from .builtins.clues import token_text
from .interpreter.values import PSet
from .verify import AnswerChecker

def cell_token(value, layout: str) -> str:
    """A cell value as text: in character grids numbers 10..35 print as A..Z
    (as they are read); everywhere else numbers print in decimal."""
    if type(value) is bool:
        return "1" if value else "0"
    if value is None:            # JSON null, as the instance wrote it
        return "null"
    if isinstance(value, (tuple, dict)):
        return json.dumps(to_json(value), separators=(",", ":"))
    return token_text(value, layout)


@deep_stack
def grid_rows(spec, instance, answer, show=None, touched=None):
    """The solved board as a list of row strings (None when the spec shows no grid).

    ``show`` picks another show statement (the text drawing) than the grid;
    ``touched`` collects the variables the board was read from."""
    show = show or spec.show_cell
    if show is None:
        return None
    return token_rows(instance, show, cell_tokens(spec, instance, answer, show, touched))


def token_rows(instance, show, tokens: dict) -> list:
    """The rows of the texts ``tokens`` (place -> text) drawn by ``show``: a
    board's cells in the instance's layout, or the points of a canvas."""
    if isinstance(show, ast.ShowCanvas):
        h = max(r for r, _ in tokens) + 1 if tokens else 0
        w = max(c for _, c in tokens) + 1 if tokens else 0
        return _join([[tokens[(r, c)] for c in range(w)] for r in range(h)], instance.layout)
    return layout_rows(instance, tokens)


@without_gc
@deep_stack
def cell_tokens(spec, instance, answer, show=None, touched=None, reads=None) -> dict:
    """(row, column) -> the text shown there: a cell of the board, or a point
    of a `show grid(h, w)` canvas.  ``reads`` (a dict) is filled with each
    place's own set of the variables (name, key) its text was read from."""
    show = show or spec.show_cell
    if reads is not None and touched is None:
        touched = set()
    with AnswerChecker(spec, instance, answer, touched) as checker:
        checker.place_reads = reads is not None
        layout = instance.layout
        env = {}
        tokens = {}
        if isinstance(show, ast.ShowCanvas):
            h = checker.want_int(show.height, checker.eval(show.height, {}))
            w = checker.want_int(show.width, checker.eval(show.width, {}))
            places = [(r, c) for r in range(h) for c in range(w)]
            name = show.point
        else:
            places = checker.geometry.cells
            name = show.cell
        for place in places:
            env[name] = place
            if reads is not None:
                checker.touched = reads[place] = set()
            tokens[place] = cell_token(checker.eval(show.body, env), layout)
        if reads is not None:
            touched.update(*reads.values())
        return tokens


def layout_rows(instance, tokens: dict) -> list:
    """Cell tokens -> rows in the instance's own layout."""
    geom = instance.geometry
    layout = instance.layout
    if layout == "hex":
        rows = []
        for r in range(geom.height):
            parts = []
            for i in range(geom.row_length(r)):
                cell = (r, i)
                prefix = "+" if cell in instance.locked else " "
                parts.append(prefix + tokens[cell])
            rows.append(" " * geom.indent(r) + "".join(parts))
        return [row.rstrip() for row in rows]
    by_row = [[None] * geom.width for _ in range(geom.height)]
    for (r, c), tok in tokens.items():
        by_row[r][c] = tok
    return _join(by_row, layout)


@deep_stack
def text_drawing(spec, instance, answer):
    """The rows of `show text ...` (None without one)."""
    if spec.show_text is None:
        return None
    return grid_rows(spec, instance, answer, spec.show_text)


def _join(rows, layout):
    """Rows of tokens -> strings: characters side by side, or spaced when any
    token is longer than one character (one convention for every layout)."""
    wide = any(t is not None and len(t) != 1 for row in rows for t in row)
    out = []
    for row in rows:
        cells = [t if t is not None else "#" for t in row]
        out.append(" ".join(cells) if wide else "".join(cells))
    return out


@without_gc
@deep_stack
def moves(spec, instance, answer, touched=None):
    """The move list of `show moves`, as JSON-ready dicts (None without one)."""
    records = move_records(spec, instance, answer, touched)
    if records is None:
        return None
    return [{name: to_json(value) for name, value in record.items()} for record in records]


@deep_stack
def move_records(spec, instance, answer, touched=None):
    """The move list of `show moves` as dicts of plain Python values (cells
    and other pairs as tuples, ints as ints; None without one); ``touched``
    collects the variables the moves were read from."""
    if spec.plan is not None:
        return plan_moves(spec, instance, answer, touched)
    show = spec.show_moves
    if show is None:
        return None
    with AnswerChecker(spec, instance, answer, touched) as checker:
        env = {}
        out = []
        for guard in checker.bind(show.binders, env):
            out.append({name: plain(checker.eval(expr, env)) for name, expr in show.fields})
        return out


@deep_stack
def plan_moves(spec, instance, answer, touched=None) -> list:
    """A plan's steps in order: the fields of the action's `show moves`, read
    in the state before the step (an action without one shows its name and
    parameters), as plain Python values."""
    checker = AnswerChecker(spec, instance, answer, touched)
    out = []
    for t, (name, params) in enumerate(answer.actions):
        action = spec.actions[name]
        show = spec.show_steps.get(name)
        if show is None:
            out.append({"action": name, "parameters": plain(params)})
            continue
        env = {}
        for b, value in zip(action.binders, params):
            if len(b.names) == 1:
                env[b.names[0]] = value
            else:
                env.update(zip(b.names, value))
        checker.step = t
        out.append({field: plain(checker.eval(expr, env)) for field, expr in show.fields})
    return out


@deep_stack
def plan_boards(spec, instance, answer) -> list:
    """The board after each step of a plan (the start first)."""
    out = []
    for t in range(len(answer.states)):
        step = AnswerAtStep(answer, t)
        out.append(grid_rows(spec, instance, step))
    return out


class AnswerAtStep:
    """An answer whose last state is state t (what the board shows then)."""

    def __init__(self, answer, t):
        self.values = answer.values
        self.states = answer.states[:t + 1]
        self.actions = answer.actions[:t]


def to_json(value):
    """A value (or its plain() form) as JSON data: pairs, lists and sets as lists."""
    if type(value) in (Edge, Segment):
        return [to_json(value.a), to_json(value.b)]
    if isinstance(value, (tuple, PSet, range)):
        return [to_json(v) for v in value]
    return value


def plain(value):
    """A value as plain Python data: a cell stays a (row, col) tuple, an edge
    or segment becomes the tuple of its two ends, a list, set or range a
    tuple; ints, bools, symbols and JSON records stay as they are."""
    if isinstance(value, (tuple, PSet, range)):      # Edge and Segment are tuples
        return tuple(plain(v) for v in value)
    return value


def move_text(move: dict) -> str:
    parts = []
    for k, v in move.items():
        if isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v):
            v = f"({v[0]}, {v[1]})"
        elif type(v) is bool:
            v = "true" if v else "false"
        parts.append(f"{k} {v}")
    return ", ".join(parts)
