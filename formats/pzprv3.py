"""pzprv3 files, puzz.link's save format: read the header, write one.

    pzprv3            (or pzprv3.N: the file version; "v:NAME" may come first)
    TYPE              (pzprjs's type name: lightup, mashu, slither...)
    ROWS              (rows first; Sudoku has one size line)
    COLS
    ...sections...    (question layers, then answer layers; see codecs.FILE_CODECS)

As pzprjs does, '/' reads as a line break (files pasted as one line), and
the body ends at a line holding "info:{", "history:{" or "__HISTORY__" (the
saved move history) or an old trailing "http://" URL line.  pzprjs opens a
file whose answer sections are missing (each missing line reads as empty),
so writing the question sections alone would do; ``encode_file_layers``
writes the empty answer sections too, as pzprjs writes them.
"""

from __future__ import annotations

import re

from .puzzlink import FormatError

# types whose size is one line (n for an n x n board)
ONE_SIZE_LINE = {"sudoku"}


class BodyLines(list):
    """The body lines of a pzprv3 file: (line number, text) pairs, with the
    file version (``filever``, N of ``pzprv3.N``) and the ``variant``."""
    filever = 0
    variant = None


def looks_like_pzprv3(text: str) -> bool:
    head = text.lstrip("\ufeff").lstrip()
    return head.startswith("pzprv3") or (head.startswith("v:") and "pzprv3" in head[:100])


def parse_pzprv3(text: str):
    """``(type, rows, cols, body_lines)`` of a pzprv3 file; ``body_lines`` is a
    BodyLines list of (line number, text).  FormatError (with ``line``) for a
    file without the pzprv3 header, a type or a size."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.startswith("<?xml"):
        text = text.replace("/", "\n")
    lines = list(enumerate(text.split("\n"), start=1))
    pos = 0

    def next_line(what):
        nonlocal pos
        if pos >= len(lines):
            raise FormatError(f"the file ends before {what}", None,
                              lines[-1][0] if lines else 1)
        pos += 1
        return lines[pos - 1]

    number, first = next_line("the 'pzprv3' header")
    variant = None
    if first.startswith("v:"):
        variant = first[2:].strip()
        number, first = next_line("the 'pzprv3' header")
    m = re.fullmatch(r"pzprv3(?:\.(\d+))?\s*", first)
    if not m:
        raise FormatError("not a pzprv3 file: the first line is not 'pzprv3'", None, number)
    filever = int(m.group(1) or 0)
    number, ptype = next_line("the puzzle type")
    ptype = ptype.strip()
    if not re.fullmatch(r"[A-Za-z0-9_\-]+", ptype):
        raise FormatError(f"'{ptype}' is not a puzzle type", None, number)

    def size(what):
        number, line = next_line(f"the number of {what}")
        if not re.fullmatch(r"\s*[0-9]+\s*", line) or int(line) <= 0:
            raise FormatError(f"the number of {what} is a whole number above 0, "
                              f"not '{line.strip()}'", None, number)
        return int(line)
    if ptype in ONE_SIZE_LINE:
        rows = cols = size("rows and columns")
    else:
        rows = size("rows")
        cols = size("columns")
    body = BodyLines()
    body.filever = filever
    body.variant = variant
    for number, line in lines[pos:]:
        if line.startswith("http://") or re.search(r"info:\{|history:\{|__HISTORY__", line):
            break
        body.append((number, line))
    # the empty "line" after the final newline is no section line (but empty
    # lines before it are: a one-column board's borders between columns)
    if body and body[-1][1] == "" and len(body) + pos == len(lines):
        body.pop()
    return ptype, rows, cols, body


def make_pzprv3(type: str, rows: int, cols: int, body_lines, filever: int = 0,
                variant: str | None = None) -> str:
    """A pzprv3 file: the header, then ``body_lines`` (strings), as pzprjs
    writes it (every line ends with a newline)."""
    head = ([f"v:{variant}"] if variant is not None else []) + \
        ["pzprv3" if not filever else f"pzprv3.{filever}", type]
    head += [str(cols)] if type in ONE_SIZE_LINE else [str(rows), str(cols)]
    return "\n".join(head + list(body_lines)) + "\n"
