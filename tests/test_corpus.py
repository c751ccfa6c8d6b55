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
from conftest import CORPUS
from pzc import api

pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not CORPUS.exists(), reason=f"no corpus at {CORPUS}")]

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


# ---------------------------------------------------------------- connectivity specs
# Numberlink from thomasahle/numberlink (no solutions stored: answers go to the
# independent checker), Nurikabe and Slitherlink from puzzlekit, converted by
# bench/convert.py into the system temp folder (answers compared with the
# datasets' own solutions).

import sys  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import convert  # noqa: E402

NUMBERLINK = CORPUS / "numberlink" / "thomasahle"


def numberlink_texts(path) -> list:
    """Each puzzle of a thomasahle file as its own "W H" + rows text, read
    here without pzc: '# ' comments, a "0 0" line ends the file."""
    lines = [l.rstrip("\n") for l in Path(path).read_text().splitlines()]
    lines = [l for l in lines if l.strip() and not l.startswith("# ")]
    out = []
    i = 0
    while i < len(lines):
        w, h = map(int, lines[i].split())
        if (w, h) == (0, 0):
            break
        out.append("\n".join(lines[i:i + 1 + h]) + "\n")
        i += 1 + h
    return out


@pytest.fixture(scope="module")
def numberlink_spec():
    return api.load_spec("numberlink")


@pytest.mark.parametrize("k", range(10))
def test_janko_numberlink_first_ten(numberlink_spec, k):
    path = NUMBERLINK / "janko.txt"
    texts = numberlink_texts(path)
    assert len(texts) == 270
    inst = api.load_instances(numberlink_spec, str(path))[k]
    assert inst.name.endswith(f"janko.txt#{k + 1}")
    res = api.solve(numberlink_spec, inst)
    assert res.status == "solved" and res.verified
    assert gen.numberlink_valid(texts[k], res.grid)
    assert res.drawing is not None and len(res.drawing) == len(res.grid)


def test_spivey_numberlink_inputs2(numberlink_spec):
    """#1 and #2 (Mike Spivey's spirals) are solved; #3, #2 with the two middle
    ends swapped ("Mike Spivey, Thomas Ahle"), has no answer: the reference
    solver of tests/generators.py (its own encoding) says so too, and so do the
    eager encoding and Z3."""
    path = NUMBERLINK / "inputs2.txt"
    texts = numberlink_texts(path)
    insts = api.load_instances(numberlink_spec, str(path))
    assert len(insts) == len(texts) == 3
    for k in (0, 1):
        res = api.solve(numberlink_spec, insts[k])
        assert res.status == "solved" and res.verified
        assert gen.numberlink_valid(texts[k], res.grid)
    assert gen.numberlink_reference(texts[2])[0] == "unsat"
    for mode in (dict(), dict(connectivity="eager"), dict(backend="smt")):
        res = api.solve(numberlink_spec, insts[2], **mode)
        assert res.status == "unsat", mode


def _blocks(path) -> list:
    """The puzzles of a file written by bench/convert.py: '# key' + grid,
    separated by blank lines."""
    return [b for b in Path(path).read_text().split("\n\n") if b.strip()]


def _smallest(texts, n):
    def area(t):
        rows = [l for l in t.splitlines() if not l.startswith("# ")]
        return len(rows) * len(rows[0].split() if " " in rows[0] else rows[0])
    return sorted(range(len(texts)), key=lambda k: (area(texts[k]), k))[:n]


@pytest.fixture(scope="module")
def nurikabe_set():
    path, keys, solutions = convert.nurikabe(CORPUS)
    spec = api.load_spec("nurikabe")
    insts = api.load_instances(spec, str(path))
    texts = _blocks(path)
    assert len(insts) == len(keys) == len(solutions) == len(texts)
    return spec, insts, keys, solutions, texts


@pytest.fixture(scope="module")
def slitherlink_set():
    path, keys, solutions = convert.slitherlink(CORPUS)
    spec = api.load_spec("slitherlink")
    insts = api.load_instances(spec, str(path))
    texts = _blocks(path)
    assert len(insts) == len(keys) == len(solutions) == len(texts)
    return spec, insts, keys, solutions, texts


def test_puzzlekit_nurikabe_smallest_twenty(nurikabe_set):
    spec, insts, keys, solutions, texts = nurikabe_set
    for k in _smallest(texts, 20):
        assert texts[k].startswith(f"# {keys[k]}\n")
        res = api.solve(spec, insts[k])
        assert res.status == "solved" and res.verified, keys[k]
        assert gen.nurikabe_valid(texts[k], res.grid), keys[k]
        # the dataset marks sea 'x' and land '-'; its puzzles have one answer
        sea = [["x" if t == "#" else "-" for t in row] for row in gen.board_cells(res.grid)]
        assert sea == solutions[k], keys[k]


def _inside(grid) -> list:
    """Cells inside the loop of a lattice answer ('x'), else '-': crossing a
    '|' from the left toggles."""
    out = []
    for R in range(1, len(grid), 2):
        inside, row = False, []
        for C in range(1, len(grid[R]), 2):
            inside ^= grid[R][C - 1] == "|"
            row.append("x" if inside else "-")
        out.append(row)
    return out


def test_puzzlekit_slitherlink_smallest_twenty(slitherlink_set):
    spec, insts, keys, solutions, texts = slitherlink_set
    compared = 0
    rounds = []
    for k in _smallest(texts, 20):
        assert texts[k].startswith(f"# {keys[k]}\n")
        res = api.solve(spec, insts[k])
        assert res.status == "solved" and res.verified, keys[k]
        assert gen.slitherlink_valid(texts[k], res.grid), keys[k]
        rounds.append(res.stats["rounds"])
        if solutions[k] is not None:       # the dataset shades the inside 'x'
            assert _inside(res.grid) == solutions[k], keys[k]
            compared += 1
        eager = api.solve(spec, insts[k], connectivity="eager")
        assert eager.status == "solved" and gen.slitherlink_valid(texts[k], eager.grid)
    assert compared >= 15
    assert max(rounds) > 1          # real puzzles make the lazy loop cut
