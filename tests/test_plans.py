"""Move puzzles (plans) against searches written here.

* Sliding tiles: a breadth-first search of the tests' own gives the fewest
  moves of random solvable boards (random walks from the goal and random
  permutations of the right parity); pzc's plan must be that long, and its
  moves, replayed one slide at a time, must lead from the start to the goal.
  The text output and --show-boards are replayed the same way.
* Asteroid Escape (../shared/corpus, skipped without it): a simulator of the
  challenge file's rules, checked against the file's own solutions, replays
  pzc's plans and finds the shortest lengths by its own search.
* Errors in plan specs: located, with a caret, exit 2, no traceback.
* Plans written here (a river crossing with bool states, a frog on a row with
  an int state, two registers swapped at once), each with rules that forbid
  states, on both backends and the state search, against a search over the
  same rules.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache

import pytest

import generators as gen
from conftest import CORPUS, reads_corpus
from loading import spec, spec_from_text
from outcomes import assert_located, assert_plain, no_traceback
from plan_tools import ENGINES, Asteroid
from pzc import api
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source

CHALLENGES = CORPUS / "asteroid-escape" / "challenges.json"
needs_corpus = reads_corpus(CHALLENGES)


def solved(res, backend="sat"):
    assert res.error is None, (backend, res.error and res.error.message)
    assert res.status == "solved" and res.verified is True and res.exit_code == 0, backend
    assert res.steps == len(res.moves), backend
    return res


def cli_json(run):
    assert run.returncode == 0, run.stderr
    no_traceback(run)
    return [json.loads(line) for line in run.stdout.splitlines()]


# ================================================================ sliding tiles

@cache
def distances_to_goal(h, w):
    """The fewest slides from every solvable h x w board to the default goal."""
    return dict(gen.bfs_order(gen.sliding_goal(h, w), gen.sliding_next(h, w)))


def fewest_slides(start, h, w, goal=None, limit=None):
    goal = goal or gen.sliding_goal(h, w)
    return gen.bfs_distance(start, gen.sliding_next(h, w), lambda b: b == goal, limit)


def replay_slides(start, moves, h, w):
    """The boards pzc's moves lead through (start first): each move must slide
    the named piece from `from` into the hole at `to`, next to it."""
    boards = [start]
    for m in moves:
        legal = {(f, t): (p, nxt) for p, f, t, nxt in gen.sliding_slides(boards[-1], h, w)}
        step = (tuple(m["from"]), tuple(m["to"]))
        assert step in legal, (m, boards[-1])
        piece, nxt = legal[step]
        assert m["piece"] == piece, (m, boards[-1])
        boards.append(nxt)
    return boards


def one_slide_apart(before, after, h, w):
    return after in gen.sliding_next(h, w)(before)


def solve_sliding(board, h, w, goal=None, **options):
    s = spec("sliding")
    inst, = read_instances(Source("board.txt", gen.sliding_text(board, w, goal)),
                           s.board.kind, target=True)
    return api.solve(s, inst, **options)


def check_sliding_plan(start, h, w, want, goal=None, **options):
    """pzc's plan from start is `want` moves long and replays to the goal."""
    goal = goal or gen.sliding_goal(h, w)
    res = solved(solve_sliding(start, h, w, goal if goal != gen.sliding_goal(h, w) else None,
                               **options), options.get("backend", "sat"))
    assert res.steps == want
    boards = replay_slides(start, res.moves, h, w)
    assert boards[-1] == goal
    assert "".join(res.grid) == goal and len(res.grid) == h
    assert ["".join(b) for b in res.boards] == boards
    return res


def sliding_3x3(seed, make):
    """A solvable 3x3 board 10 to 24 slides from the goal, and that distance."""
    rng = random.Random(seed)
    dist = distances_to_goal(3, 3)
    while True:
        board = make(rng)
        assert gen.sliding_solvable(board, gen.sliding_goal(3, 3), 3) == (board in dist)
        if board in dist and 10 <= dist[board] <= 24:
            return board, dist[board]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_random_walk_3x3_is_solved_in_the_fewest_moves(seed):
    board, want = sliding_3x3(seed, lambda rng: gen.sliding_walk(3, 3, rng.randint(20, 80), rng))
    check_sliding_plan(board, 3, 3, want)


