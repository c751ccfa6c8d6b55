"""Stage: generate.  A spec's `generate` lines -> a puzzle with one solution.

The lines describe a solution without clues, and the clues it gives:

    generate rules rows, columns, boxes    # the spec's rules that hold with no clues
    generate clue c: v[c]                  # what a solution writes on cell c

A clue cannot in general stand for a variable (Nurikabe's islands reach as
far as their clue says), so generation works on plain values:

1. model: the generation model, a spec of its own: the spec's lets, the rules
   named by `generate rules` with the variables they read, and the
   `generate let/var/rule` lines; grounded on a blank board of the size.
2. draw: solve it with random phases from the seed: a random solution,
   checked by the evaluator.
3. derive: the `generate clue/given/layer` expressions, evaluated on that
   solution: an instance holding every clue the solution gives.
4. reduce (tasks/generate/driver.py): each clue cell in random order is blanked (or set
   to its `generate removed` value) if the spec's own rules, grounded on the
   smaller instance, still have one solution.  A clue that could not go
   cannot go later either (fewer clues never make a puzzle unique), so one
   pass leaves a minimal puzzle.

    clue c: v[c] on a solved 4x4   ->  every cell a clue  ->  1 . . .
                                                              . . 3 .   (unique,
                                                              . 4 . .    minimal)
                                                              . . . 2
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...encoder.builtins.clues import token_text
from ...board.geometry import HexGrid, SquareGrid
from ...runtime.errors import EXIT_VERIFY, PzcError, Source
from ...encoder import syntax as ast
from ...encoder.ground import blank_tokens
from ...encoder.instance import Instance, Record
from ...encoder.interpreter.plain import names_read
from ...encoder.verify import AnswerChecker, verify

GENERATED = "<generated>"     # the name of a generated instance, in errors about it
CELL_KINDS = ("clue", "given", "removed", "locked", "shuffle")
MAX_SIDE = 200          # a board side generate accepts (square boards; hexagons: 30)


@dataclass(eq=False)
class Drawn:
    """A random solution of the generation model and the instance it gives."""
    instance: Instance           # every clue the solution gives
    removable: list              # the clue cells reduce may blank, in the board's order
    removed: dict                # cell -> the value a removed clue leaves (absent: blank)
    locks: list = field(default_factory=list)    # the locked cells reduce may unlock
    answer: object = None        # the drawn solution


def generation_spec(spec: ast.Spec) -> ast.Spec:
    """The generation model as a spec of its own (checked by the caller)."""
    gen = spec.generate
    if gen is None:
        raise PzcError(f"the spec '{spec.name}' has no 'generate' lines: add "
                       "'generate clue c: EXPR' (and the rules a solution keeps) to generate "
                       "its puzzles; docs/tutorial.md shows how")
    if "clue" not in gen.cells and "given" not in gen.cells and not gen.layers:
        raise spec.source.error(gen.pos, "the generate lines say no clue: add "
                                         "'generate clue c: EXPR' or 'generate given c: EXPR'")
    out = ast.Spec(spec.source, [], generation=True)
    out.puzzle, out.board, out.params, out.layers = spec.puzzle, spec.board, spec.params, spec.layers
    statements = [spec.puzzle, spec.board] + list(spec.params.values())
    if gen.rules is not None:
        by_name = {r.name: r for r in spec.rules}
        for name, pos in gen.rules.names:
            if name not in by_name:
                raise spec.source.error(pos, f"the spec has no rule named '{name}'")
            out.rules.append(by_name[name])
        out.vars = {n: v for n, v in spec.vars.items() if not v.state}
        statements += list(out.vars.values()) + out.rules
    # the spec's lets, but those that read a variable the model does not have
    # (a drawing of the answer, say)
    missing = set(spec.vars) - set(out.vars)
    for name, let in _lets_without(spec.lets, missing).items():
        out.lets[name] = let
        if let in spec.statements:
            statements.append(let)
    for st in gen.statements:
        if st.name in out.lets or st.name in out.vars or st.name in spec.params:
            raise spec.source.error(st.pos, f"'{st.name}' is already a name of the generation "
                                            "model (a let of the spec, or a variable of the "
                                            "rules it keeps)")
        if isinstance(st, ast.Let):
            out.lets[st.name] = st
        elif isinstance(st, ast.Var):
            out.vars[st.name] = st
        elif isinstance(st, ast.Rule):
            if any(r.name == st.name for r in out.rules):
                raise spec.source.error(st.pos, f"there is already a rule named '{st.name}'")
            out.rules.append(st)
        statements.append(st)
    shows = [ast.ShowCell(c.pos, c.cell, c.body) for c in _cell_lines(gen)]
    out.statements = statements + shows
    out.show_cell = shows[0]
    if not out.vars:
        raise spec.source.error(gen.pos, "the generation model has no variables: add "
                                         "'generate rules ...' (the spec's rules that hold "
                                         "without clues) or 'generate var ...'")
    return out


def _lets_without(lets: dict, names: set) -> dict:
    """The lets that read none of ``names``, directly or through other lets."""
    reads = {name: names_read(let.body, calls=True) for name, let in lets.items()}
    bad = set(names)
    grew = True
    while grew:
        grew = False
        for name, read in reads.items():
            if name not in bad and read & bad:
                bad.add(name)
                grew = True
    return {name: let for name, let in lets.items() if name not in bad}


def _cell_lines(gen) -> list:
    return [gen.cells[k] for k in CELL_KINDS if k in gen.cells] + list(
        gen.layers.values())


def board_size(spec: ast.Spec, size: tuple | None) -> tuple:
    """(width, height) for a square board or (side, None) for a hexagon: the
    --size given, else the spec's `generate size`."""
    if size is not None:
        return size
    gen = spec.generate
    if gen is None or gen.size is None:
        raise PzcError(f"give the board's size with --size (the spec '{spec.name}' has no "
                       "'generate size' line)")
    sides = [e for e in (gen.size.width, gen.size.height) if e is not None]
    for e in sides:
        if not isinstance(e, ast.Num):
            raise spec.source.error(e.pos, "a generate size is a number, or two: width, height")
    return (sides[0].value, sides[1].value if len(sides) > 1 else None)


