"""Board geometry: cells, neighbours, rows, columns, boxes and edges.

Cells are (row, column) tuples counted from 0.  On a hex board the column is
the cell's index within its row; neighbours come from the doubled-x layout of
the text (a cell's neighbours sit two characters left and right, and one
character diagonally up and down).

Boards of one shape share what is built from it (cells, neighbours, edges,
windows...): a collection of puzzles holds many boards of a few sizes
(Janko's 270 Numberlinks: 10 sizes), and each table is built once per shape
(the SHARED_SHAPES shapes last used, of at most SHARED_CELLS cells).  Every
table is a function of the shape alone, is never changed once built, and is
stored once complete, so that a time limit stopping a build leaves no
half-built table to the next board.
"""

from __future__ import annotations

from collections import OrderedDict

from ..runtime.clock import big_set

SHARED_SHAPES = 8
SHARED_CELLS = 10_000
_SHAPES = OrderedDict()      # (class, shape) -> the tables its boards share


def _store(key, cells: int) -> dict:
    """The tables of the boards of shape ``key`` (a dict of this board's
    own for a big board)."""
    if cells > SHARED_CELLS:
        return {}
    store = _SHAPES.get(key)
    if store is None:
        store = _SHAPES[key] = {}
        if len(_SHAPES) > SHARED_SHAPES:
            _SHAPES.popitem(last=False)
    else:
        _SHAPES.move_to_end(key)
    return store


class _Link(tuple):
    """A pair of points; links of different kinds never compare equal, so an
    edge between two cells is not the segment between the same two dots."""

    __slots__ = ()

    def __new__(cls, a, b):
        return tuple.__new__(cls, (a, b))

    a = property(lambda self: self[0])
    b = property(lambda self: self[1])

    def __eq__(self, other):
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    # the pair's own hash, computed in C: an edge and the segment between the
    # same points share it, and __eq__ tells them apart on the rare collision
    __hash__ = tuple.__hash__

    def __getnewargs__(self):
        return tuple(self)


class Edge(_Link):
    """An unordered pair of adjacent cells, ``a`` before ``b`` in reading order."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"edge({self.a}, {self.b})"


class Segment(_Link):
    """A unit line of the dot lattice between dots ``a`` and ``b`` (a before b).

    Dots are (row, column) for 0 <= row <= height, 0 <= column <= width; the
    cell (r, c) has the dots (r, c), (r, c+1), (r+1, c), (r+1, c+1) at its corners.
    """
    __slots__ = ()

    def __repr__(self) -> str:
        return f"segment({self.a}, {self.b})"


class Geometry:
    """The cells of a board and the sets built from them."""

    kind = "cells"

    def __init__(self, cells, store=None):
        """``cells``: the cells, or a function making them; ``store``: the
        tables of the boards of this shape (None: its own)."""
        self._store = {} if store is None else store
        self.cells = self.shared("cells", lambda: tuple(cells() if callable(cells) else cells))
        self._cell_set = None
        self._neighbours = None
        self._edges = None

    def shared(self, key, build):
        """The table ``key``: the one a board of this shape built before,
        else ``build()``, kept once complete.  ``build`` must depend on the
        shape alone, and its value is never changed.  A board keeps what it
        reads in attributes of its own, which are quicker to read than a
        shared dictionary's."""
        found = self._store.get(key)
        if found is None:
            found = self._store[key] = build()
        return found

    @property
    def cell_set(self) -> set:
        """The cells as a set, for quick membership tests: built on first use,
        in steps that a time limit can stop (clock.big_set)."""
        if self._cell_set is None:
            self._cell_set = self.shared("cell_set", lambda: big_set(self.cells))
        return self._cell_set

    def __contains__(self, cell) -> bool:
        return cell in self.cell_set

    def _adjacent(self, cell):   # overridden
        r, c = cell
        return [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]

    def neighbours(self, cell) -> tuple:
        if self._neighbours is None:
            cs = self.cell_set
            self._neighbours = self.shared("neighbours", lambda: {
                x: tuple(y for y in self._adjacent(x) if y in cs) for x in self.cells})
        return self._neighbours[cell]

    @property
    def order(self) -> dict:
        """cell -> its position in reading order."""
        if getattr(self, "_order", None) is None:
            self._order = self.shared("order", lambda: {c: i for i, c in enumerate(self.cells)})
        return self._order

    def edge(self, a, b) -> Edge:
        """The edge joining cells a and b; the board's own Edge object for
        neighbours, so that lookups keyed by it find it by identity."""
        self.edges()
        found = self._edge_between.get((a, b))
        if found is not None:
            return found
        return Edge(a, b) if self.order[a] < self.order[b] else Edge(b, a)

    def edge_of_pair(self, a, b):
        """The board's edge joining a and b when they are neighbouring cells,
        else None (whatever a and b are)."""
        if self._edges is None:
            self.edges()
        try:
            return self._edge_between.get((a, b))
        except TypeError:             # unhashable values: no cells
            return None

    def edges(self) -> tuple:
        if self._edges is None:
            edges, self._edges_of, self._edge_between = self.shared("edges", self._build_edges)
            self._edges = edges       # last: the others are set
        return self._edges

    def _build_edges(self) -> tuple:
        order = self.order
        out = []
        for a in self.cells:
            for b in self.neighbours(a):
                if order[a] < order[b]:
                    out.append(Edge(a, b))
        edges_of = {c: [] for c in self.cells}
        between = {}
        for e in out:
            edges_of[e.a].append(e)
            edges_of[e.b].append(e)
            a, b = e              # keyed by plain pairs: an Edge never equals one
            between[(a, b)] = between[(b, a)] = e
        return tuple(out), {c: tuple(es) for c, es in edges_of.items()}, between

    def edges_of(self, cell) -> tuple:
        self.edges()
        return self._edges_of[cell]

    def rows(self) -> tuple:
        def build():
            rows = {}
            for cell in self.cells:
                rows.setdefault(cell[0], []).append(cell)
            return tuple(tuple(rows[r]) for r in sorted(rows))
        return self.shared("rows", build)

    def cols(self) -> tuple:
        def build():
            cols = {}
            for cell in self.cells:
                cols.setdefault(cell[1], []).append(cell)
            return tuple(tuple(sorted(cols[c])) for c in sorted(cols))
        return self.shared("cols", build)


