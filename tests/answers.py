"""Boards as pzc prints them, judged without pzc: shared by test_dimacs.py and
test_unique.py.

    valid(spec, puzzle_text, rows)   the independent checker of generators.py
    key(spec, puzzle_text, rows)     the board in the terms of the brute forces
                                     of tests/brute.py (to compare sets)
    cells(spec, rows)                {(row, k): token}: what "a cell" of a
                                     printed board is (a character, a token,
                                     a hexagon cell)
"""

from __future__ import annotations

import json
import os
import re
from concurrent.futures import ThreadPoolExecutor

import generators as gen
from conftest import run_cli

SPECS = ("sudoku", "hexiom", "puzlogic", "numberlink", "nurikabe", "slitherlink")
CONNECTED = ("numberlink", "nurikabe", "slitherlink")
# a Hexiom cell is a digit or '.', with '+' right before it when locked
# ("+0+. 2" is 3 cells); other boards are characters, or tokens separated by
# spaces when one is longer than a character
TOKEN = {"hexiom": r"\+?[^\s+]"}
TOKEN_SPECS = tuple(TOKEN)


def puzzle_rows(text: str) -> list:
    return [line.strip() for line in text.splitlines() if line.strip()]


def puzlogic_moves(level: dict, rows: list) -> list:
    """The placements a Puzlogic board shows: a value on an open cell."""
    return [{"piece": int(rows[r][c]), "to": [r, c]}
            for r, c, v in level["board"] if v == -1 and rows[r][c] != "."]


def puzlogic_board_ok(level: dict, rows: list) -> bool:
    """Fixed cells show their value, cells of no board '#', and the pieces
    placed make a valid answer."""
    value = {(r, c): v for r, c, v in level["board"]}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            v = value.get((r, c))
            if v is None and ch != "#":
                return False
            if v is not None and v != -1 and ch != str(v):
                return False
    if any(r >= len(rows) or c >= len(rows[r]) for r, c in value):
        return False
    return gen.puzlogic_valid(level, puzlogic_moves(level, rows))


def valid(spec: str, text: str, rows: list) -> bool:
    if spec == "sudoku":
        return gen.sudoku_valid(rows, puzzle_rows(text))
    if spec == "hexiom":
        return gen.hexiom_valid(int(text.split()[0]), text, rows)
    if spec == "puzlogic":
        return puzlogic_board_ok(json.loads(text), rows)
    if spec == "numberlink":
        return gen.numberlink_valid(text, rows)
    if spec == "nurikabe":
        return gen.nurikabe_valid(text, rows)
    if spec == "slitherlink":
        return gen.slitherlink_valid(text, rows)
    raise ValueError(spec)


def key(spec: str, text: str, rows: list):
    """A printed board as brute.brute() lists the answers."""
    if spec == "hexiom":
        return frozenset(gen.hexiom_parse(rows)[0].items())
    if spec == "puzlogic":
        return frozenset((tuple(m["to"]), m["piece"])
                         for m in puzlogic_moves(json.loads(text), rows))
    return tuple(rows)


def cells(spec: str, rows: list) -> dict:
    """{(row, k): token} of a printed board; a hexagon cell keeps its lock mark."""
    if spec in TOKEN_SPECS:
        return {(r, k): tok for r, row in enumerate(rows)
                for k, tok in enumerate(re.findall(TOKEN[spec], row))}
    # a Slitherlink lattice has spaces for cells; other boards are spaced only
    # when a token is wider than one character
    spaced = spec != "slitherlink" and any(" " in row for row in rows)
    return {(r, k): tok for r, row in enumerate(rows)
            for k, tok in enumerate(row.split() if spaced else row)}


def differ(spec: str, a: list, b: list) -> list:
    """[row, k] of every cell where two printed boards differ, in reading order."""
    ca, cb = cells(spec, a), cells(spec, b)
    return [list(x) for x in sorted(set(ca) | set(cb)) if ca.get(x) != cb.get(x)]


def run_many(calls: list) -> list:
    """run_cli over [(args, cwd)], a few processes side by side: the start-up
    of each `pzc` process is most of these tests' time."""
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return list(pool.map(lambda call: run_cli(*call[0], cwd=call[1]), calls))


def joined(texts: list) -> str:
    """Several instances in one file, a blank line between them."""
    return "\n".join(t if t.endswith("\n") else t + "\n" for t in texts)


def check_unique(spec, text, want, obj):
    """One instance's `pzc unique --format json` object against the set of
    its answers a brute force found (as key() gives them)."""
    witnesses = obj["witnesses"]
    assert obj["spec"] == spec
    for grid in witnesses:
        assert valid(spec, text, grid), grid
        assert key(spec, text, grid) in want, grid
    if len(want) == 0:
        assert (obj["unique"], witnesses, obj["differ"]) == (False, [], [])
    elif len(want) == 1:
        assert obj["unique"] is True
        assert len(witnesses) == 1
        assert obj["differ"] == []
    else:
        assert obj["unique"] is False
        assert len(witnesses) == 2
        first, second = witnesses
        assert key(spec, text, first) != key(spec, text, second)
        expected = differ(spec, first, second)
        assert expected, "two different answers print alike"
        assert obj["differ"] == expected
