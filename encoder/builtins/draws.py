"""Built-ins that draw at random, for `generate` lines only: random(S) and
sample(S, k).

    generate let empties = sample(cells, random(5..9))    # 5 to 9 cells, which at random

Their values come from the draw's seed (``Instance.draw``, set by pzc
generate for each solution it draws) and from where the call stands in the
spec, never from the order of evaluation: the same seed gives the same values
on every machine, and a call evaluated twice (grounding, then checking the
drawn solution) gives the same value both times.  The checker
(encoder/check.py) allows them in the generation model only.
"""

from __future__ import annotations

import random

from ..interpreter.values import ANY, INT, PSet, coll
from .registry import const_int, function

DRAWING = ("random", "sample")     # the built-ins that need a draw's seed


def _rng(it, node) -> random.Random:
    """The generator of this call: the draw's seed and the call's position
    (a string seed is hashed the same way in every process)."""
    draw = it.instance.draw
    if draw is None:
        raise it.err(node, f"'{node.func}' draws at random when pzc generate draws a "
                           "solution: use it in generate lines only")
    line, column = node.pos
    return random.Random(f"{draw}:{line}:{column}")


def _pool(it, node, v) -> tuple:
    items = it.want_collection(node.args[0], v)
    if not items:
        raise it.err(node.args[0], f"'{node.func}' draws from an empty set")
    return items


@function("random", [ANY], ANY)
def _random(it, node, args):
    items = _pool(it, node, args[0])
    rng = _rng(it, node)
    return items[rng.randrange(len(items))]


@function("sample", [ANY, INT], coll())
def _sample(it, node, args):
    items = _pool(it, node, args[0])
    k = const_int(it, node.args[1], args[1])
    if not 0 <= k <= len(items):
        raise it.err(node.args[1], f"sample takes 0 to {len(items)} elements of this set, "
                                   f"not {k}")
    chosen = set(_rng(it, node).sample(range(len(items)), k))
    return PSet(items[i] for i in sorted(chosen))
