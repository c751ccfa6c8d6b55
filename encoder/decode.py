"""Stage: decode.  Backend assignment -> the spec variables' values.

    {Var v[(0, 0)]: 5, Var v[(0, 1)]: 3, ...}  ->  Answer(values={"v": {((0, 0),): 5, ...}})
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.errors import EXIT_VERIFY, PzcError
from ..runtime.gc_pause import without_gc


@dataclass(eq=False)
class Answer:
    values: dict          # spec var name -> {key tuple: value}
    states: list | None = None    # plans: step -> {state name: {key: value}}
    actions: list | None = None   # plans: step -> (action name, parameter tuple)


@without_gc
def decode(ground, assignment: dict, steps: int | None = None) -> Answer:
    """The spec variables' values; for a plan of ``steps`` steps also every
    state and the action taken at each step."""
    values = {name: _values(table, assignment) for name, table in ground.model.spec_vars.items()}
    if steps is None:
        return Answer(values)
    states = [{name: _values(table, assignment) for name, table in tables.items()}
              for tables in ground.states[:steps + 1]]
    actions = []
    for t in range(steps):
        taken = [key for key, var in ground.actions[t].items() if assignment.get(var)]
        if len(taken) != 1:
            raise PzcError(f"internal error: {len(taken)} actions at step {t + 1}", exit_code=EXIT_VERIFY)
        actions.append(taken[0])
    return Answer(values, states, actions)


def _values(table, assignment) -> dict:
    out = {}
    for key, var in table.items():
        value = assignment.get(var)
        if value is None and var.domain is not None:
            raise PzcError(f"internal error: the solver gave no value to {var.label()}",
                           exit_code=EXIT_VERIFY)
        out[key] = bool(value) if var.domain is None else value
    return out
