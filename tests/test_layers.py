"""Instances of several grids (`layers`) with parameters (`param`), janko's
rows-first headers, puzzlekit dataset files, and the region built-ins; the
cages example checked against a brute force of its own."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from pzc import api
from pzc.encoder.instance import Grids, read_instances
from pzc.runtime.errors import PzcError, Source

from conftest import ROOT




def read(text, layers=("clues", "regions"), params=(), defaults=(), blank="-", path="f.txt"):
    return read_instances(Source(path, text), "square", blank=blank,
                          grids=Grids(tuple(layers), tuple(params), tuple(defaults)))


def bad(text, **kw) -> PzcError:
    with pytest.raises(PzcError) as info:
        read(text, **kw)
    return info.value


def test_rows_first_header_with_a_parameter_and_two_grids():
    inst, = read("2 3 7\n1 - 2\n- x -\na a b\nc c b\n", params=("n",))
    assert (inst.geometry.width, inst.geometry.height) == (3, 2)
    assert inst.params == {"n": 7}
    assert inst.clues == {(0, 0): 1, (0, 2): 2, (1, 1): "x"}
    assert dict(inst.layers["regions"]) == {(0, 0): "a", (0, 1): "a", (0, 2): "b",
                                            (1, 0): "c", (1, 1): "c", (1, 2): "b"}
    assert inst.layer_positions["regions"][(1, 2)] == (5, 5)


def test_width_first_header_still_reads_as_before():
    inst, = read("3 2\n1 - 2\n- x -\na a b\nc c b\n")
    assert (inst.geometry.width, inst.geometry.height) == (3, 2)


def test_grids_without_a_header_are_grouped_by_blank_lines():
    one, two = read("1-\n-2\n\nab\nab\n\n3-\n--\n\nxx\nyy\n")
    assert one.clues == {(0, 0): 1, (1, 1): 2} and one.layers["regions"][(1, 0)] == "a"
    assert two.clues == {(0, 0): 3} and two.layers["regions"][(1, 1)] == "y"
    assert (one.name, two.name) == ("f.txt#1", "f.txt#2")


def test_region_ids_may_be_blank_characters():
    inst, = read("2 2\n1 -\n- -\n- -\nx x\n")
    assert set(inst.layers["regions"].values()) == {"-", "x"}


def test_a_grid_of_another_size_is_an_error_at_it():
    err = bad("1-\n-2\n\nabc\nabc\n")
    assert (err.line, err.column) == (4, 1)
    assert "is 3 x 2 cells, but this instance's first grid (line 1) is 2 x 2" in err.message


def test_a_missing_grid_is_an_error():
    err = bad("1-\n-2\n")
    assert "2 grids (clues, regions)" in err.message and err.line == 1
    err = bad("2 2\n1 -\n- -\na a\n")
    assert err.message == "the header says 2 rows in each of 2 grids, but only 3 follow (line 5)"


def test_a_missing_parameter_is_an_error_unless_it_has_a_default():
    err = bad("2 2\n1 -\n- -\na a\nb b\n", params=("n",))
    assert (err.line, err.column) == (1, 1)
    assert "this instance gives no 'n': write it after the size" in err.message
    inst, = read("2 2\n1 -\n- -\na a\nb b\n", params=("n",), defaults=(("n", 4),))
    assert inst.params == {"n": 4}


def test_a_dataset_file_is_one_instance_per_entry_and_has_no_comments():
    data = {"count": 2, "data": {
        "one": {"problem": "2 3\n# 1 -\n- - 2\n", "solution": "x"},
        "two": {"problem": "1 1\n5\n"}}}
    found = read_instances(Source("set.json", json.dumps(data)), "square", blank="-")
    assert [i.name for i in found] == ["set.json#one", "set.json#two"]
    assert found[0].clues == {(0, 0): "#", (0, 1): 1, (1, 2): 2}
    assert found[1].clues == {(0, 0): 5}


def test_a_corrupt_dataset_entry_is_an_error_of_its_own(write, run_pzc):
    data = {"data": {"bad": {"problem": "2 2\n1 2\n3\n"}, "good": {"problem": "1 2\n1 2\n"}}}
    bad, good = read_instances(Source("set.json", json.dumps(data)), "square")
    err = bad.unreadable
    assert err.file == "set.json#bad" and err.line == 3 and good.unreadable is None
    write("set.json", json.dumps(data))
    write("echo.pz", "puzzle e\nboard square\nshow c: clue(c)\n")
    run = run_pzc("solve", "echo.pz", "set.json")
    assert run.returncode == 2
    assert run.stdout.split("\n")[:3] == ["set.json#bad: error", "", "set.json#good: solved, verified"]
    assert "set.json#bad:3:2: error: this row has 1 cells" in run.stderr


def test_other_json_is_still_refused_by_a_text_board():
    with pytest.raises(PzcError) as info:
        read_instances(Source("x.json", '{"size": 2}'), "square")
    assert "this is a JSON instance" in info.value.message


# ------------------------------------------------------------------ the spec side

def spec(write, text, name="t.pz"):
    return api.load_spec(str(write(name, text, dedent=True)))


@pytest.mark.parametrize("text, where, message", [
    ("board hex\nlayers clues, regions\n", (3, 1), "'layers' is for square boards"),
    ("board square\nlayers clues, clues\n", (3, 15), "the layer 'clues' is named twice"),
    ("board square\nparam n = width\n", (3, 11), "the default of 'n' is a number"),
    ("board square\nparam n\nlet n = 2\n", (4, 1), "'n' is already defined on line 3"),
    ("board square\nlayers clues, cages\nlet cages = 1\n", (3, 15),
     "'cages' is already defined on line 4"),
    ("board square\nlayers a\nlayers b\n", (4, 1), "a spec has at most one 'layers' line"),
])
def test_spec_errors(write, text, where, message):
    with pytest.raises(PzcError) as info:
        spec(write, "puzzle t\n" + text + "var v[c in cells]: bool\nshow v\n")
    assert (info.value.line, info.value.column) == where
    assert message in info.value.message


def test_layers_regions_and_params_read_by_a_spec(write, run_pzc):
    write("t.pz", """\
        puzzle t
        board square(blank: "-")
        layers marks, regions, clues
        param k
        show c: get(marks, c, ".")
        require len(regions) = 3 and region((1, 1)) = [(0, 1), (1, 1)] and k = 9
        require regions[0] = [(0, 0), (1, 0)] and get(marks, (0, 1), "?") = "?"
        require layer("marks") = marks and param("k") = 9 and clue((1, 1)) = 5
        """, dedent=True)
    write("i.txt", "2 3 9\nx - y\nz w v\na b c\na b c\n- - -\n- 5 -\n")
    run = run_pzc("solve", "t.pz", "i.txt")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[1:3] == ["  x.y", "  zwv"]


def test_regions_without_a_regions_layer_is_a_located_error(write, run_pzc):
    write("t.pz", "puzzle t\nboard square\nshow c: len(region(c))\n")
    write("i.txt", "12\n34\n")
    run = run_pzc("solve", "t.pz", "i.txt")
    assert run.returncode == 2
    assert "t.pz:3:13: error: 'region' reads the instance's regions" in run.stderr


# ------------------------------------------------------------------ cages vs brute force

def brute_cages(n, sums, cages) -> int:
    count = 0
    for rows in itertools.product(itertools.permutations(range(1, n + 1)), repeat=n):
        if any(len({rows[r][k] for r in range(n)}) < n for k in range(n)):
            continue
        ok = all(sum(rows[r][k] for (r, k), cid in cages.items() if cid == cages[cell])
                 == total for cell, total in sums.items())
        count += ok
    return count


LATIN3 = [rows for rows in itertools.product(itertools.permutations((1, 2, 3)), repeat=3)
          if all(len({rows[r][k] for r in range(3)}) == 3 for k in range(3))]


def random_cages(rng, n):
    ids = {}
    nxt = 0
    for r in range(n):
        for k in range(n):
            if k and rng.random() < 0.5:
                ids[(r, k)] = ids[(r, k - 1)]
            elif r and rng.random() < 0.4:
                ids[(r, k)] = ids[(r - 1, k)]
            else:
                ids[(r, k)] = nxt
                nxt += 1
    return ids


def test_cages_counts_equal_a_brute_force(write, run_pzc):
    rng = random.Random(12)
    texts, expected = [], []
    for _ in range(20):
        n = 3
        cages = random_cages(rng, n)
        square = rng.choice(LATIN3)
        sums = {}
        for cid in sorted(set(cages.values())):
            cells = sorted(c for c, i in cages.items() if i == cid)
            # the sums of a Latin square, one of them sometimes off by one
            sums[rng.choice(cells)] = sum(square[r][k] for r, k in cells) + (rng.random() < 0.1)
        expected.append(brute_cages(n, sums, cages))
        clue_rows = [" ".join(str(sums.get((r, k), "-")) for k in range(n)) for r in range(n)]
        id_rows = [" ".join(f"c{cages[(r, k)]}" for k in range(n)) for r in range(n)]
        texts.append("\n".join([f"{n} {n} {n}"] + clue_rows + id_rows))
    write("all.txt", "\n".join(texts) + "\n")
    run = run_pzc("count", str(ROOT / "docs/tutorial/ref/cages.pz"), "all.txt")
    got = [int(line.split(": ")[1].split()[0]) for line in run.stdout.split("\n")
           if ": " in line]
    assert got == expected and 0 in expected and 1 in expected and max(expected) > 1


@pytest.mark.slow
def test_one_dataset_entry_by_its_key(write, run_pzc):
    data = {"data": {"a": {"problem": "1 2\n1 2\n"}, "b": {"problem": "1 2\n3 4\n"}}}
    write("set.json", json.dumps(data))
    write("echo.pz", "puzzle e\nboard square\nshow c: clue(c)\n")
    run = run_pzc("solve", "echo.pz", "set.json#b")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["set.json#b: solved, verified", "  34"]
    run = run_pzc("solve", "echo.pz", "set.json#c")
    assert run.returncode == 2 and "set.json holds no instance named set.json#c" in run.stderr
    run = run_pzc("solve", "echo.pz", "set.json#1")           # the first entry, by number
    assert run.stdout.split("\n")[:2] == ["set.json#a: solved, verified", "  12"]


def test_a_dataset_entry_by_key_is_read_alone(write, run_pzc):
    data = {"data": {"bad": {"problem": "9 9\n1 2\n"}, "b": {"problem": "1 2\n3 4\n"}}}
    write("set.json", json.dumps(data))
    write("echo.pz", "puzzle e\nboard square\nshow c: clue(c)\n")
    run = run_pzc("solve", "echo.pz", "set.json#b")
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.split("\n")[:2] == ["set.json#b: solved, verified", "  34"]
    run = run_pzc("solve", "echo.pz", "set.json")
    assert run.returncode == 2 and "set.json#bad: error" in run.stdout
