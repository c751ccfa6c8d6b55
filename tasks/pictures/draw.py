"""Stage: draw.  Instance + the answer's shown tokens -> a standalone SVG picture.

Nothing here knows a genre.  The picture is drawn from what every spec has:
the board's cells (squares, or hexagons on hex boards; a JSON board's holes are
left out), region borders where the instance has a `regions` layer, the clues,
and the answer as its `show` prints it, read in the conventions of the text
grids (docs/language.md, "Answers"): `#` shades a cell, `*` places an object,
`/` and `\\` draw a diagonal across the cell,
the box-drawing characters draw a loop or path through the cell centres (on a
`show grid(h, w)` canvas: along the grid's lines, or between cells), and any
other token is written in its cell.  A clue cell whose answer token is the
clue shows the clue; a different answer is written over it, the clue small in
the corner.  A spec adds hints where the conventions do not say enough:

    draw clues in {"w"} as circle     # Masyu: a white pearl
    draw clues in {"b"} as disc       #        a black one
    draw answer as regions            # Shikaku: the labels divide the board

For example the 2 x 1 Nurikabe answer `1#` (a clue 1 beside the sea) becomes

    <svg ... viewBox="0 0 120 80">
      <rect class="cell" x="20" y="20" width="40" height="40" .../>   (both cells)
      <rect class="shade" x="60" y="20" .../>                          (the sea)
      <text class="clue" x="40" y="40" ...>1</text>
    </svg>
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from ...encoder.builtins.clues import token_text
from ...runtime.errors import PzcError
from ...encoder import syntax as ast
from ...encoder.render import AnswerAtStep, cell_tokens
from ...encoder.interpreter.values import PSet


S = 40                      # a square cell's side, in SVG units
M = 20                      # the margin around the board
R = 24                      # a hexagon's circumradius

INK = "#222"
ANSWER_INK = "#1f4fbf"      # numbers the solver wrote
PATH = "#2a8a3e"
GRID = "#9a9a9a"
SHADE = "#3a3a3a"
LOCKED = "#dcdcdc"
CULPRIT = "#d62728"
DIFFERS = "#ff8c00"
SUGGEST = "#1f77d4"
REGION_FILLS = ("#fde2c8", "#d4ecd4", "#d6e4f5", "#f5d6e8", "#fff2b3", "#e0d6f5",
                "#cdeeee", "#f0e0c8", "#e4f5c8", "#f5cccc", "#d0d8e8", "#ece4d8")

# box-drawing characters: the directions they go (up, down, left, right), doubled or not;
# a line that ends in the cell goes one way only
_BOX = {"─": "lr", "│": "ud", "┌": "dr", "┐": "dl", "└": "ur", "┘": "ul", "├": "udr",
        "┤": "udl", "┬": "dlr", "┴": "ulr", "┼": "udlr", "═": "LR", "║": "UD",
        "╴": "l", "╵": "u", "╶": "r", "╷": "d"}
_CANVAS_LINES = {"-": "lr", "|": "ud"}    # the lattice of `show grid(...)`: ASCII lines too
_STEP = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
# a clue that is a number with an arrow (u d l r, or janko's n s w e): "2d", "1wx"
_ARROW_CLUE = re.compile(r"(\d*|\?)([udlrnsew]?)")
_COMPASS = {"n": "u", "s": "d", "w": "l", "e": "r"}
# a diagonal across the cell: the corners it joins, as (x, y) signs from the centre
_SLASHES = {"/": ((-1, 1), (1, -1)), "\\": ((-1, -1), (1, 1))}
_BLANK = {"", ".", " "}
# the dark half of a cell: the corner it fills, as (row, column) signs
_HALVES = {"◤": (-1, -1), "◥": (-1, 1), "◢": (1, 1), "◣": (1, -1)}
_BARS = {"|": (1, 0), "-": (0, 1)}          # the bar's direction
# what an answer token is drawn as when no `draw` hint says otherwise
_TOKEN_SHAPES = {"#": "shade", "*": "disc", "o": "circle", "c": "circle", "t": "triangle",
                 "s": "square", **{t: "half" for t in _HALVES}, **{t: "bar" for t in _BARS},
                 **{t: "slash" for t in _SLASHES}}
FUTON = "#f3dfc1"
_OBJECTS = ("disc", "circle", "star", "triangle", "square")


@dataclass
class Picture:
    """What an answer shows, as plain data: the tokens of its grid `show`
    (cells, or the points of a canvas) and of its `show text` drawing."""
    cells: dict = field(default_factory=dict)      # cell -> token
    canvas: dict | None = None                     # (row, col) -> token of a show grid(...)
    canvas_size: tuple | None = None               # (height, width)
    text: dict | None = None                       # cell -> token of `show text c: ...`


def picture(spec, instance, answer) -> Picture:
    """The shown tokens of ``answer`` (None: the bare puzzle)."""
    pic = Picture()
    if answer is None:
        return pic
    show = spec.show_cell
    if isinstance(show, ast.ShowCanvas):
        pic.canvas = cell_tokens(spec, instance, answer, show)
        h = max((r for r, _ in pic.canvas), default=-1) + 1
        w = max((c for _, c in pic.canvas), default=-1) + 1
        pic.canvas_size = (h, w)
    elif show is not None:
        pic.cells = cell_tokens(spec, instance, answer, show)
    if isinstance(spec.show_text, ast.ShowCell):
        pic.text = cell_tokens(spec, instance, answer, spec.show_text)
    return pic


def plan_pictures(spec, instance, answer) -> list:
    """A plan's boards as Pictures, the start first."""
    return [picture(spec, instance, AnswerAtStep(answer, t)) for t in range(len(answer.states))]


