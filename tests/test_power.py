"""The power operator `a ^ b` (issue 27): its precedence and grouping on plain
values, held to Python's `**` (which groups the same way); its errors, each
located, from the checker and from grounding; and powers of variables
(base, exponent or both), counted on the SAT and SMT backends against a
brute force written here, every counted answer verified by pzc."""

from __future__ import annotations

import itertools
import random

import pytest

from pzc import api
from pzc.encoder import check, syntax
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import PzcError, Source
from pzc.runtime.limits import MAX_POWER_BITS

from loading import spec_from_text
from outcomes import assert_located

# Z3 takes seconds where the SAT backend takes a fraction: its cases are slow
BACKENDS = ["sat", pytest.param("smt", marks=pytest.mark.slow)]


def answers(spec_text, inst_text, backend="sat") -> list:
    """The AnswerData of every solution of the spec on a square instance."""
    spec = spec_from_text(spec_text)
    inst, = read_instances(Source("inst.txt", inst_text), "square")
    result = api.count(spec, inst, backend=backend)
    assert result.error is None, result.error.format()
    assert result.complete
    return result.answers


# ------------------------------------------------------------------ plain values

PLAIN = [
    "2 ^ 10", "-2 ^ 2", "(-2) ^ 2", "(-2) ^ 3", "-(2) ^ 2", "2 ^ 3 ^ 2", "(2 ^ 3) ^ 2",
    "2 ^ 2 ^ 2 ^ 2", "3 * 2 ^ 2", "2 ^ 2 * 3", "12 % 2 ^ 3", "-3 ^ 2 + 1", "10 - 2 ^ 3",
    "2 ^ 1 + 1", "2 ^ (1 + 1)", "2^3", "2 ^ -(-3)", "2 ^ len([4, 5, 6])", "0 ^ 0", "0 ^ 5",
    "5 ^ 0", "1 ^ 1000000", "(-1) ^ 1000001", "(-1) ^ 1000000", "2 ^ 256", "(-2) ^ 255",
    "4 ^ 128", "(2 ^ 128) ^ 2", "-2 ^ 62 + 2 ^ 62",
]


def value(expr):
    """The value of an int expression as grounding gives it (a rule fixes r)
    and verification accepts it."""
    text = (f"puzzle p\nboard square\nvar r[c in cells] : {{{expr}, 7, -7}}\nshow r\n"
            f"rule fixed: all c in cells: r[c] = {expr}\n")
    found, = answers(text, ".\n")
    return found.values["r"][(0, 0)]


@pytest.mark.parametrize("expr", PLAIN)
def test_plain_power_is_pythons(expr):
    """The same text in Python, with ** for ^, has the same value."""
    assert value(expr) == eval(expr.replace("^", "**"))


@pytest.mark.parametrize("expr, other", [
    ("2 ^ 3 ^ 2", "(2 ^ 3) ^ 2"), ("-2 ^ 2", "(-2) ^ 2"), ("3 * 2 ^ 2", "(3 * 2) ^ 2"),
    ("12 % 2 ^ 3", "(12 % 2) ^ 3"), ("2 ^ 3 - 1", "2 ^ (3 - 1)"),
])
def test_grouping_is_not_the_other_one(expr, other):
    """^ groups to the right and binds before a minus, * and %: the other
    grouping gives another value."""
    assert value(expr) != value(other)


def test_the_largest_power_is_exactly_the_bound():
    assert eval("2 ** 256") == 2 ** MAX_POWER_BITS
    assert checks(f"let a = 2 ^ {MAX_POWER_BITS}\n")
    assert check_error(f"let a = 2 ^ {MAX_POWER_BITS + 1}\n").message.startswith(
        f"2 ^ {MAX_POWER_BITS + 1} is over 2 ^ {MAX_POWER_BITS}")


# ------------------------------------------------------------------ errors

HEAD = "puzzle p\nboard square\nvar x : 0..3\nvar b : bool\nshow c: x\n"
L = 6       # the line after HEAD


def checks(text) -> bool:
    check.check(syntax.parse(HEAD + text + "rule r: x >= 0\n", "p.pz"))
    return True


def check_error(text) -> PzcError:
    with pytest.raises(PzcError) as info:
        check.check(syntax.parse(HEAD + text, "p.pz"))
    return info.value


@pytest.mark.parametrize("rule, column, message", [
    ("rule r: x ^ -1 = 1", 13, "'^' takes an exponent of 0 or more, not -1"),
    ("rule r: x ^ -(1) = 1", 13, "'^' takes an exponent of 0 or more, not -1"),
    ("rule r: 10 ^ 100 = x", 12, "10 ^ 100 is over 2 ^ 256, the largest power pzc computes"),
    ("rule r: (-3) ^ 200 = x", 14, "(-3) ^ 200 is over 2 ^ 256, the largest power pzc computes"),
    ("rule r: 2 ^ 10 ^ 100 = x", 16, "10 ^ 100 is over 2 ^ 256, the largest power pzc computes"),
    ("rule r: x ^ b = 1", 13, "a bool is used as an int here; count(...) or "
                              "'if ... then 1 else 0' turns bools into numbers"),
    ("rule r: {1, 2} ^ 2 = x", 9, "an operand of '^' must be an int, but this is a set"),
    ("rule r: \"a\" ^ 2 = x", 9, "an operand of '^' must be an int, but this is a symbol"),
])
def test_checker_errors(rule, column, message):
    err = check_error(rule + "\n")
    assert (err.message, err.line, err.column) == (message, L, column)


