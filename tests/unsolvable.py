"""Instances with no solution that several test modules share."""

from __future__ import annotations

UNSAT4 = "11..\n....\n....\n....\n"          # a 4x4 Sudoku: two equal clues in a row

# pigeons (rows) into holes (columns): no solution, and hard for a SAT solver when big
PIGEONS = """\
puzzle pigeons "every pigeon (row) gets a hole (column); no hole takes two"
board square
var p[c in cells] : bool
show c: if p[c] then 1 else 0
rule pigeon: all r in rows: count(c in r: p[c]) >= 1
rule hole:   all k in cols: count(c in k: p[c]) <= 1
"""


def pigeon_block(holes, pigeons):
    return f"{holes} {pigeons}\n" + ("." * holes + "\n") * pigeons