def solution_picture(spec, cells: dict) -> Picture:
    """The Picture of an enumerated solution, from the tokens it was compared by."""
    show = spec.show_cell or spec.show_text
    if isinstance(show, ast.ShowCanvas):
        h = max((r for r, _ in cells), default=-1) + 1
        w = max((c for _, c in cells), default=-1) + 1
        return Picture(canvas=dict(cells), canvas_size=(h, w))
    return Picture(cells=dict(cells))


# ---------------------------------------------------------------- the board

class _Board:
    """Where cells are: centres, outlines and sides, for square and hex boards."""

    def __init__(self, instance):
        geom = instance.geometry
        if geom is None:
            raise PzcError(f"{instance.name}: this instance has no board to draw")
        self.geom = geom
        self.cells = list(geom.cells)
        if not all(isinstance(c, tuple) and len(c) == 2 and all(type(x) is int for x in c)
                   for c in self.cells):
            raise PzcError(f"{instance.name}: only boards of (row, column) cells can be drawn")
        self.hex = geom.kind == "hex"
        if self.hex:
            self.unit = R * math.sqrt(3) / 2            # half a hexagon's width
            xs = [geom.indent(r) + 2 * i for r, i in self.cells]
            self.width = M * 2 + (max(xs) + 2) * self.unit
            self.height = M * 2 + R * (1.5 * (geom.height - 1) + 2)
        else:
            rows = max(r for r, _ in self.cells) + 1 if self.cells else 0
            cols = max(c for _, c in self.cells) + 1 if self.cells else 0
            self.rows, self.cols = rows, cols
            # room for the clues outside the grid, on their sides
            self.pad = {side: _outside_depth(instance, side) for side in instance.outside}
            self.x0 = M + self.pad.get("left", 0)
            self.y0 = M + self.pad.get("top", 0)
            self.width = M * 2 + cols * S + self.pad.get("left", 0) + self.pad.get("right", 0)
            self.height = M * 2 + rows * S + self.pad.get("top", 0) + self.pad.get("bottom", 0)
        self.size = S if not self.hex else R * 1.5

    def centre(self, cell):
        r, c = cell
        if self.hex:
            x = self.geom.indent(r) + 2 * c
            return M + (x + 1) * self.unit, M + R + 1.5 * R * r
        return self.x0 + c * S + S / 2, self.y0 + r * S + S / 2

    def dot(self, point):
        """Where the corner (row, column) of the cells is drawn."""
        r, c = point
        return self.x0 + c * S, self.y0 + r * S

    def outline(self, cell) -> list:
        """The corners of a cell, clockwise from the top (hex) or top-left."""
        x, y = self.centre(cell)
        if self.hex:
            return [(x + R * math.cos(math.radians(a)), y + R * math.sin(math.radians(a)))
                    for a in (-90, -30, 30, 90, 150, 210)]
        h = S / 2
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]

    def sides(self, cell):
        """Each side of a cell with the cell beyond it (None off the board)."""
        pts = self.outline(cell)
        x, y = self.centre(cell)
        out = []
        for i in range(len(pts)):
            p, q = pts[i], pts[(i + 1) % len(pts)]
            mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            beyond = None
            for n in self.geom.neighbours(cell):
                nx, ny = self.centre(n)
                if abs((x + nx) / 2 - mid[0]) < 0.5 and abs((y + ny) / 2 - mid[1]) < 0.5:
                    beyond = n
            out.append((p, q, beyond))
        return out

    def toward(self, cell, d):
        """The point halfway to the cell beyond side d (u, d, l, r) and that cell."""
        x, y = self.centre(cell)
        dr, dc = _STEP[d]
        other = (cell[0] + dr, cell[1] + dc)
        if self.hex:           # hex boards have left and right neighbours only among u/d/l/r
            other = (cell[0], cell[1] + dc) if dr == 0 else None
        step = S if not self.hex else 2 * self.unit
        return (x + dc * step / 2, y + dr * step / 2), other


_SLOT = 0.6 * S          # the room one number of a list outside the grid takes


def _outside_depth(instance, side) -> float:
    """How far the clues outside one side of the grid reach from it."""
    longest = max((len(v) for p, v in instance.clues.items()
                   if type(v) is tuple and _side_of(instance, p) == side), default=1)
    return max(S, longest * _SLOT)


def _side_of(instance, place):
    r, c = place
    g = instance.geometry
    return ("top" if r == -1 else "bottom" if r == g.height else
            "left" if c == -1 else "right" if c == g.width else None)


def _outside_clues(svg, board, instance):
    """The clues outside the grid, beside their rows and columns; a list of
    numbers reads toward the board (top: downward; left: rightward)."""
    for place in instance.outside_places():
        if place not in instance.clues:
            continue
        value = instance.clues[place]
        side = _side_of(instance, place)
        items = [str(v) for v in value] if type(value) is tuple else \
            [instance.tokens.get(place, str(value))]
        x, y = board.centre(place)
        n = len(items)
        for i, item in enumerate(items):
            # slot i of n, counted from the board outward for the sides that read toward it
            away = (n - i - 0.5) * _SLOT if side in ("top", "left") else (i + 0.5) * _SLOT
            if n == 1:
                ix, iy = x, y
            elif side in ("top", "bottom"):
                edge = board.y0 if side == "top" else board.y0 + board.rows * S
                ix, iy = x, edge - away if side == "top" else edge + away
            else:
                edge = board.x0 if side == "left" else board.x0 + board.cols * S
                ix, iy = (edge - away if side == "left" else edge + away), y
            size = _font(item, S) if n == 1 else _font(item, _SLOT * 1.4)
            svg.text("text", ix, iy, item, size, INK, f"clue outside {side}", weight="bold")


