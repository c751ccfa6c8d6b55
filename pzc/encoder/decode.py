"""Stage: decode.  Backend assignment -> the spec variables' values.

    {Var v[(0, 0)]: 5, Var v[(0, 1)]: 3, ...}  ->  Answer(values={"v": {((0, 0),): 5, ...}})
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import PzcError


@dataclass(eq=False)
class Answer:
    values: dict          # spec var name -> {key tuple: value}


def decode(ground, assignment: dict) -> Answer:
    values = {}
    for name, table in ground.model.spec_vars.items():
        out = {}
        for key, var in table.items():
            value = assignment.get(var)
            if value is None and var.domain is not None:
                raise PzcError(f"internal error: the solver gave no value to {var.label()}",
                               exit_code=4)
            out[key] = bool(value) if var.domain is None else value
        values[name] = out
    return Answer(values)
