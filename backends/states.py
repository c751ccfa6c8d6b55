"""A plan's shortest moves by explicit-state search: breadth-first over the
states themselves, from the start, or from both ends at once when every move
can be undone.

The moves are the ground plan's own, compiled to Python (encoder/transitions.py);
the states reached are kept in a dict (state -> the state it was reached
from), so each is expanded once.  Breadth-first order makes the first plan
found a shortest one, and a search that runs out of states proves that no
plan exists at all.

    forward only      start --1--> ... --k--> a state meeting the goal
    both ends         start --1--> ... --i--> m <--j-- ... <--1-- goal state

The search grows from both ends when (1) every action has an inverse
(encoder/undo.py's ``inverse_moves``: applies after it and leads back, so
a state's predecessors are its successors) and (2) the goal holds in at most
MAX_GOAL_STATES states, listed by a SAT solver.  Then each round grows the
side whose newest layer is smaller by one layer; the first state both sides
reach joins a shortest plan (when the two sides have met nowhere after layers
i and j, every plan has more than i + j moves, and the first meeting is at
exactly i + j + 1).

It stops with ``budget`` after ``cap`` states (``state_cap``: what fits in
half the memory budget, 6.7 million states of 16 elements under the default
1.5 GB), and then says how many moves a plan has at least: the SAT search
(backends.deepen) starts there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pysat.solvers import Solver

from ..encoder import syntax as ast
from ..encoder.cnf import Encoder
from ..encoder.transitions import NotExplicit, StateCode
from ..encoder.undo import inverse_moves
from ..runtime import clock
from ..runtime import pysat_calls  # noqa: F401  (Ctrl-C stays Python's)
from ..runtime.errors import PzcError
from ..runtime.limits import budget_bytes
from ..runtime.progress import no_progress

MAX_START_STATES = 1000      # more start states than this: the SAT search takes the plan
MAX_GOAL_STATES = 100        # more goal states: the search grows from the start only
# a stored state with its dict entry and its place in a layer, measured: about
# 104 bytes and one a state element as bytes, 124 and eight an element as a tuple
BYTES_PER_STATE = (104, 1)
BYTES_PER_TUPLE_STATE = (124, 8)
MEMORY_SHARE = 0.5           # of the memory budget the states may take
CHECK_EVERY = 4096           # states expanded between two looks at the clock


@dataclass(eq=False)
class Found:
    """What the search found: ``status`` sat (``path``: the states from a
    start to a goal state, ``moves``: the move index of each step), unsat
    (no plan of at most ``bound`` moves; ``exhausted``: none at all, every
    one of the states the start reaches, or that reach the goal, was
    searched: why, in words), or
    budget (no plan of fewer than ``bound`` moves, and the cap was reached)."""
    status: str
    bound: int = 0
    path: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    exhausted: str | None = None
    stats: dict = field(default_factory=dict)


def try_search(plan, max_steps: int, forced: bool = False, progress=None) -> Found | None:
    """``search`` when the plan can be searched state by state; else None
    (the SAT search takes it), or with ``forced`` an error that says why.
    A forced search that reaches its cap is an error too."""
    try:
        found = search(plan, max_steps, progress=progress)
    except NotExplicit as e:
        if forced:
            raise PzcError(f"--plan-search states cannot search this plan: {e}") from None
        return None
    if forced and found.status == "budget":
        raise PzcError(f"--plan-search states stopped at {found.stats.get('states', 0):,} states "
                       f"(no plan of fewer than {found.bound} moves): leave the choice to pzc "
                       "(--plan-search auto) to go on with the SAT search")
    return found


def run_figures(found: Found, before_sat: bool = False) -> dict:
    """The result's stats of a search: alone (the backend "states"), or as
    the part before the SAT search (the key state_search)."""
    figures = {k: found.stats[k] for k in ("search", "states", "layers") if k in found.stats}
    figures.update(search_s=round(found.stats.get("compile_s", 0.0)
                                 + found.stats.get("search_s", 0.0), 4),
                   fewest_moves=found.bound)
    if before_sat:
        return {"state_search": figures}
    return {"backend": "states", "solver": found.stats.get("search"), "variables": None,
            "clauses": None, "encode_s": found.stats.get("compile_s", 0.0),
            "solve_s": found.stats.get("search_s", 0.0), "state_search": figures}


def state_cap(code) -> int:
    """The most states a search of ``code`` (a StateCode) keeps: what fits in
    MEMORY_SHARE of the memory budget."""
    fixed, each = BYTES_PER_STATE if code.compact else BYTES_PER_TUPLE_STATE
    return int(budget_bytes() * MEMORY_SHARE) // (fixed + each * len(code.elements))


def search(plan, max_steps: int, cap: int | None = None, both_ends: bool | None = None,
           progress=None) -> Found:
    """A shortest plan of at most ``max_steps`` moves, or why there is none.
    ``both_ends``: None decides by the rule above; False grows from the
    start only (True where the rule allows it)."""
    progress = progress or no_progress
    progress("encoding")
    started = time.perf_counter()
    code = StateCode(plan)
    cap = state_cap(code) if cap is None else cap
    starts = _states_where(plan, code, None, MAX_START_STATES)
    if starts is None:
        raise NotExplicit(f"it has more than {MAX_START_STATES} start states")
    stats = {}
    goals = None
    if both_ends is not False:
        inverses = inverse_moves(plan)
        if len(inverses) == len(plan.moves):
            goals = _states_where(plan, code, plan.goal0, MAX_GOAL_STATES)
    stats["compile_s"] = time.perf_counter() - started
    stats["search"] = "both ends" if goals is not None else "forward"
    begin = time.perf_counter()
    progress("solving")
    progress("depth", steps=0)
    found = (_from_both_ends(code, starts, goals, max_steps, cap, progress) if goals is not None
             else _forward(code, starts, max_steps, cap, progress))
    stats["search_s"] = time.perf_counter() - begin
    found.stats = dict(stats, **found.stats)
    if found.status == "sat":
        found.moves = [code.step(a, b) for a, b in zip(found.path, found.path[1:])]
        found.path = [code.decode(s) for s in found.path]
        found.moves = [code.keys[k] for k in found.moves]
    return found


def _forward(code, starts, max_steps, cap, progress) -> Found:
    goal, successors = code.goal, code.successors
    reached = dict.fromkeys(starts)
    for s in starts:
        if goal(s):
            return Found("sat", 0, [s], stats={"states": len(reached), "layers": 0})
    layer, depth = list(starts), 0
    while depth < max_steps:
        clock.check()
        progress("depth", steps=depth + 1)
        new = []
        for n, s in enumerate(layer):
            if not n % CHECK_EVERY:
                clock.check()
                if len(reached) > cap:
                    return Found("budget", depth + 1,
                                 stats={"states": len(reached), "layers": depth})
            for t in successors(s):
                if t not in reached:
                    reached[t] = s
                    new.append(t)
                    if goal(t):
                        return Found("sat", depth + 1, _path(reached, t)[::-1],
                                     stats={"states": len(reached), "layers": depth + 1})
        if not new:
            return Found("unsat", max_steps, exhausted=_every(len(reached), 0),
                         stats={"states": len(reached), "layers": depth})
        layer, depth = new, depth + 1
    return Found("unsat", max_steps, stats={"states": len(reached), "layers": depth})


def _from_both_ends(code, starts, goals, max_steps, cap, progress) -> Found:
    successors = code.successors
    sides = [dict.fromkeys(starts), dict.fromkeys(goals)]
    layers = [list(starts), list(goals)]
    depths = [0, 0]
    for s in starts:
        if s in sides[1]:
            return Found("sat", 0, [s], stats={"states": len(sides[0]) + len(sides[1])})
    while depths[0] + depths[1] < max_steps:
        clock.check()
        progress("depth", steps=depths[0] + depths[1] + 1)
        side = 0 if len(layers[0]) <= len(layers[1]) else 1
        mine, other = sides[side], sides[1 - side]
        new = []
        for n, s in enumerate(layers[side]):
            if not n % CHECK_EVERY:
                clock.check()
                if len(mine) + len(other) > cap:
                    return Found("budget", depths[0] + depths[1] + 1,
                                 stats=_figures(sides, depths))
            for t in successors(s):
                if t not in mine:
                    mine[t] = s
                    new.append(t)
                    if t in other:
                        depths[side] += 1
                        path = _path(sides[0], t)[::-1] + _path(sides[1], t)[1:]
                        return Found("sat", len(path) - 1, path, stats=_figures(sides, depths))
        if not new:
            return Found("unsat", max_steps, exhausted=_every(len(mine), side),
                         stats=_figures(sides, depths))
        layers[side] = new
        depths[side] += 1
    return Found("unsat", max_steps, stats=_figures(sides, depths))


def _every(states: int, side: int) -> str:
    return (f"the {states:,} states " + ("the start leads to" if side == 0 else
                                          "that lead to the goal") + " were all searched")


def _figures(sides, depths) -> dict:
    return {"states": len(sides[0]) + len(sides[1]), "layers": list(depths)}


def _path(reached, s) -> list:
    """s and the states it was reached from, back to a root."""
    out = [s]
    while reached[s] is not None:
        s = reached[s]
        out.append(s)
    return out


def _states_where(plan, code, node, most):
    """The states meeting every rule (and the start when ``node`` is None,
    else ``node``), listed by a SAT solver; None when there are more than
    ``most``."""
    model = plan.model
    enc = Encoder(model, "eager")
    for var in model.vars:
        enc.declare(var)
    for stmt, rule in model.constraints:
        if node is None or not isinstance(stmt, ast.Start):
            enc.assert_(rule)
    if node is not None:
        enc.assert_(node)
    lits = []
    for _, _, var in code.elements:
        got = enc.var_lits[var]
        lits += [got] if type(got) is int else list(got.values())
    lits = [l for l in lits if l not in (enc.true, -enc.true)]
    out = []
    with Solver(name="minisat22", bootstrap_with=enc.clauses) as solver:
        while solver.solve():
            if len(out) == most:
                return None
            true = set(l for l in solver.get_model() if l > 0)
            assignment = {}
            for _, _, var in code.elements:
                got = enc.var_lits[var]
                if type(got) is int:
                    assignment[var] = got in true or got == enc.true
                else:
                    assignment[var] = next(v for v, l in got.items()
                                           if l in true or l == enc.true)
            out.append(code.state_of(assignment))
            solver.add_clause([-l if l in true else l for l in lits])
    return out