def _place_clues(svg, board, instance, hints):
    """Clues on the corners of the cells (board option `points`) or on the
    places of the doubled grid (`doubled`: cell centres, middles of sides,
    corners): by default a small white disc with the clue in it; a `draw
    clues` hint may make a symbol a circle, a disc or a star alone."""
    scale = S if instance.points else S / 2
    for place, value in instance.clues.items():
        x, y = board.x0 + place[1] * scale, board.y0 + place[0] * scale
        token = instance.tokens.get(place, str(value))
        hinted = hints.shape("clues", value, None)
        shape = hinted or "circle"
        r = S * 0.22
        at = f'data-place="{place[0]},{place[1]}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"'
        if shape == "disc":
            svg.add("dots", f'<circle class="clue place disc" {at} fill="{INK}"/>')
        elif shape == "star":
            svg.add("dots", f'<polygon class="clue place star" data-place="{place[0]},{place[1]}" '
                            f'points="{_points(_star(x, y, r))}" fill="{INK}"/>')
        elif shape in ("circle", "text"):
            svg.add("dots", f'<circle class="clue place" {at} fill="#fff" stroke="{INK}" '
                            f'stroke-width="1.5"/>')
        # the token in it, unless a hint drew a symbol as its shape (a star as a circle)
        if shape in ("circle", "disc", "text") and (hinted in (None, "text")
                                                   or isinstance(value, int) or token == "?"):
            svg.text("dots", x, y, token, S * 0.3, "#fff" if shape == "disc" else INK,
                     "clue place")


def _place_rings(svg, board, instance, places):
    """An explanation's clues on corners or places of the doubled grid: red rings."""
    scale = S if instance.points else S / 2
    for place in dict.fromkeys(tuple(p) for p in places):
        x, y = board.x0 + place[1] * scale, board.y0 + place[0] * scale
        svg.add("marks", f'<circle class="culprit" data-place="{place[0]},{place[1]}" '
                         f'cx="{_n(x)}" cy="{_n(y)}" r="{_n(S * 0.3)}" fill="{CULPRIT}" '
                         f'fill-opacity="0.25" stroke="{CULPRIT}" stroke-width="3"/>')


def _key(p):
    return (round(p[0], 1), round(p[1], 1))


def _n(v) -> str:
    """A coordinate as short text."""
    v = round(v, 2)
    return str(int(v)) if v == int(v) else str(v)


def _points(pts) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


# ---------------------------------------------------------------- hints

class _Hints:
    """The spec's `draw` hints, evaluated: which shape a value is drawn as."""

    def __init__(self, spec, instance):
        from ...encoder.verify import AnswerChecker
        self.rules = {}
        checker = None
        for st in spec.draws:
            values = None
            if st.values is not None:
                if checker is None:
                    checker = AnswerChecker(spec, instance, _NoAnswer())
                with checker:
                    got = checker.eval(st.values, {})
                values = _value_set(got)
            self.rules.setdefault(st.target, []).append((values, st.shape))

    def shape(self, target, value, default):
        """The shape of the last hint about ``value`` on ``target``, else ``default``."""
        found = default
        for values, shape in self.rules.get(target, ()):
            if values is None or _text(value) in values:
                found = shape
        return found

    def named(self, target, value, default):
        """The shape of the last hint whose values name ``value`` itself (a
        hint about every value does not count), else ``default``."""
        found = default
        for values, shape in self.rules.get(target, ()):
            if values is not None and _text(value) in values:
                found = shape
        return found

    def layer_shapes(self, target) -> set:
        return {shape for _, shape in self.rules.get(target, ())}


class _NoAnswer:
    values = {}
    states = [{}]
    actions = []


def _value_set(got) -> set:
    if isinstance(got, (PSet, list, tuple, range, set, frozenset)):
        return {_text(v) for v in got}
    return {_text(got)}


def _text(value) -> str:
    if type(value) is bool:
        return "1" if value else "0"
    return str(value)


# ---------------------------------------------------------------- drawing

class _Svg:
    """SVG elements in layers, drawn bottom to top."""

    ORDER = ("fill", "shade", "regions", "canvas", "clue", "path", "object",
             "text", "dots", "marks", "notes")

    def __init__(self):
        self.layers = {name: [] for name in self.ORDER}

    def add(self, layer, element):
        self.layers[layer].append(element)

    def document(self, width, height, title=None) -> str:
        w, h = _n(width), _n(height)
        body = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
                f'height="{h}" font-family="DejaVu Sans, Arial, sans-serif">']
        if title:
            body.append(f"<title>{escape(title)}</title>")
        body.append(f'<rect class="background" x="0" y="0" width="{w}" height="{h}" fill="#fff"/>')
        for name in self.ORDER:
            if self.layers[name]:
                body.append(f'<g class="{name}">')
                body.extend(self.layers[name])
                body.append("</g>")
        body.append("</svg>")
        return "\n".join(body) + "\n"

    def text(self, layer, x, y, s, size, fill, cls, anchor="middle", weight="normal"):
        self.add(layer, f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" '
                        f'fill="{fill}" text-anchor="{anchor}" dominant-baseline="central" '
                        f'font-weight="{weight}">{escape(s)}</text>')