@pytest.mark.parametrize("seed", range(5))
def test_random_permutation_3x3_is_solved_in_the_fewest_moves(seed):
    board, want = sliding_3x3(100 + seed, lambda rng: gen.sliding_shuffle(3, 3, rng))
    check_sliding_plan(board, 3, 3, want)


@pytest.mark.parametrize("h, w, seed", [(2, 3, 1), (2, 3, 2), (3, 2, 3), (3, 2, 4),
                                        (2, 2, 5), (2, 2, 6)])
def test_small_boards_are_solved_in_the_fewest_moves(h, w, seed):
    rng = random.Random(seed)
    board = gen.sliding_shuffle(h, w, rng)
    want = distances_to_goal(h, w)[board]
    check_sliding_plan(board, h, w, want)


@pytest.mark.parametrize("seed", range(3))
def test_a_goal_grid_of_the_instance_is_reached_in_the_fewest_moves(seed):
    rng = random.Random(200 + seed)
    goal = "".join(rng.sample(gen.sliding_goal(2, 3), 6))
    start = gen.sliding_shuffle(2, 3, rng, goal=goal)
    want = fewest_slides(start, 2, 3, goal)
    assert want is not None
    check_sliding_plan(start, 2, 3, want, goal=goal)


@pytest.mark.parametrize("seed", range(2))
def test_a_short_walk_on_4x4_is_undone_in_the_fewest_moves(seed):
    rng = random.Random(300 + seed)
    board = gen.sliding_walk(4, 4, 12, rng)
    want = fewest_slides(board, 4, 4, limit=12)
    assert want is not None and want <= 12
    check_sliding_plan(board, 4, 4, want)


def test_one_move_and_no_move():
    goal = gen.sliding_goal(3, 3)
    (piece, frm, to, board), = [s for s in gen.sliding_slides(goal, 3, 3) if s[0] == "6"]
    res = check_sliding_plan(board, 3, 3, 1)
    assert res.moves == [{"piece": "6", "from": list(to), "to": list(frm)}]
    res = check_sliding_plan(goal, 3, 3, 0)
    assert res.moves == [] and [("".join(b)) for b in res.boards] == [goal]


@pytest.mark.parametrize("h, w, seed", [(2, 3, 31), (3, 3, 32)])
def test_the_plan_length_is_the_least_max_steps_that_finds_it(h, w, seed):
    board = gen.sliding_walk(h, w, 9, random.Random(seed))
    want = fewest_slides(board, h, w)
    assert want is not None and want > 1
    check_sliding_plan(board, h, w, want, max_steps=want)
    res = solve_sliding(board, h, w, max_steps=want - 1)
    assert (res.status, res.exit_code, res.moves) == ("unsat", 1, None)
    assert f"no plan of at most {want - 1} moves" in res.error.message


@pytest.mark.parametrize("h, w, seed", [(3, 3, 41), (2, 3, 42), (3, 2, 43)])
def test_both_backends_find_the_same_fewest_moves(h, w, seed):
    rng = random.Random(seed)
    while True:                      # a walk may fold back on itself: keep one of 5+ moves
        board = gen.sliding_walk(h, w, 11, rng)
        want = fewest_slides(board, h, w)
        if want is not None and want >= 5:
            break
    for engine in ENGINES.values():
        check_sliding_plan(board, h, w, want, **engine)


def test_an_odd_permutation_has_no_plan(write, run_pzc):
    board = gen.sliding_shuffle(3, 3, random.Random(7), solvable=False)
    assert board not in distances_to_goal(3, 3)
    write("odd.txt", gen.sliding_text(board, 3))
    run = run_pzc("solve", "sliding", "odd.txt", "--max-steps", "12")
    assert run.returncode == 1
    no_traceback(run)
    assert "pzc: error: no plan of at most 12 moves (--max-steps raises the bound)" \
        in run.stderr.splitlines()
    assert run.stdout.splitlines()[0] == "odd.txt: no solution"


# ---------------------------------------------------------------- the output, replayed

MOVE_LINE = re.compile(r"^ +(\d+)\. piece (\S+), from \((\d+), (\d+)\), to \((\d+), (\d+)\)$")


