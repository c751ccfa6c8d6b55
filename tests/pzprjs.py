"""puzz.link's own engine, pzprjs (npm package `pzpr`), as a judge the tests
did not write: open a URL or a pzprv3 file, put an answer on the board, and
ask pzprjs's rule checker whether it is complete and correct.

    import pzprjs
    pzprjs.need()                                   # skip the test without node + pzpr
    ops = [pzprjs.cell(r, c, "setQans", 1) for r, c in shaded]
    verdict, = pzprjs.check([{"open": url, "ops": ops}])
    assert verdict["complete"], verdict["text"]

pzprjs is found through $PZPR_NODE_MODULES (a node_modules folder holding
`pzpr`), else /work/pzprnode/node_modules or ../pzprnode/node_modules beside
the repository, or .cache/pzprnode/node_modules in it (where .ci/run installs
it).  Every call is one node process for many puzzles.

Positions are pzprjs's: cell (r, c) is at (2c+1, 2r+1); the border between
two cells, or a cell side, halfway between their centres.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_SCRIPT = r"""
const pzpr = require(require('path').join(process.argv[2], 'pzpr'));
let input = '';
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const out = [];
  for (const job of JSON.parse(input)) {
    try {
      const p = new pzpr.Puzzle();
      p.open(job.open);
      for (const [kind, x, y, method, value] of job.ops || []) {
        const piece = kind === 'c' ? p.board.getc(x, y) : p.board.getb(x, y);
        if (piece.isnull) throw new Error(`no ${kind} at (${x}, ${y})`);
        piece[method](value);
      }
      const res = p.check(true);
      out.push({type: p.pid, cols: p.board.cols, rows: p.board.rows,
                complete: !!res.complete, code: res.lastcode || null, text: res.text || '',
                url: p.getURL(), file: p.getFileData()});
    } catch (e) {
      out.push({error: String(e && e.message || e)});
    }
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def modules() -> Path | None:
    """The node_modules folder that holds pzpr, or None."""
    for candidate in (os.environ.get("PZPR_NODE_MODULES"), "/work/pzprnode/node_modules",
                      str(ROOT.parent / "pzprnode" / "node_modules"),
                      str(ROOT / ".cache" / "pzprnode" / "node_modules")):
        if candidate and (Path(candidate) / "pzpr").is_dir():
            return Path(candidate)
    return None


def available() -> bool:
    return shutil.which("node") is not None and modules() is not None


def need():
    """Skip the calling test where node or pzpr is missing."""
    if not available():
        pytest.skip("needs node and the npm package pzpr (set PZPR_NODE_MODULES)")


@functools.lru_cache(maxsize=None)
def cell(r: int, c: int, method: str, value) -> list:
    """An answer step on cell (r, c): e.g. setQans 1 (shade), setAnum n (a number)."""
    return ["c", 2 * c + 1, 2 * r + 1, method, value]


def border(a: tuple, b: tuple, method: str, value) -> list:
    """An answer step on the border between neighbouring cells a and b (a line
    through their centres is setLineVal 1 there; a wall is setQans 1)."""
    return ["b", a[1] + b[1] + 1, a[0] + b[0] + 1, method, value]


def side(d: tuple, e: tuple, method: str, value) -> list:
    """An answer step on the cell side between two neighbouring dots d and e
    ((r, k) corners of cells, as pzc's segments): Slitherlink's loop."""
    return ["b", d[1] + e[1], d[0] + e[0], method, value]


def check(jobs: list, timeout: float = 300) -> list:
    """Each job {"open": URL or pzprv3 text, "ops": [steps]} -> pzprjs's
    verdict {"type", "cols", "rows", "complete", "code", "text", "url",
    "file"} or {"error"}."""
    return _run_script("pzprjs-check.js", _SCRIPT, jobs, timeout)


def _run_script(name: str, text: str, jobs: list, timeout: float) -> list:
    """The JSON list a node script (kept as .cache/NAME) prints for ``jobs``
    given on its standard input, pzpr's folder its argument."""
    need()
    script = ROOT / ".cache" / name
    script.parent.mkdir(exist_ok=True)
    if not script.exists() or script.read_text() != text:
        script.write_text(text)
    run = subprocess.run(["node", str(script), str(modules())], input=json.dumps(jobs),
                         capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def known_types(names) -> set:
    """The puzz.link type names among ``names`` that this pzprjs knows (the
    npm package 0.10.1 lacks many of today's puzz.link types, such as
    geradeweg); one node run for them all.  For one type: ``name in
    known_types({name})``."""
    need()
    run = subprocess.run(
        ["node", "-e", "const pzpr = require(require('path').join(process.argv[1], 'pzpr'));"
         "process.stdout.write(JSON.stringify(JSON.parse(process.argv[2])"
         ".filter(n => pzpr.variety.exists(n))));", str(modules()), json.dumps(sorted(names))],
        capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout))


_SVG_SCRIPT = r"""
const pzpr = require(require('path').join(process.argv[2], 'pzpr'));
let input = '';
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const out = [];
  for (const job of JSON.parse(input)) {
    try {
      const p = new pzpr.Puzzle();
      p.open(job.open);
      out.push({svg: String(p.toBuffer('svg', 0, job.cellsize))});
    } catch (e) {
      out.push({error: String(e && e.message || e)});
    }
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def svgs(jobs: list, timeout: float = 300) -> list:
    """Each job {"open": URL or pzprv3 text, "cellsize": pixels} -> pzprjs's
    own picture of the puzzle, as puzz.link draws it, an SVG text (or
    {"error"}): `toBuffer('svg', 0, cellsize)`."""
    return [job.get("svg", job) for job in _run_script("pzprjs-svg.js", _SVG_SCRIPT, jobs, timeout)]


def rasterize(svg: str, zoom: float = 1.0) -> bytes:
    """A PNG of an SVG text at a zoom, drawn by librsvg (rsvg-convert, Debian's
    librsvg2-bin); the test is skipped where it is absent."""
    if shutil.which("rsvg-convert") is None:
        pytest.skip("needs rsvg-convert (Debian's librsvg2-bin)")
    run = subprocess.run(["rsvg-convert", "-z", str(zoom), "-b", "white"], input=svg.encode(),
                         capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout
