"""Stage helper for unroll: pairs of actions that undo each other.

A shortest plan never takes an action and right after it one that puts every
state back as it was: both moves could be left out.  Which pairs do that is
found on the plan's own first two steps.  For actions A and B that set the
same state elements, a SAT solver looks for a state (meeting every rule) from
which A and then B lead somewhere else; when there is none, every later step
gets the clause ``not A@t or not B@t+1``:

    slide(a, b) then slide(b, a)  ->  always back to the start
                                  ->  not slide@t[a, b] or not slide@t+1[b, a]

This is what a hand-written solver does with "never move the hole back",
derived from the spec instead of written into it.  The start and the goal
take no part, so the pairs hold from every state.
"""

from __future__ import annotations

from pysat.solvers import Solver

from ..runtime import pysat_calls  # noqa: F401  (Ctrl-C stays Python's)
from . import syntax as ast
from .cnf import Encoder


def find_undo_pairs(plan) -> list:
    """[(action key, action key)]: B right after A always restores the state.
    Needs the plan unrolled to step 2."""
    model = plan.model
    groups = {}
    for key, targets in plan.targets.items():
        groups.setdefault(frozenset(targets), []).append(key)
    candidates = [(a, b) for keys in groups.values() for a in keys for b in keys]
    if not candidates:
        return []
    enc = Encoder(model, "eager")
    for var in model.vars:
        enc.declare(var)
    for stmt, node in model.constraints:
        if not isinstance(stmt, ast.Start):
            enc.assert_(node)
    for nodes in plan.transitions[:2]:
        for node in nodes:
            enc.assert_(node)
    tables = plan.interpreter.state_tables
    differ = []
    for name, table in tables[2].items():
        for key, var in table.items():
            other = tables[0][name][key]
            if var.domain is None:
                differ.append(model.not_(model.iff(model.bvar(var), model.bvar(other))))
            else:
                differ.append(model.not_(model.same(var, other)))
    changed = enc.lit(model.or_(differ))
    if changed is True:              # no two steps ever come back
        return []
    first, second = plan.actions[0], plan.actions[1]
    out = []
    with Solver(name="minisat22", bootstrap_with=enc.clauses) as solver:
        for a, b in candidates:
            assumptions = [enc.var_lits[first[a]], enc.var_lits[second[b]]]
            if changed is not False:
                assumptions.append(changed)
            if not solver.solve(assumptions=assumptions):
                out.append((a, b))
    return out
