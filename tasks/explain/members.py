"""Stage: explain.  Spec + instance -> the *members* of an explanation: every
clue, and every rule instance with the clues it states, each a formula that
a selector literal switches on or off.

A rule instance is one binding of a rule's top-level quantifiers (nested
`all`s at the top are one binding of all their names):

    rule sizes: all k in islands where clue(k) != "?": count(...) = clue(k)

gives one member per island k, ``rule sizes, k = (3, 4)``; a rule without a
top-level `all` is one member.  Implied rules are members too, marked
implied (they follow from the real rules with every clue, so they cannot be
background when clues are dropped).

A rule instance *states* the clue at cell k when its binding binds a name to
k itself, or when grounding it (its binders' sets, where-filters and body)
reads clue(k) or given(k) of a clue cell k (the interpreter records the
reads: evaluate.py's ``clue_reads``).  A clue's selector switches off every
rule instance that states it: dropping a clue drops what it says.  What the
clues do to the board's shape while grounding stays: variable domains, and
lets computed once from every clue (Akari's runs between walls, Nurikabe's
list of islands) are background, as are the variables' domains themselves.

The backends (tasks/explain/cores.py) encode each member under its guard, solve
under the assumption that every selector is true, and shrink the assumption
core by deletion to a minimal one (``shrink`` below).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...runtime import clock
from ...board.geometry import Edge, Segment
from ...encoder import syntax as ast
from ...encoder.interpreter.evaluate import restore, saved
from ...runtime.errors import PzcError
from ...runtime.gc_pause import without_gc
from ...encoder.builtins.clues import token_text
from ...encoder.ground import Ground, blank_tokens, board_option, declared
from ...encoder.instance import token_value
from ...encoder.verify import AnswerChecker
from ...encoder.interpreter.values import PSet

CLUE, RULE = "clue", "rule"


@dataclass(eq=False)
class Member:
    """One clue or one rule instance of an explanation."""
    kind: str                      # clue or rule
    cell: tuple | None = None      # clue: its cell
    value: object = None           # clue: its value
    rule: ast.Rule | None = None   # rule: the statement
    binding: list = field(default_factory=list)    # rule: [(name, value)] in binder order
    node: object = None            # rule: the ground formula (a model Node)
    states: tuple = ()             # rule: indices of the clue members it states
    cells: tuple = ()              # the cells it mentions (clue: its cell), for pictures

    @property
    def implied(self) -> bool:
        return self.rule is not None and self.rule.implied


@dataclass(eq=False)
class Members:
    ground: Ground                 # the model the formulas live in (variables, domains)
    members: list                  # clue members first (board order), then rule instances
    clue_index: dict               # clue cell -> index of its member


@without_gc
def members(spec: ast.Spec, instance, implied: bool = True) -> Members:
    """Ground ``spec`` on ``instance`` one rule instance at a time.  Rule
    instances that are true outright are left out (no core needs them);
    ``implied``: implied rules are members too (else left out)."""
    g = declared(spec, instance, listen=True)
    model = g.model
    clues = instance.clues
    order = [c for c in instance.geometry.cells if c in clues] if instance.geometry else []
    seen = set(order)
    order += [c for c in clues if c not in seen]
    out = [Member(CLUE, cell=c, value=clues[c], cells=(c,)) for c in order]
    index = {c: i for i, c in enumerate(order)}
    for rule in spec.rules:
        if rule.implied and not implied:
            continue
        model.memory.statement = rule
        body, binders = rule.body, []
        while isinstance(body, ast.Quant) and body.kind == "all":
            binders += body.binders
            body = body.body
        names = [n for b in binders for n in b.names]
        for env, guard, reads in _bindings(g, binders, {}, 0, None, frozenset()):
            clock.check()
            g.clue_reads = set()
            value = g.want_bool(body, g.eval(body, env))
            if type(value) is bool:
                value = model.const(value)
            if guard is not None:
                value = model.implies(guard, value)
            if value is model.TRUE:
                continue
            binding = [(n, env[n]) for n in names]
            stated = set(reads) | g.clue_reads
            stated.update(v for _, v in binding if _hashable(v) and v in clues)
            out.append(Member(RULE, rule=rule, binding=binding, node=value,
                              states=tuple(sorted(index[c] for c in stated if c in index)),
                              cells=_mentioned(binding, instance)))
    g.clue_reads = None
    model.memory = None
    g.release()
    return Members(Ground(spec, instance, model, g), out, index)


def _bindings(g, binders, env, i, guard, reads):
    """(env, guard, clue cells read) for every binding of ``binders``, like
    Interpreter.bind, with the clue cells each one's sets and filters read."""
    if i == len(binders):
        yield env, guard, reads
        return
    b = binders[i]
    g.clue_reads = set()
    coll = g.want_collection(b.source, g.eval(b.source, env))
    reads = reads | g.clue_reads
    names = b.names
    before = saved(env, names)
    try:
        for value in coll:
            if len(names) == 1:
                env[names[0]] = value
            else:
                g.unpack(b, env, value)
            here, mine = guard, reads
            if b.where is not None:
                g.clue_reads = set()
                w = g.want_bool(b.where, g.eval(b.where, env))
                mine = reads | g.clue_reads
                if w is False:
                    continue
                if w is not True:
                    here = w if here is None else g.model.and_([here, w])
            yield from _bindings(g, binders, env, i + 1, here, mine)
    finally:
        restore(env, names, before)


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _mentioned(binding, instance) -> tuple:
    """The board cells a binding names: a cell, an edge's two cells, the cells
    of a bound list or set."""
    cells = instance.geometry.cell_set if instance.geometry is not None else ()
    out = []

    def walk(v, depth=0):
        if type(v) is Edge:
            walk(v.a, depth)
            walk(v.b, depth)
        elif type(v) is tuple and len(v) == 2 and all(type(x) is int for x in v):
            if v in cells:
                out.append(v)
        elif isinstance(v, (tuple, PSet)) and depth < 2:
            for x in v:
                walk(x, depth + 1)

    for _, v in binding:
        walk(v)
    return tuple(dict.fromkeys(out))


