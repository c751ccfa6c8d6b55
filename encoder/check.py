"""Stage: check.  Static checks of a parsed spec, before any instance is read.

Finds unknown names (with a suggestion), calls with the wrong number of
arguments, variables indexed wrongly, bools used as ints and ints as bools,
rules that are not bool, bad board options and bad domains.  Types are
inferred bottom-up; what depends on the instance (a clue, a JSON field) is
``any`` here and is checked again while grounding.

    rule r: all c in cells: v[c] + full[c] = 2     # full is bool
                                   ^ a bool is used as an int here
"""

from __future__ import annotations

import difflib

from ..runtime.deep_stack import deep_stack
from ..runtime.errors import PzcError, plural
from . import syntax as ast
from .syntax import ANSWER_SHAPES, LAYER_SHAPES
from .builtins import FUNCTIONS as BUILTIN_FUNCTIONS, VALUES as BUILTIN_VALUES
from .builtins.draws import DRAWING
from .interpreter.aggregates import AGGREGATES
from .interpreter.evaluate import BUILTIN_NAMES
from .interpreter.operators import int_power
from .interpreter.values import ANY, BOOL, CELL, EDGE, INT, SEGMENT, SYM, coll

def _is_coll(t):
    return isinstance(t, tuple)


def _elem(t):
    return t[1] if _is_coll(t) else ANY


# the built-ins declare their static types where they are defined (board/)
_VALUE_TYPES = {name: type_ for name, (type_, _) in BUILTIN_VALUES.items()}
# name -> (argument types, result type)
_FUNCTION_TYPES = {name: (params, result) for name, (params, result, _) in BUILTIN_FUNCTIONS.items()}

BOARD_KINDS = ("square", "hex", "json")
BOARD_OPTIONS = {"clues": "a set of allowed clue values, e.g. clues: 1..n",
                 "blank": 'the characters that mark an empty cell, e.g. blank: ".0"',
                 "lines": "accept one puzzle per line (n*n characters each)",
                 "each": 'a JSON file holds one instance per element of this list field, '
                         'e.g. each: "challenges"',
                 "target": "an instance may give a second grid of its size after one blank "
                           "line, read with target(c)",
                 "outside": 'sides of the board that hold clues outside the grid, e.g. '
                            'outside: "top left" (top, bottom, left, right)',
                 "lists": "every clue is a list of numbers (1,1,3 in a cell; a line a clue "
                          "outside the grid)",
                 "letters": "capital letters are symbols, not the numbers 10..35",
                 "points": "the clue grid gives the corners of the cells (dots), "
                           "one row and one column more than the cells",
                 "doubled": "the clue grid is the doubled grid, 2h+1 rows of 2w+1 places: the "
                            "cells, the sides between them and the corners (places)"}
SIDES = ("top", "bottom", "left", "right")


def _type_name(t) -> str:
    if _is_coll(t):
        return "a set"
    return {BOOL: "a bool", INT: "an int", SYM: "a symbol", CELL: "a cell",
            EDGE: "an edge", SEGMENT: "a segment", ANY: "a value"}[t]


