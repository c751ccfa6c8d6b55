"""SPEC left out: each puzz.link URL, each line of a file of URLs, each
pzprv3 file and each batch task is read by the built-in spec of its own type,
in every command that takes an instance (solve, count, unique, explain,
convert, batch, dimacs, decode); a URL that cannot be read is the located
error it is after a SPEC, and the other instances still run.

The puzzles are written here as text, turned into URLs by `pzc convert` with
their spec named, and the answers judged by checkers that do not use pzc."""

from __future__ import annotations

import json

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import generators as gen
from pzc import api

# every test runs pzc processes (about a second each): slow as a whole
pytestmark = pytest.mark.slow

NURIKABE = """\
5 5
. 5 . . .
. . 2 . .
. . . . .
. . 1 . .
. . . 3 .
"""
AKARI = """\
4 4
- 1 - -
- - - -
3 - - x
- - - -
"""
SUDOKU = """\
..4.
2...
1...
..2.
"""
# a size of 0 columns: wrong at column 30, after "https://puzz.link/p?nurikabe/"
BAD = "https://puzz.link/p?nurikabe/0/5/g5k2o1k3g"
BAD_AT = f"{BAD}:1:30: error: bad size '0': the number of columns is a whole number above 0"


def akari_valid(puzzle_text: str, rows: list) -> bool:
    """Light Up judged here: walls ('x', digits) kept, white cells '*' (a
    lamp) or '.'; every white cell lit by a lamp in its row or column with no
    wall between; no lamp sees another; a numbered wall has that many lamps
    beside it."""
    puzzle = [line.split() for line in puzzle_text.splitlines()[1:] if line.strip()]
    h, w = len(puzzle), len(puzzle[0])
    if len(rows) != h or any(len(row) != w for row in rows):
        return False
    white = {(r, c) for r in range(h) for c in range(w) if puzzle[r][c] == "-"}
    if any((rows[r][c] in "*.") != ((r, c) in white) or
           ((r, c) not in white and rows[r][c] != puzzle[r][c])
           for r in range(h) for c in range(w)):
        return False
    lamps = {(r, c) for r, c in white if rows[r][c] == "*"}

    def seen(cell):
        out = {cell}
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            r, c = cell[0] + dr, cell[1] + dc
            while (r, c) in white:
                out.add((r, c))
                r, c = r + dr, c + dc
        return out

    if any(len(seen(lamp) & lamps) > 1 for lamp in lamps):
        return False
    if not all(seen(cell) & lamps for cell in white):
        return False
    return all(sum((r + dr, c + dc) in lamps for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))
               == int(puzzle[r][c])
               for r in range(h) for c in range(w) if puzzle[r][c].isdigit())


CHECKS = {"nurikabe": lambda text, rows: gen.nurikabe_valid(text.split("\n", 1)[1], rows),
          "akari": akari_valid,
          "sudoku": lambda text, rows: gen.sudoku_valid(rows, text.split())}
TEXTS = {"nurikabe": NURIKABE, "akari": AKARI, "sudoku": SUDOKU}


@pytest.fixture
def urls(write, run_pzc) -> dict:
    """Spec name -> the URL of its puzzle above, written by `pzc convert SPEC`."""
    out = {}
    for name, text in TEXTS.items():
        write(f"{name}.txt", text)
        run = run_pzc("convert", name, f"{name}.txt")
        assert run.returncode == 0, run.stderr
        out[name] = run.stdout.strip()
    assert out["nurikabe"] == "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    return out


def json_lines(run) -> list:
    return [json.loads(line) for line in run.stdout.splitlines()]


def blocks(run) -> list:
    """The text output's instances: their lines, the blank line between dropped."""
    return [b.splitlines() for b in run.stdout.split("\n\n") if b.strip()]


def judged(objs, names) -> None:
    """Each JSON result solved and verified by the spec of its genre, its
    board valid by this file's checkers."""
    assert [o["spec"] for o in objs] == names
    for o, name in zip(objs, names):
        assert (o["status"], o["verified"]) == ("solved", True), o
        assert CHECKS[name](TEXTS[name], o["grid"]), (name, o["grid"])


# ------------------------------------------------------------------ several genres

def test_urls_of_several_genres_each_get_the_spec_of_their_type(urls, run_pzc):
    names = ["nurikabe", "akari", "sudoku"]
    run = run_pzc("solve", *[urls[n] for n in names])
    assert (run.returncode, run.stderr) == (0, "")
    shown = blocks(run)
    assert [b[0] for b in shown] == [f"{urls[n]}: solved, verified" for n in names]
    for name, lines in zip(names, shown):
        assert CHECKS[name](TEXTS[name], [line.strip() for line in lines[1:]]), name
    run = run_pzc("solve", *[urls[n] for n in names], "--format", "json")
    assert run.returncode == 0
    judged(json_lines(run), names)


