"""Stage 1, syntax: spec text -> AST (dataclasses carrying source positions).

    rule rows: all r in rows: distinct(v[c] for c in r)

becomes

    Rule(name='rows', body=Quant('all', [Binder(('r',), Name('rows'))],
         Call('distinct', body=Index(Name('v'), [Name('c')]),
              binders=[Binder(('c',), Name('r'))])))

Every node has ``pos = (line, column)``.  Binders (``c in cells where p``) are
parsed as expressions by the grammar and converted here, so syntax errors in a
binder are reported like any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import lark

from ..runtime.deep_stack import deep_stack
from ..runtime.errors import PzcError, Source


# ---------------------------------------------------------------- expressions

@dataclass(slots=True, eq=False)
class Expr:
    pos: tuple


@dataclass(slots=True, eq=False)
class Num(Expr):
    value: int


@dataclass(slots=True, eq=False)
class Str(Expr):
    value: str


@dataclass(slots=True, eq=False)
class BoolLit(Expr):
    value: bool


@dataclass(slots=True, eq=False)
class Name(Expr):
    id: str


@dataclass(slots=True, eq=False)
class Binder:
    pos: tuple
    names: tuple          # one name, or several to unpack a tuple
    source: Expr
    where: Expr | None


@dataclass(slots=True, eq=False)
class Call(Expr):
    func: str
    args: list            # plain arguments (binder form: empty)
    binders: list | None = None   # `f(x in S where p: body)` / `f(body for x in S)`
    body: Expr | None = None
    root: Expr | None = None      # `connected(x in S: body from root)`
    via: Expr | None = None       # `connected(x in S: body via near)`: what joins x
    via_name: str | None = None   # `groupsize(... via y in near where joined)`: y,
    via_where: Expr | None = None  # ... and when x and y are joined


@dataclass(slots=True, eq=False)
class Index(Expr):
    base: Expr
    indices: list


@dataclass(slots=True, eq=False)
class Field(Expr):
    base: Expr
    name: str


@dataclass(slots=True, eq=False)
class Neg(Expr):
    operand: Expr


@dataclass(slots=True, eq=False)
class Binary(Expr):
    op: str               # + - * / % ^
    left: Expr
    right: Expr


@dataclass(slots=True, eq=False)
class Compare(Expr):
    op: str               # = != < <= > >= in notin
    left: Expr
    right: Expr


@dataclass(slots=True, eq=False)
class Not(Expr):
    operand: Expr


@dataclass(slots=True, eq=False)
class BoolOp(Expr):
    op: str               # and, or, ->, <->
    left: Expr
    right: Expr


@dataclass(slots=True, eq=False)
class Ite(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(slots=True, eq=False)
class LetIn(Expr):
    names: list           # let a = .., b = .. in body: each value sees the names before it
    values: list
    body: Expr


@dataclass(slots=True, eq=False)
class Quant(Expr):
    kind: str             # all, any
    binders: list
    body: Expr


@dataclass(slots=True, eq=False)
class Range(Expr):
    low: Expr
    high: Expr


@dataclass(slots=True, eq=False)
class Collection(Expr):
    kind: str             # list, set, tuple
    items: list


@dataclass(slots=True, eq=False)
class Comprehension(Expr):
    kind: str             # list, set
    body: Expr
    binders: list


# ----------------------------------------------------------------- statements

@dataclass(slots=True, eq=False)
class Stmt:
    pos: tuple


@dataclass(slots=True, eq=False)
class Puzzle(Stmt):
    name: str
    description: str


@dataclass(slots=True, eq=False)
class BoardOption:
    pos: tuple
    name: str
    value: Expr | None


@dataclass(slots=True, eq=False)
class Board(Stmt):
    kind: str
    kind_pos: tuple
    options: list


@dataclass(slots=True, eq=False)
class Layers(Stmt):
    names: list           # [(name, pos)]: the instance's grids, in the order files give them


@dataclass(slots=True, eq=False)
class Param(Stmt):
    name: str             # a number the instance gives beside its grids (Star Battle's N)
    default: Expr | None
    rest: bool = False    # `param NAME...`: every number after the others, as a list


@dataclass(slots=True, eq=False)
class Codec:
    pos: tuple
    name: str             # a codec of formats/codecs.py
    args: list            # layer or parameter names, then an optional list of (raw, token) pairs
    optional: bool = False  # `codec(...)?`: a URL layer that may be left out at the body's end


@dataclass(slots=True, eq=False)
class PuzzLink(Stmt):
    kind: str             # url, file
    types: list           # [(name, pos)]: puzz.link's names of the genre, the written one first
    codecs: list


@dataclass(slots=True, eq=False)
class Let(Stmt):
    name: str
    params: list | None   # None: a value; a list: a function
    body: Expr


@dataclass(slots=True, eq=False)
class Var(Stmt):
    name: str
    binders: list         # empty for a single variable
    domain: Expr | None   # None means bool
    state: bool = False   # a `state`: one variable per time step of the plan


@dataclass(slots=True, eq=False)
class Rule(Stmt):
    name: str
    body: Expr
    implied: bool


@dataclass(slots=True, eq=False)
class Require(Stmt):
    test: Expr            # must hold on the instance, else the instance is rejected
    message: str


@dataclass(slots=True, eq=False)
class ShowCell(Stmt):
    cell: str             # name bound to each cell in turn
    body: Expr
    text: bool = False    # only for --format text, drawn after the grid


@dataclass(slots=True, eq=False)
class ShowCanvas(Stmt):
    height: Expr          # a grid of height x width characters, not tied to cells
    width: Expr
    point: str            # name bound to each (row, column) in turn
    body: Expr
    text: bool = False


@dataclass(slots=True, eq=False)
class ShowMoves(Stmt):
    binders: list
    fields: list          # [(name, Expr)]


@dataclass(slots=True, eq=False)
class SolverHint(Stmt):
    name: str             # the PySAT solver this spec solves fastest with


@dataclass(slots=True, eq=False)
class PortfolioHint(Stmt):
    members: str          # as --portfolio takes them: "glucose4:lazy,asp"


# shapes a `draw` hint may name (checked by check.py, drawn by tasks/pictures/draw.py)
ANSWER_SHAPES = ("text", "shade", "disc", "circle", "star", "cross", "triangle", "square",
                 "pillow", "futon", "regions", "none")
LAYER_SHAPES = ("text", "shade", "wall", "disc", "circle", "star", "triangle", "square",
                "arrow", "grey", "sums", "path", "regions", "none")


@dataclass(slots=True, eq=False)
class Draw(Stmt):
    target: str           # "answer" or a layer's name
    values: Expr | None   # only these values (None: every value)
    shape: str            # what to draw them as: ANSWER_SHAPES, LAYER_SHAPES
    shape_pos: tuple


@dataclass(slots=True, eq=False)
class Plan(Stmt):
    name: str


@dataclass(slots=True, eq=False)
class Action(Stmt):
    name: str
    binders: list         # the action's parameters
    pre: Expr | None      # holds in the state the action starts from
    effects: list         # [(target: Index or Name of a state, value: Expr)]


@dataclass(slots=True, eq=False)
class Start(Stmt):
    body: Expr            # holds in the first state


@dataclass(slots=True, eq=False)
class Goal(Stmt):
    body: Expr            # holds in the last state


@dataclass(slots=True, eq=False)
class ShowSteps(Stmt):
    action: str           # each step taking this action prints a move
    fields: list          # [(name, Expr)], read in the state before the step


@dataclass(slots=True, eq=False)
class GenCell(Stmt):
    kind: str             # clue (may be removed), given (kept), removed (left when a clue goes),
                          # locked (a lock that may be removed), shuffle (cells whose contents are mixed), layer
    cell: str             # name bound to each cell in turn
    body: Expr
    layer: str | None = None   # the layer a `generate layer NAME c: ...` fills


@dataclass(slots=True, eq=False)
class GenSize(Stmt):
    width: Expr           # the board generated when --size is not given
    height: Expr | None   # None: a square board, or a hexagon of side `width`


@dataclass(slots=True, eq=False)
class GenRules(Stmt):
    names: list           # [(rule name, pos)]: the spec's rules that hold without clues


@dataclass(slots=True, eq=False)
class Generate(Stmt):
    """One `generate ...` line: `part` is a Let, Var, Rule, GenCell, GenSize or GenRules."""
    part: Stmt


@dataclass(eq=False)
class GenerateSection:
    """The spec's `generate` lines, gathered (tasks/generate/stages.py reads them)."""
    pos: tuple                                       # the first generate line
    statements: list = field(default_factory=list)   # its lets, vars and rules, in order
    cells: dict = field(default_factory=dict)        # clue/given/removed/locked/shuffle -> GenCell
    layers: dict = field(default_factory=dict)       # layer name -> GenCell
    size: GenSize | None = None
    rules: GenRules | None = None


