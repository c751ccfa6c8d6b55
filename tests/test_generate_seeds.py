"""pzc generate, seed by seed: the same seed gives the same puzzle on a slow
clock, under a time limit and with another string hashing; random(...) and
sample(...) draw from the seed; reducing a run at a time ends where one at a
time does; Hexiom boards leave empty as many cells as the game's levels do.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time

import pytest

import answers
import generators as gen
from conftest import CORPUS
from pzc import api
from pzc.backends import sat
from pzc.runtime.errors import PzcError
from pzc.tasks.generate.reduce import remove_while_unique


def made(spec_name, size, seed, **options):
    """The text of the puzzle of ``seed`` (its solution checked as pzc checks it)."""
    spec = api.load_spec(spec_name)
    g, = api.generate(spec, size, 1, seed, **options)
    assert g.status == "generated", (g.status, g.error)
    return api.write_instance(spec, g.instance, "text")


def on_a_fast_clock(monkeypatch, factor=10_000):
    """time.perf_counter running ``factor`` times too fast: every second
    the code waits for passes at once, as on a machine that many times slower."""
    real = time.perf_counter
    start = real()
    monkeypatch.setattr(time, "perf_counter", lambda: start + (real() - start) * factor)


# Nurikabe 7x7 seed 4 took another puzzle on the fast clock while lazy
# connectivity's separators and eager switch counted seconds
CLOCK_CASES = [("nurikabe", (7, None), 4), ("hexiom", (4, None), 1)]


@pytest.mark.parametrize("spec_name, size, seed", CLOCK_CASES)
def test_a_slow_clock_does_not_change_the_puzzle(spec_name, size, seed, monkeypatch):
    plain = made(spec_name, size, seed)
    on_a_fast_clock(monkeypatch)
    assert made(spec_name, size, seed) == plain


@pytest.mark.slow
def test_a_time_limit_does_not_change_the_puzzle():
    """Under a limit every solve runs in a worker from the start; without,
    it starts in process and a long one goes on in a worker.  MiniSat and
    CaDiCaL, stopped and taken up again, search on differently: the worker
    stops where the hand-over would have been (Numberlink 20x20, seed 1, drew
    another puzzle under --timeout before)."""
    plain = made("numberlink", (20, None), 1, solver="minisat22")
    assert made("numberlink", (20, None), 1, solver="minisat22", timeout=600) == plain


@pytest.mark.slow
def test_another_string_hashing_gives_the_same_puzzles():
    """Sets of names iterate in an order that changes with PYTHONHASHSEED;
    none of it may reach the solver (a counting session's blocking clause did)."""
    outputs = set()
    for hashing in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hashing)
        run = subprocess.run([sys.executable, "-m", "pzc.cli", "generate", "nurikabe", "--size",
                              "7", "--seed", "2", "--count", "2"],
                             capture_output=True, text=True, env=env, timeout=300)
        assert run.returncode == 0, run.stderr
        outputs.add("\n".join(l for l in run.stdout.splitlines() if not l.startswith("#")))
    assert len(outputs) == 1


def test_counting_blocks_boards_in_the_variables_order(monkeypatch):
    """Each board found is blocked by a clause over its variables in their
    order (uid), not in the order of a set of names."""
    blocked = []
    spec = api.load_spec("sudoku")
    inst = _blank_sudoku(spec)
    original = sat.SatSession.block

    def spy(self, values, guard=None):
        blocked.append([var.uid for var in values])
        return original(self, values, guard)
    monkeypatch.setattr(sat.SatSession, "block", spy)
    counted = api.count(spec, inst, limit=3)
    assert counted.count == 3 and len(blocked) >= 3
    assert all(uids == sorted(uids) and len(uids) == 16 for uids in blocked)


def _blank_sudoku(spec):
    path = os.path.join(tempfile.mkdtemp(), "blank.txt")
    with open(path, "w") as f:
        f.write("4 4\n" + ". . . .\n" * 4)
    inst, = api.load_instances(spec, path)
    return inst


# ------------------------------------------------------------------ random, sample

DRAWING_SPEC = """\
puzzle drawing
board square
var v[c in cells] : 0..9
show v
rule clues: all c in cells where given(c): v[c] = clue(c)
generate var mark[c in cells] : 0..9
generate let picked = sample(cells, random(2..5))
generate let level = random([3, 7, 9])
generate rule marks: all c in cells: mark[c] = (if c in picked then level else 0)
generate given c: mark[c]
"""


@pytest.fixture
def drawing(tmp_path):
    path = tmp_path / "drawing.pz"
    path.write_text(DRAWING_SPEC)
    return api.load_spec(str(path))


