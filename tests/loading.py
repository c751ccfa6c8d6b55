"""Specs and instances for the tests, loaded once and checked like pzc does."""

from __future__ import annotations

from pzc import api
from pzc.encoder import check, syntax

_SPECS = {}


def spec(name):
    """A built-in spec by name, parsed and checked once per test run."""
    if name not in _SPECS:
        _SPECS[name] = api.load_spec(name)
    return _SPECS[name]


def spec_from_text(text, path="test.pz"):
    """A spec written in a test, parsed and checked."""
    s = syntax.parse(text, path)
    check.check(s)
    return s