class SpecChecker:
    def __init__(self, spec: ast.Spec):
        self.spec = spec
        self.source = spec.source
        self.let_types = {}
        self._busy = set()

    def err(self, node, message):
        return self.source.error(node.pos, message)

    # ----------------------------------------------------------- statements

    def run(self):
        spec = self.spec
        self.check_board(spec.board)
        self.check_grids()
        for name, let in spec.lets.items():
            if name in BUILTIN_NAMES and not (spec.board.kind == "json" and name == "cells"):
                raise self.err(let, f"'{name}' is a built-in name; choose another name")
        for name, var in spec.vars.items():
            if name in BUILTIN_NAMES:
                raise self.err(var, f"'{name}' is a built-in name; choose another name")
        for st in spec.statements:
            if isinstance(st, ast.Let):
                scope = {p: ANY for p in st.params} if st.params is not None else {}
                if st.params is None:
                    self.let_type(st.name, st)
                else:
                    self.infer(st.body, scope)
            elif isinstance(st, ast.Var):
                scope = {}
                self.binders(st.binders, scope)
                d = st.domain
                if (isinstance(d, ast.Range) and isinstance(d.low, ast.Num)
                        and isinstance(d.high, ast.Num) and d.low.value > d.high.value):
                    raise self.err(d, f"the domain of '{st.name}' is empty: "
                                      f"{d.low.value}..{d.high.value} has no values")
                if isinstance(d, ast.Collection) and d.kind != "tuple" and not d.items:
                    raise self.err(d, f"the domain of '{st.name}' is empty")
                if st.domain is not None:
                    t = self.infer(st.domain, scope)
                    if t in (INT, BOOL, SYM, CELL, EDGE, SEGMENT):
                        raise self.err(st.domain, "a domain is 'bool', a range such as 1..9 "
                                                  f"or a set, not {_type_name(t)}")
            elif isinstance(st, ast.Rule):
                self.want(st.body, self.infer(st.body, {}), BOOL, "a rule")
                self.polarity(st.body, 1, set())
            elif isinstance(st, ast.Require):
                self.want(st.test, self.infer(st.test, {}), BOOL, "a require")
                used = self.uses_variables(st.test, set())
                if used is not None:
                    raise self.err(used, "a require checks the instance, so it must not "
                                         "depend on the puzzle's variables")
            elif isinstance(st, ast.ShowCell):
                self.infer(st.body, {st.cell: CELL})
            elif isinstance(st, ast.ShowCanvas):
                self.want(st.height, self.infer(st.height, {}), INT, "the height of a grid")
                self.want(st.width, self.infer(st.width, {}), INT, "the width of a grid")
                self.infer(st.body, {st.point: CELL})
            elif isinstance(st, ast.ShowMoves):
                scope = {}
                self.binders(st.binders, scope)
                for _, expr in st.fields:
                    self.infer(expr, scope)
            elif isinstance(st, ast.Action):
                self.action(st)
            elif isinstance(st, (ast.Start, ast.Goal)):
                what = "a start" if isinstance(st, ast.Start) else "a goal"
                self.want(st.body, self.infer(st.body, {}), BOOL, what)
                self.polarity(st.body, 1, set())
            elif isinstance(st, ast.Draw):
                self.draw(st)
            elif isinstance(st, ast.ShowSteps) and st.action in spec.actions:
                scope = {}
                self.binders(spec.actions[st.action].binders, scope)
                for _, expr in st.fields:
                    self.infer(expr, scope)
        if (spec.show_cell is None and spec.show_moves is None and spec.show_text is None
                and not spec.show_steps):
            raise self.source.error(spec.puzzle.pos, "the spec shows nothing: add 'show v' "
                                    "(a variable per cell), 'show c: expr', 'show moves(...)' "
                                    "or, in a plan, 'show moves ACTION: ...'")

    def draw(self, st: ast.Draw):
        """`draw TARGET [in VALUES] as SHAPE`: the answer or a layer the spec has,
        a shape that suits it, and values that do not depend on the variables."""
        layers = self.spec.layer_names
        if st.target != "answer" and st.target not in layers:
            raise self.err(st, f"'{st.target}' is neither 'answer' nor a layer of this spec "
                               f"(layers: {', '.join(layers)})")
        shapes = ANSWER_SHAPES if st.target == "answer" else LAYER_SHAPES
        if st.shape not in shapes:
            what = "the answer" if st.target == "answer" else "a layer"
            raise self.source.error(st.shape_pos, f"'{st.shape}' is not a shape for {what}; "
                                                  f"choose one of: {', '.join(shapes)}")
        if st.values is not None:
            self.infer(st.values, {})
            used = self.uses_variables(st.values, set())
            if used is not None:
                raise self.err(used, "the values a drawing hint is about must not depend "
                                     "on the puzzle's variables")

    def action(self, st: ast.Action):
        """Parameters range over constant sets; `pre` is a bool; each effect
        sets one element of a state to a value of its domain."""
        scope = {}
        self.binders(st.binders, scope)
        if st.pre is not None:
            self.want(st.pre, self.infer(st.pre, scope), BOOL, "a precondition")
            self.polarity(st.pre, 1, set())
        for target, value in st.effects:
            name = target.id if isinstance(target, ast.Name) else getattr(target.base, "id", None)
            var = self.spec.vars.get(name)
            if var is None or not var.state:
                raise self.err(target, "the left side of ':=' is a state variable, such as at[c]")
            t = self.infer(target, scope)
            v = self.infer(value, scope)
            if (t == BOOL) != (v == BOOL) and ANY not in (t, v):
                raise self.err(value, f"'{name}' holds {_type_name(t)}, but this is {_type_name(v)}")
        for b in st.binders:
            used = self.uses_variables(b.source, set())
            if used is not None:
                raise self.err(used, "an action's parameters range over constant sets, so "
                                     "they must not depend on the puzzle's variables")

    def check_board(self, board):
        if board.kind not in BOARD_KINDS:
            raise self.source.error(board.kind_pos, f"unknown board kind '{board.kind}'; "
                                    f"choose {', '.join(BOARD_KINDS)}")
        seen = set()
        for opt in board.options:
            if opt.name not in BOARD_OPTIONS:
                raise self.source.error(opt.pos, f"unknown board option '{opt.name}'; options: "
                                        + ", ".join(BOARD_OPTIONS))
            if opt.name in seen:
                raise self.source.error(opt.pos, f"board option '{opt.name}' is given twice")
            seen.add(opt.name)
            if opt.name in ("lines", "target", "lists", "letters", "points", "doubled"):
                if opt.value is not None:
                    raise self.source.error(opt.pos, f"'{opt.name}' takes no value")
                if board.kind != "square":
                    raise self.source.error(opt.pos, f"'{opt.name}' is for square boards")
            elif opt.value is None:
                raise self.source.error(opt.pos, f"'{opt.name}' needs a value: {BOARD_OPTIONS[opt.name]}")
            elif opt.name == "each" and (board.kind != "json" or not isinstance(opt.value, ast.Str)):
                raise self.source.error(opt.pos, f"'each' is for json boards and names a field: "
                                                 f"{BOARD_OPTIONS['each']}")
            elif opt.name == "outside" and board.kind != "square":
                raise self.source.error(opt.pos, "'outside' is for square boards")
            elif opt.name == "outside":
                self.check_sides(opt.value)
            elif opt.name == "blank" and not isinstance(opt.value, ast.Str):
                raise self.source.error(opt.pos, f"'blank' is a string: {BOARD_OPTIONS['blank']}")
            elif opt.name == "clues":
                t = self.infer(opt.value, {})
                if not (_is_coll(t) or t == ANY):
                    raise self.err(opt.value, f"'clues' is {BOARD_OPTIONS['clues']}")
        for grid, what, other in (("points", "a board of dot clues", "doubled"),
                                  ("doubled", "a doubled grid", "points")):
            if grid in seen and seen & {"outside", "lines", "target", other}:
                raise self.source.error(board.pos, f"{what} ('{grid}') takes no 'outside', "
                                                   f"'lines', 'target' or '{other}' option")
        if board.kind == "json" and any(o.name in ("blank", "clues") for o in board.options):
            raise self.source.error(board.pos, "a json board takes no 'blank' or 'clues' option")

    def check_sides(self, value):
        names = value.value.replace(",", " ").split() if isinstance(value, ast.Str) else None
        if not names or any(n not in SIDES for n in names) or len(set(names)) != len(names):
            raise self.err(value, "'outside' is a string of sides, each once: "
                                  + ", ".join(SIDES) + ' (e.g. outside: "top left")')

    def check_grids(self):
        """`layers` and `param` describe square text instances."""
        spec = self.spec
        for st in [spec.layers] + list(spec.params.values()):
            if st is not None and spec.board.kind != "square":
                word = "'layers'" if st is spec.layers else "'param'"
                raise self.source.error(st.pos, f"{word} is for square boards, whose instances "
                                                f"are grids")
        for grid, what in (("points", "a board of dot clues"), ("doubled", "a doubled grid")):
            found = any(o.name == grid for o in spec.board.options)
            if found and spec.layers is not None and spec.layer_names != ["clues"]:
                raise self.source.error(spec.layers.pos, f"{what} ('{grid}') reads one grid, "
                                                         f"the clues")
        params = list(spec.params.values())
        for p in params:
            if p.rest and p is not params[-1]:
                raise self.source.error(p.pos, f"the list parameter '{p.name}...' takes the "
                                               f"rest of the header's numbers: it comes last")
            if p.rest and p.default is not None:
                raise self.err(p.default, f"a list parameter has no default: '{p.name}' is the "
                                          f"empty list when the header gives no numbers for it")
            if p.default is not None and not isinstance(p.default, ast.Num):
                raise self.err(p.default, f"the default of '{p.name}' is a number, "
                                          f"such as 'param {p.name} = 1'")

    # ----------------------------------------------------------- polarity

    def polarity(self, e, pol, seen):
        """connected(...) can only be required: it may stand where the rule needs
        it to hold (under and/or/all/any, right of ->, a branch of if), never
        where it would have to be false (not, left of ->, <->, =, a count, a
        condition).  pol: 1 required, -1 refuted, 0 both."""
        if isinstance(e, ast.Call):
            if e.func == "connected" and e.func not in self.spec.lets:
                if pol != 1:
                    raise self.err(e, "connected(...) can only be required: it cannot stand "
                                      "under 'not', left of '->', in '<->' or '=', in a "
                                      "count or sum, or in a condition")
                return
            let = self.spec.lets.get(e.func)
            if let is not None and let.params is not None:
                for a in e.args:
                    self.polarity(a, 0, seen)
                if (e.func, pol) not in seen:
                    seen.add((e.func, pol))
                    self.polarity(let.body, pol, seen)
                return
            for a in e.args:
                self.polarity(a, 0, seen)
            if e.binders is not None:
                self._binder_polarity(e.binders, seen)
                self.polarity(e.body, 0, seen)
            return
        if isinstance(e, ast.Name):
            let = self.spec.lets.get(e.id)
            if let is not None and let.params is None and (e.id, pol) not in seen:
                seen.add((e.id, pol))
                self.polarity(let.body, pol, seen)
            return
        if isinstance(e, ast.BoolOp):
            if e.op in ("and", "or"):
                self.polarity(e.left, pol, seen)
                self.polarity(e.right, pol, seen)
            elif e.op == "->":
                self.polarity(e.left, -pol, seen)
                self.polarity(e.right, pol, seen)
            else:
                self.polarity(e.left, 0, seen)
                self.polarity(e.right, 0, seen)
            return
        if isinstance(e, ast.Not):
            self.polarity(e.operand, -pol, seen)
            return
        if isinstance(e, ast.Quant):
            self._binder_polarity(e.binders, seen)
            self.polarity(e.body, pol, seen)
            return
        if isinstance(e, ast.LetIn):
            for value in e.values:
                self.polarity(value, 0, seen)
            self.polarity(e.body, pol, seen)
            return
        if isinstance(e, ast.Ite):
            self.polarity(e.cond, 0, seen)
            self.polarity(e.then, pol, seen)
            self.polarity(e.other, pol, seen)
            return
        for child in _children(e):
            self.polarity(child, 0, seen)

    def _binder_polarity(self, binders, seen):
        for b in binders:
            self.polarity(b.source, 0, seen)
            if b.where is not None:
                self.polarity(b.where, 0, seen)

    # ----------------------------------------------------------- helpers

    def want(self, node, t, expected, what="this"):
        if t == ANY or t == expected:
            return
        if expected == INT and t == BOOL:
            raise self.err(node, "a bool is used as an int here; count(...) or "
                                 "'if ... then 1 else 0' turns bools into numbers")
        if expected == BOOL and t == INT:
            raise self.err(node, "an int is used as a bool here; compare it, as in x > 0")
        raise self.err(node, f"{what} must be {_type_name(expected)}, but this is {_type_name(t)}")

    def binders(self, binders, scope):
        for b in binders:
            t = self.infer(b.source, scope)
            if t in (INT, BOOL, SYM, CELL, EDGE, SEGMENT):
                raise self.err(b.source, f"a binder ranges over a set, not {_type_name(t)}")
            elem = _elem(t)
            for n in b.names:
                scope[n] = elem if len(b.names) == 1 else ANY
            if b.where is not None:
                self.want(b.where, self.infer(b.where, scope), BOOL, "a 'where' filter")

    def unknown(self, node, name, kind="name", scope=()):
        if kind == "name":
            candidates = list(scope) + [n for n, l in self.spec.lets.items() if l.params is None] \
                + list(self.spec.vars) + sorted(_VALUE_TYPES)
        else:
            candidates = [n for n, l in self.spec.lets.items() if l.params is not None] \
                + sorted(_FUNCTION_TYPES) + sorted(AGGREGATES)
        close = difflib.get_close_matches(name, candidates, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return self.err(node, f"unknown {kind} '{name}'{hint}")

    def uses_variables(self, e, seen):
        """The first node of ``e`` that reads a spec variable (through lets too)."""
        if isinstance(e, ast.Name) and e.id in self.spec.vars:
            return e
        if isinstance(e, ast.Index) and isinstance(e.base, ast.Name) and e.base.id in self.spec.vars:
            return e
        names = [e.id] if isinstance(e, ast.Name) else [e.func] if isinstance(e, ast.Call) else []
        for n in names:
            let = self.spec.lets.get(n)
            if let is not None and n not in seen:
                seen.add(n)
                if self.uses_variables(let.body, seen) is not None:
                    return e
        for child in _children(e):
            found = self.uses_variables(child, seen)
            if found is not None:
                return found
        return None

    def let_type(self, name, node):
        if name in self.let_types:
            return self.let_types[name]
        if name in self._busy:
            raise self.err(node, f"'{name}' is defined in terms of itself")
        self._busy.add(name)
        t = self.infer(self.spec.lets[name].body, {})
        self._busy.discard(name)
        self.let_types[name] = t
        return t

    def var_type(self, var):
        if var.domain is None:
            return BOOL
        scope = {}
        self.binders(var.binders, scope)
        t = self.infer(var.domain, scope)
        return _elem(t)

    # ----------------------------------------------------------- expressions

    def infer(self, e, scope):
        m = getattr(self, "_" + type(e).__name__)
        return m(e, scope)

    def _Num(self, e, scope):
        return INT

    def _Str(self, e, scope):
        return SYM

    def _BoolLit(self, e, scope):
        return BOOL

    def _Name(self, e, scope):
        n = e.id
        if n in scope:
            return scope[n]
        spec = self.spec
        if n in spec.lets:
            let = spec.lets[n]
            if let.params is not None:
                raise self.err(e, f"'{n}' is a function: call it as {n}(...)")
            return self.let_type(n, e)
        if n in spec.vars:
            var = spec.vars[n]
            if var.binders:
                raise self.err(e, f"'{n}' is indexed: write {n}[...]")
            return self.var_type(var)
        if n in _VALUE_TYPES:
            return _VALUE_TYPES[n]
        if n in BUILTIN_FUNCTIONS or n in AGGREGATES:
            raise self.err(e, f"'{n}' is a function: call it as {n}(...)")
        raise self.unknown(e, n, scope=scope)

    def _Index(self, e, scope):
        base = e.base
        for i in e.indices:
            self.infer(i, scope)
        if isinstance(base, ast.Name) and base.id not in scope and base.id in self.spec.vars:
            var = self.spec.vars[base.id]
            if len(e.indices) != len(var.binders):
                raise self.err(e, f"'{var.name}' takes {plural(len(var.binders), 'index', 'indices')}, "
                                  f"not {len(e.indices)}")
            return self.var_type(var)
        t = self.infer(base, scope)
        if len(e.indices) != 1:
            raise self.err(e, "only variables take several indices")
        if t in (INT, BOOL):
            raise self.err(e.base, f"{_type_name(t)} cannot be indexed")
        if t == CELL:
            return INT
        return _elem(t) if _is_coll(t) else ANY

    def _Field(self, e, scope):
        t = self.infer(e.base, scope)
        if t in (EDGE, SEGMENT):
            if e.name not in ("a", "b"):
                raise self.err(e, f"{_type_name(t)} has fields a and b, not '{e.name}'")
            return CELL
        if t == CELL:
            if e.name not in ("row", "col"):
                raise self.err(e, f"a cell has fields row and col, not '{e.name}'")
            return INT
        if t in (INT, BOOL, SYM) or _is_coll(t):
            raise self.err(e, f"{_type_name(t)} has no field '{e.name}'")
        return ANY

    def _Neg(self, e, scope):
        self.want(e.operand, self.infer(e.operand, scope), INT)
        return INT

    def _Binary(self, e, scope):
        a = self.infer(e.left, scope)
        b = self.infer(e.right, scope)
        if e.op in "+-" and (_is_coll(a) or _is_coll(b)):
            return coll()
        if e.op == "+" and SYM in (a, b) and {a, b} <= {SYM, ANY}:
            return SYM
        self.want(e.left, a, INT, f"an operand of '{e.op}'")
        self.want(e.right, b, INT, f"an operand of '{e.op}'")
        if e.op == "^" and isinstance(e.right, ast.Num):
            self.constant_power(e)
        return INT

    def constant_power(self, e):
        """A power whose exponent is written as a number: a negative one, or a
        power too big to compute, is found before any instance is read."""
        exponent = e.right.value
        if exponent < 0:
            raise self.err(e.right, f"'^' takes an exponent of 0 or more, not {exponent}")
        if isinstance(e.left, ast.Num):
            try:
                int_power(e.left.value, exponent)
            except ValueError as err:
                raise self.err(e, str(err)) from None

    def _Compare(self, e, scope):
        a = self.infer(e.left, scope)
        b = self.infer(e.right, scope)
        if e.op in ("in", "notin"):
            if b in (INT, BOOL, SYM, CELL, EDGE, SEGMENT):
                raise self.err(e.right, f"'in' needs a set on its right, not {_type_name(b)}")
            return BOOL
        if e.op in ("=", "!="):
            if ANY not in (a, b) and (a == BOOL) != (b == BOOL):
                raise self.err(e.right, f"cannot compare {_type_name(a)} with {_type_name(b)}")
            return BOOL
        self.want(e.left, a, INT, f"an operand of '{e.op}'")
        self.want(e.right, b, INT, f"an operand of '{e.op}'")
        return BOOL

    def _Not(self, e, scope):
        self.want(e.operand, self.infer(e.operand, scope), BOOL, "the operand of 'not'")
        return BOOL

    def _BoolOp(self, e, scope):
        self.want(e.left, self.infer(e.left, scope), BOOL, f"an operand of '{e.op}'")
        self.want(e.right, self.infer(e.right, scope), BOOL, f"an operand of '{e.op}'")
        return BOOL

    def _Ite(self, e, scope):
        self.want(e.cond, self.infer(e.cond, scope), BOOL, "the condition of 'if'")
        a = self.infer(e.then, scope)
        b = self.infer(e.other, scope)
        if ANY not in (a, b) and (a == BOOL) != (b == BOOL):
            raise self.err(e.other, f"both branches of 'if' must be bools or neither: "
                                    f"{_type_name(a)} and {_type_name(b)}")
        return a if a == b else ANY

    def _LetIn(self, e, scope):
        scope = dict(scope)
        for name, value in zip(e.names, e.values):
            scope[name] = self.infer(value, scope)
        return self.infer(e.body, scope)

    def _Quant(self, e, scope):
        scope = dict(scope)
        self.binders(e.binders, scope)
        self.want(e.body, self.infer(e.body, scope), BOOL, f"the body of '{e.kind}'")
        return BOOL

    def _Range(self, e, scope):
        self.want(e.low, self.infer(e.low, scope), INT, "a range bound")
        self.want(e.high, self.infer(e.high, scope), INT, "a range bound")
        return coll(INT)

    def _Collection(self, e, scope):
        types = {self.infer(x, scope) for x in e.items}
        if e.kind == "tuple":
            if len(e.items) == 2 and types <= {INT, ANY}:
                return CELL
            return coll()
        return coll(types.pop() if len(types) == 1 else ANY)

    def _Comprehension(self, e, scope):
        scope = dict(scope)
        self.binders(e.binders, scope)
        return coll(self.infer(e.body, scope))

    def _Call(self, e, scope):
        name = e.func
        spec = self.spec
        if name in spec.lets and name not in scope:
            let = spec.lets[name]
            if let.params is None:
                raise self.err(e, f"'{name}' is a value, not a function")
            if e.binders is not None:
                raise self.err(e, f"'{name}' takes plain arguments, not binders")
            if len(e.args) != len(let.params):
                raise self.err(e, f"'{name}' takes {plural(len(let.params), 'argument')}, not {len(e.args)}")
            for a in e.args:
                self.infer(a, scope)
            key = "fn:" + name
            if key in self.let_types:
                return self.let_types[key]
            if key in self._busy:
                return ANY
            self._busy.add(key)
            t = self.infer(let.body, {p: ANY for p in let.params})
            self._busy.discard(key)
            self.let_types[key] = t
            return t
        if name in AGGREGATES:
            return self.aggregate(e, scope)
        if name in _FUNCTION_TYPES:
            if name in DRAWING and not spec.generation:
                raise self.err(e, f"'{name}' draws at random for pzc generate: use it in "
                                  "generate lines only")
            if e.binders is not None:
                raise self.err(e, f"'{name}' takes plain arguments, not binders")
            params, result = _FUNCTION_TYPES[name]
            if len(e.args) != len(params):
                raise self.err(e, f"'{name}' takes {plural(len(params), 'argument')}, not {len(e.args)}")
            for a, p in zip(e.args, params):
                t = self.infer(a, scope)
                if p == INT:
                    self.want(a, t, INT, f"the argument of '{name}'")
                elif p == CELL and t in (INT, BOOL, SYM, EDGE):
                    raise self.err(a, f"'{name}' takes a cell, not {_type_name(t)}")
            return result
        if name in spec.vars:
            raise self.err(e, f"'{name}' is a variable: index it as {name}[...]")
        raise self.unknown(e, name, "function")

    def aggregate(self, e, scope):
        name = e.func
        if e.binders is not None:
            scope = dict(scope)
            self.binders(e.binders, scope)
            t = self.infer(e.body, scope)
            items = [(e.body, t)]
            if e.root is not None and name == "groupsize":
                self.infer(e.root, scope)        # the seed: an element
            elif e.root is not None:
                self.want(e.root, self.infer(e.root, scope), BOOL, "a root of connected(...)")
            if e.via_where is not None:
                near = self.infer(e.via, scope)
                self.want(e.via_where, self.infer(e.via_where, {
                    **scope, e.via_name: _elem(near) if _is_coll(near) else ANY}), BOOL,
                    "when 'via' joins two elements")
            if e.via is not None:
                t = self.infer(e.via, scope)
                if t in (INT, BOOL, SYM, CELL, EDGE, SEGMENT):
                    raise self.err(e.via, "'via' gives the elements joined to each one, "
                                          f"a list or set, not {_type_name(t)}")
                used = self.uses_variables(e.via, set())
                if used is not None:
                    raise self.err(used, "what 'via' joins cannot depend on variables")
        else:
            if not e.args:
                raise self.err(e, f"'{name}' needs arguments")
            items = [(a, self.infer(a, scope)) for a in e.args]
            if len(items) == 1 and _is_coll(items[0][1]):
                items = [(items[0][0], _elem(items[0][1]))]
        if name == "connected" and (e.binders is None or len(e.binders) != 1):
            raise self.err(e, "connected takes one binder and a condition, as in "
                              "connected(c in cells: colour[c] = k)")
        if name == "groupsize" and (e.binders is None or len(e.binders) != 1 or e.root is None):
            raise self.err(e, "groupsize takes one binder, a condition and a seed, as in "
                              "groupsize(c in cells: shaded[c] from k)")
        for node, t in items:
            if name in ("count", "connected", "groupsize"):
                self.want(node, t, BOOL, "what count(...) counts")
            elif name in ("sum", "product", "min", "max"):
                self.want(node, t, INT, {"sum": "what sum(...) adds up",
                                         "product": "what product(...) multiplies"}.get(
                                             name, f"an argument of {name}"))
        return BOOL if name in ("distinct", "connected") else INT


def _children(e):
    for name in getattr(type(e), "__slots__", ()):
        v = getattr(e, name, None)
        if isinstance(v, ast.Expr):
            yield v
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, ast.Expr):
                    yield x
                elif isinstance(x, ast.Binder):
                    yield x.source
                    if x.where is not None:
                        yield x.where