def board_svg(spec, instance, pic: Picture | None = None, **options) -> str:
    """The standalone SVG document of ``instance`` with ``pic`` (an answer's
    Picture, None for the bare puzzle); ``options`` as board_figure takes them."""
    return board_figure(spec, instance, pic, **options).svg


@dataclass
class Figure:
    svg: str
    width: float
    height: float


def board_figure(spec, instance, pic: Picture | None = None, *, highlight=(), involved=(),
                 marks=(), suggest=(), notes=(), title: str | None = None) -> Figure:
    """board_svg's document with its size.  Cells drawn over the answer:
    ``highlight`` culprits (filled red: an explanation's clues), ``involved``
    (a dashed red outline: the cells its rule instances name), ``marks``
    where two solutions differ (orange; a canvas's points get rings),
    ``suggest`` a clue to add (blue).  ``notes``: lines of text below the board."""
    pic = pic or Picture()
    board = _Board(instance)
    hints = _Hints(spec, instance)
    svg = _Svg()
    answer_regions = "regions" in hints.layer_shapes("answer")
    region_layers = [name for name in spec.layer_names
                     if (name == "regions" and not hints.layer_shapes(name))
                     or "regions" in hints.layer_shapes(name)]
    _cells(svg, board, instance, pic, answer_regions)
    groups = [instance.clues if name == "clues" else instance.layers.get(name, {})
              for name in region_layers]
    _borders(svg, board, groups + ([pic.cells] if answer_regions else []))
    # a plan's clues are its start, which the first board shows as the answer
    clues = instance.clues if spec.plan is None or not pic.cells else {}
    if instance.points or instance.doubled:
        clues = {}
        _place_clues(svg, board, instance, hints)
    elif instance.outside:
        _outside_clues(svg, board, instance)
    # layers drawn in the cells: all but the clues and region layers, and those
    # of a region layer's values that a hint draws otherwise (Double Back's holes)
    extra = [name for name in spec.layer_names if name != "clues" and (
        name not in region_layers or hints.layer_shapes(name) - {"regions"})]
    # a bare puzzle shows the clues its answer hides (tiles the answer moves,
    # drawn where they end) as plain clues: where they start
    bare = not (pic.cells or pic.canvas or pic.text)
    for cell in board.cells:
        _cell(svg, board, cell, instance, pic, hints, clues, extra, answer_regions, bare)
    if pic.text:
        for cell, token in pic.text.items():
            if token in _BOX and cell in board.geom:
                _path(svg, board, cell, _BOX[token], pic.text, "path")
    if pic.canvas is not None:
        _canvas(svg, board, pic, instance)
    if instance.points or instance.doubled:     # culprit clues sit on corners or places
        _place_rings(svg, board, instance, highlight)
        highlight = ()
    _marks(svg, board, pic, marks, highlight, involved, suggest)
    width, height = board.width, board.height
    for line in notes:
        svg.text("notes", M, height + 2, line, 13, INK, "note", anchor="start")
        height += 19
        width = max(width, M * 2 + len(line) * 7.4)
    if notes:
        height += M / 2
    return Figure(svg.document(width, height, title), width, height)


def _cells(svg, board, instance, pic, answer_regions):
    """Every cell: white, grey when locked, a region's colour in a divided answer."""
    fills = _region_fills(board, pic.cells) if answer_regions else {}
    for cell in board.cells:
        fill = fills.get(cell) or (LOCKED if cell in instance.locked else "#fff")
        svg.add("fill", f'<polygon class="cell" data-cell="{cell[0]},{cell[1]}" '
                        f'points="{_points(board.outline(cell))}" fill="{fill}" '
                        f'stroke="{GRID}" stroke-width="1"/>')


def _borders(svg, board, groups):
    """Thick lines on the board's edge and between cells that some of
    ``groups`` (cell -> region id) puts in different regions."""
    thick = set()
    for cell in board.cells:
        for p, q, beyond in board.sides(cell):
            if beyond is None or any(g.get(cell) != g.get(beyond) for g in groups):
                key = tuple(sorted((_key(p), _key(q))))
                if key not in thick:
                    thick.add(key)
                    svg.add("regions", f'<line class="border" x1="{_n(p[0])}" y1="{_n(p[1])}" '
                                       f'x2="{_n(q[0])}" y2="{_n(q[1])}" stroke="{INK}" '
                                       f'stroke-width="3" stroke-linecap="round"/>')


