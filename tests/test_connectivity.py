"""connected(...) end to end: Numberlink, Nurikabe and Slitherlink through
pzc.api on instances made here and in tests/connected_cases.py, on every way
pzc can encode connectivity.

MODES are the SAT backend with lazy cuts (the default), the SAT backend with
the eager rank encoding, and Z3 (always eager).  Solved boards are checked by
the independent checkers of tests/generators.py; "unsat" is checked against
the reference solvers there (brute force on tiny boards, a Numberlink
encoding of its own otherwise), so every status below is exact.
"""

from __future__ import annotations

import random
import re

import pytest

import generators as gen
from connected_cases import (GENERATED, TINY, UNSAT, assert_solved, assert_stats,
                             assert_unsat)
from loading import spec, spec_from_text
from pzc import api
from pzc.encoder import connectivity
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import Source

MODES = [
    pytest.param(dict(), id="lazy"),
    pytest.param(dict(connectivity="eager"), id="eager"),
    pytest.param(dict(backend="smt"), id="z3"),
]
MODE_LIST = [p.values[0] for p in MODES]
# for the unsolvable cases also the other solve loops: MiniSat (interrupt),
# Kissat (not incremental: restarts with the cuts so far), Kissat under a
# time limit (a child process)
ALL_MODES = MODE_LIST + [dict(solver="minisat22"), dict(solver="kissat404"),
                         dict(solver="kissat404", timeout=60)]


def instance(s, text, name="inst.txt"):
    inst, = read_instances(Source(name, text), s.board.kind)
    return inst


def solve(s, text, mode, name="inst.txt"):
    if isinstance(s, str):
        s = spec(s)
    return api.solve(s, instance(s, text, name), **mode)


def mode_id(mode):
    return ",".join(f"{k}={v}" for k, v in mode.items()) or "lazy"


# ---------------------------------------------------------------- generated instances

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case_id,spec_name,text", GENERATED, ids=[c[0] for c in GENERATED])
def test_generated_instances_are_solved_and_verified(case_id, spec_name, text, mode):
    res = solve(spec_name, text, mode, name=case_id)
    assert_solved(res, spec_name, text, mode)
    assert res.spec == spec_name and res.instance == case_id


def test_generated_instances_cover_both_nurikabe_clue_kinds():
    """'?' clues switch the implied 'land' rule off, so the sea and those
    islands have no size bound: they go through the lazy cuts / ranks."""
    texts = [t for _, s, t in GENERATED if s == "nurikabe"]
    assert any("?" in t for t in texts) and any("?" not in t for t in texts)
    res = solve("nurikabe", next(t for t in texts if "?" in t), {})
    assert res.stats.get("connectivity") == "lazy"
    # all clues numbered: every connected(...) is bounded, nothing left lazy
    res = solve("nurikabe", next(t for t in texts if "?" not in t), {})
    assert "rounds" not in res.stats


def test_some_generated_instances_need_cuts():
    """The lazy loop is not idle on the built-in specs: some generated
    Nurikabe ('?' clues) or Slitherlink instances take more than one round."""
    rounds = {}
    for case_id, spec_name, text in GENERATED:
        if spec_name == "numberlink":
            continue
        res = solve(spec_name, text, {})
        assert_solved(res, spec_name, text, {})
        rounds[case_id] = res.stats.get("rounds", 0)
    assert any(r > 1 for r in rounds.values()), rounds


# ---------------------------------------------------------------- tiny random instances, exact statuses

@pytest.mark.slow
@pytest.mark.parametrize("spec_name", sorted(TINY))
def test_tiny_instances_get_the_reference_status_everywhere(spec_name):
    """Every mode gives the status the reference solver gives (both occur),
    and every answer passes the independent checker."""
    statuses = set()
    for k, (text, want) in enumerate(TINY[spec_name]):
        for mode in MODE_LIST:
            res = solve(spec_name, text, mode, name=f"tiny{k}")
            assert res.status == want, (k, text, mode_id(mode), res.status, want)
            if want == "solved":
                assert_solved(res, spec_name, text, mode)
            else:
                assert_unsat(res, mode)
        statuses.add(want)
    assert statuses == {"solved", "unsat"}