def test_a_huge_power_is_refused_before_it_is_computed():
    """10 ^ 10 ^ 12 written out would take hours and terabytes; the error is immediate."""
    err = check_error("rule r: 10 ^ 1000000000000 = x\n")
    assert (err.line, err.column) == (L, 12)
    assert "is over 2 ^ 256" in err.message


@pytest.mark.parametrize("text, line, column, message", [
    ("rule r: x ** 2 = 1\n", L, 12,
     "unexpected '*'; expected a name, a number, a string, '(', '-', '[', '{'; "
     "a power is written 'a ^ b'"),
    ("rule r: x ^ ^ 2 = 1\n", L, 13,
     "unexpected '^'; expected a name, a number, a string, '(', '-', '[', '{'"),
])
def test_syntax_errors(text, line, column, message):
    with pytest.raises(PzcError) as info:
        syntax.parse(HEAD + text, "p.pz")
    assert (info.value.message, info.value.line, info.value.column) == (message, line, column)


GROUND_HEAD = ("puzzle p\nboard square\nvar x : -1..3\nvar y : 0..9\n"
               "var v[c in cells] : 0..1\nshow v\n")


@pytest.mark.parametrize("rule, column, message", [
    # the exponent is known only from the instance (clue 3) or a variable's values
    ("rule r: all c in cells: v[c] <= 2 ^ (clue(c) - 5)", 46,
     "'^' takes an exponent of 0 or more, not -2"),
    ("rule r: all c in cells: v[c] <= clue(c) ^ 999", 41,
     "3 ^ 999 is over 2 ^ 256, the largest power pzc computes"),
    ("rule r: x <= (2 ^ 256) ^ 2", 24, f"a number of about {len(str(2 ** 256))} digits ^ 2 "
                                       "is over 2 ^ 256, the largest power pzc computes"),
    ("rule r: y ^ x = 1", 13, "'^' takes an exponent of 0 or more, but this exponent can be -1"),
    ("rule r: 2 ^ (y - 2) = 1", 16,
     "'^' takes an exponent of 0 or more, but this exponent can be -2"),
    ("rule r: y ^ 100 = 1", 11, "with the values its variables can take, 9 ^ 100 is over "
                                "2 ^ 256, the largest power pzc computes"),
    ("rule r: (2 ^ 40) ^ y = 1", 18, f"with the values its variables can take, {2 ** 40} ^ 9 "
                                     "is over 2 ^ 256, the largest power pzc computes"),
    ("rule r: (x + y) ^ 2 = 1", 12, "'^' needs a constant or a single variable on each side, "
                                    "not a sum of several (a product such as (x + y) * (x + y) "
                                    "takes one)"),
])
def test_grounding_errors_are_located(write, run_pzc, rule, column, message):
    write("p.pz", GROUND_HEAD + rule + "\n")
    write("b.txt", "3\n")
    run = run_pzc("solve", "p.pz", "b.txt")
    assert_located(run, "p.pz", 7, column, message, rule)


def test_a_checker_error_through_the_command(write, run_pzc):
    rule = "rule r: x ^ -1 = 1"
    write("p.pz", HEAD + rule + "\n")
    write("b.txt", ".\n")
    assert_located(run_pzc("solve", "p.pz", "b.txt"), "p.pz", L, 13,
                   "'^' takes an exponent of 0 or more, not -1", rule)


# ------------------------------------------------------------------ powers of variables

def triples_spec(low, high):
    return (f"puzzle t\nboard square\nvar v[c in cells] : {low}..{high}\nshow v\n"
            f"rule pythagoras: v[(0, 0)] ^ 2 + v[(0, 1)] ^ 2 = v[(0, 2)] ^ 2\n")


@pytest.mark.parametrize("backend", BACKENDS)
def test_pythagorean_triples_match_brute_force(backend):
    low, high = -5, 10
    found = {tuple(a.values["v"][(0, k)] for k in range(3))
             for a in answers(triples_spec(low, high), "...\n", backend)}
    domain = range(low, high + 1)
    want = {(x, y, z) for x, y, z in itertools.product(domain, repeat=3) if x * x + y * y == z * z}
    assert found == want
    assert (3, 4, 5) in want and (-4, 3, -5) in want and (6, 8, 10) in want