@dataclass(slots=True, eq=False)
class Spec:
    source: Source
    statements: list
    puzzle: Puzzle | None = None
    board: Board | None = None
    lets: dict = field(default_factory=dict)
    vars: dict = field(default_factory=dict)
    rules: list = field(default_factory=list)
    requires: list = field(default_factory=list)
    show_cell: ShowCell | ShowCanvas | None = None   # the answer grid
    show_text: ShowCell | ShowCanvas | None = None   # an extra drawing for text output
    show_moves: ShowMoves | None = None
    plan: Plan | None = None
    actions: dict = field(default_factory=dict)      # name -> Action
    starts: list = field(default_factory=list)
    goals: list = field(default_factory=list)
    show_steps: dict = field(default_factory=dict)   # action name -> ShowSteps
    solver: SolverHint | None = None                 # the default SAT solver for this spec
    portfolio: PortfolioHint | None = None           # --portfolio's members when it names none
    layers: Layers | None = None                     # None: one grid, the clues
    params: dict = field(default_factory=dict)       # name -> Param, in header order
    url: PuzzLink | None = None                      # puzz.link URL body layout
    file: PuzzLink | None = None                     # pzprv3 file body layout
    generate: GenerateSection | None = None          # how `pzc generate` makes instances
    draws: list = field(default_factory=list)        # Draw hints, in order (a later one wins)
    generation: bool = False     # the generation model (tasks/generate): random(...) allowed

    @property
    def layer_names(self) -> list:
        return [n for n, _ in self.layers.names] if self.layers else ["clues"]

    @property
    def url_types(self) -> list:
        return [n for n, _ in self.url.types] if self.url else []

    @property
    def states(self) -> dict:
        return {name: v for name, v in self.vars.items() if v.state}

    @property
    def name(self) -> str:
        return self.puzzle.name if self.puzzle else "spec"

    @property
    def description(self) -> str:
        return self.puzzle.description if self.puzzle else ""


