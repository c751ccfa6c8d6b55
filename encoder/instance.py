"""Stage: instance readers.  A file (or standard input) -> a list of Instances.

Formats:
  * text grid: one character per cell, or whitespace-separated tokens; an
    optional "W H" line (width first) before the rows; '#' comment lines;
    several instances per file, separated by blank lines or "W H" lines; a
    "0 0" line ends the file.
  * one puzzle per line (boards declared with the `lines` option, which are
    square): a line of n*n characters (n >= 3) is an n x n board, e.g.
    81-character Sudoku lines (the Sudoku spec makes '.' and '0' blanks).  A
    block of rows that all hold n*n characters is read this way unless it is
    itself n*n rows high.
  * hex (slowfrog's Hexiom levels): a line with the side n, then 2n-1 rows
    of 2n-1-|n-1-r| cells; a cell is a value ('.' or a digit), with '+' right
    before it when locked; cells are separated by spaces.
  * JSON: the whole file is one instance; the spec reads it through `input`.

Tokens become values: in a character grid 0-9 and A-Z are the numbers 0..35
(so Sudoku's 1-9 then A-Z are its symbols), other characters stay symbols; in a
token grid decimal integers are numbers and any other token a symbol.  Blank
cells ('.' unless the board says otherwise) have no clue.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..runtime.errors import PzcError, Source
from ..board.geometry import Geometry, HexGrid, SquareGrid

_HEADER = re.compile(r"^\s*(\d+)\s+(\d+)((?:\s+-?\d+)*)\s*$")
_INT = re.compile(r"^-?\d+$")
_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(eq=False)
class Instance:
    """One puzzle instance: its geometry, clues, locks and where each came from."""
    name: str
    source: Source
    layout: str                     # chars, tokens, lines, hex, json
    geometry: Geometry | None
    clues: dict = field(default_factory=dict)        # cell -> int | str
    tokens: dict = field(default_factory=dict)       # cell -> the clue's text
    locked: set = field(default_factory=set)
    positions: dict = field(default_factory=dict)    # cell -> (line, column)
    data: object = None                              # parsed JSON
    start_line: int = 1
    target: dict | None = None                       # cell -> value of a target grid
    layers: dict = field(default_factory=dict)       # layer name -> {cell: value}, not clues
    params: dict = field(default_factory=dict)       # parameter name -> number
    layer_positions: dict = field(default_factory=dict)  # layer name -> {cell: (line, column)}
    unreadable: PzcError | None = None               # a dataset entry that could not be read
    outside: tuple = ()          # sides whose clues sit outside the grid: (-1, k), (r, -1), ...
    points: bool = False         # the clues are on the dots (corners), not on the cells
    doubled: bool = False        # the clues are on the doubled grid: cells, sides, corners
    draw: str | None = None      # pzc generate's draw on this board: what random(...) reads
    centres: dict | None = None  # read from a picture: cell -> its centre (x, y) in pixels
    _places: set | None = field(default=None, repr=False)   # clue_places(), once found

    def copy(self) -> "Instance":
        """A copy whose clues, tokens and locks can change without touching
        this one (generate blanks clues, explain adds one); the layers are shared."""
        return Instance(self.name, self.source, self.layout, self.geometry, dict(self.clues),
                        dict(self.tokens), set(self.locked), params=dict(self.params),
                        layers=dict(self.layers), outside=self.outside, points=self.points,
                        doubled=self.doubled, draw=self.draw)

    def outside_places(self) -> list:
        """The places of clues outside the grid, side by side in the order the
        instance gives them: top (-1, k), bottom (height, k), left (r, -1),
        right (r, width)."""
        g = self.geometry
        return [p for side in self.outside for p in side_places(side, g.height, g.width)]

    def clue_places(self) -> set | None:
        """Where a clue may be besides the cells (None: the cells only)."""
        if self._places is None:
            self._places = self._find_places()
        return self._places or None

    def _find_places(self) -> set:
        g = self.geometry
        if self.points:
            return {(r, c) for r in range(g.height + 1) for c in range(g.width + 1)}
        if self.doubled:
            return set(doubled_places(g.height, g.width))
        if self.outside:
            return set(self.outside_places())
        return set()

    def error(self, cell_or_pos, message: str) -> PzcError:
        pos = self.positions.get(cell_or_pos, cell_or_pos) if isinstance(cell_or_pos, tuple) else None
        if not (isinstance(pos, tuple) and len(pos) == 2 and all(isinstance(x, int) for x in pos)):
            pos = (self.start_line, 1)
        return self.source.error(pos, message)


def doubled_places(height: int, width: int) -> list:
    """The places of the doubled grid of a height x width board, in reading
    order: (2r+1, 2k+1) is the centre of cell (r, k), (2r, 2k) the dot (r, k),
    and a place with one odd coordinate the middle of a side between them."""
    return [(y, x) for y in range(2 * height + 1) for x in range(2 * width + 1)]


def side_places(side: str, height: int, width: int) -> list:
    """The places outside one side of a height x width grid, in reading order."""
    if side in ("top", "bottom"):
        r = -1 if side == "top" else height
        return [(r, k) for k in range(width)]
    c = -1 if side == "left" else width
    return [(r, c) for r in range(height)]


def token_value(token: str, layout: str):
    """The value of a cell token: a number where it reads as one, else the symbol."""
    if layout in ("chars", "lines"):
        i = _BASE36.find(token)
        return i if i >= 0 and len(token) == 1 else token
    return int(token) if _INT.match(token) else token


def read_file(path: str, kind: str = "instance file") -> Source:
    """Read an instance file ('-' is standard input) into a Source; ``kind``
    names the file in messages (a model file, ...)."""
    a_kind = f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
    if path == "-":
        stdin = sys.stdin
        if stdin is None or stdin.closed:
            raise PzcError(f"cannot read {a_kind} from standard input: it is closed")
        try:
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
        except OSError as e:
            raise PzcError(f"cannot read standard input: {e.strerror}") from None
        return decode("<stdin>", data)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise PzcError(f"no such {kind}: {path}") from None
    except IsADirectoryError:
        raise PzcError(f"{path} is a directory, not {a_kind}") from None
    except OSError as e:
        raise PzcError(f"cannot read {path}: {e.strerror}") from None
    return decode(path, data)


def decode(path: str, data) -> Source:
    """The Source of a file's bytes, read as UTF-8 (a byte order mark dropped);
    a byte that is not UTF-8 is an error at its line and column."""
    if isinstance(data, str):
        return Source(path, data.lstrip("\ufeff"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[start:e.start].decode("utf-8", "replace")) + 1
        end = data.find(b"\n", e.start)
        shown = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace")
        raise PzcError(f"{path} is not UTF-8 text: byte 0x{data[e.start]:02x} ({e.reason})",
                       path, line, column, shown.rstrip("\r")) from None
    return Source(path, text.lstrip("\ufeff"))   # drop a byte order mark


@dataclass(frozen=True)
class Grids:
    """What a square instance holds: its grids in order (the layer named
    'clues' is the one clue(c) reads) and the parameters a header gives."""
    layers: tuple = ("clues",)
    params: tuple = ()
    defaults: tuple = ()          # (name, number) for parameters an instance may leave out
    outside: tuple = ()           # sides holding clues outside the grid, in the order given
    lists: bool = False           # every clue is a list of numbers
    letters: bool = False         # capital letters are symbols, not 10..35
    points: bool = False          # the clue grid gives the dots, one row and column more
    doubled: bool = False         # the clue grid is the doubled grid, 2h+1 rows of 2w+1
    rest: str | None = None       # the last parameter takes every number left, as a list

    def takes(self, count: int) -> bool:
        """Whether a header may give ``count`` numbers after the size."""
        return count <= len(self.params) or self.rest is not None

    def assign(self, numbers: list) -> dict:
        """The parameters a header's numbers give, in order; the list
        parameter takes the rest (none: the empty list)."""
        fixed = [p for p in self.params if p != self.rest]
        out = dict(zip(fixed, numbers))
        if self.rest is not None and len(numbers) >= len(fixed):
            out[self.rest] = tuple(numbers[len(fixed):])
        return out

    def clue_value(self, token: str, layout: str):
        """The value of a clue token of the 'clues' layer; ValueError for a
        list with an empty item."""
        if self.lists:
            parts = token.split(",")
            if any(p == "" for p in parts):
                raise ValueError("a list of numbers has an empty item here")
            return tuple(token_value(p, "tokens") for p in parts)
        if self.letters and token.isalpha():
            return token
        return token_value(token, layout)


ONE_GRID = Grids()


def read_instances(source: Source, board: str, blank: str = ".", lines: bool = False,
                   each: str | None = None, target: bool = False, grids: Grids = ONE_GRID,
                   comments: bool = True, only: str | None = None) -> list:
    """Split a Source into instances for a board kind ('square', 'hex' or 'json');
    ``each`` names the list field of a JSON file whose elements are the instances.
    ``only``: of a dataset file, read just the entry of that name (path#key)."""
    if board == "json":
        found = [_read_json(source)]
        if each is not None:
            found = _split_json(found[0], each)
    else:
        stripped = source.text.lstrip()
        if stripped[:1] in "{[" and stripped:
            entries = _dataset_entries(source) if board == "square" else None
            if entries is None:
                pos = _first_content(source)
                raise source.error(pos, f"this is a JSON instance, but the spec reads a {board} "
                                        f"text board")
            found = []
            # FILE#KEY reads that entry alone; FILE#k (the k-th) reads them all
            entries = [e for e in entries if e.path == only] or entries
            for entry in entries:
                # a dataset's rows may start with '#' (a blocked cell): no comments
                try:
                    found.extend(read_instances(entry, board, blank, lines, None, target, grids,
                                                comments=False))
                except PzcError as e:
                    # one corrupt entry is reported as its own error; the others run
                    found.append(Instance(entry.path, entry, "tokens", None, unreadable=e))
            return found
        if board == "hex":
            found = _read_hex(source, blank)
        elif grids.outside:
            found = _read_outside(source, blank, grids, comments)
        else:
            found = _read_grid(source, blank, lines, target, grids, comments)
            if grids.points:
                found = [_on_points(inst) for inst in found]
            elif grids.doubled:
                found = [_on_doubled(inst) for inst in found]
    if not found:
        raise source.error(None, "the file holds no instance")
    if len(found) > 1:
        for k, inst in enumerate(found, 1):
            inst.name = f"{source.path}#{k}"
    for inst in found:
        _fill_params(inst, grids)
    return found


def _fill_params(inst: Instance, grids: Grids):
    defaults = dict(grids.defaults)
    if grids.rest is not None:
        defaults.setdefault(grids.rest, ())
    for name in grids.params:
        if name not in inst.params:
            if name not in defaults:
                example = " ".join(["R", "C"] + list(grids.params))
                raise inst.source.error((inst.start_line, 1), f"this instance gives no '{name}': "
                                        f"write it after the size, in a header line '{example}'")
            inst.params[name] = defaults[name]


def _dataset_entries(source: Source):
    """A puzzlekit dataset file ({"data": {key: {"problem": text, ...}}}) as
    one Source per entry, named path#key; None for any other JSON."""
    try:
        data = json.loads(source.text)
    except (ValueError, RecursionError):
        return None
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, dict) or not entries or not all(
            isinstance(e, dict) and isinstance(e.get("problem"), str) for e in entries.values()):
        return None
    return [Source(f"{source.path}#{key}", e["problem"]) for key, e in entries.items()]