def read_plan_text(stdout):
    """(header, start rows, [(move dict, board rows)], end rows) from text
    output: the start board, the moves (each with the board after it) and
    the end board, each part under its label."""
    lines = [l for l in stdout.splitlines() if l.strip()]
    header, boards, moves, part = lines[0], {"start": [], "end": []}, [], None
    for line in lines[1:]:
        if line in ("  start:", "  moves:", "  end:"):
            part = line.strip()[:-1]
            continue
        assert part is not None, f"a line before the start board's label: {line!r}"
        m = MOVE_LINE.match(line)
        if part == "moves" and m:
            n, piece, *rc = m.groups()
            assert int(n) == len(moves) + 1, line
            r1, c1, r2, c2 = map(int, rc)
            moves.append(({"piece": piece, "from": [r1, c1], "to": [r2, c2]}, []))
        elif part == "moves":
            assert moves and line.startswith(" " * 7), line
            moves[-1][1].append(line.strip())
        else:
            assert line.startswith("    ") and not line.startswith("     "), line
            boards[part].append(line.strip())
    return header, boards["start"], moves, boards["end"]


@pytest.mark.parametrize("h, w, seed", [(3, 3, 11), (2, 3, 12), (3, 2, 13)])
def test_text_output_and_boards_replay(h, w, seed, write, run_pzc):
    start = gen.sliding_shuffle(h, w, random.Random(seed))
    want = distances_to_goal(h, w)[start]
    goal = gen.sliding_goal(h, w)
    write("p.txt", gen.sliding_text(start, w))
    run = run_pzc("solve", "sliding", "p.txt", "--show-boards")
    assert run.returncode == 0, run.stderr
    no_traceback(run)
    header, first, moves, last = read_plan_text(run.stdout)
    m = re.fullmatch(r"p\.txt: solved, verified: (\d+) moves?, shortest", header)
    assert m and int(m.group(1)) == want, header
    assert len(moves) == want and "".join(first) == start and "".join(last) == goal
    boards = replay_slides(start, [mv for mv, _ in moves], h, w)
    printed = [start] + ["".join(rows) for _, rows in moves]
    assert printed == boards
    assert all(len(rows) == h for _, rows in moves)
    assert all(one_slide_apart(a, b, h, w) for a, b in zip(printed, printed[1:]))


@pytest.mark.slow
def test_json_output_and_boards_replay(write, run_pzc):
    rng = random.Random(21)
    starts = [gen.sliding_shuffle(3, 3, rng) for _ in range(2)] + [gen.sliding_goal(3, 3)]
    write("three.txt", "\n\n".join(gen.sliding_text(b, 3) for b in starts))
    objs = cli_json(run_pzc("solve", "sliding", "three.txt", "--format", "json",
                            "--show-boards"))
    assert [o["instance"] for o in objs] == [f"three.txt#{i}" for i in (1, 2, 3)]
    for start, o in zip(starts, objs):
        want = distances_to_goal(3, 3)[start]
        assert (o["status"], o["verified"], o["steps"], o["shortest"]) == \
            ("solved", True, want, True)
        boards = [start] + ["".join(rows) for rows in o["boards"][1:]]
        assert "".join(o["boards"][0]) == start
        assert replay_slides(start, o["moves"], 3, 3) == boards
        assert all(one_slide_apart(a, b, 3, 3) for a, b in zip(boards, boards[1:]))
        assert "".join(o["grid"]) == boards[-1] == gen.sliding_goal(3, 3)
    objs = cli_json(run_pzc("solve", "sliding", "three.txt", "--format", "json"))
    assert all("boards" not in o for o in objs)


# ================================================================ Asteroid Escape

def challenges():
    return {ch["id"]: ch for ch in json.loads(CHALLENGES.read_text())["challenges"]}


def solve_challenge(number):
    s = spec("asteroid")
    inst, = [i for i in api.load_instances(s, str(CHALLENGES)) if i.data["id"] == number]
    return solved(api.solve(s, inst))


def rows_of(board):
    return ["".join(map(str, board[r:r + 3])) for r in (0, 3, 6)]