# --------------------------------------------------------------------- parser

@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    grammar = resources.files("pzc").joinpath("grammar/pz.lark").read_text()
    # cache=True keeps the built LALR tables in a temp file between runs
    return lark.Lark(grammar, parser="lalr", propagate_positions=True,
                     maybe_placeholders=True, cache=True)


# the terminals matched by a pattern, named in words; every other terminal is
# a fixed string (a keyword, a mark, or one Lark names __ANON_n) shown quoted
_PATTERN_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "CMP": "a comparison",
    "ADD": "'+' or '-'", "MUL": "'*', '/' or '%'", "$END": "end of file",
}


@lru_cache(maxsize=1)
def _token_words() -> dict:
    """Terminal name -> how a syntax error names it."""
    words = {t.name: f"'{t.pattern.value}'" for t in _parser().terminals
             if isinstance(t.pattern, lark.lexer.PatternStr)}
    return {**words, **_PATTERN_WORDS}


def _describe_expected(expected) -> str:
    names = _token_words()
    # the words (a name, a number, ...) first, then marks and keywords, shortest first
    words = sorted({names.get(name, name) for name in expected},
                   key=lambda w: (w.startswith("'"), len(w), w))
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _after_last_token(text: str) -> tuple:
    """(line, column) just after the last token, skipping blank lines and comments."""
    lines = text.split("\n")
    for n in range(len(lines), 0, -1):
        body = lines[n - 1].rstrip("\r")
        code = re.sub(r'"([^"\\\n]|\\.)*"', lambda m: "x" * len(m.group()), body)
        cut = code.find("#")
        body = body[:cut] if cut >= 0 else body
        if body.strip():
            return (n, len(body.rstrip()) + 1)
    return (1, 1)