class SquareGrid(Geometry):
    """A width x height grid of square cells (orthogonal neighbours)."""

    kind = "square"

    def __init__(self, width: int, height: int, cells=None):
        self.width = width
        self.height = height
        if cells is None:
            super().__init__(lambda: [(r, c) for r in range(height) for c in range(width)],
                             _store((SquareGrid, width, height), width * height))
        else:
            super().__init__(cells)

    def windows(self, h: int, w: int, step_r: int, step_c: int) -> tuple:
        """Every h x w block whose top-left corner lies on the given steps."""
        def build():
            out = []
            for r in range(0, self.height - h + 1, step_r):
                for c in range(0, self.width - w + 1, step_c):
                    block = tuple((r + i, c + j) for i in range(h) for j in range(w))
                    if all(x in self for x in block):
                        out.append(block)
            return tuple(out)
        return self.shared(("windows", h, w, step_r, step_c), build)

    # the dot lattice (Slitherlink and other loop puzzles)

    def dots(self) -> tuple:
        return tuple((r, c) for r in range(self.height + 1) for c in range(self.width + 1))

    def segments(self) -> tuple:
        if getattr(self, "_segments", None) is None:
            segments, self._segment_between, self._segments_at = self.shared(
                "segments", self._build_segments)
            self._segments = segments     # last: the others are set
        return self._segments

    def _build_segments(self) -> tuple:
        out = []
        for r in range(self.height + 1):
            for c in range(self.width + 1):
                if c < self.width:
                    out.append(Segment((r, c), (r, c + 1)))
                if r < self.height:
                    out.append(Segment((r, c), (r + 1, c)))
        at = {}
        for s in out:
            at.setdefault(s.a, []).append(s)
            at.setdefault(s.b, []).append(s)
        return tuple(out), {tuple(s): s for s in out}, {d: tuple(v) for d, v in at.items()}

    def segments_at(self, dot) -> tuple:
        self.segments()
        return self._segments_at.get(dot, ())

    def segment_of_pair(self, a, b):
        """The lattice's segment from dot a to dot b (a before b), else None
        (whatever a and b are).  The lattice's own object, so that lookups
        keyed by it find it by identity."""
        self.segments()
        try:
            return self._segment_between.get((a, b))
        except TypeError:             # unhashable values: no dots
            return None

    def sides(self, cell) -> tuple:
        """The four segments around a cell: top, left, right, bottom."""
        r, c = cell
        ends = (((r, c), (r, c + 1)), ((r, c), (r + 1, c)),
                ((r, c + 1), (r + 1, c + 1)), ((r + 1, c), (r + 1, c + 1)))
        self.segments()
        get = self._segment_between.get
        return tuple(get(pair) or Segment(*pair) for pair in ends)

    def diagonals(self, cell) -> tuple:
        """The two diagonals of a cell, as segments between opposite corners:
        from the top-left corner to the bottom-right one (a backslash), then
        from the top-right to the bottom-left (a slash).  The same objects
        each time, so that lookups keyed by them find them by identity."""
        if getattr(self, "_diagonals", None) is None:
            self._diagonals = self.shared("diagonals", dict)   # each entry complete
        found = self._diagonals.get(cell)
        if found is None:
            r, c = cell
            found = self._diagonals[cell] = (Segment((r, c), (r + 1, c + 1)),
                                             Segment((r, c + 1), (r + 1, c)))
        return found

    def diagonal_neighbours(self, cell) -> tuple:
        r, c = cell
        around = [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)]
        return tuple(x for x in around if x in self)


class HexGrid(Geometry):
    """A hexagon of side n: rows 0..2n-2, row r holding 2n-1-|n-1-r| cells."""

    kind = "hex"

    def __init__(self, side: int):
        self.side = side
        self.width = 2 * side - 1
        self.height = 2 * side - 1
        super().__init__(lambda: [(r, i) for r in range(self.height)
                                  for i in range(self.row_length(r))],
                         _store((HexGrid, side), self.width * self.height))

    def row_length(self, r: int) -> int:
        return 2 * self.side - 1 - abs(self.side - 1 - r)

    def indent(self, r: int) -> int:
        return abs(self.side - 1 - r)

    def _doubled(self, cell):
        r, i = cell
        return r, self.indent(r) + 2 * i

    def _adjacent(self, cell):
        r, x = self._doubled(cell)
        out = []
        for dr, dx in ((-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1)):
            rr, xx = r + dr, x + dx
            if 0 <= rr < self.height:
                i, odd = divmod(xx - self.indent(rr), 2)
                if not odd and 0 <= i < self.row_length(rr):
                    out.append((rr, i))
        return out

    def cols(self) -> tuple:
        raise ValueError("a hex board has no columns")
