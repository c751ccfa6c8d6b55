"""puzz.link's formats in the command line: URLs, files of URLs and pzprv3
files read for the spec their `url`/`file` lines describe, `pzc solve URL`
without a spec, `pzc convert` back to URLs, files and text; checked against
pzprjs (puzz.link's own engine) where node has it: it opens what we write,
writes what we read, and accepts pzc's answers."""

from __future__ import annotations

import json
import random

import pytest

import generators as gen
import pzprjs
from pzc import api
from pzc.formats import binding as puzzlink
from pzc.runtime.errors import Source


def lattice_sides(rows: list) -> list:
    """The loop of a printed Slitherlink lattice as pairs of dots."""
    out = []
    for r, row in enumerate(rows):
        for k, ch in enumerate(row):
            if ch == "-":
                out.append(((r // 2, k // 2), (r // 2, k // 2 + 1)))
            elif ch == "|":
                out.append(((r // 2, k // 2), (r // 2 + 1, k // 2)))
    return out


def answer_ops(spec: str, text_rows: list, grid: list) -> list:
    """pzc's answer as steps on pzprjs's board."""
    cells = gen.board_cells(grid)
    if spec == "nurikabe":
        return [pzprjs.cell(r, c, "setQans", 1) for r, row in enumerate(cells)
                for c, t in enumerate(row) if t == "#"]
    if spec == "sudoku":
        return [pzprjs.cell(r, c, "setAnum", int(t, 36)) for r, row in enumerate(cells)
                for c, t in enumerate(row) if text_rows[r][c] in ".0"]
    if spec == "slitherlink":
        return [pzprjs.side(d, e, "setLineVal", 1) for d, e in lattice_sides(grid)]
    if spec == "numberlink":
        ops = []
        for r, row in enumerate(cells):
            for c, t in enumerate(row):
                for d in ((r, c + 1), (r + 1, c)):
                    if d[0] < len(cells) and d[1] < len(row) and cells[d[0]][d[1]] == t:
                        ops.append(pzprjs.border((r, c), d, "setLineVal", 1))
        return ops
    raise ValueError(spec)


def made_instances(rng) -> list:
    """(spec, text) of instances the project makes, a few per genre."""
    out = []
    for _ in range(3):
        rows, _ = gen.sudoku_puzzle(3, 0.45, rng)
        out.append(("sudoku", "\n".join(rows) + "\n"))
        out.append(("nurikabe", gen.nurikabe_puzzle(rng.randint(4, 7), rng.randint(4, 7), rng)))
        out.append(("slitherlink", gen.slitherlink_puzzle(rng.randint(3, 6), rng.randint(3, 6),
                                                          rng)))
        text, _ = gen.numberlink_puzzle(rng.randint(4, 7), rng.randint(4, 7), rng, most=9)
        out.append(("numberlink", text))
    return out


def test_urls_written_by_pzc_are_read_by_pzprjs_and_answers_accepted(write, run_pzc):
    pzprjs.need()
    rng = random.Random(5)
    cases = made_instances(rng)
    urls = []
    for k, (spec, text) in enumerate(cases):
        write(f"{k}.txt", text)
        run = run_pzc("convert", spec, f"{k}.txt", "--format", "url")
        assert run.returncode == 0, run.stderr
        urls.append(run.stdout.strip())
    write("urls.txt", "\n".join(urls) + "\n")
    jobs = []
    for (spec, text), url in zip(cases, urls):
        run = run_pzc("solve", url, "--format", "json")       # no spec: by the URL's type
        obj = json.loads(run.stdout)
        assert obj["status"] == "solved" and obj["verified"] and obj["spec"] == spec, obj
        rows = text.splitlines()[1:] if spec == "numberlink" else text.splitlines()
        jobs.append({"open": url, "ops": answer_ops(spec, rows, obj["grid"])})
    verdicts = pzprjs.check(jobs)
    for job, verdict in zip(jobs, verdicts):
        assert "error" not in verdict, verdict
        assert verdict["complete"], (job["open"], verdict["text"])
        # pzprjs writes the same URL back (its host and a trailing '/' aside)
        assert verdict["url"].split("?", 1)[1].rstrip("/") == job["open"].split("?", 1)[1].rstrip("/")


def test_a_wrong_answer_is_refused_by_pzprjs(write, run_pzc):
    """The judge is real: one shaded cell taken away is not accepted."""
    pzprjs.need()
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    obj = json.loads(run_pzc("solve", url, "--format", "json").stdout)
    ops = answer_ops("nurikabe", [], obj["grid"])
    good, bad = pzprjs.check([{"open": url, "ops": ops}, {"open": url, "ops": ops[1:]}])
    assert good["complete"] and not bad["complete"]


def test_pzprjs_files_and_urls_are_read_and_written_back(write, run_pzc):
    pzprjs.need()
    rng = random.Random(9)
    cases = made_instances(rng)
    paths = []
    for k, (spec, text) in enumerate(cases):
        write(f"{k}.txt", text)
        url = run_pzc("convert", spec, f"{k}.txt").stdout.strip()
        paths.append(url)
    verdicts = pzprjs.check([{"open": url} for url in paths])
    for k, ((spec, text), verdict) in enumerate(zip(cases, verdicts)):
        # pzprjs's own file, read by pzc, written by pzc as pzprjs wrote it
        write(f"{k}.pzp", verdict["file"])
        run = run_pzc("convert", f"{k}.pzp", "--format", "pzprv3")
        assert run.returncode == 0, run.stderr
        if verdict["file"].startswith("pzprv3\n"):     # not Slitherlink's pzprv3.1 sections
            assert run.stdout == verdict["file"].replace("\r\n", "\n"), spec
        write(f"{k}.ours", run.stdout)
        assert run_pzc("convert", spec, f"{k}.ours").stdout.strip() == paths[k]
        # and the same puzzle as the text we started from
        back = run_pzc("convert", spec, f"{k}.pzp", "--format", "url").stdout.strip()
        assert back == paths[k]
        # pzprjs's URL, read by pzc, as text, is the instance again
        again = run_pzc("convert", verdict["url"], "--format", "text")
        assert again.returncode == 0, again.stderr
        write(f"{k}.again", again.stdout)
        assert run_pzc("convert", spec, f"{k}.again").stdout.strip() == paths[k]


@pytest.mark.slow
def test_a_file_of_urls_is_one_instance_a_line(write, run_pzc):
    write("u.txt", "# two puzzles\nhttps://puzz.link/p?nurikabe/5/5/g5k2o1k3g\n\n"
                   "http://pzv.jp/p.html?nurikabe/3/3/1g.i3h\n")
    run = run_pzc("solve", "nurikabe", "u.txt", "--format", "json")
    objs = [json.loads(line) for line in run.stdout.splitlines()]
    assert [o["instance"] for o in objs] == ["u.txt#1", "u.txt#2"]
    assert all(o["status"] == "solved" and o["verified"] for o in objs), objs
    # a file of URLs alone picks the spec too
    assert run_pzc("solve", "u.txt").returncode == 0


@pytest.mark.parametrize("args, where, message", [
    (["sudoku", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"], ":1:21:",
     "this is a 'nurikabe' puzzle, but the spec 'sudoku' reads 'sudoku'"),
    (["nurikabe", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3gzz"], ":1:43:",
     "unexpected 'zz' after the puzzle's layers"),
    (["nurikabe", "https://puzz.link/p?nurikabe/5/x/g5"], ":1:32:", "number"),
    (["slitherlink", "https://puzz.link/p?slither/f/2/2/g"], ":1:29:",
     "this URL's flag 'f' asks for a variant of the rules"),
])
def test_bad_urls_are_located_errors(run_pzc, args, where, message):
    run = run_pzc("solve", *args)
    assert run.returncode == 2
    assert where in run.stderr and message in run.stderr, run.stderr
    assert "^" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_bad_line_in_a_file_of_urls(write, run_pzc):
    write("u.txt", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g\nnot a url\n")
    run = run_pzc("solve", "nurikabe", "u.txt")
    assert run.returncode == 2
    assert "u.txt:2:1: error: this file holds puzz.link URLs, one a line" in run.stderr
    # a URL that cannot be read is an error of its own; the others are solved
    write("u.txt", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g\n"
                   "https://puzz.link/p?nurikabe/5/5/g5k2\n")
    run = run_pzc("solve", "nurikabe", "u.txt")
    assert run.returncode == 2
    assert run.stdout.startswith("u.txt#1: solved, verified") and "u.txt#2: error" in run.stdout
    assert "u.txt:2:" in run.stderr and "the body ends" in run.stderr


def test_unknown_type_without_a_spec(run_pzc):
    run = run_pzc("solve", "https://puzz.link/p?tapa/3/3/g")
    assert run.returncode == 2
    assert "no built-in spec reads puzz.link's 'tapa' puzzles" in run.stderr


def test_a_spec_without_a_url_line(write, run_pzc):
    write("t.pz", "puzzle t\nboard square\nshow c: 1\n")
    run = run_pzc("solve", "t.pz", "https://puzz.link/p?nurikabe/3/3/1g.i3h")
    assert run.returncode == 2
    assert "the spec 't' reads no puzz.link URL: it has no 'url' line" in run.stderr
    run = run_pzc("convert", "t.pz", "https://puzz.link/p?nurikabe/3/3/1g.i3h")
    assert run.returncode == 2


@pytest.mark.parametrize("line, where, message", [
    ("url t: nosuch(clues)", (4, 8), "unknown URL codec 'nosuch'"),
    ("url t: number16()", (4, 8), "'number16' fills 1 layer"),
    ("url t: number16(cages)", (4, 17), "a codec's arguments name the spec's layers (clues)"),
    ("url t: number16(clues, [(1, 2, 3)])", (4, 25), "(raw, token) pairs"),
    ("file: nosuch(clues)", (4, 7), "unknown pzprv3 codec 'nosuch'"),
    ("url t: count(clues)\nurl u: count(clues)", (5, 1), "at most one 'url' line"),
])
def test_url_and_file_line_errors(write, line, where, message):
    write("t.pz", f"puzzle t\nboard square\nshow c: 1\n{line}\n")
    with pytest.raises(api.PzcError) as info:
        api.load_spec(str(write("t.pz", f"puzzle t\nboard square\nshow c: 1\n{line}\n")))
    assert (info.value.line, info.value.column) == where
    assert message in info.value.message


def test_puzzlink_type_names_are_spec_names(run_pzc):
    assert api.builtin_aliases()["slither"] == "slitherlink"
    assert api.load_spec("numlin").name == "numberlink"
    listed = run_pzc("specs").stdout
    assert "(puzz.link: slither, slitherlink)" in listed


def test_text_written_by_convert_reads_back_with_layers_and_params(write, run_pzc):
    write("t.pz", """\
        puzzle t
        board square(blank: "-")
        layers clues, regions
        param n
        url t: count(n), border(regions), roomnumber16(clues)
        show c: clue(c)
        """, dedent=True)
    url = "https://puzz.link/p?t/2/4/3/"
    write("i.txt", "4 2 3\n1 -\n- -\n- 2\n- -\na a\nb b\nb c\nc c\n")
    out = run_pzc("convert", "t.pz", "i.txt", "--format", "url")
    assert out.returncode == 0, out.stderr
    text = run_pzc("convert", "t.pz", out.stdout.strip(), "--format", "text")
    # a room's number moves to pzprjs's top cell: the leftmost column's topmost
    assert text.stdout == "2 4 3\n1 -\n- -\n- -\n2 -\n1 1\n2 2\n2 3\n3 3\n"
    assert url in out.stdout


def _examples():
    """(spec, example file) of every built-in spec that puzz.link has."""
    out = []
    for name, path in sorted(api.builtin_specs().items()):
        spec = api.load_spec(name)
        if spec.url is None:
            continue
        folder = path.parent / "examples" / name
        files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
        assert files, f"the built-in spec {name} reads URLs but has no example in {folder}"
        out += [(name, f) for f in files]
    return out


def test_every_genre_writes_its_examples_as_pzprjs_reads_and_writes_them():
    """For every built-in genre with a `url` line that the installed pzprjs
    has: each example instance, written as a URL and as a pzprv3 file, is
    opened by pzprjs, and what pzprjs writes back (its URL and its file)
    reads as the same instance."""
    pzprjs.need()
    jobs, expect = [], []
    examples = _examples()
    # genres of today's puzz.link that the npm package lacks are left out
    known = pzprjs.known_types({api.load_spec(name).url_types[0] for name, _ in examples})
    for name, path in examples:
        spec = api.load_spec(name)
        if spec.url_types[0] not in known:
            continue
        for inst in api.load_instances(spec, str(path)):
            text = _content(inst)
            for form in ("url", "pzprv3"):
                jobs.append({"open": api.write_instance(spec, inst, form)})
                expect.append((name, path, form, text))
    verdicts = pzprjs.check(jobs)
    for (name, path, form, text), verdict in zip(expect, verdicts):
        assert "error" not in verdict, (name, path, form, verdict)
        spec = api.load_spec(name)
        for back in (verdict["url"], verdict["file"]):
            inst = (puzzlink.read_url(spec, back, "url") if back.startswith("http")
                    else puzzlink.read_pzprv3(spec, Source(f"{name}.pzp", back)))
            assert _content(inst) == text, (name, path, form, back)


def _content(inst):
    """What an instance holds, whatever format it came from."""
    g = inst.geometry
    layers = {k: dict(v) for k, v in inst.layers.items()}
    if "regions" in layers:         # the same division, whatever the ids
        number = {}
        layers["regions"] = {c: number.setdefault(v, len(number))
                             for c, v in sorted(layers["regions"].items())}
    return (g.width, g.height), inst.clues, layers, inst.params


def test_a_file_whose_options_line_changes_the_rules_is_refused(write, run_pzc):
    """Today's puzz.link writes Country Road as pzprv3.2 with an options line:
    an empty one reads as the standard rules, 'country_empty' is refused."""
    spec = api.load_spec("countryroad")
    inst = api.load_instances(spec, str(api.builtin_specs()["countryroad"].parent / "examples"
                                        / "countryroad" / "small.txt"))[0]
    lines = api.write_instance(spec, inst, "pzprv3").split("\n")
    for option, code in (("", 0), ("country_empty", 2)):
        write("c.pzp", "\n".join(["pzprv3.2"] + lines[1:4] + [option] + lines[4:]))
        run = run_pzc("solve", "c.pzp")
        assert run.returncode == code, run.stderr
    assert "option 'country_empty' asks for a variant of the rules" in run.stderr



def test_type_names_with_hyphens_are_read_and_written(write, run_pzc, tmp_path):
    # puzz.link names some types with a hyphen (yajilin-regions)
    write("t.pz", 'puzzle t\nboard square\nurl yajilin-regions, yr: number16(clues)\n'
                  'file yajilin-regions: cellqnum(clues)\nvar x[c in cells]: bool\nshow x\n')
    url = "https://puzz.link/p?yajilin-regions/3/3/g1m"
    out = run_pzc("convert", "t.pz", url, "--format", "pzprv3", "-o", "t.pzprv3")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "t.pzprv3").read_text().split("\n")[:2] == ["pzprv3", "yajilin-regions"]
    back = run_pzc("convert", "t.pz", "t.pzprv3", "--format", "url")
    assert back.returncode == 0, back.stderr
    assert back.stdout.strip() == url
