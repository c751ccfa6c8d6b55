"""pzc's answers to Akari, Hitori, Kurodoko, Kurotto, Norinori, Heyawake,
Shimaguni and LITS, checked by puzz.link's own rule checker (pzprjs).

Boards come from the brute-force tests' generators (those with an answer) and
specs/examples; pzc lists up to two answers of each.  Each board is written
as a puz.link URL by formats' encoders, opened in pzprjs (npm `pzpr`, through
$PZPR_NODE_MODULES or /work/pzprnode/node_modules), the answer is set there
(cell.setQans(1) for a shaded cell or a light) and pzprjs's check(true) must
say complete; on a board with one answer, the answer with one cell flipped
must be refused.  Skipped where node or the package is absent.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from conftest import EXAMPLES, run_cli
from test_formats import pzpr_modules
import test_genre_regions as reg
import test_genre_shading as sh
from pzc.formats import encode_layers, make_url
from pzc.formats.codecs import normalize_regions, rooms_of, top_cell

CHECK = r"""
const path = require('path');
const pzpr = require(path.join(process.argv[2], 'pzpr'));
let input = '';
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const out = JSON.parse(input).map(job => {
    const p = new pzpr.Puzzle();
    p.open(job.url);
    job.marked.forEach(i => p.board.cell[i].setQans(1));
    const res = p.check(true);
    return {complete: !!res.complete, text: res.text, url: p.getURL()};
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def token(t):
    return "-" if t in ("-", ".") else t


def url_of(genre, clues, ids):
    """A puzz.link URL of a board: clues a grid of tokens or None, ids a grid of region ids or None."""
    grid = clues or ids
    rows, cols = len(grid), len(grid[0])
    at = [(r, c) for r in range(rows) for c in range(cols)]
    if genre == "akari":
        layers, codecs = [{x: -2 if clues[x[0]][x[1]] == "x" else clues[x[0]][x[1]]
                           for x in at if token(clues[x[0]][x[1]]) != "-"}], ["cells4"]
    elif genre in ("hitori", "kurodoko", "kurotto"):
        layers = [{x: -2 if clues[x[0]][x[1]] == "?" else clues[x[0]][x[1]]
                   for x in at if token(clues[x[0]][x[1]]) != "-"}]
        codecs = ["hitori" if genre == "hitori" else "number16"]
    else:
        rooms = normalize_regions({x: ids[x[0]][x[1]] for x in at}, rows, cols)
        layers, codecs = [rooms], ["border"]
        if clues is not None:           # the room's number moves to pzprjs's top cell
            numbers = {}
            for room in rooms_of(rooms, rows, cols):
                given = [clues[r][c] for r, c in room if clues[r][c] != "-"]
                if given:
                    numbers[top_cell(room)] = -2 if given[0] == "?" else given[0]
            layers.append(numbers)
            codecs.append("roomnumber16")
    kind = "akari" if genre == "akari" else genre
    return make_url(kind, cols, rows, encode_layers(codecs, layers, rows, cols))


def marked(rows):
    """Indices (reading order) of the '#' or '*' cells of printed rows."""
    cells = [row.split() if " " in row else list(row) for row in rows]
    width = len(cells[0])
    return [r * width + c for r, row in enumerate(cells) for c, t in enumerate(row) if t in "#*"]


def boards():
    """(genre, clue grid or None, region grid or None, instance text) of each board."""
    out = []
    rng = random.Random(30)
    for genre in ("akari", "hitori", "kurodoko", "kurotto"):
        make = getattr(sh, genre + "_board")
        for _ in range(12):
            grid = make(rng, rng.randint(2, 5), rng.randint(2, 5))
            out.append((genre, grid, None, sh.board_text(grid)))
    for _ in range(16):
        h, w = rng.randint(3, 5), rng.randint(3, 5)
        ids = reg.random_regions(rng, h, w, max(1, h * w // rng.choice([3, 4])))
        out.append(("norinori", None, ids, reg.layered_text((None, ids))))
        ids, _ = reg.planted_lits(rng, 5, 5, 4)
        out.append(("lits", None, ids, reg.layered_text((None, ids))))
        for genre in ("heyawake", "shimaguni"):
            clues, ids = getattr(reg, genre + "_board")(rng, rng.randint(2, 5), rng.randint(2, 5))
            out.append((genre, clues, ids, reg.layered_text((clues, ids))))
    return out


def example_boards():
    """The shipped examples, read back into grids (comment lines dropped)."""
    out = []
    for genre in ("akari", "hitori", "kurodoko", "kurotto", "norinori", "heyawake", "shimaguni", "lits"):
        for path in sorted((EXAMPLES / genre).iterdir()):
            lines = [l for l in path.read_text().splitlines() if l.strip() and not l.startswith("# ")]
            w, h = map(int, lines[0].split())
            rows = [[int(t) if t.isdigit() else t for t in l.split()] for l in lines[1:]]
            if genre in ("norinori", "lits"):
                out.append((genre, None, rows[:h], path.read_text()))
            elif genre in ("heyawake", "shimaguni"):
                out.append((genre, rows[:h], rows[h:2 * h], path.read_text()))
            else:
                out.append((genre, rows[:h], None, path.read_text()))
    return out


@pytest.fixture(scope="module")
def node_modules():
    modules = pzpr_modules()
    if not shutil.which("node") or modules is None:
        pytest.skip("needs node and the npm package pzpr (set PZPR_NODE_MODULES)")
    return modules


def test_answers_pass_pzprjs_check(node_modules, tmp_path):
    jobs, expect = [], []
    by_genre = {}
    for b in boards() + example_boards():
        by_genre.setdefault(b[0], []).append(b)
    for genre, items in by_genre.items():
        path = tmp_path / f"{genre}.txt"
        path.write_text("".join(text if text.endswith("\n") else text + "\n" for *_, text in items))
        run = run_cli("count", genre, path, "--show", "--limit", "2", "--format", "json")
        assert run.returncode == 0, run.stderr
        for (g, clues, ids, _), line in zip(items, run.stdout.splitlines()):
            got = json.loads(line)
            url = url_of(genre, clues, ids)
            for rows in got["solutions"]:
                jobs.append({"url": url, "marked": marked(rows)})
                expect.append((True, genre, rows))
            if got["count"] == 1 and got["complete"] and marked(got["solutions"][0]):
                # the only answer less one of its marks (a mark on a clue pzprjs could ignore)
                jobs.append({"url": url, "marked": marked(got["solutions"][0])[1:]})
                expect.append((False, genre, got["solutions"][0]))
    script = tmp_path / "check.js"
    script.write_text(CHECK)
    run = subprocess.run(["node", str(script), str(node_modules)], input=json.dumps(jobs),
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    seen = {}
    for job, res, (ok, genre, rows) in zip(jobs, results, expect):
        assert res["complete"] == ok, (genre, job["url"], rows, res["text"])
        seen[(genre, ok)] = seen.get((genre, ok), 0) + 1
    # every genre had answers checked and a wrong answer refused
    for genre in by_genre:
        assert seen.get((genre, True), 0) >= 5 and seen.get((genre, False), 0) >= 1, (genre, sorted(seen.items()))
