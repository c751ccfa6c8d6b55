"""Numberlink, Nurikabe and Slitherlink instances with exact statuses, for
the tests of connected(...) on every backend (test_connectivity.py,
test_backend_asp.py), and how their answers are judged.

    GENERATED   (case id, spec, text): solvable by construction
    TINY        spec -> [(text, "solved" or "unsat")], as brute force or
                generators.numberlink_reference says
    UNSAT       (case id, spec, text): no answer, each for a reason given
    assert_solved(result, spec, text, mode)   verified, valid by the
                independent checker, statistics that fit the mode
"""

from __future__ import annotations

import random

import generators as gen
from pzc import api

CHECKERS = {"numberlink": gen.numberlink_valid, "nurikabe": gen.nurikabe_valid,
            "slitherlink": gen.slitherlink_valid}


def assert_stats(res, mode):
    """The statistics say which encoding ran; lazy rounds and cuts agree."""
    st = res.stats
    assert st["backend"] == mode.get("backend", "sat")
    if st["backend"] == "smt" or mode.get("connectivity") == "eager":
        assert "rounds" not in st and "cuts" not in st
    elif "rounds" in st:
        assert st["connectivity"] == "lazy"
        # a round that does not end the solve ends in at least one cut, and
        # a cut is always followed by another round (no time limit here)
        assert st["rounds"] >= 1 and st["cuts"] >= st["rounds"] - 1, st
        assert (st["rounds"] > 1) == (st["cuts"] > 0), st


def assert_solved(res, spec_name, text, mode=None):
    msg = (res.status, res.error and res.error.message)
    assert res.status == "solved", msg
    assert res.verified is True and res.exit_code == api.EXIT_OK and res.error is None
    assert CHECKERS[spec_name](text, res.grid), res.grid
    if mode is not None:
        assert_stats(res, mode)


def assert_unsat(res, mode=None):
    assert res.status == "unsat", (res.status, res.error and res.error.message, res.grid)
    assert res.exit_code == api.EXIT_UNSAT
    assert res.grid is None and res.verified is None
    if mode is not None:
        assert_stats(res, mode)


# ---------------------------------------------------------------- generated instances

def _generated():
    out = []
    for w, h, seed, most in ((4, 4, 1, None), (5, 5, 2, None), (6, 6, 3, None), (7, 7, 4, 3),
                             (8, 8, 5, None), (8, 5, 6, 4), (5, 8, 7, 2)):
        text, _ = gen.numberlink_puzzle(w, h, random.Random(seed), most=most)
        out.append((f"numberlink{w}x{h}-{seed}", "numberlink", text))
    for w, h, seed in ((6, 6, 1), (9, 7, 2), (12, 12, 3)):     # the bench's 40x40 maker
        text, sol = gen.numberlink_large(w, h, random.Random(seed))
        assert gen.numberlink_valid(text, sol)
        out.append((f"numberlink-large{w}x{h}-{seed}", "numberlink", text))
    for w, h, seed, unknown in ((4, 4, 1, 0.0), (5, 5, 2, 0.0), (6, 6, 3, 0.3), (7, 7, 4, 0.0),
                                (8, 6, 5, 0.3), (8, 8, 6, 0.0), (6, 7, 7, 0.5)):
        text = gen.nurikabe_puzzle(w, h, random.Random(seed), unknown=unknown)
        out.append((f"nurikabe{w}x{h}-{seed}" + ("?" if "?" in text else ""), "nurikabe", text))
    for w, h, seed, keep in ((4, 4, 1, 0.7), (5, 5, 2, 0.6), (6, 6, 3, 0.6), (7, 7, 4, 0.5),
                             (8, 8, 5, 0.6), (8, 5, 6, 0.5), (5, 7, 7, 0.8)):
        text = gen.slitherlink_puzzle(w, h, random.Random(seed), keep=keep)
        out.append((f"slitherlink{w}x{h}-{seed}", "slitherlink", text))
    return out


GENERATED = _generated()


# ---------------------------------------------------------------- tiny random instances, exact statuses

