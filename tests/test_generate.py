"""pzc generate: puzzles made from a spec's `generate` lines.

Each generated puzzle is read back from the text pzc printed, found unique by
pzc on both backends (SAT and Z3), its printed solution judged by this
suite's own checkers (generators.py), and, where puzz.link has the genre,
opened by pzprjs with the answer put on it.  Minimality is checked by a brute
force of the test's own on 4x4 Sudoku.
"""

from __future__ import annotations

import itertools
import json

import pytest

import answers
import pzprjs
from conftest import run_cli
from pzc.tasks.timing import FIRST_AT_LEAST_S

# spec, size, seeds: small boards, so that Z3 re-proves uniqueness quickly
CASES = [("sudoku", "4", 2), ("sudoku", "9", 2), ("slitherlink", "5x4", 2),
         ("akari", "6x6", 2), ("numberlink", "6x5", 2), ("nurikabe", "6x6", 2),
         ("starbattle", "6x6", 2), ("hexiom", "3", 2), ("kurodoko", "6x5", 2),
         ("masyu", "6x6", 2)]


def generated(spec, size, count, seed=11, *more):
    run = run_cli("generate", spec, "--size", size, "--count", count, "--seed", seed,
                  "--format", "json", *more)
    assert run.returncode == 0, run.stderr
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(out) == count and all(g["status"] == "generated" for g in out)
    return out


@pytest.fixture(scope="module")
def made():
    return {(spec, size): generated(spec, size, n) for spec, size, n in CASES}


@pytest.mark.slow
@pytest.mark.parametrize("spec,size,n", CASES)
def test_generated_puzzles_read_back_unique_on_both_backends(made, tmp_path, spec, size, n):
    for g in made[(spec, size)]:
        path = tmp_path / "puzzle.txt"
        path.write_text(g["instance"])
        for backend in ("sat", "smt"):
            run = run_cli("unique", spec, path, "--backend", backend, "--format", "json")
            assert run.returncode == 0, (backend, g["instance"], run.stdout, run.stderr)
            assert json.loads(run.stdout)["witnesses"] == [g["solution"]]
        solved = run_cli("solve", spec, path, "--format", "json")
        assert json.loads(solved.stdout)["grid"] == g["solution"]
        if spec in ("sudoku", "numberlink", "slitherlink", "nurikabe", "hexiom"):
            assert answers.valid(spec, judged_text(spec, g["instance"]), g["solution"])
        if spec == "hexiom":              # a hexagon of side 3 (locks opened while unique)
            assert g["instance"].split("\n")[0] == size
            continue
        w, h = (int(x) for x in g["instance"].split("\n")[0].split()[:2])
        assert (w, h) == ((int(size),) * 2 if "x" not in size else tuple(map(int, size.split("x"))))
        if spec != "starbattle":          # its instance is the regions: no clue
            assert g["clues"] == sum(t != "." and t != "-" for t in g["instance"].split()[2:])


def judged_text(spec, text):
    """The instance as generators.py's checkers read it: each row's
    characters side by side; Sudoku and Slitherlink without the header;
    Nurikabe's tokens without it."""
    lines = text.split("\n")
    if spec == "hexiom":
        return text
    if spec == "nurikabe":
        return "\n".join(lines[1:])
    body = [line.replace(" ", "") for line in lines[1:]]
    return "\n".join(body if spec in ("sudoku", "slitherlink") else [lines[0]] + body)


