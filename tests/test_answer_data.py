"""The answer as data (encoder/answer_data.py, docs/api.md): each field is
checked against the instance and against what the text output prints, on the
built-in examples and on instances made here (tests/generators.py).

    values  agree with the grid's tokens, and solve the puzzle when read
            alone (Sudoku's units, Hexiom's counts, Hashi's islands)
    board   prints as the grid does; cells and locked are the board's
    paths   run through neighbouring cells from one end of a label to the other
    loops   close, and are exactly the lines the board draws
    moves   are typed records that replay from the start to the final board
"""

from __future__ import annotations

import json
import pickle
import random
import re

import pytest

from pzc import api
from pzc.board.graphs import lines

from conftest import EXAMPLES
import generators as gen

BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# box-drawing characters and the sides they reach, as the loop specs draw them
BOX = {"─": {(0, -1), (0, 1)}, "│": {(-1, 0), (1, 0)}, "┌": {(1, 0), (0, 1)},
       "┐": {(1, 0), (0, -1)}, "└": {(-1, 0), (0, 1)}, "┘": {(-1, 0), (0, -1)}}

_SPECS = {}


def spec_of(name):
    if name not in _SPECS:
        _SPECS[name] = api.load_spec(name)
    return _SPECS[name]


def solved(name, path=None, text=None):
    """The solve results of every instance of a file (or of ``text``)."""
    spec = spec_of(name)
    out = []
    for inst in api.load_instances(spec, path or f"{name}.txt", text=text):
        result = api.solve(spec, inst)
        assert result.status == "solved" and result.verified, (inst.name, result.error)
        out.append((inst, result))
    return out


def listed(value):
    """Tuples as lists, as JSON has them."""
    if isinstance(value, (list, tuple)):
        return [listed(v) for v in value]
    if isinstance(value, dict):
        return {k: listed(v) for k, v in value.items()}
    return value


def adjacent(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def printed_rows(board, hexagon=False, locked=()):
    """The grid rows the text output prints for a board of tokens, by the
    rules docs/language.md gives (Output)."""
    if hexagon:
        side = (len(board) + 1) // 2
        return [(" " * abs(side - 1 - r) + "".join(("+" if (r, i) in locked else " ") + t
                                                    for i, t in enumerate(row))).rstrip()
                for r, row in enumerate(board)]
    wide = any(t is not None and len(t) != 1 for row in board for t in row)
    return [(" " if wide else "").join("#" if t is None else t for t in row) for row in board]


EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("*/*") if p.name != "hard8.txt")


# ------------------------------------------------------------ every example

@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_example_answer_is_its_grid_as_data(path):
    name = path.parent.name
    spec = spec_of(name)
    for inst, result in solved(name, str(path)):
        data = result.answer
        hexagon = inst.layout == "hex"
        assert printed_rows(data.board, hexagon, set(data.locked)) == result.grid
        assert data.cells == {(r, c): t for r, row in enumerate(data.board)
                              for c, t in enumerate(row) if t is not None}
        assert data.locked == sorted(inst.locked)
        assert listed(data.moves) == result.moves
        # values: shown variables of the spec only, every key of each
        assert data.values and set(data.values) <= set(spec.vars), data.values.keys()
        # the same as JSON, and nothing there that JSON cannot carry
        out = result.to_json(data=True)
        assert json.loads(json.dumps(out)) == out
        assert out["answer"]["board"] == data.board
        assert out["answer"]["values"] == {n: [[listed(k), listed(v)] for k, v in t.items()]
                                           for n, t in data.values.items()}
        assert {k: v for k, v in out.items() if k != "answer"} == result.to_json()


# tokens the grid shows for a value of its shown variable, for the genres
# whose grid is one variable read cell by cell
def _number(v):
    return BASE36[v]


TOKEN_OF_VALUE = {
    "sudoku": ("v", _number), "kenken": ("v", _number), "ripple": ("v", _number),
    "kakuro": ("v", _number),
    "hexiom": ("tile", lambda v: "." if v == -1 else str(v)),
    "starbattle": ("star", lambda v: "*" if v else "."),
    "norinori": ("shaded", lambda v: "#" if v else "."),
    "lits": ("shaded", lambda v: "#" if v else "."),
    "akari": ("light", lambda v: "*" if v else "."),
}


