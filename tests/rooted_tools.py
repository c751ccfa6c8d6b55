"""Helpers shared by tests/test_rooted.py and tests/test_connected_via.py:
the encodings every count is checked on, an instance read from text, a brute
force's groups, and a spec error reported at its position."""

from __future__ import annotations

import pytest

from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source

MODES = [
    pytest.param(dict(), id="lazy"),
    pytest.param(dict(connectivity="eager"), id="eager"),
    pytest.param(dict(backend="smt"), id="z3", marks=pytest.mark.slow),     # 25-230 s a test
    pytest.param(dict(backend="asp"), id="clingo"),
]


def instance(s, text):
    inst, = read_instances(Source("b.txt", text), s.board.kind)
    return inst


def groups(chosen, joined):
    """The groups of ``chosen`` under the relation ``joined``."""
    out, seen = [], set()
    for start in chosen:
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        for x in group:
            for y in chosen:
                if y not in seen and joined(x, y):
                    seen.add(y)
                    group.append(y)
        out.append(group)
    return out


def reported(line, col, message, write, run_pzc):
    """The spec line ``line`` (after a bool variable `on`) is an error at its column ``col``."""
    head = 'puzzle bad "x"\nboard square\nvar on[c in cells] : bool\n'
    write("bad.pz", head + line + "\n")
    run = run_pzc("check", "bad.pz")
    assert run.returncode == 2
    first = run.stderr.splitlines()[0]
    assert first.startswith(f"bad.pz:4:{col}: error: {message}"), first
    assert run.stderr.splitlines()[2].index("^") == 4 + col - 1
    assert "Traceback" not in run.stderr