def undrawn_layers(spec: ast.Spec) -> list:
    """The layers the spec's instances hold (beside clues) that its generate
    lines do not draw: a board for it comes from an instance (--like)."""
    return [name for name, pos in (spec.layers.names if spec.layers is not None else [])
            if name != "clues" and name not in spec.generate.layers]


def board_made(spec: ast.Spec) -> str:
    """How `pzc generate` gets a board for this spec: its default size as
    --size takes it ("10x10"; "4", a hexagon's side), "--size" (none given),
    "--like" (taken from an instance) or "-" (it has no generate lines)."""
    if spec.generate is None or spec.board.kind not in ("square", "hex"):
        return "-"
    if undrawn_layers(spec):
        return "--like"
    try:
        w, h = board_size(spec, None)
    except PzcError:
        return "--size"
    return f"{w}" if spec.board.kind == "hex" else f"{w}x{w if h is None else h}"


def blank_instance(spec: ast.Spec, size: tuple, params: dict) -> Instance:
    """A board of the size with no clues; ``params`` fill the spec's parameters."""
    missing = undrawn_layers(spec)
    if missing:
        raise PzcError(f"the spec '{spec.name}' reads the layer '{missing[0]}', which its "
                       "generate lines do not draw: take it from an instance with "
                       "--like INSTANCE")
    _check_board(spec)
    w, h = size
    source = Source(GENERATED, "")
    if spec.board.kind == "hex":
        if h is not None:
            raise PzcError(f"'{spec.name}' has a hexagonal board: --size is its side, one number")
        if not 1 <= w <= 30:
            raise PzcError("a hexagon's side is 1..30")
        geometry, layout = HexGrid(w), "hex"
    else:
        h = w if h is None else h
        if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
            raise PzcError(f"a board is 1..{MAX_SIDE} cells a side")
        geometry, layout = SquareGrid(w, h), "tokens"
    return Instance("generated", source, layout, geometry, params=_params(spec, params, {}))


def _check_board(spec: ast.Spec):
    if spec.board.kind not in ("square", "hex"):
        raise PzcError(f"generate makes square and hexagonal boards; '{spec.name}' has a "
                       f"{spec.board.kind} board")


def _params(spec: ast.Spec, given: dict, instance: dict) -> dict:
    """The spec's parameters: --param's value, else the instance's (--like),
    else the spec's default."""
    unknown = sorted(set(given) - set(spec.params))
    if unknown:
        raise PzcError(f"the spec '{spec.name}' has no parameter '{unknown[0]}'"
                       + (f" (it has: {', '.join(spec.params)})" if spec.params else ""))
    out = {}
    for name, p in spec.params.items():
        if name in given:
            out[name] = given[name]
        elif name in instance:
            out[name] = instance[name]
        elif p.default is not None:
            out[name] = p.default.value
        else:
            raise PzcError(f"the spec's parameter '{name}' has no default: give it with "
                           f"--param {name}=VALUE")
    return out


