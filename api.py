"""The Python API: everything the command line does, callable the same way.

    from pzc import api
    spec = api.load_spec("sudoku")
    for inst in api.load_instances(spec, "puzzles.txt"):
        result = api.solve(spec, inst, timeout=10)
        print(result.status, result.verified, result.grid)
        if result.answer is not None:                       # the answer as data
            print(result.answer.values, result.answer.board, result.answer.paths)

docs/api.md documents it with examples the tests run.

Each task takes the options of tasks/options.py, as an ``Options`` object or
as keywords (backend, solver, timeout, connectivity, solver_cmd, max_steps,
limit, progress).  ``progress`` is a callback called as
``progress(event, **figures)`` while a task works: the phases grounding,
encoding, solving and verifying as they begin, ``round`` (rounds=, cuts=)
for each round of lazy connectivity cuts, ``depth`` (steps=) as plan
deepening tries longer plans, ``solution`` (count=) as counting finds each
distinct board.  runtime/progress.py lists them; the command line draws them
on a terminal.  The callback is always called in this process, also for
rounds solved in a worker process under a time limit (backends/worker.py).

This module only gathers the public names; each lives in its task's module
(tasks/), the readers in formats/, the exit codes in runtime/errors.py.
"""

from __future__ import annotations

from .backends import get_backend
from .encoder.answer_data import AnswerData
from .formats.binding import check_answer_file
from .formats.reading import (grids_of, instance_file, load_instances, select_instance,
                              write_instance)
from .runtime.errors import (EXIT_OK, EXIT_TIMEOUT, EXIT_UNSAT, EXIT_USAGE, EXIT_VERIFY,
                             PzcError, worst_exit)
from .runtime.progress import no_progress
from .tasks.batch import batch
from .tasks.deducing import deduce
from .tasks.explain.report import explain_document
from .tasks.explain.task import explain
from .tasks.generate.task import generate, generated_document
from .tasks.moves import Move, tile_move_text, tile_moves
from .tasks.picture_reading import picture_json, picture_text, read_picture
from .tasks.options import DEFAULT_MAX_STEPS, PLAN_SEARCHES, Options
from .tasks.pictures import documents as _documents
from .tasks.results import (CountResult, DeduceResult, ExplainResult, Generated, Result,
                            UniqueResult)
from .tasks.solving import (count, decode_model, dimacs, solve, solve_plan, stopped_stats,
                             unique)
from .tasks.specs import (SpecChoice, builtin_aliases, builtin_for_type, builtin_specs, load_spec,
                          spec_for_puzzle, spec_source, split_spec)

__all__ = [
    "load_spec", "spec_source", "builtin_specs", "builtin_aliases", "spec_for_puzzle",
    "builtin_for_type", "split_spec", "SpecChoice",
    "load_instances", "select_instance", "instance_file", "write_instance", "grids_of",
    "check_answer_file",
    "Options", "DEFAULT_MAX_STEPS", "PLAN_SEARCHES",
    "solve", "solve_plan", "count", "unique", "deduce", "explain", "generate", "batch",
    "tile_moves", "Move", "tile_move_text",
    "read_picture", "picture_text", "picture_json",
    "dimacs", "decode_model", "stopped_stats", "picture_document", "generated_document", "get_backend",
    "Result", "CountResult", "UniqueResult", "DeduceResult", "ExplainResult", "Generated", "AnswerData",
    "PzcError", "worst_exit", "no_progress",
    "EXIT_OK", "EXIT_UNSAT", "EXIT_USAGE", "EXIT_TIMEOUT", "EXIT_VERIFY",
]


def picture_document(spec, instance, result, solutions: bool = True):
    """The picture of any task's result (--format svg): a draw.Document, or
    None for an instance that could not be read.  ``solutions``: a count's
    solutions are drawn (count --show), else only the puzzle."""
    if isinstance(result, ExplainResult):
        return explain_document(spec, instance, result)
    return _documents.picture_document(spec, instance, result, solutions)
