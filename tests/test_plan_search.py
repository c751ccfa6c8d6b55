"""The state search of move puzzles (backends/states.py) against searches
written here and against the SAT deepening.

* 8-puzzles (every length up to the longest, 31): the state search's plan is
  as long as the tests' own breadth-first search says, from one end and from
  both; the SAT deepening agrees on some of them.
* Asteroid Escape instances made here (random blocker grids and starts, with
  and without challenge 60's rules): the simulator of tests/plan_tools.py
  finds the fewest moves by its own search; the state search and the SAT
  deepening give plans of that length that it replays, and where there is
  none the state search proves it.
* The choice: a state search that reaches its cap hands the SAT deepening
  the length it has proved, which goes on from there to the same plans; a
  plan the state search cannot run (a `var` that is not a state) goes to SAT
  by itself and is an error when the state search is forced; a search that
  runs out of states proves that there is no plan at all.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from itertools import islice

import pytest

import generators as gen
from loading import spec, spec_from_text
from outcomes import no_traceback
from plan_tools import ENGINES, Asteroid
from pzc import api
from pzc.backends import states
from pzc.encoder.instance import read_instances
from pzc.encoder.unroll import unroll
from pzc.runtime.errors import PzcError, Source


@cache
def distances_3x3():
    """The fewest slides from every solvable 3 x 3 board to the goal."""
    return dict(gen.bfs_order(gen.sliding_goal(3, 3), gen.sliding_next(3, 3)))


def sliding_instance(board, w):
    s = spec("sliding")
    inst, = read_instances(Source("board.txt", gen.sliding_text(board, w)), s.board.kind,
                           target=True)
    return s, inst


def boards_3x3(lengths):
    """One board of each length in ``lengths``, the first in reading order."""
    by_length = {}
    for board, d in distances_3x3().items():
        by_length.setdefault(d, board)
    return [(by_length[d], d) for d in lengths]


def plan_length(res):
    assert res.error is None, res.error.message
    assert res.status == "solved" and res.verified is True and res.steps == len(res.moves)
    return res.steps


def replays_3x3(start, res):
    board = start
    for m in res.moves:
        nxt = {(f, t): b for _, f, t, b in gen.sliding_slides(board, 3, 3)}
        board = nxt[tuple(m["from"]), tuple(m["to"])]
    return board == gen.sliding_goal(3, 3)


# ================================================================ 8-puzzles

@pytest.mark.parametrize("both_ends", [None, False], ids=["auto", "forward"])
def test_the_state_search_finds_the_fewest_slides_at_every_length(both_ends):
    for board, want in boards_3x3(range(0, 32, 3) if both_ends is None else (5, 14, 22, 31)):
        s, inst = sliding_instance(board, 3)
        found = states.search(unroll(s, inst), 200, both_ends=both_ends)
        assert found.status == "sat" and found.bound == want == len(found.moves), board
        assert found.stats["search"] == ("both ends" if both_ends is None else "forward")
        res = api.solve(s, inst, plan_search="states")
        assert plan_length(res) == want and replays_3x3(board, res)


@pytest.mark.parametrize("engine", ["sat", "smt"])
def test_the_sat_deepening_agrees_with_the_state_search(engine):
    for board, want in boards_3x3((7, 12)):
        s, inst = sliding_instance(board, 3)
        by_states = api.solve(s, inst)
        by_sat = api.solve(s, inst, **ENGINES[engine])
        assert plan_length(by_states) == plan_length(by_sat) == want
        assert by_states.stats["backend"] == "states" and by_sat.stats["backend"] == engine


def test_a_random_4x4_walk_is_solved_from_both_ends():
    rng = random.Random(28)
    for _ in range(3):
        board = gen.sliding_walk(4, 4, 14, rng)
        want = gen.bfs_distance(board, gen.sliding_next(4, 4),
                                lambda b: b == gen.sliding_goal(4, 4))
        s, inst = sliding_instance(board, 4)
        res = api.solve(s, inst)
        assert plan_length(res) == want
        assert res.stats["state_search"]["search"] == "both ends"
        assert res.stats["state_search"]["fewest_moves"] == want


# ================================================================ Asteroid Escape, made here

def made_challenge(rng, wizard, density=0.14):
    """A challenge in the file's form: random blocker grids (each cell a
    blocker with chance ``density``) and a random start where no two
    blockers overlap."""
    blockers = {str(p): [[int(rng.random() < density) for _ in range(5)] for _ in range(5)]
                for p in range(1, 9)}
    challenge = {"id": 1000, "ship_piece": rng.randint(1, 8), "blockers": blockers,
                 "goal": "in-motion interference, the exit clear" if wizard
                 else "static interference only"}
    while True:
        tiles = rng.sample(range(9), 9)
        challenge["start"] = [tiles[r:r + 3] for r in (0, 3, 6)]
        if Asteroid(challenge, wizard).legal(tuple(tiles)):
            return challenge


def made_challenges(seed, count, most_states=3000):
    """``count`` challenges whose fewest moves are 5 or more, at least one
    under challenge 60's rules, and one whose pieces can move but never
    bring the ship home: (challenge, its game, fewest moves or None, the
    number of arrangements its start leads to).  Only challenges whose
    start leads to at most ``most_states`` arrangements, for the
    simulator's sake."""
    rng = random.Random(seed)
    plans, stuck, k = [], None, 0
    while len(plans) < count or not any(g.wizard for _, g, _, _ in plans) or stuck is None:
        wizard, k = k % 2 == 1, k + 1
        ch = made_challenge(rng, wizard, density=0.11)
        game = Asteroid(ch, wizard)
        reach = list(islice(gen.bfs_order(game.start, game.successors), most_states + 1))
        if len(reach) > most_states:
            continue
        want = next((d for board, d in reach if game.done(board)), None)
        if want is None and stuck is None and len(reach) > 1:
            stuck = (ch, game, None, len(reach))
        elif want is not None and want >= 5 and (len(plans) < count - 1 or wizard):
            plans.append((ch, game, want, len(reach)))
    return plans[:count] + [stuck]