@pytest.mark.parametrize("name", sorted(TOKEN_OF_VALUE))
def test_values_are_what_the_grid_shows(name):
    var, token = TOKEN_OF_VALUE[name]
    for path in sorted((EXAMPLES / name).iterdir()):
        for inst, result in solved(name, str(path)):
            values = result.answer.values[var]
            assert values, name
            for cell, value in values.items():
                assert result.answer.cells[cell] == token(value), (name, cell, value)


@pytest.mark.parametrize("name", ["hitori", "heyawake", "kurodoko", "kurotto", "shimaguni"])
def test_shaded_cells_are_the_hashes(name):
    for path in sorted((EXAMPLES / name).iterdir()):
        for inst, result in solved(name, str(path)):
            shaded = result.answer.values["shaded"]
            assert {c for c, v in shaded.items() if v} == {
                c for c, t in result.answer.cells.items() if t == "#"}


# ------------------------------------------------------------ Sudoku

def sudoku_instances():
    rng = random.Random(26)
    made = [gen.sudoku_puzzle(b, keep, rng)[0] for b, keep in ((2, 0.4), (3, 0.5), (3, 0.35))]
    return ([str(p) for p in sorted((EXAMPLES / "sudoku").iterdir())]
            + ["\n".join(rows) + "\n" for rows in made])


@pytest.mark.parametrize("source", sudoku_instances(), ids=lambda s: s[:20])
def test_sudoku_values_fill_each_unit_and_keep_the_clues(source):
    made = "\n" in source
    for inst, result in solved("sudoku", None if made else source, source if made else None):
        v = result.answer.values["v"]
        n = inst.geometry.width
        b = int(n ** 0.5)
        units = ([[(r, c) for c in range(n)] for r in range(n)]
                 + [[(r, c) for r in range(n)] for c in range(n)]
                 + [[(br + i, bc + j) for i in range(b) for j in range(b)]
                    for br in range(0, n, b) for bc in range(0, n, b)])
        assert len(v) == n * n
        for unit in units:
            assert sorted(v[c] for c in unit) == list(range(1, n + 1))
        assert all(v[c] == clue for c, clue in inst.clues.items())


# ------------------------------------------------------------ Hexiom

def hexiom_instances():
    rng = random.Random(7)
    return ([str(p) for p in sorted((EXAMPLES / "hexiom").iterdir())]
            + [gen.hexiom_level(side, 0.5, 3, rng) for side in (3, 3, 4)])


@pytest.mark.parametrize("source", hexiom_instances(), ids=lambda s: s[:12])
def test_hexiom_board_is_the_hexagon_and_its_tiles_count_their_neighbours(source):
    made = "\n" in source
    for inst, result in solved("hexiom", None if made else source, source if made else None):
        data = result.answer
        geom = inst.geometry
        assert [len(row) for row in data.board] == [geom.row_length(r) for r in range(geom.height)]
        # the grid's '+' marks are the locked cells, its tokens the board's
        for r, row in enumerate(result.grid):
            marks = re.findall(r"(\+?)([^\s+]+)", row)
            assert [t for _, t in marks] == data.board[r]
            assert [(r, i) for i, (m, _) in enumerate(marks) if m] == [
                c for c in data.locked if c[0] == r]
        tile = data.values["tile"]
        for cell in geom.cells:
            if tile[cell] >= 0:
                assert tile[cell] == sum(tile[d] >= 0 for d in geom.neighbours(cell))
            if cell in inst.locked:       # a locked cell keeps its clue, or stays empty
                assert tile[cell] == inst.clues.get(cell, -1)
        free = sorted(t for c, t in tile.items() if t >= 0 and c not in inst.locked)
        assert free == sorted(v for c, v in inst.clues.items() if c not in inst.locked)


# ------------------------------------------------------------ Numberlink

def numberlink_instances():
    rng = random.Random(3)
    return ([str(EXAMPLES / "numberlink" / "small.txt")]
            + [gen.numberlink_puzzle(w, h, rng)[0] for w, h in ((5, 4), (7, 6), (9, 9))])