def _cell(svg, board, cell, instance, pic, hints, clues, extra, answer_regions, bare=False):
    """One cell's clue, other layers and answer: the answer wins over the
    clue, which stays beneath a shading, an object or a loop, and in the
    corner under a different number."""
    layout = instance.layout
    token = pic.cells.get(cell)
    shape = _answer_shape(hints, token, answer_regions)
    clue = clues.get(cell)
    clue_token = instance.tokens.get(cell, token_text(clue, layout) if clue is not None else None)
    clue_shape = hints.shape("clues", clue, "text") if clue is not None else "none"
    if bare and clue is not None and clue_shape == "none":
        clue_shape = "text"
    shows_clue = clue is not None and token is not None and (
        shape == "regions" or token == clue_token and clue_shape not in ("none", "path")
        or shape == "text" and token.startswith(clue_token)
        or shape == clue_shape and shape in _OBJECTS)       # a given circle the answer keeps
    # the answer's number, bar or futon written over a clue puts it in the corner
    small = token is not None and not shows_clue and shape in ("text", "bar", "pillow", "futon")
    on_dark = shape == "shade"          # a shaded answer that is its clue: the clue in white
    if on_dark:
        _shade(svg, board, cell)
    if clue is not None:
        _clue(svg, board, cell, clue, clue_token, clue_shape, on_dark=on_dark, small=small)
    for name in extra:
        value = instance.layers.get(name, {}).get(cell)
        if value is not None:
            _clue(svg, board, cell, value, token_text(value, layout),
                  hints.shape(name, value, "text"), on_dark=on_dark, small=True, layer=name)
    if token is None or shows_clue:
        return
    if shape == "path":
        _path(svg, board, cell, _BOX[token], pic.cells, "path")
    elif shape == "slash" and token in _SLASHES and not board.hex:
        x, y = board.centre(cell)
        (ax, ay), (bx, by) = _SLASHES[token]
        h = S / 2
        svg.add("path", f'<line class="slash" data-cell="{cell[0]},{cell[1]}" '
                        f'x1="{_n(x + ax * h)}" y1="{_n(y + ay * h)}" x2="{_n(x + bx * h)}" '
                        f'y2="{_n(y + by * h)}" stroke="{INK}" stroke-width="4" '
                        f'stroke-linecap="round"/>')
    elif shape == "half":
        _half(svg, board, cell, _HALVES[token])
    elif shape == "bar":
        _bar(svg, board, cell, _BARS[token])
    elif shape in ("pillow", "futon"):
        _futon(svg, board, cell, shape == "pillow")
    elif shape in ("triangle", "square"):
        _object(svg, board, cell, shape)
    elif shape in ("disc", "circle", "star", "cross"):
        _object(svg, board, cell, shape)
        if token not in _TOKEN_SHAPES and token not in _BLANK and shape in ("disc", "circle"):
            x, y = board.centre(cell)
            svg.text("text", x, y, token, _font(token, board.size) * 0.9,
                     "#fff" if shape == "disc" else ANSWER_INK, "answer")
    elif shape == "text":
        x, y = board.centre(cell)
        svg.text("text", x, y, token, _font(token, board.size), ANSWER_INK, "answer")


def _marks(svg, board, pic, marks, highlight, involved, suggest):
    """Where two solutions differ (orange outlines; rings on a canvas's
    points), the culprits of an explanation (red) and a clue to add (blue)."""
    for cell in marks:
        cell = tuple(cell)
        if pic.canvas is not None:
            x, y = _canvas_point(board, pic, cell)
            svg.add("marks", f'<circle class="differs" cx="{_n(x)}" cy="{_n(y)}" r="{_n(S / 4)}" '
                             f'fill="none" stroke="{DIFFERS}" stroke-width="3"/>')
        elif cell in board.geom:
            svg.add("marks", f'<polygon class="differs" data-cell="{cell[0]},{cell[1]}" '
                             f'points="{_points(_inset(board, cell, 3))}" fill="none" '
                             f'stroke="{DIFFERS}" stroke-width="4"/>')
    styles = (("involved", involved, f'fill="none" stroke="{CULPRIT}" stroke-width="2" '
                                     f'stroke-dasharray="5,3"', 6),
              ("culprit", highlight, f'fill="{CULPRIT}" fill-opacity="0.25" stroke="{CULPRIT}" '
                                     f'stroke-width="4"', 3),
              ("suggest", suggest, f'fill="{SUGGEST}" fill-opacity="0.2" stroke="{SUGGEST}" '
                                   f'stroke-width="4"', 3))
    for cls, cells, style, inset in styles:
        for cell in dict.fromkeys(tuple(c) for c in cells):
            if cell in board.geom:
                svg.add("marks", f'<polygon class="{cls}" data-cell="{cell[0]},{cell[1]}" '
                                 f'points="{_points(_inset(board, cell, inset))}" {style}/>')


def _answer_shape(hints, token, answer_regions) -> str:
    if token is None:
        return "none"
    if token in _BLANK:              # drawn only as a hint that names it says
        return hints.named("answer", token, "none")
    if answer_regions:
        return "regions"
    if token in _BOX:
        return "path"
    return hints.shape("answer", token, _TOKEN_SHAPES.get(token, "text"))


def _font(token: str, size: float) -> float:
    return size * (0.6 if len(token) <= 1 else 0.5 if len(token) == 2 else 1.3 / len(token))


def _inset(board, cell, by):
    x, y = board.centre(cell)
    out = []
    for px, py in board.outline(cell):
        d = math.hypot(px - x, py - y) or 1
        out.append((px - (px - x) * by / d, py - (py - y) * by / d))
    return out


def _shade(svg, board, cell):
    svg.add("shade", f'<polygon class="shade" data-cell="{cell[0]},{cell[1]}" '
                     f'points="{_points(board.outline(cell))}" fill="{SHADE}"/>')


