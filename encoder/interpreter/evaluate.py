"""The spec interpreter shared by grounding and verification.

An ``Interpreter`` walks the AST of a spec on one instance.  Constant parts are
computed with plain Python values: ints, bools, symbols (str), cells (tuples),
edges, lists (tuples), sets (``PSet``) and JSON records.  Where a decision
variable appears, the value is symbolic (a model Node, Var, Cases or LinExpr)
and the operation is handed to the Model, which builds the IR.

The grounder (ground.py) reads a variable as its model atom; the verifier
(verify.py) reads it as the decoded value, so that every rule folds to a plain
True or False without any solver or model involved.
"""

from __future__ import annotations

from ...runtime import clock
from ..builtins import FUNCTIONS as BUILTIN_FUNCTIONS, VALUES as BUILTIN_VALUES
from ...board.geometry import SquareGrid
from ...runtime.errors import PzcError, plural
from .aggregates import AGGREGATES
from .closures import Closures
from ...runtime.limits import MAX_COLLECTION_ITEMS
from ..model import Cases, GroupSize, LinExpr, Node, Var
from .operators import Operators
from .. import syntax as ast
from .values import SYMBOLIC, PSet, describe, is_collection

MAX_BOARD = 4_000_000      # cells in a board's bounding box
MAX_CALL_DEPTH = 10_000    # let calls (and let values) evaluated inside each other
_MISSING = object()
_PLAIN_ARGS = (int, str, tuple, bool)
# name -> impl(it, node) of each built-in value
_VALUE_IMPLS = {name: impl for name, (_, impl) in BUILTIN_VALUES.items()}
BUILTIN_NAMES = set(BUILTIN_VALUES) | set(BUILTIN_FUNCTIONS) | set(AGGREGATES)


