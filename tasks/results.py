"""What the tasks return: one result type per command, every field declared.

    Result         solve (and decode): the verified answer, or why there is none
    CountResult    count: the distinct boards found, complete or not
    UniqueResult   unique: exactly one solution, or two and where they differ
    DeduceResult   deduce: what every solution shows alike, and where they differ
    ExplainResult  explain: a minimal core, the answer, or a clue to add
    Generated      generate: one puzzle with exactly one solution

Each has ``status``, ``stats``, ``error`` (a PzcError or None), ``exit_code``
(runtime/errors.py) and ``to_json()``, the object `--format json` prints.
An answer is also there as data (encoder/answer_data.py, docs/api.md):
``Result.answer``, ``CountResult.answers``, ``UniqueResult.answers`` (and
``answer``, the first), ``DeduceResult.answer`` (the part all solutions
share), ``Generated.answer``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..encoder.answer_data import AnswerData, index_key, json_data
from ..encoder.backbone import Backbone
from ..encoder.enumerate import Enumeration
from ..encoder.instance import Instance
from ..encoder.render import grid_rows, moves, plain, plan_boards, text_drawing
from ..runtime.errors import EXIT_OK, PzcError
from .pictures import draw


@dataclass(eq=False)
class Result:
    """The outcome for one instance, with the fields of the JSON output."""
    instance: str
    spec: str
    status: str                     # solved, unsat, timeout, error
    grid: list | None = None
    moves: list | None = None
    verified: bool | None = None
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK
    steps: int | None = None        # plans: the number of moves (a shortest plan)
    boards: list | None = None      # plans: the board after each move, the start first
    hint: str | None = None         # "explain": a board with no solution, pzc explain says why
    answer: AnswerData | None = field(default=None, repr=False)   # the answer as data
    # the `show text ...` drawing is made when first read (only text output
    # prints it, and drawing a big board costs as much as verifying it)
    _draw: object = field(default=None, repr=False)
    # the answer's shown tokens (draw.Picture; a list of them, the start
    # first, for a plan), made when first read: only --format svg draws
    _picture: object = field(default=None, repr=False)

    def attach(self, spec, instance, answer, steps: int | None = None) -> "Result":
        """A verified answer's grid and moves; its `show text` drawing, its
        pictures and its data (``answer``) are made when first read."""
        self.grid = grid_rows(spec, instance, answer)
        self.moves = moves(spec, instance, answer)
        self.answer = AnswerData(spec, instance, answer)
        if spec.show_text is not None:
            self._draw = lambda: text_drawing(spec, instance, answer)
        if steps is not None:
            self.boards = plan_boards(spec, instance, answer)
            self._picture = lambda: draw.plan_pictures(spec, instance, answer)
        else:
            self._picture = lambda: draw.picture(spec, instance, answer)
        return self

    @property
    def picture(self):
        """The answer's draw.Picture (plans: one a board, the start first; None
        without an answer)."""
        if callable(self._picture):
            self._picture = self._picture()
        return self._picture

    @property
    def drawing(self) -> list | None:
        """The rows of the spec's `show text` drawing (None without one)."""
        if callable(self._draw):
            self._draw = self._draw()
        return self._draw

    def to_json(self, boards: bool = False, data: bool = False) -> dict:
        """``boards``: a plan's boards too; ``data``: the answer as data too
        (key "answer": AnswerData.to_json(), null without an answer)."""
        out = {"instance": self.instance, "spec": self.spec, "status": self.status,
               "grid": self.grid, "moves": self.moves, "verified": self.verified,
               "stats": self.stats}
        if self.steps is not None:
            out["steps"] = self.steps
            out["shortest"] = self.status == "solved"
        if boards and self.boards is not None:
            out["boards"] = self.boards
        if data:
            out["answer"] = self.answer.to_json() if self.answer is not None else None
        if self.hint is not None:
            out["hint"] = self.hint
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@dataclass(eq=False)
class CountResult:
    """The outcome of counting one instance's solutions."""
    instance: str
    spec: str
    status: str                     # counted, timeout, error
    count: int = 0
    complete: bool = False
    solutions: list = field(default_factory=list)    # boards (grid rows), in order found
    moves: list = field(default_factory=list)         # their move lists, for specs with moves
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK
    # the solutions as found (answers, cells), for pictures and explain
    found: Enumeration | None = field(default=None, repr=False)

    @property
    def answers(self) -> list:
        """The solutions as data (AnswerData), in the order of ``solutions``."""
        return found_answers(self.found)

    def to_json(self, show: bool = False, data: bool = False) -> dict:
        """``show``: the solutions' grids and moves; ``data``: the solutions
        as data too (key "answers": AnswerData.to_json() each)."""
        out = {"instance": self.instance, "spec": self.spec, "count": self.count,
               "complete": self.complete, "status": self.status, "stats": self.stats}
        if show:
            out["solutions"] = self.solutions
            if any(m is not None for m in self.moves):
                out["moves"] = self.moves
        if data:
            out["answers"] = [a.to_json() for a in self.answers]
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@dataclass(eq=False)
class UniqueResult:
    """Whether one instance has exactly one solution, with two witnesses if not."""
    instance: str
    spec: str
    status: str                     # unique, several, none, timeout, error
    witnesses: list = field(default_factory=list)     # their boards (grid rows)
    moves: list = field(default_factory=list)         # their move lists, for specs with moves
    differ: list = field(default_factory=list)
    marks: list | None = None       # a board with '*' where the witnesses differ
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK
    # the solutions as found (answers, cells), for pictures and explain
    found: Enumeration | None = field(default=None, repr=False)

    @property
    def unique(self) -> bool:
        return self.status == "unique"

    @property
    def answers(self) -> list:
        """The witnesses as data (AnswerData), in the order of ``witnesses``."""
        return found_answers(self.found)

    @property
    def answer(self) -> AnswerData | None:
        """The first witness as data (what a pzprv3 file of this check holds);
        None unless the check found one or more solutions and finished."""
        answers = self.answers
        return answers[0] if answers and self.status in ("unique", "several") else None

    def to_json(self, data: bool = False) -> dict:
        """``data``: the witnesses as data too (key "answers":
        AnswerData.to_json() each)."""
        out = {"instance": self.instance, "spec": self.spec, "unique": self.unique,
               "status": self.status, "witnesses": self.witnesses, "differ": self.differ,
               "stats": self.stats}
        if any(m is not None for m in self.moves):
            out["moves"] = self.moves
        if data:
            out["answers"] = [a.to_json() for a in self.answers]
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@dataclass(eq=False)
class PartialAnswer:
    """The part of an answer every solution shares, in AnswerData's terms:
    ``values`` (shown variable -> {key: value}, the determined elements only),
    ``kinds`` (what each variable is indexed by) and ``cells`` (place ->
    text, the determined places only)."""
    values: dict
    kinds: dict
    cells: dict


