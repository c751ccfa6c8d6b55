"""Errors that users see: a message with file:line:col, the line and a caret.

Every bad spec, instance or flag becomes a PzcError; the CLI prints
``error.format()`` and exits with ``error.exit_code`` (2 unless said otherwise).
"""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 index', '2 indices': counts in messages read as English."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


class Source:
    """A named text (spec or instance file) that positions point into."""

    __slots__ = ("path", "text", "_lines")

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self._lines = None

    def line(self, number: int) -> str:
        if self._lines is None:
            self._lines = self.text.splitlines()
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1].rstrip("\r")
        return ""

    def error(self, pos, message: str) -> "PzcError":
        """An error at ``pos`` = (line, column), both from 1."""
        line, column = pos if pos else (None, None)
        text = self.line(line) if line else None
        return PzcError(message, self.path, line, column, text)


class PzcError(Exception):
    """A user-facing error with an optional source position."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None, source_line: str | None = None,
                 exit_code: int = 2):
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
        out = f"{where}: error: {self.message}"
        if self.source_line is not None and self.line:
            shown = self.source_line.expandtabs(1)
            out += f"\n    {shown}"
            if self.column:
                out += "\n    " + " " * (self.column - 1) + "^"
        return out

    def as_json(self) -> dict:
        return {"message": self.message, "file": self.file,
                "line": self.line, "column": self.column}

    def __str__(self) -> str:
        return self.format()
