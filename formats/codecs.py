"""Layer codecs of puzz.link URL bodies and pzprv3 file bodies, each written once.

A URL body (what follows COLS/ROWS in a puzz.link URL) is a sequence of
encoded layers; which layers, in which order, depends on the genre and is
declared in its spec (``url akari: cells4``).  Each codec here reads one
encoding from a ``Cursor`` and writes it back:

    codec = URL_CODECS["number16"]
    cursor = Cursor(url.body, url.body_offset)
    [clues] = codec.decode(cursor, rows, cols, [])
    assert cursor.at_end()                     # the caller checks the rest
    body = codec.encode([clues], rows, cols, [])

Values are pzprjs's raw meanings; the caller maps them to tokens:

- a cell layer: dict (r, c) -> int (pzprjs's qnum: n >= 0, or -2 for a clue
  without a number, "?") or str; blank cells are absent;
- ``circles``: dict (r, c) -> 1 | 2 (pzprjs's numbering: white 1, black 2;
  Masyu's URL uses it unchanged, its revCircle only swaps for a display option);
- ``arrownumber16``: two layers, directions (r, c) -> "u" | "d" | "l" | "r"
  and numbers (r, c) -> n | -2 ("?") | -3 (pzprjs's "+": a clue cell without
  number or arrow);
- ``border``: dict (r, c) -> region id 1..k, every cell, regions numbered in
  reading order of their first cell (a region is a connected set of cells
  not separated by a border); encode takes any id dict and writes a border
  between orthogonal neighbours with different ids;
- ``roomnumber16``: needs region ids (the nearest earlier region layer among
  ``inputs``, the values of the layers decoded before it); decode puts each
  room's number at pzprjs's top cell of the room (its leftmost column, the
  topmost cell there); encode takes a cell layer and writes each room's one
  number wherever it is in the room (two numbers in a room are an error);
- ``count``: an int (Star Battle's "N/" prefix);
- ``blockarrows``: a cell layer of numbers 1..100 and black cells, "#"
  without an arrow or "u" "d" "l" "r" with one (Makaro's arrows);
- ``sums51``: a cell layer over a board one row and one column larger than
  the URL's size (``margin = 1``: row 0 and column 0 are the clue border
  pzprjs keeps outside the grid): black cells "-" (no sums) or "D,A"
  (down sum, across sum; a missing side empty: "16,", ",23", "23,7"), as the
  puzzlekit dataset writes them; white cells absent.  pzprjs holds sums
  1..45; 0 or a negative sum is read as no sum.
- ``cross4``: a layer of the dots (r, k), 0 <= r <= rows, 0 <= k <= cols
  (numbers 0..4, -2 "?"), ``places="dots"``;
- ``stars``: a layer of places (y, x) of the doubled grid (cell centres at
  odd y and x, dots at even ones), 1 white or 2 black stars, only inside the
  board's rim, ``places="doubled"``.

Every codec checks what it reads: an unknown character, a number cut short
or a body that ends before the last cell raise FormatError at the offset of
the offending character (the cursor's ``base`` + its position), where pzprjs
would silently skip.  An overlong skip at the end of a layer is accepted, as
pzprjs does.  An empty body (the URL of a blank board) is the caller's case:
``decode_layers`` treats it as every layer blank.

pzprv3 file bodies have codecs of their own, ``FILE_CODECS``, reading lines
from a ``LineCursor`` and writing lists of lines; see formats/pzprv3.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .puzzlink import FormatError

# ---------------------------------------------------------------------------
# cursors


class Cursor:
    """A position in a URL body.  ``base`` is where the body starts in the
    text errors point into (``Url.body_offset``)."""

    def __init__(self, body: str, base: int = 0):
        self.body = body
        self.pos = 0
        self.base = base

    def at_end(self) -> bool:
        return self.pos >= len(self.body)

    def peek(self, n: int = 1) -> str:
        return self.body[self.pos:self.pos + n]

    def rest(self) -> str:
        return self.body[self.pos:]

    def take(self, n: int, what: str) -> str:
        """The next ``n`` characters; an error when the body is shorter."""
        if self.pos + n > len(self.body):
            self.error(f"the body ends inside {what}", len(self.body))
        text = self.body[self.pos:self.pos + n]
        self.pos += n
        return text

    def error(self, message: str, at: int | None = None):
        raise FormatError(message, self.base + (self.pos if at is None else at))


def _int(text: str, base: int, cursor: Cursor, at: int, what: str) -> int:
    try:
        if not (text.isascii() and text.isalnum()):
            raise ValueError
        return int(text, base)
    except ValueError:
        cursor.error(f"'{text}' is not {what}", at)


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n < 36:
        return digits[n]
    out = ""
    while n:
        n, d = divmod(n, 36)
        out = digits[d] + out
    return out


# ---------------------------------------------------------------------------
# the codec record


@dataclass
class Codec:
    """One layer encoding.  ``decode(cursor, rows, cols, inputs)`` returns a
    list of ``layers`` values; ``encode(values, rows, cols, inputs)`` returns
    the text (URL codecs) or list of lines (file codecs).  ``rows``/``cols``
    are the size pzprjs writes in the URL or file; ``margin`` is how many
    rows and columns the values' board has above and left of it (Kakuro: 1,
    so its values sit on a (rows+1) x (cols+1) board).  ``inputs``: the
    values of the layers before this one, in order (only ``roomnumber16``
    reads them)."""
    name: str
    layers: int
    decode: Callable
    encode: Callable
    doc: str
    pzprjs: str
    margin: int = 0
    optional: bool = False     # file codecs: may be absent at the end of a file
    blank: Callable | None = None   # (rows, cols) -> the values of a blank board
    whole: bool = False        # a partition into regions: it needs every cell's id
    places: str = "cells"      # what its clue layer holds: cells, outside (the grid), all (both),
                               # dots, doubled (the doubled grid's places)
    # the raw value of a cell the codec leaves out (binary: 0), which a spec's
    # pair may give a token (Nondango's circles are the cells without a bit)
    blank_raw: object = None
    # file codecs that can hold an answer: "cells" or "borders"; ``encode``
    # then takes ``answer=``, the raw tokens by place (formats/answers.py)
    answer: str | None = None
    answer_mark: str = "#"     # what an answer's true is written as
    answer_on_clues: bool = True   # False: a cell with a given number holds no answer

    def blank_values(self, rows, cols):
        """The values of this layer on a blank board (an empty URL body)."""
        return self.blank(rows, cols) if self.blank else [{} for _ in range(self.layers)]


def _cells(rows, cols):
    for r in range(rows):
        for c in range(cols):
            yield r, c


def _at(i, cols):
    return divmod(i, cols)


def _runs(values, length, write, skip_base, max_run):
    """pzprjs's run-length writer shared by number16 & co: ``write(v)``
    gives the text of one cell ("" for a blank); a run of blanks becomes the
    base-36 digit ``skip_base + count`` written before the next non-blank
    (or when the run reaches ``max_run``, or at the end)."""
    return _runs_of(length, lambda i: (write(values[i]) if i in values else "", 1),
                    skip_base, max_run)


def _runs_of(length, item, skip_base, max_run):
    """The same for items that may cover several cells: ``item(i)`` gives the
    text of the item at cell i ("" for a blank) and how many cells it covers."""
    out = []
    count = 0
    i = 0
    while i < length:
        pstr, step = item(i)
        if pstr == "":
            count += 1
        if count == 0:
            out.append(pstr)
        elif pstr or count == max_run:
            out.append(_b36(skip_base + count) + pstr)
            count = 0
        i += step
    if count > 0:
        out.append(_b36(skip_base + count))
    return "".join(out)


def _by_index(layer, rows, cols, margin=0):
    """A cell layer keyed by pzprjs's cell index (reading order)."""
    out = {}
    for (r, c), v in layer.items():
        r -= margin
        c -= margin
        if 0 <= r < rows and 0 <= c < cols:
            out[r * cols + c] = v
        elif margin == 0:
            raise FormatError(f"cell ({r}, {c}) is outside the {rows}x{cols} board")
    return out


def _check_int(v, what, low=None, high=None, extra=()):
    if isinstance(v, bool) or not isinstance(v, int) or (v not in extra and (
            (low is not None and v < low) or (high is not None and v > high))):
        raise FormatError(f"{what} cannot hold {v!r}")
    return v


def _scan(cur: Cursor, n: int, item, what="cells") -> dict:
    """pzprjs's cell-by-cell reading of a layer of ``n`` cells: ``item(ch, at)``
    reads the item that starts with character ``ch`` (at body position
    ``at``, taking more from the cursor if it needs) and returns (value or
    None, how many cells it covers); the value goes to the first of them."""
    out = {}
    c = 0
    while c < n:
        if cur.at_end():
            cur.error(f"the body ends after {c} of {n} {what}")
        at = cur.pos
        value, step = item(cur.take(1, "a cell"), at)
        if value is not None:
            out[c] = value
        c += step
    return out


def _layer(got: dict, cols: int) -> dict:
    return {_at(i, cols): v for i, v in got.items()}


# ---------------------------------------------------------------------------
# cells1 (decode1Cell: sparse marked cells, each a character with the run after it)

def _dec_cells1(cur, rows, cols, inputs):
    """'0'..'h': a marked cell (value 1) and 0..17 unmarked after it;
    'i'..'z': 1..18 unmarked cells."""
    def item(ch, at):
        if ch.isascii() and ch.isalnum():
            k = int(ch, 36)
            return (1, k + 1) if k < 18 else (None, k - 17)
        cur.error(f"unexpected '{ch}' in a layer of marked cells", at)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_cells1(values, rows, cols, inputs):
    marked = _by_index(values[0], rows, cols)
    for v in marked.values():
        _check_int(v, "a layer of marked cells (decode1Cell)", 1, 1)
    n = rows * cols
    out = []
    c = 0
    while c < n:
        start = c
        if c in marked:          # the mark, then up to 17 unmarked cells
            c += 1
            while c < n and c not in marked and c - start < 18:
                c += 1
            out.append(_b36(c - start - 1))
        else:                    # up to 18 unmarked cells
            while c < n and c not in marked and c - start < 18:
                c += 1
            out.append(_b36(c - start + 17))
    return "".join(out)


# ---------------------------------------------------------------------------
# number16 (decodeNumber16 / encodeNumber16)

_HEX = "0123456789abcdef"
_N16_PREFIX = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192),
               "*": (4, 12240), "$": (5, 77776)}
N16_MAX = 77776 + 0xFFFFF


def _decode_numbers16(cur, length, what="cells"):
    def item(ch, at):
        if ch in _HEX:
            return int(ch, 16), 1
        if ch == ".":
            return -2, 1
        if ch in _N16_PREFIX:
            n, add = _N16_PREFIX[ch]
            digits = cur.take(n, f"the number that '{ch}' starts")
            return _int(digits, 16, cur, at + 1, "a hexadecimal number") + add, 1
        if "g" <= ch <= "z":
            return None, int(ch, 36) - 15
        cur.error(f"unexpected '{ch}' in a number layer", at)
    return _scan(cur, length, item, what)


def write_number16(v) -> str:
    if v == -2:
        return "."
    _check_int(v, "number16", 0, N16_MAX)
    if v < 16:
        return format(v, "x")
    if v < 256:
        return "-" + format(v, "x")
    if v < 4096:
        return "+" + format(v, "x")
    if v < 8192:
        return "=" + format(v - 4096, "03x")
    if v < 12240:
        return "@" + format(v - 8192, "03x")
    if v < 77776:
        return "*" + format(v - 12240, "04x")
    return "$" + format(v - 77776, "05x")


