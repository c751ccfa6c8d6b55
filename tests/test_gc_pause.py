"""The stages run with the cyclic garbage collector paused, so what they build
must be freed by reference counting alone: no reference cycles between
variables and their atoms, or between an interpreter and its closures.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from pzc import api
from pzc.runtime import clock
from pzc.encoder.decode import decode
from pzc.runtime.gc_pause import without_gc
from pzc.encoder.ground import ground
from pzc.encoder.instance import read_instances
from pzc.encoder.verify import AnswerChecker, verify
from pzc.runtime.errors import Source

NUMBERLINK = "8 8\n........\n.E....F.\n...DF...\n........\n..B.....\nC....B..\n...C....\nED......\n"


def numberlink():
    spec = api.load_spec("numberlink")
    inst, = read_instances(Source("nl.txt", NUMBERLINK), spec.board.kind)
    return spec, inst


@pytest.fixture
def collector_off():
    was = gc.isenabled()
    # what an earlier test's timed-out instance left behind (clock.leave_behind)
    # is freed, and the collector unfrozen, by the next solve: do it now, so
    # that only this test's garbage is counted
    clock.release_left_behind()
    gc.collect()
    gc.disable()
    yield
    if was:
        gc.enable()


def test_without_gc_pauses_and_restores():
    seen = []
    paused = without_gc(lambda: seen.append(gc.isenabled()))
    was = gc.isenabled()
    try:
        gc.enable()
        paused()
        assert seen == [False] and gc.isenabled()
        gc.disable()
        paused()
        assert seen == [False, False] and not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_without_gc_restores_after_an_error():
    def fails():
        raise ValueError("boom")
    was = gc.isenabled()
    gc.enable()
    try:
        with pytest.raises(ValueError):
            without_gc(fails)()
        assert gc.isenabled()
    finally:
        if not was:
            gc.disable()


def test_a_ground_model_is_freed_by_reference_counting(collector_off):
    spec, inst = numberlink()
    g = ground(spec, inst)
    model = weakref.ref(g.model)
    grounder = weakref.ref(g.interpreter)
    del g
    assert model() is None and grounder() is None


def test_a_solve_leaves_no_cycles_behind(collector_off):
    spec, inst = numberlink()
    result = api.solve(spec, inst)
    assert result.verified
    del result
    assert gc.collect() == 0


def test_a_released_checker_still_evaluates(collector_off):
    spec, inst = numberlink()
    g = ground(spec, inst)
    out = api.get_backend("sat").solve(g)
    answer = decode(g, out.assignment)
    assert verify(spec, inst, answer) == []
    with AnswerChecker(spec, inst, answer) as checker:
        rule = spec.rules[0]
        assert checker.eval(rule.body, {}) is True
    assert checker.eval(rule.body, {}) is True       # closures are built again
    checker.release()
    ref = weakref.ref(checker)
    del checker
    assert ref() is None