def names_in(e) -> set:
    """The names an expression mentions (a binder's source: which earlier
    binders it depends on)."""
    found, stack = set(), [e]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Name):
            found.add(x.id)
        stack.extend(_children(x))
    return found


@deep_stack
def check(spec: ast.Spec) -> ast.Spec:
    """Raise PzcError at the first problem; return the spec unchanged."""
    SpecChecker(spec).run()
    return spec


def summary(spec: ast.Spec) -> str:
    """One line describing a checked spec."""
    vars_ = ", ".join(n for n, v in spec.vars.items() if not v.state) or "none"
    rules = len([r for r in spec.rules if not r.implied])
    implied = len(spec.rules) - rules
    shows = [s for s, x in (("grid", spec.show_cell), ("a text drawing", spec.show_text),
                            ("moves", spec.show_moves or spec.show_steps)) if x]
    text = f"{spec.name}: ok; board {spec.board.kind}; "
    if spec.plan is not None:
        text += (f"plan {spec.plan.name} with states {', '.join(spec.states)} and actions "
                 f"{', '.join(spec.actions)}; ")
        if vars_ != "none":
            text += f"variables {vars_}; "
    else:
        text += f"variables {vars_}; "
    text += f"{rules} rule{'s' if rules != 1 else ''}"
    if implied:
        text += f" (+{implied} implied)"
    return text + f"; shows {' and '.join(shows)}"
