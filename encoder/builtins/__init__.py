"""Every built-in of the spec language, gathered from the modules that
define them by concept (see encoder/builtins/registry.py for how to add one):

    regions         cells, rows, cols, edges, width, height, side, boxes, squares
    neighbourhoods  neighbours, around, edge, edges(c), ball, oncell, cell, row, col
    directions      directions, direction, step, ray, line_char
    outside         outside, inward
    lattice         dots, segments, segments(d), sides, segment, diagonals
    places          places, centre, corner, midpoint, cells_at
    clues           clue, given, target, locked, labels, input, has_target,
                    token, group, get, int, split
    basics          abs, isqrt, len, sorted, set, list
    draws           random, sample (generate lines only)

Aggregates (count, sum, product, min, max, distinct, connected) are in
encoder/interpreter/aggregates.py.
"""

from __future__ import annotations

from . import (basics, clues, directions, draws, lattice, neighbourhoods, outside,  # noqa: F401
               places, regions)  # (they register)
from .registry import FUNCTIONS, VALUES

__all__ = ["FUNCTIONS", "VALUES"]