def _first_content(source: Source):
    for n, line in enumerate(source.text.split("\n"), 1):
        s = line.strip()
        if s:
            return (n, len(line) - len(line.lstrip()) + 1)
    return (1, 1)


def is_comment(line: str) -> bool:
    """'#' then a space, a tab or the end of the line: a comment.  A row such
    as '#1.#' is board content ('#' is a common wall character)."""
    s = line.strip()
    return s.startswith("#") and (len(s) == 1 or s[1] in " \t")


def _lines(source: Source, comments: bool = True):
    """(line number, text) pairs without line ends; comment lines dropped."""
    for n, line in enumerate(source.text.split("\n"), 1):
        if comments and is_comment(line):
            continue
        yield n, line


# ------------------------------------------------------------------ JSON

def _freeze(value):
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return Record({k: _freeze(v) for k, v in value.items()})
    return value


class SamePlace(Mapping):
    """cell -> (line, column) for a board whose every cell is written at one
    place (a URL's body), without a dict of millions of cells to build."""

    def __init__(self, geometry: Geometry, place: tuple):
        self.geometry = geometry
        self.place = place

    def __getitem__(self, cell):
        if cell in self.geometry:
            return self.place
        raise KeyError(cell)

    def __iter__(self):
        return iter(self.geometry.cells)

    def __len__(self):
        return len(self.geometry.cells)


