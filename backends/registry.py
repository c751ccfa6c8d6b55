"""The backends by name: one line each.  A leaf module (it imports no backend
until one is asked for), so the command line reads the names without loading
PySAT, Z3 or clingo.

To add a backend, copy TEMPLATE.py to backends/NAME.py, fill it in, and add
its line below (docs/backends.md says what each part does).
"""

from __future__ import annotations

from importlib import import_module

# --backend NAME: (module in backends/, or a full dotted name for a module of
# another package; its Backend class; what it is, for --help)
BACKENDS = {
    "sat": ("sat", "SatBackend", "CNF solved by PySAT (default)"),
    "smt": ("smt", "SmtBackend", "Z3"),
    "asp": ("asp", "AspBackend", "the same CNF solved by clingo, connectivity as "
                                 "reachability rules"),
    "external": ("external", "ExternalBackend", "a DIMACS solver binary given by --solver-cmd"),
}
# --portfolio: several of the above at once, the first answer wins
PORTFOLIO = ("portfolio", "PortfolioBackend")

# the backends whose one incremental solver takes assumptions: a plan grows a
# step at a time on them, and explain asks them for assumption cores
INCREMENTAL = ("sat", "smt")

DEFAULT_BACKEND = "sat"
DEFAULT_SAT_SOLVER = "cadical195"
CONNECTIVITY = ("lazy", "eager")


def backend_class(name: str):
    """The Backend class registered as ``name`` (``portfolio`` included);
    None for an unknown name."""
    entry = PORTFOLIO if name == "portfolio" else BACKENDS.get(name)
    if entry is None:
        return None
    module = entry[0] if "." in entry[0] else f"{__package__}.{entry[0]}"
    return getattr(import_module(module), entry[1])