@needs_corpus
def test_the_simulator_follows_the_file():
    """The rules written here accept the file's solutions and agree with its
    notebook examples, so they can judge pzc's plans."""
    chs = challenges()
    for number, length in ((1, 5), (60, 108)):
        game = Asteroid(chs[number])
        board = game.start
        assert len(chs[number]["solution_moves"]) == length
        for axis, direction in chs[number]["solution_moves"]:
            board = game.hole_move(board, axis, direction)
            assert board is not None
        assert game.done(board)
        if number == 60:
            assert [list(board[r:r + 3]) for r in (0, 3, 6)] == \
                chs[60]["solution_final_arrangement"]
    examples = json.loads(CHALLENGES.read_text())["examples_from_notebook"]
    flat = [tuple(x for row in examples[k] for x in row) for k in
            ("challenge1_invalid_arrangement", "challenge60_blocked_exit",
             "challenge60_clear_exit")]
    assert not Asteroid(chs[1]).legal(flat[0])
    wizard = Asteroid(chs[60])
    assert wizard.legal(flat[1]) and not wizard.exit_clear(flat[1])
    assert wizard.legal(flat[2]) and wizard.exit_clear(flat[2])
    assert (wizard.hole_move(wizard.start, 0, 1) is None) is \
        examples["challenge60_vertical_move_(0,1)_from_start_interferes"]
    assert (wizard.hole_move(wizard.start, 1, 1) is None) is \
        examples["challenge60_horizontal_move_(1,1)_from_start_interferes"]


@needs_corpus
def test_a_search_under_the_files_rules_needs_5_and_108_moves():
    chs = challenges()
    for number, want in ((1, 5), (60, 108)):
        game = Asteroid(chs[number])
        assert gen.bfs_distance(game.start, game.successors, game.done) == want


@needs_corpus
def test_asteroid_challenge_1():
    game = Asteroid(challenges()[1])
    res = solve_challenge(1)
    assert res.steps == 5
    boards = game.replay(res.moves)
    assert game.done(boards[-1]) and res.grid == rows_of(boards[-1])
    assert [tuple(int(ch) for row in b for ch in row) for b in res.boards] == boards


@pytest.mark.slow
@needs_corpus
def test_asteroid_challenge_60_the_wizard():
    # about 25 s: 108 steps of deepening
    game = Asteroid(challenges()[60])
    res = solve_challenge(60)
    assert res.steps == 108
    final = game.replay(res.moves)[-1]
    assert res.grid == rows_of(final)
    assert final[7] == game.ship and game.legal(final) and game.exit_clear(final)


# ================================================================ errors in plan specs

def located_at(text, line, token):
    """(line, column) of the first `token` on 1-based `line` of text."""
    col = text.splitlines()[line - 1].index(token) + 1
    return line, col, text.splitlines()[line - 1]


PLAN_ERRORS = {
    "action without plan": (
        "puzzle p\nboard square\nvar v[c in cells] : bool\n"
        "action flip(c in cells): set v[c] := not v[c]\nshow v\n",
        4, "action", "an action belongs to a move puzzle: add 'plan NAME' to the spec"),
    "plan without goal": (
        "puzzle p\nboard square\nplan flips\nstate on[c in cells] : bool\n"
        "action flip(c in cells): set on[c] := not on[c]\nshow on\n",
        3, "plan", "a plan needs a 'goal'"),
    "set a var": (
        "puzzle p\nboard square\nplan flips\nvar v[c in cells] : bool\nstate on[c in cells] : bool\n"
        "action flip(c in cells): set on[c] := true, v[c] := true\ngoal true\nshow on\n",
        6, "v[c] :=", "the left side of ':=' is a state variable, such as at[c]"),
    "set a let": (
        "puzzle p\nboard square\nplan flips\nlet k = 3\nstate on[c in cells] : bool\n"
        "action flip(c in cells):   set k := 4\ngoal true\nshow on\n",
        6, "k :=", "the left side of ':=' is a state variable, such as at[c]"),
    "show moves of no action": (
        "puzzle p\nboard square\nplan flips\nstate on[c in cells] : bool\n"
        "action flip(c in cells): set on[c] := not on[c]\ngoal true\nshow on\n"
        "show moves flop: at = c\n",
        8, "show", "there is no action named 'flop'"),
}


