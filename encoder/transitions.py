"""Stage helper for plans: a ground plan as Python code over concrete states.

An explicit-state search (backends/states.py) walks from state to state
instead of asking a solver.  The ground plan already holds every action as
formulas over states 0 and 1 (encoder/unroll.py keeps each one's precondition
and effects); here they become Python functions, compiled once.  A state is
the tuple of its elements' value indexes (``bytes`` when every domain has at
most 256 values).  For

    action slide(a in cells, b in neighbours(a)):
        pre at[b] = hole and at[a] != hole
        set at[b] := at[a], at[a] := hole

and a = (0, 0), b = (0, 1) on a 2 x 2 board (state: the indexes of at[c] in
reading order, the hole's index 3) the function is

    def move_0(s):
        if not ((s[1] == 3) and (not (s[0] == 3))): return None
        t = bytearray(s)
        t[1] = s[0]
        t[0] = 3
        if not (...the rules that read at[(0, 0)] or at[(0, 1)], on t...): return None
        return bytes(t)

``successors(s)`` tries only the moves whose precondition's first `x = v`
(here at[(0, 1)] = ".") holds in s.

The rules checked after a move are those parts of the spec's non-implied
rules (split at their top-level `and`) that read an element the move sets:
the others held before and still hold.  A plan this cannot express (a
variable that is not a state, `connected`, a formula too large to compile)
raises NotExplicit, and the SAT search takes it.
"""

from __future__ import annotations

from .model import Cases, LinExpr, Node, Var

MAX_SOURCE_CHARS = 5_000_000       # past this the generated code is not worth compiling


class NotExplicit(Exception):
    """The plan cannot be searched state by state (the message says why)."""


