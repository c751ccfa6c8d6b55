"""Specs that only a time limit stops, shared by tests/test_timelimits.py
and bench/timelimits.py."""

# a plan whose goal never holds: every step is unsat at once, so only the
# loop's own clock can stop it (before: exit 1 after 4.9 s under --timeout 2)
NEVER = """\
puzzle never "a plan whose goal never holds"
board square
plan moves
state at[c in cells] : 0..3
show c: at[c]
show moves bump: cell = a
start all c in cells: at[c] = 0
action bump(a in cells):
    pre at[a] < 3
    set at[a] := at[a] + 1
goal at[(0, 0)] = 7
"""

# 2^40 calls while checking a require: evaluation itself must stop
EXPONENTIAL = """\
puzzle expo "an exponential let function in a require"
board square
let f(k, s) = if k = 0 then s else f(k - 1, 2 * s) + f(k - 1, 2 * s + 1)
require f(40, 0) >= 0 else "never"
var v[c in cells] : bool
show v
rule r: all c in cells: v[c]
"""

BIG_DOMAIN = """\
puzzle bigdom "a 100,000-value domain"
board square
var x[c in cells] : 0..99999
show x
rule r: all c in cells: x[c] >= 5
"""