@pytest.mark.parametrize("source", numberlink_instances(), ids=lambda s: s[:12])
def test_numberlink_paths_join_the_two_ends_of_each_label(source):
    made = "\n" in source
    for inst, result in solved("numberlink", None if made else source, source if made else None):
        data = result.answer
        colour = data.values["colour"]
        assert data.loops == []
        ends = {}
        for cell, label in inst.clues.items():
            ends.setdefault(label, set()).add(cell)
        assert len(data.paths) == len(ends)
        covered = []
        for path in data.paths:
            label = colour[path[0]]
            assert {path[0], path[-1]} == ends[label] and path[0] < path[-1]
            assert all(adjacent(a, b) for a, b in zip(path, path[1:]))
            assert all(colour[c] == label for c in path)
            assert not any(c in inst.clues for c in path[1:-1])
            covered += path
        assert sorted(covered) == sorted(inst.geometry.cells)
        # the linked edges are exactly the steps of the paths
        links = {e for e, on in data.values["link"].items() if on}
        assert links == {tuple(sorted((a, b))) for p in data.paths for a, b in zip(p, p[1:])}


# ------------------------------------------------------------ loops

def loop_instances():
    out = [("masyu", str(EXAMPLES / "masyu" / "small.txt")),
           ("countryroad", str(EXAMPLES / "countryroad" / "small.txt")),
           ("yajilin", str(EXAMPLES / "yajilin" / "small.txt"))]
    spec = spec_of("masyu")
    for made in api.generate(spec, size=(6, 6), count=2, seed=11):
        assert made.status == "generated"
        out.append(("masyu", api.write_instance(spec, made.instance, "text")))
    return out


@pytest.mark.parametrize("name, source", loop_instances(), ids=lambda s: s[:12])
def test_cell_loops_close_and_are_the_lines_the_board_draws(name, source):
    made = "\n" in source
    for inst, result in solved(name, None if made else source, source if made else None):
        data = result.answer
        assert data.paths == [] and len(data.loops) == 1
        loop, = data.loops
        assert len(loop) >= 4 and len(set(loop)) == len(loop)
        assert all(adjacent(a, b) for a, b in zip(loop, loop[1:] + loop[:1]))
        assert loop[0] == min(loop) and loop[1] == min(loop[1], loop[-1])
        # each cell of the loop shows the box character that reaches its two neighbours
        for k, cell in enumerate(loop):
            sides = {(n[0] - cell[0], n[1] - cell[1]) for n in (loop[k - 1], loop[(k + 1) % len(loop)])}
            assert BOX[data.cells[cell]] == sides, cell
        assert {c for c, t in data.cells.items() if t in BOX} == set(loop)
        links = {e for e, on in data.values["link"].items() if on}
        assert links == {tuple(sorted((a, b))) for a, b in zip(loop, loop[1:] + loop[:1])}


def slitherlink_instances():
    rng = random.Random(5)
    return ([str(EXAMPLES / "slitherlink" / "small.txt")]
            + [gen.slitherlink_puzzle(w, h, rng, keep=0.9) for w, h in ((4, 4), (6, 5))])


@pytest.mark.parametrize("source", slitherlink_instances(), ids=lambda s: s[:12])
def test_slitherlink_loop_is_of_dots_and_drawn_on_the_lattice(source):
    made = "\n" in source
    for inst, result in solved("slitherlink", None if made else source, source if made else None):
        data = result.answer
        loop, = data.loops
        assert data.paths == []
        steps = list(zip(loop, loop[1:] + loop[:1]))
        assert all(adjacent(a, b) for a, b in steps)
        # the lattice shows '-' and '|' on exactly the loop's segments
        drawn = set()
        for a, b in steps:
            (r, c), _ = sorted((a, b))
            across = a[0] == b[0]
            point = (2 * r, 2 * c + 1) if across else (2 * r + 1, 2 * c)
            assert data.board[point[0]][point[1]] == ("-" if across else "|")
            drawn.add(point)
        assert drawn == {p for p, t in data.cells.items() if t in "-|"}
        for (r, c), clue in inst.clues.items():
            sides = {tuple(sorted(s)) for s in (((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                                               ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1)))}
            assert len(sides & {tuple(sorted(s)) for s in steps}) == clue


def test_hashi_bridges_are_counted_by_edge_and_draw_no_lines():
    for inst, result in solved("hashi", str(EXAMPLES / "hashi" / "small.txt")):
        bridges = result.answer.values["bridges"]
        assert all(adjacent(a, b) and a < b for a, b in bridges)
        for cell, clue in inst.clues.items():
            if clue != "?":
                assert sum(n for e, n in bridges.items() if cell in e) == clue
        # bridges are numbers, not lines: there are no paths to give
        assert result.answer.paths is None and result.answer.loops is None


