"""Move puzzles (plans): shortest plans checked against a breadth-first search
of the tests' own, replayed move by move, on both backends and the state
search; Asteroid Escape
replayed under the rules of its file by a simulator written here; errors in
plan specs located."""

from __future__ import annotations

import json
import random
from collections import deque

import pytest

from conftest import CORPUS, reads_corpus
from loading import spec, spec_from_text
from plan_tools import ENGINES
from pzc import api
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import PzcError, Source

CHALLENGES = CORPUS / "asteroid-escape" / "challenges.json"
needs_asteroid = reads_corpus(CHALLENGES)

SYMBOLS = "123456789ABCDEF"
MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1))


# ================================================================ sliding tiles

def goal_board(h, w):
    return SYMBOLS[:h * w - 1] + "."


def neighbours(board, h, w):
    """Boards one slide away (boards are strings in reading order)."""
    hole = board.index(".")
    r, c = divmod(hole, w)
    for dr, dc in MOVES:
        if 0 <= r + dr < h and 0 <= c + dc < w:
            k = (r + dr) * w + c + dc
            b = list(board)
            b[hole], b[k] = b[k], "."
            yield "".join(b)


def bfs_distance(start, goal, h, w):
    seen = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        if board == goal:
            return seen[board]
        for nxt in neighbours(board, h, w):
            if nxt not in seen:
                seen[nxt] = seen[board] + 1
                queue.append(nxt)
    return None


def text_of(board, h, w):
    return "\n".join(board[r * w:(r + 1) * w] for r in range(h)) + "\n"


def random_walk(h, w, steps, rng):
    board = goal_board(h, w)
    for _ in range(steps):
        board = rng.choice(list(neighbours(board, h, w)))
    return board


def solve_text(text, spec_name="sliding", **options):
    s = spec(spec_name)
    inst, = read_instances(Source("inst.txt", text), s.board.kind, target=True)
    return api.solve(s, inst, **options)


def replay(start, moves, h, w):
    """Apply pzc's moves (piece slides from `from` into the hole at `to`)."""
    board = list(start)
    boards = []
    for m in moves:
        (fr, fc), (tr, tc) = m["from"], m["to"]
        assert abs(fr - tr) + abs(fc - tc) == 1, m
        assert board[tr * w + tc] == ".", (m, "".join(board))
        assert board[fr * w + fc] == m["piece"], (m, "".join(board))
        board[tr * w + tc], board[fr * w + fc] = m["piece"], "."
        boards.append("".join(board))
    return boards


def sliding_cases():
    rng = random.Random(4)
    cases = [(3, 3, random_walk(3, 3, 40, rng)) for _ in range(6)]
    cases += [(2, 3, random_walk(2, 3, 30, rng)), (3, 2, random_walk(3, 2, 30, rng)),
              (2, 2, random_walk(2, 2, 9, rng)), (4, 4, random_walk(4, 4, 10, rng))]
    cases += [(3, 3, goal_board(3, 3)), (3, 3, "12345678."[:7] + ".8")]
    return cases


@pytest.mark.parametrize("h,w,start", sliding_cases(),
                         ids=[f"{h}x{w}-{b}" for h, w, b in sliding_cases()])
def test_sliding_plans_are_shortest_and_replay_to_the_goal(h, w, start):
    goal = goal_board(h, w)
    want = bfs_distance(start, goal, h, w)
    res = solve_text(text_of(start, h, w))
    assert res.status == "solved" and res.verified, res.error
    assert res.steps == len(res.moves) == want
    boards = replay(start, res.moves, h, w)
    assert (boards[-1] if boards else start) == goal
    assert "".join(res.grid) == goal
    assert ["".join(b) for b in res.boards] == [start] + boards


@pytest.mark.parametrize("start", ["4132.8765", "1237.5846", ".13825476"])
def test_both_backends_find_the_same_length(start):
    goal = goal_board(3, 3)
    want = bfs_distance(start, goal, 3, 3)
    for engine, options in ENGINES.items():
        res = solve_text(text_of(start, 3, 3), **options)
        assert res.status == "solved" and res.verified and res.steps == want, engine
        replay(start, res.moves, 3, 3)


@pytest.mark.slow
def test_a_goal_grid_after_one_blank_line():
    start, goal = "1234.5678", "8765.4321"
    want = bfs_distance(start, goal, 3, 3)
    res = solve_text(text_of(start, 3, 3) + "\n" + text_of(goal, 3, 3))
    assert res.steps == want
    assert replay(start, res.moves, 3, 3)[-1] == goal