def _clue(svg, board, cell, value, token, shape, on_dark=False, small=False, layer="clues"):
    """A clue (or another layer's value) in its cell, drawn as ``shape``."""
    x, y = board.centre(cell)
    size = board.size
    cls = "clue" if layer == "clues" else f"layer-{layer}"
    ink = "#fff" if on_dark else INK
    if shape in ("none", "regions"):           # regions: drawn as borders
        return
    if shape == "arrow" and str(value) in _STEP:        # an arrows layer (Yajilin)
        _arrow(svg, board, cell, str(value), ink)
        return
    if shape in ("arrow", "grey") or shape == "wall" and _ARROW_CLUE.match(token)[0]:
        # a clue cell of its own (Castle Wall's white, grey, black): its number
        # and its arrow, the colour letters after them left out
        number, arrow = _ARROW_CLUE.match(token).groups()
        if shape == "arrow" and not number and not arrow:      # a white clue: a frame
            svg.add("clue", f'<polygon class="{cls} block" data-cell="{cell[0]},{cell[1]}" '
                            f'points="{_points(_inset(board, cell, 12))}" fill="none" '
                            f'stroke="{INK}" stroke-width="1.5"/>')
        elif shape == "grey":
            svg.add("shade", f'<polygon class="block" data-cell="{cell[0]},{cell[1]}" '
                             f'points="{_points(board.outline(cell))}" fill="{LOCKED}"/>')
        elif shape == "wall":
            _shade(svg, board, cell)
        ink = "#fff" if shape == "wall" else INK
        if number:
            svg.text("text", x, y, number, _font(number, size), ink, cls, weight="bold")
        if arrow:
            _arrow(svg, board, cell, _COMPASS.get(arrow, arrow), ink)
        return
    if shape in ("wall", "shade"):
        _shade(svg, board, cell)
        if shape == "wall" and isinstance(value, int) and type(value) is not bool:
            svg.text("text", x, y, token, _font(token, size), "#fff", cls, weight="bold")
        return
    if shape == "sums":
        _sums(svg, board, cell, token)
        return
    if shape == "path" and token in _BOX:      # a given piece of line, under the answer's
        for d in _BOX[token]:
            (mx, my), _ = board.toward(cell, d.lower())
            svg.add("clue", f'<line class="{cls} piece" x1="{_n(x)}" y1="{_n(y)}" x2="{_n(mx)}" '
                            f'y2="{_n(my)}" stroke="{INK}" stroke-width="11" '
                            f'stroke-linecap="round"/>')
        return
    if shape in ("triangle", "square"):
        _object(svg, board, cell, shape, cls=cls)
        return
    if shape in ("circle", "disc", "star"):
        _object(svg, board, cell, shape, cls=cls)
        if isinstance(value, int) and type(value) is not bool:
            svg.text("text", x, y, token, _font(token, size) * 0.9,
                     "#fff" if shape == "disc" else INK, cls)
        return
    if small:                                  # the answer is written over this clue
        svg.text("text", x - size * 0.42, y - size * 0.3, token, size * 0.26, ink, cls,
                 anchor="start")
        return
    svg.text("text", x, y, token, _font(token, size), ink, cls, weight="bold")


def _object(svg, board, cell, shape, cls="object"):
    x, y = board.centre(cell)
    r = board.size * 0.32
    at = f'data-cell="{cell[0]},{cell[1]}"'
    line = ANSWER_INK if cls == "object" else INK      # outlines the answer draws: blue
    if shape == "disc":
        svg.add("object" if cls == "object" else "clue",
                f'<circle class="{cls} disc" {at} cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{INK}"/>')
    elif shape == "circle":
        svg.add("object" if cls == "object" else "clue",
                f'<circle class="{cls} circle" {at} cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="#fff" '
                f'stroke="{line}" stroke-width="2"/>')
    elif shape == "star":
        svg.add("object" if cls == "object" else "clue",
                f'<polygon class="{cls} star" {at} points="{_points(_star(x, y, r))}" '
                f'fill="{INK}"/>')
    elif shape in ("triangle", "square"):          # outlines, as Hakoiri's marks
        k = r * 0.9
        pts = ([(x, y - k * 1.05), (x + k, y + k * 0.7), (x - k, y + k * 0.7)]
               if shape == "triangle" else
               [(x - k * 0.85, y - k * 0.85), (x + k * 0.85, y - k * 0.85),
                (x + k * 0.85, y + k * 0.85), (x - k * 0.85, y + k * 0.85)])
        svg.add("object" if cls == "object" else "clue",
                f'<polygon class="{cls} {shape}" {at} points="{_points(pts)}" fill="none" '
                f'stroke="{line}" stroke-width="2.5" stroke-linejoin="round"/>')
    elif shape == "cross":
        d = r * 0.7
        svg.add("object", f'<path class="{cls} cross" {at} d="M{_n(x - d)},{_n(y - d)}L{_n(x + d)},'
                          f'{_n(y + d)}M{_n(x - d)},{_n(y + d)}L{_n(x + d)},{_n(y - d)}" '
                          f'stroke="{INK}" stroke-width="3"/>')


def _star(x, y, r) -> list:
    """The ten corners of a five-pointed star about (x, y), its points r * 1.15 out."""
    out = []
    for k in range(10):
        a = math.radians(-90 + 36 * k)
        rr = r * 1.15 if k % 2 == 0 else r * 0.46
        out.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return out


def _half(svg, board, cell, corner):
    """The dark half of a square cell on the side of ``corner`` ((row, column)
    signs: (-1, -1) the top left), cut along the diagonal that misses it."""
    x, y = board.centre(cell)
    h = board.size / 2
    dr, dc = corner
    pts = [(x + dc * h, y + dr * h), (x - dc * h, y + dr * h), (x + dc * h, y - dr * h)]
    svg.add("shade", f'<polygon class="half" data-cell="{cell[0]},{cell[1]}" '
                     f'points="{_points(pts)}" fill="{SHADE}"/>')


def _bar(svg, board, cell, direction):
    """A bar across the cell, along ``direction`` ((1, 0) up and down)."""
    x, y = board.centre(cell)
    k = board.size * 0.38
    dr, dc = direction
    svg.add("object", f'<line class="bar" data-cell="{cell[0]},{cell[1]}" x1="{_n(x - dc * k)}" '
                      f'y1="{_n(y - dr * k)}" x2="{_n(x + dc * k)}" y2="{_n(y + dr * k)}" '
                      f'stroke="{INK}" stroke-width="7" stroke-linecap="round"/>')