@dataclass(eq=False)
class DeduceResult:
    """What every solution of one instance shows alike.  ``board``: the
    board's rows with each determined place's text, OPEN where two solutions
    differ, UNDECIDED where the time limit came first; ``partial``: the time
    limit came before every place was decided."""
    instance: str
    spec: str
    status: str                     # unique, several, none, timeout, error
    board: list | None = None
    determined: int = 0             # places the same in every solution
    open: list = field(default_factory=list)        # [row, col] of the places that differ
    undecided: list = field(default_factory=list)   # [row, col] not decided in time
    partial: bool = False
    solutions: int = 0              # solutions the search looked at
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK
    found: Backbone | None = field(default=None, repr=False)

    OPEN = "?"
    UNDECIDED = "~"

    @property
    def cells(self) -> dict:
        """place (row, col) -> the text every solution draws there (the
        determined places only)."""
        found = self.found
        if found is None:
            return {}
        return {p: t for p, t in found.tokens.items() if found.place_state(p) == "determined"}

    @property
    def answer(self) -> "PartialAnswer | None":
        """What every solution shares as a partial answer (formats' writers
        take it as they take AnswerData): the determined places' texts and
        the shown variables' elements that are the same in every solution;
        None without a solution."""
        found = self.found
        if found is None or found.first is None:
            return None
        values = {}
        for (name, key), value in found.elements.items():
            values.setdefault(name, {})[index_key(key)] = plain(value)
        return PartialAnswer(values, found.first.kinds, self.cells)

    def to_json(self) -> dict:
        shared = self.answer
        out = {"instance": self.instance, "spec": self.spec, "status": self.status,
               "partial": self.partial, "board": self.board,
               "counts": {"determined": self.determined, "open": len(self.open),
                          "undecided": len(self.undecided)},
               "open": self.open, "undecided": self.undecided,
               "determined": [[list(p), t] for p, t in self.cells.items()],
               # the shown variables' values every solution shares, keyed as an answer's
               "values": {name: [[json_data(k), json_data(v)] for k, v in table.items()]
                          for name, table in (shared.values if shared else {}).items()},
               "solutions_seen": self.solutions, "stats": self.stats}
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


