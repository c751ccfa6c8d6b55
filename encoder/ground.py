"""Stage: ground.  Spec + instance -> Model (the IR), quantifiers unrolled.

    var n[c in cells] : 0..6
    rule numbers: all c in cells: full[c] -> n[c] = count(d in neighbours(c): full[d])

on a board whose cell (0, 0) has neighbours (0, 1), (1, 0), (1, 1) grounds to one
constraint per cell, e.g.

    (not full[(0, 0)]) or lin(1*n[(0, 0)] - full[(0, 1)] - full[(1, 0)] - full[(1, 1)] = 0)

Constant parts fold away while grounding (``given(c) -> ...`` on a blank cell
is simply true), so the model holds only what depends on the variables.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..runtime.deep_stack import deep_stack
from ..runtime import clock
from ..runtime.errors import PzcError
from . import syntax as ast
from .check import names_in
from .interpreter.evaluate import Interpreter
from .interpreter.values import SYMBOLIC, PSet, describe, is_collection
from ..runtime.gc_pause import without_gc
from ..runtime.limits import MAX_DOMAIN_VALUES, MAX_MODEL_VALUES, MemoryBudget
from .model import Domain, Model


@dataclass(eq=False)
class Ground:
    """The result of grounding: the model and what later stages need to read it."""
    spec: ast.Spec
    instance: object
    model: Model
    interpreter: "Grounder"


class Grounder(Interpreter):
    """Reads spec variables as model atoms, creating them on first use."""

    def __init__(self, spec, instance, model):
        super().__init__(spec, instance, model)
        self.index_sets = {}
        self._last_domain = (None, None)   # (collection, its checked values): vars share one
        self.values = 0                    # values of the variables so far, a bool one

    def declare(self, stmt: ast.Var):
        """Create the model variables of one `var` statement."""
        m = self.model
        table = {}
        env = {}
        single = len(stmt.binders) == 1 and len(stmt.binders[0].names) == 1
        if stmt.binders:
            self.check_index_size(stmt)
        for guard in self.bind(stmt.binders, env):
            if guard is not None:
                raise self.err(stmt, "the index set of a variable must not depend on variables")
            if single:
                key = (env[stmt.binders[0].names[0]],)
            else:
                key = tuple(env[b.names[0]] if len(b.names) == 1 else tuple(env[n] for n in b.names)
                            for b in stmt.binders)
            domain = self.domain_of(stmt, env)
            self.values += 1 if domain is None else len(domain)
            if self.values > MAX_MODEL_VALUES:
                raise self.err(stmt, f"the variables declared up to '{stmt.name}' have more than "
                                     f"{MAX_MODEL_VALUES:,} values in all on this instance "
                                     f"(a bool counts one, an int or symbol variable one per "
                                     f"value of its domain); pzc allows at most "
                                     f"{MAX_MODEL_VALUES:,}")
            table[key] = m.new_var(stmt.name, key, domain)
        if not table and stmt.binders:
            raise self.err(stmt, f"'{stmt.name}' has no elements on this instance "
                                 "(its index set is empty)")
        m.spec_vars[stmt.name] = table

    def check_index_size(self, stmt):
        """Index sets bigger than the whole model may be are an error before
        any variable is made: the product of the sizes of the binders that
        do not depend on earlier ones (the rest are counted as made)."""
        size = 1
        earlier = set()
        for b in stmt.binders:
            if b.where is None and not earlier & names_in(b.source):
                coll = self.eval(b.source, {})
                if is_collection(coll):
                    size *= len(coll)
            earlier.update(b.names)
        if size + self.values > MAX_MODEL_VALUES:
            raise self.err(stmt, f"'{stmt.name}' would have {size:,} elements; pzc allows at "
                                 f"most {MAX_MODEL_VALUES:,} values over all variables")

    def domain_of(self, stmt, env):
        if stmt.domain is None:
            return None
        dom = self.eval(stmt.domain, env)
        if dom is self._last_domain[0]:
            return self._last_domain[1]
        if isinstance(dom, SYMBOLIC):
            raise self.err(stmt.domain, "a domain must not depend on variables")
        if not is_collection(dom) or type(dom) is str:
            raise self.err(stmt.domain, f"a domain is 'bool', a range such as 1..9 or a set, "
                                        f"not {describe(dom)}")
        if len(dom) > MAX_DOMAIN_VALUES:
            raise self.err(stmt.domain, f"the domain of '{stmt.name}' has {len(dom):,} values; "
                                        f"pzc allows at most {MAX_DOMAIN_VALUES:,} (each value "
                                        f"is a Boolean of the encoding)")
        values = Domain(dict.fromkeys(dom))
        if not values:
            raise self.err(stmt.domain, f"the domain of '{stmt.name}' is empty on this instance")
        for v in values:
            if type(v) is bool or not isinstance(v, (int, str, tuple)):
                raise self.err(stmt.domain, f"domain values are ints, symbols or cells, "
                                            f"not {describe(v)}")
        self._last_domain = (dom, values)
        return values

    def variable(self, stmt, key, node):
        table = self.model.spec_vars.get(stmt.name)
        if table is None:
            raise self.err(node, f"'{stmt.name}' is used before its index set is known")
        var = table.get(key)
        if var is None:
            shown = ", ".join(repr(k) for k in key)
            raise self.err(node, f"'{stmt.name}' has no element [{shown}] on this instance")
        if var.domain is None:
            return self.model.bvar(var)
        return var

    def reader(self, stmt):
        if stmt.state:
            return super().reader(stmt)
        tables = self.model.spec_vars
        bvar = self.model.bvar
        name = stmt.name
        variable = self.variable

        table = tables.get(name)
        if table is not None:            # declared already: its table bound here
            def read_declared(key, node):
                var = table.get(key)
                if var is None:
                    return variable(stmt, key, node)     # says what is missing
                return var if var.domain is not None else bvar(var)
            return read_declared

        def read(key, node):
            table = tables.get(name)
            var = table.get(key) if table is not None else None
            if var is None:
                return variable(stmt, key, node)     # says what is missing
            return var if var.domain is not None else bvar(var)
        return read


@without_gc
@deep_stack
def ground(spec: ast.Spec, instance) -> Ground:
    """Ground every var and rule of ``spec`` on ``instance``."""
    g = declared(spec, instance)
    model = g.model
    for rule in spec.rules:
        model.memory.statement = rule         # where running out of memory points
        clock.check()
        value = g.eval(rule.body, {})
        value = g.want_bool(rule.body, value)
        if type(value) is bool:
            value = model.const(value)
        (model.implied if rule.implied else model.constraints).append((rule, value))
    model.memory = None                       # the encoders watch their own output
    g.release()
    return Ground(spec, instance, model, g)


def declared(spec: ast.Spec, instance, listen: bool = False) -> Grounder:
    """A grounder on a new model, the instance checked (requires, clue
    values) and every variable declared; the rules are the caller's.
    ``listen``: record the clue cells read from here on (explain)."""
    if instance.unreadable is not None:
        raise instance.unreadable
    if spec.plan is not None:
        raise PzcError(f"{spec.name} is a move puzzle: `pzc solve` finds its shortest plan "
                       "(counting, uniqueness, DIMACS export, decoding and explanations are "
                       "for board puzzles)")
    model = Model()
    model.source = spec.source
    model.memory = MemoryBudget(spec.source)
    g = Grounder(spec, instance, model)
    if listen:
        g.clue_reads = set()     # let calls memoised from here on remember their reads
    check_requires(g)
    check_clues(g)
    for stmt in spec.vars.values():
        clock.check()                # cheap; the alarm (runtime/clock.py) stops the rest
        g.declare(stmt)
    return g


def check_clues(it: Interpreter):
    """The board option `clues: S` lists the clue values an instance may use."""
    option = board_option(it.spec, "clues")
    if option is None or option.value is None:
        return
    allowed = it.eval(option.value, {})
    if not is_collection(allowed):
        raise it.err(option.value, f"'clues' is a set of allowed clue values, not {describe(allowed)}")
    # a range answers `in` itself: 0..100000000 as a set would take gigabytes
    allowed_set = allowed if type(allowed) is range else set(allowed)
    inst = it.instance
    for cell, value in inst.clues.items():
        # a list of numbers (board option lists) is allowed when each of them is
        if value not in allowed_set if type(value) is not tuple else any(
                x not in allowed_set for x in value):
            article = "an" if it.spec.name[:1].lower() in "aeiou" else "a"
            raise inst.error(cell, f"{inst.tokens[cell]!r} is not allowed in {article} "
                                   f"{it.spec.name} instance (clues are "
                                   f"{_describe_allowed(allowed)})")


def check_requires(it: Interpreter):
    """`require test else "message"`: the instance is rejected unless test holds."""
    for req in it.spec.requires:
        value = it.eval(req.test, {})
        if isinstance(value, SYMBOLIC):
            raise it.err(req.test, "a require must not depend on the puzzle's variables")
        value = it.want_bool(req.test, value)
        if not value:
            message = req.message or (f"this instance does not meet the requirement on line "
                                      f"{req.pos[0]} of the {it.spec.name} spec")
            raise it.instance.error(None, message)


def _describe_allowed(allowed) -> str:
    if type(allowed) is range and len(allowed) > 0:
        return f"{allowed.start}..{allowed.stop - 1}"
    items = list(allowed)
    text = ", ".join(repr(v) if type(v) is str else str(v) for v in items[:12])
    return text + (", ..." if len(items) > 12 else "")


def board_option(spec, name):
    for opt in spec.board.options:
        if opt.name == name:
            return opt
    return None


def blank_tokens(spec) -> set:
    """The tokens that mean 'no clue' on the spec's board (``blank:``, else '.')."""
    opt = board_option(spec, "blank")
    return set(opt.value.value) if opt is not None else {"."}