def _encode_numbers16(values, length):
    return _runs(values, length, write_number16, 15, 20)


def _dec_number16(cur, rows, cols, inputs):
    return [_layer(_decode_numbers16(cur, rows * cols), cols)]


def _enc_number16(values, rows, cols, inputs):
    return _encode_numbers16(_by_index(values[0], rows, cols), rows * cols)


# ---------------------------------------------------------------------------
# numbers outside the grid (decodeNumber16ExCell / encodeNumber16ExCell)

def excell_places(rows, cols, around, lists=False) -> list:
    """pzprjs's outside cells in its order, as (place, slot): ``around``
    False: above each column, then left of each row (hasexcell 1); True:
    above, below, left, right (hasexcell 2).  With ``lists`` each row and
    column has several slots, (rows+1)//2 above a column and (cols+1)//2
    left of a row, slot 0 next to the board (pzprjs's Nonogram)."""
    depth_top = (rows + 1) // 2 if lists else 1
    depth_left = (cols + 1) // 2 if lists else 1
    if around:
        return ([((-1, c), 0) for c in range(cols)] + [((rows, c), 0) for c in range(cols)]
                + [((r, -1), 0) for r in range(rows)] + [((r, cols), 0) for r in range(rows)])
    return ([((-1, c), k) for c in range(cols) for k in range(depth_top)]
            + [((r, -1), k) for r in range(rows) for k in range(depth_left)])


def _excell(around, lists=False):
    """The codec pair of numbers outside the grid.  A list reads from the far
    end toward the board, so its last number sits in slot 0."""
    def dec(cur, rows, cols, inputs):
        places = excell_places(rows, cols, around, lists)
        got = _decode_numbers16(cur, len(places), "cells outside the grid")
        if not lists:
            return [{places[i][0]: v for i, v in got.items()}]
        slots = {}
        for i, v in sorted(got.items()):
            slots.setdefault(places[i][0], []).append((places[i][1], v))
        return [{place: tuple(v for _, v in sorted(items, reverse=True))
                 for place, items in slots.items()}]

    def enc(values, rows, cols, inputs):
        places = excell_places(rows, cols, around, lists)
        index = {p: i for i, p in enumerate(places)}
        out = {}
        for place, v in values[0].items():
            items = reversed(v) if lists else [v]
            if lists and not isinstance(v, tuple):
                raise FormatError(f"the clue at {place} is not a list of numbers")
            for slot, x in enumerate(items):
                if (place, slot) not in index:
                    raise FormatError(f"pzprjs has no room for the clue at {place} "
                                      f"({'too many numbers' if lists else 'not outside the grid'})")
                out[index[(place, slot)]] = x
        return _encode_numbers16(out, len(places))
    return dec, enc


def _dec_excell32(cur, rows, cols, inputs):
    """A number a place, above each column then left of each row: one
    base-32 digit, or '-' and two (32..1023)."""
    out = {}
    for place, _ in excell_places(rows, cols, False):
        at = cur.pos
        ch = cur.take(1, "the numbers outside the grid")
        digits = cur.take(2, "a two-digit number") if ch == "-" else ch
        out[place] = _int(digits, 32, cur, at + (ch == "-"), "a base-32 number (0-9, a-v)")
    return [out]


