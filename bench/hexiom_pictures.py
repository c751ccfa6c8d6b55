"""pzc benchmark: Hexiom read from pictures, and a bot's move list.

    python bench/hexiom_pictures.py        # 40 levels x 3 zooms x 2 fonts, damaged, end to end
    python bench/hexiom_pictures.py --zooms 0.8,1.2,1.8 --fonts "DejaVu Sans,Liberation Sans"
    python bench/hexiom_pictures.py --runs 9            # end to end: the median of 9 runs

Reading: pzc draws each of slowfrog's 40 levels (../shared/corpus/hexiom)
as its question picture (the tiles where they start), rsvg-convert
rasterizes it at each zoom with the SVG's font-family replaced, and the hex
reader reads it back: exact (the same instance), unsure (a located error)
or wrong (another instance, read silently: must be none).  The digits are
read by formats/pictures/glyphs.py's reader, as pzc read does.

Damaged pictures (--damage): each level in pzc's own font at each zoom,
blurred (Gaussian, sigma 0.8) or saved as JPEG of quality 70 and 40, read
twice: the board alone (side, locks, which cells hold a tile; every tile
read as 0) and whole, with the digit reader.

End to end, for each side-6 level (level40) drawn at zoom 1.2: load the
PNG, read the board, read the instance text, solve, verify, plan the moves;
each phase's median over --runs runs in this process (the digit reader made
once before).
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

from hex_pictures import RSVG, digit_reader, question_svg, rasterize  # noqa: E402
from test_picture_hexiom import AnyTile, damaged  # noqa: E402
from pzc import api  # noqa: E402
from pzc.formats.pictures.hexgrid import read_hex_picture  # noqa: E402
from pzc.formats.pictures.image import load_picture  # noqa: E402
from pzc.runtime.errors import PzcError  # noqa: E402

LEVELS = ROOT.parent / "shared" / "corpus" / "hexiom" / "slowfrog"
OWN_FONT = "DejaVu Sans"


def reading(spec, levels, zooms, fonts, folder: Path):
    """The table of pictures read back, by font and zoom."""
    print(f"{'font':<18} {'zoom':>5} {'exact':>6} {'unsure':>7} {'wrong':>6} {'median ms':>10} "
          f"{'max ms':>7}")
    for font in fonts:
        for zoom in zooms:
            reader = digit_reader()
            exact = unsure = wrong = 0
            times = []
            for path in levels:
                inst = api.load_instances(spec, str(path))[0]
                png = rasterize(question_svg(spec, inst, font), zoom, folder / "board.png")
                t0 = time.perf_counter()
                try:
                    got = read_hex_picture(spec, load_picture(str(png)), str(png), reader)
                    back = api.load_instances(spec, "read.txt", text=got.text)[0]
                    same = back.clues == inst.clues and back.locked == inst.locked
                    exact += same
                    wrong += not same
                except PzcError:
                    unsure += 1
                times.append(time.perf_counter() - t0)
            print(f"{font:<18} {zoom:>5} {exact:>6} {unsure:>7} {wrong:>6} "
                  f"{1000 * statistics.median(times):>10.1f} {1000 * max(times):>7.1f}")


def damage(spec, levels, zooms, kinds, folder: Path):
    """Each picture damaged, read twice: the board alone (every tile as 0)
    and whole, with the digit reader."""
    print(f"{'damage':<8} {'zoom':>5} {'board exact':>12} {'unsure':>7} {'wrong':>6}"
          f" {'whole exact':>12} {'unsure':>7} {'wrong':>6}")
    for how in kinds:
        for zoom in zooms:
            reader = digit_reader()
            board, whole = [0, 0, 0], [0, 0, 0]          # exact, unsure, wrong
            for path in levels:
                inst = api.load_instances(spec, str(path))[0]
                png = rasterize(question_svg(spec, inst), zoom, folder / "board.png")
                image = damaged(load_picture(str(png)), how)
                for tally, digits in ((board, AnyTile()), (whole, reader)):
                    try:
                        got = read_hex_picture(spec, image, str(png), digits)
                        back = api.load_instances(spec, "read.txt", text=got.text)[0]
                        want = inst.clues if digits is reader else {c: 0 for c in inst.clues}
                        same = back.clues == want and back.locked == inst.locked
                        tally[0 if same else 2] += 1
                    except PzcError:
                        tally[1] += 1
            print(f"{how:<8} {zoom:>5} {board[0]:>12} {board[1]:>7} {board[2]:>6}"
                  f" {whole[0]:>12} {whole[1]:>7} {whole[2]:>6}")


def end_to_end(spec, levels, runs: int, folder: Path):
    for path in levels:
        inst = api.load_instances(spec, str(path))[0]
        if inst.geometry.side != 6:
            continue
        png = rasterize(question_svg(spec, inst), 1.2, folder / f"{path.stem}.png")
        reader = digit_reader()
        phases = {"load": [], "read": [], "solve": [], "moves": [], "total": []}
        for _ in range(runs):
            t0 = time.perf_counter()
            image = load_picture(str(png))
            t1 = time.perf_counter()
            got = read_hex_picture(spec, image, str(png), reader)
            read = api.load_instances(spec, "read.txt", text=got.text)[0]
            t2 = time.perf_counter()
            result = api.solve(spec, read)
            t3 = time.perf_counter()
            moves = api.tile_moves(read, result, got.centres)
            t4 = time.perf_counter()
            assert result.verified and read.clues == inst.clues
            for name, dt in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)):
                phases[name].append(dt)
        figures = ", ".join(f"{name} {statistics.median(v):.3f} s" for name, v in phases.items())
        print(f"{path.stem} (side 6, {len(moves)} moves), median of {runs}: {figures}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--zooms", default="0.8,1.2,1.8")
    p.add_argument("--fonts", default=f"{OWN_FONT},Liberation Sans")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--damage", default="blur,jpeg70,jpeg40",
                   help="blur, jpegN (quality N), comma-separated; '' for none")
    args = p.parse_args()
    if RSVG is None or not LEVELS.is_dir():
        sys.exit("needs rsvg-convert and ../shared/corpus/hexiom")
    spec = api.load_spec("hexiom")
    levels = sorted(LEVELS.glob("level*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        reading(spec, levels, [float(z) for z in args.zooms.split(",")],
                args.fonts.split(","), folder)
        kinds = [k for k in args.damage.split(",") if k]
        if kinds:
            damage(spec, levels, [float(z) for z in args.zooms.split(",")], kinds, folder)
        end_to_end(spec, levels, args.runs, folder)


if __name__ == "__main__":
    main()
