"""Reading puzzles from screenshots of puzz.link's page (issue 30): pzprjs
draws each puzzle on a page in headless Chromium as puzz.link's player page
does (its own colours; tests/pzprjs_page.py), Selenium screenshots the
board's box at a cell size and a device scale factor, and `pzc read` must
give back the same puzzle (the same puzz.link URL) or a located "unsure"
error, never another puzzle.

The puzzles are bench/pictures.py's: each readable built-in spec's examples
and ``--generated N`` puzzles `pzc generate` makes (seeds 1..N).

    python bench/pictures_browser.py            # cells 24/32/40 CSS px x scales 1 1.25 1.5
    python bench/pictures_browser.py --genres masyu akari --generated 0 --show-failures
    python bench/pictures_browser.py --keep /tmp/chromium-pics    # keeps the misread PNGs

Needs selenium, chromium, chromium-driver, node and the npm package pzpr.
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
sys.path.insert(0, str(ROOT / "bench"))

import pzprjs  # noqa: E402  (node and pzpr)
import pzprjs_page  # noqa: E402  (the page in Chromium)
from pictures import genres, puzzles  # noqa: E402  (bench/pictures.py's puzzles)
from pzc import api  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--genres", nargs="*", help="spec names (default: every readable genre)")
    ap.add_argument("--generated", type=int, default=2, help="generated puzzles a spec (0: none)")
    ap.add_argument("--sizes", default="24,32,40", help="pzprjs cell sizes in CSS pixels")
    ap.add_argument("--scales", default="1.0,1.25,1.5", help="device scale factors")
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument("--keep", help="a folder to keep the pictures not read exactly in")
    args = ap.parse_args()
    lacking = pzprjs_page.missing()
    if lacking:
        print(f"pictures_browser: {lacking}", file=sys.stderr)
        return 2
    sizes = [int(s) for s in args.sizes.split(",")]
    scales = [float(z) for z in args.scales.split(",")]
    names = args.genres or genres()
    known = pzprjs.known_types({api.load_spec(n).url_types[0] for n in names})
    names = [n for n in names if api.load_spec(n).url_types[0] in known]
    keep = Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    kinds = ("pictures", "exact", "unsure", "wrong", "error")
    totals = dict.fromkeys(kinds, 0)
    times = []
    print(f"{'genre':16} {'puzzles':>7} {'pictures':>8} {'exact':>6} {'unsure':>6} "
          f"{'wrong':>5} {'slowest s':>9}")
    with pzprjs_page.BoardPage() as page, tempfile.TemporaryDirectory() as tmp:
        _warm_up(page, Path(tmp))
        for name in names:
            spec = api.load_spec(name)
            found = puzzles(name, args.generated)
            row = dict.fromkeys(kinds, 0)
            slowest = 0.0
            for k, (label, url) in enumerate(found):
                for size in sizes:
                    for scale in scales:
                        png = Path(tmp) / f"{name}-{k}-{size}-{scale}.png"
                        png.write_bytes(page.screenshot(url, size, scale))
                        kind, detail, took = read_back(spec, png, url)
                        times.append(took)
                        slowest = max(slowest, took)
                        row["pictures"] += 1
                        row[kind] += 1
                        if kind == "exact":
                            continue
                        if keep:
                            png.replace(keep / png.name)
                        if args.show_failures:
                            print(f"  {kind}: {label} {size}px scale {scale} ({png.name}): "
                                  f"{url}\n    {detail}")
            for key in totals:
                totals[key] += row[key]
            print(f"{name:16} {len(found):7} {row['pictures']:8} {row['exact']:6} "
                  f"{row['unsure']:6} {row['wrong']:5} {slowest:9.2f}"
                  + (f"  ({row['error']} other errors)" if row["error"] else ""), flush=True)
        outside = page.outside_requests()
    n = totals["pictures"]
    print(f"{'all':16} {'':7} {n:8} {totals['exact']:6} {totals['unsure']:6} "
          f"{totals['wrong']:5} {max(times, default=0):9.2f}")
    print(f"exact {totals['exact'] / max(n, 1):.1%}, unsure {totals['unsure']}, wrong "
          f"{totals['wrong']}, other errors {totals['error']}; median read "
          f"{statistics.median(times) if times else 0:.3f} s, slowest {max(times, default=0):.2f} s;"
          f" requests off this machine: {len(outside)}")
    return 0


def read_back(spec, png: Path, url: str):
    """(kind, detail, seconds): exact, wrong (another puzzle), unsure (a
    located error) or error (any other refusal) for one picture."""
    start = time.perf_counter()
    try:
        read = api.read_picture(spec, str(png)).url
        kind, detail = ("exact" if read == url else "wrong"), read
    except api.PzcError as e:
        kind = "unsure" if "unsure" in e.message else "error"
        detail = e.format()
    return kind, detail, time.perf_counter() - start


def _warm_up(page, folder: Path):
    """Read one picture before timing: the glyph classifier is trained or
    loaded at first use."""
    png = folder / "warm.png"
    png.write_bytes(page.screenshot("https://puzz.link/p?nurikabe/3/3/g5k", 36))
    api.read_picture(api.load_spec("nurikabe"), str(png))


if __name__ == "__main__":
    sys.exit(main())
