"""puzz.link URLs: split one into its parts, and write one.

A puzz.link URL (pzprjs's "pzprv3 URL") is

    https://puzz.link/p?TYPE/[v:VARIANT/][PFLAG/]COLS/ROWS/BODY

with any host (``puzz.link/p?``, ``pzv.jp/p.html?``, ``pzprxs.vercel.app/p?``,
a local ``p.html?``): everything after the first ``?`` counts.  Besides that
form pzprjs reads, and so does ``parse_url``:

- query parameters before the type, ``?type=editor&TYPE/...`` (any
  ``key=value&``), and the ``TYPE_edit`` / ``TYPE_play`` suffixes;
- a variant segment ``v:NAME/`` (``v:/`` is the variant with an empty name);
- a flag segment (``mashu/f/10/10/...``: the first segment that is not a
  number), kept as ``pflag``;
- puzz.link's "duplicate" URLs, a whole pzprv3 file in the URL:
  ``?[type=editor&][v:/]pzprv3/TYPE/ROWS/COLS/LINE/LINE/...`` with the lines
  percent-encoded; ``Url.file`` then holds the file text (for
  ``pzprv3.parse_pzprv3``) and ``body`` is empty.

Kanpen, Heyawake-applet and old pzpr-applet URLs are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote


class FormatError(Exception):
    """A URL, URL body or pzprv3 file that cannot be read.

    ``message`` is a plain sentence; ``offset`` the 0-based character offset
    in the text given to the reader (the whole URL for ``parse_url``, the
    URL for codecs when the cursor knows where the body starts), or None;
    ``line`` the 1-based line of a pzprv3 file, or None.
    """

    def __init__(self, message: str, offset: int | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.line = line

    def __str__(self):
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.offset is not None:
            where.append(f"offset {self.offset}")
        return f"{self.message} ({', '.join(where)})" if where else self.message


@dataclass
class Url:
    """The parts of a puzz.link URL.

    ``type`` is the puzzle type as written (``akari``, ``mashu``...), without
    ``_edit``/``_play``; ``cols``/``rows`` the board size (pzprjs's order in
    the URL is cols then rows); ``body`` what follows the size, without the
    trailing ``/`` pzprjs adds after a body ending in a non-alphanumeric;
    ``pflag`` the flag segment or "" ; ``variant`` the ``v:`` name or None;
    ``text`` the URL as given; ``body_offset`` where ``body`` starts in
    ``text`` (for error positions); ``file`` the pzprv3 text of a
    "duplicate" URL, else None.
    """
    type: str
    cols: int
    rows: int
    body: str
    pflag: str
    variant: str | None
    text: str
    body_offset: int = 0
    file: str | None = None


HOSTS = ("puzz.link", "pzv.jp", "pzprxs.vercel.app", "pzprjs", "indi.s58.xrea.com")


def looks_like_url(text: str) -> bool:
    """True for text that is a puzz.link-style URL rather than a file name."""
    text = text.strip()
    return "?" in text and (text.startswith(("http://", "https://"))
                            or any(host in text.split("?", 1)[0] for host in HOSTS)
                            or text.split("?", 1)[0].endswith(("p.html", "/p")))


_NUMBER = re.compile(r"[0-9]+")
_TYPE = re.compile(r"[A-Za-z0-9_\-]+")


def parse_url(text: str) -> Url:
    """Split a puzz.link URL into its parts (see the module docstring).

    Raises FormatError with the offset of the offending part: no ``?``, no
    type, a size that is not a positive whole number, a missing size.
    """
    raw = text
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    text = stripped
    q = text.find("?")
    if q < 0:
        raise FormatError("not a puzz.link URL: no '?' before the puzzle type", lead)
    if "kanpen.net" in text[:q] or "/heyawake" in text[:q]:
        raise FormatError("Kanpen and Heyawake-applet URLs are not read; open the puzzle on "
                          "puzz.link and copy its URL", lead)
    pos = q + 1
    # query parameters before the type: type=editor&...
    while True:
        m = re.match(r"(\w+)=(\w*)&", text[pos:])
        if not m:
            break
        pos += m.end()
    rest = text[pos:]
    # a whole file in the URL ("duplicate" URLs), with or without v:NAME/
    m = re.match(r"(v:[^/]*/)?(pzprv[0-9.]*)/", rest)
    if m:
        decoded = unquote(rest)
        parts = decoded.split("/")
        variant = None
        if parts[0].startswith("v:"):
            variant = parts[0][2:]
            parts = parts[1:]
        if len(parts) < 2 or not parts[1]:
            raise FormatError("the file in this URL has no puzzle type", lead + len(text))
        file_text = "\n".join(parts)
        return Url(type=parts[1], cols=0, rows=0, body="", pflag="", variant=variant,
                   text=raw, body_offset=lead + len(text), file=file_text)
    slash = rest.find("/")
    name = rest if slash < 0 else rest[:slash]
    if not name:
        raise FormatError("no puzzle type after '?'", lead + pos)
    if not _TYPE.fullmatch(name):
        raise FormatError(f"'{name}' is not a puzzle type name", lead + pos)
    for suffix in ("_edit", "_play"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    # the segments after the type, with their offsets in the text
    segments = []
    at = pos + (len(rest) if slash < 0 else slash + 1)
    if slash >= 0:
        for seg in rest[slash + 1:].split("/"):
            segments.append((seg, lead + at))
            at += len(seg) + 1
    variant = None
    if segments and segments[0][0].startswith("v:"):
        variant = segments.pop(0)[0][2:]
    pflag = ""
    if segments and segments[0][0] and not _NUMBER.fullmatch(segments[0][0]):
        # pzprjs: the first segment that is not a number is the flag segment
        if not re.fullmatch(r"[A-Za-z0-9]*", segments[0][0]) or segments[0][0][0].isdigit():
            seg, off = segments[0]
            raise FormatError(f"bad size '{seg}': the number of columns is a whole number", off)
        pflag = segments.pop(0)[0]
    sizes = []
    for what in ("columns", "rows"):
        if not segments:
            raise FormatError(f"the URL ends before the number of {what}", lead + len(text))
        seg, off = segments.pop(0)
        if not _NUMBER.fullmatch(seg) or int(seg) == 0:
            raise FormatError(f"bad size '{seg}': the number of {what} is a whole number "
                              "above 0", off)
        sizes.append(int(seg))
    cols, rows = sizes
    if segments and segments[-1][0] == "":
        segments.pop()           # the '/' pzprjs adds after a non-alphanumeric body
    body = "/".join(seg for seg, _ in segments)
    body_offset = segments[0][1] if segments else lead + len(text)
    return Url(type=name, cols=cols, rows=rows, body=body, pflag=pflag, variant=variant,
               text=raw, body_offset=body_offset)


def make_url(type: str, cols: int, rows: int, body: str, pflag: str | None = None,
             variant: str | None = None, host: str = "https://puzz.link/p?") -> str:
    """``https://puzz.link/p?type/[v:variant/][pflag/]cols/rows/body``, with a
    ``/`` after a body ending in a character other than a letter or digit
    (as pzprjs writes it, so that link shorteners keep the last character)."""
    parts = [type]
    if variant is not None:
        parts.append("v:" + variant)
    if pflag:
        parts.append(pflag)
    parts += [str(cols), str(rows), body]
    url = host + "/".join(parts)
    if not url[-1].isascii() or not url[-1].isalnum():
        url += "/"
    return url