def _perturbed(spec_name, text, rng):
    """A generated instance with one clue moved or changed: solvable or not."""
    if spec_name == "numberlink":
        w, h, rows = gen.numberlink_read(text)
        rows = [list(r) for r in rows]
        ends = [(r, c) for r in range(h) for c in range(w) if rows[r][c] != "."]
        empty = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."]
        (a, b), (c, d) = rng.choice(ends), rng.choice(empty)
        rows[c][d], rows[a][b] = rows[a][b], "."
        return f"{w} {h}\n" + "\n".join("".join(r) for r in rows) + "\n"
    if spec_name == "nurikabe":
        rows = [l.split() for l in text.splitlines()]
        clues = [(r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t not in ".?"]
        r, c = rng.choice(clues)
        rows[r][c] = str(max(1, int(rows[r][c]) + rng.choice([-1, 1, 2])))
        return "\n".join(" ".join(row) for row in rows) + "\n"
    rows = [list(l) for l in text.splitlines()]
    r, c = rng.randrange(len(rows)), rng.randrange(len(rows[0]))
    rows[r][c] = rng.choice("0123")
    return "\n".join("".join(row) for row in rows) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("spec_name", ["numberlink", "nurikabe", "slitherlink"])
def test_modes_agree_on_perturbed_instances(spec_name):
    """Small generated instances, as made and with one clue disturbed: lazy,
    eager and Z3 agree on the status, and every answer is valid."""
    rng = random.Random(80 + len(spec_name))
    statuses = set()
    for k in range(5):
        w, h = rng.randint(3, 5), rng.randint(3, 5)
        if spec_name == "numberlink":
            text, _ = gen.numberlink_puzzle(w, h, rng)
        elif spec_name == "nurikabe":
            text = gen.nurikabe_puzzle(w, h, rng, unknown=0.2)
        else:
            text = gen.slitherlink_puzzle(w, h, rng, keep=0.6)
        for variant in (text, _perturbed(spec_name, text, rng)):
            got = []
            for mode in MODE_LIST:
                res = solve(spec_name, variant, mode, name=f"perturbed{k}")
                got.append(res.status)
                if res.status == "solved":
                    assert_solved(res, spec_name, variant, mode)
                else:
                    assert_unsat(res, mode)
            assert len(set(got)) == 1, (variant, got)
            if variant is text:
                assert got[0] == "solved"
            elif spec_name == "numberlink":
                assert got[0] == gen.numberlink_reference(variant)[0]
            statuses.add(got[0])
    assert statuses == {"solved", "unsat"}


# ---------------------------------------------------------------- unsolvable instances

def _reference_status(spec_name, text):
    if spec_name == "numberlink":
        return gen.numberlink_reference(text)[0]
    if spec_name == "nurikabe":
        return gen.nurikabe_brute(text)
    return gen.slitherlink_brute(text)


@pytest.mark.parametrize("case_id,spec_name,text", UNSAT, ids=[c[0] for c in UNSAT])
def test_unsolvable_instances_are_unsat_everywhere(case_id, spec_name, text):
    assert _reference_status(spec_name, text) == "unsat"
    for mode in ALL_MODES:
        res = solve(spec_name, text, mode, name=case_id)
        assert res.status == "unsat", (mode_id(mode), res.status, res.grid,
                                       res.error and res.error.message)
        assert_unsat(res)


def test_the_two_loops_instance_is_sat_without_connectivity():
    """The 'two loops' and 'split sea' cases are refused by connectivity
    alone: with the connected(...) rule dropped the rest is satisfiable."""
    text = api.builtin_specs()["slitherlink"].read_text(encoding="utf-8")
    rule = "rule loop:   connected(s in segments: on[s])\n"
    assert rule in text
    loose = spec_from_text(text.replace(rule, ""), "loose.pz")
    res = api.solve(loose, instance(loose, "3.3\n3.3\n"))
    assert res.status == "solved" and res.verified
    assert not gen.slitherlink_valid("3.3\n3.3\n", res.grid)      # not one loop
    text = api.builtin_specs()["nurikabe"].read_text(encoding="utf-8")
    rule = "rule ocean:   connected(c in cells: owner[c] = sea)\n"
    assert rule in text
    # the implied rules at the end of the spec follow from the sea's connectivity
    pockets = text.index("# the sea is connected:")
    generating = text.index("# pzc generate:")       # the generation model comes last
    assert pockets < generating
    implied = text[pockets:generating]
    assert "implied rule alone:" in implied and "connected(" not in implied
    loose = spec_from_text(text[:pockets].replace(rule, ""), "loose.pz")
    res = api.solve(loose, instance(loose, ". 1 .\n"))
    assert res.status == "solved" and res.grid == ["#1#"]
    res = api.solve(loose, instance(loose, "? . 1 . ?\n"))
    assert res.status == "solved" and res.grid == ["?#1#?"]


def test_a_nurikabe_clue_bigger_than_the_board_is_an_instance_error():
    res = solve("nurikabe", "5 .\n. .\n", {})
    assert res.status == "error" and res.exit_code == api.EXIT_USAGE
    assert "'5' is not allowed" in res.error.message


# ---------------------------------------------------------------- lazy cuts at work

def numberlink_without_pools():
    """The built-in Numberlink spec with its implied 'pools' rule left out."""
    text = api.builtin_specs()["numberlink"].read_text(encoding="utf-8")
    start = text.index("implied rule pools")
    end = text.index("\n\n", start)
    assert "edge(s[2], s[3])" in text[start:end]
    variant = text[:start] + text[end:]
    assert "implied rule" not in variant and "rule paths:" in variant
    return spec_from_text(variant, "nopools.pz")


# Solvable instances on which the rules other than `paths` also allow a stray
# 2x2 cycle: found by covering a board minus one 2x2 block with paths (as
# gen.numberlink_solution does), the block taking a label that does not touch
# it, and keeping the instances that still have a real answer.  Without
# 'pools' the solvers meet such cycles and the lazy loop must cut them off.
NEEDS_CUTS = [
    "6 6\n...A.A\n.B....\n....B.\n.CD...\n...CE.\n....DE\n",
    "7 6\nA......\nC....EA\n.......\n.B.D...\n.D..B..\nC.....E\n",
    "7 5\n.....BB\n.CCD..A\n.D..FE.\n...E.F.\nA......\n",
]


@pytest.mark.slow
def test_numberlink_without_pools_needs_cuts_and_is_still_solved():
    variant = numberlink_without_pools()
    rounds = {}
    for k, text in enumerate(NEEDS_CUTS):
        for solver in ("cadical195", "minisat22", "glucose4", "kissat404"):
            res = api.solve(variant, instance(variant, text, f"needs-cuts{k}"), solver=solver)
            assert_solved(res, "numberlink", text, {})
            assert res.stats["solver"] == solver
            rounds[k, solver] = (res.stats["rounds"], res.stats["cuts"])
        # the built-in spec (with 'pools') and the eager encoding agree
        for mode in MODE_LIST:
            assert_solved(solve("numberlink", text, mode), "numberlink", text, mode)
        res = api.solve(variant, instance(variant, text), connectivity="eager")
        assert_solved(res, "numberlink", text)
    assert any(r > 1 and c > 0 for r, c in rounds.values()), rounds


def test_numberlink_without_pools_proves_unsat_with_cuts():
    text = "5 6\nC....\n...AC\n.....\n.....\n.BB..\n..A..\n"
    variant = numberlink_without_pools()
    res = api.solve(variant, instance(variant, text))
    assert_unsat(res, {})
    assert res.stats["rounds"] > 1 and res.stats["cuts"] > 0
    for mode in MODE_LIST[1:]:
        assert_unsat(api.solve(variant, instance(variant, text), **mode))


@pytest.mark.slow
def test_a_constraint_broken_again_and_again_is_encoded_eagerly(monkeypatch):
    """After EAGER_AFTER broken models (once EAGER_AFTER_ROUNDS rounds passed) a constraint
    gets its ranks in the same solver: answers stay right, unsat stays unsat,
    counts stay exact."""
    monkeypatch.setattr(connectivity, "EAGER_AFTER", 1)
    monkeypatch.setattr(connectivity, "EAGER_AFTER_ROUNDS", 0)
    variant = numberlink_without_pools()
    eager_total = 0
    for k, text in enumerate(NEEDS_CUTS):
        for solver in ("cadical195", "kissat404"):
            res = api.solve(variant, instance(variant, text, f"needs-cuts{k}"), solver=solver)
            assert_solved(res, "numberlink", text, {})
            assert (res.stats["made_eager"] > 0) == (res.stats["cuts"] > 0), res.stats
            eager_total += res.stats["made_eager"]
    assert eager_total > 0
    unsat = "5 6\nC....\n...AC\n.....\n.....\n.BB..\n..A..\n"
    for mode in ({}, dict(solver="kissat404", timeout=60)):    # the second in a child process
        res = api.solve(variant, instance(variant, unsat), **mode)
        assert_unsat(res, {})
        assert res.stats["made_eager"] >= 1 and res.stats["cuts"] > 0, mode
    # counting: every connected set of a 3x3 board's cells holding two
    # opposite corners, once each (counted here by brute force)
    s = spec_from_text(CORNERS, "corners.pz")
    want = corner_sets()
    for mode in MODE_LIST:
        counted = api.count(s, instance(s, "...\n...\n...\n"), **mode)
        assert counted.complete and counted.count == want, (mode_id(mode), counted.count, want)
    switched = api.count(s, instance(s, "...\n...\n...\n"))
    assert switched.stats["made_eager"] == 1 and switched.stats["cuts"] > 0, switched.stats


def test_separator_is_a_smallest_cut_of_unselected_elements():
    """connectivity.separator against a brute force on random small graphs:
    its elements are unselected and not never-selected, removing them leaves
    no path from source to sink, and no smaller such set does."""
    from itertools import combinations
    rng = random.Random(13)
    checked = 0
    for _ in range(300):
        n = rng.randint(4, 10)
        adjacent = [set() for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                if rng.random() < 0.35:
                    adjacent[a].add(b)
                    adjacent[b].add(a)
        adjacent = [sorted(x) for x in adjacent]
        lits = [rng.choice([1, -1, 2, 3]) for _ in range(n)]      # 1 true, -1 false
        item = connectivity.LazyConnected((), lits, adjacent, 1)
        chosen = {i for i in range(n) if rng.random() < 0.4 and i not in item.off}
        if len(chosen) < 2:
            continue
        groups = gen._components(chosen, lambda x: adjacent[x])
        if len(groups) < 2:
            continue
        source, sink = set(groups[0]), set(groups[1])
        cuttable = [x for x in range(n) if x not in chosen and x not in item.off]

        def joined(removed):
            seen, todo = set(source), list(source)
            while todo:
                x = todo.pop()
                for y in adjacent[x]:
                    if y not in seen and y not in removed and y not in item.off:
                        seen.add(y)
                        todo.append(y)
            return bool(seen & sink)

        best = next(k for k in range(len(cuttable) + 2)
                    if k > len(cuttable) or any(not joined(set(c)) for c in combinations(cuttable, k)))
        got = connectivity.separator(item, source, sink, chosen, n + 1)
        assert got is not None and len(got) == best, (adjacent, lits, chosen, got, best)
        assert set(got) <= set(cuttable) and not joined(set(got))
        assert connectivity.separator(item, source, sink, chosen, best) is None or best == 0
        checked += 1
    assert checked > 50


def test_separator_cuts_from_the_first_round_keep_answers_and_counts(monkeypatch):
    """With no threshold every broken model gets the separator cuts too:
    Nurikabe ('?' clues leave seas lazy), Slitherlink and Numberlink
    answers stay verified, counts stay exact."""
    monkeypatch.setattr(connectivity, "SEPARATE_AFTER", 0)
    monkeypatch.setattr(connectivity, "SEPARATE_UPTO", 1000)
    calls = []
    real = connectivity.separator
    monkeypatch.setattr(connectivity, "separator", lambda *a: calls.append(1) or real(*a))
    variant = numberlink_without_pools()
    for k, text in enumerate(NEEDS_CUTS):
        res = api.solve(variant, instance(variant, text, f"needs-cuts{k}"))
        assert_solved(res, "numberlink", text, {})
    s = spec_from_text(CORNERS, "corners.pz")
    want = corner_sets()
    counted = api.count(s, instance(s, "...\n...\n...\n"))
    assert counted.complete and counted.count == want, (counted.count, want)
    for case_id, spec_name, text in GENERATED:
        if spec_name != "numberlink":
            assert_solved(solve(spec_name, text, {}, name=case_id), spec_name, text, {})
    assert calls


def corner_sets() -> int:
    """The connected sets of a 3x3 board's cells holding two opposite
    corners, counted by brute force."""
    cells = [(r, c) for r in range(3) for c in range(3)]
    want = 0
    for bits in range(1 << 9):
        on = {x for i, x in enumerate(cells) if bits >> i & 1}
        if {(0, 0), (2, 2)} <= on:
            want += len(gen._components(on, lambda x: gen._neighbours(x, 3, 3))) == 1
    return want


CORNERS = """\
puzzle corners "connected sets of cells holding two opposite corners"
board square

var on[c in cells] : bool
show c: if on[c] then "#" else "."
rule ends: on[(0, 0)] and on[(width - 1, height - 1)]
rule join: connected(c in cells: on[c])
"""


def test_cuts_survive_a_time_limit_and_a_restarting_solver():
    """The cut loop under a time limit (in a worker process, for every
    solver) and with Kissat's restarts still ends with a valid answer."""
    variant = numberlink_without_pools()
    text = NEEDS_CUTS[1]
    for mode in (dict(timeout=60), dict(solver="kissat404", timeout=60),
                 dict(solver="minisat22", timeout=60), dict(solver="kissat404")):
        res = api.solve(variant, instance(variant, text), **mode)
        assert_solved(res, "numberlink", text, {})


# ---------------------------------------------------------------- --format text

BOX = " ╶╴─╷┌┐┬╵└┘┴│├┤┼"


def expected_drawing(puzzle_text, rows):
    w, h, puzzle = gen.numberlink_read(puzzle_text)
    out = []
    for r in range(h):
        line = ""
        for c in range(w):
            if puzzle[r][c] != ".":
                line += puzzle[r][c]
                continue

            def same(rr, cc):
                return 0 <= rr < h and 0 <= cc < w and rows[rr][cc] == rows[r][c]
            i = 8 * same(r - 1, c) + 4 * same(r + 1, c) + 2 * same(r, c - 1) + same(r, c + 1)
            line += BOX[i]
        out.append(line)
    return out


def test_numberlink_text_format_draws_the_paths(write, run_pzc):
    puzzles = [gen.numberlink_puzzle(w, h, random.Random(s))[0]
               for w, h, s in ((5, 4, 90), (6, 6, 91))]
    write("two.txt", "# two puzzles\n" + "\n".join(puzzles))
    run = run_pzc("solve", "numberlink", "two.txt", "--format", "text")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.split("\n")
    pos = 0
    for k, text in enumerate(puzzles, 1):
        w, h, _ = gen.numberlink_read(text)
        assert lines[pos] == f"two.txt#{k}: solved, verified"
        grid = [l[2:] for l in lines[pos + 1:pos + 1 + h]]
        assert all(l.startswith("  ") for l in lines[pos + 1:pos + 1 + h])
        assert gen.numberlink_valid(text, grid)
        assert lines[pos + 1 + h] == ""
        drawing = lines[pos + 2 + h:pos + 2 + 2 * h]
        assert all(l.startswith("  ") for l in drawing)
        drawing = [l[2:] for l in drawing]
        assert drawing == expected_drawing(text, grid)
        # every cell that is not an end is a piece of a path: two arms
        for row in drawing:
            for ch in row:
                if ch in BOX:
                    assert bin(BOX.index(ch)).count("1") == 2
        assert lines[pos + 2 + 2 * h] == ""
        pos += 3 + 2 * h
    assert lines[pos:] == [""]


def test_numberlink_drawing_is_in_the_api_result_not_in_json(write, run_pzc):
    text, _ = gen.numberlink_puzzle(4, 4, random.Random(92))
    res = solve("numberlink", text, {})
    assert res.drawing == expected_drawing(text, res.grid)
    write("one.txt", text)
    run = run_pzc("solve", "numberlink", "one.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert "drawing" not in run.stdout and "─" not in run.stdout and "│" not in run.stdout


# ---------------------------------------------------------------- connected over edges and segments

EDGE_SPEC = """\
puzzle edgetree "join the x cells by chosen edges that form one group; o cells stay clear"
board square(clues: {"x", "o"})

var on[e in edges] : bool
let at(r, c) = (r / 2, c / 2)
show grid(2 * height - 1, 2 * width - 1) p:
    if p.row % 2 = 0 and p.col % 2 = 0 then (if given(at(p.row, p.col)) then clue(at(p.row, p.col)) else ".")
    else if p.row % 2 = 0 then (if on[edge(at(p.row, p.col), at(p.row, p.col + 1))] then "-" else " ")
    else if p.col % 2 = 0 then (if on[edge(at(p.row, p.col), at(p.row + 1, p.col))] then "|" else " ")
    else " "

rule touch: all c in cells where given(c) and clue(c) = "x": any e in edges(c): on[e]
rule clear: all c in cells where given(c) and clue(c) = "o": all e in edges(c): not on[e]
rule tree:  connected(e in edges: on[e])
rule size:  SIZE
"""

SEGMENT_SPEC = """\
puzzle fence "draw K unit lines, one connected group, touching a side of every x cell"
board square(clues: {"x"})

var on[s in segments] : bool
show grid(2 * height + 1, 2 * width + 1) p:
    if p.row % 2 = 0 and p.col % 2 = 0 then "+"
    else if p.row % 2 = 0 then (if on[segment((p.row / 2, p.col / 2), (p.row / 2, p.col / 2 + 1))] then "-" else " ")
    else if p.col % 2 = 0 then (if on[segment((p.row / 2, p.col / 2), (p.row / 2 + 1, p.col / 2))] then "|" else " ")
    else if given((p.row / 2, p.col / 2)) then "x" else " "

rule touch: all c in cells where given(c): any s in sides(c): on[s]
rule fence: connected(s in segments: on[s])
rule size:  SIZE
"""

# `count(...) = K` bounds the selection, so both SAT modes use distance
# layers; a weighted sum does not, so lazy cuts and ranks are used
SIZES = {"count": "count(x in {dom}: on[x]) = {k}",
         "sum": "sum(x in {dom}: if on[x] then 2 else 0) = {k2}"}


def sized_spec(template, dom, kind, k):
    size = SIZES[kind].format(dom=dom, k=k, k2=2 * k)
    return spec_from_text(template.replace("SIZE", size), f"{dom}-{kind}-{k}.pz")


def lattice_lines(grid):
    """Chosen lines of an answer drawn on a lattice: pairs of (row, col)
    points, cells for the edge spec, dots for the segment spec."""
    out = set()
    for R, line in enumerate(grid):
        for C, ch in enumerate(line):
            if ch == "-":
                out.add(((R // 2, (C - 1) // 2), (R // 2, (C + 1) // 2)))
            elif ch == "|":
                out.add((((R - 1) // 2, C // 2), ((R + 1) // 2, C // 2)))
    return out


def lines_connected(lines):
    ends = {}
    for x in lines:
        for p in x:
            ends.setdefault(p, []).append(x)
    return len(gen._components(set(lines), lambda x: ends[x[0]] + ends[x[1]])) <= 1


def check_edges(text, grid, k):
    rows = text.split()
    h, w = len(rows), len(rows[0])
    assert len(grid) == 2 * h - 1 and all(len(l) == 2 * w - 1 for l in grid)
    chosen = lattice_lines(grid)
    assert len(chosen) == k and lines_connected(chosen)
    touched = {p for x in chosen for p in x}
    for r in range(h):
        for c in range(w):
            assert grid[2 * r][2 * c] == rows[r][c]
            if rows[r][c] == "x":
                assert (r, c) in touched
            if rows[r][c] == "o":
                assert (r, c) not in touched


def check_segments(text, grid, k):
    rows = text.split()
    h, w = len(rows), len(rows[0])
    assert len(grid) == 2 * h + 1 and all(len(l) == 2 * w + 1 for l in grid)
    chosen = lattice_lines(grid)
    assert len(chosen) == k and lines_connected(chosen)
    for r in range(h):
        for c in range(w):
            if rows[r][c] == "x":
                assert grid[2 * r + 1][2 * c + 1] == "x"
                assert any(s in chosen for s in gen._cell_sides((r, c)))


# (instance, fewest chosen lines): x cells at opposite corners of a 3x3 board
# need a chain of 4 edges, or of 4 segments (a side of each corner cell and
# two lines between the dots (1,1) and (2,2)); without connectivity 2 would do
EDGE_CASES = [("x..\n...\n..x\n", 4), ("x.o\n.o.\no.x\n", None), ("x..\n.o.\n..x\n", 4),
              ("x...\n.oo.\n....\nx..x\n", 6)]
SEGMENT_CASES = [("x..\n...\n..x\n", 4), ("x.\n.x\n", 2), ("x..x\n....\nx..x\n", 8)]


@pytest.mark.parametrize("kind", ["count", "sum"])
@pytest.mark.parametrize("text,least", EDGE_CASES, ids=[f"edges{i}" for i in range(len(EDGE_CASES))])
def test_connected_over_edges(text, least, kind):
    for k in (2, 3, 4, 5, 6):
        s = sized_spec(EDGE_SPEC, "edges", kind, k)
        want = "solved" if least is not None and k >= least else "unsat"
        for mode in MODE_LIST:
            res = api.solve(s, instance(s, text), **mode)
            assert res.status == want, (k, mode_id(mode), res.status, res.grid)
            assert_stats(res, mode)
            if kind == "count":      # bounded: nothing is left to the cut loop
                assert "rounds" not in res.stats
            elif not mode:
                assert res.stats["connectivity"] == "lazy"
            if want == "solved":
                assert res.verified
                check_edges(text, res.grid, k)


@pytest.mark.parametrize("kind", ["count", "sum"])
@pytest.mark.parametrize("text,least", SEGMENT_CASES,
                         ids=[f"segments{i}" for i in range(len(SEGMENT_CASES))])
def test_connected_over_segments(text, least, kind):
    for k in range(max(1, least - 2), least + 2):
        s = sized_spec(SEGMENT_SPEC, "segments", kind, k)
        want = "solved" if k >= least else "unsat"
        for mode in MODE_LIST:
            res = api.solve(s, instance(s, text), **mode)
            assert res.status == want, (k, mode_id(mode), res.status, res.grid)
            assert_stats(res, mode)
            if want == "solved":
                assert res.verified
                check_segments(text, res.grid, k)


def test_edges_spec_needs_cuts_when_unbounded():
    s = sized_spec(EDGE_SPEC, "edges", "sum", 4)
    res = api.solve(s, instance(s, "x..\n...\n..x\n"))
    assert res.status == "solved" and res.stats["rounds"] > 1 and res.stats["cuts"] > 0
    check_edges("x..\n...\n..x\n", res.grid, 4)


def test_edges_and_segments_are_joined_differently():
    """Edges are joined through a shared cell, segments through a shared dot:
    the diagonal x cells of a 2x2 board are joined by 2 edges through a third
    cell (2 segments through the centre dot: SEGMENT_CASES), and two parallel
    lines never form one group."""
    s = sized_spec(EDGE_SPEC, "edges", "count", 2)
    # (with both other cells clear no edge can touch an x at all)
    for text, want in (("x.\n.x\n", "solved"), (".x\nx.\n", "solved"), ("xo\nox\n", "unsat")):
        for mode in MODE_LIST:
            assert api.solve(s, instance(s, text), **mode).status == want
    # two x cells in one column two apart: 2 parallel segments would touch
    # both but are not joined; 3 lines are needed
    for k, want in ((2, "unsat"), (3, "solved")):
        s = sized_spec(SEGMENT_SPEC, "segments", "sum", k)
        for mode in MODE_LIST:
            res = api.solve(s, instance(s, "x\n.\nx\n"), **mode)
            assert res.status == want, (k, mode_id(mode))
            if want == "solved":
                check_segments("x\n.\nx\n", res.grid, k)


# ---------------------------------------------------------------- where connected(...) may stand

BASE = """\
puzzle p "connected in a rule"
board square

var on[c in cells] : bool
show c: if on[c] then "#" else "."
let linked = connected(c in cells: on[c])
let join(k) = connected(c in cells: on[c] and c.col >= k)
rule k: count(c in cells: on[c]) = 2
"""

REFUSED = [
    ("rule r: not connected(c in cells: on[c])", "not"),
    ("rule r: connected(c in cells: on[c]) -> on[(0, 0)]", "left of ->"),
    ("rule r: connected(c in cells: on[c]) <-> on[(0, 0)]", "iff"),
    ("rule r: count(k in 0..1: connected(c in cells: on[c] and c.col >= k)) = 2", "count"),
    ("rule r: not linked", "let"),
    ("rule r: all k in 0..1: not join(k)", "let with parameters"),
]


@pytest.mark.slow
@pytest.mark.parametrize("line,why", REFUSED, ids=[r[1] for r in REFUSED])
def test_connected_that_is_not_required_is_an_error_with_a_position(line, why, write, run_pzc):
    write("neg.pz", BASE + line + "\n")
    write("b.txt", "...\n...\n")
    lineno = BASE.count("\n") + 1
    # the column: where the offending connected(...) starts (the name of the
    # let for the let cases)
    want = re.search(r"connected\(|linked|join\(", line)
    for args in (("check", "neg.pz"), ("solve", "neg.pz", "b.txt"),
                 ("solve", "neg.pz", "b.txt", "--backend", "smt")):
        run = run_pzc(*args)
        assert run.returncode == 2, (args, run)
        assert run.stdout == ""
        first = run.stderr.splitlines()[0]
        assert re.match(r"neg\.pz:(\d+):(\d+): error: connected\(\.\.\.\) can only be required", first), first
        if why.startswith("let"):
            # the position is the let's connected(...), not the rule using it
            name = want.group(0).rstrip("(")
            k, text = next((k, l) for k, l in enumerate(BASE.splitlines(), 1)
                           if l.startswith(f"let {name}"))
            assert first.startswith(f"neg.pz:{k}:{text.index('connected(') + 1}: "), first
        else:
            assert first.startswith(f"neg.pz:{lineno}:{want.start() + 1}: "), first
            caret = run.stderr.splitlines()[2]
            assert caret.index("^") == 4 + want.start()


ACCEPTED = [
    ("rule r: connected(c in cells: on[c]) or on[(0, 0)]", "or"),
    ("rule r: on[(0, 0)] -> connected(c in cells: on[c])", "right of ->"),
    ("rule r: if on[(0, 0)] then connected(c in cells: on[c]) else true", "if branch"),
    ("rule r: linked", "let"),
    ("rule r: all k in 0..1: join(k)", "let with parameters"),
    ("rule r: any k in 0..1: join(k) and on[(1, k)]", "any"),
]


@pytest.mark.parametrize("line,why", ACCEPTED, ids=[r[1] for r in ACCEPTED])
def test_connected_where_it_is_required_is_accepted(line, why):
    s = spec_from_text(BASE + line + "\n", "ok.pz")
    for mode in MODE_LIST:
        res = api.solve(s, instance(s, "...\n...\n"), **mode)
        assert res.status == "solved" and res.verified, (mode_id(mode), res.error)
        assert sum(row.count("#") for row in res.grid) == 2


def test_connected_in_a_rule_decides_the_answer():
    """`on[(0,0)] -> connected(...)` with (0,0) and (1,2) forced on: only a
    connected set of 4 cells is allowed."""
    text = BASE.replace("= 2", "= 4") + (
        "rule r: on[(0, 0)] -> connected(c in cells: on[c])\n"
        "rule f: on[(0, 0)] and on[(1, 2)]\n")
    s = spec_from_text(text, "guarded.pz")
    for mode in MODE_LIST:
        res = api.solve(s, instance(s, "...\n...\n"), **mode)
        assert res.status == "solved"
        cells = {(r, c) for r, row in enumerate(res.grid) for c, ch in enumerate(row) if ch == "#"}
        assert len(cells) == 4 and {(0, 0), (1, 2)} <= cells
        assert len(gen._components(cells, lambda x: gen._neighbours(x, 3, 2))) == 1
    s = spec_from_text(text.replace("= 4", "= 3"), "guarded3.pz")
    for mode in MODE_LIST:
        assert api.solve(s, instance(s, "...\n...\n"), **mode).status == "unsat"


# ---------------------------------------------------------------- known bugs

COLUMNS = """\
puzzle cols "pick one column; its cells must be connected"
board square

var pick[i in 0 .. width - 1] : bool
show c: if pick[c.col] then "#" else "."
rule one:  count(i in 0 .. width - 1: pick[i]) = 1
rule join: connected(c in cells: pick[c.col])
"""

# regression: the bounded encoding once took the limit of `count(i: pick[i]) = 1`
# for connected(c in cells: pick[c.col]), which shares its *set* of formulas but
# repeats pick[0] for two cells, and refused the valid column (unsat)


@pytest.mark.parametrize("mode", [
    pytest.param(dict(), id="lazy"),
    pytest.param(dict(connectivity="eager"), id="eager"),
    pytest.param(dict(backend="smt"), id="z3"),
])
def test_a_selection_that_repeats_a_formula(mode):
    """Column 0 (two cells, one above the other) is a valid answer."""
    s = spec_from_text(COLUMNS, "cols.pz")
    res = api.solve(s, instance(s, "..\n..\n"), **mode)
    assert res.status == "solved" and res.verified, res.status
    assert res.grid in (["#.", "#."], [".#", ".#"])


def test_the_same_selection_without_the_repeat_is_solved():
    """The bound is right when every element has its own formula: one cell
    per column on a 1 x 2 board."""
    s = spec_from_text(COLUMNS, "cols.pz")
    for mode in MODE_LIST:
        res = api.solve(s, instance(s, "..\n"), **mode)
        assert res.status == "solved" and res.grid in (["#."], [".#"])


MIXED = """\
puzzle mixed "an edge variable indexed by a segment"
board square

var link[e in edges] : bool
show c: if link[edge((0, 0), (0, 1))] then "#" else "."
rule r: link[segment((0, 0), (0, 1))]
"""


# regression: edges and segments once compared equal (both NamedTuples)
def test_an_edge_variable_indexed_by_a_segment_is_an_error(write, run_pzc):
    write("mixed.pz", MIXED)
    write("b.txt", "..\n..\n")
    run = run_pzc("solve", "mixed.pz", "b.txt")
    assert run.returncode == 2, run.stdout


REGIONS = """\
puzzle regions "cells of value 1 connected, cells not 0 connected"
board square

var v[c in cells] : 0..2
show v
rule ones:    connected(c in cells: v[c] = 1)
rule nonzero: connected(c in cells: v[c] != 0)
rule fixed:   v[(0, 0)] = 1
"""


@pytest.mark.slow
def test_connected_over_value_atoms_counts_exactly():
    """connected(c in cells: v[c] = k) and (v[c] != k) are grounded from the
    variable's value atoms directly (aggregates._eq_values): every solution
    of a 2x3 board counted once, against a brute force of the test's own."""
    from itertools import product
    s = spec_from_text(REGIONS, "regions.pz")
    cells = [(r, c) for r in range(2) for c in range(3)]

    def joined(on):
        return len(gen._components(on, lambda x: gen._neighbours(x, 3, 2))) <= 1
    want = 0
    for vals in product(range(3), repeat=len(cells)):
        board = dict(zip(cells, vals))
        if board[(0, 0)] == 1 and joined({x for x in cells if board[x] == 1}) \
                and joined({x for x in cells if board[x] != 0}):
            want += 1
    for mode in MODE_LIST:
        counted = api.count(s, instance(s, "...\n...\n"), **mode)
        assert counted.complete and counted.count == want, (mode_id(mode), counted.count, want)