def test_each_line_of_a_file_of_urls_and_each_pzprv3_file_gets_its_own_spec(
        urls, write, run_pzc):
    write("mixed.txt", f"# three genres\n{urls['akari']}\n{urls['nurikabe']}\n\n"
                       f"{urls['sudoku']}\n{urls['akari']}\n")
    assert run_pzc("convert", "akari", "akari.txt", "--format", "pzprv3",
                   "-o", "akari.pzprv3").returncode == 0
    run = run_pzc("solve", "akari.pzprv3", "mixed.txt", urls["nurikabe"], "--format", "json")
    assert (run.returncode, run.stderr) == (0, "")
    objs = json_lines(run)
    assert [o["instance"] for o in objs] == ["akari.pzprv3"] + [
        f"mixed.txt#{k}" for k in (1, 2, 3, 4)] + [urls["nurikabe"]]
    judged(objs, ["akari", "akari", "nurikabe", "sudoku", "akari", "nurikabe"])
    # count and unique too, each instance by its own spec
    run = run_pzc("count", "mixed.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert [(o["spec"], o["count"], o["complete"]) for o in json_lines(run)] == [
        ("akari", 1, True), ("nurikabe", 1, True), ("sudoku", 1, True), ("akari", 1, True)]


def test_each_spec_is_loaded_once_per_type():
    choice = api.SpecChoice()
    found = [choice(ptype, lambda message: api.PzcError(message))
             for ptype in ("nurikabe", "lightup", "akari", "nurikabe", "slither")]
    assert [spec.name for spec in found] == ["nurikabe", "akari", "akari", "nurikabe",
                                             "slitherlink"]
    assert found[0] is found[3] and found[1] is found[2]
    assert sorted(choice.loaded) == ["akari", "nurikabe", "slitherlink"]


def test_a_spec_given_still_reads_only_its_own_type(urls, run_pzc):
    run = run_pzc("solve", "nurikabe", urls["nurikabe"], urls["akari"])
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        f"{urls['akari']}:1:21: error: this is a 'akari' puzzle, but the spec 'nurikabe' "
        f"reads 'nurikabe'", f"    {urls['akari']}", " " * 24 + "^"]
    solved, failed = blocks(run)
    assert solved[0] == f"{urls['nurikabe']}: solved, verified"
    assert CHECKS["nurikabe"](NURIKABE, [line.strip() for line in solved[1:]])
    assert failed == [f"{urls['akari']}: error"]


# ------------------------------------------------------------------ a URL that cannot be read

def test_a_bad_url_alone_is_the_located_error_a_spec_gives(run_pzc):
    alone = run_pzc("solve", BAD)
    after_spec = run_pzc("solve", "nurikabe", BAD)
    assert alone.returncode == after_spec.returncode == 2
    assert alone.stderr == after_spec.stderr
    assert alone.stderr.splitlines() == [BAD_AT, f"    {BAD}", " " * 33 + "^"]
    assert alone.stdout == f"{BAD}: error\n\n"
    obj, = json_lines(run_pzc("solve", BAD, "--format", "json"))
    assert obj["status"] == "error" and obj["error"] == {
        "message": "bad size '0': the number of columns is a whole number above 0",
        "file": BAD, "line": 1, "column": 30}


GOOD_OUTCOME = {"solve": "solved, verified", "count": "1 solution",
                "unique": "exactly one solution", "explain": "exactly one solution, verified"}


@pytest.mark.parametrize("command", ["solve", "count", "unique", "explain"])
def test_a_bad_url_before_good_ones_is_located_and_the_others_run(command, urls, run_pzc):
    run = run_pzc(command, BAD, urls["nurikabe"], urls["akari"])
    assert run.returncode == 2
    assert run.stderr.splitlines()[0] == BAD_AT
    assert "give at least one INSTANCE" not in run.stderr
    assert "no built-in spec or file" not in run.stderr
    shown = blocks(run)
    assert [b[0] for b in shown] == [f"{BAD}: error"] + [
        f"{urls[n]}: {GOOD_OUTCOME[command]}" for n in ("nurikabe", "akari")]
    if command != "count":
        for name, lines in zip(("nurikabe", "akari"), shown[1:]):
            assert CHECKS[name](TEXTS[name], [line.strip() for line in lines[1:]]), name


