"""Stage: verify.  Re-check a decoded answer against the rules, with no solver.

The spec is interpreted again on the instance with every variable read as its
decoded value, so each rule folds to True or False by plain evaluation;
implied rules are skipped (they are redundant by definition).  Nothing from the
model, the encoding or the backend is used.
"""

from __future__ import annotations

from ..runtime.deep_stack import deep_stack
from . import syntax as ast
from ..runtime.gc_pause import without_gc
from .interpreter.evaluate import Interpreter
from .interpreter.plain import PlainClosures, names_read
from .interpreter.values import SYMBOLIC, describe

_MISSING = object()


class AnswerChecker(PlainClosures, Interpreter):
    """Reads spec variables as the answer's values."""

    def __init__(self, spec, instance, answer, touched=None):
        self.answer = answer
        self.touched = touched       # a set collecting (var name, key) read, if given
        self.step = -1               # which state a plan's `state` reads (-1: the last)
        super().__init__(spec, instance, model=None)

    def variable(self, stmt, key, node):
        if self.touched is not None:
            self.touched.add((stmt.name, key))
        if stmt.state or self.place_reads:
            # not cached (evaluate.py keeps let values read from no state): a
            # state's value is per step, and each place of a board drawn with
            # ``reads`` (render.cell_tokens) records its own reads
            self.state_reads += 1
        if stmt.state:
            table = self.answer.states[self.step].get(stmt.name, {})
        else:
            table = self.answer.values.get(stmt.name, {})
        if key not in table:
            shown = ", ".join(repr(k) for k in key)
            raise self.err(node, f"'{stmt.name}' has no element [{shown}] on this instance")
        return table[key]

    def reader(self, stmt):
        if stmt.state or self.touched is not None:
            return super().reader(stmt)
        table = self.answer.values.get(stmt.name, {})
        variable = self.variable

        def read(key, node):
            value = table.get(key, _MISSING)
            return value if value is not _MISSING else variable(stmt, key, node)
        return read


@without_gc
@deep_stack
def verify(spec: ast.Spec, instance, answer) -> list:
    """The list of problems found (empty when the answer satisfies every rule)."""
    with AnswerChecker(spec, instance, answer) as checker:
        if spec.plan is not None:
            return _verify_plan(checker)
        problems = []
        for stmt in spec.vars.values():
            problems += _check_domain(checker, stmt)
        problems += _check_rules(checker)
        return problems


def _check_rules(checker) -> list:
    problems = []
    for rule in checker.spec.rules:
        if rule.implied:
            continue
        value = checker.eval(rule.body, {})
        if isinstance(value, SYMBOLIC) or type(value) is not bool:
            problems.append(f"rule {rule.name} did not evaluate to true or false "
                            f"({describe(value)})")
        elif not value:
            problems.append(f"rule {rule.name} (line {rule.pos[0]}) is broken"
                            + _first_violation(checker, rule))
    return problems


def _holds(checker, node, env, what) -> list:
    value = checker.eval(node, env)
    if type(value) is not bool:
        return [f"{what} did not evaluate to true or false ({describe(value)})"]
    return [] if value else [f"{what} does not hold"]


def _verify_plan(checker) -> list:
    """A plan: the start holds in state 0, each step's action is one of the
    spec's, its precondition holds before it, the next state is the one
    before with the action's effects (and nothing else) changed, every rule
    holds in every state and the goal in the last."""
    spec, answer = checker.spec, checker.answer
    problems = []
    for stmt in spec.vars.values():
        if not stmt.state:
            problems += _check_domain(checker, stmt)
    for t in range(len(answer.states)):
        checker.step = t
        for stmt in spec.states.values():
            problems += [f"{p} in state {t}" for p in _check_domain(checker, stmt)]
        problems += [f"{p} in state {t}" for p in _check_rules(checker)]
        if problems:
            return problems
    checker.step = 0
    for st in spec.starts:
        problems += _holds(checker, st.body, {}, f"the start on line {st.pos[0]}")
    for t, (name, params) in enumerate(answer.actions):
        checker.step = t
        problems += _check_step(checker, t, spec.actions.get(name), params)
        if problems:
            return problems
    checker.step = len(answer.states) - 1
    for st in spec.goals:
        problems += _holds(checker, st.body, {}, f"the goal on line {st.pos[0]}")
    return problems


def _check_step(checker, t, action, params) -> list:
    what = f"move {t + 1}"
    if action is None:
        return [f"{what} is not an action of the spec"]
    scratch = {}
    names = [n for b in action.binders for n in b.names]
    env = None
    for _ in checker.bind(action.binders, scratch):
        if tuple(_param_key(action, scratch)) == params:
            env = dict(scratch)      # bind() restores its names when it stops
            break
    if env is None:
        return [f"{what}: {action.name}{params!r} is not one of the action's parameter choices"]
    problems = []
    if action.pre is not None:
        problems += _holds(checker, action.pre, env, f"{what}: the precondition of {action.name}")
    before = checker.answer.states[t]
    expected = {name: dict(table) for name, table in before.items()}
    for target, value in action.effects:
        name = target.id if isinstance(target, ast.Name) else target.base.id
        key = () if isinstance(target, ast.Name) else tuple(checker.eval(i, env) for i in target.indices)
        expected[name][key] = checker.eval(value, env)
    after = checker.answer.states[t + 1]
    for name, table in expected.items():
        for key, value in table.items():
            if after[name].get(key) != value:
                problems.append(f"{what} ({action.name} with "
                                + ", ".join(f"{n} = {env[n]!r}" for n in names)
                                + f"): {name}{list(key)} is {after[name].get(key)!r} after it, "
                                f"but the action makes it {value!r}")
    return problems


def _param_key(action, env):
    for b in action.binders:
        yield env[b.names[0]] if len(b.names) == 1 else tuple(env[n] for n in b.names)


def _check_domain(checker, stmt):
    out = []
    env = {}
    if stmt.state:
        table = checker.answer.states[checker.step].get(stmt.name, {})
    else:
        table = checker.answer.values.get(stmt.name, {})
    expected = set()
    single = stmt.binders[0].names[0] if (len(stmt.binders) == 1
                                          and len(stmt.binders[0].names) == 1) else None
    # a domain that reads no binder is the same for every element
    names = {n for b in stmt.binders for n in b.names}
    constant = stmt.domain is not None and not names & names_read(stmt.domain)
    dom = _MISSING
    for _ in checker.bind(stmt.binders, env):
        if single is not None:
            key = (env[single],)
        else:
            key = tuple(env[b.names[0]] if len(b.names) == 1 else tuple(env[n] for n in b.names)
                        for b in stmt.binders)
        expected.add(key)
        value = table.get(key)
        if stmt.domain is None:
            ok = type(value) is bool
        else:
            if dom is _MISSING or not constant:
                dom = checker.eval(stmt.domain, env)
            ok = type(value) is not bool and value in dom
        if not ok:
            out.append(f"{stmt.name}{list(key)} = {value!r} is outside its domain")
    if set(table) != expected:
        out.append(f"{stmt.name} has values for the wrong index set")
    return out


def _first_violation(checker, rule) -> str:
    """Where an `all` rule fails: the binder values of its first false case."""
    body = rule.body
    if not isinstance(body, ast.Quant) or body.kind != "all":
        return ""
    env = {}
    for _ in checker.bind(body.binders, env):
        if checker.eval(body.body, env) is False:
            names = [n for b in body.binders for n in b.names]
            return " at " + ", ".join(f"{n} = {env[n]!r}" for n in names)
    return ""
