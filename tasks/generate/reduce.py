"""Reduce: take clues away one at a time, in a given order, each kept out
when the puzzle stays unique; checked a run at a time.

Fewer clues never make a puzzle unique (the drawn answer solves every
smaller one), so where a run of items can go together, each of them goes
when tried alone after the ones before it, and where a run cannot, its last
item stays when tried after the others.  The longest run that goes is found
by doubling its length and halving back: after the first item of the order,
a run of L items and the one that stays cost about 2 log2 L checks instead
of L + 1, with exactly the one-at-a-time outcome.  Generated Hexioms open
most of their locks at first, in one long run (size 6: 67 of 91 in a row):
three of size 5 took 7.5 s of CPU this way against 9.4 s one at a time
(issue 28, docs/benchmarks.md).  A check the solver leaves undecided
(tasks/generate/checks.py) counts as not unique, which no longer need hold
for the smaller sets: the outcome is still unique, and the same for a seed.
"""

from __future__ import annotations


def remove_while_unique(inst, order: list, without, unique, progress) -> tuple:
    """(the smaller instance, how many items went): ``without(inst, item)``
    is ``inst`` less ``item``, ``unique(inst)`` whether it has one solution.
    The same as trying each item in ``order`` on the instance the ones
    before it left."""
    removed = 0
    k = 0
    while k < len(order):
        progress("reduce", tried=k, of=len(order))
        run = _longest_run(inst, order[k:], without, unique)
        for item in order[k:k + run]:
            inst = without(inst, item)
        removed += run
        k += run + 1                     # the item after the run stays
    return inst, removed


def _longest_run(inst, items: list, without, unique) -> int:
    """The largest n such that the first n items go together (all of them
    when all can; else the item after them cannot go after them)."""

    def goes(n: int) -> bool:
        smaller = inst
        for item in items[:n]:
            smaller = without(smaller, item)
        return unique(smaller)

    good, bad = 0, None                  # the first `good` go; the first `bad` do not
    n = 1
    while bad is None:
        if goes(n):
            good = n
            if n == len(items):
                return n
            n = min(2 * n, len(items))
        else:
            bad = n
    while bad - good > 1:
        middle = (good + bad) // 2
        if goes(middle):
            good = middle
        else:
            bad = middle
    return good
