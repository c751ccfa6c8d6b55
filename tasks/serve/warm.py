"""Imported by the fork server before it forks any job (jobs.py): what every
job would otherwise build again, built once and inherited by each fork.
Every built-in spec is parsed and checked (0.8 s once, where each job would
spend 40 to 60 ms on its spec and the parser's tables), and a small puzzle is
solved and drawn, importing what a job's first solve imports."""

from __future__ import annotations

from ..solving import solve
from ..specs import SpecChoice
from . import request

request.preload_builtins()
solve(*SpecChoice.of("nurikabe").read("warm", text="https://puzz.link/p?nurikabe/2/2/1i")[0])