def _enc_excell32(values, rows, cols, inputs):
    out = []
    for place, _ in excell_places(rows, cols, False):
        if place not in values[0]:
            raise FormatError(f"pzprjs gives every row and column a number here, but the "
                              f"clue at {place} is missing")
        v = _check_int(values[0][place], "a number outside the grid (0..1023)", 0, 1023)
        out.append(_b36(v) if v < 32 else "-" + _b36(v // 32) + _b36(v % 32))   # base 32
    extra = [p for p in values[0] if p not in dict(excell_places(rows, cols, False))]
    if extra:
        raise FormatError(f"pzprjs has no room for the clue at {extra[0]}: its numbers are "
                          "above the columns and left of the rows")
    return "".join(out)


# ---------------------------------------------------------------------------
# number10 (decodeNumber10)

def _dec_number10(cur, rows, cols, inputs):
    def item(ch, at):
        if ch == ".":
            return -2, 1
        if ch.isdigit() and ch.isascii():
            return int(ch), 1
        if "a" <= ch <= "z":
            return None, int(ch, 36) - 9
        cur.error(f"unexpected '{ch}' in a number10 layer", at)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_number10(values, rows, cols, inputs):
    def write(v):
        if v == -2:
            return "."
        return str(_check_int(v, "number10 (0..9)", 0, 9))
    return _runs(_by_index(values[0], rows, cols), rows * cols, write, 9, 26)


# ---------------------------------------------------------------------------
# cells4 (decode4Cell: numbers 0..4, each with a skip of 0..2 blanks after it)

def _dec_cells4(cur, rows, cols, inputs, what="cells"):
    def item(ch, at):
        if "0" <= ch <= "4":
            return int(ch), 1
        if "5" <= ch <= "9":
            return int(ch) - 5, 2
        if "a" <= ch <= "e":
            return int(ch, 16) - 10, 3
        if "g" <= ch <= "z":
            return None, int(ch, 36) - 15
        if ch == ".":
            return -2, 1
        cur.error(f"unexpected '{ch}' in a 0..4 clue layer", at)
    return [_layer(_scan(cur, rows * cols, item, what), cols)]


def _runs_of_items(n, item):
    """``_runs_of`` for layers whose ``item(i)`` gives None for a blank
    (decode4Cell, decodeStar): runs of blanks g..z, 15 + count, up to 20."""
    return _runs_of(n, lambda i: item(i) or ("", 1), 15, 20)


def _enc_cells4(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    n = rows * cols

    def item(c):
        v = vals.get(c)
        if v is None:
            return None
        if v == -2:
            return ".", 1
        _check_int(v, "a 0..4 clue layer", 0, 4)
        if c + 1 < n and (c + 1) in vals:      # the skip of blanks after it: 0, 1 or 2
            return str(v), 1
        if c + 2 < n and (c + 2) in vals:
            return str(5 + v), 2
        return format(10 + v, "x"), 3
    return _runs_of_items(n, item)


# ---------------------------------------------------------------------------
# cross4 (decode4Cross: numbers 0..4 on the dots, written as decode4Cell
# writes cells, over the (rows+1) x (cols+1) corners in reading order)

def _dec_cross4(cur, rows, cols, inputs):
    return _dec_cells4(cur, rows + 1, cols + 1, inputs, "dots")


def _enc_cross4(values, rows, cols, inputs):
    return _enc_cells4(values, rows + 1, cols + 1, inputs)


# ---------------------------------------------------------------------------
# stars (decodeStar of pzprjs 0.10.1, decodeDot today: Galaxies' stars, 1
# white or 2 black, on the (2 rows - 1) x (2 cols - 1) places inside the
# board of the doubled grid: cell centres, the middles of inner sides, inner dots)

def star_place(i, rows, cols):
    """The doubled-grid place (y, x) of pzprjs's star index ``i``."""
    return divmod(i, 2 * cols - 1)[0] + 1, i % (2 * cols - 1) + 1


def _dec_stars(cur, rows, cols, inputs):
    def item(ch, at):
        if ch in _HEX:                   # a star, then a skip of 0..7 places
            v = int(ch, 16)
            return v % 2 + 1, (v >> 1) + 1
        if "g" <= ch <= "z":
            return None, int(ch, 36) - 15
        cur.error(f"unexpected '{ch}' in a layer of stars", at)
    got = _scan(cur, (2 * rows - 1) * (2 * cols - 1), item, "places of stars")
    return [{star_place(i, rows, cols): v for i, v in got.items()}]


def _enc_stars(values, rows, cols, inputs):
    width = 2 * cols - 1
    at = {}
    for (y, x), v in values[0].items():
        if not (0 < y < 2 * rows and 0 < x < 2 * cols):
            raise FormatError(f"pzprjs has no star on the board's rim, at the place ({y}, {x})")
        at[(y - 1) * width + x - 1] = _check_int(v, "a star (1 white, 2 black)", 1, 2)

    def item(i):          # the star and how far the next one is: 1..7 places, else 8
        if i not in at:
            return None
        gap = next((g for g in range(1, 8) if i + g in at), None)
        return format(2 * (gap - 1) + at[i] - 1 if gap else 13 + at[i], "x"), gap or 8
    return _runs_of_items((2 * rows - 1) * width, item)


# ---------------------------------------------------------------------------
# circles (decodeCircle: three cells per base-27 digit, values 0..2)

def _dec_triples(cur, length):
    out = {}
    chars = (length + 2) // 3
    for k in range(chars):
        at = cur.pos
        if cur.at_end():
            cur.error(f"the body ends after {3 * k} of {length} cells")
        ch = cur.take(1, "a circle digit")
        v = _int(ch, 27, cur, at, "a base-27 digit (0-9, a-q)")
        for w, div in enumerate((9, 3, 1)):
            val = (v // div) % 3
            if val and 3 * k + w < length:
                out[3 * k + w] = val
    return out


def _dec_circles(cur, rows, cols, inputs):
    return [_layer(_dec_triples(cur, rows * cols), cols)]


def _enc_circles(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    n = rows * cols
    out = []
    for k in range(0, n, 3):
        total = 0
        for w, mul in enumerate((9, 3, 1)):
            v = vals.get(k + w, 0)
            _check_int(v, "a circle layer (1 white, 2 black)", 0, 2)
            total += v * mul
        out.append(_b36(total))
    return "".join(out)


# ---------------------------------------------------------------------------
# arrownumber16 (decodeArrowNumber16)

_DIRS = {0: None, 1: "u", 2: "d", 3: "l", 4: "r"}
_DIR_NUM = {"u": 1, "d": 2, "l": 3, "r": 4}


def _dec_arrownumber16(cur, rows, cols, inputs):
    def item(ch, at):
        if ch == "+":
            return (0, -3), 1
        if "0" <= ch <= "4":
            nxt = cur.take(1, "an arrow clue")
            return (int(ch), -2 if nxt == "." else
                    _int(nxt, 16, cur, at + 1, "a hexadecimal digit")), 1
        if "5" <= ch <= "9":
            return (int(ch) - 5, _int(cur.take(2, "an arrow clue"), 16, cur, at + 1,
                                      "a hexadecimal number")), 1
        if ch == "-":
            dch = cur.take(1, "an arrow clue")
            if dch not in "01234":
                cur.error(f"'{dch}' is not a direction (0-4)", at + 1)
            return (int(dch), _int(cur.take(3, "an arrow clue"), 16, cur, at + 2,
                                   "a hexadecimal number")), 1
        if "a" <= ch <= "z":
            return None, int(ch, 36) - 9
        cur.error(f"unexpected '{ch}' in an arrow-number layer", at)
    got = _layer(_scan(cur, rows * cols, item), cols)
    dirs = {cell: _DIRS[d] for cell, (d, _) in got.items() if _DIRS[d]}
    return [dirs, {cell: v for cell, (_, v) in got.items()}]


def _enc_arrownumber16(values, rows, cols, inputs):
    dirs = _by_index(values[0], rows, cols)
    nums = _by_index(values[1], rows, cols)
    for i in dirs:
        if i not in nums:
            raise FormatError(f"an arrow at {_at(i, cols)} without a number cannot be written")
        if dirs[i] not in _DIR_NUM:
            raise FormatError(f"{dirs[i]!r} at {_at(i, cols)} is not a direction (u d l r)")

    def write(i):
        v = nums[i]
        d = _DIR_NUM.get(dirs.get(i), 0)
        if v == -2:
            return f"{d}."
        if v == -3:
            if d:
                raise FormatError(f"a '+' clue at {_at(i, cols)} cannot have an arrow")
            return "+"
        _check_int(v, "an arrow-number layer (0..4095)", 0, 4095)
        if v < 16:
            return f"{d}{v:x}"
        if v < 256:
            return f"{d + 5}{v:x}"
        return f"-{d}{v:03x}"
    return _runs({i: i for i in nums}, rows * cols, write, 9, 26)


# ---------------------------------------------------------------------------
# blockarrows (decodeMakaro: numbers 1..100, and black cells with an arrow or none)

_BLOCK_DIR = {0: "#", 1: "u", 2: "d", 3: "l", 4: "r"}
_BLOCK_NUM = {v: k for k, v in _BLOCK_DIR.items()}


def _dec_blockarrows(cur, rows, cols, inputs):
    def item(ch, at):
        if ch.isascii() and ch.isdigit():
            return int(ch) + 1, 1
        if ch == "-":
            return _int(cur.take(2, "a two-digit number"), 10, cur, at + 1,
                        "a decimal number") + 1, 1
        if "a" <= ch <= "e":
            return _BLOCK_DIR[int(ch, 16) - 10], 1
        if "g" <= ch <= "z":
            return None, int(ch, 36) - 15
        cur.error(f"unexpected '{ch}' in a layer of numbers and black cells", at)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_blockarrows(values, rows, cols, inputs):
    def write(v):
        if v in _BLOCK_NUM:
            return _b36(_BLOCK_NUM[v] + 10)
        _check_int(v, "a layer of numbers 1..99 and black cells", 1, 99)
        return str(v - 1) if v <= 10 else f"-{v - 1}"
    return _runs(_by_index(values[0], rows, cols), rows * cols, write, 15, 20)


# ---------------------------------------------------------------------------
# border (decodeBorder) and regions

def regions_from_borders(rows, cols, vertical, horizontal):
    """Region ids 1..k (reading order of each region's first cell) of a
    board whose borders are ``vertical[(r, c)]`` (between (r, c) and
    (r, c+1)) and ``horizontal[(r, c)]`` (between (r, c) and (r+1, c))."""
    ids = {}
    k = 0
    for start in _cells(rows, cols):
        if start in ids:
            continue
        k += 1
        ids[start] = k
        stack = [start]
        while stack:
            r, c = stack.pop()
            steps = []
            if c + 1 < cols and not vertical.get((r, c)):
                steps.append((r, c + 1))
            if c > 0 and not vertical.get((r, c - 1)):
                steps.append((r, c - 1))
            if r + 1 < rows and not horizontal.get((r, c)):
                steps.append((r + 1, c))
            if r > 0 and not horizontal.get((r - 1, c)):
                steps.append((r - 1, c))
            for nb in steps:
                if nb not in ids:
                    ids[nb] = k
                    stack.append(nb)
    return ids


def normalize_regions(ids: dict, rows: int, cols: int) -> dict:
    """Any id layer as region ids 1..k: connected cells of equal id form a
    region (as pzprjs reads AreaRoom); numbered in reading order."""
    missing = [cell for cell in _cells(rows, cols) if cell not in ids]
    if missing:
        raise FormatError(f"cell {missing[0]} has no region")
    vertical = {(r, c): ids[(r, c)] != ids[(r, c + 1)]
                for r in range(rows) for c in range(cols - 1)}
    horizontal = {(r, c): ids[(r, c)] != ids[(r + 1, c)]
                  for r in range(rows - 1) for c in range(cols)}
    return regions_from_borders(rows, cols, vertical, horizontal)


def _bits(cur, count, what):
    """``count`` bits, five per base-32 digit, most significant first."""
    out = []
    for _ in range((count + 4) // 5):
        at = cur.pos
        if cur.at_end():
            cur.error(f"the body ends inside the {what} (expected "
                      f"{(count + 4) // 5} characters)")
        v = _int(cur.take(1, what), 32, cur, at, "a base-32 digit (0-9, a-v)")
        for w in (16, 8, 4, 2, 1):
            if len(out) < count:
                out.append(bool(v & w))
    return out


def _write_bits(bits):
    out = []
    for k in range(0, len(bits), 5):
        chunk = bits[k:k + 5]
        out.append(_b36(sum(w for w, b in zip((16, 8, 4, 2, 1), chunk) if b)))
    return "".join(out)


def _dec_border(cur, rows, cols, inputs):
    vbits = _bits(cur, (cols - 1) * rows, "vertical borders")
    hbits = _bits(cur, cols * (rows - 1), "horizontal borders")
    vertical = {(i // (cols - 1), i % (cols - 1)): b for i, b in enumerate(vbits)}
    horizontal = {(i // cols, i % cols): b for i, b in enumerate(hbits)}
    return [regions_from_borders(rows, cols, vertical, horizontal)]


def border_bits(ids, rows, cols):
    """(vertical, horizontal) border lists of an id layer, pzprjs's order."""
    missing = [cell for cell in _cells(rows, cols) if cell not in ids]
    if missing:
        raise FormatError(f"cell {missing[0]} has no region")
    vertical = [ids[(r, c)] != ids[(r, c + 1)] for r in range(rows) for c in range(cols - 1)]
    horizontal = [ids[(r, c)] != ids[(r + 1, c)] for r in range(rows - 1) for c in range(cols)]
    return vertical, horizontal


def _enc_border(values, rows, cols, inputs):
    vertical, horizontal = border_bits(values[0], rows, cols)
    return _write_bits(vertical) + _write_bits(horizontal)


# ---------------------------------------------------------------------------
# roomnumber16 (decodeRoomNumber16)

def _region_input(inputs, rows, cols):
    if isinstance(inputs, dict):
        inputs = [inputs.get("regions")]
    for layer in reversed(list(inputs or [])):
        if isinstance(layer, dict) and len(layer) == rows * cols and \
                all(isinstance(v, int) for v in layer.values()) and \
                all(cell in layer for cell in _cells(rows, cols)):
            return normalize_regions(layer, rows, cols)
    raise FormatError("room numbers need the rooms: a border layer before them")


def rooms_of(ids, rows, cols):
    """The rooms of region ids: lists of cells, in pzprjs's order (by the
    first cell in reading order), each list in reading order."""
    rooms = {}
    for cell in _cells(rows, cols):
        rooms.setdefault(ids[cell], []).append(cell)
    return list(rooms.values())


def top_cell(room):
    """pzprjs's top cell of a room: the leftmost column, the topmost cell in it."""
    return min(room, key=lambda rc: (rc[1], rc[0]))


def _dec_roomnumber16(cur, rows, cols, inputs):
    rooms = rooms_of(_region_input(inputs, rows, cols), rows, cols)
    got = _decode_numbers16(cur, len(rooms), "rooms")
    return [{top_cell(rooms[i]): v for i, v in got.items()}]


def _enc_roomnumber16(values, rows, cols, inputs):
    rooms = rooms_of(_region_input(inputs, rows, cols), rows, cols)
    numbers = values[0]
    _by_index(numbers, rows, cols)          # checks the cells are on the board
    per_room = {}
    for i, room in enumerate(rooms):
        found = [cell for cell in room if cell in numbers]
        if len(found) > 1:
            raise FormatError(f"the room of {found[0]} holds two numbers ({found[0]} and "
                              f"{found[1]}); puz.link keeps one number a room")
        if found:
            per_room[i] = numbers[found[0]]
    return _encode_numbers16(per_room, len(rooms))


# ---------------------------------------------------------------------------
# count (decodeStarCount: "N/")

def _dec_count(cur, rows, cols, inputs):
    at = cur.pos
    digits = ""
    while not cur.at_end() and cur.peek() != "/":
        digits += cur.take(1, "a count")
    if not digits:
        cur.error("expected a number (the count) before '/'", at)
    n = _int(digits, 10, cur, at, "a whole number")
    if not cur.at_end():
        cur.take(1, "'/'")
    return [n]


def _enc_count(values, rows, cols, inputs):
    return f"{_check_int(values[0], 'a count', 0)}/"


# ---------------------------------------------------------------------------
# sums51 (decodeKakuro: cells split by a diagonal, a sum each side)

def _sum_digit(ch):
    if "0" <= ch <= "9" or "a" <= ch <= "j":
        return int(ch, 36)
    if "A" <= ch <= "Z":
        return int(ch, 36) + 10
    if ch == "-":
        return -1
    return None


def _sum_char(v):
    if v is None:
        return "-"
    _check_int(v, "a sum (1..45)", 1, 45)
    return _b36(v) if v <= 19 else _b36(v - 10).upper()


def sums_token(down, across):
    """The token of a black cell: "-" or "D,A" with a missing side empty."""
    if down is None and across is None:
        return "-"
    return f"{'' if down is None else down},{'' if across is None else across}"


def split_sums(token, where="", zero=False):
    """(down, across) of a black-cell token ("-", "16,", ",23", "23,7"); a
    0 is no sum unless ``zero`` (Tile Paint's counts: 0 is a number)."""
    if token == "-":
        return None, None
    parts = token.split(",") if isinstance(token, str) else []
    if len(parts) != 2 or not all(re.fullmatch(r"[0-9]*", p) for p in parts):
        raise FormatError(f"{token!r}{where} is not a clue split by a diagonal "
                          "('-', 'D,A', 'D,' or ',A')")
    down, across = (int(p) if p else None for p in parts)
    if zero:
        return down, across
    return (down if down else None), (across if across else None)


def _dec_sums51(cur, rows, cols, inputs):
    out = {}
    black = set()
    c, n = 0, rows * cols
    while c < n:
        if cur.at_end():
            cur.error(f"the body ends after {c} of {n} cells")
        at = cur.pos
        ch = cur.take(1, "a sums cell")
        if "k" <= ch <= "z":
            c += int(ch, 36) - 19
            continue
        down = across = None
        if ch != ".":
            d, a = _sum_digit(ch), _sum_digit(cur.take(1, "a sums clue"))
            if d is None:
                cur.error(f"unexpected '{ch}' in a sums layer", at)
            if a is None:
                cur.error(f"unexpected '{cur.body[at + 1]}' in a sums clue", at + 1)
            down, across = (d if d > 0 else None), (a if a > 0 else None)
        r, cc = _at(c, cols)
        out[(r + 1, cc + 1)] = sums_token(down, across)
        black.add((r, cc))
        c += 1
    out[(0, 0)] = "-"
    for cc in range(cols):
        down = None
        if (0, cc) not in black:
            at = cur.pos
            ch = cur.take(1, "the sums above the board")
            down = _sum_digit(ch)
            if down is None:
                cur.error(f"unexpected '{ch}' in a sum", at)
        out[(0, cc + 1)] = sums_token(down if down and down > 0 else None, None)
    for r in range(rows):
        across = None
        if (r, 0) not in black:
            at = cur.pos
            ch = cur.take(1, "the sums left of the board")
            across = _sum_digit(ch)
            if across is None:
                cur.error(f"unexpected '{ch}' in a sum", at)
        out[(r + 1, 0)] = sums_token(None, across if across and across > 0 else None)
    return [out]


def _sums_cells(layer, rows, cols):
    """(black: {(r, c) inside: (down, across)}, top: {c: down}, left: {r: across})."""
    black, top, left = {}, {}, {}
    for (r, c), token in layer.items():
        if not (0 <= r <= rows and 0 <= c <= cols):
            raise FormatError(f"cell ({r}, {c}) is outside the {rows + 1}x{cols + 1} board of sums")
        down, across = split_sums(token, f" at ({r}, {c})")
        if r == 0 and c == 0:
            if down or across:
                raise FormatError("the top left corner of a board of sums holds no sums")
        elif r == 0:
            if across:
                raise FormatError(f"an across sum at ({r}, {c}) in the top row has no cells")
            top[c - 1] = down
        elif c == 0:
            if down:
                raise FormatError(f"a down sum at ({r}, {c}) in the left column has no cells")
            left[r - 1] = across
        else:
            black[(r - 1, c - 1)] = (down, across)
    return black, top, left


def _enc_sums51(values, rows, cols, inputs):
    black, top, left = _sums_cells(values[0], rows, cols)

    def write(sums):
        down, across = sums
        return "." if down is None and across is None else _sum_char(down) + _sum_char(across)
    out = [_runs({r * cols + c: sums for (r, c), sums in black.items()}, rows * cols,
                 write, 19, 16)]
    for c in range(cols):
        if (0, c) in black:
            if top.get(c):
                raise FormatError(f"the sum at (0, {c + 1}) is above a black cell; "
                                  "puzz.link cannot hold it")
        else:
            out.append(_sum_char(top.get(c)))
    for r in range(rows):
        if (r, 0) in black:
            if left.get(r):
                raise FormatError(f"the sum at ({r + 1}, 0) is left of a black cell; "
                                  "puzz.link cannot hold it")
        else:
            out.append(_sum_char(left.get(r)))
    return "".join(out)


# ---------------------------------------------------------------------------
# numbers51 (decodeTilePaint: cells split by a diagonal, a hexadecimal number
# each side, then the numbers above the columns and left of the rows)

def _dec_numbers51(cur, rows, cols, inputs):
    """In the cells: 'g'..'z' 1..20 plain cells; a split cell is its down
    number, then its across one, each a hex digit or '.' (none), with '-'
    before it when the across one has two digits, '+' when the down one has,
    '=' when both have.  Then a number above each column and left of each
    row: a hex digit, '-' and two digits, or '.' (none)."""
    out = {}

    def item(ch, at):
        if "g" <= ch <= "z":
            return None, int(ch, 36) - 15
        wide = {"-": (1, 2), "+": (2, 1), "=": (2, 2)}.get(ch)
        if wide is None:
            cur.pos -= 1
            wide = (1, 1)
        numbers = []
        for n in wide:
            at = cur.pos
            text = cur.take(n, "a cell split by a diagonal")
            numbers.append(None if text == "." else
                           _int(text, 16, cur, at, "a hexadecimal number or '.'"))
        return sums_token(*numbers), 1
    for i, token in _scan(cur, rows * cols, item).items():
        out[_at(i, cols)] = token

    def outside(place):
        at = cur.pos
        ch = cur.take(1, "the numbers outside the grid")
        if ch == "-":
            out[place] = _int(cur.take(2, "a two-digit number"), 16, cur, at + 1,
                              "a hexadecimal number")
        elif ch != ".":
            out[place] = _int(ch, 16, cur, at, "a hexadecimal digit, '-' or '.'")
    for c in range(cols):
        outside((-1, c))
    for r in range(rows):
        outside((r, -1))
    return [out]


def _enc_numbers51(values, rows, cols, inputs):
    def number(v, what):
        if v is None or v == "-":
            return "."
        v = _check_int(v, what, 0, 255)
        return format(v, "x") if v < 16 else "-" + format(v, "02x")

    def split_cell(token):
        down, across = split_sums(token, "", zero=True)
        for v in (down, across):
            if v is not None:
                _check_int(v, "a cell split by a diagonal (0..255)", 0, 255)
        prefix = {(False, True): "-", (True, False): "+", (True, True): "="}.get(
            (down is not None and down >= 16, across is not None and across >= 16), "")
        return prefix + "".join("." if v is None else format(v, "x") for v in (down, across))
    inside, top, left = {}, {}, {}
    for (r, c), v in values[0].items():
        if 0 <= r < rows and 0 <= c < cols:
            inside[r * cols + c] = v
        elif r == -1 and 0 <= c < cols:
            top[c] = v
        elif c == -1 and 0 <= r < rows:
            left[r] = v
        else:
            raise FormatError(f"pzprjs has no room for the clue at ({r}, {c}): its numbers "
                              "outside the grid are above the columns and left of the rows")
    return (_runs(inside, rows * cols, split_cell, 15, 20)
            + "".join(number(top.get(c), "a number above the grid (0..255)") for c in range(cols))
            + "".join(number(left.get(r), "a number left of the grid (0..255)")
                      for r in range(rows)))


# ---------------------------------------------------------------------------
# number36 (decodeHitori: one base-36 character a cell)

def _dec_number36(cur, rows, cols, inputs):
    def item(ch, at):
        if ch.isascii() and ch.isalnum() and not ch.isupper():
            return int(ch, 36), 1
        if ch == "-":
            return _int(cur.take(2, "a two-digit number"), 36, cur, at + 1,
                        "a base-36 number"), 1
        if ch in "%@":
            return -2, 1
        if ch == ".":
            return None, 1
        cur.error(f"unexpected '{ch}' in a number36 layer", at)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_number36(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    out = []
    for c in range(rows * cols):
        v = vals.get(c)
        if v is None:
            out.append(".")
        elif v == -2:
            out.append("@")
        else:
            _check_int(v, "a number36 layer (0..1295)", 0, 1295)
            out.append(_b36(v) if v < 36 else "-" + _b36(v))
    return "".join(out)


# ---------------------------------------------------------------------------
# piecebank (decodePieceBank: Battleships' fleet, a bank of straight pieces)

# pzprjs's fleet presets (Battleships' bank): how many ships of 1, 2, ... cells
FLEET_PRESETS = {"c": (3, 2, 1), "d": (4, 3, 2, 1), "e": (5, 4, 3, 2, 1), "z": ()}


def fleet_of(pieces: list, error) -> tuple:
    """How many pieces of each length (index 0: one cell) a list of pzprjs's
    serialized pieces holds; each must be a straight piece, 1 x k or k x 1
    ("21o": width 2, height 1, the bits 11; or "w:bits")."""
    counts = {}
    for text in pieces:
        try:
            if ":" in text:
                w, bits = text.split(":", 1)
                w = int(w)
                h = len(bits) // w
            else:
                w, h = int(text[0], 36), int(text[1], 36)
                bits = "".join(format(int(ch, 32), "05b") for ch in text[2:])
            bits = bits[:w * h].ljust(w * h, "0")
        except (ValueError, IndexError, ZeroDivisionError):
            error(f"'{text}' is not a piece of pzprjs's bank")
        if min(w, h) != 1 or set(bits) != {"1"}:
            error(f"the piece '{text}' is not a straight ship of 1 x k cells")
        counts[w * h] = counts.get(w * h, 0) + 1
    return tuple(counts.get(k, 0) for k in range(1, max(counts, default=0) + 1))


def fleet_pieces(fleet) -> list:
    """The pieces of a fleet (counts by length) as pzprjs serializes them,
    shortest first, each lying flat: length k is "k1" and k one-bits."""
    out = []
    for k, n in enumerate(fleet, 1):
        _check_int(n, "a fleet's count of ships", 0)
        if k > 35 and n:
            raise FormatError(f"pzprjs's bank holds ships of up to 35 cells, not {k}")
        bits = "1" * k + "0" * (-k % 5)
        piece = _b36(k) + "1" + "".join(_b36(int(bits[i:i + 5], 2)) for i in range(0, len(bits), 5))
        out += [piece] * n
    return out


def _preset(fleet):
    trimmed = tuple(fleet)
    while trimmed and trimmed[-1] == 0:
        trimmed = trimmed[:-1]
    return next((key for key, f in FLEET_PRESETS.items() if f == trimmed), None)


def _dec_piecebank(cur, rows, cols, inputs):
    """"//K" a preset, else "/N/piece/piece..." (N pieces)."""
    if cur.peek() != "/":
        cur.error("expected '/' and the fleet (pzprjs's piece bank)")
    cur.take(1, "the fleet")
    if cur.peek() == "/":
        cur.take(1, "the fleet")
        at = cur.pos
        key = cur.take(1, "the fleet's preset")
        if key not in FLEET_PRESETS:
            cur.error(f"'{key}' is not one of pzprjs's fleets ({', '.join(FLEET_PRESETS)})", at)
        return [FLEET_PRESETS[key]]
    at = cur.pos
    parts = cur.rest().split("/")
    if not parts[0].isdigit():
        cur.error(f"'{parts[0]}' is not the number of pieces in the bank", at)
    n = int(parts[0])
    if len(parts) < n + 1:
        cur.error(f"the bank names {n} pieces but gives {len(parts) - 1}", at)
    used = len("/".join(parts[:n + 1]))
    fleet = fleet_of(parts[1:n + 1], lambda m: cur.error(m, at))
    cur.take(used, "the pieces")
    return [fleet]


def _enc_piecebank(values, rows, cols, inputs):
    key = _preset(values[0])
    if key is not None:
        return "//" + key
    pieces = fleet_pieces(values[0])
    return "/" + "/".join([str(len(pieces))] + pieces)


def _fdec_piecebank(lc, rows, cols, inputs):
    number, head = lc.next("the fleet (pzprjs's piece bank)")
    head = head.strip()
    if head in FLEET_PRESETS:
        return [FLEET_PRESETS[head]]
    if not head.isdigit():
        lc.error(f"the fleet: '{head}' is neither a number of pieces nor one of pzprjs's "
                 f"fleets ({', '.join(FLEET_PRESETS)})", number)
    pieces = [lc.next("a piece of the fleet")[1].strip() for _ in range(int(head))]
    return [fleet_of(pieces, lambda m: lc.error(f"the fleet: {m}", number))]


def _fenc_piecebank(values, rows, cols, inputs):
    key = _preset(values[0])
    if key is not None:
        return [key]
    pieces = fleet_pieces(values[0])
    return [str(len(pieces))] + pieces


# ---------------------------------------------------------------------------
# binary (decodeBinary / decodeEmpty: one bit a cell, five a base-32 digit)

def _dec_binary(cur, rows, cols, inputs):
    bits = _bits(cur, rows * cols, "cell bits")
    return [{_at(i, cols): 1 for i, b in enumerate(bits) if b}]


def _enc_binary(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    return _write_bits([bool(vals.get(i)) for i in range(rows * cols)])


# ---------------------------------------------------------------------------
# number6 (decodeShugaku: a digit 0..5 a cell, '6'..'z' runs of blanks)

def _dec_number6(cur, rows, cols, inputs):
    def item(ch, at):
        if "0" <= ch <= "4":
            return int(ch), 1
        if ch == "5":
            return -2, 1
        if ch.isascii() and ch.isalnum() and not ch.isupper():
            return None, int(ch, 36) - 5
        cur.error(f"unexpected '{ch}' in a number6 layer", at)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_number6(values, rows, cols, inputs):
    def write(v):
        return "5" if v == -2 else str(_check_int(v, "number6 (0..4, -2)", 0, 4))
    return _runs(_by_index(values[0], rows, cols), rows * cols, write, 5, 30)


# ---------------------------------------------------------------------------
# lineparts (decodePipelink: pieces of lines given in cells)

# pzprjs's ques of a line part (11..17) is its letter's base-36 value + 1
_CIRCLE = 6             # pzprjs's ques of a circle


def _dec_lineparts(cur, rows, cols, inputs):
    """'a'..'g': the line parts 11..17; '.': -2; a digit n: n + 1 circles (6)
    in a row; 'h'..'z': 1..19 blank cells."""
    n = rows * cols

    def item(ch, at):
        if "a" <= ch <= "g":
            return int(ch, 36) + 1, 1
        if "h" <= ch <= "z":
            return None, int(ch, 36) - 16
        if ch == ".":
            return -2, 1
        if "0" <= ch <= "9":
            return ("run", int(ch) + 1), int(ch) + 1
        cur.error(f"unexpected '{ch}' in a layer of line parts", at)
    out = {}
    for i, v in _scan(cur, n, item).items():
        if type(v) is tuple:            # a run of circles: a circle in each of its cells
            out.update((k, _CIRCLE) for k in range(i, min(n, i + v[1])))
        else:
            out[i] = v
    return [_layer(out, cols)]


def _enc_lineparts(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    n = rows * cols

    def item(c):
        v = vals.get(c)
        if v is None:
            return "", 1
        if v == -2:
            return ".", 1
        if v == _CIRCLE:                # up to ten circles in a row: one digit
            k = 1
            while k < 10 and c + k < n and vals.get(c + k) == _CIRCLE:
                k += 1
            return str(k - 1), k
        return _b36(_check_int(v, "a layer of line parts (11..17, 6, -2)", 11, 17) - 1), 1
    return _runs_of(n, item, 16, 19)


# ---------------------------------------------------------------------------
# colourarrows (Castle Wall's decodePzpr: a colour, an arrow and a number a clue)
#
# A clue cell's raw value is janko.at's token of it: its number (none when
# pzprjs's is -2), its arrow n s w e (pzprjs's qdir 1-4; none for 0) and its
# colour o white, x black (ques 1, 2), nothing grey (ques 0), or 'g' where the
# token would be empty or a bare number: "1wx", "3no", "6w", "x", "g", "3g".

_COMPASS = {1: "n", 2: "s", 3: "w", 4: "e"}
_QDIR = {"n": 1, "s": 2, "w": 3, "e": 4, "u": 1, "d": 2, "l": 3, "r": 4}
_COLOUR = {0: "", 1: "o", 2: "x"}
_QUES = {"": 0, "g": 0, "o": 1, "x": 2}
_CASTLE_TOKEN = re.compile(r"(\d*|\?)([nsweudlr]?)([oxg]?)")


def colour_arrow_token(ques, qdir, qnum) -> str:
    """janko's token of a clue cell from pzprjs's colour, arrow and number."""
    token = ("" if qnum == -2 else str(qnum)) + _COMPASS.get(qdir, "") + _COLOUR[ques]
    return token + "g" if token.isdigit() or not token else token


def colour_arrow_parts(token) -> tuple:
    """(ques, qdir, qnum) of a clue cell's token; FormatError if it is none."""
    m = _CASTLE_TOKEN.fullmatch(str(token))
    if m is None:
        raise FormatError(f"{token!r} is not a clue: a number, an arrow (n s w e) and a "
                          f"colour (o white, x black, g or none grey), as \"1wx\"")
    number, arrow, colour = m.groups()
    return _QUES[colour], _QDIR.get(arrow, 0), int(number) if number.isdigit() else -2


def _dec_colourarrows(cur, rows, cols, inputs):
    def item(ch, at):
        if "a" <= ch <= "z":
            return None, int(ch, 36) - 9
        if ch not in "012":
            cur.error(f"'{ch}' is not a colour (0 grey, 1 white, 2 black)", at)
        d = cur.take(1, "a clue's arrow")
        if "0" <= d <= "4":
            n = cur.take(1, "a clue's number")
            return colour_arrow_token(int(ch), int(d), -2 if n == "." else
                                _int(n, 16, cur, at + 2, "a hexadecimal digit")), 1
        if "5" <= d <= "9":
            return colour_arrow_token(int(ch), int(d) - 5, _int(cur.take(2, "a clue's number"), 16,
                                                         cur, at + 2, "a hexadecimal number")), 1
        if d == "-":
            arrow = _int(cur.take(1, "a clue's arrow"), 16, cur, at + 2, "an arrow (0-4)")
            return colour_arrow_token(int(ch), arrow, _int(cur.take(3, "a clue's number"), 16, cur,
                                                     at + 3, "a hexadecimal number")), 1
        cur.error(f"'{d}' is not an arrow (0-4, or 5-9 with a two-digit number)", at + 1)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_colourarrows(values, rows, cols, inputs):
    def write(token):
        ques, qdir, qnum = colour_arrow_parts(token)
        if qnum == -2:
            return f"{ques}{qdir}."
        _check_int(qnum, "a clue's number (0..4095)", 0, 4095)
        if qnum < 16:
            return f"{ques}{qdir}{qnum:x}"
        return f"{ques}{qdir + 5}{qnum:02x}" if qnum < 256 else f"{ques}-{qdir}{qnum:03x}"
    return _runs(_by_index(values[0], rows, cols), rows * cols, write, 9, 26)


URL_CODECS: dict[str, Codec] = {}


def _url(name, layers, decode, encode, pzprjs, doc, margin=0, blank=None, places="cells",
         blank_raw=None, whole=False):
    URL_CODECS[name] = Codec(name, layers, decode, encode, doc, pzprjs, margin, blank=blank,
                             places=places, blank_raw=blank_raw, whole=whole)


_url("number16", 1, _dec_number16, _enc_number16, "decodeNumber16",
     "numbers n >= 0 and -2 ('?') in cells")
_url("number10", 1, _dec_number10, _enc_number10, "decodeNumber10",
     "numbers 0..9 and -2 ('?') in cells")
_url("cells4", 1, _dec_cells4, _enc_cells4, "decode4Cell",
     "numbers 0..4 and -2 ('?') in cells (Akari walls, Slitherlink clues)")
_url("circles", 1, _dec_circles, _enc_circles, "decodeCircle",
     "circles 1 (white) and 2 (black) in cells")
_url("arrownumber16", 2, _dec_arrownumber16, _enc_arrownumber16, "decodeArrowNumber16",
     "arrows u/d/l/r and numbers (n, -2 '?', -3 '+') in cells")
_url("border", 1, _dec_border, _enc_border, "decodeBorder",
     "borders between cells, as region ids 1..k",
     blank=lambda rows, cols: [regions_from_borders(rows, cols, {}, {})], whole=True)
_url("roomnumber16", 1, _dec_roomnumber16, _enc_roomnumber16, "decodeRoomNumber16",
     "one number a room, at the room's top cell (needs a border layer before it)")
_url("count", 1, _dec_count, _enc_count, "decodeStarCount",
     "a number and '/' (Star Battle's star count)", blank=lambda rows, cols: [0])
_url("sums51", 1, _dec_sums51, _enc_sums51, "decodeKakuro",
     "black cells and cells split by a diagonal with a sum each side (down, across: Kakuro), "
     "on a board with a clue row and column (margin 1)",
     margin=1, blank=lambda rows, cols: [{**{(0, c): "-" for c in range(cols + 1)},
                                          **{(r, 0): "-" for r in range(rows + 1)}}])
_url("numbers51", 1, _dec_numbers51, _enc_numbers51, "decodeTilePaint",
     "cells split by a diagonal with a number 0..255 each side, \"down,across\" (a side "
     "without one empty, '-' neither), then numbers above the columns and left of the rows "
     "(board option outside: \"top left\")", places="all")
_url("number36", 1, _dec_number36, _enc_number36, "decodeHitori",
     "one base-36 number a cell, '.' blank, '-' a two-digit number, '@' or '%' '?'")
_url("excell16", 1, *_excell(False), "decodeNumber16ExCell",
     "numbers above the columns and left of the rows (pzprjs's hasexcell 1)", places="outside")
_url("excell16_around", 1, *_excell(True), "decodeNumber16ExCell",
     "numbers on all four sides: above, below, left, right (pzprjs's hasexcell 2)", places="outside")
_url("excell16_lists", 1, *_excell(False, lists=True), "decodeNumber16ExCell",
     "lists of numbers above the columns and left of the rows, up to half the "
     "line's length each (Nonogram's encodeNumber16ExCellFlushed)", places="outside")
_url("excell32", 1, _dec_excell32, _enc_excell32, "decodeBox",
     "a number above every column and left of every row: a base-32 digit, '-' and two for "
     "32..1023 (no place is blank)", places="outside")
_url("cross4", 1, _dec_cross4, _enc_cross4, "decode4Cross",
     "numbers 0..4 on the dots, (rows+1) x (cols+1), written as cells4 writes cells",
     places="dots")
_url("stars", 1, _dec_stars, _enc_stars, "decodeStar",
     "stars, 1 white or 2 black, on the doubled grid's places inside the board (cell "
     "centres, middles of inner sides, inner dots); today's pzprjs: decodeDot",
     places="doubled")
_url("blockarrows", 1, _dec_blockarrows, _enc_blockarrows, "decodeMakaro",
     "numbers 1..100 in cells, and black cells: '#' without an arrow, 'u' 'd' 'l' 'r' with one")
_url("cells1", 1, _dec_cells1, _enc_cells1, "decode1Cell",
     "marked cells (value 1), sparse: a character a mark with the unmarked run after it "
     "(Tents' trees)")
_url("piecebank", 1, _dec_piecebank, _enc_piecebank, "decodePieceBank",
     "a parameter, the fleet: how many straight ships of 1, 2, ... cells; '//d' one of "
     "pzprjs's fleets (c: 3 2 1, d: 4 3 2 1, e: 5 4 3 2 1, z: none), else '/N/piece/...' "
     "(its last piece runs to the end of the body: the bank comes last)",
     blank=lambda rows, cols: [()])
_url("colourarrows", 1, _dec_colourarrows, _enc_colourarrows, "decodePzpr of castle",
     "clue cells with a colour, an arrow and a number, as janko's tokens: \"1wx\" (1, "
     "west, black), \"3no\", \"6w\" (grey), \"x\"")
_url("binary", 1, _dec_binary, _enc_binary, "decodeBinary",
     "one bit a cell: cells marked 1 (Ripple's empty cells with decodeEmpty); the others "
     "are 0, blank unless a pair names 0", blank_raw=0)
_url("lineparts", 1, _dec_lineparts, _enc_lineparts, "decodePipelink",
     "pieces of lines in cells: 11 a crossing, 12 a vertical line, 13 a horizontal one, "
     "14..17 the corners up-right, up-left, down-left, down-right ('a'..'g'); -2 ('.'); "
     "runs of circles (6: a digit n, n + 1 of them); runs of 1..19 blanks 'h'..'z'")
_url("number6", 1, _dec_number6, _enc_number6, "decodeShugaku",
     "digits 0..4 in cells and 5 (-2, a clue without a number), runs of 1..30 blanks "
     "'6'..'z'")


# ---------------------------------------------------------------------------
# whole bodies


def board_size(codec_names, rows, cols):
    """The size (rows, cols) of the values' board for a URL's size."""
    m = max((URL_CODECS[n].margin for n in codec_names), default=0)
    return rows + m, cols + m


def url_size(codec_names, rows, cols):
    """The URL's size (rows, cols) for a values' board of this size."""
    m = max((URL_CODECS[n].margin for n in codec_names), default=0)
    return rows - m, cols - m


def decode_layers(codec_names, body: str, rows: int, cols: int, base: int = 0,
                  optional=()) -> list:
    """All layers of a URL body, in order; the body must be used up.  An
    empty body is a blank board (every layer empty: {} or 0), and so is a
    layer marked ``optional`` (the spec's `codec(...)?`) where the body has
    ended before it."""
    values: list = []
    cursor = Cursor(body, base)
    for i, name in enumerate(codec_names):
        codec = URL_CODECS[name]
        if body == "" or (i < len(optional) and optional[i] and cursor.at_end()):
            values += codec.blank_values(rows, cols)
            continue
        values += codec.decode(cursor, rows, cols, list(values))
    if not cursor.at_end():
        cursor.error(f"unexpected '{cursor.rest()[:10]}' after the puzzle's layers")
    return values


def _encode_all(registry, codec_names, values, rows, cols, answers=None) -> list:
    """Each codec's encoding of its share of ``values``, in order; ``answers``
    (file codecs): per codec, the answer it holds (None: written empty)."""
    out = []
    k = 0
    for i, name in enumerate(codec_names):
        codec = registry[name]
        share = values[k:k + codec.layers]
        if codec.answer is not None:
            out.append(codec.encode(share, rows, cols, list(values[:k]),
                                    answer=answers[i] if answers else None))
        else:
            out.append(codec.encode(share, rows, cols, list(values[:k])))
        k += codec.layers
    if k != len(values):
        raise FormatError(f"{len(values)} layer values for codecs that take {k}")
    return out


def encode_layers(codec_names, values: list, rows: int, cols: int, optional=()) -> str:
    """The URL body of these layer values (as many as the codecs' layers); a
    layer marked ``optional`` is left out when it is blank."""
    parts = _encode_all(URL_CODECS, codec_names, values, rows, cols)
    k = 0
    for i, name in enumerate(codec_names):
        codec = URL_CODECS[name]
        if i < len(optional) and optional[i] and \
                values[k:k + codec.layers] == codec.blank_values(rows, cols):
            parts[i] = ""
        k += codec.layers
    return "".join(parts)


# ---------------------------------------------------------------------------
# pzprv3 file sections


class LineCursor:
    """A position in the body lines of a pzprv3 file: (line number, text)
    pairs; ``filever`` is N of a ``pzprv3.N`` header (0 for ``pzprv3``)."""

    def __init__(self, lines, filever: int = 0):
        self.lines = list(lines)
        self.pos = 0
        self.filever = getattr(lines, "filever", filever) or filever

    def at_end(self) -> bool:
        return self.pos >= len(self.lines)

    def peek(self):
        return self.lines[self.pos][1] if not self.at_end() else None

    def line_number(self) -> int | None:
        if not self.at_end():
            return self.lines[self.pos][0]
        return (self.lines[-1][0] + 1) if self.lines else None

    def next(self, what: str):
        if self.at_end():
            self.error(f"the file ends before {what}")
        self.pos += 1
        return self.lines[self.pos - 1]

    def error(self, message: str, line: int | None = None):
        raise FormatError(message, None, self.line_number() if line is None else line)


def _read_grid(lc: LineCursor, rows, cols, what):
    """``rows`` lines of ``cols`` space-separated tokens: {(r, c): (token, line)}."""
    out = {}
    for r in range(rows):
        number, text = lc.next(what)
        tokens = text.split()
        if len(tokens) != cols:
            lc.error(f"{what}: row {r + 1} has {len(tokens)} "
                     f"{'entry' if len(tokens) == 1 else 'entries'}, expected {cols}", number)
        for c, tok in enumerate(tokens):
            out[(r, c)] = (tok, number)
    return out


def _write_grid(rows, cols, token):
    return ["".join(token(r, c) + " " for c in range(cols)) for r in range(rows)]


def _file_int(text: str) -> int:
    """A whole number as pzprjs writes one in a file ('-1', '12'); ValueError else."""
    text = text.strip()
    if not re.fullmatch(r"-?[0-9]+", text):
        raise ValueError(text)
    return int(text)


def _number_token(tok, line, lc, what, extra=()):
    if tok in extra:
        return None
    if tok == "-":
        return -2
    if tok == ".":
        return None
    try:
        return _file_int(tok)
    except ValueError:
        lc.error(f"{what}: '{tok}' is not a number, '-' or '.'", line)


def _fdec_cellqnum(lc, rows, cols, inputs, extra=(), symbols=None, what="the clue numbers"):
    """A number a cell; ``extra`` tokens read as blank, ``symbols`` maps the
    other tokens that are not numbers to their values."""
    grid = _read_grid(lc, rows, cols, what)
    out = {}
    for cell, (tok, line) in grid.items():
        v = (symbols or {}).get(tok)
        if v is None:
            v = _number_token(tok, line, lc, what, extra)
        if v is not None:
            out[cell] = v
    return [out]


def _write_layer(values, rows, cols, token):
    """The grid lines of a cell layer (``values[0]``): ``token(value, cell)``
    of each cell's value (None: blank)."""
    vals = values[0]
    _by_index(vals, rows, cols)
    return _write_grid(rows, cols, lambda r, c: token(vals.get((r, c)), (r, c)))


def _fenc_cellqnum(values, rows, cols, inputs, symbols=None):
    token_of = {v: tok for tok, v in (symbols or {}).items()}

    def token(v, cell):
        if v is None:
            return "."
        if v == -2:
            return "-"
        if isinstance(v, str) and v in token_of:
            return token_of[v]
        return str(_check_int(v, "a clue number", 0))
    return _write_layer(values, rows, cols, token)


def _fdec_cellqnumans(lc, rows, cols, inputs):
    return _fdec_cellqnum(lc, rows, cols, inputs, extra=("#", "+"))


def _fdec_celldirecqnum(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows, cols, "the arrow clues")
    dirs, nums = {}, {}
    for cell, (tok, line) in grid.items():
        if tok == ".":
            continue
        if tok == "#":
            nums[cell] = -3
            continue
        parts = tok.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            d = _file_int(parts[0])
            n = -2 if parts[1] == "-" else _file_int(parts[1])
            if d not in _DIRS:
                raise ValueError
        except ValueError:
            lc.error(f"the arrow clues: '{tok}' is not 'direction,number'", line)
        nums[cell] = n
        if _DIRS[d]:
            dirs[cell] = _DIRS[d]
    return [dirs, nums]


def _fenc_celldirecqnum(values, rows, cols, inputs):
    dirs, nums = values
    for cell in dirs:
        if cell not in nums:
            raise FormatError(f"an arrow at {cell} without a number cannot be written")

    def token(r, c):
        v = nums.get((r, c))
        if v is None:
            return "."
        if v == -3:
            return "#"
        d = _DIR_NUM[dirs[(r, c)]] if (r, c) in dirs else 0
        return f"{d},{'-' if v == -2 else _check_int(v, 'an arrow clue', 0)}"
    return _write_grid(rows, cols, token)


def _fdec_cellboard(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows, cols, "the board's cells")
    out = {}
    for cell, (tok, line) in grid.items():
        if tok == ".":
            out[cell] = "."
        elif tok != "0":
            try:
                out[cell] = _check_int(_file_int(tok), "a cell of the board", 1)
            except (ValueError, FormatError):
                lc.error(f"the board's cells: '{tok}' is not a number, '0' or '.'", line)
    return [out]


def _fenc_cellboard(values, rows, cols, inputs):
    vals = values[0]
    _by_index(vals, rows, cols)

    def token(r, c):
        v = vals.get((r, c))
        if v is None:
            return "0"
        if v == ".":
            return "."
        return str(_check_int(v, "a cell of the board (a number from 1)", 1))
    return _write_grid(rows, cols, token)


def _fdec_cell(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows, cols, "the cells")
    out = {}
    for cell, (tok, _) in grid.items():
        if tok != ".":
            try:
                out[cell] = _file_int(tok)
            except ValueError:
                out[cell] = Mark(tok)      # a clue where a pair names it, else the answer's
    return [out]


def _fenc_cell(values, rows, cols, inputs):
    def token(v, cell):
        text = "." if v is None else str(v)
        if not text or any(ch.isspace() for ch in text):
            raise FormatError(f"{v!r} at {cell} cannot be written as a token of a file")
        return text
    return _write_layer(values, rows, cols, token)


def _fdec_empty(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows, cols, "the empty cells")
    out = {}
    for cell, (tok, line) in grid.items():
        if tok not in ("*", "."):
            lc.error(f"the empty cells: '{tok}' is not '*' (empty) or '.'", line)
        if tok == "*":
            out[cell] = 1
    return [out]


def _fenc_empty(values, rows, cols, inputs):
    vals = values[0]
    _by_index(vals, rows, cols)
    return _write_grid(rows, cols, lambda r, c: "*" if vals.get((r, c)) else ".")


# Makaro's black cells, '#' without an arrow and t b l r with one
_FILE_BLOCKS = {"#": "#", "t": "u", "b": "d", "l": "l", "r": "r"}


def _fdec_cellblockarrows(lc, rows, cols, inputs):
    return _fdec_cellqnum(lc, rows, cols, inputs, symbols=_FILE_BLOCKS,
                          what="the numbers and black cells")


def _fenc_cellblockarrows(values, rows, cols, inputs):
    return _fenc_cellqnum(values, rows, cols, inputs, symbols=_FILE_BLOCKS)


def _fdec_cellcolourarrows(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows, cols, "the clues")
    out = {}
    for cell, (tok, line) in grid.items():
        if tok == ".":
            continue
        try:
            qdir, qnum, ques = tok.split(",")
            qdir = _file_int(qdir)
            qnum = -2 if qnum == "-" else _file_int(qnum)
            if qdir not in _DIRS or qnum < -2:
                raise ValueError
            out[cell] = colour_arrow_token(_file_int(ques) & 3, qdir, qnum)
        except (ValueError, KeyError):
            lc.error(f"the clues: '{tok}' is not 'arrow,number,colour' (0-4, a number or "
                     f"'-', 0-2) or '.'", line)
    return [out]


def _fenc_cellcolourarrows(values, rows, cols, inputs):
    def write(token, cell):
        if token is None:
            return "."
        ques, qdir, qnum = colour_arrow_parts(token)
        return f"{qdir},{'-' if qnum == -2 else qnum},{ques}"
    return _write_layer(values, rows, cols, write)


def _fdec_arearoom(lc, rows, cols, inputs):
    number, text = lc.next("the rooms")
    try:
        _file_int(text)
    except ValueError:
        lc.error(f"the rooms: expected the number of rooms, not '{text.strip()}'", number)
    grid = _read_grid(lc, rows, cols, "the rooms")
    return [normalize_regions({cell: tok for cell, (tok, _) in grid.items()}, rows, cols)]


def _fenc_arearoom(values, rows, cols, inputs):
    ids = normalize_regions(values[0], rows, cols)
    k = max(ids.values(), default=0)
    return [str(k)] + _write_grid(rows, cols, lambda r, c: str(ids[(r, c)] - 1))


def _fdec_borderques(lc, rows, cols, inputs):
    vgrid = _read_grid(lc, rows, cols - 1, "the borders between columns")
    hgrid = _read_grid(lc, rows - 1, cols, "the borders between rows")
    for tok, line in list(vgrid.values()) + list(hgrid.values()):
        if tok not in ("0", "1"):
            lc.error(f"the borders: '{tok}' is not 0 or 1", line)
    vertical = {cell: tok == "1" for cell, (tok, _) in vgrid.items()}
    horizontal = {cell: tok == "1" for cell, (tok, _) in hgrid.items()}
    return [regions_from_borders(rows, cols, vertical, horizontal)]


def _fenc_borderques(values, rows, cols, inputs):
    vertical, horizontal = border_bits(values[0], rows, cols)
    return (_write_grid(rows, cols - 1, lambda r, c: "1" if vertical[r * (cols - 1) + c] else "0")
            + _write_grid(rows - 1, cols, lambda r, c: "1" if horizontal[r * cols + c] else "0"))


def _is_arearoom(lc: LineCursor, rows, cols) -> bool:
    """Whether the rooms at the cursor are written as AreaRoom (a count line,
    then a room id a cell) rather than BorderQues (0/1 borders)."""
    first = (lc.peek() or "").split()
    if len(first) != 1:
        return False            # BorderQues' first line has cols - 1 != 1 entries
    if cols != 2 or first[0] not in ("0", "1"):
        return True
    # two columns: both start with a line of one entry; AreaRoom's next has two
    if rows > 1 and lc.pos + 1 < len(lc.lines):
        return len(lc.lines[lc.pos + 1][1].split()) == cols
    return lc.filever == 0


def _fdec_rooms(lc, rows, cols, inputs):
    if _is_arearoom(lc, rows, cols):
        return _fdec_arearoom(lc, rows, cols, inputs)
    return _fdec_borderques(lc, rows, cols, inputs)


def _read_qnum51(lc, rows, cols):
    """CellQnum51's (rows+1) x (cols+1) grid: {(r, c): raw} with the board's
    cells at 1..rows, 1..cols: the top row's down numbers and the left
    column's across ones as ints, a split cell "across,down" as (down,
    across); '.' cells and the corner left out.  -1 is pzprjs's none."""
    out = {}

    def num(tok, line):
        try:
            return _file_int(tok)
        except ValueError:
            lc.error(f"the numbers of cells split by a diagonal: '{tok}' is not a number", line)
    for (r, c), (tok, line) in _read_grid(lc, rows + 1, cols + 1, "the sums").items():
        if r == 0 and c == 0:
            continue
        if r == 0 or c == 0:
            out[(r, c)] = num(tok, line)
        elif tok != ".":
            parts = tok.split(",")
            if len(parts) != 2:
                lc.error(f"the sums: '{tok}' is not 'across,down' or '.'", line)
            across, down = (num(p, line) for p in parts)
            out[(r, c)] = (down, across)
    return out


def _write_qnum51(rows, cols, top, left, split):
    """CellQnum51's grid from ``top`` {c: n}, ``left`` {r: n} and the split
    cells ``split`` {(r, c): (down, across)} (board positions; None: -1)."""
    def s(v):
        return "-1" if v is None else str(v)

    def token(r, c):
        if r == 0 and c == 0:
            return "0"
        if r == 0:
            return s(top.get(c - 1))
        if c == 0:
            return s(left.get(r - 1))
        if (r - 1, c - 1) not in split:
            return "."
        down, across = split[(r - 1, c - 1)]
        return f"{s(across)},{s(down)}"
    return _write_grid(rows + 1, cols + 1, token)


def _fdec_cellqnum51(lc, rows, cols, inputs):
    def sums(v):
        return v if v > 0 else None
    out = {(0, 0): "-"}
    for (r, c), v in _read_qnum51(lc, rows, cols).items():
        if r == 0:
            out[(r, c)] = sums_token(sums(v), None)
        elif c == 0:
            out[(r, c)] = sums_token(None, sums(v))
        else:
            out[(r, c)] = sums_token(*map(sums, v))
    return [out]


def _fenc_cellqnum51(values, rows, cols, inputs):
    black, top, left = _sums_cells(values[0], rows, cols)
    return _write_qnum51(rows, cols, top, left, black)


def _fdec_cellqnum51_outside(lc, rows, cols, inputs):
    def number(v):
        return v if v >= 0 else None
    out = {}
    for (r, c), v in _read_qnum51(lc, rows, cols).items():
        if r == 0 or c == 0:
            if v >= 0:
                out[(r - 1, c - 1)] = v
        else:
            out[(r - 1, c - 1)] = sums_token(*map(number, v))
    return [out]


def _fenc_cellqnum51_outside(values, rows, cols, inputs):
    top, left, split = {}, {}, {}
    for (r, c), v in values[0].items():
        if 0 <= r < rows and 0 <= c < cols:
            split[(r, c)] = split_sums(v, f" at ({r}, {c})", zero=True)
        elif (r == -1 and 0 <= c < cols) or (c == -1 and 0 <= r < rows):
            if v != "-":
                (top if r == -1 else left)[c if r == -1 else r] = _check_int(
                    v, "a number outside the grid", 0)
        else:
            raise FormatError(f"pzprjs's grid has no room for the clue at ({r}, {c})")
    return _write_qnum51(rows, cols, top, left, split)


def _fdec_crossnum(lc, rows, cols, inputs):
    return _fdec_cellqnum(lc, rows + 1, cols + 1, inputs)


def _fenc_crossnum(values, rows, cols, inputs):
    return _fenc_cellqnum(values, rows + 1, cols + 1, inputs)


def _fdec_starfile(lc, rows, cols, inputs):
    """(2 rows - 1) lines of 2 cols - 1 characters: '1' a white star, '2' a
    black one, '.' none (today's pzprjs also writes 'X' for a cell left out
    of the puzzle, which standard Galaxies has not)."""
    out = {}
    for y in range(1, 2 * rows):
        number, text = lc.next("the stars")
        row = text.strip()
        if len(row) != 2 * cols - 1:
            lc.error(f"the stars: row {y} has {len(row)} places, expected {2 * cols - 1}", number)
        for i, ch in enumerate(row):
            if ch in "12":
                out[(y, i + 1)] = int(ch)
            elif ch != ".":
                lc.error(f"the stars: '{ch}' is not '1' (a star), '2' (a black star) or '.'",
                         number)
    return [out]


def _fenc_starfile(values, rows, cols, inputs):
    stars = values[0]
    for (y, x), v in stars.items():
        if not (0 < y < 2 * rows and 0 < x < 2 * cols) or v not in (1, 2):
            raise FormatError(f"pzprjs has no star {v!r} at the place ({y}, {x})")
    return ["".join(str(stars.get((y, x), ".")) for x in range(1, 2 * cols))
            for y in range(1, 2 * rows)]


class Mark(str):
    """A token pzprjs writes in a cell of a file grid (``cell``, ``cellexcell``)
    that is not a given number ("1", "A", "#", "+", "-"): what it means is
    the genre's.  A spec's (raw, token) pair makes it a clue; with no pair it
    is part of the answer, or nothing, and is not read (formats/binding.py
    drops it)."""


def _outside_raw(tok, line, lc):
    """A number outside the grid in a pzprv3 grid: "N", "cN" (pzprjs's check
    mark on a clue, not kept), "-" (-2, a clue without a number)."""
    if tok == "-":
        return -2
    try:
        return _file_int(tok[1:] if tok.startswith("c") else tok)
    except ValueError:
        lc.error(f"the clues outside the grid: '{tok}' is not a number, '-' or '.'", line)


def _cellexcell(around, lists=False):
    """decodeCellExCell: one grid of tokens with the cells outside the board:
    a row above and a column left of it (pzprjs's hasexcell 1), a row and a
    column on every side (``around``, hasexcell 2), or, with ``lists``,
    (rows+1)//2 rows above and (cols+1)//2 columns left (Nonogram), each
    column's and row's list read from the far end toward the board (written
    flush against it); the corners are not read.  Outside: numbers as
    ``_outside_raw``.  In a cell: "qN" the given number N (as
    decodeCellExCellQnumAnumsub writes it), "." nothing, any other token a
    ``Mark``."""
    def frame(rows, cols):
        """(rows above, columns left, rows and columns after) of the grid."""
        if lists:
            return (rows + 1) // 2, (cols + 1) // 2, 0
        return 1, 1, (1 if around else 0)

    def place_of(r, c, rows, cols):
        if 0 <= c < cols and not 0 <= r < rows:
            return (-1 if r < 0 else rows, c)
        if 0 <= r < rows and not 0 <= c < cols:
            return (r, -1 if c < 0 else cols)
        return None                 # a cell of the board, or a corner

    def dec(lc, rows, cols, inputs):
        top, left, after = frame(rows, cols)
        grid = _read_grid(lc, rows + top + after, cols + left + after,
                          "the grid with its outside clues")
        out, items = {}, {}
        for (i, j), (tok, line) in sorted(grid.items()):
            r, c = i - top, j - left
            if tok == ".":
                continue
            if 0 <= r < rows and 0 <= c < cols:
                is_given = tok.startswith("q") and re.fullmatch(r"q-?[0-9]+", tok)
                out[(r, c)] = int(tok[1:]) if is_given else Mark(tok)
            elif place_of(r, c, rows, cols) is not None:
                items.setdefault(place_of(r, c, rows, cols), []).append(
                    _outside_raw(tok, line, lc))
        for place, found in items.items():
            out[place] = tuple(found) if lists else found[0]
        return [out]

    def enc(values, rows, cols, inputs):
        top, left, after = frame(rows, cols)
        vals = values[0]
        for (r, c), v in vals.items():
            room = top if r < 0 or r >= rows else left
            inside = 0 <= r < rows and 0 <= c < cols
            if not inside and (place_of(r, c, rows, cols) is None or (
                    (r >= rows or c >= cols) and not around)):
                raise FormatError(f"pzprjs's grid has no room for the clue at ({r}, {c})")
            if not inside and lists and (not isinstance(v, tuple) or len(v) > room):
                raise FormatError(f"the clue at ({r}, {c}) is not a list of at most {room} "
                                  f"numbers")

        def number(v):
            return "-" if v == -2 else str(_check_int(v, "a number outside the grid", 0))

        def token(i, j):
            r, c = i - top, j - left
            if 0 <= r < rows and 0 <= c < cols:
                v = vals.get((r, c))
                if v is None or isinstance(v, str):
                    return v or "."
                return "-" if v == -2 else f"q{_check_int(v, 'a clue number', 0)}"
            place = place_of(r, c, rows, cols)
            v = vals.get(place) if place else None
            if v is None:
                return "."
            if not lists:
                return number(v)
            slot = i if c >= 0 else j             # from the far end
            k = slot - ((top if c >= 0 else left) - len(v))
            return number(v[k]) if k >= 0 else "."
        return _write_grid(rows + top + after, cols + left + after, token)
    return dec, _with_answer(enc, lambda rows, cols: frame(rows, cols)[:2])


def _skip_lines(lc: LineCursor, count: int):
    """Answer sections are read leniently: up to ``count`` lines, whatever
    they hold (answers are ignored, and a newer pzprjs may have written an
    extra answer section first)."""
    for _ in range(count):
        if lc.at_end():
            return
        lc.next("an answer section")


def _answer_cells(empty):
    """A cell answer section: ``rows`` lines, read and ignored; written with
    the answer's token on each cell, ``empty`` elsewhere."""
    def dec(lc, rows, cols, inputs):
        _skip_lines(lc, rows)
        return []

    def enc(values, rows, cols, inputs, answer=None):
        answer = answer or {}
        return _write_grid(rows, cols, lambda r, c: answer.get((r, c), empty))
    return dec, enc


def _skip_line():
    """An answer section of one line, read and ignored, written empty."""
    def dec(lc, rows, cols, inputs):
        _skip_lines(lc, 1)
        return []

    def enc(values, rows, cols, inputs):
        return [""]
    return dec, enc


class Borders(dict):
    """An answer on borders: (by, bx) in pzprjs's doubled coordinates (cell
    (r, c) at (2r+1, 2c+1)) -> token.  ``lattice``: the borders are the dot
    lattice's lines, the board's rim with them (pzprjs's hasborder 2:
    Slitherlink), else the borders between cells only."""
    lattice = False


def border_lines(rows, cols, lattice, token) -> list:
    """pzprjs's encodeBorder: the borders across rows (between columns) a
    line a row, then those between rows; ``token(by, bx)``."""
    rim = 0 if lattice else 2
    across = [by for by in range(1, 2 * rows, 2)]
    down = list(range(rim, 2 * rows + 1 - rim, 2))
    return (["".join(token(by, bx) + " " for bx in range(rim, 2 * cols + 1 - rim, 2))
             for by in across]
            + ["".join(token(by, bx) + " " for bx in range(1, 2 * cols, 2)) for by in down])


def _answer_borders(empty):
    """A border answer section (BorderLine, BorderAns): read and ignored (the
    lattice's 2 rows + 1 lines when its first line has a border more than
    the cells, else 2 rows - 1); written with the answer's tokens."""
    def dec(lc, rows, cols, inputs):
        first = lc.peek()
        lattice = first is not None and len(first.split()) == cols + 1
        _skip_lines(lc, 2 * rows + 1 if lattice else 2 * rows - 1)
        return []

    def enc(values, rows, cols, inputs, answer=None):
        answer = answer if answer is not None else Borders()
        return border_lines(rows, cols, answer.lattice,
                            lambda by, bx: answer.get((by, bx), empty))
    return dec, enc


def _with_answer(encode, frame=lambda rows, cols: (0, 0)):
    """A question section that also holds the answer (CellQnumAns, a genre's
    decodeCell, decodeCellExCell): the question written, then each answer
    token in its cell (``frame(rows, cols)``: the rows and columns before
    the board's in the section's grid)."""
    def enc(values, rows, cols, inputs, answer=None):
        lines = encode(values, rows, cols, inputs)
        if not answer:
            return lines
        top, left = frame(rows, cols)
        grid = [line.split() for line in lines]
        for (r, c), tok in answer.items():
            grid[r + top][c + left] = tok
        return ["".join(t + " " for t in row) for row in grid]
    return enc


def _fdec_number(lc, rows, cols, inputs):
    number, text = lc.next("a number")
    try:
        return [_file_int(text)]
    except ValueError:
        lc.error(f"expected a number, not '{text.strip()}'", number)


def _fenc_number(values, rows, cols, inputs):
    return [str(_check_int(values[0], "a number line", 0))]


def _flag(letter):
    def dec(lc, rows, cols, inputs):
        if lc.peek() == letter:
            lc.next("a flag")
            return [True]
        return [False]

    def enc(values, rows, cols, inputs):
        return [letter] if values[0] else []
    return dec, enc


def _fdec_flags(lc, rows, cols, inputs):
    if lc.filever >= 1:
        _, text = lc.next("the flags line")
        return [[f for f in text.strip().split(",") if f]]
    return [[]]


def _fenc_flags(values, rows, cols, inputs):
    return []


def _fdec_celllineparts(lc, rows, cols, inputs):
    """pzprjs's values of lineparts, as its file writes them: 'a'..'g' the
    line parts 11..17, 'o' a circle (6), '-' -2, a number, '.' blank."""
    grid = _read_grid(lc, rows, cols, "the line parts")
    out = {}
    for cell, (tok, line) in grid.items():
        if len(tok) == 1 and "a" <= tok <= "g":
            out[cell] = int(tok, 36) + 1
        elif tok == "o":
            out[cell] = _CIRCLE
        elif tok == "-":
            out[cell] = -2
        elif tok != ".":
            try:
                out[cell] = _file_int(tok)
            except ValueError:
                lc.error(f"the line parts: '{tok}' is not a line part 'a'..'g', 'o', a number, "
                         f"'-' or '.'", line)
    return [out]


def _fenc_celllineparts(values, rows, cols, inputs):
    def token(v, cell):
        if v is None:
            return "."
        if v == -2:
            return "-"
        if v == _CIRCLE:
            return "o"
        return _b36(_check_int(v, "a layer of line parts (11..17, 6, -2)", 11, 17) - 1)
    return _write_layer(values, rows, cols, token)


def _fdec_disptype(lc, rows, cols, inputs):
    lc.next("the display type line")
    return []


def _fenc_disptype(values, rows, cols, inputs):
    return ["pipe"]


FILE_CODECS: dict[str, Codec] = {}


def _file(name, layers, decode, encode, pzprjs, doc, margin=0, optional=False, places="cells",
          whole=False, answer=None, answer_mark="#", answer_on_clues=True):
    FILE_CODECS[name] = Codec(name, layers, decode, encode, doc, pzprjs, margin, optional,
                              places=places, whole=whole, answer=answer,
                              answer_mark=answer_mark, answer_on_clues=answer_on_clues)


_file("cellqnum", 1, _fdec_cellqnum, _fenc_cellqnum, "CellQnum",
      "a clue number a cell: n, '-' (-2, '?') or '.'")
_file("cellqnumans", 1, _fdec_cellqnumans, _with_answer(_fenc_cellqnum), "CellQnumAns",
      "clue numbers with the answer's '#' and '+' (read as blank; written as cellqnum)",
      answer="cells")
_file("celldirecqnum", 2, _fdec_celldirecqnum, _fenc_celldirecqnum, "CellDirecQnum",
      "arrow clues 'dir,num' (dir 0-4, num or '-'), '#' (-3) or '.'")
_file("cellblockarrows", 1, _fdec_cellblockarrows, _fenc_cellblockarrows,
      "decodeCellQuesData_makaro",
      "numbers, '-' (-2, '?'), '.', and black cells: '#' without an arrow, 't' 'b' 'l' 'r' "
      "with one (read as '#', 'u', 'd', 'l', 'r')")
_file("cellboard", 1, _fdec_cellboard, _fenc_cellboard, "Bosanowa's decodeData",
      "a board of cells: '.' no cell (value '.'), '0' an empty cell, n a number")
_file("cellqnum51", 1, _fdec_cellqnum51, _fenc_cellqnum51, "CellQnum51",
      "Kakuro's sums, (rows+1) x (cols+1) with the clue row and column", margin=1)
_file("cellqnum51_outside", 1, _fdec_cellqnum51_outside, _fenc_cellqnum51_outside, "CellQnum51",
      "the same grid, its top row and left column as clues outside the grid (board option "
      "outside: \"top left\"), split cells \"down,across\"; -1 none, 0 a number (Tile Paint)",
      places="all")
_file("crossnum", 1, _fdec_crossnum, _fenc_crossnum, "CrossNum",
      "a clue number a dot, (rows+1) x (cols+1): n, '-' (-2, '?') or '.'", places="dots")
_file("starfile", 1, _fdec_starfile, _fenc_starfile, "StarFile",
      "stars on the doubled grid's places inside the board, a line of 2 cols - 1 "
      "characters for each of 2 rows - 1: '1' white, '2' black, '.' none (today's "
      "pzprjs: DotFile)", places="doubled")
_file("cell", 1, _fdec_cell, _with_answer(_fenc_cell), "decodeCell",
      "a token a cell: a whole number, '.' blank, or a symbol; a symbol no pair names "
      "is the answer's and read as blank", answer="cells")
_file("empty", 1, _fdec_empty, _fenc_empty, "decodeEmpty (a genre's FileIO)",
      "a cell grid: '*' an empty cell (pzprjs's ques 7, read as 1), '.' any other")
_file("cellexcell", 1, *_cellexcell(False), "decodeCellExCell",
      "the grid with a row above and a column left of it (hasexcell 1): numbers outside, "
      "'qN' given numbers and the genre's marks in the cells", places="all",
      answer="cells")
_file("cellexcell_around", 1, *_cellexcell(True), "decodeCellExCell",
      "the grid with a row and a column on every side (hasexcell 2): numbers outside, "
      "'qN' given numbers and the genre's marks in the cells", places="all",
      answer="cells")
_file("cellexcell_lists", 1, *_cellexcell(False, lists=True), "decodeCellExCell",
      "the grid with (rows+1)//2 rows above and (cols+1)//2 columns left of it: a list of "
      "numbers a column and a row (Nonogram), the genre's marks in the cells", places="all",
      answer="cells")
_file("celllineparts", 1, _fdec_celllineparts, _fenc_celllineparts,
      "decodePipelink (a genre's FileIO)",
      "pieces of lines as lineparts: 'a'..'g' (11..17), 'o' a circle (6), '-' (-2), '.'")
_file("disptype", 0, _fdec_disptype, _fenc_disptype, "decodeDispType",
      "an obsolete line of the display type: read and ignored, written 'pipe' as pzprjs "
      "does (Pipelink)")
_file("cellcolourarrows", 1, _fdec_cellcolourarrows, _fenc_cellcolourarrows,
      "decodeData of castle", "clue cells 'arrow,number,colour' (0-4, a number or '-', 0-2 "
      "grey, white, black), read as colourarrows' tokens; '.' no clue")
_file("arearoom", 1, _fdec_arearoom, _fenc_arearoom, "AreaRoom",
      "the number of rooms, then a room id a cell", whole=True)
_file("borderques", 1, _fdec_borderques, _fenc_borderques, "BorderQues",
      "0/1 borders between columns, then between rows", whole=True)
_file("rooms", 1, _fdec_rooms, _fenc_arearoom, "AreaRoom or BorderQues",
      "rooms as either (pzprv3 files: AreaRoom; pzprv3.1 and later often BorderQues); "
      "written as AreaRoom, which every pzprjs reads in a 'pzprv3' file", whole=True)
_file("piecebank", 1, _fdec_piecebank, _fenc_piecebank, "decodePieceBank",
      "the fleet: a preset's letter (c, d, e, z), or the number of pieces and a piece a line")
_file("number", 1, _fdec_number, _fenc_number, "a number line",
      "one number on a line (Star Battle's star count)")
_file("flags", 1, _fdec_flags, _fenc_flags, "decodeFlags",
      "a line of comma-separated options, present in pzprv3.1+ files (Country Road); "
      "not written (files are written as 'pzprv3')")
for _letter in "bfmotxe":
    _file(f"flag_{_letter}", 1, *_flag(_letter), f"ConfigFlag '{_letter}'",
          f"an optional line '{_letter}' (True when present)", optional=True)
_file("piecebankqcmp", 0, *_skip_line(), "PieceBankQcmp",
      "an answer section (the pieces ticked off): one line, read and ignored, written empty",
      optional=True)
for _name, _pz, _empty, _mark in (("cellans", "CellAns", ".", "#"),
                                  ("cellanumsub", "CellAnumsub", ".", "#"),
                                  ("cellqsub", "CellQsub", "0", "1"),
                                  ("cellqcmp", "CellQcmp", ".", "-")):
    _file(_name, 0, *_answer_cells(_empty), _pz,
          f"an answer section ({_pz}): read and ignored; written empty, or with the answer "
          f"its argument names", optional=True, answer="cells", answer_mark=_mark,
          # pzprjs gives an answer number (anum) only to a cell without a given one
          answer_on_clues=_name != "cellanumsub")
for _name, _pz in (("borderline", "BorderLine"), ("borderans", "BorderAns")):
    _file(_name, 0, *_answer_borders("0"), _pz,
          f"an answer section ({_pz}): read and ignored; written empty, or with the answer "
          f"its argument names", optional=True, answer="borders", answer_mark="1")


def decode_file_layers(codec_names, lines, rows: int, cols: int) -> list:
    """All layers of a pzprv3 body (``parse_pzprv3``'s lines), in order.
    Lines after the last section are ignored, as pzprjs does."""
    values: list = []
    cursor = lines if isinstance(lines, LineCursor) else LineCursor(lines)
    for name in codec_names:
        values += FILE_CODECS[name].decode(cursor, rows, cols, list(values))
    return values


def encode_file_layers(codec_names, values: list, rows: int, cols: int, answers=None) -> list:
    """The body lines of a pzprv3 file with these layer values; ``answers``:
    per codec, the raw answer tokens it writes (``Codec.answer``), or None."""
    return [line for lines in _encode_all(FILE_CODECS, codec_names, values, rows, cols, answers)
            for line in lines]
