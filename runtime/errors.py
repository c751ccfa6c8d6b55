"""Errors that users see: a message with file:line:col, the line and a caret.

Every bad spec, instance or flag becomes a PzcError; the CLI prints
``error.format()`` and exits with ``error.exit_code`` (2 unless said otherwise).
The exit codes are here, for every layer:
"""

from __future__ import annotations

import re

EXIT_OK = 0          # every instance solved (unique, counted, explained as unique)
EXIT_UNSAT = 1       # an instance has no solution (unique: none or several)
EXIT_USAGE = 2       # bad usage, spec or instance; output that cannot be written
EXIT_TIMEOUT = 3     # the time limit was reached
EXIT_VERIFY = 4      # verification failed, or any other bug in pzc
EXIT_PIPE = 141      # the reader of the output went away (the shell's code for SIGPIPE)


def worst_exit(codes) -> int:
    """One exit code for many instances: a bug beats bad input beats a timeout
    beats no solution beats success."""
    codes = set(codes)
    for code in (EXIT_VERIFY, EXIT_USAGE, EXIT_TIMEOUT, EXIT_UNSAT):
        if code in codes:
            return code
    return EXIT_OK

# control characters other than tab and newline: a terminal would act on them
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with control characters (escape sequences, carriage returns,
    bidi overrides) written as ``\\x1b``, ``\\u202e``: safe to print on a terminal."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def one_newline(text: str) -> str:
    """Line ends as '\\n': a lone '\\r' (old Mac files) ends a line as '\\r\\n' does."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 index', '2 indices': counts in messages read as English."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


class Source:
    """A named text (spec or instance file) that positions point into."""

    __slots__ = ("path", "text", "_lines")

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = one_newline(text)
        self._lines = None

    def line(self, number: int) -> str:
        if self._lines is None:
            # only '\n' ends a line, as for the parser and the instance readers
            # (str.splitlines would also split at form feeds and the like)
            self._lines = self.text.split("\n")
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return ""

    def error(self, pos, message: str) -> "PzcError":
        """An error at ``pos`` = (line, column), both from 1."""
        line, column = pos if pos else (None, None)
        text = self.line(line) if line else None
        return PzcError(message, self.path, line, column, text)


SHOWN_WIDTH = 100     # characters of a long source line shown around the caret


def _window(line: str, column: int) -> tuple:
    """(part of ``line`` to show, the column in it): a line of a megabyte
    (a minified JSON file) is shown as '...' and the text near the column."""
    if len(line) <= SHOWN_WIDTH:
        return line, column
    start = max(0, min(column - 1 - SHOWN_WIDTH // 2, len(line) - SHOWN_WIDTH))
    part = line[start:start + SHOWN_WIDTH]
    head = "..." if start > 0 else ""
    tail = "..." if start + SHOWN_WIDTH < len(line) else ""
    return head + part + tail, column - start + len(head)


class PzcError(Exception):
    """A user-facing error with an optional source position."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None, source_line: str | None = None,
                 exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line
        self.exit_code = exit_code

    def format(self) -> str:
        where = self.file or "pzc"
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        out = printable(f"{where}: error: {self.message}")
        if self.source_line is not None and self.line:
            line, column = _window(self.source_line.expandtabs(1), self.column or 1)
            out += f"\n    {printable(line)}"
            if self.column:
                out += "\n    " + " " * len(printable(line[:column - 1])) + "^"
        return out

    def as_json(self) -> dict:
        return {"message": self.message, "file": self.file,
                "line": self.line, "column": self.column}

    def __str__(self) -> str:
        return self.format()