def like_instance(spec: ast.Spec, like: Instance, params: dict) -> Instance:
    """The blank board of ``like`` (--like): its size and shape, its
    parameters (``params`` replace them) and its layers, without its clues
    and locks.  A layer the generate lines draw is drawn anew."""
    _check_board(spec)
    kept = {name: layer for name, layer in like.layers.items()
            if name not in spec.generate.layers}
    return Instance(like.name, Source(GENERATED, ""), like.layout, like.geometry,
                    params=_params(spec, params, like.params), layers=kept)


def random_phases(var_lits: dict, names, rng: random.Random, nvars: int = 0) -> list:
    """A preferred value for each variable of the named spec variables: true or
    false for a bool, one value of an integer's at random; and a random
    polarity for every other CNF variable up to ``nvars`` (tasks/generate/driver.py says
    for which solvers).  SAT solvers try these first, so the solution found
    is a random one."""
    phases = []
    for var, lits in var_lits.items():
        if var.name not in names:
            continue
        if type(lits) is int:
            phases.append(lits if rng.random() < 0.5 else -lits)
        elif lits:
            chosen = rng.choice(list(lits.values()))
            phases += [l if l == chosen else -l for l in lits.values()]
    if nvars:
        given = {abs(l) for l in phases}
        phases += [v if rng.random() < 0.5 else -v for v in range(1, nvars + 1) if v not in given]
    return phases


def derive(spec: ast.Spec, gspec: ast.Spec, blank: Instance, answer) -> Drawn:
    """The instance a solution gives: its clues (`clue` over `given`), its
    generated layers; the clue cells reduce may blank."""
    problems = verify(gspec, blank, answer)
    if problems:
        raise PzcError("a drawn solution breaks the generation model (a bug in pzc): "
                       + "; ".join(problems[:3]), exit_code=EXIT_VERIFY)
    gen = spec.generate
    blanks = blank_tokens(spec)
    values = {}
    with AnswerChecker(gspec, blank, answer) as checker:
        for kind, line in [(k, gen.cells[k]) for k in CELL_KINDS
                           if k in gen.cells and k != "shuffle"] + [
                               (("layer", n), c) for n, c in gen.layers.items()]:
            env = {}
            table = values[kind] = {}
            for cell in blank.geometry.cells:
                env[line.cell] = cell
                value = checker.eval(line.body, env)
                if not (isinstance(value, str) and (value in blanks or value == "")):
                    table[cell] = value
    inst = Instance(blank.name, blank.source, blank.layout, blank.geometry,
                    params=dict(blank.params), layers=dict(blank.layers), draw=blank.draw)
    layout = blank.layout
    for cell, value in {**values.get("given", {}), **values.get("clue", {})}.items():
        inst.clues[cell] = value
        inst.tokens[cell] = token_text(value, layout)
    for key, table in values.items():
        if isinstance(key, tuple):
            inst.layers[key[1]] = Record(table)
    inst.locked = {c for c, v in values.get("locked", {}).items() if v is True}
    removable = [c for c in blank.geometry.cells if c in values.get("clue", {})]
    locks = [c for c in blank.geometry.cells if c in inst.locked]
    return Drawn(inst, removable, dict(values.get("removed", {})), locks, answer)


def without_lock(inst: Instance, cell) -> Instance:
    """A copy of the instance with ``cell`` unlocked."""
    out = inst.copy()
    out.locked.discard(cell)
    return out


def shuffled(spec: ast.Spec, gspec: ast.Spec, inst: Instance, answer, rng) -> Instance:
    """The contents (clue or blank) of the cells `generate shuffle` picks,
    mixed at random among those cells: Hexiom's free tiles do not stand where
    the answer puts them.  The expression reads the final instance (its
    locks)."""
    line = spec.generate.cells.get("shuffle")
    if line is None:
        return inst
    with AnswerChecker(gspec, inst, answer) as checker:
        picked = [c for c in inst.geometry.cells
                  if checker.eval(line.body, {line.cell: c}) is True]
    contents = [(inst.clues.get(c), inst.tokens.get(c)) for c in picked]
    rng.shuffle(contents)
    out = inst.copy()
    for cell, (value, token) in zip(picked, contents):
        out.clues.pop(cell, None)
        out.tokens.pop(cell, None)
        if value is not None:
            out.clues[cell], out.tokens[cell] = value, token
    return out


def without_clue(inst: Instance, cell, removed: dict) -> Instance:
    """A copy of the instance with the clue on ``cell`` blanked, or replaced by
    its `generate removed` value."""
    out = inst.copy()
    if cell in removed:
        out.clues[cell] = removed[cell]
        out.tokens[cell] = token_text(removed[cell], inst.layout)
    else:
        del out.clues[cell]
        del out.tokens[cell]
    return out
