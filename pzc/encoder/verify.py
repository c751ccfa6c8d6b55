"""Stage: verify.  Re-check a decoded answer against the rules, with no solver.

The spec is interpreted again on the instance with every variable read as its
decoded value, so each rule folds to True or False by plain evaluation;
implied rules are skipped (they are redundant by definition).  Nothing from the
model, the encoding or the backend is used.
"""

from __future__ import annotations

from . import syntax as ast
from .evaluate import SYMBOLIC, Interpreter, describe


class Checker(Interpreter):
    """Reads spec variables as the answer's values."""

    def __init__(self, spec, instance, answer, touched=None):
        super().__init__(spec, instance, model=None)
        self.answer = answer
        self.touched = touched       # a set collecting (var name, key) read, if given

    def variable(self, stmt, key, node):
        if self.touched is not None:
            self.touched.add((stmt.name, key))
        table = self.answer.values.get(stmt.name, {})
        if key not in table:
            shown = ", ".join(repr(k) for k in key)
            raise self.err(node, f"'{stmt.name}' has no element [{shown}] on this instance")
        return table[key]


def verify(spec: ast.Spec, instance, answer) -> list:
    """The list of problems found (empty when the answer satisfies every rule)."""
    checker = Checker(spec, instance, answer)
    problems = []
    for stmt in spec.vars.values():
        problems += _check_domain(checker, stmt)
    for rule in spec.rules:
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


def _check_domain(checker, stmt):
    out = []
    env = {}
    table = checker.answer.values.get(stmt.name, {})
    expected = set()
    for _ in checker.bind(stmt.binders, env):
        key = tuple(env[b.names[0]] if len(b.names) == 1 else tuple(env[n] for n in b.names)
                    for b in stmt.binders)
        expected.add(key)
        value = table.get(key)
        if stmt.domain is None:
            ok = type(value) is bool
        else:
            dom = checker.eval(stmt.domain, env)
            ok = value in dom and type(value) is not bool
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