@pytest.mark.parametrize("name", PLAN_ERRORS)
def test_plan_spec_errors_are_located(name, write, run_pzc):
    text, line, token, message = PLAN_ERRORS[name]
    write("plan.pz", text)
    write("b.txt", "..\n..\n")
    line, col, source = located_at(text, line, token)
    for command in (("check", "plan.pz"), ("solve", "plan.pz", "b.txt")):
        run = run_pzc(*command)
        assert_located(run, "plan.pz", line, col, message, source)
        assert run.stdout == ""


def sliding_text_with(old, new):
    text = api.builtin_specs()["sliding"].read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def test_an_effect_outside_the_domain_is_located(write, run_pzc):
    # a slide that leaves a tile "X" behind: "X" is not a tile of the board
    text = sliding_text_with("at[a] := hole", 'at[a] := "X"')
    write("slide.pz", text)
    write("b.txt", "123\n4.6\n758\n")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if '"X"' in l)
    line, col, source = located_at(text, line, '"X"')
    run = run_pzc("solve", "slide.pz", "b.txt")
    assert_located(run, "slide.pz", line, col,
                   "this sets at to 'X', which is outside its domain", source)
    assert run.stdout.splitlines()[0] == "b.txt: error"
    # the slide is still checked when the start already is the goal
    write("done.txt", "123\n456\n78.\n")
    assert_located(run_pzc("solve", "slide.pz", "done.txt"), "slide.pz", line, col,
                   "this sets at to 'X', which is outside its domain", source)


def test_show_moves_of_an_unknown_action_in_a_builtin_spec(write, run_pzc):
    text = sliding_text_with("show moves slide:", "show moves slid:")
    write("slide.pz", text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "show moves slid:" in l)
    assert_located(run_pzc("check", "slide.pz"), "slide.pz", line, 1,
                   "there is no action named 'slid'", text.splitlines()[line - 1])


def test_negative_max_steps_is_refused(write, run_pzc):
    write("b.txt", "123\n4.6\n758\n")
    run = run_pzc("solve", "sliding", "b.txt", "--max-steps", "-1")
    assert_plain(run, "argument --max-steps: the number of moves is at least 0, not -1")
    assert run.stdout == ""
    run = run_pzc("solve", "sliding", "b.txt", "--max-steps", "0")
    assert run.returncode == 1 and "no plan of at most 0 moves" in run.stderr


def test_equals_for_assign_names_the_assign_token(write, run_pzc):
    text = ("puzzle p\nboard square\nplan flips\nstate on[c in cells] : bool\n"
            "action flip(c in cells): set on[c] = not on[c]\ngoal true\nshow on\n")
    write("plan.pz", text)
    run = run_pzc("check", "plan.pz")
    line, col, source = located_at(text, 5, "= not")
    assert_located(run, "plan.pz", line, col, "unexpected '='; expected '.', '[', ':='", source)


# ================================================================ plans written here

RIVER = """\
puzzle river "ferry all across; the boat holds the farmer and one more"
board square
plan crossings

let farmer = (0, 0)
let eats(x, y) = (x = "w" and y = "g") or (x = "g" and y = "c")

state far[c in cells] : bool
show c: if far[c] then clue(c) else "."
show moves cross: item = token(clue(c)), at = c, to = if far[c] then "near" else "far"

start all c in cells: not far[c]
rule safe: all c in cells, d in cells where eats(clue(c), clue(d)):
    (far[c] <-> far[d]) -> (far[c] <-> far[farmer])

action alone: set far[farmer] := not far[farmer]
action cross(c in cells where c != farmer):
    pre far[c] <-> far[farmer]
    set far[farmer] := not far[farmer], far[c] := not far[c]

goal all c in cells: far[c]
"""


def river_rules(items, safe_rule=True):
    """(safe, successors) of the river crossing, states as tuples of 'on the
    far bank' with the farmer first."""
    eats = {("w", "g"), ("g", "c")}

    def safe(state):
        return not safe_rule or all(
            state[i] == state[0] for i, x in enumerate(items) for j, y in enumerate(items)
            if (x, y) in eats and state[i] == state[j])

    def successors(state):
        for i in range(len(items)):
            if state[i] == state[0]:
                nxt = list(state)
                nxt[0] = nxt[i] = not state[0]
                if safe(tuple(nxt)):
                    yield tuple(nxt)
    return safe, successors


