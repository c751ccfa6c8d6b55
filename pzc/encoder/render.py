"""Stage: render.  Decoded answer -> board rows and move list, then text or JSON.

The grid comes out in the instance's own layout: one character per cell for
character grids and one-per-line puzzles (numbers 10..35 as A..Z), tokens
joined by spaces for token grids, the indented hexagon with '+' on locked
cells for hex boards, and rows with '#' where a JSON board has no cell.
"""

from __future__ import annotations

from ..geometry import Edge
from .evaluate import PSet
from .verify import Checker

_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def cell_token(value, layout: str) -> str:
    if type(value) is bool:
        return "1" if value else "0"
    if type(value) is int:
        if layout != "tokens" and 0 <= value < 36:
            return _BASE36[value]
        return str(value)
    return str(value)


def grid_rows(spec, instance, answer):
    """The solved board as a list of row strings (None when the spec shows no grid)."""
    show = spec.show_cell
    if show is None:
        return None
    checker = Checker(spec, instance, answer)
    geom = checker.geometry
    layout = instance.layout
    env = {}
    tokens = {}
    for cell in geom.cells:
        env[show.cell] = cell
        tokens[cell] = cell_token(checker.eval(show.body, env), layout)
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
    wide = layout == "tokens" or any(len(t) != 1 for t in tokens.values())
    rows = []
    for row in by_row:
        cells = [t if t is not None else "#" for t in row]
        rows.append(" ".join(cells) if wide else "".join(cells))
    return rows


def moves(spec, instance, answer):
    """The move list of `show moves`, as JSON-ready dicts (None without one)."""
    show = spec.show_moves
    if show is None:
        return None
    checker = Checker(spec, instance, answer)
    env = {}
    out = []
    for guard in checker.bind(show.binders, env):
        out.append({name: to_json(checker.eval(expr, env)) for name, expr in show.fields})
    return out


def to_json(value):
    if type(value) is Edge:
        return [to_json(value.a), to_json(value.b)]
    if isinstance(value, (tuple, PSet, range)):
        return [to_json(v) for v in value]
    return value


def move_text(move: dict) -> str:
    parts = []
    for k, v in move.items():
        if isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v):
            v = f"({v[0]}, {v[1]})"
        parts.append(f"{k} {v}")
    return ", ".join(parts)