def show_value(v) -> str:
    """A bound value as the language writes it: a cell (3, 4), a list [..],
    a set {..}, a symbol "x", an edge as its cells."""
    if type(v) is bool:
        return "true" if v else "false"
    if type(v) is str:
        import json
        return json.dumps(v, ensure_ascii=False)
    if type(v) in (Edge, Segment):
        return f"{type(v).__name__.lower()}({show_value(v.a)}, {show_value(v.b)})"
    if type(v) is PSet:
        return "{" + ", ".join(show_value(x) for x in v) + "}"
    if type(v) is tuple:
        if len(v) == 2 and all(type(x) is int for x in v):
            return f"({v[0]}, {v[1]})"
        return "[" + ", ".join(show_value(x) for x in v) + "]"
    return str(v)


# ------------------------------------------------------------------ shrinking

def closed(members: list, chosen) -> list:
    """``chosen`` (member indices) without what cannot matter: a rule
    instance whose stated clues are not all chosen is switched off, and a
    clue no chosen rule instance states switches nothing."""
    chosen = set(chosen)
    rules = [i for i in chosen if members[i].kind == RULE
             and all(c in chosen for c in members[i].states)]
    stated = {c for i in rules for c in members[i].states}
    return sorted(set(rules) | (stated & chosen))


def shrink(members: list, check, first_core) -> tuple:
    """A minimal unsatisfiable subset of members from an unsatisfiable one.

    ``check(indices) -> (sat, core)``: solve with exactly those selectors
    on; core (when unsat) is a subset of them that is unsat already.
    Deletion: each member is dropped in turn; if the rest is still unsat the
    candidate becomes that call's core (core trimming), else the member is
    necessary.  Returns (indices, number of check calls)."""
    candidate = closed(members, first_core)
    necessary = set()
    calls = 0
    # rule instances are tried first: dropping one leaves the clues it states
    # to be dropped on their own, and dropping a clue drops its rules too
    while True:
        todo = [i for i in candidate if i not in necessary]
        if not todo:
            return candidate, calls
        todo.sort(key=lambda i: (members[i].kind == CLUE, i))
        m = todo[0]
        trial = closed(members, [i for i in candidate if i != m])
        clock.check()
        sat, core = check(trial)
        calls += 1
        if sat:
            necessary.add(m)
        else:
            candidate = closed(members, set(core) & set(trial))
            necessary &= set(candidate)


# ------------------------------------------------------------------ suggestions

def clue_candidates(spec: ast.Spec, instance, first, second, limit: int = 4) -> list:
    """Clues that one solution (``first``, an enumerate.Solution) gives and
    the other (``second``) lacks: (cell, value) on cells without a clue, the
    cells where the boards differ first.  A clue's value for a solution is the
    spec's `generate clue` expression on it where there is one and it reads
    only the spec's variables, else the token the board shows there when it
    is a clue the board takes (its `clues:` set)."""
    line = spec.generate.cells.get("clue") if spec.generate is not None else None
    blanks = blank_tokens(spec)
    allowed = None
    option = board_option(spec, "clues")

    def from_token(sol, cell):
        token = sol.cells.get(cell)
        if token is None or token in blanks or (len(token) == 1 and token in blanks):
            return None
        value = token_value(token, instance.layout)
        return value if allowed is None or value in allowed else None

    def from_line(sol, cell):
        with AnswerChecker(spec, instance, sol.decoded) as checker:
            value = checker.eval(line.body, {line.cell: cell})
        if type(value) is bool or (isinstance(value, str) and (value in blanks or value == "")):
            return None
        return value

    if option is not None and option.value is not None:
        with AnswerChecker(spec, instance, first.decoded) as checker:
            allowed = checker.eval(option.value, {})
    cells = instance.geometry.cells if instance.geometry is not None else sorted(first.cells)
    differ = [c for c in cells if first.cells.get(c) != second.cells.get(c)]
    rest = [c for c in cells if c not in set(differ)]
    out = []
    for cell in differ + rest:
        if cell in instance.clues:
            continue
        pair = None
        for way in ([from_line] if line is not None else []) + [from_token]:
            try:
                pair = (way(first, cell), way(second, cell))
            except PzcError:             # a `generate clue` line reading generation-only
                continue                 # variables: the shown token then
            break
        if pair is None or pair[0] is None or pair[0] == pair[1]:
            continue
        out.append((cell, pair[0]))
        if len(out) >= limit:
            break
    return out


def with_clue(instance, cell, value):
    """A copy of ``instance`` with the clue ``value`` on ``cell``."""
    out = instance.copy()
    out.positions = dict(instance.positions)
    out.clues[cell] = value
    out.tokens[cell] = token_text(value, instance.layout)
    return out