class Record(dict):
    """A JSON object (or a group(...) table): fields read as `x.name` or
    `x["name"]`; hashable, so it can be passed to memoized functions."""

    def __hash__(self):
        return hash(frozenset(self.items()))


MAX_JSON_DEPTH = 100      # lists and objects inside each other; puzzles need a few
_JSON_NESTING = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[\]{}]')


def _too_deep(text: str):
    """(line, column) of the first bracket nested deeper than MAX_JSON_DEPTH,
    or None: deeper JSON is refused before Python's parser recurses into it."""
    depth = 0
    for m in _JSON_NESTING.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                return line, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        elif c in "]}":
            depth -= 1
    return None


def _read_json(source: Source) -> Instance:
    deep = _too_deep(source.text)
    if deep is not None:
        raise source.error(deep, f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
    fractions = []
    try:
        data = json.loads(source.text, parse_float=fractions.append,
                          parse_constant=fractions.append)
    except json.JSONDecodeError as e:
        if source.text.lstrip()[:1] not in "{[":
            raise source.error(_first_content(source),
                               "this spec reads a JSON instance, but the file is not JSON") from None
        raise source.error((e.lineno, e.colno), f"bad JSON: {e.msg}") from None
    if fractions:
        pos, text = _first_fraction(source.text)
        raise source.error(pos, f"{text} is not a whole number: the values of a "
                                f"JSON instance are whole numbers, strings, lists and objects")
    return Instance(source.path, source, "json", None, data=_freeze(data))


_JSON_NUMBER = re.compile(r'"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity')


def _first_fraction(text: str):
    """((line, column), text) of the first number that is not an integer."""
    for m in _JSON_NUMBER.finditer(text):
        t = m.group()
        if t[0] != '"' and not _INT.match(t):
            line = text.count("\n", 0, m.start()) + 1
            return (line, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1), t
    return None, "a number"     # pragma: no cover - json.loads found one


def _split_json(whole: Instance, each: str) -> list:
    """One instance per element of the list field ``each``."""
    data = whole.data
    items = data.get(each) if type(data) is Record else None
    if type(items) is not tuple:
        raise whole.source.error(_first_content(whole.source),
                                 f"the spec reads one instance per element of the list "
                                 f"field '{each}', but this JSON has no such list")
    line = _field_line(whole.source, each)
    return [Instance(whole.name, whole.source, "json", None, data=item, start_line=line)
            for item in items]


def _field_line(source: Source, name: str) -> int:
    for n, text in enumerate(source.text.split("\n"), 1):
        if f'"{name}"' in text:
            return n
    return 1


# ------------------------------------------------------------------ text grid

def _read_grid(source: Source, blank: str, lines_ok: bool, target: bool = False,
               grids: Grids = ONE_GRID, comments: bool = True) -> list:
    out = []
    rows = []           # (line number, text)
    expect = None       # a _Header while its rows are read
    blanks = 0          # blank lines since the last block
    gap = None          # blank lines before the current block (None: after a header)

    def finish():
        nonlocal rows, expect
        if rows or expect:
            found = _grid_block(source, rows, expect, blank, lines_ok, grids)
            if target and gap == 1 and len(found) == 1 and out and _takes_target(out[-1], found[0]):
                _set_target(out[-1], found[0], blank)
            else:
                out.extend(found)
        rows, expect = [], None

    for n, line in _lines(source, comments):
        m = _HEADER.match(line)
        extra = m.group(3).split() if m else []
        # "W H" starts an instance, except inside a token grid without a header,
        # where two numbers are a (perhaps short) row
        if m and grids.takes(len(extra)) and (
                expect is None or len(rows) >= expect.rows(len(grids.layers))) and (
                expect is not None or not rows or not _is_token_row(rows[0][1])):
            finish()
            a, b = int(m.group(1)), int(m.group(2))
            if a == 0 and b == 0:
                break
            if a == 0 or b == 0:
                raise source.error((n, 1), f"a board of {a} x {b} cells has no cells")
            # the header counts cells: a grid of dot clues has one row and column
            # more, a doubled grid 2n+1 for n cells
            a, b = ((a + 1, b + 1) if grids.points else (2 * a + 1, 2 * b + 1) if grids.doubled
                    else (a, b))
            expect = _Header(a, b, n, [int(x) for x in extra])
            gap = None
            continue
        if not line.strip():
            if expect is not None and len(rows) < expect.rows(len(grids.layers)):
                continue  # blank lines inside a headed block are tolerated
            finish()
            blanks += 1
            continue
        if not rows and expect is None:
            gap = blanks if out else None
        blanks = 0
        if expect is not None and not rows:
            expect.orient(line)
        rows.append((n, line))
        if expect is not None and len(rows) == expect.rows(len(grids.layers)):
            finish()
    finish()
    if grids.layers != ("clues",):
        out = _stack_blocks(source, out, grids)
    return out


@dataclass
class _Header:
    """A size line: "W H" (width first, pzc's own files) or "R C" (rows first,
    as janko.at and the puzzlekit dataset write it), then any parameters.
    The first row tells which: a token row of C tokens (C != R) means "R C"."""
    first: int
    second: int
    line: int
    params: list
    width: int = 0
    height: int = 0

    def __post_init__(self):
        self.width, self.height = self.first, self.second

    def orient(self, row: str):
        # janko's files are token grids; a character grid's header is "W H"
        if _is_token_row(row) and len(row.split()) == self.second != self.first:
            self.width, self.height = self.second, self.first

    def rows(self, layers: int) -> int:
        return self.height * layers


def _stack_blocks(source: Source, blocks: list, grids: Grids) -> list:
    """Blocks read one grid at a time (no header, blank lines between them)
    become instances of len(layers) grids each."""
    out = []
    k = len(grids.layers)
    loose = [b for b in blocks if not b.layers]
    done = [b for b in blocks if b.layers]
    if len(loose) % k:
        last = loose[-(len(loose) % k)]
        raise source.error((last.start_line, 1), f"an instance of this spec is {k} grids "
                         f"({', '.join(grids.layers)}), separated by blank lines, but the "
                         f"last one has only {len(loose) % k}")
    for i in range(0, len(loose), k):
        out.append(_merge_layers(source, loose[i:i + k], grids))
    return sorted(done + out, key=lambda inst: inst.start_line)


def _merge_layers(source: Source, parts: list, grids: Grids) -> Instance:
    """One instance from one Instance per layer (all of one size)."""
    first = parts[0]
    size = (first.geometry.width, first.geometry.height)
    for name, part in zip(grids.layers, parts):
        if (part.geometry.width, part.geometry.height) != size:
            raise source.error((part.start_line, 1), f"the grid '{name}' is {part.geometry.width} "
                             f"x {part.geometry.height} cells, but this instance's first grid "
                             f"(line {first.start_line}) is {size[0]} x {size[1]}")
    merged = Instance(source.path, source, first.layout, first.geometry,
                      start_line=first.start_line, params=first.params)
    for name, part in zip(grids.layers, parts):
        if name == "clues":
            merged.clues, merged.tokens, merged.positions = part.clues, part.tokens, part.positions
            merged.layout = part.layout
        elif name == "regions":
            # a region id is any token, a blank character too
            merged.layers[name] = Record({cell: part.clues[cell] if cell in part.clues
                                          else _raw_token(source, pos, part.layout)
                                          for cell, pos in part.positions.items()})
        else:
            merged.layers[name] = Record(part.clues)
        if name != "clues":
            merged.layer_positions[name] = part.positions
    if not merged.positions:
        merged.positions = parts[0].positions
    return merged


def _on_points(inst: Instance) -> Instance:
    """A grid read as the dots of a board: the cells are one row and column fewer."""
    g = inst.geometry
    if g.width < 2 or g.height < 2:
        raise inst.source.error((inst.start_line, 1), f"a grid of dot clues is one row and column "
                                f"larger than the board, so at least 2 x 2, not {g.width} x {g.height}")
    inst.geometry = SquareGrid(g.width - 1, g.height - 1)
    inst.points = True
    return inst


def _on_doubled(inst: Instance) -> Instance:
    """A grid read as the doubled grid of a board: 2h+1 rows of 2w+1 places
    for h x w cells."""
    g = inst.geometry
    if g.width < 3 or g.height < 3 or g.width % 2 == 0 or g.height % 2 == 0:
        raise inst.source.error((inst.start_line, 1), f"a doubled grid of clues has 2h+1 rows of "
                                f"2w+1 places for a board of h x w cells (odd sizes, at least 3 x "
                                f"3), not {g.width} x {g.height}")
    inst.geometry = SquareGrid(g.width // 2, g.height // 2)
    inst.doubled = True
    return inst


def _read_outside(source: Source, blank: str, grids: Grids, comments: bool) -> list:
    """Instances with clues outside the grid: each a header "R C [params]",
    then the outside clues side by side in the order ``grids.outside`` names
    them (a line a side, one token a row or column; with ``lists``, a line a
    row or column, its numbers separated by spaces), then the grids."""
    lines = [(n, t) for n, t in _lines(source, comments) if t.strip()]
    out = []
    i = 0
    while i < len(lines):
        n, text = lines[i]
        m = _HEADER.match(text)
        if not m:
            raise source.error((n, 1), f"an instance of this spec starts with its size, "
                                       f"'R C', then its clues outside the grid "
                                       f"({', '.join(grids.outside)}); this line is not a size")
        a, b = int(m.group(1)), int(m.group(2))
        params = [int(x) for x in m.group(3).split()]
        if a == 0 and b == 0:
            break
        if a == 0 or b == 0:
            raise source.error((n, 1), f"a board of {a} x {b} cells has no cells")
        if not grids.takes(len(params)):
            raise source.error((n, 1), f"this size line gives {len(params)} numbers after the "
                                       f"size, but the spec reads {len(grids.params)}")
        inst, used = _outside_instance(source, (n, a, b, params), lines[i + 1:], blank, grids)
        out.append(inst)
        i += 1 + used
    return out


def _side_lines(grids: Grids, height: int, width: int) -> list:
    """(side, how many lines it takes) for each outside side."""
    if not grids.lists:
        return [(side, 1) for side in grids.outside]
    return [(side, width if side in ("top", "bottom") else height) for side in grids.outside]


def _row_width(text: str) -> int:
    return len(text.split()) if _is_token_row(text) else len(text.strip())


def _outside_instance(source, header, body, blank, grids: Grids):
    """One instance with outside clues and how many lines of ``body`` it takes.
    The header is "R C" (rows first, as janko.at writes it) or "W H": the
    first grid row's width tells which."""
    n, a, b, params = header
    k = len(grids.layers)
    for height, width in dict.fromkeys([(a, b), (b, a)]):
        before = sum(count for _, count in _side_lines(grids, height, width))
        if len(body) >= before + height * k and _row_width(body[before][1]) == width:
            rows = body[before:before + height * k]
            used = before + len(rows)
            break
    else:
        # a board whose clues are all outside may leave its blank grid out
        # (the puzzlekit dataset's Nonograms), with the rows first in the size
        height, width = a, b
        before = sum(count for _, count in _side_lines(grids, height, width))
        if k > 1 or len(body) < before or (len(body) > before
                                           and not _HEADER.match(body[before][1])):
            sides = ", ".join(grids.outside)
            raise source.error((n, 1), f"after this size come the clues outside the grid "
                                       f"({sides}) and {k} grid{'s' if k > 1 else ''} of {a} x "
                                       f"{b}; the lines that follow do not fit that")
        rows = [(n, " ".join(blank[:1] * width))] * height
        used = before
    inst = _grid_block(source, rows, _Header(width, height, n, params), blank, False, grids)[0]
    inst.start_line = n
    inst.params = grids.assign(params)
    inst.outside = grids.outside
    at = 0
    for side, count in _side_lines(grids, height, width):
        places = side_places(side, height, width)
        if grids.lists:
            for place, (line, text) in zip(places, body[at:at + count]):
                _outside_list(source, inst, place, line, text, blank)
        else:
            _outside_line(source, inst, side, places, body[at], blank, grids)
        at += count
    return inst, used


def _outside_line(source, inst, side, places, row, blank, grids: Grids):
    line, text = row
    # one row or column: a longer token ("12") is its one clue, not characters
    wide = len(places) == 1 and len(text.split()) == 1 and len(text.strip()) > 1
    if _is_token_row(text) or inst.layout == "tokens" or wide:
        cells = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    else:
        cells = [(ch, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
    if len(cells) != len(places):
        raise source.error((line, 1), f"the clues outside the {side} of the grid are "
                                      f"{len(places)}, one a {'column' if side in ('top', 'bottom') else 'row'}, "
                                      f"but this line gives {len(cells)}")
    layout = "tokens" if _is_token_row(text) or wide else inst.layout
    for place, (tok, col) in zip(places, cells):
        inst.positions[place] = (line, col)
        if not (len(tok) == 1 and tok in blank):
            try:
                inst.clues[place] = grids.clue_value(tok, layout)
            except ValueError as e:
                raise source.error((line, col), str(e)) from None
            inst.tokens[place] = tok


def _outside_list(source, inst, place, line, text, blank):
    """A line giving one row's or column's list of numbers (a blank: none)."""
    col = len(text) - len(text.lstrip()) + 1
    inst.positions[place] = (line, col)
    items = text.split()
    if len(items) == 1 and len(items[0]) == 1 and items[0] in blank:
        return
    inst.clues[place] = tuple(token_value(t, "tokens") for t in items)
    inst.tokens[place] = ",".join(items)


def _raw_token(source: Source, pos: tuple, layout: str) -> str:
    text = source.line(pos[0])
    if layout == "chars":
        return text[pos[1] - 1]
    return text[pos[1] - 1:].split()[0]


def _takes_target(start: Instance, grid: Instance) -> bool:
    """A grid right after an instance, one blank line apart and of its size, is
    that instance's target (boards declared with the `target` option)."""
    return (start.target is None and start.layout == grid.layout != "lines"
            and (start.geometry.width, start.geometry.height)
            == (grid.geometry.width, grid.geometry.height))


def _set_target(start: Instance, grid: Instance, blank: str):
    start.target = {cell: grid.clues.get(cell, blank[:1]) for cell in grid.geometry.cells}


def _is_token_row(text: str) -> bool:
    return len(text.split()) > 1


def _grid_block(source, rows, expect, blank, lines_ok, grids: Grids = ONE_GRID,
                reader=None) -> list:
    """The instances of one block of rows; ``reader(token, layout)`` gives a
    clue's value (default: the clues layer's, ``grids.clue_value``)."""
    reader = reader or grids.clue_value
    k = len(grids.layers)
    if expect is not None:
        h, hline = expect.height, expect.line
        if len(rows) < h * k:
            where = rows[-1][0] + 1 if rows else hline + 1
            each = f" in each of {k} grids" if k > 1 else ""
            raise source.error((hline, 1), f"the header says {h} rows{each}, but only {len(rows)} "
                               f"{'follows' if len(rows) == 1 else 'follow'} (line {where})")
        if k > 1:
            parts = []
            for i, name in enumerate(grids.layers):
                part = _grid_block(source, rows[i * h:(i + 1) * h], _Header(
                    expect.width, h, hline, []), "" if name == "regions" else blank, False,
                    reader=grids.clue_value if name == "clues" else token_value)[0]
                part.start_line = rows[i * h][0]
                parts.append(part)
            inst = _merge_layers(source, parts, grids)
            inst.start_line = hline
            inst.params = grids.assign(expect.params)
            return [inst]
    tokens_layout = any(len(text.split()) > 1 for _, text in rows)
    if expect is not None and not tokens_layout:
        # one column of tokens, some longer than a character ("10", "2,")
        tokens_layout = expect.width == 1 and any(len(text.strip()) != 1 for _, text in rows) \
            and all(len(text.split()) == 1 for _, text in rows)
    if (lines_ok and expect is None and not tokens_layout):
        lengths = {len(text.strip()) for _, text in rows}
        if len(lengths) == 1:
            size = lengths.pop()
            n = int(round(size ** 0.5))
            # a row count near the row length means a grid with a row too
            # many or too few (a 9x9 Sudoku), not a file of small puzzles
            near = size <= 25 and abs(len(rows) - size) <= 1
            if n * n == size and n >= 3 and size != len(rows) and not near:
                return [_line_instance(source, line, text, n, blank) for line, text in rows]
    grid = []
    indent = min(len(t) - len(t.lstrip()) for _, t in rows)   # a grid may be indented
    for line, text in rows:
        if tokens_layout:
            cells = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
        else:
            body = text.rstrip()
            cells = [(ch, i + 1) for i, ch in enumerate(body) if i >= indent]
        grid.append((line, cells))
    width = len(grid[0][1])
    for line, cells in grid:
        if len(cells) != width:
            col = cells[width][1] if len(cells) > width else len(source.line(line).rstrip()) + 1
            first = grid[0][0]
            raise source.error((line, col), f"this row has {len(cells)} cells, but the row on line "
                               f"{first} has {width}; every row must have the same length")
    if expect is not None and width != expect.width:
        raise source.error((grid[0][0], 1), f"the header says {expect.width} columns, but the "
                           f"rows have {width}")
    layout = "tokens" if tokens_layout else "chars"
    inst = Instance(source.path, source, layout, SquareGrid(width, len(grid)),
                    start_line=(expect.line if expect else grid[0][0]))
    if expect is not None:
        inst.params = grids.assign(expect.params)
    for r, (line, cells) in enumerate(grid):
        for c, (tok, col) in enumerate(cells):
            inst.positions[(r, c)] = (line, col)
            if not (len(tok) == 1 and tok in blank):
                try:
                    inst.clues[(r, c)] = reader(tok, layout)
                except ValueError as e:
                    raise source.error((line, col), str(e)) from None
                inst.tokens[(r, c)] = tok
    return [inst]


def _line_instance(source, line, text, n, blank) -> Instance:
    inst = Instance(source.path, source, "lines", SquareGrid(n, n), start_line=line)
    offset = len(text) - len(text.lstrip())
    body = text.strip()
    for i, ch in enumerate(body):
        cell = divmod(i, n)
        inst.positions[cell] = (line, offset + i + 1)
        if ch not in blank:
            inst.clues[cell] = token_value(ch, "lines")
            inst.tokens[cell] = ch
    return inst


# ------------------------------------------------------------------ hex

def _read_hex(source: Source, blank: str) -> list:
    out = []
    pending = list(_lines(source))
    i = 0
    while i < len(pending):
        n_line, text = pending[i]
        if not text.strip():
            i += 1
            continue
        s = text.strip()
        if not (s.isascii() and s.isdigit()):
            raise source.error((n_line, len(text) - len(text.lstrip()) + 1),
                               "a hex board starts with its side length n on a line of its own")
        side = int(s)
        col = len(text) - len(text.lstrip()) + 1
        if side < 1:
            raise source.error((n_line, col), "the side length of a hexagon is at least 1")
        height = 2 * side - 1
        rows = pending[i + 1:i + 1 + height]    # check the rows before building anything
        if len(rows) < height or any(not t.strip() for _, t in rows):
            got = next((k for k, (_, t) in enumerate(rows) if not t.strip()), len(rows))
            raise source.error((n_line, col), f"a hexagon of side {side} has {height} rows, "
                               f"but {got} {'follows' if got == 1 else 'follow'}")
        geom = HexGrid(side)
        inst = Instance(source.path, source, "hex", geom, start_line=n_line)
        for r, (line, row) in enumerate(rows):
            _hex_row(inst, geom, r, line, row.rstrip(), blank)
        out.append(inst)
        i += 1 + geom.height
    return out


def _hex_row(inst, geom, r, line, row, blank):
    """Read one hexagon row: cells are a value ('.' or a digit), '+' before it
    for a locked cell, separated by spaces; the indentation is not checked."""
    source = inst.source
    want = geom.row_length(r)
    cells = []
    i = 0
    while i < len(row):
        ch = row[i]
        if ch in " \t":
            i += 1
            continue
        locked = ch == "+"
        if locked:
            i += 1
            if i >= len(row) or row[i] in " \t":
                raise source.error((line, i), "'+' (locked) must stand right before a cell value")
            ch = row[i]
        if not (ch in blank or ch.isdigit()):
            raise source.error((line, i + 1), f"a hex cell is '.' or a digit, with '+' before it "
                                              f"when locked; {ch!r} is neither")
        cells.append((locked, ch, i + 1))
        i += 1
    if len(cells) != want:
        col = cells[want][2] if len(cells) > want else len(row) + 1
        raise source.error((line, col), f"row {r + 1} of a side-{geom.side} hexagon has {want} "
                                        f"cells, but this row has {len(cells)}")
    for i, (locked, value, col) in enumerate(cells):
        cell = (r, i)
        inst.positions[cell] = (line, col)
        if locked:
            inst.locked.add(cell)
        if value not in blank:
            inst.clues[cell] = token_value(value, "hex")
            inst.tokens[cell] = value