@deep_stack
def parse(text: str, path: str = "<spec>") -> Spec:
    """Parse spec text into a Spec; syntax errors become PzcError with a caret."""
    text = text.lstrip("\ufeff")   # a byte order mark is not part of the spec
    source = Source(path, text)
    text = source.text             # line ends made '\n' (a lone '\r' ends a line too)
    try:
        tree = _parser().parse(text)
    except lark.UnexpectedCharacters as e:
        raise source.error((e.line, e.column),
                           f"unexpected character {text[e.pos_in_stream]!r}") from None
    except lark.UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            raise source.error(_after_last_token(text), "unexpected end of spec; expected "
                               + _describe_expected(e.expected)) from None
        hint = ""
        if set(e.expected) == {"IN", "COMMA"}:       # only the end of a let binding
            hint = ("; in 'let x = e in body', e is a number, sum or range: put a "
                    "comparison or logic in parentheses")
        elif tok.value == "*" and text[tok.start_pos - 1:tok.start_pos] == "*":
            hint = "; a power is written 'a ^ b'"          # Python's a ** b
        raise source.error((tok.line, tok.column),
                           f"unexpected {tok.value!r}; expected "
                           + _describe_expected(e.expected) + hint) from None
    except lark.UnexpectedEOF as e:  # pragma: no cover - LALR reports UnexpectedToken
        raise source.error(None, "unexpected end of spec") from None
    _check_nesting(source, tree)
    builder = _Builder(source)
    statements = [builder.stmt(child) for child in tree.children]
    return _collect(source, statements)


MAX_NESTING = 5_000     # levels of the parse tree (1 + 1 + ... a level a term); real specs use under 20


