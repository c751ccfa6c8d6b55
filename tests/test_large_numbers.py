"""Coefficients and bounds of 2^31 and above, on both backends, against brute force.

Z3 reads the parameters of its pseudo-Boolean atoms (``(_ pbge K c1 c2 ...)``)
as 32-bit ints and wraps larger ones silently, so a constraint such as
``x * 3000000000 + y * 3000000000 >= 6000000000`` once had "no solution" on
Z3.  Random linear constraints over three small-domain cells, with
coefficients and bounds drawn around 2^31, 2^32 and 2^63, are counted on the
SAT backend and on Z3; both must list exactly the assignments a brute force
in this file finds.
"""

from __future__ import annotations

import itertools
import random

import pytest

from loading import spec_from_text
from pzc import api
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source

HUGE = [2**31 - 1, 2**31, 2**31 + 1, 2**32, 2**32 + 1, 3_000_000_000, 6_000_000_000,
        2**40 + 3, 2**63, 2**64 + 7, 10**20]
CELLS = ["v[(0, 0)]", "v[(0, 1)]", "v[(0, 2)]"]
OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "=": lambda a, b: a == b}


def number(rng) -> int:
    """A coefficient or bound: mostly huge, sometimes small, of either sign."""
    n = rng.choice(HUGE) if rng.random() < 0.8 else rng.randint(0, 7)
    return -n if rng.random() < 0.4 else n


def linear(rng, low, high):
    """(spec text of sum(coef * cell) op bound, a Python test of it)."""
    coefs = [number(rng) for _ in CELLS]
    op = rng.choice(list(OPS))
    if op == "=" or rng.random() < 0.5:
        # a bound the sum can reach, so that '=' and tight bounds are tested
        values = [rng.randint(low, high) for _ in CELLS]
        bound = sum(c * v for c, v in zip(coefs, values)) + rng.choice([0, 0, -1, 1])
    else:
        bound = number(rng)
    text = " + ".join(f"({c}) * {cell}" for c, cell in zip(coefs, CELLS)) + f" {op} ({bound})"

    def holds(vals):
        return OPS[op](sum(c * v for c, v in zip(coefs, vals)), bound)
    return text, holds


def case(seed):
    """(spec text, brute-force set of answers) for one seed."""
    rng = random.Random(seed)
    low = rng.randint(-2, 0)
    high = low + rng.randint(1, 3)
    first, holds1 = linear(rng, low, high)
    second, holds2 = linear(rng, low, high)
    # the second constraint inside a formula: a named (not asserted) atom
    shape = rng.choice(["and", "or", "not"])
    if shape == "and":
        rule, ok = f"rule r: {first}\nrule s: {second}", lambda v: holds1(v) and holds2(v)
    elif shape == "or":
        rule, ok = f"rule r: ({first}) or ({second})", lambda v: holds1(v) or holds2(v)
    else:
        rule, ok = f"rule r: not ({first}) -> ({second})", lambda v: holds1(v) or holds2(v)
    text = (f"puzzle big\nboard square(lines, blank: \".\")\n"
            f"var v[c in cells] : {low}..{high}\nshow v\n{rule}\n")
    want = {vals for vals in itertools.product(range(low, high + 1), repeat=3) if ok(vals)}
    return text, want


def board_values(rows) -> tuple:
    row, = rows
    return tuple(int(t) for t in (row.split() if " " in row else row))


def answers(text, backend):
    s = spec_from_text(text)
    inst, = read_instances(Source("one.txt", "...\n"), s.board.kind, lines=True)
    res = api.count(s, inst, backend=backend)
    assert res.error is None, res.error.message
    assert res.complete
    return [board_values(g) for g in res.solutions]


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("backend", ["sat", pytest.param("smt", marks=pytest.mark.slow)])
def test_large_coefficients_match_brute_force(seed, backend):
    text, want = case(seed)
    got = answers(text, backend)
    assert len(got) == len(set(got)), "a solution counted twice"
    assert set(got) == want, text


def test_the_cases_are_not_trivial():
    """The seeds give constraints with some and with no solutions, and both
    kinds of huge numbers (above 2^31 and above 2^63)."""
    sizes = [len(case(seed)[1]) for seed in range(40)]
    assert sum(1 for n in sizes if n == 0) >= 3
    assert sum(1 for n in sizes if 0 < n < 27) >= 10
    texts = " ".join(case(seed)[0] for seed in range(40))
    assert str(2**63) in texts and str(2**31) in texts


BIG = """\
puzzle big
board square(lines, blank: ".")
var x : 0..1
var y : 0..1
show c: x + y
rule r: {rule}
"""


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sat", "smt"])
@pytest.mark.parametrize("rule, board, count", [
    ("x * 3000000000 + y * 3000000000 >= 6000000000", "22", 1),
    ("x * 2147483648 + y <= 0", "00", 1),
    ("x * 2147483648 - y * 2147483648 = 0", "00", 2),     # 0+0 and 1+1: boards 00, 22
])
def test_the_reported_cases(write, run_pzc, backend, rule, board, count):
    write("big.pz", BIG.format(rule=rule))
    write("b.txt", "..\n")
    run = run_pzc("solve", "big.pz", "b.txt", "--backend", backend)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "verified" in run.stdout
    counted = run_pzc("count", "big.pz", "b.txt", "--backend", backend)
    assert counted.returncode == 0
    assert f"{count} solution" in counted.stdout
    if count == 1:
        assert run.stdout.splitlines()[1].strip() == board