class StateCode:
    """A plan's states and moves as compiled Python code.

    ``successors(s)``: the next states of the moves that apply in state s
    (``step`` finds the move between two); ``goal(s)``: whether the goal
    holds in s;
    ``keys[k]``: move k's (action name, parameters); ``encode``/``decode``:
    between a state and {state name: {key: value}}."""

    def __init__(self, plan):
        if plan.model.spec_vars:
            raise NotExplicit("it has variables that are not states "
                              f"({', '.join(sorted(plan.model.spec_vars))})")
        tables = plan.interpreter.state_tables
        self.plan = plan
        self.elements = []                   # (state name, key, Var of state 0)
        self.position = {}                   # Var of state 0 or 1 -> its index in a state
        for name, table in tables[0].items():
            for key, var in table.items():
                self.position[var] = self.position[tables[1][name][key]] = len(self.elements)
                self.elements.append((name, key, var))
        self.domains = [(False, True) if v.domain is None else v.domain
                        for _, _, v in self.elements]
        self.index_of = [{value: i for i, value in enumerate(d)} for d in self.domains]
        self.compact = all(len(d) <= 256 for d in self.domains)
        self.keys = list(plan.moves)
        self._constants = []
        self._chars = 0
        ns = {"D": self.domains, "X": self.index_of, "K": self._constants}
        rules = _conjuncts(plan.model.and_(plan.rules0))
        reads = [self._reads(r) for r in rules]
        source = ["def goal(s):", f"    return {self._formula(plan.goal0, 's')}"]
        keyed, free = {}, []
        for k, key in enumerate(self.keys):
            move = plan.moves[key]
            source += self._move_source(k, move, [r for r, used in zip(rules, reads)
                                                  if used & self._targets(move)])
            at = self._key_literal(move.pre)
            if at is None:
                free.append(k)
            else:
                keyed.setdefault(at[0], {}).setdefault(at[1], []).append(k)
        source += self._dispatch_source(keyed, free)
        text = "\n".join(source)
        try:
            exec(compile(text, "<plan moves>", "exec"), ns)
        except (SyntaxError, RecursionError, MemoryError) as e:
            raise NotExplicit(f"its moves do not compile as Python ({type(e).__name__})") from None
        self.goal, self.successors = ns["goal"], ns["successors"]
        self.moves = [ns[f"move_{k}"] for k in range(len(self.keys))]

    # ---------------------------------------------------------- states

    def encode(self, values: dict) -> bytes | tuple:
        """The state giving each element the value in {name: {key: value}}."""
        out = [self.index_of[i][values[name][key]] for i, (name, key, _) in enumerate(self.elements)]
        return bytes(out) if self.compact else tuple(out)

    def decode(self, state) -> dict:
        out = {}
        for i, (name, key, var) in enumerate(self.elements):
            out.setdefault(name, {})[key] = self.domains[i][state[i]]
        return out

    def state_of(self, assignment: dict):
        """The state of a model assignment to the Vars of state 0."""
        values = {}
        for name, key, var in self.elements:
            value = assignment[var]
            values.setdefault(name, {})[key] = bool(value) if var.domain is None else value
        return self.encode(values)

    def step(self, before, after) -> int:
        """The first move (in the spec's order) that leads from before to after."""
        for k, move in enumerate(self.moves):
            if move(before) == after:
                return k
        raise AssertionError("no move leads between two states of a found path")

    # ---------------------------------------------------------- code

    def _move_source(self, k, move, rules) -> list:
        lines = [f"def move_{k}(s):"]
        if move.pre is not self.plan.model.TRUE:
            lines.append(f"    if not {self._formula(move.pre, 's')}: return None")
        lines.append("    t = bytearray(s)" if self.compact else "    t = list(s)")
        written = set()
        for after, value in move.effects:
            var = after.args[0] if type(after) is Node else after
            j = self._at(var)
            if j in written:           # a second value for one element: both must agree
                lines.append(f"    if t[{j}] != {self._index_code(j, value)}: return None")
                continue
            written.add(j)
            code = self._index_code(j, value)
            if code.startswith("X["):
                lines += [f"    v = {code}", "    if v is None: return None", f"    t[{j}] = v"]
            else:
                lines.append(f"    t[{j}] = {code}")
        if rules:
            lines.append(f"    if not {self._formula(self.plan.model.and_(rules), 't')}: "
                         "return None")
        lines.append("    return bytes(t)" if self.compact else "    return tuple(t)")
        return lines

    def _index_code(self, j, value) -> str:
        """Code for the index, in element j's domain, of ``value`` (None: outside it)."""
        t = type(value)
        if t is Var and value.domain is not None:
            i = self._at(value)
            if self.domains[i] == self.domains[j]:
                return f"s[{i}]"
        elif t is Node:
            if self.domains[j] == (False, True):
                return f"(1 if {self._formula(value, 's')} else 0)"
        elif t not in (LinExpr, Cases):
            index = self.index_of[j].get(value)
            if index is None or isinstance(value, bool) != (self.domains[j] == (False, True)):
                raise NotExplicit(f"an effect's value {value!r} is outside its element's domain")
            return str(index)
        return f"X[{j}].get({self._value(value, 's')})"

    def _dispatch_source(self, keyed, free) -> list:
        """successors(s): only the moves whose key literal holds are tried."""
        lines = ["def successors(s):", "    out = []"]
        for i, by_value in keyed.items():
            lines.append(f"    v = s[{i}]")
            for n, (value, ks) in enumerate(by_value.items()):
                lines.append(f"    {'if' if n == 0 else 'elif'} v == {value}:")
                lines += _try_moves(ks, "        ")
        lines += _try_moves(free, "    ")
        lines.append("    return out")
        return lines

    def _key_literal(self, pre):
        """(element, value index) that a move's precondition requires, if any."""
        for part in _conjuncts(pre):
            if part.kind == "eq" and part.args[0] in self.position:
                i = self._at(part.args[0])
                return i, self.index_of[i][part.args[1]]
            if part.kind == "bvar" and part.args[0] in self.position:
                return self._at(part.args[0]), 1
            if part.kind == "not" and part.args[0].kind == "bvar" \
                    and part.args[0].args[0] in self.position:
                return self._at(part.args[0].args[0]), 0
        return None

    def _targets(self, move) -> set:
        return {self._at(a.args[0] if type(a) is Node else a) for a, _ in move.effects}

    def _at(self, var) -> int:
        i = self.position.get(var)
        if i is None:
            raise NotExplicit(f"it reads {var.label()}, which is not a state")
        return i

    def _reads(self, node) -> set:
        """The elements a formula reads."""
        out, seen, stack = set(), set(), [node]
        while stack:
            x = stack.pop()
            if type(x) is Var:
                out.add(self._at(x))
            elif type(x) in (Node, Cases) and x.uid not in seen:
                seen.add(x.uid)
                stack.extend(_parts(x))
            elif type(x) is tuple:
                stack.extend(x)
        return out

    def _formula(self, node, s) -> str:
        """A bool-valued Python expression for ``node`` over the state named s."""
        k, a = node.kind, node.args
        if k == "true":
            return "True"
        if k == "false":
            return "False"
        if k == "eq":
            i = self._at(a[0])
            return f"({s}[{i}] == {self.index_of[i][a[1]]})"
        if k == "bvar":
            return f"({s}[{self._at(a[0])}] == 1)"
        if k == "not":
            return f"(not {self._formula(a[0], s)})"
        if k in ("and", "or"):
            return self._grown("(" + f" {k} ".join(self._formula(x, s) for x in a) + ")")
        if k == "iff":
            return f"({self._formula(a[0], s)} == {self._formula(a[1], s)})"
        if k == "lin":
            terms, op, bound = a
            total = " + ".join(f"{c} * {self._value(t, s)}" for c, t in terms)
            return self._grown(f"({total} {'==' if op == '=' else op} {bound})")
        if k == "same":
            return f"({self._value(a[0], s)} == {self._value(a[1], s)})"
        if k == "distinct":
            return self._grown(f"(len({{{', '.join(self._value(x, s) for x in a)}}}) == {len(a)})")
        raise NotExplicit(f"its rules use {k}(...), which the state search does not evaluate")

    def _value(self, term, s) -> str:
        """A Python expression for the value of a term (int, symbol or bool)."""
        t = type(term)
        if t is Node:
            return f"({self._formula(term, s)})"
        if t is Var:
            i = self._at(term)
            return f"D[{i}][{s}[{i}]]"
        if t is Cases:
            parts = [f"{self._constant(v)} if {self._formula(c, s)} else" for c, v in term.pairs[:-1]]
            return self._grown("(" + " ".join(parts + [self._constant(term.pairs[-1][1])]) + ")")
        if t is LinExpr:
            total = " + ".join(f"{c} * {self._value(x, s)}" for x, c in term.terms.items())
            return self._grown(f"({total} + {term.const})")
        return self._constant(term)

    def _constant(self, value) -> str:
        if type(value) is int or type(value) is bool:
            return repr(value)
        self._constants.append(value)
        return f"K[{len(self._constants) - 1}]"

    def _grown(self, code: str) -> str:
        self._chars += len(code)
        if self._chars > MAX_SOURCE_CHARS:
            raise NotExplicit("its formulas are too large to compile as Python")
        return code


def _try_moves(ks, indent) -> list:
    out = []
    for k in ks:
        out += [f"{indent}t = move_{k}(s)", f"{indent}if t is not None: out.append(t)"]
    return out


def _conjuncts(node) -> list:
    return list(node.args) if node.kind == "and" else [node]


def _parts(x) -> list:
    """The sub-terms of a Node or Cases."""
    if type(x) is Cases:
        return [p for pair in x.pairs for p in pair]
    if x.kind == "lin":
        return [t for _, t in x.args[0]]
    if x.kind == "eq":
        return [x.args[0]]
    return list(x.args)
