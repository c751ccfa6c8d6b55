"""Helpers shared by the tests of the genres with marks (tests/test_genre_marks.py,
tests/test_genre_marks2.py, tests/test_genre_outside2.py): pzc's answers judged
by puzz.link's own engine, printed rows read back as token rows, and a genre's
examples through URLs and pzprv3 files."""

from __future__ import annotations

import itertools
import json

import pzprjs
from conftest import EXAMPLES, run_cli
from shaded import printed


def judged_by_pzprjs(tmp_path, genre, boards, text, brute, ops_of, tokens, free=None):
    """pzc's answers to ``boards`` (up to two a board), set on the boards
    pzprjs opens from the URLs `pzc convert` writes, pass pzprjs's check();
    each answer with one cell changed (to another of ``tokens``; a cell
    ``free(board, cell)`` allows, by default one without a clue) so that the
    brute force refuses it fails.  ``ops_of(board, rows)``: pzprjs's steps."""
    free = free or (lambda board, cell: board[cell[0]][cell[1]] == "-")
    pzprjs.need()
    path = tmp_path / "boards.txt"
    path.write_text("".join(text(b) for b in boards))
    urls = run_cli("convert", genre, path).stdout.split()
    assert len(urls) == len(boards)
    counted = run_cli("count", genre, path, "--show", "--limit", "2", "--format", "json")
    jobs, want = [], []
    for board, url, line in zip(boards, urls, counted.stdout.splitlines()):
        answers = json.loads(line)["solutions"]
        valid = brute(board)
        for rows in answers:
            jobs.append({"open": url, "ops": ops_of(board, rows)})
            want.append(True)
        if answers:
            jobs.append({"open": url, "ops": ops_of(board, broken(answers[0], tokens, valid,
                                                              lambda x: free(board, x)))})
            want.append(False)
    verdicts = pzprjs.check(jobs)
    assert all("error" not in v for v in verdicts), verdicts
    assert [v["complete"] for v in verdicts] == want, [
        (j, v["text"]) for j, v, w in zip(jobs, verdicts, want) if v["complete"] != w]
    assert want.count(False) >= 3


def broken(rows, tokens, valid, free):
    """The printed answer ``rows`` with the first change of a ``free`` cell
    to another of ``tokens`` that is not among the ``valid`` answers."""
    cells = rows_of(rows)
    for r, c in itertools.product(range(len(cells)), range(len(cells[0]))):
        if not free((r, c)):
            continue
        for t in tokens:
            changed = [row[:] for row in cells]
            changed[r][c] = t
            if t != cells[r][c] and printed(changed) not in valid:
                return list(printed(changed))
    raise AssertionError(f"no change of {rows} breaks a rule")


def rows_of(rows):
    return [list(r.split() if " " in r else r) for r in rows]


def urls_and_files_unchanged(genre, tmp_path):
    """`pzc convert` writes each example as a URL and as a pzprv3 file; the
    file read back is the same URL and file again, and the URL read back,
    written as text, is the same URL again."""
    def convert(path, form, spec=()):
        run = run_cli("convert", *spec, path, "--format", form)
        assert run.returncode == 0, run.stderr
        out = tmp_path / f"{form}.{len(list(tmp_path.iterdir()))}"
        out.write_text(run.stdout)
        return run.stdout, out
    for path in sorted((EXAMPLES / genre).iterdir()):
        url, url_file = convert(path, "url", [genre])
        pzprv3, pzprv3_file = convert(path, "pzprv3", [genre])
        assert url.startswith(f"https://puzz.link/p?{genre}/")
        assert convert(pzprv3_file, "url")[0] == url
        assert convert(pzprv3_file, "pzprv3")[0] == pzprv3
        text, text_file = convert(url_file, "text")
        assert convert(text_file, "url", [genre])[0] == url