def asteroid_instances(challenges, write):
    path = write("made.json", json.dumps({"challenges": challenges}))
    s = spec("asteroid")
    return s, api.load_instances(s, str(path))


@pytest.mark.slow
def test_made_asteroid_challenges_are_solved_in_the_fewest_moves(write):
    cases = made_challenges(60, 3)
    s, insts = asteroid_instances([ch for ch, _, _, _ in cases], write)
    for (ch, game, want, reached), inst in zip(cases, insts):
        for engine in ("states", "sat"):
            res = api.solve(s, inst, max_steps=want if want is not None else 8,
                            **ENGINES[engine])
            if want is not None:
                assert plan_length(res) == want, (engine, ch)
                assert game.done(game.replay(res.moves)[-1]), (engine, ch)
                continue
            assert (res.status, res.exit_code) == ("unsat", 1), (engine, res.moves)
            if engine == "sat":
                assert "no plan of at most 8 moves" in res.error.message
            elif "the start leads to" in res.error.message:
                assert res.error.message == (f"no plan of any length: the {reached:,} states "
                                             "the start leads to were all searched")
            else:
                assert re.fullmatch(r"no plan of any length: the [\d,]+ states that lead to "
                                    r"the goal were all searched", res.error.message)


# ================================================================ the choice

def test_a_capped_state_search_hands_its_proved_length_to_sat(monkeypatch):
    board, want = boards_3x3((18,))[0]
    s, inst = sliding_instance(board, 3)
    monkeypatch.setattr(states, "state_cap", lambda code: 300)
    res = api.solve(s, inst)
    assert plan_length(res) == want and replays_3x3(board, res)
    assert res.stats["backend"] == "sat"
    proved = res.stats["state_search"]["fewest_moves"]
    assert 0 < proved <= want
    # each side grew whole layers before the cap: no plan is shorter than their sum + 1
    assert proved == sum(res.stats["state_search"]["layers"]) + 1
    forced = api.solve(s, inst, plan_search="states")
    assert forced.exit_code == 2 and "--plan-search states stopped at" in forced.error.message


CHOOSER = """\
puzzle chooser "a counter that counts up to a target the plan picks once"
board square
plan steps
var aim : 2..3
state n : 0..5
show c: n
start n = 0
action up: pre n < 5 set n := n + 1
goal n = aim
"""


def test_a_plan_with_a_var_is_left_to_sat():
    s = spec_from_text(CHOOSER, "chooser.pz")
    inst, = read_instances(Source("one.txt", ".\n"), "square")
    res = api.solve(s, inst)
    assert plan_length(res) == 2 and res.stats["backend"] == "sat"
    assert "state_search" not in res.stats
    forced = api.solve(s, inst, plan_search="states")
    assert forced.exit_code == 2
    assert forced.error.message == ("--plan-search states cannot search this plan: it has "
                                    "variables that are not states (aim)")


def test_the_plan_search_flag(write, run_pzc):
    write("b.txt", "123\n4.6\n758\n")
    for how, backend in (("states", "states"), ("sat", "sat"), ("auto", "states")):
        run = run_pzc("solve", "sliding", "b.txt", "--plan-search", how, "--format", "json")
        assert run.returncode == 0, run.stderr
        out = json.loads(run.stdout)
        assert out["stats"]["backend"] == backend and out["steps"] == 2 and out["verified"]
    run = run_pzc("solve", "sliding", "b.txt", "--plan-search", "bfs")
    no_traceback(run)
    assert run.returncode == 2 and "invalid choice: 'bfs'" in run.stderr
    with pytest.raises(PzcError, match="the plan search is auto, states or sat, not 'bfs'"):
        api.solve(*sliding_instance("1234.5786", 3), plan_search="bfs")
