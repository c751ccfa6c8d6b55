"""Akari, Hitori, Kurodoko, Kurotto, Norinori, Heyawake, Shimaguni and LITS
through puzz.link: URLs pzprjs wrote, and answers its rule checker judges.

Boards come from tests/shaded.py (the brute-force tests' boards) and specs/examples.  pzc
writes each as a puzz.link URL; pzprjs (npm `pzpr`, tests/pzprjs.py) opens it
and writes it back; pzc counts the answers of the URLs pzprjs wrote (a file
of URLs), which must be those of the text boards (the same cells marked);
each answer (up to two a board) is set in pzprjs (setQans 1 on a shaded cell
or a light) and its check(true) must say complete, and on a board with one
answer, that answer less one mark must be refused.  Skipped without node
and pzpr.
"""

from __future__ import annotations

import json
import random

import pzprjs
import shaded
from conftest import EXAMPLES, run_cli
from pzc import api

GENRES = ("akari", "hitori", "kurodoko", "kurotto", "norinori", "heyawake", "shimaguni", "lits")


def marked(rows):
    """The (row, column) cells a printed answer marks '#' (shaded) or '*' (a light)."""
    cells = [row.split() if " " in row else list(row) for row in rows]
    return [(r, c) for r, row in enumerate(cells) for c, t in enumerate(row) if t in "#*"]


def ops(rows):
    """The answer as pzprjs steps: setQans 1 on each marked cell."""
    return [pzprjs.cell(r, c, "setQans", 1) for r, c in marked(rows)]


def boards():
    """{genre: [instance text]}: generated boards, then the examples."""
    out = {g: [] for g in GENRES}
    rng = random.Random(30)
    for genre in ("akari", "hitori", "kurodoko", "kurotto"):
        make = getattr(shaded, genre + "_board")
        for _ in range(12):
            out[genre].append(shaded.board_text(make(rng, rng.randint(2, 5), rng.randint(2, 5))))
    for _ in range(16):
        h, w = rng.randint(3, 5), rng.randint(3, 5)
        ids = shaded.random_regions(rng, h, w, max(1, h * w // rng.choice([3, 4])))
        out["norinori"].append(shaded.layered_text((None, ids)))
        out["lits"].append(shaded.layered_text((None, shaded.planted_lits(rng, 5, 5, 4)[0])))
        for genre in ("heyawake", "shimaguni"):
            board = getattr(shaded, genre + "_board")(rng, rng.randint(2, 5), rng.randint(2, 5))
            out[genre].append(shaded.layered_text(board))
    for genre in GENRES:
        out[genre] += [p.read_text() for p in sorted((EXAMPLES / genre).iterdir())]
    return out


def count(genre, path):
    run = run_cli("count", genre, path, "--show", "--limit", "2", "--format", "json")
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_urls_pzprjs_wrote_solve_and_pzprjs_accepts_the_answers(tmp_path):
    pzprjs.need()
    files, urls = {}, []
    for genre, items in boards().items():
        files[genre] = tmp_path / f"{genre}.txt"
        files[genre].write_text("".join(t if t.endswith("\n") else t + "\n" for t in items))
        spec = api.load_spec(genre)
        insts = api.load_instances(spec, str(files[genre]))
        assert len(insts) == len(items)
        urls += [(genre, api.write_instance(spec, inst, "url")) for inst in insts]
    opened = pzprjs.check([{"open": u} for _, u in urls])
    jobs, expect = [], []
    for genre in GENRES:
        mine = [v["url"] for (g, _), v in zip(urls, opened) if g == genre]
        listing = tmp_path / f"{genre}-urls.txt"
        listing.write_text("".join(u + "\n" for u in mine))
        from_urls, from_text = count(genre, listing), count(genre, files[genre])
        assert len(from_urls) == len(from_text) == len(mine)
        for url, got, want in zip(mine, from_urls, from_text):
            assert (got["count"], got["complete"]) == (want["count"], want["complete"]), url
            if got["complete"]:         # all answers listed: the same cells marked
                assert (sorted(map(marked, got["solutions"]))
                        == sorted(map(marked, want["solutions"])))
            for rows in got["solutions"]:
                jobs.append({"open": url, "ops": ops(rows)})
                expect.append((True, genre, rows))
            if got["count"] == 1 and got["complete"] and marked(got["solutions"][0]):
                # the only answer less one of its marks (a mark on a clue pzprjs could ignore)
                jobs.append({"open": url, "ops": ops(got["solutions"][0])[1:]})
                expect.append((False, genre, got["solutions"][0]))
    seen = {}
    for job, verdict, (ok, genre, rows) in zip(jobs, pzprjs.check(jobs), expect):
        assert verdict.get("complete") == ok, (genre, job["open"], rows, verdict)
        seen[(genre, ok)] = seen.get((genre, ok), 0) + 1
    # every genre had answers checked and a wrong answer refused
    for genre in GENRES:
        assert seen.get((genre, True), 0) >= 5 and seen.get((genre, False), 0) >= 1, \
            (genre, sorted(seen.items()))