def _futon(svg, board, cell, pillow):
    """Half a futon: the cell padded with the quilt's colour; the pillow's
    half also shows the pillow, a white box in it."""
    x, y = board.centre(cell)
    at = f'data-cell="{cell[0]},{cell[1]}"'
    svg.add("object", f'<polygon class="futon" {at} points="{_points(_inset(board, cell, 3))}" '
                      f'fill="{FUTON}" stroke="{INK}" stroke-width="1.5"/>')
    if pillow:
        k = board.size * 0.24
        svg.add("object", f'<rect class="pillow" {at} x="{_n(x - k)}" y="{_n(y - k * 0.7)}" '
                          f'width="{_n(2 * k)}" height="{_n(1.4 * k)}" rx="3" fill="#fff" '
                          f'stroke="{INK}" stroke-width="1.5"/>')


def _arrow(svg, board, cell, direction, ink):
    """A small arrow at the cell's side, pointing u, d, l or r."""
    if direction not in _STEP:
        return
    x, y = board.centre(cell)
    dr, dc = _STEP[direction]
    k = board.size
    if dc:          # left or right: the arrow sits above the number
        ax, ay, l = x, y - k * 0.34, k * 0.22
        tip = (ax + dc * l, ay)
        tail = (ax - dc * l, ay)
        wing = [(tip[0] - dc * k * 0.1, ay - k * 0.07), (tip[0] - dc * k * 0.1, ay + k * 0.07)]
    else:           # up or down: beside the number, on the left
        ax, ay, l = x - k * 0.34, y, k * 0.22
        tip = (ax, ay + dr * l)
        tail = (ax, ay - dr * l)
        wing = [(ax - k * 0.07, tip[1] - dr * k * 0.1), (ax + k * 0.07, tip[1] - dr * k * 0.1)]
    svg.add("text", f'<path class="arrow" d="M{_n(tail[0])},{_n(tail[1])}L{_n(tip[0])},{_n(tip[1])}'
                    f'M{_n(wing[0][0])},{_n(wing[0][1])}L{_n(tip[0])},{_n(tip[1])}'
                    f'L{_n(wing[1][0])},{_n(wing[1][1])}" stroke="{ink}" stroke-width="2" '
                    f'fill="none"/>')


def _sums(svg, board, cell, token):
    """A sum cell ("DOWN,ACROSS", either side may be empty): grey, split by
    its diagonal, the down sum below it and the across sum above it."""
    x, y = board.centre(cell)
    h = board.size / 2
    svg.add("shade", f'<polygon class="block" data-cell="{cell[0]},{cell[1]}" '
                     f'points="{_points(board.outline(cell))}" fill="{LOCKED}"/>')
    down, _, across = token.partition(",")
    if "," not in token:
        return
    svg.add("clue", f'<line class="diagonal" x1="{_n(x - h)}" y1="{_n(y - h)}" x2="{_n(x + h)}" '
                    f'y2="{_n(y + h)}" stroke="{INK}" stroke-width="1"/>')
    if down:
        svg.text("text", x - h * 0.45, y + h * 0.5, down, h * 0.55, INK, "clue")
    if across:
        svg.text("text", x + h * 0.45, y - h * 0.5, across, h * 0.55, INK, "clue")


def _path(svg, board, cell, directions, tokens, layer):
    """A loop or path through the cell centre: a line to each side it goes
    through, on into the next cell when that cell draws no line of its own."""
    x, y = board.centre(cell)
    for d in directions:
        double = d.isupper()
        d = d.lower()
        (mx, my), other = board.toward(cell, d)
        ex, ey = mx, my
        if other is not None and other in board.geom and tokens.get(other) not in _BOX:
            ex, ey = board.centre(other)
        _line(svg, layer, x, y, ex, ey, double, "path")


def _line(svg, layer, x1, y1, x2, y2, double, cls):
    if not double:
        svg.add(layer, f'<line class="{cls}" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" '
                       f'y2="{_n(y2)}" stroke="{PATH}" stroke-width="5" stroke-linecap="round"/>')
        return
    dx, dy = x2 - x1, y2 - y1
    d = math.hypot(dx, dy) or 1
    ox, oy = -dy / d * 4, dx / d * 4
    for s in (1, -1):
        svg.add(layer, f'<line class="{cls}" x1="{_n(x1 + s * ox)}" y1="{_n(y1 + s * oy)}" '
                       f'x2="{_n(x2 + s * ox)}" y2="{_n(y2 + s * oy)}" stroke="{PATH}" '
                       f'stroke-width="3" stroke-linecap="round"/>')


