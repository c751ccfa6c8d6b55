"""Helpers for the genre tests: count or solve a text instance with a built-in
spec through the API, and read the printed boards back as token rows; or
count, solve and unique a file of boards through the command line against a
brute force's answers (check_against_brute)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import pzprjs
from conftest import run_cli
from loading import spec
from pzc import api


def instances(name, text, tmp_path, file="inst.txt"):
    """The instances of ``text`` (written to a file) read for spec ``name``."""
    path = tmp_path / file
    path.write_text(text)
    return api.load_instances(spec(name), str(path))


def tokens(row):
    """A printed grid row as its cells: space-separated tokens, or characters."""
    return row.split() if " " in row else list(row)


def counted(name, text, tmp_path, limit=None, **options):
    """(complete count, the boards as lists of token rows) of the one
    instance; ``options`` as api.count takes them (backend=...)."""
    inst, = instances(name, text, tmp_path)
    res = api.count(spec(name), inst, limit=limit, **options)
    assert res.error is None, res.error.message
    assert res.status == "counted", res.status
    return res.count, [[tokens(r) for r in board] for board in res.solutions]


def unique_status(name, text, tmp_path):
    inst, = instances(name, text, tmp_path)
    return api.unique(spec(name), inst).status


def grid_text(rows):
    """A token grid with a "W H" header, cells separated by spaces."""
    return f"{len(rows[0])} {len(rows)}\n" + "".join(" ".join(map(str, r)) + "\n" for r in rows)


def check_against(name, tmp_path, cases, brute, text=None, **options):
    """For every instance in ``cases`` (token rows, or a tuple of the
    arguments of ``brute`` and ``text``): pzc's count and boards equal the
    brute force's, as sets; the cases hold instances with no solution, one,
    and several.  ``text`` writes an instance (default: a "W H" token grid);
    ``options`` go to api.count (backend=...)."""
    seen = []
    for case in cases:
        args = case if isinstance(case, tuple) else (case,)
        source = (text or grid_text)(*args)
        want = brute(*args)
        n, boards = counted(name, source, tmp_path, **options)
        got = {tuple(map(tuple, b)) for b in boards}
        assert n == len(want) == len(got), (source, n, len(want))
        assert got == {tuple(map(tuple, b)) for b in want}, source
        seen.append(n)
    assert 0 in seen and 1 in seen and any(n > 1 for n in seen), seen
    return seen


def examples_unique(run_pzc, name):
    """The genre's examples (specs/examples/NAME/*.txt) have one solution each."""
    files = sorted((Path(__file__).resolve().parents[1] / "specs" / "examples" / name)
                   .glob("*.txt"))
    assert files
    for f in files:
        res = run_pzc("unique", name, f)
        assert res.returncode == 0, res.stdout + res.stderr


def rng(seed):
    return random.Random(seed)


# ---------------------------------------------------------------- pzprjs

needs_pzpr = pytest.mark.skipif(not pzprjs.available(),
                                reason="node or the pzpr package is absent")


def pzpr_check(files):
    """Open each pzprv3 file (problem and answer) in pzprjs and run its answer
    check: for each, {"complete": bool, "text": the verdict, "url": its URL}."""
    verdicts = pzprjs.check([{"open": f} for f in files])
    assert all("error" not in v for v in verdicts), verdicts
    return verdicts


def pzprv3(kind, rows, cols, *blocks):
    """A pzprv3 file: the header, then each block (a list of lines of tokens)."""
    out = ["pzprv3", kind, str(rows), str(cols)]
    for block in blocks:
        out += [" ".join(map(str, line)) + " " for line in block]
    return "\n".join(out) + "\n"


def unique_and_several(name, tmp_path, brute, one, two, text=None):
    """`pzc unique` calls ``one`` unique and ``two`` not (two solutions or more),
    as the brute force does (each a tuple of its arguments, or token rows)."""
    for case, status in ((one, "unique"), (two, "several")):
        args = case if isinstance(case, tuple) else (case,)
        assert (len(brute(*args)) == 1) == (status == "unique")
        assert unique_status(name, (text or grid_text)(*args), tmp_path) == status


def rejects(run_pzc, write, name, text, message):
    """The instance ``text`` is refused (exit 2) with ``message`` on stderr."""
    write("bad.txt", text)
    res = run_pzc("solve", name, "bad.txt")
    assert res.returncode == 2 and message in res.stderr, res.stderr


# ---------------------------------------------------------------- through the command line

def run_json(*args):
    """`pzc ARGS --format json --quiet`: one record a line (exit 0 or 1)."""
    run = run_cli(*args, "--format", "json", "--quiet")
    assert run.returncode in (0, 1), run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def write_instances(tmp_path, boards, layers=lambda board: [board]):
    """One file holding every board with a "W H" header, then its grids of
    tokens (``layers(board)``, one grid a layer); the file's path."""
    text = ""
    for b in boards:
        grids = layers(b)
        text += f"{len(grids[0][0])} {len(grids[0])}\n"
        text += "\n\n".join("\n".join(" ".join(r) for r in g) for g in grids) + "\n"
    path = tmp_path / "boards.txt"
    path.write_text(text)
    return str(path)


def check_against_brute(tmp_path, spec, boards, answers_of, extra=(), split=tokens,
                        layers=lambda board: [board]):
    """pzc count / solve / unique on every board against the brute force's
    answers (each a list of printed rows, as ``split`` cuts them into cells);
    the boards are written as ``write_instances`` writes them."""
    path = write_instances(tmp_path, boards, layers)
    answers = [answers_of(b) for b in boards]
    counts = run_json("count", spec, path, "--limit", "50", *extra)
    assert [r["count"] for r in counts] == [len(a) for a in answers]
    assert all(r["complete"] for r in counts)
    solved = run_json("solve", spec, path, *extra)
    for r, want in zip(solved, answers):
        if want:
            assert r["status"] == "solved" and r["verified"], r
            assert [split(x) for x in r["grid"]] in want
        else:
            assert r["status"] == "unsat", r
    uniq = run_json("unique", spec, path, *extra)
    assert [r["unique"] for r in uniq] == [len(a) == 1 for a in answers]
    for r, want in zip(uniq, answers):
        assert len(r["witnesses"]) == min(len(want), 2)
    return [len(a) for a in answers]