class Interpreter(Closures, Operators):
    """Evaluates spec expressions on one instance (see the module docstring).
    The closure compilers are in closures.py, the operations on evaluated
    values in operators.py; here are the entry points, names, binders, calls."""

    # True while each place of a drawing records the variables it reads
    # (render.cell_tokens's ``reads``): no value read from the answer is then
    # taken from a cache, where the reads of the place that filled it would be
    place_reads = False

    # ----------------------------------------------------------- lifetime

    def __init__(self, spec: ast.Spec, instance, model=None):
        self.spec = spec
        self.instance = instance
        self.model = model
        self.source = spec.source
        self.geometry = instance.geometry
        self._let_values = {}
        self._let_busy = set()
        self._memo = {}
        self.state_reads = 0      # plans: reads of a `state`, whose value depends on the step
        self._depth = 0
        self._calls = 0                  # let function calls evaluated, for the clock
        self.adjacency_cache = {}      # connected(...) over the same elements: one graph
        self.partitions = {}           # groupsize(...) call and what it reads -> its groups
        self._variables_read = {}  # (reader, id of elements) -> their variables (aggregates.py)
        self.builtins = _VALUE_IMPLS
        self._code = {}               # AST node -> its closure (see code())
        self.builtin_values = {}     # name -> value of a builtin such as cells or labels
        self.clue_cells = {}          # clue(...) call node -> the cell it read last
        # explain (tasks/explain/members.py): the clue cells clue(k)/given(k) read
        # while one rule instance is grounded, None when nobody is listening
        self.clue_reads = None
        self._memo_reads = {}         # a memoised let call -> the clue cells it read
        if spec.board.kind == "json":
            self._setup_json_board()

    def release(self):
        """Drop the closures: they refer back to the interpreter, a cycle that
        would keep it and its model alive until the garbage collector runs.
        They are built again if the interpreter is used later."""
        self._code.clear()
        self._variables_read.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    # ----------------------------------------------------------- errors

    def err(self, node, message: str) -> PzcError:
        return self.source.error(node.pos, message)

    def value_err(self, node, message: str, clue_message: str) -> PzcError:
        """An error about the value of ``node``: where node is a clue(...)
        call, at the clue's cell in the instance (``clue_message``, with where
        the spec reads it), else at node (``message``)."""
        cell = self.clue_cells.get(node) if type(node) is ast.Call else None
        if cell is None:
            return self.err(node, message)
        line, column = node.pos
        return self.instance.error(cell, f"{clue_message} ({self.spec.name} reads it at "
                                         f"{self.source.path}:{line}:{column})")

    def want_bool(self, node, v):
        if type(v) is bool or type(v) is Node:
            return v
        raise self.value_err(node, f"expected a bool here, but this is {describe(v)}",
                             f"this clue is {describe(v)}, where a bool is needed")

    def want_int(self, node, v):
        if type(v) is int or type(v) is LinExpr or (type(v) in (Var, Cases) and v.numeric):
            return v
        if type(v) is GroupSize:
            raise self.err(node, _GROUPSIZE_COMPARED)
        if type(v) is bool or type(v) is Node:
            raise self.err(node, "a bool is used as an int here; count(...) or "
                                 "'if ... then 1 else 0' turns bools into numbers")
        raise self.value_err(node, f"expected an int here, but this is {describe(v)}",
                             f"this clue is {describe(v)}, where a number is needed")

    def want_const(self, node, v, what="value"):
        if isinstance(v, SYMBOLIC) or type(v) is GroupSize:
            raise self.err(node, f"this {what} must not depend on the puzzle's variables")
        return v

    def want_collection(self, node, v):
        if type(v) in (tuple, PSet, range, str):
            return v
        if isinstance(v, SYMBOLIC):
            raise self.err(node, "a set to range over must not depend on the puzzle's variables")
        raise self.err(node, f"expected a set or list here, but this is {describe(v)}")

    def want_storable(self, node, size: int) -> None:
        """A collection about to be built element by element (a set from a
        range, a union) is at most MAX_COLLECTION_ITEMS long."""
        if size > MAX_COLLECTION_ITEMS:
            raise self.err(node, f"this builds a list or set of {size:,} elements; pzc allows "
                                 f"at most {MAX_COLLECTION_ITEMS:,}")

    # ----------------------------------------------------------- entry points

    def eval(self, node, env):
        f = self._code.get(node)
        if f is None:
            f = self.code(node)
        return f(env)

    def variable(self, stmt: ast.Var, key: tuple, node):
        """The value of spec variable ``stmt`` at ``key`` (subclasses decide)."""
        raise NotImplementedError

    def reader(self, stmt: ast.Var):
        """A function (key, node) -> the value of ``stmt`` at key, as
        ``variable`` gives it; subclasses return quicker ones."""
        variable = self.variable
        return lambda key, node: variable(stmt, key, node)

    def global_value(self, name: str, node):
        if name in self.spec.lets:
            let = self.spec.lets[name]
            if let.params is not None:
                raise self.err(node, f"'{name}' is a function of {len(let.params)} "
                                     f"argument(s); call it as {name}(...)")
            if name in self._let_values:
                return self._let_values[name]
            if name in self._let_busy:
                raise self.err(node, f"'{name}' is defined in terms of itself")
            self._let_busy.add(name)
            reads = self.state_reads
            # a value computed from all the clues is the board's shape: what it
            # reads is no rule instance's (explain keeps it as background)
            listening, self.clue_reads = self.clue_reads, None
            try:
                value = self._nested(node, let.body, {})
            finally:
                self._let_busy.discard(name)
                self.clue_reads = listening
            if self.state_reads == reads:      # a value read from a state is per step
                self._let_values[name] = value
            return value
        if name in self.spec.vars:
            var = self.spec.vars[name]
            if var.binders:
                raise self.err(node, f"'{name}' is indexed: write {name}[...]")
            return self.variable(var, (), node)
        fn = self.builtins.get(name)
        if fn is not None:
            # builtins depend on the instance only: compute each once
            value = self.builtin_values.get(name, _MISSING)
            if value is _MISSING:
                value = self.builtin_values[name] = fn(self, node)
            return value
        if name in BUILTIN_FUNCTIONS:
            raise self.err(node, f"'{name}' is a function: call it as {name}(...)")
        raise self.err(node, f"unknown name '{name}'")

    # ----------------------------------------------------------- binders

    def bind(self, binders, env, i=0, guard=None):
        """Yield the guard (None, or a bool Node from a symbolic `where`) for every
        combination of binder values, with ``env`` updated in place."""
        if i == len(binders):
            yield guard
            return
        b = binders[i]
        coll = self.want_collection(b.source, self.eval(b.source, env))
        names = b.names
        last = i == len(binders) - 1
        before = saved(env, names)
        try:
            if last and len(names) == 1 and b.where is None:
                name = names[0]
                for value in coll:
                    env[name] = value
                    yield guard
                return
            for value in coll:
                if len(names) == 1:
                    env[names[0]] = value
                else:
                    self.unpack(b, env, value)
                g = guard
                if b.where is not None:
                    w = self.want_bool(b.where, self.eval(b.where, env))
                    if w is False:
                        continue
                    if w is not True:
                        g = w if g is None else self.model.and_([g, w])
                if last:             # no generator per element for the innermost binder
                    yield g
                else:
                    yield from self.bind(binders, env, i + 1, g)
        finally:
            restore(env, names, before)

    def unpack(self, binder, env, value):
        """Bind the names of ``binder`` (two or more) to the parts of ``value``."""
        names = binder.names
        if not isinstance(value, tuple) or len(value) != len(names):
            raise self.err(binder, f"cannot unpack {describe(value)} into {len(names)} names")
        for n, x in zip(names, value):
            env[n] = x

    # ----------------------------------------------------------- calls

    def _call(self, node, env):
        name = node.func
        if name not in env and name in self.spec.lets:
            return self._call_let(node, env)
        agg = AGGREGATES.get(name)
        if agg is not None:
            return agg(self, node, env)
        fn = BUILTIN_FUNCTIONS.get(name)
        if fn is None:
            if name in self.spec.vars:
                raise self.err(node, f"'{name}' is a variable: index it as {name}[...]")
            raise self.err(node, f"unknown function '{name}'")
        if node.binders is not None:
            raise self.err(node, f"'{name}' takes plain arguments, not binders")
        params, _, impl = fn
        if len(node.args) != len(params):
            raise self.err(node, f"'{name}' takes {plural(len(params), 'argument')}, "
                                 f"not {len(node.args)}")
        args = [self.eval(a, env) for a in node.args]
        return impl(self, node, args)

    def _call_let(self, node, env):
        let = self.spec.lets[node.func]
        if let.params is None:
            raise self.err(node, f"'{let.name}' is a value, not a function")
        if node.binders is not None:
            raise self.err(node, f"'{let.name}' takes plain arguments, not binders")
        if len(node.args) != len(let.params):
            raise self.err(node, f"'{let.name}' takes {plural(len(let.params), 'argument')}, "
                                 f"not {len(node.args)}")
        return self._apply_let(node, let, tuple(self.eval(a, env) for a in node.args))

    def call_let(self, name: str, args: tuple):
        """The value of the let function ``name`` on evaluated ``args``
        (an error in it is located in its body)."""
        let = self.spec.lets[name]
        return self._apply_let(let, let, tuple(args))

    def _apply_let(self, node, let, args):
        """A let function's value on evaluated arguments (memoised when constant)."""
        key = None
        for a in args:                   # (plain arguments told by their type first)
            if type(a) not in _PLAIN_ARGS and isinstance(a, SYMBOLIC):
                break
        else:
            try:
                key = (let.name, args)
                hit = self._memo.get(key, _MISSING)
                if hit is not _MISSING:
                    if self.clue_reads is not None:      # what it read then, read again
                        self.clue_reads.update(self._memo_reads.get(key, ()))
                    return hit
            except TypeError:
                key = None
        self._calls += 1
        if not self._calls & 1023:       # a let function can call itself 2^40 times:
            clock.check()                # the alarm (runtime/clock.py) stops it too
        reads = self.state_reads
        listening = self.clue_reads
        if listening is not None:
            self.clue_reads = set()
        try:
            value = self._nested(node, let.body, dict(zip(let.params, args)))
        finally:
            if listening is not None:
                mine, self.clue_reads = self.clue_reads, listening
                listening |= mine
        if key is not None and self.state_reads == reads:
            self._memo[key] = value
            if listening is not None and mine:
                self._memo_reads[key] = frozenset(mine)
        return value

    def _nested(self, node, body, env):
        """Evaluate a let's body, called at ``node``, one level deeper; past
        MAX_CALL_DEPTH levels, or when Python's frames run out first (see
        runtime/deep_stack.py), a located error at the call."""
        if self._depth >= MAX_CALL_DEPTH:
            raise self.err(node, f"functions call each other too deeply (more than "
                                 f"{MAX_CALL_DEPTH:,} calls inside each other)")
        self._depth += 1
        try:
            return self.eval(body, env)
        except RecursionError:
            if self._depth > 1:
                raise                # reported at the outermost call
            raise self.err(node, "functions call each other too deeply (Python's "
                                 "stack ran out; make the recursion shallower)") from None
        finally:
            self._depth -= 1

    # ----------------------------------------------------------- JSON boards

    def _setup_json_board(self):
        if "cells" not in self.spec.lets:
            raise self.source.error(self.spec.board.pos, "a json board needs 'let cells = ...', "
                                    "the set of (row, column) cells read from the instance")
        let = self.spec.lets["cells"]
        cells = self.eval(let.body, {})
        if not is_collection(cells) or not all(
                type(c) is tuple and len(c) == 2 and all(type(x) is int and x >= 0 for x in c)
                for c in cells):
            raise self.err(let.body, "cells must be a set of (row, column) pairs of "
                                     "non-negative ints")
        if not cells:
            raise self.err(let.body, "this instance has no cells")
        cells = sorted(set(cells))
        width = max(c for _, c in cells) + 1
        height = max(r for r, _ in cells) + 1
        if width * height > MAX_BOARD:
            raise self.instance.error(None, f"the board spans {height} x {width} cells "
                                            f"(rows and columns from 0); at most {MAX_BOARD} "
                                            "are supported")
        self.geometry = SquareGrid(width, height, cells)
        self.instance.geometry = self.geometry


def saved(env, names) -> list:
    """The values of ``names`` in ``env`` now, for restore()."""
    return [env.get(n, _MISSING) for n in names]


def restore(env, names, values):
    """Put back in ``env`` the ``values`` of ``names`` that saved() gave."""
    for n, old in zip(names, values):
        if old is _MISSING:
            env.pop(n, None)
        else:
            env[n] = old


_GROUPSIZE_COMPARED = ("groupsize(...) depends on the puzzle's variables here; it can only be "
                       "compared (= != < <= > >=) with a number or a variable, or with another "
                       "groupsize(...) over the same elements")