# ------------------------------------------------------------ moves

def test_puzlogic_moves_are_typed_and_fill_the_board():
    rng = random.Random(9)
    levels = [str(EXAMPLES / "puzlogic" / "level.json")]
    for size in (4, 5):
        levels.append(gen.dumps(gen.puzlogic_level(size, 4, 2, rng)))
    for source in levels:
        made = source.startswith("{")
        for inst, result in solved("puzlogic", "level.json" if made else source,
                                   source if made else None):
            data = result.answer
            assert data.moves
            for move in data.moves:
                assert type(move["piece"]) is int and type(move["to"]) is tuple
                assert data.cells[move["to"]] == str(move["piece"])
                assert data.values["put"][move["to"]] == move["piece"]
            assert sorted(m["piece"] for m in data.moves) == sorted(inst.data["pieces"])
            assert gen.puzlogic_valid(inst.data, listed(data.moves))


def sliding_instances():
    rng = random.Random(4)
    return ([("sliding", str(p)) for p in sorted((EXAMPLES / "sliding").iterdir())
             if p.name != "hard8.txt"]
            + [("sliding", gen.sliding_text(gen.sliding_walk(3, 3, 9, rng), 3)),
               ("sliding", gen.sliding_text(gen.sliding_walk(2, 4, 7, rng), 4))])


@pytest.mark.parametrize("name, source", sliding_instances(), ids=lambda s: s[:12])
def test_plan_moves_replay_from_the_start_through_every_state(name, source):
    made = "\n" in source
    for inst, result in solved(name, None if made else source, source if made else None):
        data = result.answer
        at = data.values["at"]
        steps = result.steps
        assert len(data.moves) == steps
        assert {t for t, _ in at} == set(range(steps + 1))
        board = {c: at[(0, c)] for c in inst.geometry.cells}
        assert board == {c: inst.clues.get(c, ".") for c in inst.geometry.cells}
        for t, move in enumerate(data.moves):
            assert set(move) == {"piece", "from", "to"}
            assert type(move["from"]) is tuple and adjacent(move["from"], move["to"])
            assert board[move["to"]] == "." and BASE36[board[move["from"]]] == move["piece"]
            board[move["to"]], board[move["from"]] = board[move["from"]], "."
            assert board == {c: at[(t + 1, c)] for c in inst.geometry.cells}
        assert {c: (v if v == "." else BASE36[v]) for c, v in board.items()} == data.cells


def test_asteroid_moves_replay_to_the_final_board():
    for inst, result in solved("asteroid", str(EXAMPLES / "asteroid" / "made.json")):
        data = result.answer
        board = {c: data.values["at"][(0, c)] for c in data.cells}
        for move in data.moves:
            assert board[move["to"]] == 0 and str(board[move["from"]]) == move["piece"]
            board[move["to"]], board[move["from"]] = board[move["from"]], 0
        assert {c: str(v) for c, v in board.items()} == data.cells


# ------------------------------------------------------------ keys of every kind

KEYS_SPEC = """puzzle keys
board square
var x : 0..3
var mark[k in 0..1, c in cells] : bool
var top_dot[d in dots] : bool
var hidden[c in cells] : bool
rule r: x = 2
rule m: all c in cells: mark[0, c] <-> given(c)
rule n: all c in cells: not mark[1, c]
rule d: all d in dots: top_dot[d] <-> d.row = 0
rule h: all c in cells: hidden[c]
show c: if mark[0, c] and top_dot[c] then x else if mark[1, c] then "?" else "."
"""


def test_keys_are_the_indexes_a_tuple_of_several_none_for_a_scalar(tmp_path):
    path = tmp_path / "keys.pz"
    path.write_text(KEYS_SPEC, encoding="utf-8")
    spec = api.load_spec(str(path))
    [inst] = api.load_instances(spec, "k.txt", text="1.\n.1\n")
    values = api.solve(spec, inst).answer.values
    assert set(values) == {"x", "mark", "top_dot"}        # hidden is not shown
    assert values["x"] == {(): 2}
    assert values["mark"] == {(k, (r, c)): k == 0 and r == c for k in (0, 1)
                              for r in (0, 1) for c in (0, 1)}
    assert values["top_dot"] == {(r, c): r == 0 for r in range(3) for c in range(3)}