def test_two_blank_lines_separate_instances(write, run_pzc):
    write("two.txt", "123\n4.6\n758\n\n\n123\n456\n7.8\n")
    run = run_pzc("solve", "sliding", "two.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    objs = [json.loads(l) for l in run.stdout.splitlines()]
    assert [(o["instance"], o["steps"], o["shortest"]) for o in objs] == [
        ("two.txt#1", 2, True), ("two.txt#2", 1, True)]


def test_no_plan_within_max_steps_exits_1(write, run_pzc):
    # two tiles swapped: an odd permutation, never solvable
    write("odd.txt", "213\n456\n78.\n")
    run = run_pzc("solve", "sliding", "odd.txt", "--max-steps", "6")
    assert run.returncode == 1
    assert "no plan of at most 6 moves" in run.stderr and "Traceback" not in run.stderr
    run = run_pzc("solve", "sliding", "odd.txt", "--max-steps", "-1")
    assert run.returncode == 2 and "at least 0" in run.stderr


def test_text_output_numbers_the_moves_and_shows_boards(write, run_pzc):
    write("p.txt", "123\n4.6\n758\n")
    run = run_pzc("solve", "sliding", "p.txt", "--show-boards")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "p.txt: solved, verified: 2 moves, shortest"
    assert lines[1:6] == ["  start:", "    123", "    4.6", "    758", "  moves:"]
    assert lines[6].strip().startswith("1. piece 5, from (2, 1), to (1, 1)")
    assert [l.strip() for l in lines[7:10]] == ["123", "456", "7.8"]
    assert lines[14:18] == ["  end:", "    123", "    456", "    78."]


def test_plans_are_refused_by_count(write, run_pzc):
    write("p.txt", "123\n4.6\n758\n")
    run = run_pzc("count", "sliding", "p.txt")
    assert run.returncode == 2 and "move puzzle" in run.stderr


# ================================================================ a plan written here

LAMPS = """\
puzzle lamps "turn every lamp on; a switch flips a lamp and its neighbours"
board square
plan flips
state on[c in cells] : bool
start all c in cells: not on[c]
action flip(c in cells where c.col < width - 1):
    set on[c] := not on[c], on[(c.row, c.col + 1)] := not on[(c.row, c.col + 1)]
goal all c in cells: on[c]
show c: if on[c] then "o" else "."
show moves flip: at = c
"""


def lamps_bfs(w, forbidden=lambda state: False):
    """Lamps on a 1 x w row; flip(c) (c < w - 1) toggles c and c + 1."""
    start, goal = (False,) * w, (True,) * w
    seen = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s == goal:
            return seen[s]
        for c in range(w - 1):
            t = list(s)
            t[c], t[c + 1] = not t[c], not t[c + 1]
            t = tuple(t)
            if t not in seen and not forbidden(t):
                seen[t] = seen[s] + 1
                queue.append(t)
    return None


def test_a_bool_state_plan_on_both_backends():
    s = spec_from_text(LAMPS, "lamps.pz")
    inst, = read_instances(Source("row.txt", "....\n"), "square")
    want = lamps_bfs(4)
    for engine, options in ENGINES.items():
        res = api.solve(s, inst, **options)
        assert res.status == "solved" and res.verified, (engine, res.error)
        assert res.steps == want == 2
        assert res.grid == ["oooo"]


def test_a_rule_on_the_state_holds_in_every_state():
    # the first two lamps are never both on before the end: flip (0, 0) comes last
    text = LAMPS + "rule calm: (all c in cells: on[c]) or not (on[(0, 0)] and on[(0, 1)])\n"
    s = spec_from_text(text, "calm.pz")
    inst, = read_instances(Source("row.txt", "......\n"), "square")

    def forbidden(state):
        return not all(state) and state[0] and state[1]
    want = lamps_bfs(6, forbidden)
    res = api.solve(s, inst)
    assert res.status == "solved" and res.verified
    assert res.steps == want == 3
    assert res.moves[-1] == {"at": [0, 0]}
    state = [False] * 6
    for m in res.moves:
        c = m["at"][1]
        state[c], state[c + 1] = not state[c], not state[c + 1]
        assert not forbidden(tuple(state)), state
    assert all(state)


# ================================================================ errors

def error_of(text):
    with pytest.raises(PzcError) as info:
        spec_from_text(text, "bad.pz")
    return info.value


@pytest.mark.parametrize("text, line, col, message", [
    ("puzzle p\nboard square\nstate s[c in cells] : bool\nshow c: 1\n", 3, 1,
     "a state belongs to a move puzzle: add 'plan NAME' to the spec"),
    ("puzzle p\nboard square\nplan m\nstate s[c in cells] : bool\n"
     "action a(c in cells): set s[c] := true\nshow c: 1\n", 3, 1, "a plan needs a 'goal'"),
    ("puzzle p\nboard square\nplan m\nvar v[c in cells] : bool\nstate s[c in cells] : bool\n"
     "action a(c in cells): set v[c] := true\ngoal true\nshow c: 1\n", 6, 27,
     "the left side of ':=' is a state variable, such as at[c]"),
    ("puzzle p\nboard square\nplan m\nstate s[c in cells] : bool\n"
     "action a(c in cells): set s[c] := true\ngoal true\nshow moves b: x = 1\n", 7, 1,
     "there is no action named 'b'"),
])
def test_plan_spec_errors_are_located(text, line, col, message):
    err = error_of(text)
    assert (err.message, err.line, err.column) == (message, line, col)


def test_an_effect_outside_the_domain_is_an_instance_error():
    s = spec_from_text("puzzle p\nboard square\nplan m\nstate s[c in cells] : 1..3\n"
                       "start all c in cells: s[c] = 1\n"
                       "action a(c in cells): set s[c] := 7\ngoal true\nshow c: s[c]\n", "dom.pz")
    inst, = read_instances(Source("x.txt", "..\n"), "square")
    res = api.solve(s, inst)
    assert res.status == "error" and res.exit_code == 2
    assert "outside its domain" in res.error.message and res.error.line == 6


# ================================================================ Asteroid Escape

def asteroid_rules(challenge):
    """The file's rules, written here: 5x5 blocker grids at (3r, 3c) of an
    11 x 11 grid may not overlap; challenge 60 also checks the sliding piece
    one and two grid cells along its way and needs the exit cells clear."""
    blockers = {int(k): [(i, j) for i in range(5) for j in range(5) if grid[i][j]]
                for k, grid in challenge["blockers"].items()}
    moving = challenge["id"] == 60

    def cover(p, y, x):
        return {(y + i, x + j) for i, j in blockers[p]}

    def legal(board):
        used = set()
        for k, p in enumerate(board):
            if p:
                cells = cover(p, 3 * (k // 3), 3 * (k % 3))
                if used & cells:
                    return False
                used |= cells
        return True

    def slide_ok(board, src, dst):
        p = board[src]
        (sr, sc), (dr, dc) = divmod(src, 3), divmod(dst, 3)
        rest = set()
        for k, q in enumerate(board):
            if q and k != src:
                rest |= cover(q, 3 * (k // 3), 3 * (k % 3))
        return all(not (cover(p, 3 * sr + s * (dr - sr), 3 * sc + s * (dc - sc)) & rest)
                   for s in (1, 2))

    exit_cells = {(y, x) for y in (9, 10) for x in (3, 4, 6, 7)}

    def done(board):
        if board[7] != challenge["ship_piece"]:
            return False
        if not moving:
            return True
        return not any(cover(p, 3 * (k // 3), 3 * (k % 3)) & exit_cells
                       for k, p in enumerate(board) if p)

    def successors(board):
        hole = board.index(0)
        r, c = divmod(hole, 3)
        for dr, dc in MOVES:
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                src = (r + dr) * 3 + c + dc
                if moving and not slide_ok(board, src, hole):
                    continue
                b = list(board)
                b[hole], b[src] = b[src], 0
                if legal(b):
                    yield src, hole, tuple(b)
    return legal, successors, done


def asteroid_bfs(challenge):
    legal, successors, done = asteroid_rules(challenge)
    start = tuple(x for row in challenge["start"] for x in row)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        b = queue.popleft()
        if done(b):
            return seen[b]
        for _, _, nxt in successors(b):
            if nxt not in seen:
                seen[nxt] = seen[b] + 1
                queue.append(nxt)
    return None


@needs_asteroid
@pytest.mark.parametrize("k, moves", [pytest.param(1, 5, id="challenge1"),
                                      pytest.param(2, 108, id="challenge60",
                                                   marks=pytest.mark.slow)])
def test_asteroid_escape_shortest_plans_follow_the_file(k, moves):
    s = spec("asteroid")
    insts = api.load_instances(s, str(CHALLENGES))
    challenge = json.loads(CHALLENGES.read_text())["challenges"][k - 1]
    assert asteroid_bfs(challenge) == moves
    res = api.solve(s, insts[k - 1])
    assert res.status == "solved" and res.verified
    assert res.steps == len(res.moves) == moves
    legal, successors, done = asteroid_rules(challenge)
    board = tuple(x for row in challenge["start"] for x in row)
    assert legal(board)
    for m in res.moves:
        src, dst = m["from"][0] * 3 + m["from"][1], m["to"][0] * 3 + m["to"][1]
        options = {(a, b): nxt for a, b, nxt in successors(board)}
        assert (src, dst) in options, (m, board)
        assert str(board[src]) == m["piece"]
        board = options[(src, dst)]
    assert done(board)
    assert res.grid == ["".join(str(x) for x in board[r * 3:r * 3 + 3]) for r in range(3)]