def test_convert_writes_the_good_urls_and_locates_the_bad(urls, run_pzc, write):
    run = run_pzc("convert", BAD, urls["sudoku"], urls["akari"], "--format", "text")
    assert run.returncode == 2
    assert run.stderr.splitlines()[0] == BAD_AT
    sudoku, akari = run.stdout.split("\n\n")
    # each written by its own spec: read back with the spec named, the same puzzles
    write("sudoku-back.txt", sudoku + "\n")
    write("akari-back.txt", akari)
    for name, file in (("sudoku", "sudoku-back.txt"), ("akari", "akari-back.txt")):
        again = run_pzc("convert", name, file)
        assert (again.returncode, again.stdout.strip()) == (0, urls[name]), again.stderr


def test_batch_runs_each_task_with_its_own_spec_and_the_bad_url_is_one_error(
        urls, write, run_pzc):
    write("mixed.txt", f"{urls['sudoku']}\n{urls['akari']}\n")
    run = run_pzc("batch", BAD, "mixed.txt", urls["nurikabe"], "--workers", "2", "--quiet")
    assert run.returncode == 2, run.stderr
    objs = {o["instance"]: o for o in json_lines(run)}
    assert set(objs) == {BAD, "mixed.txt#1", "mixed.txt#2", urls["nurikabe"]}
    bad = objs.pop(BAD)
    assert bad["status"] == "error" and (bad["error"]["line"], bad["error"]["column"]) == (1, 30)
    judged([objs["mixed.txt#1"], objs["mixed.txt#2"], objs[urls["nurikabe"]]],
           ["sudoku", "akari", "nurikabe"])
    run = run_pzc("batch", "mixed.txt", "--task", "unique", "--workers", "1", "--quiet")
    assert run.returncode == 0, run.stderr
    assert [(o["spec"], o["status"]) for o in json_lines(run)] == [
        ("sudoku", "unique"), ("akari", "unique")]


def test_an_unknown_type_or_a_text_file_without_spec_is_located(urls, write, run_pzc):
    tapa = "https://puzz.link/p?tapa/3/3/a"
    write("nurikabe.txt", NURIKABE)
    run = run_pzc("solve", urls["akari"], tapa, "nurikabe.txt")
    assert run.returncode == 2
    assert [b[0] for b in blocks(run)] == [f"{urls['akari']}: solved, verified",
                                           f"{tapa}: error", "nurikabe.txt: error"]
    errors = [line for line in run.stderr.splitlines() if "error:" in line]
    assert errors[0].startswith(f"{tapa}:1:21: error: no built-in spec reads puzz.link's "
                                f"'tapa' puzzles")
    assert errors[1].startswith("nurikabe.txt:1:1: error: this is no puzz.link URL, file of "
                                "URLs or pzprv3 file, so it names no puzzle type")


# ------------------------------------------------------------------ dimacs and decode

def test_dimacs_and_decode_take_a_bare_url(urls, tmp_path, run_pzc):
    url = urls["nurikabe"]
    bare = run_pzc("dimacs", url, "-o", "bare.cnf", "--map", "bare.json")
    named = run_pzc("dimacs", "nurikabe", url, "-o", "named.cnf")
    assert bare.returncode == named.returncode == 0, bare.stderr + named.stderr
    assert (tmp_path / "bare.cnf").read_text() == (tmp_path / "named.cnf").read_text()
    with Solver(name="glucose4",
                bootstrap_with=CNF(from_file=str(tmp_path / "bare.cnf")).clauses) as s:
        assert s.solve()
        model = s.get_model()
    (tmp_path / "model.out").write_text("s SATISFIABLE\nv " + " ".join(map(str, model))
                                        + " 0\n")
    run = run_pzc("decode", url, "--model", "model.out", "--format", "json")
    assert run.returncode == 0, run.stderr
    obj, = json_lines(run)
    assert (obj["spec"], obj["status"], obj["verified"]) == ("nurikabe", "solved", True)
    assert CHECKS["nurikabe"](NURIKABE, obj["grid"])
    # a bad URL is located there too, and one command takes one instance
    run = run_pzc("dimacs", BAD)
    assert run.returncode == 2 and run.stderr.splitlines()[0] == BAD_AT
    run = run_pzc("dimacs", url, urls["akari"])
    assert run.returncode == 2 and "takes one INSTANCE" in run.stderr


def test_a_bare_url_whose_reading_runs_out_of_time_names_its_spec(run_pzc):
    side = 1500           # 2.25 M cells: building the board takes longer than the limit
    url = f"https://puzz.link/p?nurikabe/{side}/{side}/" + "z" * (side * side // 20)
    run = run_pzc("solve", url, "--timeout", "0.5", "--format", "json")
    assert run.returncode == 3, run.stderr
    obj, = json_lines(run)
    assert (obj["instance"], obj["spec"], obj["status"]) == (url, "nurikabe", "timeout")
    assert obj["stats"]["backend"] == "sat" and obj["stats"]["variables"] is None