def river_plan(items, text=RIVER, backend="sat", max_steps=200):
    s = spec_from_text(text, "river.pz")
    inst, = read_instances(Source("bank.txt", items + "\n"), "square")
    return api.solve(s, inst, max_steps=max_steps, **ENGINES[backend])


@pytest.mark.parametrize("items", ["fwgc", "fcgw", "fwg", "fgc", "fwgcx", "fxgc", "f"])
@pytest.mark.parametrize("backend", list(ENGINES))
def test_river_crossing_is_shortest_and_always_safe(items, backend):
    safe, successors = river_rules(items)
    start = (False,) * len(items)
    want = gen.bfs_distance(start, successors, all)
    assert want is not None
    if items == "fwgc":
        assert want == 7           # the classic answer
    res = solved(river_plan(items, backend=backend), backend)
    assert res.steps == want and res.grid == [items]
    state = start
    for m in res.moves:
        # fields are read in the state before the step
        if m == {"action": "alone", "parameters": []}:
            i = 0
        else:
            assert set(m) == {"item", "at", "to"}, m
            i = m["at"][1]
            assert m["item"] == items[i] and i > 0
            assert m["to"] == ("near" if state[i] else "far")
        assert state[i] == state[0], (m, state)
        nxt = list(state)
        nxt[0] = nxt[i] = not state[0]
        state = tuple(nxt)
        assert safe(state), (m, state)
    assert all(state)
    assert [r[0] for r in res.boards] == ["".join(x if f else "." for x, f in zip(items, s))
                                          for s in gen_states(start, res.moves, items)]


def gen_states(start, moves, items):
    """The river states a plan passes (start first), for the boards."""
    out = [start]
    for m in moves:
        i = m["at"][1] if "at" in m else 0
        nxt = list(out[-1])
        nxt[0] = nxt[i] = not out[-1][0]
        out.append(tuple(nxt))
    return out


def test_the_safety_rule_makes_the_crossing_longer():
    loose = RIVER.replace("rule safe:", "rule ignored: true or")
    _, successors = river_rules("fwgc", safe_rule=False)
    want = gen.bfs_distance((False,) * 4, successors, all)
    assert want == 5
    assert solved(river_plan("fwgc", loose)).steps == want


def test_a_crossing_without_a_safe_plan_is_reported():
    # two goats: the wolf eats either, either eats the cabbage
    items = "fwggc"
    _, successors = river_rules(items)
    assert gen.bfs_distance((False,) * 5, successors, all) is None
    res = river_plan(items, max_steps=2 ** 5)
    assert (res.status, res.exit_code) == ("unsat", 1)
    assert "no plan of at most 32 moves" in res.error.message


FROG = """\
puzzle frog "a frog steps 1 or jumps 3 along a row, never onto a rock (x)"
board square
plan hops

let col_of(s) = [c.col for c in cells where given(c) and clue(c) = s][0]
state pos : 0..width - 1
show c: if c.col = pos then "F" else if given(c) then clue(c) else "."
show moves step: by = d, from = pos

start pos = col_of("s")
rule dry: all c in cells where given(c) and clue(c) = "x": pos != c.col

action step(d in [-1, 1]): pre pos + d >= 0 and pos + d < width set pos := pos + d
action jump(d in [-3, 3]): pre pos + d >= 0 and pos + d < width set pos := pos + d

goal pos = col_of("g")
"""
# the same, leaving the row to the domain of pos (0..width - 1)
FROG_BY_DOMAIN = FROG.replace("pre pos + d >= 0 and pos + d < width ", "")


def frog_row(rng):
    w = rng.randint(6, 12)
    s, g = rng.sample(range(w), 2)
    return "".join("s" if i == s else "g" if i == g else "x" if rng.random() < 0.35 else "."
                   for i in range(w))


def frog_hops(row):
    def successors(pos):
        for d in (-1, 1, -3, 3):
            if 0 <= pos + d < len(row) and row[pos + d] != "x":
                yield pos + d
    return gen.bfs_distance(row.index("s"), successors, lambda p: row[p] == "g")


FROG_ROWS = ["s.x.x..g", "g..x.xs", "sxx.g"] + [frog_row(random.Random(k)) for k in range(8)]


