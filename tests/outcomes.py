"""What a finished `pzc` run must look like, for the tests of every command:
no traceback, a located error with its source line and a caret, a plain
error; the fields of a JSON answer line."""

from __future__ import annotations

JSON_FIELDS = {"instance", "spec", "status", "grid", "moves", "verified", "stats"}


def no_traceback(run):
    """No Python traceback in either stream, and no "internal error"."""
    assert "Traceback" not in run.stdout and "Traceback" not in run.stderr
    assert "internal error" not in run.stderr


def assert_located(run, file, line, column, message, source_line, exit_code=2):
    """stderr holds the error line, the source line and a caret under the column."""
    assert run.returncode == exit_code, run.stderr
    no_traceback(run)
    lines = run.stderr.splitlines()
    head = f"{file}:{line}:{column}: error: {message}"
    assert head in lines, run.stderr
    i = lines.index(head)
    assert lines[i + 1] == "    " + source_line, run.stderr
    assert lines[i + 2] == "    " + " " * (column - 1) + "^", run.stderr
    # the caret sits under the character the column names
    assert lines[i + 2].index("^") - 4 == column - 1


def assert_plain(run, message, exit_code=2):
    """A message without a position (missing files, bad flags)."""
    assert run.returncode == exit_code, run.stderr
    no_traceback(run)
    assert f"pzc: error: {message}" in run.stderr.splitlines(), run.stderr