# ------------------------------------------------------------ count, unique, explain, generate, batch

LOOSE = "..4.\n2...\n1...\n....\n"


def test_count_and_unique_give_each_solution_as_data():
    spec = spec_of("sudoku")
    [inst] = api.load_instances(spec, "loose.txt", text=LOOSE)
    counted = api.count(spec, inst)
    assert counted.count == len(counted.answers) == 3 and counted.complete
    for grid, answer in zip(counted.solutions, counted.answers):
        assert printed_rows(answer.board) == grid
        assert all(answer.values["v"][c] == v for c, v in inst.clues.items())
    assert len({json.dumps(a.to_json()) for a in counted.answers}) == 3
    assert counted.to_json(data=True)["answers"] == [a.to_json() for a in counted.answers]
    assert "answers" not in counted.to_json()

    two = api.unique(spec, inst)
    first, second = two.answers
    assert two.differ == [list(c) for c in sorted(first.cells)
                          if first.cells[c] != second.cells[c]]
    assert [printed_rows(a.board) for a in two.answers] == two.witnesses
    assert len(two.to_json(data=True)["answers"]) == 2


def test_explain_and_generate_carry_the_answer_as_data():
    spec = spec_of("sudoku")
    [inst] = api.load_instances(spec, "grid4.txt", text="..4.\n2...\n1...\n..2.\n")
    explained = api.explain(spec, inst)
    assert explained.status == "unique"
    assert printed_rows(explained.solved.answer.board) == explained.solved.grid
    [loose] = api.load_instances(spec, "loose.txt", text=LOOSE)
    several = api.explain(spec, loose).several
    assert [printed_rows(a.board) for a in several.answers] == several.witnesses

    for made in api.generate(spec, size=(4, 4), count=2, seed=3):
        assert made.status == "generated"
        assert printed_rows(made.answer.board) == made.solution
        assert all(made.answer.values["v"][c] == v for c, v in made.instance.clues.items())


def test_answer_data_crosses_processes_with_its_fields():
    [(inst, result)] = solved("numberlink", str(EXAMPLES / "numberlink" / "small.txt"))
    copy = pickle.loads(pickle.dumps(result.answer))
    assert copy.to_json() == result.answer.to_json()
    assert copy.paths == result.answer.paths and copy.cells == result.answer.cells
    spec = spec_of("sudoku")
    made = list(api.generate(spec, size=(4, 4), count=2, seed=3, workers=2))
    alone = list(api.generate(spec, size=(4, 4), count=2, seed=3))
    assert [m.answer.values for m in made] == [m.answer.values for m in alone]


def test_batch_data_is_what_solve_gives():
    path = str(EXAMPLES / "sudoku" / "three.txt")
    got = {r["instance"]: r for r in api.batch("sudoku", [path], workers=1, data=True)}
    assert len(got) == 3
    for inst, result in solved("sudoku", path):
        assert got[inst.name]["answer"] == result.to_json(data=True)["answer"]
    plain = next(iter(api.batch("sudoku", [path], workers=1)))
    assert "answer" not in plain


def test_no_answer_no_data():
    spec = spec_of("sudoku")
    [inst] = api.load_instances(spec, "none.txt", text="..4.\n2...\n1..1\n..2.\n")
    result = api.solve(spec, inst)
    assert result.status == "unsat" and result.answer is None
    assert result.to_json(data=True)["answer"] is None
    assert api.count(spec, inst).answers == []


# ------------------------------------------------------------ lines

def test_lines_orders_paths_from_the_smaller_end_and_loops_from_the_smallest_point():
    path = [(2, 2), (2, 1), (1, 1), (0, 1)]
    links = [(path[k + 1], path[k]) for k in range(len(path) - 1)]
    random.Random(1).shuffle(links)
    assert lines(links) == ([path[::-1]], [])
    square = [(5, 5), (5, 6), (6, 6), (6, 5)]
    ring = list(zip(square, square[1:] + square[:1]))
    assert lines(ring[::-1] + links) == ([path[::-1]], [[(5, 5), (5, 6), (6, 6), (6, 5)]])
    assert lines([]) == ([], [])


def test_lines_refuses_a_network():
    star = [((1, 1), (0, 1)), ((1, 1), (1, 0)), ((1, 1), (1, 2))]
    assert lines(star) is None
