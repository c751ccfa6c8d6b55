"""The general kinds of clue (issue 27): clues outside the grid (board option
`outside`), lists of numbers (`lists`), letters as symbols (`letters`) and
clues on the corners of the cells (`points`).

Each is checked through the command line and the API on instances written
here: what the reader makes of a text instance (values, places, errors at
their line and column), what `pzc convert` writes back (text and puzz.link
URLs, read again to the same instance), answers against a brute force of
this test's own (every shading of small boards with counts on all four
sides), and where the picture puts the clues.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from pzc import api

COUNTS = """\
puzzle counts "numbers outside the grid count the shaded cells of their rows and columns"
board square(outside: "{sides}", blank: "-")
url counts: {codec}(clues)
var shaded[c in cells] : bool
show c: if shaded[c] then "#" else "."
rule counts: all p in outside where given(p): count(c in inward(p): shaded[c]) = clue(p)
"""


def counts_spec(write, sides="top left", codec="excell16", name="counts.pz"):
    return write(name, COUNTS.format(sides=sides, codec=codec))


def load(spec_path, text, write, name="inst.txt"):
    write(name, text)
    spec = api.load_spec(str(spec_path))
    return spec, api.load_instances(spec, str(spec_path.parent / name))


# ---------------------------------------------------------------- reading

def test_outside_clues_are_read_at_their_places(write):
    spec_path = counts_spec(write, "top left")
    spec, (inst,) = load(spec_path, "2 3\n1 - 2\n0 3\n- - -\n- - -\n", write)
    assert (inst.geometry.height, inst.geometry.width) == (2, 3)
    assert inst.outside == ("top", "left")
    assert {p: v for p, v in inst.clues.items()} == {(-1, 0): 1, (-1, 2): 2, (0, -1): 0,
                                                     (1, -1): 3}
    assert inst.positions[(-1, 2)] == (2, 5) and inst.positions[(1, -1)] == (3, 3)


def test_one_column_reads_a_longer_clue_as_one(write):
    # "12" above the one column is the number 12, not the digits 1 and 2
    spec, (inst,) = load(counts_spec(write), "2 1\n12\n1 0\n-\n-\n", write)
    assert inst.clues == {(-1, 0): 12, (0, -1): 1, (1, -1): 0}


def test_a_width_first_header_is_told_by_the_first_grid_row(write):
    spec_path = counts_spec(write, "left top")
    # "W H" = 3 2: the left side (2 rows) comes first, then the top (3 columns)
    spec, (inst,) = load(spec_path, "3 2\n1 1\n2 0 0\n- - -\n- - -\n", write)
    assert (inst.geometry.height, inst.geometry.width) == (2, 3)
    assert inst.clues == {(0, -1): 1, (1, -1): 1, (-1, 0): 2, (-1, 1): 0, (-1, 2): 0}


@pytest.mark.parametrize("text, where, message", [
    ("2 3\n1 2\n0 3\n- - -\n- - -\n", "inst.txt:2:1",
     "the clues outside the top of the grid are 3, one a column, but this line gives 2"),
    ("2 3\n1 2 1\n- - -\n- - -\n", "inst.txt:1:1",
     "after this size come the clues outside the grid (top, left) and 1 grid of 2 x 3; "
     "the lines that follow do not fit that"),
    ("- - -\n", "inst.txt:1:1", "an instance of this spec starts with its size"),
    ("2 3\n1 x 2\n0 3\n- - -\n- - -\n", "inst.txt:2:3", "'x' is not allowed"),
])
def test_bad_outside_instances_are_located(write, run_pzc, text, where, message):
    spec_path = counts_spec(write)
    if "not allowed" in message:
        write("counts.pz", spec_path.read_text().replace('blank: "-"', 'blank: "-", clues: 0..9'))
    write("inst.txt", text)
    out = run_pzc("solve", "counts.pz", "inst.txt")
    assert out.returncode == 2, out.stderr
    assert f"{where}: error: {message}" in out.stderr
    assert "Traceback" not in out.stderr


def test_inward_runs_from_each_side_toward_the_board(write):
    spec_path = write("in.pz", """\
