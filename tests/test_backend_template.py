"""backends/TEMPLATE.py is enough to add a backend: registered by one line,
with its session's next() filled in (here by PySAT's MiniSat on the CNF the
template builds), it solves, counts and proves uniqueness through the same
tasks as every backend, answers verified."""

from __future__ import annotations

import sys
import time

import pytest
from pysat.solvers import Minisat22

from pzc import api
from pzc.backends import Outcome, registry
from pzc.backends.TEMPLATE import TemplateBackend, TemplateSession
from pzc.encoder.cnf import read_assignment


class MinisatSession(TemplateSession):
    def next(self, timeout=None):
        start = time.perf_counter()
        with Minisat22(bootstrap_with=self.clauses) as solver:
            found = solver.solve()
            model = solver.get_model() if found else None
        self.stats["solve_s"] += time.perf_counter() - start
        if not found:
            return Outcome("unsat", None, dict(self.stats))
        return Outcome("sat", read_assignment(self.cnf, model), dict(self.stats))


class MinisatBackend(TemplateBackend):
    name = "minisat-template"

    def session(self, ground):
        return MinisatSession(ground)


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(registry.BACKENDS, "template", (
        "pzc.backends.TEMPLATE", "TemplateBackend", "the template as it is"))
    # a backend of another package is named by its module's full dotted name
    monkeypatch.setitem(sys.modules, "elsewhere.minisat_backend", sys.modules[__name__])
    monkeypatch.setitem(registry.BACKENDS, "minisat-template", (
        "elsewhere.minisat_backend", "MinisatBackend", "the template with next() filled in"))


GRID = "..4.\n2...\n1...\n..2.\n"


def sudoku(tmp_path, text=GRID):
    path = tmp_path / "grid.txt"
    path.write_text(text)
    spec = api.load_spec("sudoku")
    return spec, api.load_instances(spec, str(path))[0]


def test_a_backend_from_the_template_solves_counts_and_checks_uniqueness(registered, tmp_path):
    spec, inst = sudoku(tmp_path)
    reference = api.solve(spec, inst)
    solved = api.solve(spec, inst, backend="minisat-template")
    assert solved.status == "solved" and solved.verified
    assert solved.grid == reference.grid
    assert solved.stats["backend"] == "NAME"
    assert api.unique(spec, inst, backend="minisat-template").status == "unique"
    spec, open_board = sudoku(tmp_path, "....\n....\n....\n....\n")
    counted = api.count(spec, open_board, backend="minisat-template", limit=5)
    assert counted.count == 5 and len(set(map(tuple, counted.solutions))) == 5


def test_the_template_as_it_is_says_what_to_fill_in(registered, tmp_path):
    spec, inst = sudoku(tmp_path)
    result = api.solve(spec, inst, backend="template")
    assert result.status == "error" and result.exit_code == 2
    assert "fill in its next()" in result.error.message


def test_the_template_refuses_options_it_does_not_take(registered):
    with pytest.raises(api.PzcError, match="takes no --solver"):
        api.get_backend("template", solver="x")
    with pytest.raises(api.PzcError, match="encodes connectivity eagerly"):
        api.get_backend("template", connectivity="lazy")


def test_an_unknown_backend_names_the_registered_ones():
    with pytest.raises(api.PzcError, match="choose sat, smt, asp or external"):
        api.get_backend("glucose")
