"""DIMACS text and the symbol table; solver answers read back.

The CNF of a ground model, encoded with eager connectivity so the file alone
is equisatisfiable with the puzzle:

    c pzc 0.1.0 DIMACS export
    c spec: sudoku (<builtin>/sudoku.pz)
    c instance: grid4.txt
    c encodings: connectivity eager; one-hot finite domains; ...
    c symbols: each "c map" line is  LITERAL NAME[INDEX] = VALUE  (or NAME[INDEX] for a bool)
    c map 2 v[(0, 0)] = 1
    ...
    p cnf 49 277
    1 0
    ...

A literal in the table may be negative (a two-value domain shares one
variable) or the constant 1 (variable 1 is true by a unit clause).
"""

from __future__ import annotations

import re
from itertools import chain

from .. import __version__
from ..runtime.errors import PzcError
from .cnf import read_assignment
from .model import value_text

ENCODINGS = ("connectivity eager (ranks, or distance layers under a size bound); "
             "finite domains one-hot with exactly-one (pairwise up to 8 values, "
             "sequential counter beyond); cardinalities by binomial clauses, totalizers "
             "or pysat's k-modulo totalizer; other formulas by Tseitin")


def symbol_table(cnf) -> list:
    """[(literal, var, value)] for every value of every model variable."""
    rows = []
    for var, lits in cnf.var_lits.items():
        if type(lits) is int:
            rows.append((lits, var, None))
        else:
            for value, lit in lits.items():
                if lit != -cnf.true_lit:
                    rows.append((lit, var, value))
    return rows


def to_dimacs(cnf, spec, instance) -> str:
    lines = [f"c pzc {__version__} DIMACS export",
             f"c spec: {spec.name} ({spec.source.path})",
             f"c instance: {instance.name}",
             f"c encodings: {ENCODINGS}",
             'c symbols: each "c map" line is  LITERAL NAME[INDEX] = VALUE  (NAME[INDEX] '
             f"alone for a bool); literal {cnf.true_lit} is true by a unit clause"]
    for lit, var, value in symbol_table(cnf):
        lines.append(f"c map {lit} {var.label()}" + ("" if value is None else f" = {value_text(value)}"))
    lines.append(f"p cnf {cnf.nvars} {len(cnf.clauses)}")
    lines += [" ".join(map(str, c)) + " 0" for c in cnf.clauses]
    return "\n".join(lines) + "\n"


def to_json_map(cnf, spec, instance) -> dict:
    def plain(v):
        if isinstance(v, tuple):
            return [plain(x) for x in v]
        return v
    return {"spec": spec.name, "instance": instance.name, "variables": cnf.nvars,
            "clauses": len(cnf.clauses), "true_literal": cnf.true_lit,
            "encodings": ENCODINGS,
            "map": [{"literal": lit, "var": var.name, "index": plain(var.key),
                     **({} if value is None else {"value": plain(value)})}
                    for lit, var, value in symbol_table(cnf)]}


_INT = re.compile(r"^-?\d+$")
_WORD = re.compile(r"\S+")


def read_model(text: str, path: str) -> tuple:
    """A solver's answer -> ("sat", set of true literals) or ("unsat", None).

    Accepts `s SATISFIABLE` / `s UNSATISFIABLE` with `v ... 0` lines (the
    competition format kissat, cadical and picosat print), MiniSat's result
    file ("SAT" then the literals), or a bare list of literals."""
    status = None
    lits = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("s "):
            word = line[2:].strip().upper()
            status = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(word, "unknown")
            continue
        if line in ("SAT", "SATISFIABLE"):
            status = "sat"
            continue
        if line in ("UNSAT", "UNSATISFIABLE"):
            status = "unsat"
            continue
        if line in ("INDET", "UNKNOWN"):
            status = "unknown"
            continue
        # each word with its column, so that the caret lands on the bad one
        start = raw.index("v") + 1 if line.startswith("v") else 0
        for m in _WORD.finditer(raw, start):
            w = m.group()
            if not _INT.match(w):
                raise PzcError(f"expected literals (integers), found {w!r}",
                               path, n, m.start() + 1, raw)
            lits.append(int(w))
    if status == "unknown":
        return "unknown", None
    if status == "unsat":
        return "unsat", None
    if not lits:
        raise PzcError(f"{path}: no model in this file (expected 's SATISFIABLE' and "
                       "'v ... 0' lines, or a list of literals)")
    return "sat", {l for l in lits if l != 0}


def model_problem(cnf, true_lits, extra=()) -> str | None:
    """What is wrong with a model (its true literals) for the formula plus the
    ``extra`` clauses: a literal beyond the formula's variables or the first
    clause it breaks; None when it satisfies them all."""
    truth = bytearray(cnf.nvars + 1)
    for l in true_lits:
        if abs(l) > cnf.nvars:
            return f"literal {l} is beyond the formula's {cnf.nvars} variables"
        if l > 0:
            truth[l] = 1
    for i, clause in enumerate(chain(cnf.clauses, extra), 1):
        if not any((truth[l] == 1) if l > 0 else (truth[-l] == 0) for l in clause):
            return f"the model breaks clause {i} of the formula"
    return None


def check_model(cnf, true_lits, path) -> dict:
    """Model Var -> value, after checking the literals satisfy every clause."""
    problem = model_problem(cnf, true_lits)
    if problem is not None:
        raise PzcError(f"{path}: {problem}; was it made for another spec or instance?")
    return read_assignment(cnf, true_lits)