# random rules with powers of variables (the base, the exponent or both), over
# three cells: a, b and the exponent e, never negative; k a constant, n a
# constant exponent
FORMS = [
    ("{a} ^ {n}", lambda a, b, e, k, n: a ** n),
    ("({k}) ^ {e}", lambda a, b, e, k, n: k ** e),
    ("{a} ^ {e}", lambda a, b, e, k, n: a ** e),
    ("-{a} ^ {e}", lambda a, b, e, k, n: -(a ** e)),
    ("({a} + {k}) ^ {e}", lambda a, b, e, k, n: (a + k) ** e),
    ("{b} ^ ({e} + 1) - {a} ^ 2", lambda a, b, e, k, n: b ** (e + 1) - a ** 2),
    ("{k} * {a} ^ {e} ^ 2", lambda a, b, e, k, n: k * a ** e ** 2),
    ("if {a} > 0 then {a} ^ {e} else {e} ^ 2", lambda a, b, e, k, n: a ** e if a > 0 else e ** 2),
]
CELLS = {"a": "v[(0, 0)]", "b": "v[(0, 1)]", "e": "w[(0, 2)]"}
COMPARE = {"=": int.__eq__, "<=": int.__le__, ">": int.__gt__, "!=": int.__ne__}


def random_case(seed):
    """(spec text, the set of (a, b, e) boards a brute force finds, the
    number of boards there are)."""
    rng = random.Random(seed)
    low = rng.randint(-3, 0)
    high = low + rng.randint(2, 4)
    emax = rng.randint(1, 3)
    k = rng.randint(-2, 3)
    n = rng.randint(0, 3)
    (left, left_value), (right, right_value) = rng.sample(FORMS, 2)
    op = rng.choice(list(COMPARE))
    text = (f"puzzle r\nboard square\nvar v[c in cells] : {low}..{high}\n"
            f"var w[c in cells] : 0..{emax}\n"
            f"show c: if c.col < 2 then v[c] else w[c]\n"
            f"rule r: ({left.format(k=k, n=n, **CELLS)}) {op} "
            f"({right.format(k=k, n=n, **CELLS)})\n")
    every = list(itertools.product(range(low, high + 1), range(low, high + 1), range(emax + 1)))
    want = {(a, b, e) for a, b, e in every
            if COMPARE[op](left_value(a, b, e, k, n), right_value(a, b, e, k, n))}
    return text, want, len(every)


def boards(found) -> set:
    return {(a.values["v"][(0, 0)], a.values["v"][(0, 1)], a.values["w"][(0, 2)])
            for a in found}


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("backend", BACKENDS)
def test_powers_of_variables_match_brute_force(seed, backend):
    text, want, _ = random_case(seed)
    assert boards(answers(text, "...\n", backend)) == want, text


def test_the_random_cases_are_not_trivial():
    """Some cases have no solution, most have some and not all; every form is used."""
    cases = [random_case(seed) for seed in range(12)]
    assert sum(1 for _, want, _ in cases if not want) >= 1
    assert sum(1 for _, want, every in cases if 0 < len(want) < every) >= 8
    texts = " ".join(text for text, _, _ in cases)
    for form, _ in FORMS:
        assert form.format(k="", n="", **CELLS).split("(")[0] in texts


# ------------------------------------------------------------------ a binary-number puzzle

BINARY = """\
# each row of 0/1 cells, read as a binary number (its first cell the highest
# bit), is the clue at its end; each column holds an odd number of ones
puzzle binary "rows of bits that read as their clues"
board square(blank: ".")
var bit[c in cells where c.col < width - 1] : 0..1
show c: if c.col < width - 1 then bit[c] else clue(c)
rule rows: all r in rows:
    sum(bit[c] * 2 ^ (width - 2 - c.col) for c in r where c.col < width - 1)
        = clue(r[width - 1])
rule odd: all k in 0..width - 2:
    sum(bit[(r, k)] for r in 0..height - 1) in {1, 3, 5}
"""


def binary_brute_force(clues, bits):
    """The bit grids (rows of `bits` 0/1) whose rows read as the clues and
    whose columns each hold an odd number of ones."""
    out = []
    for grid in itertools.product(itertools.product((0, 1), repeat=bits), repeat=len(clues)):
        if all(int("".join(map(str, row)), 2) == clue for row, clue in zip(grid, clues)) and \
                all(sum(row[k] for row in grid) % 2 == 1 for k in range(bits)):
            out.append(grid)
    return out


BINARY_CLUES = [(5, 3, 7), (6, 1, 0), (4, 4, 7), (1, 2, 4), (7, 7, 6)]


def test_some_binary_clues_have_an_answer_and_some_none():
    found = [len(binary_brute_force(clues, 3)) for clues in BINARY_CLUES]
    assert 0 in found and 1 in found


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("clues", BINARY_CLUES)
def test_binary_rows_match_brute_force(backend, clues):
    inst = "".join(f"...{c}\n" for c in clues)
    found = answers(BINARY, inst, backend)
    want = binary_brute_force(clues, 3)
    assert len(found) == len(want) <= 1
    for answer, grid in zip(found, want):
        assert answer.board == [[str(b) for b in row] + [str(c)] for row, c in zip(grid, clues)]
