"""A trial, not a backend: connected(...) propagated inside CaDiCaL 1.9.5.

    python bench/propagator_trial.py nurikabe 'FILE.json#29_10x10' [--all] [--limit 120]

Issue 28 asked whether a connectivity propagator running inside the solver
(PySAT's IPASIR-UP hooks, ``Cadical195.connect_propagator``) solves what the
lazy cut rounds (encoder/connectivity.py) do not.  Here each lazy
connectivity constraint of the CNF (with --all: every connected(...), the
distance layers turned off) is watched by ConnectivityPropagator while
CaDiCaL searches, instead of being cut after whole models:

  * reachability: the elements a depth-first search from the root (the
    always-selected element, else the first selected one) reaches over the
    elements not yet deselected; an element it misses is deselected, with
    the reason "root and x selected -> one of the deselected elements on the
    reached part's border is selected" (a selected one missed: a conflict
    clause of the same form);
  * articulation points of that search: an undecided element whose removal
    cuts a selected element off the root is selected, with the reason built
    the same way from the root's part without it.

Every answer is decoded and checked by encoder/verify.py.  Each instance is
solved in a forked child killed after --limit seconds (PySAT's CaDiCaL takes
no interrupt).  Figures: docs/benchmarks.md, "Issue 28: the two Nurikabe
boards".  Found on the way: CaDiCaL does not notify literals fixed at the
root before the propagator observed them, re-notifies a literal with
``fixed`` set when it becomes fixed later (kept here across backtracking),
and loops when an external clause repeats a literal; the clauses here are
deduplicated.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

from pysat.engines import Propagator
from pysat.solvers import Solver

from pzc import api
from pzc.encoder import cnf as cnf_stage
from pzc.encoder import connectivity, verify
from pzc.encoder.cnf import read_assignment
from pzc.encoder.decode import decode
from pzc.encoder.ground import ground


class ConnectivityPropagator(Propagator):
    """Reachability and articulation-point propagation of LazyConnected items."""

    def __init__(self, items, true_lit):
        super().__init__()
        self.items = items
        self.true = true_lit
        self.value_of = {}               # variable -> bool, as notified
        self.fixed = {}                  # variables fixed at the root: never undone
        self.trail = []
        self.level_starts = []
        self.watching = {}               # variable -> indices of the items using it
        for k, item in enumerate(items):
            for lit in item.lits:
                if abs(lit) != abs(true_lit):
                    self.watching.setdefault(abs(lit), []).append(k)
        self.dirty = set(range(len(items)))
        self.reasons = {}
        self.clauses = []
        self.calls = self.propagated = self.conflicts = 0
        self.seconds = 0.0

    # ------------------------------------------------------------ notifications

    def on_assignment(self, lit, fixed=False):
        var = abs(lit)
        if fixed:
            self.fixed[var] = lit > 0
        if var in self.value_of:
            return
        self.value_of[var] = lit > 0
        self.trail.append(var)
        self.dirty.update(self.watching.get(var, ()))

    def on_new_level(self):
        self.level_starts.append(len(self.trail))

    def on_backtrack(self, to):
        if to >= len(self.level_starts):
            return
        cut = self.level_starts[to]
        del self.level_starts[to:]
        for var in self.trail[cut:]:
            if var in self.fixed:
                self.value_of[var] = self.fixed[var]
            else:
                del self.value_of[var]
            self.dirty.update(self.watching.get(var, ()))
        del self.trail[cut:]

    # ------------------------------------------------------------ the solver's questions

    def _value(self, lit):
        if lit == self.true:
            return True
        if lit == -self.true:
            return False
        v = self.value_of.get(abs(lit))
        return None if v is None else v if lit > 0 else not v

    def propagate(self):
        start = time.perf_counter()
        self.calls += 1
        out = []
        dirty, self.dirty = self.dirty, set()
        for k in sorted(dirty):
            out += self.check(self.items[k], self._value, full=False)
            if self.clauses:
                break
        self.propagated += len(out)
        self.seconds += time.perf_counter() - start
        return out

    def check_model(self, model):
        truth = {l for l in model if l > 0}
        t = self.true

        def value(lit):
            if lit == t or lit == -t:
                return lit == t
            return lit in truth if lit > 0 else -lit not in truth

        for item in self.items:
            self.check(item, value, full=True)
            if self.clauses:
                return False
        return True

    def provide_reason(self, lit):
        return self.reasons.pop(lit)

    def has_clause(self):
        return bool(self.clauses)

    def add_clause(self):
        return self.clauses.pop()

    def decide(self):
        return 0

    # ------------------------------------------------------------ the propagation

    def _clause(self, lits):
        return [l for l in dict.fromkeys(lits) if l != -self.true]

    def check(self, item, value, full) -> list:
        """Literals implied for one item (their reasons kept), or [] with a
        conflict clause queued; ``full``: a complete model, conflicts only."""
        lits, adjacent = item.lits, item.adjacent
        vals = [value(l) for l in lits]
        chosen = [i for i, v in enumerate(vals) if v]
        if not chosen:
            return []
        root = item.forced[0] if item.forced else chosen[0]
        head = [] if item.forced else [-lits[root]]
        order, parent, low, chosen_below, border = _search(root, adjacent, vals)
        tail = [lits[w] for w in sorted(border)]
        for u in chosen:
            if u not in parent:
                self.conflicts += 1
                self.clauses.append(self._clause([-lits[u]] + head + tail))
                return []
        if full:
            return []
        out = []
        for i, v in enumerate(vals):
            if v is None and i not in parent:
                self._imply(-lits[i], [-lits[i]] + head + tail, out)
        position = {x: n for n, x in enumerate(order)}
        for x in order[1:]:
            if vals[x] is not None:
                continue
            cut_off = [c for c in adjacent[x]
                       if parent.get(c) == x and low[c] >= position[x] and chosen_below[c]]
            if not cut_off:
                continue
            rest, rest_border = _reach_without(root, x, adjacent, vals)
            u = next(i for i in chosen if i not in rest)
            self._imply(lits[x], [lits[x], -lits[u]] + head + [lits[w] for w in sorted(rest_border)],
                        out)
        return out

    def _imply(self, lit, reason, out):
        if lit not in self.reasons and lit != self.true:
            self.reasons[lit] = self._clause(reason)
            out.append(lit)


def _search(root, adjacent, vals):
    """Depth-first search from ``root`` over the elements not deselected:
    (order, parent, low, chosen elements per subtree, the deselected
    elements next to the reached ones)."""
    parent = {root: None}
    position = {root: 0}
    order = [root]
    low = {root: 0}
    chosen_below = {root: 1 if vals[root] else 0}
    border = set()
    stack = [(root, iter(adjacent[root]))]
    while stack:
        x, rest = stack[-1]
        for y in rest:
            if vals[y] is False:
                border.add(y)
            elif y not in parent:
                parent[y] = x
                position[y] = low[y] = len(order)
                order.append(y)
                chosen_below[y] = 1 if vals[y] else 0
                stack.append((y, iter(adjacent[y])))
                break
            elif y != parent[x] and position[y] < low[x]:
                low[x] = position[y]
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                chosen_below[p] += chosen_below[x]
                low[p] = min(low[p], low[x])
    return order, parent, low, chosen_below, border


def _reach_without(root, skip, adjacent, vals):
    """The elements reached from ``root`` without passing ``skip``, and the
    deselected elements next to them."""
    seen = {root, skip}
    queue = [root]
    border = set()
    for x in queue:
        for y in adjacent[x]:
            if y in seen:
                continue
            if vals[y] is False:
                border.add(y)
                continue
            seen.add(y)
            queue.append(y)
    seen.discard(skip)
    return seen, border


def solve_one(spec_name, path, every):
    spec = api.load_spec(spec_name)
    inst = api.select_instance(spec, path)
    start = time.perf_counter()
    g = ground(spec, inst)
    if every:                         # every connected(...) to the propagator
        cnf_stage.BOUNDED_LIMIT = 0
        cnf_stage.LAYER_BUDGET = -1
    cnf = cnf_stage.encode(g.model, "lazy")
    encoded = time.perf_counter()
    solver = Solver(name="cadical195", bootstrap_with=cnf.clauses)
    engine = ConnectivityPropagator(cnf.lazy, cnf.true_lit)
    solver.connect_propagator(engine)
    for var in engine.watching:
        solver.observe(var)
    ok = solver.solve()
    solved = time.perf_counter()
    line = (f"{path}: {len(cnf.lazy)} propagated constraints, {cnf.nvars} variables, "
            f"{len(cnf.clauses)} clauses; compile {encoded - start:.2f} s, solve "
            f"{solved - encoded:.2f} s (propagator {engine.seconds:.2f} s, {engine.calls} calls, "
            f"{engine.propagated} implied, {engine.conflicts} conflicts); "
            f"{solver.accum_stats()['conflicts']} solver conflicts")
    if not ok:
        print(line + "; no answer", flush=True)
        return
    model = solver.get_model()
    truth = cnf_stage.truth_table(model, cnf.nvars)
    holds = lambda l: truth[l] == 1 if l > 0 else truth[-l] == 0   # noqa: E731
    assert not connectivity.cuts(cnf.lazy, holds), "an answer the propagator let through"
    problems = verify.verify(spec, inst, decode(g, read_assignment(cnf, model)))
    print(line + ("; verified" if not problems else f"; NOT VERIFIED: {problems[:3]}"),
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("instances", nargs="+", help="FILE#KEY, one instance each")
    ap.add_argument("--all", action="store_true",
                    help="every connected(...) to the propagator (no distance layers)")
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per instance")
    args = ap.parse_args()
    for path in args.instances:
        child = multiprocessing.get_context("fork").Process(
            target=solve_one, args=(args.spec, path, args.all))
        child.start()
        child.join(args.limit)
        if child.is_alive():
            child.kill()
            child.join()
            print(f"{path}: no answer in {args.limit:g} s", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