def _canvas(svg, board, pic, instance):
    """The tokens of a `show grid(h, w)` canvas.  One of (2h+1) x (2w+1) points
    is the dot lattice (its odd points the cells); one of (2h-1) x (2w-1)
    points has the cells at its even points and what lies between them between."""
    if board.hex:
        raise PzcError("a `show grid(...)` canvas can be drawn on square boards only")
    ch, cw = pic.canvas_size
    if (ch, cw) == (2 * board.rows + 1, 2 * board.cols + 1):
        origin, cell_at = (M, M), lambda i, j: (i // 2, j // 2) if i % 2 and j % 2 else None
    elif (ch, cw) == (2 * board.rows - 1, 2 * board.cols - 1):
        origin, cell_at = (M + S / 2, M + S / 2), (
            lambda i, j: (i // 2, j // 2) if not i % 2 and not j % 2 else None)
    else:
        origin, cell_at = (M, M), lambda i, j: None
    half = S / 2
    for (i, j), token in pic.canvas.items():
        x, y = origin[0] + j * half, origin[1] + i * half
        cell = cell_at(i, j)
        dirs = _BOX.get(token) or _CANVAS_LINES.get(token)
        if dirs:
            for d in dirs:
                dr, dc = _STEP[d.lower()]
                _line(svg, "canvas", x, y, x + dc * half, y + dr * half, d.isupper(), "path")
        elif token == "+" and cell is None:
            svg.add("dots", f'<circle class="dot" cx="{_n(x)}" cy="{_n(y)}" r="2.5" fill="{INK}"/>')
        elif token not in _BLANK:
            if cell is not None and cell in instance.clues:
                continue                       # the clue is drawn already
            size = S * (0.6 if cell is not None else 0.35)
            svg.text("text", x, y, token, size, ANSWER_INK, "answer")


def _canvas_point(board, pic, point):
    """Where a canvas point lies on the board."""
    ch, cw = pic.canvas_size
    base = M + S / 2 if (ch, cw) == (2 * board.rows - 1, 2 * board.cols - 1) else M
    return base + point[1] * S / 2, base + point[0] * S / 2


def _region_fills(board, tokens) -> dict:
    """A colour per region of the answer (labels in order of first appearance)."""
    order = {}
    out = {}
    for cell in board.cells:
        label = tokens.get(cell)
        if label is None or label in _BLANK:
            continue
        k = order.setdefault(label, len(order))
        out[cell] = REGION_FILLS[k % len(REGION_FILLS)]
    return out


# ---------------------------------------------------------------- pages

def side_by_side(figures: list, captions: list, title: str | None = None) -> str:
    """One SVG document of several figures in a row (wrapping after about
    1200 units), each with its caption above it."""
    gap, line = 16, 22
    placed, x, y, row_h, width = [], 0.0, 0.0, 0.0, 0.0
    for fig, caption in zip(figures, captions):
        fig_w = max(fig.width, M + len(caption) * 8.5)
        if x and x + fig_w > 1200:
            x, y, row_h = 0.0, y + row_h + gap, 0.0
        placed.append((x, y))
        x += fig_w + gap
        row_h = max(row_h, fig.height + line)
        width = max(width, x - gap)
    height = y + row_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" '
           f'width="{_n(width)}" height="{_n(height)}" font-family="DejaVu Sans, Arial, sans-serif">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect class="background" x="0" y="0" width="{_n(width)}" height="{_n(height)}" '
               f'fill="#fff"/>')
    for fig, caption, (fx, fy) in zip(figures, captions, placed):
        out.append(f'<text class="caption" x="{_n(fx + M)}" y="{_n(fy + line / 2 + 2)}" '
                   f'font-size="15" fill="{INK}" dominant-baseline="central">{escape(caption)}</text>')
        inner = fig.svg.replace("<svg ", f'<svg x="{_n(fx)}" y="{_n(fy + line)}" ', 1)
        out.append(inner.rstrip("\n"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


@dataclass
class Document:
    """One instance's picture: an SVG document, or a plan's boards (SVGs with
    captions, the start first) that a page steps through."""
    heading: str
    svg: str | None = None
    frames: list | None = None
    captions: list | None = None

    @property
    def is_plan(self) -> bool:
        return self.frames is not None


_STYLE = ("body{font-family:sans-serif;margin:2em}section{margin-bottom:2.5em}"
          "h2{font-size:1.1em}.frame{display:none}.frame.on{display:block}"
          "button{font-size:1em;margin-right:.4em}")

_STEPPER = """<script>
document.querySelectorAll('.plan').forEach(function (plan) {
  var frames = plan.querySelectorAll('.frame'), k = 0;
  var where = plan.querySelector('.where');
  function show(i) {
    k = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach(function (f, j) { f.classList.toggle('on', j === k); });
    where.textContent = ' move ' + k + ' of ' + (frames.length - 1);
  }
  var go = {first: function () { show(0); }, back: function () { show(k - 1); },
            next: function () { show(k + 1); }, last: function () { show(frames.length - 1); }};
  plan.querySelectorAll('button').forEach(function (b) { b.onclick = go[b.dataset.go]; });
  plan.tabIndex = 0;
  plan.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') show(k + 1);
    if (e.key === 'ArrowLeft') show(k - 1);
  });
  var m = /move=(\\d+)/.exec(location.hash);      // page.html#move=3 opens at move 3
  show(m ? +m[1] : 0);
});
</script>"""


def html_page(title: str, documents: list) -> str:
    """One HTML page of several instances' pictures.  A plan's boards are
    frames of its section, one shown at a time, with buttons (and the arrow
    keys) to step through the moves."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title>", f"<style>{_STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>"]
    plans = False
    for doc in documents:
        if not doc.is_plan:
            parts.append(f"<section><h2>{escape(doc.heading)}</h2>")
            parts.append(doc.svg.rstrip("\n"))
            parts.append("</section>")
            continue
        plans = True
        parts.append(f'<section class="plan"><h2>{escape(doc.heading)}</h2>')
        parts.append('<p><button data-go="first">|&lt;</button><button data-go="back">&lt; '
                     'back</button><button data-go="next">next &gt;</button><button '
                     'data-go="last">&gt;|</button><span class="where"></span></p>')
        for k, (svg, caption) in enumerate(zip(doc.frames, doc.captions)):
            on = " on" if k == 0 else ""
            parts.append(f'<div class="frame{on}" data-step="{k}"><p class="caption">'
                         f"{escape(caption)}</p>")
            parts.append(svg.rstrip("\n"))
            parts.append("</div>")
        parts.append("</section>")
    if plans:
        parts.append(_STEPPER)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