def sudoku4_grids():
    """Every solved 4x4 Sudoku (288), by brute force."""
    rows = list(itertools.permutations(range(1, 5)))
    out = []
    for grid in itertools.product(rows, repeat=4):
        cols_ok = all(len({grid[r][c] for r in range(4)}) == 4 for c in range(4))
        boxes_ok = all(len({grid[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
                       for br in (0, 2) for bc in (0, 2))
        if cols_ok and boxes_ok:
            out.append(grid)
    return out


@pytest.mark.slow
def test_sudoku_4x4_puzzles_are_unique_and_minimal_by_brute_force():
    grids = sudoku4_grids()
    assert len(grids) == 288
    for g in generated("sudoku", "4", 4, 3):
        rows = [line.split() for line in g["instance"].split("\n")[1:5]]
        clues = {(r, c): int(t) for r, row in enumerate(rows) for c, t in enumerate(row) if t != "."}

        def fitting(cl):
            return [x for x in grids if all(x[r][c] == v for (r, c), v in cl.items())]
        only = fitting(clues)
        assert len(only) == 1
        assert ["".join(map(str, row)) for row in only[0]] == g["solution"]
        for cell in clues:              # minimal: any clue gone leaves two solutions or more
            assert len(fitting({k: v for k, v in clues.items() if k != cell})) >= 2


@pytest.mark.slow
def test_the_same_seed_gives_the_same_puzzles_and_workers_do_not_change_them():
    one = run_cli("generate", "slitherlink", "--size", "5", "--seed", "7", "--count", "3",
                  "--workers", "1")
    again = run_cli("generate", "slitherlink", "--size", "5", "--seed", "7", "--count", "3",
                    "--workers", "2")
    assert one.returncode == again.returncode == 0, one.stderr + again.stderr
    strip = lambda text: [l for l in text.splitlines() if not l.startswith("#")]
    assert strip(one.stdout) == strip(again.stdout)
    puzzles = "\n".join(strip(one.stdout)).split("\n\n")
    assert len({p.strip() for p in puzzles if p.strip()}) == 3      # three different puzzles
    # puzzle k of seed S is the puzzle of seed S + k
    third = run_cli("generate", "slitherlink", "--size", "5", "--seed", "9")
    assert "\n".join(strip(third.stdout)).strip() == puzzles[-1].strip()


@pytest.mark.parametrize("spec,size,solver", [("sudoku", "9", "cadical195"),
                                              ("sudoku", "9", "glucose4"),
                                              ("sudoku", "9", "minisat22"),
                                              ("numberlink", "8", "cadical195"),
                                              ("numberlink", "8", "glucose4")])
def test_seeds_draw_different_solutions(spec, size, solver):
    """The random phases reach the solver: with every clue kept (no random
    removal order), five seeds give five solutions.  CaDiCaL ignored phases
    set before its clauses, and the MiniSat family phases on the spec's
    variables alone: every seed drew the same Sudoku."""
    out = generated(spec, size, 5, 1, "--keep-clues", "--solver", solver)
    assert len({json.dumps(g["solution"]) for g in out}) == 5


def test_generated_urls_open_in_pzprjs_with_the_answer_accepted():
    pzprjs.need()
    jobs = []
    for g in generated("akari", "7x6", 3, 5):
        ops = [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(g["solution"])
               for c, t in enumerate(row.split() if " " in row else row) if t == "*"]
        jobs.append({"open": g["url"], "ops": ops})
    for g in generated("sudoku", "9", 2, 5):
        ops = [pzprjs.cell(r, c, "setAnum", int(t)) for r, row in enumerate(g["solution"])
               for c, t in enumerate(row.split() if " " in row else row)]
        jobs.append({"open": g["url"], "ops": ops})
    for g in generated("nurikabe", "8x7", 2, 5):
        ops = [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(g["solution"])
               for c, t in enumerate(row.split() if " " in row else row) if t == "#"]
        jobs.append({"open": g["url"], "ops": ops})
    for g, verdict in zip(jobs, pzprjs.check(jobs)):
        assert verdict.get("complete"), (g, verdict)


@pytest.mark.slow
def test_generate_errors(tmp_path):
    run = run_cli("generate", "hashi")
    assert run.returncode == 2 and "no 'generate' lines" in run.stderr
    run = run_cli("generate", "sudoku", "--size", "ten")
    assert run.returncode == 2 and "expected WxH or N" in run.stderr
    run = run_cli("generate", "sudoku", "--param", "stars=2")
    assert run.returncode == 2 and "no parameter 'stars'" in run.stderr
    run = run_cli("generate", "sudoku", "--count", "0")
    assert run.returncode == 2 and "at least 1" in run.stderr
    spec = tmp_path / "bad.pz"
    spec.write_text('puzzle bad\nboard square\nvar x[c in cells]: bool\nshow x\n'
                    'rule r: all c in cells: x[c]\ngenerate rules r, nosuch\n'
                    'generate clue c: x[c]\n')
    run = run_cli("generate", spec, "--size", "3")
    assert run.returncode == 2
    assert "bad.pz:6:19" in run.stderr and "no rule named 'nosuch'" in run.stderr
    assert "^" in run.stderr and "Traceback" not in run.stderr


def test_pzprjs_opens_generated_numberlink_slitherlink_and_star_battle_urls():
    pzprjs.need()
    urls = [g["url"] for spec, size, more in [("numberlink", "7x6", []),
                                                ("slitherlink", "6x5", []),
                                                ("starbattle", "6x6", [])]
            for g in generated(spec, size, 2, 8, *more)]
    for url, verdict in zip(urls, pzprjs.check([{"open": u} for u in urls])):
        assert "error" not in verdict, (url, verdict)
        w, h = (int(x) for x in url.split("?")[1].split("/")[1:3])
        assert (verdict["cols"], verdict["rows"]) == (w, h)
        # pzprjs writes the same puzzle back
        assert verdict["url"].split("?")[1].split("/", 1)[1] == url.split("?")[1].split("/", 1)[1]


@pytest.mark.slow
def test_a_time_limit_per_puzzle_is_kept():
    # 2-star regions on 10x10 take seconds to draw: a limit of 1 s stops the
    # first, counted from the process start (the start-up's imports take a
    # part of it) but leaving the puzzle at least FIRST_AT_LEAST_S
    run = run_cli("generate", "starbattle", "--param", "stars=2", "--timeout", "1", "--seed", "2",
                  "--format", "json")
    assert run.returncode == 3, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "timeout" and out["instance"] is None
    assert FIRST_AT_LEAST_S <= out["stats"]["seconds"] <= 1.0


def test_a_board_the_spec_refuses_is_a_plain_error():
    run = run_cli("generate", "sudoku", "--size", "8", "--seed", "1")
    assert run.returncode == 2
    assert run.stderr.strip() == ("seed 1: pzc: error: the generated board: a Sudoku board is "
                                  "n x n with n a square (4, 9, 16, 25)")


def test_a_solver_that_solves_once_is_refused_plainly():
    run = run_cli("generate", "sudoku", "--solver", "kissat404", "--seed", "1")
    assert run.returncode == 2 and "kissat404 solves once" in run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr


RIPPLE = """\
6 6
- - 4 - 2 -
- - - - - -
4 - - - - -
- - - - - -
- 2 - 5 - -
- - - 1 - -
a b c c c c
a b d e f f
g b d e f f
g g h e e f
g g i i j j
k k i i i j
"""


@pytest.mark.slow
def test_like_keeps_the_instance_regions_and_draws_new_numbers(tmp_path):
    """Ripple Effect draws no regions: --like takes them from an instance,
    and each puzzle made in them is unique on both backends and accepted by
    pzprjs with its answer."""
    like = tmp_path / "like.txt"
    like.write_text(RIPPLE)
    run = run_cli("generate", "ripple", "--like", like, "--count", "3", "--seed", "4",
                  "--format", "json")
    assert run.returncode == 0, run.stderr
    out = [json.loads(line) for line in run.stdout.splitlines()]
    regions = RIPPLE.splitlines()[7:]
    for g in out:
        lines = g["instance"].splitlines()
        assert lines[0] == "6 6" and lines[7:] == regions
        assert 0 < g["clues"] < 36
        path = tmp_path / "made.txt"
        path.write_text(g["instance"])
        for backend in ("sat", "smt"):
            check = run_cli("unique", "ripple", path, "--backend", backend, "--format", "json")
            assert check.returncode == 0, (backend, check.stdout, check.stderr)
            assert json.loads(check.stdout)["witnesses"] == [g["solution"]]
    if pzprjs.available():
        jobs = [{"open": g["url"],
                 "ops": [pzprjs.cell(r, c, "setAnum", int(t))
                         for r, row in enumerate(g["solution"])
                         for c, t in enumerate(row.split() if " " in row else row)]}
                for g in out]
        for job, verdict in zip(jobs, pzprjs.check(jobs)):
            assert verdict.get("complete"), (job, verdict)


@pytest.mark.slow
def test_like_takes_the_size_and_parameters(tmp_path):
    sudoku = tmp_path / "four.txt"
    sudoku.write_text("1...\n....\n..3.\n....\n")
    run = run_cli("generate", "sudoku", "--like", sudoku, "--seed", "3", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["instance"].startswith("4 4\n")
    # its regions are drawn anew; its parameter is kept, and --param wins over it
    stars = tmp_path / "stars.txt"
    stars.write_text("6 6 1\n" + "1 1 2 2 3 3\n" * 2 + "4 4 5 5 6 6\n" * 4)
    run = run_cli("generate", "starbattle", "--like", stars, "--seed", "3", "--format", "json")
    assert run.returncode == 0, run.stderr
    g = json.loads(run.stdout)
    assert g["instance"].startswith("6 6 1\n")
    assert all(row.count("*") == 1 for row in g["solution"])
    stars.write_text("10 10 1\n" + "".join(" ".join(str(r + 1) for _ in range(10)) + "\n"
                                          for r in range(10)))
    run = run_cli("generate", "starbattle", "--like", stars, "--param", "stars=2", "--seed", "3",
                  "--format", "json", timeout=300)
    assert run.returncode == 0, run.stderr
    g = json.loads(run.stdout)
    assert g["instance"].startswith("10 10 2\n")
    assert all(row.count("*") == 2 for row in g["solution"])


@pytest.mark.slow
def test_like_errors(tmp_path):
    run = run_cli("generate", "ripple", "--size", "6")
    assert run.returncode == 2
    assert ("reads the layer 'regions', which its generate lines do not draw: take it from "
            "an instance with --like INSTANCE") in run.stderr
    like = tmp_path / "like.txt"
    like.write_text(RIPPLE)
    run = run_cli("generate", "ripple", "--like", like, "--size", "6")
    assert run.returncode == 2 and "--size or by --like, not both" in run.stderr
    run = run_cli("generate", "ripple", "--like", tmp_path / "none.txt")
    assert run.returncode == 2 and "no such instance file" in run.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text(RIPPLE.replace("6 6\n", "6 7\n", 1))
    run = run_cli("generate", "ripple", "--like", bad)
    assert run.returncode == 2 and "bad.txt:" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_draw_out_of_conflicts_starts_again_and_stays_reproducible(monkeypatch):
    """A draw whose solver call runs past its conflict budget starts again
    with new phases and a doubled budget; the count, not a time, decides,
    so the same seed still gives the same puzzle."""
    from pzc import api
    from pzc.tasks.generate import driver as generator
    monkeypatch.setattr(generator, "DRAW_CONFLICTS", 1)
    spec = api.load_spec("sudoku")
    # CaDiCaL's Sudoku draws meet conflicts (Glucose's, with every phase set, may not)
    made = [list(api.generate(spec, (9, None), 1, 5, timeout=60, solver="cadical195"))[0]
            for _ in range(2)]
    assert all(g.status == "generated" for g in made)
    assert made[0].stats.get("restarts", 0) >= 1
    assert made[0].stats == {**made[1].stats, "seconds": made[0].stats["seconds"]}
    assert made[0].instance.tokens == made[1].instance.tokens
    # without a time limit the draw starts in process, and the budget holds there too
    again = list(api.generate(spec, (9, None), 1, 5, solver="cadical195"))[0]
    assert again.instance.tokens == made[0].instance.tokens


HEYAWAKE = """\
6 6
- - - - - -
- - - - - -
- - - - - -
- - - - - -
- - - - - -
- - - - - -
1 2 3 4 4 4
1 5 6 6 6 4
5 5 6 6 6 4
5 7 6 8 9 4
5 7 7 9 9 9
9 9 9 9 9 9
"""

SHIMAGUNI = HEYAWAKE.split("1 2 3")[0] + """\
1 2 2 3 3 4
1 1 5 3 4 4
1 1 5 5 4 4
6 1 1 4 4 4
6 1 7 4 4 4
6 7 7 7 4 4
"""


@pytest.mark.slow
def test_shading_genres_generate_and_pzprjs_accepts_the_answers(tmp_path):
    """Kurodoko, Hitori and Kurotto on a blank board; Heyawake and Shimaguni in the
    rooms of an instance (--like): unique on both backends, the rooms kept,
    and pzprjs accepts each answer."""
    likes = {"heyawake": HEYAWAKE, "shimaguni": SHIMAGUNI}
    made = [("kurodoko", g) for g in generated("kurodoko", "7x6", 2, 3)]
    made += [("hitori", g) for g in generated("hitori", "6x5", 2, 3)]
    made += [("kurotto", g) for g in generated("kurotto", "6x5", 2, 3)]
    for spec, text in likes.items():
        like = tmp_path / f"{spec}.txt"
        like.write_text(text)
        run = run_cli("generate", spec, "--like", like, "--count", "2", "--seed", "3",
                      "--format", "json")
        assert run.returncode == 0, run.stderr
        made += [(spec, json.loads(line)) for line in run.stdout.splitlines()]
    for spec, g in made:
        if spec in likes:
            assert g["instance"].splitlines()[7:] == likes[spec].splitlines()[7:]
        path = tmp_path / "made.txt"
        path.write_text(g["instance"])
        for backend in ("sat", "smt"):
            check = run_cli("unique", spec, path, "--backend", backend, "--format", "json")
            assert check.returncode == 0, (spec, backend, check.stdout, check.stderr)
            assert json.loads(check.stdout)["witnesses"] == [g["solution"]]
    if pzprjs.available():
        jobs = [{"open": g["url"],
                 "ops": [pzprjs.cell(r, c, "setQans", 1)
                         for r, row in enumerate(g["solution"])
                         for c, t in enumerate(row.split() if " " in row else row) if t == "#"]}
                for _, g in made]
        for job, verdict in zip(jobs, pzprjs.check(jobs)):
            assert verdict.get("complete"), (job, verdict)


@pytest.mark.slow
def test_a_loop_genre_generates_in_the_countries_of_an_instance(tmp_path, examples):
    """Country Road with --like: the countries kept, a new loop drawn, the
    puzzle unique on both backends."""
    like = examples / "countryroad" / "small.txt"
    run = run_cli("generate", "countryroad", "--like", like, "--count", "2", "--seed", "5",
                  "--format", "json")
    assert run.returncode == 0, run.stderr
    countries = like.read_text().strip().splitlines()[-6:]
    for line in run.stdout.splitlines():
        g = json.loads(line)
        assert g["instance"].strip().splitlines()[-6:] == countries
        path = tmp_path / "made.txt"
        path.write_text(g["instance"])
        for backend in ("sat", "smt"):
            check = run_cli("unique", "countryroad", path, "--backend", backend,
                            "--format", "json")
            assert check.returncode == 0, (backend, check.stdout, check.stderr)
            assert json.loads(check.stdout)["witnesses"] == [g["solution"]]
