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
- ``kakuro``: a cell layer over a board one row and one column larger than
  the URL's size (``margin = 1``: row 0 and column 0 are the clue border
  pzprjs keeps outside the grid): black cells "-" (no sums) or "D,A"
  (down sum, across sum; a missing side empty: "16,", ",23", "23,7"), as the
  puzzlekit dataset writes them; white cells absent.  pzprjs holds sums
  1..45; 0 or a negative sum is read as no sum.

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
    out = []
    count = 0
    for i in range(length):
        pstr = write(values[i]) if i in values else ""
        if pstr == "":
            count += 1
        if count == 0:
            out.append(pstr)
        elif pstr or count == max_run:
            out.append(_b36(skip_base + count) + pstr)
            count = 0
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

def _dec_cells4(cur, rows, cols, inputs):
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
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_cells4(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    n = rows * cols
    out = []
    count = 0
    c = 0
    while c < n:
        pstr = ""
        v = vals.get(c)
        if v is not None and v != -2:
            _check_int(v, "a 0..4 clue layer", 0, 4)
            if c + 1 < n and (c + 1) in vals:
                pstr = str(v)
            elif c + 2 < n and (c + 2) in vals:
                pstr = str(5 + v)
                c += 1
            else:
                pstr = format(10 + v, "x")
                c += 2
        elif v == -2:
            pstr = "."
        else:
            count += 1
        if count == 0:
            out.append(pstr)
        elif pstr or count == 20:
            out.append(_b36(count + 15) + pstr)
            count = 0
        c += 1
    if count > 0:
        out.append(_b36(count + 15))
    return "".join(out)


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
# kakuro (decodeKakuro)

def _kdecval(ch):
    if "0" <= ch <= "9" or "a" <= ch <= "j":
        return int(ch, 36)
    if "A" <= ch <= "Z":
        return int(ch, 36) + 10
    if ch == "-":
        return -1
    return None


def _kencval(v):
    if v is None:
        return "-"
    _check_int(v, "a Kakuro sum (1..45)", 1, 45)
    return _b36(v) if v <= 19 else _b36(v - 10).upper()


def kakuro_token(down, across):
    """The token of a black cell: "-" or "D,A" with a missing side empty."""
    if down is None and across is None:
        return "-"
    return f"{'' if down is None else down},{'' if across is None else across}"


def kakuro_sums(token, where=""):
    """(down, across) of a black-cell token ("-", "16,", ",23", "23,7")."""
    if token == "-":
        return None, None
    parts = token.split(",") if isinstance(token, str) else []
    if len(parts) != 2 or not all(re.fullmatch(r"[0-9]*", p) for p in parts):
        raise FormatError(f"{token!r}{where} is not a Kakuro clue ('-', 'D,A', 'D,' or ',A')")
    down, across = (int(p) if p else None for p in parts)
    return (down if down else None), (across if across else None)


def _dec_kakuro(cur, rows, cols, inputs):
    out = {}
    black = set()
    c, n = 0, rows * cols
    while c < n:
        if cur.at_end():
            cur.error(f"the body ends after {c} of {n} cells")
        at = cur.pos
        ch = cur.take(1, "a Kakuro cell")
        if "k" <= ch <= "z":
            c += int(ch, 36) - 19
            continue
        down = across = None
        if ch != ".":
            d, a = _kdecval(ch), _kdecval(cur.take(1, "a Kakuro clue"))
            if d is None:
                cur.error(f"unexpected '{ch}' in a Kakuro layer", at)
            if a is None:
                cur.error(f"unexpected '{cur.body[at + 1]}' in a Kakuro clue", at + 1)
            down, across = (d if d > 0 else None), (a if a > 0 else None)
        r, cc = _at(c, cols)
        out[(r + 1, cc + 1)] = kakuro_token(down, across)
        black.add((r, cc))
        c += 1
    out[(0, 0)] = "-"
    for cc in range(cols):
        down = None
        if (0, cc) not in black:
            at = cur.pos
            ch = cur.take(1, "the sums above the board")
            down = _kdecval(ch)
            if down is None:
                cur.error(f"unexpected '{ch}' in a Kakuro sum", at)
        out[(0, cc + 1)] = kakuro_token(down if down and down > 0 else None, None)
    for r in range(rows):
        across = None
        if (r, 0) not in black:
            at = cur.pos
            ch = cur.take(1, "the sums left of the board")
            across = _kdecval(ch)
            if across is None:
                cur.error(f"unexpected '{ch}' in a Kakuro sum", at)
        out[(r + 1, 0)] = kakuro_token(None, across if across and across > 0 else None)
    return [out]


def _kakuro_cells(layer, rows, cols):
    """(black: {(r, c) inside: (down, across)}, top: {c: down}, left: {r: across})."""
    black, top, left = {}, {}, {}
    for (r, c), token in layer.items():
        if not (0 <= r <= rows and 0 <= c <= cols):
            raise FormatError(f"cell ({r}, {c}) is outside the {rows + 1}x{cols + 1} Kakuro board")
        down, across = kakuro_sums(token, f" at ({r}, {c})")
        if r == 0 and c == 0:
            if down or across:
                raise FormatError("the top left corner of a Kakuro board holds no sums")
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


def _enc_kakuro(values, rows, cols, inputs):
    black, top, left = _kakuro_cells(values[0], rows, cols)

    def write(sums):
        down, across = sums
        return "." if down is None and across is None else _kencval(down) + _kencval(across)
    out = [_runs({r * cols + c: sums for (r, c), sums in black.items()}, rows * cols,
                 write, 19, 16)]
    for c in range(cols):
        if (0, c) in black:
            if top.get(c):
                raise FormatError(f"the sum at (0, {c + 1}) is above a black cell; "
                                  "puzz.link cannot hold it")
        else:
            out.append(_kencval(top.get(c)))
    for r in range(rows):
        if (r, 0) in black:
            if left.get(r):
                raise FormatError(f"the sum at ({r + 1}, 0) is left of a black cell; "
                                  "puzz.link cannot hold it")
        else:
            out.append(_kencval(left.get(r)))
    return "".join(out)


# ---------------------------------------------------------------------------
# hitori (decodeHitori: one base-36 character a cell)

def _dec_hitori(cur, rows, cols, inputs):
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
        cur.error(f"unexpected '{ch}' in a Hitori layer", at)
    return [_layer(_scan(cur, rows * cols, item), cols)]


def _enc_hitori(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    out = []
    for c in range(rows * cols):
        v = vals.get(c)
        if v is None:
            out.append(".")
        elif v == -2:
            out.append("@")
        else:
            _check_int(v, "a Hitori layer (0..1295)", 0, 1295)
            out.append(_b36(v) if v < 36 else "-" + _b36(v))
    return "".join(out)


# ---------------------------------------------------------------------------
# binary (decodeBinary / decodeEmpty: one bit a cell, five a base-32 digit)

def _dec_binary(cur, rows, cols, inputs):
    bits = _bits(cur, rows * cols, "cell bits")
    return [{_at(i, cols): 1 for i, b in enumerate(bits) if b}]


def _enc_binary(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    return _write_bits([bool(vals.get(i)) for i in range(rows * cols)])


# ---------------------------------------------------------------------------
# lineparts (decodePipelink: given pieces of a line, '?' cells, runs of ice)

def _dec_lineparts(cur, rows, cols, inputs):
    def item(ch, at):
        if ch == ".":
            return -2, 1
        if "0" <= ch <= "9":                   # a run of ice cells (pzprjs's ques 6)
            return ("ice", int(ch) + 1), int(ch) + 1
        if "a" <= ch <= "g":
            return int(ch, 36) + 1, 1
        if "h" <= ch <= "z":
            return None, int(ch, 36) - 16
        cur.error(f"unexpected '{ch}' in a line-parts layer", at)
    out = {}
    for i, v in _scan(cur, rows * cols, item).items():
        if type(v) is tuple:                   # ("ice", run): the run's cells
            out.update({k: 6 for k in range(i, min(rows * cols, i + v[1]))})
        else:
            out[i] = v
    return [_layer(out, cols)]


def _enc_lineparts(values, rows, cols, inputs):
    vals = _by_index(values[0], rows, cols)
    out = []
    count = 0
    c = 0
    n = rows * cols
    while c < n:
        v = vals.get(c)
        pstr = ""
        if v == -2:
            pstr = "."
        elif v == 6:
            run = 1
            while run < 10 and vals.get(c + run) == 6 and c + run < n:
                run += 1
            pstr = str(run - 1)
            c += run - 1
        elif v is not None:
            _check_int(v, "a line-parts layer (11-17 pieces, 6 ice, -2)", 11, 17)
            pstr = _b36(v - 1)
        else:
            count += 1
        if count == 0:
            out.append(pstr)
        elif pstr or count == 19:
            out.append(_b36(16 + count) + pstr)
            count = 0
        c += 1
    if count > 0:
        out.append(_b36(16 + count))
    return "".join(out)


URL_CODECS: dict[str, Codec] = {}


def _url(name, layers, decode, encode, pzprjs, doc, margin=0, blank=None):
    URL_CODECS[name] = Codec(name, layers, decode, encode, doc, pzprjs, margin, blank=blank)


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
     blank=lambda rows, cols: [regions_from_borders(rows, cols, {}, {})])
_url("roomnumber16", 1, _dec_roomnumber16, _enc_roomnumber16, "decodeRoomNumber16",
     "one number a room, at the room's top cell (needs a border layer before it)")
_url("count", 1, _dec_count, _enc_count, "decodeStarCount",
     "a number and '/' (Star Battle's star count)", blank=lambda rows, cols: [0])
_url("kakuro", 1, _dec_kakuro, _enc_kakuro, "decodeKakuro",
     "Kakuro's black cells and sums, on a board with a clue row and column (margin 1)",
     margin=1, blank=lambda rows, cols: [{**{(0, c): "-" for c in range(cols + 1)},
                                          **{(r, 0): "-" for r in range(rows + 1)}}])
_url("hitori", 1, _dec_hitori, _enc_hitori, "decodeHitori",
     "one base-36 number a cell, '.' blank, '-' a two-digit number, '@' or '%' '?'")
_url("lineparts", 1, _dec_lineparts, _enc_lineparts, "decodePipelink",
     "given pieces of a line 11-17 (pzprjs's ques: 11 a crossing, 12 vertical, 13 "
     "horizontal, 14-17 the turns up-right, up-left, down-left, down-right), -2 '?', "
     "6 ice in runs")
_url("binary", 1, _dec_binary, _enc_binary, "decodeBinary",
     "one bit a cell: cells marked 1 (Ripple's empty cells with decodeEmpty)")


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


def decode_layers(codec_names, body: str, rows: int, cols: int, base: int = 0) -> list:
    """All layers of a URL body, in order; the body must be used up.  An
    empty body is a blank board (every layer empty: {} or 0)."""
    values: list = []
    cursor = Cursor(body, base)
    for name in codec_names:
        codec = URL_CODECS[name]
        if body == "":
            values += codec.blank_values(rows, cols)
            continue
        values += codec.decode(cursor, rows, cols, list(values))
    if not cursor.at_end():
        cursor.error(f"unexpected '{cursor.rest()[:10]}' after the puzzle's layers")
    return values


def _encode_all(registry, codec_names, values, rows, cols) -> list:
    """Each codec's encoding of its share of ``values``, in order."""
    out = []
    k = 0
    for name in codec_names:
        codec = registry[name]
        out.append(codec.encode(values[k:k + codec.layers], rows, cols, list(values[:k])))
        k += codec.layers
    if k != len(values):
        raise FormatError(f"{len(values)} layer values for codecs that take {k}")
    return out


def encode_layers(codec_names, values: list, rows: int, cols: int) -> str:
    """The URL body of these layer values (as many as the codecs' layers)."""
    return "".join(_encode_all(URL_CODECS, codec_names, values, rows, cols))


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


def _fdec_cellqnum(lc, rows, cols, inputs, extra=()):
    grid = _read_grid(lc, rows, cols, "the clue numbers")
    out = {}
    for cell, (tok, line) in grid.items():
        v = _number_token(tok, line, lc, "the clue numbers", extra)
        if v is not None:
            out[cell] = v
    return [out]


def _write_layer(values, rows, cols, write):
    """A cell layer as a pzprv3 grid: ``write(value)`` in a cell, '.' where it is blank."""
    vals = values[0]
    _by_index(vals, rows, cols)
    return _write_grid(rows, cols, lambda r, c: write(vals[(r, c)]) if (r, c) in vals else ".")


def _fenc_cellqnum(values, rows, cols, inputs):
    return _write_layer(values, rows, cols, lambda v: "-" if v == -2 else
                        str(_check_int(v, "a clue number", 0)))


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
    return _write_layer(values, rows, cols, lambda v: "*" if v else ".")


def _fdec_lineparts(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows, cols, "the line parts")
    out = {}
    for cell, (tok, line) in grid.items():
        if tok == "o":
            out[cell] = 6
        elif tok == "-":
            out[cell] = -2
        elif len(tok) == 1 and "a" <= tok <= "g":
            out[cell] = int(tok, 36) + 1
        elif tok != ".":
            lc.error(f"the line parts: '{tok}' is not a-g (a piece), 'o', '-' or '.'", line)
    return [out]


def _fenc_lineparts(values, rows, cols, inputs):
    def write(v):
        if v in (6, -2):
            return "o" if v == 6 else "-"
        return _b36(_check_int(v, "a line-parts layer (11-17 pieces, 6 ice, -2)", 11, 17) - 1)
    return _write_layer(values, rows, cols, write)


def _fdec_disptype(lc, rows, cols, inputs):
    lc.next("the display type line")
    return []


def _fenc_disptype(values, rows, cols, inputs):
    return ["pipe"]


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


def _fdec_cellqnum51(lc, rows, cols, inputs):
    grid = _read_grid(lc, rows + 1, cols + 1, "the Kakuro clues")
    out = {}

    def num(tok, line):
        try:
            v = _file_int(tok)
        except ValueError:
            lc.error(f"the Kakuro clues: '{tok}' is not a number", line)
        return v if v > 0 else None
    for (r, c), (tok, line) in grid.items():
        if r == 0 and c == 0:
            out[(0, 0)] = "-"
        elif r == 0:
            out[(r, c)] = kakuro_token(num(tok, line), None)
        elif c == 0:
            out[(r, c)] = kakuro_token(None, num(tok, line))
        elif tok != ".":
            parts = tok.split(",")
            if len(parts) != 2:
                lc.error(f"the Kakuro clues: '{tok}' is not 'across,down' or '.'", line)
            across, down = (num(p, line) for p in parts)
            out[(r, c)] = kakuro_token(down, across)
    return [out]


def _fenc_cellqnum51(values, rows, cols, inputs):
    black, top, left = _kakuro_cells(values[0], rows, cols)

    def s(v):
        return str(v) if v else "-1"

    def token(r, c):
        if r == 0 and c == 0:
            return "0"
        if r == 0:
            return s(top.get(c - 1))
        if c == 0:
            return s(left.get(r - 1))
        if (r - 1, c - 1) not in black:
            return "."
        down, across = black[(r - 1, c - 1)]
        return f"{s(across)},{s(down)}"
    return _write_grid(rows + 1, cols + 1, token)


def _skip_lines(lc: LineCursor, count: int):
    """Answer sections are read leniently: up to ``count`` lines, whatever
    they hold (answers are ignored, and a newer pzprjs may have written an
    extra answer section first)."""
    for _ in range(count):
        if lc.at_end():
            return
        lc.next("an answer section")


def _skip(what, empty):
    """An answer section: ``rows`` lines, read and ignored, written empty."""
    def dec(lc, rows, cols, inputs):
        _skip_lines(lc, rows)
        return []

    def enc(values, rows, cols, inputs):
        return _write_grid(rows, cols, lambda r, c: empty)
    return dec, enc


def _skip_borders(what, empty):
    """A border answer section: ``2 rows - 1`` lines, read and ignored."""
    def dec(lc, rows, cols, inputs):
        _skip_lines(lc, 2 * rows - 1)
        return []

    def enc(values, rows, cols, inputs):
        return (_write_grid(rows, cols - 1, lambda r, c: empty)
                + _write_grid(rows - 1, cols, lambda r, c: empty))
    return dec, enc


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


FILE_CODECS: dict[str, Codec] = {}


def _file(name, layers, decode, encode, pzprjs, doc, margin=0, optional=False):
    FILE_CODECS[name] = Codec(name, layers, decode, encode, doc, pzprjs, margin, optional)


_file("cellqnum", 1, _fdec_cellqnum, _fenc_cellqnum, "CellQnum",
      "a clue number a cell: n, '-' (-2, '?') or '.'")
_file("cellqnumans", 1, _fdec_cellqnumans, _fenc_cellqnum, "CellQnumAns",
      "clue numbers with the answer's '#' and '+' (read as blank; written as cellqnum)")
_file("celldirecqnum", 2, _fdec_celldirecqnum, _fenc_celldirecqnum, "CellDirecQnum",
      "arrow clues 'dir,num' (dir 0-4, num or '-'), '#' (-3) or '.'")
_file("cellqnum51", 1, _fdec_cellqnum51, _fenc_cellqnum51, "CellQnum51",
      "Kakuro's sums, (rows+1) x (cols+1) with the clue row and column", margin=1)
_file("empty", 1, _fdec_empty, _fenc_empty, "decodeEmpty (a genre's FileIO)",
      "a cell grid: '*' an empty cell (pzprjs's ques 7, read as 1), '.' any other")
_file("lineparts", 1, _fdec_lineparts, _fenc_lineparts, "decodePipelink (FileIO)",
      "given pieces of a line: a-g (11-17, as the URL codec), 'o' ice (6), '-' '?' (-2), '.'")
_file("disptype", 0, _fdec_disptype, _fenc_disptype, "decodeDispType",
      "the display-type line of Pipelink's files: read and ignored, written 'pipe'")
_file("arearoom", 1, _fdec_arearoom, _fenc_arearoom, "AreaRoom",
      "the number of rooms, then a room id a cell")
_file("borderques", 1, _fdec_borderques, _fenc_borderques, "BorderQues",
      "0/1 borders between columns, then between rows")
_file("rooms", 1, _fdec_rooms, _fenc_arearoom, "AreaRoom or BorderQues",
      "rooms as either (pzprv3 files: AreaRoom; pzprv3.1 and later often BorderQues); "
      "written as AreaRoom, which every pzprjs reads in a 'pzprv3' file")
_file("number", 1, _fdec_number, _fenc_number, "a number line",
      "one number on a line (Star Battle's star count)")
_file("flags", 1, _fdec_flags, _fenc_flags, "decodeFlags",
      "a line of comma-separated options, present in pzprv3.1+ files (Country Road); "
      "not written (files are written as 'pzprv3')")
for _letter in "bfmotxe":
    _file(f"flag_{_letter}", 1, *_flag(_letter), f"ConfigFlag '{_letter}'",
          f"an optional line '{_letter}' (True when present)", optional=True)
for _name, _pz, _empty in (("cellans", "CellAns", "."), ("cellanumsub", "CellAnumsub", "."),
                           ("cellqsub", "CellQsub", "0"), ("cellqcmp", "CellQcmp", ".")):
    _file(_name, 0, *_skip(_pz, _empty), _pz,
          f"an answer section ({_pz}): read and ignored, written empty", optional=True)
for _name, _pz in (("borderline", "BorderLine"), ("borderans", "BorderAns")):
    _file(_name, 0, *_skip_borders(_pz, "0"), _pz,
          f"an answer section ({_pz}): read and ignored, written empty", optional=True)


def decode_file_layers(codec_names, lines, rows: int, cols: int) -> list:
    """All layers of a pzprv3 body (``parse_pzprv3``'s lines), in order.
    Lines after the last section are ignored, as pzprjs does."""
    values: list = []
    cursor = lines if isinstance(lines, LineCursor) else LineCursor(lines)
    for name in codec_names:
        values += FILE_CODECS[name].decode(cursor, rows, cols, list(values))
    return values


def encode_file_layers(codec_names, values: list, rows: int, cols: int) -> list:
    """The body lines of a pzprv3 file with these layer values."""
    return [line for lines in _encode_all(FILE_CODECS, codec_names, values, rows, cols)
            for line in lines]
