"""Optional checks on the shared corpus (../shared/corpus), read in place.

Skipped when the corpus is absent.  Sudoku answers are compared with the
corpus' own solution file; Hexiom boards are checked by the independent
checker of tests/generators.py (levels may have several solutions); Puzlogic
moves are compared, as a set, with the expected moves recorded in each level.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import generators as gen
from pzc import api

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
pytestmark = pytest.mark.skipif(not CORPUS.exists(), reason=f"no corpus at {CORPUS}")

BACKENDS = [pytest.param(("sat", None), id="sat"), pytest.param(("smt", None), id="z3")]


@pytest.fixture(scope="module")
def top95():
    spec = api.load_spec("sudoku")
    folder = CORPUS / "sudoku" / "norvig"
    insts = api.load_instances(spec, str(folder / "top95.txt"))
    solutions = (folder / "top95.solutions.txt").read_text().split()
    assert len(insts) == len(solutions) == 95
    return spec, insts, solutions


@pytest.mark.parametrize("k", range(10))
def test_norvig_top95_first_ten(top95, k):
    spec, insts, solutions = top95
    inst = insts[k]
    assert inst.name.endswith(f"top95.txt#{k + 1}")
    res = api.solve(spec, inst)
    assert res.status == "solved" and res.verified
    assert len(res.grid) == 9 and all(len(row) == 9 for row in res.grid)
    assert "".join(res.grid) == solutions[k]


def test_norvig_top95_with_z3(top95):
    spec, insts, solutions = top95
    res = api.solve(spec, insts[0], backend="smt")
    assert res.status == "solved"
    assert "".join(res.grid) == solutions[0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("level", range(1, 11))
def test_slowfrog_hexiom_levels(level, backend):
    path = CORPUS / "hexiom" / "slowfrog" / f"level{level:02d}.txt"
    text = path.read_text()
    side = int(text.split()[0])
    spec = api.load_spec("hexiom")
    inst, = api.load_instances(spec, str(path))
    res = api.solve(spec, inst, backend=backend[0], solver=backend[1])
    assert res.status == "solved" and res.verified
    assert len(res.grid) == 2 * side - 1
    assert gen.hexiom_valid(side, text, res.grid)


PUZLOGIC = ["level01", "level03", "level07", "synthetic_zero_value_pieces"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", PUZLOGIC)
def test_puzlogic_levels_give_the_expected_moves(name, backend):
    path = CORPUS / "puzlogic" / f"{name}.json"
    data = json.loads(path.read_text())
    spec = api.load_spec("puzlogic")
    inst, = api.load_instances(spec, str(path))
    res = api.solve(spec, inst, backend=backend[0], solver=backend[1])
    assert res.status == "solved" and res.verified
    moves = {(m["to"][0], m["to"][1], m["piece"]) for m in res.moves}
    assert len(moves) == len(res.moves) == len(data["pieces"])
    assert moves == {tuple(x) for x in data["expected_moves"]}
    assert gen.puzlogic_valid(data, res.moves)


def test_the_zero_valued_piece_is_placed():
    path = CORPUS / "puzlogic" / "synthetic_zero_value_pieces.json"
    spec = api.load_spec("puzlogic")
    inst, = api.load_instances(spec, str(path))
    res = api.solve(spec, inst)
    assert {"piece": 0, "to": [1, 0]} in res.moves
    assert res.grid == ["#1", "02", "2#"]