def test_random_and_sample_draw_from_the_seed(drawing):
    boards = {}
    for seed in range(12):
        g, = api.generate(drawing, (4, 4), 1, seed, timeout=60)
        values = [int(ch) for row in g.solution for ch in row if ch.isdigit()]
        marked = [v for v in values if v]
        assert 2 <= len(marked) <= 5 and len(set(marked)) == 1 and marked[0] in (3, 7, 9)
        boards[seed] = g.solution
        again, = api.generate(drawing, (4, 4), 1, seed, timeout=60)
        assert again.solution == g.solution          # the seed alone decides
    assert len({tuple(b) for b in boards.values()}) >= 10
    counts = {sum(ch not in "0 " for row in b for ch in row) for b in boards.values()}
    assert len(counts) >= 3                           # random(2..5) varies


def test_random_is_for_generate_lines_only(tmp_path):
    path = tmp_path / "bad.pz"
    path.write_text("puzzle bad\nboard square\nvar v[c in cells] : 1..3\nshow v\n"
                    "rule r: all c in cells: v[c] = random(1..3)\n")
    with pytest.raises(PzcError) as e:
        api.load_spec(str(path))
    assert "generate lines only" in e.value.message and e.value.format().count("^") == 1


@pytest.mark.parametrize("line, message", [
    ("generate let picked = sample(cells, 17)", "sample takes 0 to 16 elements"),
    ("generate let picked = sample(cells, random(1..0))", "draws from an empty set"),
])
def test_bad_draws_are_located_errors(tmp_path, line, message):
    path = tmp_path / "bad.pz"
    path.write_text(DRAWING_SPEC.replace("generate let picked = sample(cells, random(2..5))",
                                         line))
    spec = api.load_spec(str(path))
    g, = api.generate(spec, (4, 4), 1, 1, timeout=60)
    assert g.status == "error" and message in g.error.message


# ------------------------------------------------------------------ reduce

def one_at_a_time(inst, order, without, unique):
    for item in order:
        smaller = without(inst, item)
        if unique(smaller):
            inst = smaller
    return inst


def test_a_run_at_a_time_ends_where_one_at_a_time_does():
    """On random monotone puzzles (unique while the clues left hold one of
    some key sets), every order: the same clues left, and fewer checks
    where long runs go."""
    rng = random.Random(7)
    fewer = 0
    for _ in range(300):
        n = rng.randrange(1, 14)
        keys = [frozenset(rng.sample(range(n), rng.randrange(0, n + 1)))
                for _ in range(rng.randrange(1, 4))]
        checks = []

        def unique(left):
            checks.append(1)
            return any(k <= left for k in keys)
        everything = frozenset(range(n))
        if not unique(everything):
            continue
        order = rng.sample(range(n), n)
        want = one_at_a_time(everything, order, lambda s, x: s - {x}, unique)
        checks.clear()
        got, removed = remove_while_unique(everything, order, lambda s, x: s - {x}, unique,
                                           lambda *a, **k: None)
        assert got == want and removed == n - len(want)
        fewer += len(checks) < n
    assert fewer > 50


# ------------------------------------------------------------------ Hexiom

def game_share_range(side):
    """The least and most share of empty cells of the game's levels of this side."""
    shares = []
    for path in sorted((CORPUS / "hexiom" / "slowfrog").glob("level*.txt")):
        lines = path.read_text().splitlines()
        if int(lines[0]) != side:
            continue
        values, _ = gen.hexiom_parse(lines[1:])
        cells = 3 * side * (side - 1) + 1
        shares.append((cells - len(values)) / cells)
    return min(shares), max(shares)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.exists(), reason=f"no corpus at {CORPUS}")
@pytest.mark.parametrize("side, seeds", [(3, range(1, 9)), (4, range(1, 5)),
                                         pytest.param(5, range(1, 3), marks=pytest.mark.slow)])
def test_hexiom_boards_leave_the_game_share_empty_and_are_unique(side, seeds, tmp_path):
    spec = api.load_spec("hexiom")
    low, high = game_share_range(side)
    cells = 3 * side * (side - 1) + 1
    for g in api.generate(spec, (side, None), len(seeds), seeds[0]):
        assert g.status == "generated"
        text = api.write_instance(spec, g.instance, "text")
        values, _ = gen.hexiom_parse(text.splitlines()[1:])
        share = (cells - len(values)) / cells
        assert low <= share <= high, (side, g.seed, share, (low, high))
        assert answers.valid("hexiom", text, g.solution)
        path = tmp_path / f"{g.seed}.txt"
        path.write_text(text)
        inst, = api.load_instances(spec, str(path))
        checked = api.unique(spec, inst)
        assert checked.status == "unique" and checked.witnesses == [g.solution]


def test_hexiom_boards_of_one_side_leave_different_shares_empty():
    spec = api.load_spec("hexiom")
    tiles = set()
    for g in api.generate(spec, (3, None), 8, 1):
        tiles.add(len(gen.hexiom_parse(g.solution)[0]))
    assert len(tiles) >= 3
