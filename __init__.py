"""pzc: a compiler for grid logic puzzles.

A puzzle's rules are written once as a spec file; pzc grounds the spec on an
instance, encodes it as CNF (PySAT) or SMT (Z3), solves, decodes, verifies and
renders the answer.  The Python API is in :mod:`pzc.api`.
"""

__version__ = "0.1.0"
