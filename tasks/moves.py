"""Task: the moves a player (or a bot) makes to turn a puzzle's start into its
answer, when the answer is a rearrangement of the clues (tiles that slide to
any free cell, locked cells staying as they are).

Each move takes one tile to a cell that is free at that moment.  The fewest
moves: every misplaced tile moves once, plus one move per closed cycle of
tiles that sit on each other's targets (one of them waits on a free cell).

The plan comes from an Eulerian circuit.  A graph on the tile values: a tile
of value k sitting on a cell whose answer is j is an edge k -> j (moving it
frees a j-cell); a free cell whose answer is k is an edge from a hub to k; a
misplaced tile on a cell the answer leaves empty is an edge from its value to
the hub.  Every value has as many edges in as out, so each connected part
has a circuit; a part through the hub is a set of chains that start at a free
target and end when a tile leaves a cell that stays empty; a part off the hub
is a cycle, broken by parking one tile on a free cell.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..encoder.builtins.clues import token_text
from ..runtime.errors import PzcError

_BLANK = ("", ".", " ", None)
_HUB = object()          # the vertex of the free cells and the cells left empty


@dataclass(frozen=True)
class Move:
    """Tile ``tile`` (its token) from cell ``source`` to cell ``target``;
    ``source_xy``/``target_xy``: their pixel centres when the puzzle was read
    from a picture."""
    tile: str
    source: tuple
    target: tuple
    source_xy: tuple | None = None
    target_xy: tuple | None = None

    def as_json(self) -> dict:
        out = {"tile": self.tile, "from": list(self.source), "to": list(self.target)}
        if self.source_xy is not None:
            out["from_xy"] = [round(v, 1) for v in self.source_xy]
            out["to_xy"] = [round(v, 1) for v in self.target_xy]
        return out

    def as_text(self) -> str:
        return tile_move_text(self.as_json())


def tile_move_text(record: dict) -> str:
    """A move as a line: 'tile 3 from row 2, column 4 to row 5, column 1',
    with the pixels after it when the puzzle was read from a picture."""
    line = f"tile {record['tile']} from {_place(record['from'])} to {_place(record['to'])}"
    if "from_xy" in record:
        line += f"  (pixels {_px(record['from_xy'])} -> {_px(record['to_xy'])})"
    return line


def _place(cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _px(xy) -> str:
    return f"{xy[0]:.0f},{xy[1]:.0f}"


def start_and_end(instance, shown: dict) -> tuple:
    """(start, end): the tiles (cell -> token) of the puzzle and of its answer
    (``shown``: cell -> the token its `show` prints).  An answer that is not a
    rearrangement of the clues (other tokens, or a locked cell changed) is
    refused (exit 2)."""
    start = {cell: instance.tokens.get(cell, token_text(v, instance.layout))
             for cell, v in instance.clues.items()}
    end = {cell: t for cell, t in shown.items() if t not in _BLANK}
    if Counter(start.values()) != Counter(end.values()):
        raise PzcError(f"the answer is not a rearrangement of the clues, so it has no tile "
                       f"moves (its tiles {_tally(end)}; the puzzle's {_tally(start)})",
                       file=instance.name)
    for cell in sorted(instance.locked):
        if start.get(cell) != end.get(cell):
            raise PzcError(f"the answer changes the locked cell {_place(cell)}, so it is not "
                           f"a rearrangement of the clues", file=instance.name)
    return start, end


def _tally(tiles: dict) -> str:
    counts = Counter(tiles.values())
    return ", ".join(f"{t} x{n}" for t, n in sorted(counts.items())) or "none"


def plan_moves(start: dict, end: dict, cells, locked=frozenset(), centres=None) -> list:
    """The fewest moves taking the tiles ``start`` (cell -> token) to ``end``
    on the board's ``cells``, each onto a free cell, ``locked`` cells never
    touched; ``centres`` (cell -> (x, y)) adds pixel positions."""
    misplaced = [c for c in start if end.get(c) != start[c]]
    free_targets = [c for c in end if c not in start]
    out_edges = {}            # vertex -> [(kind, cell, head)]
    for cell in free_targets:
        out_edges.setdefault(_HUB, []).append(("target", cell, end[cell]))
    for cell in misplaced:
        head = end.get(cell, _HUB)
        out_edges.setdefault(start[cell], []).append(("tile", cell, head))
    for edges in out_edges.values():     # the same plan for the same input
        edges.sort(key=lambda e: e[1], reverse=True)
    moves = []
    occupied = dict(start)

    def move(source, target):
        occupied[target] = occupied.pop(source)
        moves.append((occupied[target], source, target))

    hole = [None]                                # the free cell a tile goes to next
    for edge in _circuit(out_edges, _HUB):        # chains from a free target
        _follow(edge, move, hole)
    while any(out_edges.values()):               # closed cycles: park one tile
        vertex = min((v for v, e in out_edges.items() if e), key=_vertex_key)
        circuit = _circuit(out_edges, vertex)
        parking = next((c for c in sorted(cells) if c not in occupied and c not in end
                        and c not in locked), None)
        if parking is None:
            raise PzcError("no free cell to break a cycle of tiles through")
        first = circuit[0][1]
        move(first, parking)
        hole = [first]
        for edge in circuit[1:]:
            _follow(edge, move, hole)
        move(parking, hole[0])
    return [Move(t, s, d, centres.get(s) if centres else None, centres.get(d) if centres else None)
            for t, s, d in moves]


def _vertex_key(v):
    return (v is not _HUB, str(v))


def _follow(edge, move, hole):
    """One edge of a circuit: a free target opens a hole; a tile fills the
    hole, leaving its own cell as the next one (or none: it stays empty)."""
    kind, cell, head = edge
    if kind == "target":
        hole[0] = cell
        return
    move(cell, hole[0])
    hole[0] = cell if head is not _HUB else None


def _circuit(out_edges: dict, start) -> list:
    """Hierholzer's algorithm: the edges of a circuit from ``start`` through
    every edge of its connected part, taken out of ``out_edges``."""
    stack = [(start, None)]
    circuit = []
    while stack:
        vertex, via = stack[-1]
        edges = out_edges.get(vertex)
        if edges:
            edge = edges.pop()
            stack.append((edge[2], edge))
        else:
            stack.pop()
            if via is not None:
                circuit.append(via)
    circuit.reverse()
    return circuit


def tile_moves(instance, result, centres=None) -> list:
    """The moves from ``instance``'s start to ``result``'s verified answer, in
    an order a player can make them; ``centres``: pixel positions of the
    cells (a puzzle read from a picture; default: the instance's own).
    Refused (exit 2) without a verified answer shown per cell, or when it is
    no rearrangement."""
    if result.status != "solved" or not result.verified:
        raise PzcError(f"no verified answer ({result.status}), so no moves", file=instance.name)
    shown = result.picture
    if not hasattr(shown, "cells") or not shown.cells:
        raise PzcError("tile moves need an answer shown per cell (a move puzzle prints its "
                       "plan's own moves)", file=instance.name)
    start, end = start_and_end(instance, shown.cells)
    cells = list(instance.geometry.cells) if instance.geometry is not None else list(end)
    return plan_moves(start, end, cells, frozenset(instance.locked),
                      centres if centres is not None else instance.centres)
