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

``inverse_moves`` asks more, on the first step alone: B is A's inverse when
from every state where A applies, B applies right after it and leads back.
When every action has one, a state's predecessors are its successors, and
an explicit-state search may grow from the goal too (backends/states.py).
"""

from __future__ import annotations

from pysat.solvers import Solver

from ..runtime import pysat_calls  # noqa: F401  (Ctrl-C stays Python's)
from . import syntax as ast
from .cnf import Encoder
from .model import LinExpr, Node


def find_undo_pairs(plan) -> list:
    """[(action key, action key)]: B right after A always restores the state.
    Needs the plan unrolled to step 2."""
    model = plan.model
    candidates = [(a, b) for keys in _same_targets(plan) for a in keys for b in keys]
    if not candidates:
        return []
    enc = _rules_encoder(plan, [node for nodes in plan.transitions[:2] for node in nodes])
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


def _same_targets(plan) -> list:
    """The actions grouped by the state elements they set."""
    groups = {}
    for key, targets in plan.targets.items():
        groups.setdefault(frozenset(targets), []).append(key)
    return list(groups.values())


def _rules_encoder(plan, nodes) -> Encoder:
    """Every variable, the rules (not the start) and ``nodes`` encoded."""
    model = plan.model
    enc = Encoder(model, "eager")
    for var in model.vars:
        enc.declare(var)
    for stmt, node in model.constraints:
        if not isinstance(stmt, ast.Start):
            enc.assert_(node)
    for node in nodes:
        enc.assert_(node)
    return enc


def inverse_moves(plan) -> dict:
    """{action key: the first action key (spec order) that always applies
    after it and undoes it}; actions without one are left out.  Reads the
    plan's first transition only (encoder/unroll.py's template)."""
    model = plan.model
    to_state1 = plan.state_map(0, 1)
    enc = _rules_encoder(plan, plan.template + [model.rename(node, to_state1, {})
                                                for node in plan.invariants])
    tables = plan.interpreter.state_tables
    back = {}                     # a state-1 Var -> the same element in state 0
    for name, table in tables[1].items():
        for key, var in table.items():
            back[var] = tables[0][name][key]
    out = {}
    fired = plan.template_actions
    with Solver(name="minisat22", bootstrap_with=enc.clauses) as solver:
        for keys in _same_targets(plan):
            for a in keys:
                for b in keys:
                    known = len(enc.clauses)
                    restores = enc.lit(_restores(model, plan.moves[b], to_state1, back))
                    solver.append_formula(enc.clauses[known:])     # its definition
                    if restores is True or (restores is not False and not solver.solve(
                            assumptions=[enc.var_lits[fired[a]], -restores])):
                        out[a] = b
                        break
    return out


def _restores(model, move, to_state1, back):
    """The move, taken in state 1, applies and leads to state 0: its
    precondition and every effect read in state 1, each effect's value the
    element's value in state 0 (the elements it does not set are the same in
    both states when the two actions set the same elements)."""
    parts = [model.rename(move.pre, to_state1, {})]
    for after, value in move.effects:
        var = after.args[0] if type(after) is Node else after
        target = back[var]
        if type(value) is LinExpr:
            value = LinExpr({model.rename(atom, to_state1, {}): c for atom, c in value.terms.items()},
                            value.const)
        else:
            value = model.rename(value, to_state1, {})
        if target.domain is None:
            node = model.bvar(target)
            parts.append(node if value is True else model.not_(node) if value is False
                         else model.iff(node, value))
        else:
            parts.append(model.equal(target, value))
    return model.and_(parts)