def found_answers(found: Enumeration | None) -> list:
    """The enumerated solutions' AnswerData, in the order found."""
    return [s.answer for s in found.solutions] if found is not None else []


@dataclass(eq=False)
class ExplainResult:
    """Why an instance has no solution (a minimal core of clues and rule
    instances), or that it has one, or two and a clue that would tell them
    apart.  ``core_clues`` and ``core_rules`` carry the cells each member
    mentions (``cells``) for a picture to highlight (``highlight``)."""
    instance: str
    spec: str
    status: str                     # unsat, unique, several, timeout, error
    core_clues: list = field(default_factory=list)   # {cell, value, token, at}
    core_rules: list = field(default_factory=list)   # {rule, implied, binding, shown, at, cells}
    minimal: bool = False
    solved: Result | None = None            # unique: the answer, as solve gives it
    several: UniqueResult | None = None     # several: the two witnesses and where they differ
    suggestion: dict | None = None          # several: {cell, value, token, at, where, unique}
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK

    @property
    def highlight(self) -> list:
        """The cells of the core (clue cells, then the cells the rule
        instances' bindings name), for `board_svg(..., highlight=...)`."""
        cells = [tuple(c["cell"]) for c in self.core_clues]
        for r in self.core_rules:
            cells += [tuple(c) for c in r["cells"]]
        return list(dict.fromkeys(cells))

    def to_json(self) -> dict:
        out = {"file": self.instance, "spec": self.spec, "status": self.status}
        if self.status == "unsat":
            out["core"] = {"clues": [{k: c[k] for k in ("cell", "value", "at")}
                                     for c in self.core_clues],
                           "rules": [{k: r[k] for k in ("rule", "implied", "binding", "at",
                                                         "cells")}
                                     for r in self.core_rules]}
            out["minimal"] = self.minimal
        elif self.status == "unique" and self.solved is not None:
            out.update(grid=self.solved.grid, moves=self.solved.moves,
                       verified=self.solved.verified)
        elif self.status == "several" and self.several is not None:
            out.update(witnesses=self.several.witnesses, differ=self.several.differ,
                       suggestion=self.suggestion)
        out["stats"] = self.stats
        if self.error is not None:
            out["error"] = self.error.as_json()
        return out


@dataclass(eq=False)
class Generated:
    """One generated puzzle (status generated), or why there is none."""
    spec: str
    seed: int
    status: str                      # generated, timeout, error
    instance: Instance | None = None
    solution: list | None = None     # the answer's grid rows, verified
    answer: AnswerData | None = field(default=None, repr=False)   # the same as data
    clues: int = 0                   # clue cells left
    stats: dict = field(default_factory=dict)
    error: PzcError | None = None
    exit_code: int = EXIT_OK