def _tiny_numberlink():
    out = []
    rng = random.Random(70)
    for k in range(8):                  # solvable by construction
        w, h = rng.randint(3, 5), rng.randint(2, 4)
        text, _ = gen.numberlink_puzzle(w, h, rng, most=rng.choice([2, 3, None]))
        out.append(text)
    for k in range(10):                 # ends placed at random: mostly unsolvable
        w, h = rng.randint(3, 5), rng.randint(3, 4)
        pairs = rng.randint(2, 4)
        cells = rng.sample([(r, c) for r in range(h) for c in range(w)], 2 * pairs)
        rows = [["."] * w for _ in range(h)]
        for j, (r, c) in enumerate(cells):
            rows[r][c] = "ABCD"[j // 2]
        out.append(f"{w} {h}\n" + "\n".join("".join(r) for r in rows) + "\n")
    return [(t, gen.numberlink_reference(t)[0]) for t in out]


def _tiny_nurikabe():
    out = []
    rng = random.Random(71)
    for k in range(16):
        # (two tokens wide, a first row of two numbers would read as a header)
        w, h = rng.randint(3, 4), rng.randint(2, 4)
        cells = [(r, c) for r in range(h) for c in range(w)]
        clues = {}
        for x in rng.sample(cells, rng.randint(1, 3)):
            clues[x] = "?" if rng.random() < 0.25 else str(rng.randint(1, 4))
        text = "\n".join(" ".join(clues.get((r, c), ".") for c in range(w))
                         for r in range(h)) + "\n"
        out.append(text)
    return [(t, gen.nurikabe_brute(t)) for t in out]


def _tiny_slitherlink():
    out = []
    rng = random.Random(72)
    for k in range(16):
        w, h = rng.randint(1, 3), rng.randint(2, 3)
        text = "\n".join("".join(rng.choice("0123") if rng.random() < 0.5 else "."
                                 for _ in range(w)) for _ in range(h)) + "\n"
        out.append(text)
    return [(t, gen.slitherlink_brute(t)) for t in out]


TINY = {"numberlink": _tiny_numberlink(), "nurikabe": _tiny_nurikabe(),
        "slitherlink": _tiny_slitherlink()}


# ---------------------------------------------------------------- unsolvable instances

UNSAT = [
    # A must cross B in the middle
    ("numberlink-cross", "numberlink", "3 3\n.A.\nB.B\n.A.\n"),
    # the ends alternate around the rim: the two paths would have to cross
    ("numberlink-rim", "numberlink", "4 4\nA..B\n....\n....\nB..A\n"),
    # the middle column cannot be covered without a path touching itself
    ("numberlink-cover", "numberlink", "3 2\nA.B\nA.B\n"),
    # without the 'pools' rule a stray 2x2 cycle would fill the rest, and
    # only the cuts refuse it (see test_numberlink_without_pools_proves_...)
    ("numberlink-loops", "numberlink", "5 6\nC....\n...AC\n.....\n.....\n.BB..\n..A..\n"),
    # the islands need more cells than the board has
    ("nurikabe-overflow", "nurikabe", "4 . 3\n. . .\n"),
    # the islands need 8 of 9 cells, and the two must be kept apart
    ("nurikabe-crowded", "nurikabe", "3 . .\n. . .\n. . 5\n"),
    # the island splits the sea in two: only the sea's connectivity says no
    ("nurikabe-split-sea", "nurikabe", ". 1 .\n"),
    # the same between islands of unknown size: no size bound, so the sea's
    # connectivity is left to the cuts / ranks
    ("nurikabe-split-sea-?", "nurikabe", "? . 1 . ?\n"),
    # four islands side by side
    ("nurikabe-all-clues", "nurikabe", "? ?\n? ?\n"),
    # a 2x2 pool is forced
    ("nurikabe-pool", "nurikabe", "2 . .\n. . .\n. . 1\n"),
    # a 3 next to a 0
    ("slitherlink-3-0", "slitherlink", "30\n"),
    # no loop at all
    ("slitherlink-zeros", "slitherlink", "00\n00\n"),
    # on a 2x2 board a cell uses 3 sides only at the end of a 1x2 region
    ("slitherlink-threes", "slitherlink", "33\n33\n"),
    # two loops (around each outer column) would meet every clue; one loop cannot
    ("slitherlink-two-loops", "slitherlink", "3.3\n3.3\n"),
]
