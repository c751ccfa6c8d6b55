"""Reading puzzles from pictures nobody here drew (issue 30): puzz.link's own
engine pzprjs (npm `pzpr`) draws each puzzle as SVG (`toBuffer('svg', 0,
cellsize)`), librsvg (rsvg-convert) rasterizes it at a zoom, and `pzc read`
must give back the same puzzle (the same puzz.link URL) or a located
"unsure" error, never another puzzle.

The puzzles are the project's own: every built-in spec whose clues pzc reads
from pictures and whose genre pzprjs has, its example(s) in specs/examples
and ``--generated N`` puzzles `pzc generate` makes (seeds 1..N) for the
specs that generate.

    python bench/pictures.py                        # 24/36/48 px, zooms 0.8 1.0 1.3
    python bench/pictures.py --genres masyu akari --generated 0 --show-failures
    python bench/pictures.py --generated 0 --spoil jpeg60     # JPEG of quality 60

Needs node, the npm package pzpr (tests/pzprjs.py finds it) and rsvg-convert.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import pzprjs  # noqa: E402  (the tests' judge: node and pzpr)
from pzc import api  # noqa: E402
from pzc.formats.pictures.reading import readable  # noqa: E402


def genres() -> list:
    """The built-in specs pzc reads pictures of (square boards with a URL)."""
    out = []
    for name in api.builtin_specs():
        spec = api.load_spec(name)
        if spec.board.kind == "square" and readable(spec) is None:
            out.append(name)
    return out


def puzzles(name: str, generated: int) -> list:
    """(label, URL) of the spec's examples and generated puzzles."""
    spec = api.load_spec(name)
    out = []
    examples = []
    folder = ROOT / "specs" / "examples" / name
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        for inst in api.load_instances(spec, str(path)):
            examples.append(inst)
            out.append((f"{name}/{path.name}", api.write_instance(spec, inst, "url")))
    if generated and getattr(spec, "generate", None):
        # puzzles the size of the first example
        for g in api.generate(spec, None, generated, 1, 60.0, {}, like=examples[0]):
            if g.status == "generated":
                out.append((f"{name}/seed{g.seed}", api.write_instance(spec, g.instance, "url")))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--genres", nargs="*", help="spec names (default: every readable genre)")
    ap.add_argument("--generated", type=int, default=2, help="generated puzzles a spec (0: none)")
    ap.add_argument("--sizes", default="24,36,48", help="pzprjs cell sizes in pixels")
    ap.add_argument("--zooms", default="0.8,1.0,1.3", help="rsvg-convert zooms")
    ap.add_argument("--spoil", choices=["none", "blur", "jpeg80", "jpeg60"], default="none",
                    help="blur each picture (Gaussian, sigma 0.8) or save it as JPEG of that quality")
    ap.add_argument("--show-failures", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    zooms = [float(z) for z in args.zooms.split(",")]
    names = args.genres or genres()
    known = pzprjs.known_types({api.load_spec(n).url_types[0] for n in names})
    names = [n for n in names if api.load_spec(n).url_types[0] in known]
    api.read_picture(api.load_spec("nurikabe"), _warm_picture())   # the classifier's first use
    totals = {"pictures": 0, "exact": 0, "unsure": 0, "wrong": 0, "error": 0}
    times = []
    print(f"{'genre':16} {'puzzles':>7} {'pictures':>8} {'exact':>6} {'unsure':>6} "
          f"{'wrong':>5} {'slowest s':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            spec = api.load_spec(name)
            found = puzzles(name, args.generated)
            jobs = [{"open": url, "cellsize": size} for _, url in found for size in sizes]
            svgs = pzprjs.svgs(jobs)
            row = {"pictures": 0, "exact": 0, "unsure": 0, "wrong": 0, "error": 0}
            slowest = 0.0
            for k, svg in enumerate(svgs):
                label, url = found[k // len(sizes)]
                size = sizes[k % len(sizes)]
                for zoom in zooms:
                    png = Path(tmp) / f"{name}-{k}-{zoom}.png"
                    png.write_bytes(pzprjs.rasterize(svg, zoom))
                    png = spoil(png, args.spoil)
                    row["pictures"] += 1
                    start = time.perf_counter()
                    try:
                        got = api.read_picture(spec, str(png))
                        read = api.write_instance(spec, got.instance, "url")
                        kind = "exact" if read == url else "wrong"
                        detail = read
                    except api.PzcError as e:
                        kind = "unsure" if "unsure" in e.message else "error"
                        detail = e.format()
                    took = time.perf_counter() - start
                    times.append(took)
                    slowest = max(slowest, took)
                    row[kind] += 1
                    if kind != "exact" and args.show_failures:
                        print(f"  {kind}: {label} {size}px zoom {zoom}: {url}\n    {detail}")
            for key in totals:
                totals[key] += row[key]
            print(f"{name:16} {len(found):7} {row['pictures']:8} {row['exact']:6} "
                  f"{row['unsure']:6} {row['wrong']:5} {slowest:9.2f}"
                  + (f"  ({row['error']} other errors)" if row["error"] else ""), flush=True)
    n = totals["pictures"]
    print(f"{'all':16} {'':7} {n:8} {totals['exact']:6} {totals['unsure']:6} "
          f"{totals['wrong']:5} {max(times, default=0):9.2f}")
    print(f"exact {totals['exact'] / max(n, 1):.1%}, unsure {totals['unsure']}, wrong "
          f"{totals['wrong']}, other errors {totals['error']}; median read "
          f"{statistics.median(times) if times else 0:.3f} s, slowest {max(times, default=0):.2f} s")
    return 0


def spoil(png: Path, how: str) -> Path:
    """The picture blurred, or saved again as a JPEG of some quality."""
    if how == "none":
        return png
    import cv2
    image = cv2.imread(str(png), cv2.IMREAD_COLOR)
    if how == "blur":
        cv2.imwrite(str(png), cv2.GaussianBlur(image, (3, 3), 0.8))
        return png
    jpeg = png.with_suffix(".jpg")
    cv2.imwrite(str(jpeg), image, [cv2.IMWRITE_JPEG_QUALITY, int(how[4:])])
    return jpeg


def _warm_picture() -> str:
    """A small picture to read once before timing (the classifier is trained
    or loaded at first use)."""
    svg = pzprjs.svgs([{"open": "https://puzz.link/p?nurikabe/3/3/g5k", "cellsize": 36}])[0]
    path = Path(tempfile.mkstemp(suffix=".png")[1])
    path.write_bytes(pzprjs.rasterize(svg, 1.0))
    return str(path)


if __name__ == "__main__":
    sys.exit(main())