puzzle t
board square(outside: "top bottom left right", blank: "-")
var x[c in cells] : bool
show x
require inward((-1, 1)) = [(0, 1), (1, 1)] and inward((2, 1)) = [(1, 1), (0, 1)]
require inward((0, -1)) = [(0, 0), (0, 1), (0, 2)] and inward((1, 3)) = [(1, 2), (1, 1), (1, 0)]
require outside = [(-1, 0), (-1, 1), (-1, 2), (2, 0), (2, 1), (2, 2), (0, -1), (1, -1), (0, 3), (1, 3)]
require given((-1, 1)) and clue((-1, 1)) = 5 and not given((2, 2))
""")
    spec, (inst,) = load(spec_path, "2 3\n- 5 -\n- - -\n- -\n- -\n- - -\n- - -\n", write)
    assert api.solve(spec, inst).status == "solved"


def test_a_clue_read_off_the_board_and_outside_it_is_an_error(write, run_pzc):
    write("bad.pz", COUNTS.format(sides="top", codec="excell16").replace(
        "rule counts", "rule off: clue((5, 5)) = 1\nrule counts"))
    write("inst.txt", "1 2\n1 1\n- -\n")
    out = run_pzc("solve", "bad.pz", "inst.txt")
    assert out.returncode == 2
    assert "bad.pz:6:16: error: expected a cell of the board or a place just outside the grid, " \
           "but this is (5, 5)" in out.stderr


def test_lists_in_cells_and_outside(write, run_pzc):
    spec_path = write("l.pz", """\
puzzle l
board square(lists, outside: "left", blank: "-")
var x[c in cells] : bool
show x
require clue((0, 0)) = [1, 1, 3] and clue((0, -1)) = [2, 4] and len(clue((1, 1))) = 1
require clue((1, -1)) = ["?", 1]
""")
    spec, (inst,) = load(spec_path, "2 2\n2 4\n? 1\n1,1,3 -\n- 7\n", write)
    assert inst.clues[(0, 0)] == (1, 1, 3) and inst.clues[(1, 1)] == (7,)
    assert api.solve(spec, inst).status == "solved"
    write("bad.txt", "2 2\n2 4\n1\n1,,3 -\n- 7\n")
    out = run_pzc("solve", "l.pz", "bad.txt")
    assert out.returncode == 2
    assert "bad.txt:4:1: error: a list of numbers has an empty item here" in out.stderr


def test_letters_are_symbols_only_where_the_board_says(write):
    plain = write("p.pz", "puzzle p\nboard square\nvar x[c in cells]: bool\nshow x\n")
    lettered = write("q.pz", "puzzle q\nboard square(letters)\nvar x[c in cells]: bool\nshow x\n")
    _, (a,) = load(plain, "A1\nz.\n", write)
    _, (b,) = load(lettered, "A1\nz.\n", write)
    assert a.clues == {(0, 0): 10, (0, 1): 1, (1, 0): "z"}
    assert b.clues == {(0, 0): "A", (0, 1): 1, (1, 0): "z"}


def test_dot_clues_sit_on_the_corners(write, run_pzc):
    spec_path = write("d.pz", """\
puzzle d
board square(points, blank: "-.")
var x[c in cells] : bool
show x
require width = 2 and height = 1 and len(dots) = 6
require clue((1, 2)) = 3 and given((0, 0)) and not given((0, 1))
""")
    spec, (inst,) = load(spec_path, "2 1\n1 . 0\n. . 3\n", write)
    assert inst.points and (inst.geometry.width, inst.geometry.height) == (2, 1)
    assert inst.clues == {(0, 0): 1, (0, 2): 0, (1, 2): 3}
    assert api.solve(spec, inst).status == "solved"
    write("small.txt", "1\n")
    out = run_pzc("solve", "d.pz", "small.txt")
    assert out.returncode == 2
    assert "small.txt:1:1: error: a grid of dot clues is one row and column larger than the " \
           "board, so at least 2 x 2, not 1 x 1" in out.stderr


# ---------------------------------------------------------------- writing back

@pytest.mark.parametrize("sides, codec, text", [
    ("top left", "excell16", "2 3\n1 - 2\n0 3\n- - -\n- - -\n"),
    ("top bottom left right", "excell16_around", "2 3\n1 - 2\n- 0 -\n1 -\n- 2\n- - -\n- - -\n"),
])
def test_outside_clues_round_trip_as_text_and_urls(write, run_pzc, sides, codec, text):
    counts_spec(write, sides, codec)
    write("inst.txt", text)
    back = run_pzc("convert", "counts.pz", "inst.txt", "--format", "text")
    assert back.returncode == 0, back.stderr
    assert back.stdout == text
    url = run_pzc("convert", "counts.pz", "inst.txt", "--format", "url").stdout.strip()
    assert url.startswith("https://puzz.link/p?counts/3/2/")
    again = run_pzc("convert", "counts.pz", url, "--format", "text")
    assert again.stdout == text, again.stderr


def test_lists_round_trip_as_text_and_urls(write, run_pzc):
    write("runs.pz", """\