def _check_nesting(source: Source, tree) -> None:
    """A located error for an expression nested deeper than MAX_NESTING (a
    sum of 6,000 terms written out, 6,000 `not`s, lists in lists): every later
    stage walks the tree recursively, on the deep stack of runtime/deep_stack.py."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            pos = (meta.line, meta.column) if not meta.empty else None
            raise source.error(pos, f"this expression is nested more than {MAX_NESTING:,} "
                                    f"levels deep; split it with 'let'")
        stack.extend((child, depth + 1) for child in node.children
                     if isinstance(child, lark.Tree))


def _collect(source: Source, statements: list) -> Spec:
    spec = Spec(source, statements)
    seen = {}
    for st in statements:
        if isinstance(st, Puzzle):
            if spec.puzzle:
                raise source.error(st.pos, "a spec has one 'puzzle' line")
            spec.puzzle = st
        elif isinstance(st, Board):
            if spec.board:
                raise source.error(st.pos, "a spec has one 'board' line")
            spec.board = st
        elif isinstance(st, (Let, Var)):  # a state is a Var too
            if st.name in seen:
                line = seen[st.name].pos[0]
                raise source.error(st.pos, f"'{st.name}' is already defined on line {line}")
            seen[st.name] = st
            (spec.lets if isinstance(st, Let) else spec.vars)[st.name] = st
        elif isinstance(st, Rule):
            spec.rules.append(st)
        elif isinstance(st, Require):
            spec.requires.append(st)
        elif isinstance(st, (ShowCell, ShowCanvas)):
            slot = "show_text" if st.text else "show_cell"
            if getattr(spec, slot):
                raise source.error(st.pos, "a spec has at most one " + (
                    "'show text'" if st.text else "grid 'show'"))
            setattr(spec, slot, st)
        elif isinstance(st, ShowMoves):
            if spec.show_moves:
                raise source.error(st.pos, "a spec has at most one 'show moves'")
            spec.show_moves = st
        elif isinstance(st, SolverHint):
            if spec.solver:
                raise source.error(st.pos, "a spec has at most one 'solver' line")
            spec.solver = st
        elif isinstance(st, PortfolioHint):
            if spec.portfolio:
                raise source.error(st.pos, "a spec has at most one 'portfolio' line")
            spec.portfolio = st
        elif isinstance(st, Layers):
            if spec.layers:
                raise source.error(st.pos, "a spec has at most one 'layers' line")
            spec.layers = st
        elif isinstance(st, Param):
            if st.name in seen:
                line = seen[st.name].pos[0]
                raise source.error(st.pos, f"'{st.name}' is already defined on line {line}")
            seen[st.name] = st
            spec.params[st.name] = st
        elif isinstance(st, PuzzLink):
            if getattr(spec, st.kind):
                raise source.error(st.pos, f"a spec has at most one '{st.kind}' line")
            setattr(spec, st.kind, st)
        elif isinstance(st, Plan):
            if spec.plan:
                raise source.error(st.pos, "a spec has one 'plan' line")
            spec.plan = st
        elif isinstance(st, Action):
            if st.name in spec.actions:
                line = spec.actions[st.name].pos[0]
                raise source.error(st.pos, f"there is already an action named '{st.name}' "
                                           f"(line {line})")
            spec.actions[st.name] = st
        elif isinstance(st, Generate):
            _collect_generate(source, spec, st)
        elif isinstance(st, Draw):
            spec.draws.append(st)
        elif isinstance(st, Start):
            spec.starts.append(st)
        elif isinstance(st, Goal):
            spec.goals.append(st)
        elif isinstance(st, ShowSteps):
            if st.action in spec.show_steps:
                raise source.error(st.pos, f"the moves of '{st.action}' are already shown")
            spec.show_steps[st.action] = st
    if spec.puzzle is None:
        raise source.error((1, 1), "a spec starts with 'puzzle NAME'")
    if spec.board is None:
        raise source.error(spec.puzzle.pos, "the spec has no 'board' line "
                           "(board square, board hex or board json)")
    _check_plan(source, spec)
    _instance_names(source, spec, seen)
    names = [r.name for r in spec.rules]
    for i, r in enumerate(spec.rules):
        if r.name in names[:i]:
            raise source.error(r.pos, f"there is already a rule named '{r.name}'")
    return spec


def _collect_generate(source: Source, spec: Spec, st: Generate):
    gen = spec.generate = spec.generate or GenerateSection(st.pos)
    part = st.part
    if isinstance(part, GenCell) and part.kind == "layer":
        if part.layer in gen.layers:
            raise source.error(part.pos, f"the layer '{part.layer}' is already generated on line "
                                         f"{gen.layers[part.layer].pos[0]}")
        gen.layers[part.layer] = part
    elif isinstance(part, GenCell):
        if part.kind in gen.cells:
            raise source.error(part.pos, f"a spec has one 'generate {part.kind}' line (line "
                                         f"{gen.cells[part.kind].pos[0]})")
        gen.cells[part.kind] = part
    elif isinstance(part, (GenSize, GenRules)):
        slot = "size" if isinstance(part, GenSize) else "rules"
        if getattr(gen, slot) is not None:
            raise source.error(part.pos, f"a spec has one 'generate {slot}' line")
        setattr(gen, slot, part)
    else:
        if isinstance(part, Rule) and part.implied:
            raise source.error(part.pos, "a generation rule is a rule of the solutions drawn; "
                                         "'implied' does not apply")
        gen.statements.append(part)


# layers with names of their own: clue(c) reads the clues, regions/region(c) the regions
_LAYERS_READ_BY_BUILTINS = ("clues", "regions")


def _instance_names(source: Source, spec: Spec, seen: dict):
    """Each parameter, and each layer other than clues and regions, is a name
    the spec reads: a let of param("stars") or layer("cages")."""
    if spec.layers:
        names = [n for n, _ in spec.layers.names]
        for i, (name, pos) in enumerate(spec.layers.names):
            if name in names[:i]:
                raise source.error(pos, f"the layer '{name}' is named twice")
            if name in spec.params:
                raise source.error(pos, f"'{name}' is a parameter (line "
                                        f"{spec.params[name].pos[0]}) and a layer")
            if name in seen and name not in _LAYERS_READ_BY_BUILTINS:
                raise source.error(pos, f"'{name}' is already defined on line {seen[name].pos[0]}")
            if name not in _LAYERS_READ_BY_BUILTINS:
                spec.lets[name] = Let(pos, name, None, Call(pos, "layer", [Str(pos, name)]))
    for name, p in spec.params.items():
        read = Call(p.pos, "param", [Str(p.pos, name)])
        spec.lets[name] = Let(p.pos, name, None, Call(p.pos, "list", [read]) if p.rest else read)


def _check_plan(source: Source, spec: Spec):
    """A move puzzle has a plan line, states, actions and a goal, together."""
    parts = [st for st in spec.statements
             if isinstance(st, (Action, Start, Goal, ShowSteps)) or (isinstance(st, Var) and st.state)]
    if spec.plan is None:
        if parts:
            word = {Action: "an action", Start: "a start", Goal: "a goal",
                    ShowSteps: "'show moves' of an action", Var: "a state"}[type(parts[0])]
            raise source.error(parts[0].pos, f"{word} belongs to a move puzzle: add "
                                             "'plan NAME' to the spec")
        return
    if not spec.states:
        raise source.error(spec.plan.pos, "a plan needs 'state' variables, one per time step")
    if not spec.actions:
        raise source.error(spec.plan.pos, "a plan needs at least one 'action'")
    if not spec.goals:
        raise source.error(spec.plan.pos, "a plan needs a 'goal'")
    if spec.show_moves is not None:
        raise source.error(spec.show_moves.pos, "a plan shows its moves per action: "
                                                "'show moves ACTION: field = ..., ...'")
    for name, st in spec.show_steps.items():
        if name not in spec.actions:
            raise source.error(st.pos, f"there is no action named '{name}'")


def _pos(node) -> tuple:
    if isinstance(node, lark.Token):
        return (node.line, node.column)
    meta = node.meta
    return (getattr(meta, "line", None), getattr(meta, "column", None))


_OPS = {"and_": "and", "or_": "or", "implies": "->", "iff": "<->"}


class _Builder:
    """Lark tree -> AST.  A hand-written walk keeps the binder checks in one place."""

    def __init__(self, source: Source):
        self.source = source

    # statements
    def stmt(self, t):
        kind = t.data
        ch = t.children
        pos = _pos(t)
        if kind == "puzzle":
            desc = self.string(ch[1]) if ch[1] is not None else ""
            return Puzzle(pos, str(ch[0]), desc)
        if kind == "board":
            options = [BoardOption(_pos(o), str(o.children[0]),
                                   self.expr(o.children[1]) if o.children[1] is not None else None)
                       for o in ch[1:] if o is not None]
            return Board(pos, str(ch[0]), _pos(ch[0]), options)
        if kind == "let":
            name, params_tree, body_tree = ch
            body = self.expr(body_tree)
            params = None
            if params_tree is not None:
                params = [str(p) for p in params_tree.children if p is not None]
                if len(set(params)) != len(params):
                    raise self.source.error(pos, f"repeated parameter name in '{name}'")
            return Let(pos, str(name), params, body)
        if kind in ("var", "state"):
            binders = self.binders(ch[1]) if ch[1] is not None else []
            dom = ch[2]
            domain = None if (isinstance(dom, lark.Tree) and dom.data == "bool_domain") else self.expr(dom)
            return Var(pos, str(ch[0]), binders, domain, state=kind == "state")
        if kind == "rule":
            return Rule(pos, str(ch[1]), self.expr(ch[2]), ch[0] is not None)
        if kind == "require":
            message = self.string(ch[1]) if ch[1] is not None else ""
            return Require(pos, self.expr(ch[0]), message)
        if kind == "show_var":
            name = Name(_pos(ch[1]), str(ch[1]))
            return ShowCell(pos, "c", Index(name.pos, name, [Name(name.pos, "c")]), ch[0] is not None)
        if kind == "show_cell":
            return ShowCell(pos, str(ch[1]), self.expr(ch[2]), ch[0] is not None)
        if kind == "show_canvas":
            return ShowCanvas(pos, self.expr(ch[1]), self.expr(ch[2]), str(ch[3]),
                              self.expr(ch[4]), ch[0] is not None)
        if kind == "show_moves":
            fields = [(str(f.children[0]), self.expr(f.children[1])) for f in ch[1:]]
            return ShowMoves(pos, self.binders(ch[0]), fields)
        if kind == "show_steps":
            fields = [(str(f.children[0]), self.expr(f.children[1])) for f in ch[1:]]
            return ShowSteps(pos, str(ch[0]), fields)
        if kind == "plan":
            return Plan(pos, str(ch[0]))
        if kind == "layers":
            return Layers(pos, [(str(n), _pos(n)) for n in ch])
        if kind == "param":
            return Param(pos, str(ch[0]), self.expr(ch[2]) if ch[2] is not None else None,
                         rest=ch[1] is not None)
        if kind in ("url", "file"):
            names = [c for c in ch if isinstance(c, lark.Tree) and c.data == "type_name"]
            codecs = [Codec(_pos(c), str(c.children[0]),
                            [self.expr(a) for a in c.children[1:]
                             if a is not None and not isinstance(a, lark.Token)],
                            optional=isinstance(c.children[-1], lark.Token))
                      for c in ch if isinstance(c, lark.Tree) and c.data == "codec"]
            return PuzzLink(pos, kind, [("-".join(str(p) for p in n.children), _pos(n))
                                        for n in names], codecs)
        if kind == "solver":
            return SolverHint(pos, str(ch[0]))
        if kind == "portfolio":
            return PortfolioHint(pos, ",".join(":".join(str(n) for n in m.children) for m in ch))
        if kind == "draw":
            values = self.expr(ch[1]) if ch[1] is not None else None
            return Draw(pos, str(ch[0]), values, str(ch[2]), _pos(ch[2]))
        if kind == "action":
            binders = self.binders(ch[1]) if ch[1] is not None else []
            pre = self.expr(ch[2]) if ch[2] is not None else None
            effects = []
            for eff in ch[3:]:
                target = self.expr(eff.children[0])
                if not isinstance(target, (Index, Name)):
                    raise self.source.error(_pos(eff), "the left side of ':=' is a state "
                                                       "variable, such as at[c]")
                effects.append((target, self.expr(eff.children[1])))
            return Action(pos, str(ch[0]), binders, pre, effects)
        if kind == "generate":
            return Generate(pos, self.generate_part(ch[0]))
        if kind == "initial":
            return Start(pos, self.expr(ch[0]))
        if kind == "goal":
            return Goal(pos, self.expr(ch[0]))
        raise AssertionError(kind)  # pragma: no cover

    def generate_part(self, t):
        pos = _pos(t)
        ch = t.children
        if t.data == "gen_cell":
            return GenCell(pos, str(ch[0]), str(ch[1]), self.expr(ch[2]))
        if t.data == "gen_layer":
            return GenCell(pos, "layer", str(ch[1]), self.expr(ch[2]), str(ch[0]))
        if t.data == "gen_size":
            return GenSize(pos, self.expr(ch[0]), self.expr(ch[1]) if ch[1] is not None else None)
        if t.data == "gen_rules":
            return GenRules(pos, [(str(n), _pos(n)) for n in ch])
        return self.stmt(t)

    def string(self, tok) -> str:
        body = str(tok)[1:-1]
        return body.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in body else body

    # binders
    def via(self, call, tree):
        """`via near`, or `via y in near where joined` (joins that may depend
        on variables: groupsize only)."""
        near, where = tree.children
        call.via = self.expr(near)
        if where is None:
            return
        if call.func != "groupsize":
            raise self.source.error(_pos(where), "'via ... where' (joins that depend on a "
                                                 "condition) is for groupsize(...); connected "
                                                 "takes 'via near'")
        v = call.via
        if not (type(v) is Compare and v.op == "in" and type(v.left) is Name):
            raise self.source.error(_pos(near), "'via ... where' names the element joined: "
                                                "'via y in neighbours(x) where ...'")
        call.via, call.via_name, call.via_where = v.right, v.left.id, self.expr(where)

    def binders(self, items) -> list:
        return [self.binder(it) for it in items.children]

    def binder(self, item) -> Binder:
        test, where = item.children
        pos = _pos(item)
        if not (isinstance(test, lark.Tree) and test.data == "member"):
            raise self.source.error(pos, "expected a binder such as 'c in cells'")
        target, src = test.children
        if isinstance(target, lark.Tree) and target.data == "name":
            names = (str(target.children[0]),)
        elif isinstance(target, lark.Tree) and target.data == "tuple" and all(
                isinstance(x, lark.Tree) and x.data == "name" for x in target.children if x is not None):
            names = tuple(str(x.children[0]) for x in target.children if x is not None)
        else:
            raise self.source.error(pos, "the left side of a binder must be a name or a tuple of names")
        return Binder(pos, names, self.expr(src), self.expr(where) if where is not None else None)

    def plain_items(self, items) -> list:
        out = []
        for it in items.children:
            test, where = it.children
            if where is not None:
                raise self.source.error(_pos(it), "'where' belongs to a binder, as in 'x in S where p: ...'")
            out.append(self.expr(test))
        return out

    # expressions
    def expr(self, t) -> Expr:
        if isinstance(t, lark.Token):  # pragma: no cover - atoms are always wrapped
            raise self.source.error(_pos(t), f"unexpected {t!s}")
        kind = t.data
        ch = t.children
        pos = _pos(t)
        if kind == "number":
            return Num(pos, int(ch[0]))
        if kind == "string":
            return Str(pos, self.string(ch[0]))
        if kind == "true":
            return BoolLit(pos, True)
        if kind == "false":
            return BoolLit(pos, False)
        if kind == "name":
            return Name(pos, str(ch[0]))
        if kind in _OPS:
            return BoolOp(pos, _OPS[kind], self.expr(ch[0]), self.expr(ch[1]))
        if kind == "not_":
            return Not(pos, self.expr(ch[0]))
        if kind == "compare":
            return Compare(_pos(ch[1]), str(ch[1]), self.expr(ch[0]), self.expr(ch[2]))
        if kind == "member":
            return Compare(pos, "in", self.expr(ch[0]), self.expr(ch[1]))
        if kind == "not_member":
            return Compare(pos, "notin", self.expr(ch[0]), self.expr(ch[1]))
        if kind == "binary":
            return Binary(_pos(ch[1]), str(ch[1]), self.expr(ch[0]), self.expr(ch[2]))
        if kind == "neg":
            inner = self.expr(ch[0])
            if isinstance(inner, Num):
                return Num(pos, -inner.value)
            return Neg(pos, inner)
        if kind == "range":
            return Range(pos, self.expr(ch[0]), self.expr(ch[1]))
        if kind == "ite":
            return Ite(pos, self.expr(ch[0]), self.expr(ch[1]), self.expr(ch[2]))
        if kind == "let_in":
            binds, body = ch[:-1], ch[-1]
            return LetIn(pos, [str(b.children[0]) for b in binds],
                         [self.expr(b.children[1]) for b in binds], self.expr(body))
        if kind == "quantifier":
            return Quant(pos, str(ch[0]), self.binders(ch[1]), self.expr(ch[2]))
        if kind == "index":
            return Index(pos, self.expr(ch[0]), [self.expr(x) for x in ch[1:]])
        if kind == "field_access":
            return Field(_pos(ch[1]), self.expr(ch[0]), str(ch[1]))
        if kind == "call":
            func = str(ch[0])
            args = ch[1]
            if args is None:
                return Call(pos, func, [])
            if args.data == "args_generator":
                return Call(pos, func, [], self.binders(args.children[1]), self.expr(args.children[0]))
            if args.data == "args_from_via":
                items, body, root, via = args.children
            else:
                items, body, via, root = args.children
            near = via.children[0] if via is not None else None
            for part, word, what in ((near, "via", "what joins an element"), (root, "from", "the roots")):
                if part is not None and func not in ("connected", "groupsize"):
                    raise self.source.error(_pos(part), f"'{word}' names {what} of connected(...); "
                                                        f"'{func}' takes none")
            if root is not None or via is not None:
                call = Call(pos, func, [], self.binders(items), self.expr(body),
                            None if root is None else self.expr(root))
                if via is not None:
                    self.via(call, via)
                return call
            if body is not None:
                return Call(pos, func, [], self.binders(items), self.expr(body))
            if func == "count" and any(it.children[1] is not None for it in items.children):
                # count(x in S where p) counts the elements that pass the filter
                return Call(pos, func, [], self.binders(items), BoolLit(pos, True))
            return Call(pos, func, self.plain_items(items))
        if kind == "tuple":
            return Collection(pos, "tuple", [self.expr(x) for x in ch if x is not None])
        if kind in ("list", "set"):
            return Collection(pos, kind, [self.expr(x) for x in ch if x is not None])
        if kind in ("list_comp", "set_comp"):
            return Comprehension(pos, kind[:-5], self.expr(ch[0]), self.binders(ch[1]))
        raise AssertionError(kind)  # pragma: no cover