@pytest.mark.slow
@pytest.mark.parametrize("text", [FROG, FROG_BY_DOMAIN], ids=["pre", "domain"])
@pytest.mark.parametrize("backend", list(ENGINES))
def test_frog_hops_are_shortest_and_dry(text, backend):
    s = spec_from_text(text, "frog.pz")
    wants = [frog_hops(row) for row in FROG_ROWS]
    assert None in wants and any(w and w >= 3 for w in wants)
    for row, want in zip(FROG_ROWS, wants):
        inst, = read_instances(Source("row.txt", row + "\n"), "square")
        res = api.solve(s, inst, max_steps=len(row), **ENGINES[backend])
        if want is None:
            assert (res.status, res.exit_code) == ("unsat", 1), (row, res.moves)
            continue
        solved(res, backend)
        assert res.steps == want, row
        pos = row.index("s")
        for m in res.moves:
            if "by" in m:
                assert m["from"] == pos, (row, m)        # read before the step
                pos += m["by"]
            else:
                assert m["action"] == "jump" and m["parameters"] in ([3], [-3]), m
                pos += m["parameters"][0]
            assert 0 <= pos < len(row) and row[pos] != "x", (row, res.moves)
        assert row[pos] == "g"
        assert res.grid == [row[:pos] + "F" + row[pos + 1:]]


REGISTERS = """\
puzzle registers "two registers: swap them, add y to x, or take one from x"
board json
plan program
let cells = {(0, 0)}
state x : 0..input.top
state y : 0..input.top
show c: x * 100 + y
show moves swap: x = x, y = y
start x = input.x and y = input.y
rule avoid: x != input.avoid
action swap: set x := y, y := x
action add: set x := x + y
action dec: pre x > 0 set x := x - 1
goal x = input.gx and y = input.gy
"""


def registers_program(p):
    def successors(state):
        x, y = state
        for nxt in ((y, x), (x + y, y), (x - 1, y)):
            if 0 <= nxt[0] <= p["top"] and nxt[0] != p["avoid"]:
                yield nxt
    if p["x"] == p["avoid"]:
        return None
    return gen.bfs_distance((p["x"], p["y"]), successors, lambda s: s == (p["gx"], p["gy"]))


def registers_cases():
    rng = random.Random(5)
    cases = [dict(top=9, x=1, y=2, gx=2, gy=1, avoid=7),     # one swap, both at once
             dict(top=9, x=1, y=2, gx=7, gy=3, avoid=9),
             dict(top=9, x=5, y=2, gx=5, gy=2, avoid=5),     # the start breaks the rule
             dict(top=6, x=3, y=2, gx=6, gy=2, avoid=5)]     # 3 + 2 = 5 is forbidden
    cases += [dict(top=6, x=rng.randint(0, 6), y=rng.randint(0, 6), gx=rng.randint(0, 6),
                   gy=rng.randint(0, 6), avoid=rng.randint(0, 6)) for _ in range(6)]
    return cases


@pytest.mark.parametrize("backend", ["sat", pytest.param("smt", marks=pytest.mark.slow), "states"])
def test_registers_effects_read_the_state_before(backend):
    s = spec_from_text(REGISTERS, "registers.pz")
    wants = [registers_program(p) for p in registers_cases()]
    assert wants[:4] == [1, registers_program(registers_cases()[1]), None, wants[3]]
    assert None in wants[4:] or wants.count(None) == 1
    for p, want in zip(registers_cases(), wants):
        inst, = read_instances(Source("r.json", json.dumps(p)), "json")
        res = api.solve(s, inst, max_steps=(p["top"] + 1) ** 2, **ENGINES[backend])
        if want is None:
            assert (res.status, res.exit_code) == ("unsat", 1), (p, res.moves)
            continue
        solved(res, backend)
        assert res.steps == want, p
        x, y = p["x"], p["y"]
        for m in res.moves:
            if m.get("action") == "add":
                x += y
            elif m.get("action") == "dec":
                assert x > 0
                x -= 1
            else:
                assert m == {"x": x, "y": y}, (p, res.moves)
                x, y = y, x
            assert 0 <= x <= p["top"] and x != p["avoid"], (p, res.moves)
        assert (x, y) == (p["gx"], p["gy"])
        assert res.grid == [str(100 * x + y)]
