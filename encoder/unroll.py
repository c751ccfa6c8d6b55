"""Stage: unroll.  A move puzzle (plan) grounded over time steps 0..T.

A plan spec declares `state` variables (one copy per step), `action`s with a
precondition and effects, a `start` and a `goal`.  Grounding happens once,
for the first transition, and every later step is a renamed copy:

    state at[c in cells] : tiles + {hole}
    action slide(a in cells, b in neighbours(a)):
        pre at[b] = hole
        set at[b] := at[a], at[a] := hole

grounds, for the transition from step t to t+1 and each pair of cells, to

    slide@t[a, b] -> at@t[b] = hole                      (precondition)
    slide@t[a, b] -> same(at@t+1[b], at@t[a])            (effects)
    slide@t[a, b] -> at@t+1[a] = hole
    not at@t[c] = v  or  at@t+1[c] = v  or  slide@t[c, _] or slide@t[_, c]
                                                           (frame: what no action sets stays)
    exactly one slide@t[...]                             (one action per step)

Rules that read a state hold in every state; rules that do not hold once;
`start` holds in state 0 and `goal` in state T.  The solve loop
(backends.deepen) adds one step at a time and asks for the goal in the newest
state, so the first plan found is a shortest one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime.deep_stack import deep_stack
from . import syntax as ast
from .interpreter.values import SYMBOLIC
from ..runtime.gc_pause import without_gc
from .ground import Ground, Grounder, check_clues, check_requires
from .model import LinExpr, Model, Node
from .undo import find_undo_pairs


@dataclass(eq=False)
class Transition:
    """The model parts one step adds: state t+1 and the actions t -> t+1."""
    variables: list          # new model Vars
    constraints: list        # new Nodes


@dataclass(eq=False)
class Move:
    """One grounded action: its precondition over state 0 and its effects,
    each (the state element after it, as a Var or bool Node of state 1; the
    value it gets: a constant or a term over state 0)."""
    pre: Node
    effects: list


class PlanGrounder(Grounder):
    """Reads `state` variables at ``self.step`` and notes that it did."""

    def __init__(self, spec, instance, model):
        super().__init__(spec, instance, model)
        self.step = 0
        self.state_tables = []    # step -> {state name: {key: Var}}

    def variable(self, stmt, key, node):
        if not stmt.state:
            return super().variable(stmt, key, node)
        self.state_reads += 1
        if self.step >= len(self.state_tables):
            raise self.err(node, "a state is read outside the plan's steps")
        var = self.state_tables[self.step][stmt.name].get(key)
        if var is None:
            shown = ", ".join(repr(k) for k in key)
            raise self.err(node, f"'{stmt.name}' has no element [{shown}] on this instance")
        return self.model.bvar(var) if var.domain is None else var

    def declare_states(self, t: int) -> list:
        """Model variables of every state at step t."""
        tables = {}
        made = []
        for stmt in self.spec.states.values():
            env = {}
            table = {}
            for guard in self.bind(stmt.binders, env):
                if guard is not None:
                    raise self.err(stmt, "the index set of a state must not depend on variables")
                key = _key(stmt.binders, env)
                var = self.model.new_var(f"{stmt.name}@{t}", key, self.domain_of(stmt, env))
                table[key] = var
                made.append(var)
            if not table and stmt.binders:
                raise self.err(stmt, f"'{stmt.name}' has no elements on this instance "
                                     "(its index set is empty)")
            tables[stmt.name] = table
        self.state_tables.append(tables)
        return made

    def at_step(self, t, node, env):
        """Evaluate ``node`` as a bool in state t; also says whether a state was read."""
        self.step = t
        reads = self.state_reads
        value = self.want_bool(node, self.eval(node, env))
        return (self.model.const(value) if type(value) is bool else value), self.state_reads > reads


def _key(binders, env) -> tuple:
    return tuple(env[b.names[0]] if len(b.names) == 1 else tuple(env[n] for n in b.names)
                 for b in binders)


@dataclass(eq=False)
class PlanGround(Ground):
    """A ground plan: step 0 in the model, and the templates for more steps."""
    steps: int = 0                                     # states 0..steps are in the model
    actions: list = field(default_factory=list)        # step -> {(action, params): Var}
    invariants: list = field(default_factory=list)     # Nodes over state 0, for every state
    goal0: object = None                               # the goal over state 0
    template: object = None                            # step 0 -> 1, over states 0 and 1
    template_actions: dict = field(default_factory=dict)
    targets: dict = field(default_factory=dict)        # (action, params) -> what it sets
    transitions: list = field(default_factory=list)    # step -> the Nodes extend() added
    undo_pairs: list = field(default_factory=list)     # [(action key, action key)]
    # what an explicit-state search reads (encoder/transitions.py), over states 0 and 1:
    moves: dict = field(default_factory=dict)          # (action, params) -> Move
    rules0: list = field(default_factory=list)         # the non-implied rules' Nodes over state 0

    @property
    def states(self) -> list:
        return self.interpreter.state_tables[:self.steps + 1]

    def goal(self, t: int):
        """The goal as a formula over state t."""
        return self.model.rename(self.goal0, self.state_map(0, t), {})

    def state_map(self, src: int, dst: int) -> dict:
        """Var map from the states src, src+1 to the states dst, dst+1."""
        tables = self.interpreter.state_tables
        out = {}
        for k in (0, 1):
            if src + k < len(tables) and dst + k < len(tables):
                for name, table in tables[src + k].items():
                    target = tables[dst + k][name]
                    for key, var in table.items():
                        out[var] = target[key]
        return out

    def extend(self) -> Transition:
        """Add step ``steps + 1``: its states, the actions leading to it, the
        frame, the one-action rule and the invariants, renamed from step 0."""
        t = self.steps
        g = self.interpreter
        made = []
        if t > 0:                # state 1 and the first actions came with the template
            made += g.declare_states(t + 1)
        varmap = self.state_map(0, t)
        acts = {}
        for key, var in self.template_actions.items():
            new = var if t == 0 else self.model.new_var(f"{key[0]}@{t}", var.key, None)
            varmap[var] = new
            acts[key] = new
            if t > 0:
                made.append(new)
        self.actions.append(acts)
        memo = {}
        nodes = [self.model.rename(n, varmap, memo) for n in self.template]
        step_map = self.state_map(0, t + 1)
        memo = {}
        nodes += [self.model.rename(n, step_map, memo) for n in self.invariants]
        self.transitions.append(nodes)
        self.steps = t + 1
        if t == 1:
            self.undo_pairs = find_undo_pairs(self)
        if t >= 1:
            m = self.model
            before, now = self.actions[t - 1], self.actions[t]
            nodes += [m.or_([m.not_(m.bvar(before[x])), m.not_(m.bvar(now[y]))])
                      for x, y in self.undo_pairs]
        return Transition(made, nodes)

    def _template_states(self) -> list:
        """State 1 and the transition template, grounded from the spec."""
        g = self.interpreter
        m = self.model
        made = g.declare_states(1)
        template = []
        setters = {}                  # (state name, key) -> action Vars that set it
        for action in self.spec.actions.values():
            env = {}
            for guard in g.bind(action.binders, env):
                if guard is not None:
                    raise g.err(action, "an action's parameters must not depend on variables")
                params = _key(action.binders, env)
                do = m.new_var(f"{action.name}@0", params, None)
                made.append(do)
                self.template_actions[(action.name, params)] = do
                fired = m.bvar(do)
                move = self.moves[(action.name, params)] = Move(m.TRUE, [])
                if action.pre is not None:
                    pre, _ = g.at_step(0, action.pre, env)
                    template.append(m.implies(fired, pre))
                    move.pre = pre
                for target, value in action.effects:
                    state, key = self._target(target, env)
                    g.step = 0
                    new_value = g.eval(value, env)
                    g.step = 1
                    after = g.variable(self.spec.vars[target_name(target)], key, target)
                    template.append(m.implies(fired, _equal(g, value, after, new_value)))
                    move.effects.append((after, new_value))
                    setters.setdefault((state, key), []).append(fired)
                    self.targets.setdefault((action.name, params), set()).add((state, key))
        if not self.template_actions:
            raise g.err(self.spec.plan, "no action has parameters on this instance, "
                                        "so no move can be made")
        firing = [m.bvar(v) for v in self.template_actions.values()]
        template.append(m.compare("=", LinExpr({f: 1 for f in firing}, 0), 1))
        for name, table in g.state_tables[0].items():
            for key, before in table.items():
                after = g.state_tables[1][name][key]
                by = setters.get((name, key), [])
                template += _frame(m, before, after, by)
        self.template = template
        return made

    def _target(self, target, env):
        g = self.interpreter
        name = target_name(target)
        stmt = self.spec.vars[name]
        if isinstance(target, ast.Name):
            return name, ()
        g.step = 0
        key = tuple(g.want_const(i, g.eval(i, env), "index of an effect") for i in target.indices)
        if len(key) != len(stmt.binders):
            raise g.err(target, f"'{name}' takes {len(stmt.binders)} index(es), not {len(key)}")
        if key not in g.state_tables[0][name]:
            shown = ", ".join(repr(k) for k in key)
            raise g.err(target, f"'{name}' has no element [{shown}] on this instance")
        return name, key


def target_name(target) -> str:
    return target.id if isinstance(target, ast.Name) else target.base.id


def _equal(g, node, after, value):
    """``after = value`` as a formula; after is a state Var or a bool Node."""
    m = g.model
    if type(after) is Node:
        if type(value) is bool:
            return after if value else m.not_(after)
        return m.iff(after, g.want_bool(node, value))
    if isinstance(value, SYMBOLIC):
        return m.equal(after, value)
    if value not in after.domain:
        raise g.err(node, f"this sets {after.name.split('@')[0]} to {value!r}, "
                          "which is outside its domain")
    return m.eq(after, value)


def _frame(m: Model, before, after, setters) -> list:
    """What no action sets keeps its value: one clause per value."""
    if before.domain is None:
        b, a = m.bvar(before), m.bvar(after)
        return [m.or_([m.not_(b), a] + setters), m.or_([b, m.not_(a)] + setters)]
    return [m.or_([m.not_(m.eq(before, v)), m.eq(after, v)] + setters) for v in before.domain]


@without_gc
@deep_stack
def unroll(spec: ast.Spec, instance) -> PlanGround:
    """Ground the timeless parts and state 0 of a plan spec."""
    model = Model()
    model.source = spec.source
    g = PlanGrounder(spec, instance, model)
    check_requires(g)
    check_clues(g)
    for stmt in spec.vars.values():
        if not stmt.state:
            g.declare(stmt)
    g.declare_states(0)
    pg = PlanGround(spec, instance, model, g)
    for rule in spec.rules:
        node, per_step = g.at_step(0, rule.body, {})
        (model.implied if rule.implied else model.constraints).append((rule, node))
        if per_step:
            pg.invariants.append(node)
        if not rule.implied:
            pg.rules0.append(node)
    for st in spec.starts:
        node, _ = g.at_step(0, st.body, {})
        model.constraints.append((st, node))
    goals = [g.at_step(0, st.body, {})[0] for st in spec.goals]
    pg.goal0 = model.and_(goals)
    # the first transition is grounded now, so that a mistake in an action is
    # reported even when the start already meets the goal
    pg._template_states()
    return pg