puzzle runs
board square(outside: "top left", lists, blank: "-")
url runs: excell16_lists(clues)
var x[c in cells] : bool
show x
""")
    text = "3 4\n1\n-\n1 1\n3\n1 2\n1\n3\n"
    write("inst.txt", text)
    back = run_pzc("convert", "runs.pz", "inst.txt", "--format", "text")
    assert back.stdout.startswith(text), back.stderr
    url = run_pzc("convert", "runs.pz", "inst.txt", "--format", "url").stdout.strip()
    again = run_pzc("convert", "runs.pz", url, "--format", "text")
    assert again.stdout == back.stdout, again.stderr


# ---------------------------------------------------------------- against brute force

def brute_counts(h, w, clues):
    """Every shading of an h x w board meeting the counts, as printed rows."""
    found = set()
    for bits in itertools.product((0, 1), repeat=h * w):
        shaded = {(r, c) for r in range(h) for c in range(w) if bits[r * w + c]}

        def seen(p):
            r, c = p
            if r in (-1, h):
                return sum((k, c) in shaded for k in range(h))
            return sum((r, k) in shaded for k in range(w))
        if all(seen(p) == n for p, n in clues.items()):
            found.add(tuple("".join("#" if (r, c) in shaded else "." for c in range(w))
                            for r in range(h)))
    return found


def test_counts_on_all_four_sides_match_a_brute_force(write):
    spec_path = counts_spec(write, "top bottom left right", "excell16_around")
    spec = api.load_spec(str(spec_path))
    rng = random.Random(27)
    outcomes = set()
    for k in range(40):
        h, w = rng.randint(1, 3), rng.randint(1, 3)
        truth = {(r, c) for r in range(h) for c in range(w) if rng.random() < 0.5}
        sides = {"top": [(-1, c) for c in range(w)], "bottom": [(h, c) for c in range(w)],
                 "left": [(r, -1) for r in range(h)], "right": [(r, w) for r in range(h)]}
        clues = {}
        for places in sides.values():
            for p in places:
                if rng.random() < 0.6:
                    r, c = p
                    n = sum(((x, c) if r in (-1, h) else (r, x)) in truth
                            for x in range(h if r in (-1, h) else w))
                    clues[p] = n + (1 if rng.random() < 0.1 else 0)     # now and then wrong
        lines = [f"{h} {w}"]
        for side in ("top", "bottom", "left", "right"):
            lines.append(" ".join(str(clues[p]) if p in clues else "-" for p in sides[side]))
        lines += [" ".join("-" * w)] * h
        write(f"b{k}.txt", "\n".join(lines) + "\n")
        inst, = api.load_instances(spec, str(spec_path.parent / f"b{k}.txt"))
        res = api.count(spec, inst)
        got = {tuple(board) for board in res.solutions}
        want = brute_counts(h, w, clues)
        assert res.count == len(want) and got == want, (lines, got, want)
        outcomes.add(min(len(want), 2))
    assert outcomes == {0, 1, 2}


# ---------------------------------------------------------------- pictures

def test_the_picture_puts_outside_clues_beside_the_board(write, run_pzc):
    counts_spec(write, "top left")
    write("inst.txt", "2 3\n1 - 2\n0 3\n- - -\n- - -\n")
    svg = run_pzc("solve", "counts.pz", "inst.txt", "--format", "svg").stdout
    cells = [tuple(map(float, re.findall(r"[\d.]+", m)))
             for m in re.findall(r'class="cell"[^>]*points="([^"]+)"', svg)]
    left = min(x for pts in cells for x in pts[0::2])
    top = min(y for pts in cells for y in pts[1::2])
    outside = re.findall(r'<text class="clue outside (\w+)" x="([\d.]+)" y="([\d.]+)"[^>]*>(\w+)<', svg)
    assert sorted((side, text) for side, _, _, text in outside) == [
        ("left", "0"), ("left", "3"), ("top", "1"), ("top", "2")]
    for side, x, y, _ in outside:
        assert (float(y) < top) if side == "top" else (float(x) < left)
