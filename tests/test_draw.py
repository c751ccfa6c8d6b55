"""Pictures (--format svg): a golden SVG of every built-in spec's example
answer, each a valid standalone document, and each looked at in a real
browser (headless Chromium; skipped without one): the drawing is there, has
the board's size, and its cells show the answer.

Golden files are tests/golden/svg/SPEC.svg (a move puzzle: SPEC.html, its
page of boards).  After a deliberate change to the drawing, write them again
with `PZC_GOLDEN=update pytest tests/test_draw.py` and look at them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pzc import api
from pzc.tasks.pictures import draw
from pzc.tasks.pictures.draw import M, S

from browser import dump_dom, needs_browser, screenshot

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "svg"
SVG = "{http://www.w3.org/2000/svg}"
SPECS = sorted(api.builtin_specs())


def example(name: str) -> str:
    """The spec's first example instance, as a path relative to the repository."""
    folder = ROOT / "specs" / "examples" / name
    first = sorted(p for p in folder.iterdir() if p.is_file())[0]
    return str(first.relative_to(ROOT))


_SOLVED = {}


def solved(name: str):
    """(spec, instance, result, document) of the example, solved once."""
    if name not in _SOLVED:
        cwd = os.getcwd()
        os.chdir(ROOT)                      # instance names are relative paths
        try:
            spec = api.load_spec(name)
            inst = api.load_instances(spec, example(name))[0]
            result = api.solve(spec, inst)
            doc = api.picture_document(spec, inst, result)
        finally:
            os.chdir(cwd)
        assert result.status == "solved" and result.verified, (name, result.status)
        _SOLVED[name] = (spec, inst, result, doc)
    return _SOLVED[name]


def page_text(doc) -> str:
    return draw.html_page(doc.heading, [doc]) if doc.is_plan else doc.svg


def last_board(name: str):
    """(picture, svg) of the example's answer: a plan's last board."""
    spec, inst, result, doc = solved(name)
    if doc.is_plan:
        return result.picture[-1], doc.frames[-1]
    return result.picture, doc.svg


def test_every_builtin_spec_has_an_example():
    missing = [n for n in SPECS if not (ROOT / "specs" / "examples" / n).is_dir()]
    assert not missing


@pytest.mark.parametrize("name", SPECS)
def test_golden_picture(name):
    spec, inst, result, doc = solved(name)
    text = page_text(doc)
    path = GOLDEN / (name + (".html" if doc.is_plan else ".svg"))
    if os.environ.get("PZC_GOLDEN") == "update":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden picture {path}: run with PZC_GOLDEN=update"
    assert text == path.read_text(encoding="utf-8"), (
        f"{name}'s picture changed; if that is meant, run with PZC_GOLDEN=update and look at it")


OUTSIDE = [n for n in SPECS if any(o.name == "outside" for o in api.load_spec(n).board.options)]


@pytest.mark.parametrize("name", OUTSIDE)
def test_golden_outside_clues_sit_outside_the_board(name):
    """In the golden picture of a genre with clues outside the grid, each
    such clue is drawn beyond its side of the board, level with its row or
    column, and every one of the example's outside clues is there."""
    spec, inst, result, doc = solved(name)
    root = ET.fromstring((GOLDEN / f"{name}.svg").read_text(encoding="utf-8"))
    cells = {tuple(int(v) for v in e.get("data-cell").split(",")): e for e in root.iter()
             if e.get("class") == "cell" and e.get("data-cell")}
    xs = [float(p.split(",")[0]) for e in cells.values() for p in e.get("points").split()]
    ys = [float(p.split(",")[1]) for e in cells.values() for p in e.get("points").split()]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    drawn = {}
    for e in root.iter():
        cls = (e.get("class") or "").split()
        if cls[:2] != ["clue", "outside"]:
            continue
        side, x, y = cls[2], float(e.get("x")), float(e.get("y"))
        beyond = {"top": y < top, "bottom": y > bottom, "left": x < left, "right": x > right}
        assert beyond[side], (side, x, y, (left, top, right, bottom))
        level = left < x < right if side in ("top", "bottom") else top < y < bottom
        assert level, (side, x, y)
        drawn[side] = drawn.get(side, 0) + 1
    # a list of numbers is drawn number by number: at least one a given place
    for side in inst.outside:
        given = sum(1 for p in inst.outside_places() if p in inst.clues
                    and draw._side_of(inst, p) == side)
        assert drawn.get(side, 0) >= given, (side, drawn, given)
    assert drawn


def svg_documents(name):
    spec, inst, result, doc = solved(name)
    return doc.frames if doc.is_plan else [doc.svg]


@pytest.mark.parametrize("name", SPECS)
def test_valid_standalone_svg(name):
    """Each document parses as XML, is an <svg> with a viewBox and its size."""
    for text in svg_documents(name):
        root = ET.fromstring(text)
        assert root.tag == SVG + "svg"
        x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
        assert (x0, y0) == (0, 0) and w > 0 and h > 0
        assert float(root.get("width")) == w and float(root.get("height")) == h


def cells_of(root, cls):
    return {tuple(int(v) for v in e.get("data-cell").split(","))
            for e in root.iter() if e.get("class") == cls and e.get("data-cell")}


@pytest.mark.parametrize("name", SPECS)
def test_drawing_holds_the_answer(name):
    """Every cell of the board is drawn, each '#' is a shaded cell (or a
    black circle where the spec says so), each loop character a line, and
    the other answer kinds their shapes, as the SVG's own elements say."""
    spec, inst, result, doc = solved(name)
    pic, text = last_board(name)
    root = ET.fromstring(text)
    assert cells_of(root, "cell") == set(inst.geometry.cells)

    hints = draw._Hints(spec, inst)

    def answer(tokens):
        """Cells whose answer is one of ``tokens`` drawn as the convention says
        (a spec's draw line may draw a token otherwise: Battleships' 'o' 's')."""
        return {c for c, t in pic.cells.items() if t in tokens and inst.tokens.get(c) != t
                and hints.shape("answer", t, None) is None}

    def shape(name):            # drawn by the answer, or by a given clue the answer keeps
        return cells_of(root, "object " + name) | cells_of(root, "clue " + name)
    assert {c for c, t in pic.cells.items()
            if hints.shape("answer", t, None) == "shade"} <= cells_of(root, "shade")
    assert answer("#") <= cells_of(root, "shade") | shape("disc")
    paths = [e for e in root.iter() if e.get("class") == "path"]
    if any(t in "─│┌┐└┘" for t in pic.cells.values() if t) or pic.canvas:
        assert paths
    assert answer("*") <= {tuple(int(v) for v in e.get("data-cell").split(","))
                           for e in root.iter() if (e.get("class") or "").startswith("object ")}
    assert answer("◤◥◢◣") <= cells_of(root, "half")
    assert answer("|-") <= cells_of(root, "bar")
    assert answer("co") <= shape("circle")
    assert answer("t") <= shape("triangle")
    assert answer("s") <= shape("square")
    if not pic.canvas:          # a line from the centre to each side a cell's token goes by
        tokens = list(pic.cells.values()) + list((pic.text or {}).values())
        assert len([e for e in paths if e.tag == SVG + "line"]) == sum(
            len(draw._BOX[t]) * (2 if draw._BOX[t].isupper() else 1) for t in tokens if t in draw._BOX)


def sudoku4(tmp_path, rows):
    """A 4 x 4 Sudoku of the test's own."""
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(rows) + "\n")
    spec = api.load_spec("sudoku")
    return spec, api.load_instances(spec, str(grid))[0]


def test_unique_marks_the_differences(tmp_path):
    """Two witnesses side by side, the cells where they differ marked on both."""
    spec, inst = sudoku4(tmp_path, ["....", "....", "....", "...."])
    result = api.unique(spec, inst)
    assert result.status == "several"
    doc = api.picture_document(spec, inst, result)
    root = ET.fromstring(doc.svg)
    boards = [e for e in root if e.tag == SVG + "svg"]
    assert len(boards) == 2
    differ = {tuple(c) for c in result.differ}
    assert differ and all(cells_of(b, "differs") == differ for b in boards)


def test_count_show_draws_every_solution(tmp_path):
    spec, inst = sudoku4(tmp_path, ["12..", "34..", "....", "...."])
    result = api.count(spec, inst)
    root = ET.fromstring(api.picture_document(spec, inst, result).svg)
    boards = [e for e in root if e.tag == SVG + "svg"]
    assert result.count == len(boards) > 1
    captions = [e.text for e in root if e.get("class") == "caption"]
    assert captions == [f"solution {k}" for k in range(1, result.count + 1)]


@pytest.mark.slow
def test_cli_writes_files_and_pages(tmp_path):
    """One instance: an SVG; several: one page, or FILE-k.svg files."""
    cmd = [sys.executable, "-m", "pzc", "solve", "sudoku"]
    grids = [str(ROOT / "specs/examples/sudoku" / n) for n in ("grid4.txt", "grid9.txt")]
    one = subprocess.run(cmd + grids[:1] + ["--format", "svg"], capture_output=True, text=True)
    assert one.returncode == 0 and ET.fromstring(one.stdout).tag == SVG + "svg"
    out = tmp_path / "both.svg"
    run = subprocess.run(cmd + grids + ["--format", "svg", "-o", str(out)], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    for k in (1, 2):
        assert ET.parse(tmp_path / f"both-{k}.svg").getroot().tag == SVG + "svg"
    page = tmp_path / "both.html"
    run = subprocess.run(cmd + grids + ["--format", "svg", "-o", str(page)], capture_output=True,
                         text=True)
    assert run.returncode == 0 and page.read_text().count("<svg ") == 2
    bad = subprocess.run(cmd + grids[:1] + ["-o", str(tmp_path / "x.txt")], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "-o/--output is for --format svg" in bad.stderr


def test_plan_page_steps_through_the_moves():
    spec, inst, result, doc = solved("sliding")
    assert doc.is_plan and len(doc.frames) == result.steps + 1
    assert doc.captions[0] == "start" and doc.captions[1].startswith("1. piece")
    page = page_text(doc)
    assert page.count('class="frame') == result.steps + 1 and "<script>" in page


@pytest.mark.slow
def test_draw_hint_errors_are_located(tmp_path):
    spec = tmp_path / "bad.pz"
    base = 'puzzle t\nboard square\nvar v[c in cells] : 1..2\nshow v\n'
    for line, message in [("draw answer as arrow", "'arrow' is not a shape for the answer"),
                          ("draw walls as wall", "'walls' is neither 'answer' nor a layer"),
                          ("draw clues in {v[(0, 0)]} as disc", "must not depend")]:
        spec.write_text(base + line + "\n")
        run = subprocess.run([sys.executable, "-m", "pzc", "check", str(spec)],
                             capture_output=True, text=True)
        assert run.returncode == 2, run.stderr
        assert f"{spec}:5:" in run.stderr and message in run.stderr and "^" in run.stderr


# ------------------------------------------------------------------ browser

@needs_browser
@pytest.mark.parametrize("name", SPECS)
def test_browser_shows_the_answer(name):
    """The screenshot: ink exactly over the board, and in each cell what the
    answer says (dark where shaded, the loop's colour on the loop, ink on
    numbers and objects, white on empty cells)."""
    spec, inst, result, doc = solved(name)
    pic, text = last_board(name)
    board = draw._Board(inst)
    image = screenshot(text, board.width, board.height)
    box = image.ink_box()
    assert box is not None, "nothing drawn"
    if inst.outside:        # the clues beside the board ink its margins too
        grid = (board.x0, board.y0, board.x0 + board.cols * S, board.y0 + board.rows * S)
        assert box[0] <= grid[0] + 3 and box[1] <= grid[1] + 3, (box, grid)
        assert box[2] >= grid[2] - 3 and box[3] >= grid[3] - 3, (box, grid)
        assert box[2] <= board.width - M + 3 and box[3] <= board.height - M + 3, box
    elif inst.points or inst.doubled:     # the discs of clues on the rim reach past it
        edges = (M, M, board.width - M, board.height - M)
        out = S * 0.22 + 3
        assert all(b - out <= a <= b + 3 for a, b in zip(box[:2], edges[:2])), box
        assert all(b - 3 <= a <= b + out for a, b in zip(box[2:], edges[2:])), box
    elif not board.hex:
        assert all(abs(a - b) <= 3 for a, b in zip(box, (M, M, board.width - M, board.height - M))), box
    else:
        assert box[0] >= M - 3 and box[2] <= board.width - M + 3
        assert box[2] - box[0] > 0.8 * (board.width - 2 * M)
    k = board.size
    shades = cells_of(ET.fromstring(text), "shade")
    hints = draw._Hints(spec, inst)          # cells a layer's hint draws dark (holes)
    dark = {c for name in spec.layer_names if name != "clues"
            for c, v in inst.layers.get(name, {}).items()
            if hints.shape(name, v, None) in ("shade", "wall")}
    for cell, token in pic.cells.items():
        x, y = board.centre(cell)
        corner = image.pixel(x - 0.3 * k, y + 0.3 * k)
        centre_box = (x - 0.3 * k, y - 0.3 * k, x + 0.3 * k, y + 0.3 * k)
        if token == "#" and cell in shades:
            assert max(corner) < 100, (cell, corner)
        elif token in ("#", "*"):       # a black circle
            assert max(image.pixel(x, y)) < 100
        elif token in "─│┌┐└┘" and token:
            # halfway to the side the loop leaves by (a clue may sit at the centre)
            dr, dc = {"─": (0, 1), "│": (1, 0), "┌": (1, 0), "┐": (1, 0), "└": (-1, 0),
                      "┘": (-1, 0)}[token]
            r, g, b = image.pixel(x + dc * 0.4 * k, y + dr * 0.4 * k)
            assert g > r + 40 and g > b + 20, (cell, (r, g, b))
        elif token in ("", "."):
            if cell in dark:
                assert max(corner) < 100, (cell, corner)
            elif cell not in inst.clues:        # a clue cell shows its clue, if drawn
                assert min(corner) > 200, (cell, corner)
        else:
            assert image.inked(centre_box), (cell, token)
    if pic.canvas:
        ch, cw = pic.canvas_size
        for (i, j), token in pic.canvas.items():
            if token in ("-", "|", "─", "│", "═", "║"):
                x, y = draw._canvas_point(board, pic, (i, j))
                if token == "═":
                    y += 4               # one of the two lines of a double bridge
                elif token == "║":
                    x += 4
                r, g, b = image.pixel(x, y)
                assert g > r + 40 and g > b + 20, ((i, j), token, (r, g, b))


@needs_browser
@pytest.mark.parametrize("name", ["sliding", "asteroid"])
def test_browser_plan_page_steps(name):
    """The page's script shows one board at a time: the start, or move k
    when opened at #move=k, with 'move k of n' beside the buttons."""
    spec, inst, result, doc = solved(name)
    n = result.steps
    page = page_text(doc)
    for k, fragment in ((0, ""), (n, f"move={n}"), (1, "move=1")):
        dom = dump_dom(page, fragment)
        shown = re.findall(r'class="frame on" data-step="(\d+)"', dom)
        assert shown == [str(k)], (fragment, shown)
        assert f"move {k} of {n}" in dom
    image = screenshot(page, 900, 700, html=True)
    assert image.ink_box() is not None


def test_explain_draws_the_core(tmp_path):
    """No solution: the core's clue cells filled red, the cells its rule
    instances name outlined, each member a line below the board."""
    spec = api.load_spec(str(ROOT / "docs/tutorial/akari.pz"))
    inst = api.load_instances(spec, str(ROOT / "docs/tutorial/akari6-wrong.txt"))[0]
    result = api.explain(spec, inst)
    assert result.status == "unsat"
    root = ET.fromstring(api.picture_document(spec, inst, result).svg)
    assert cells_of(root, "culprit") == {tuple(c["cell"]) for c in result.core_clues}
    assert cells_of(root, "involved") == {tuple(c) for r in result.core_rules for c in r["cells"]}
    notes = [e.text for e in root.iter() if e.get("class") == "note"]
    assert len(notes) == len(result.core_clues) + len(result.core_rules)
    assert all(n.startswith("docs/tutorial/akari") or "akari" in n for n in notes)


def test_explain_draws_two_solutions_and_the_suggested_clue(tmp_path):
    spec, inst = sudoku4(tmp_path, ["..4.", "2...", "1...", "...."])
    result = api.explain(spec, inst)
    assert result.status == "several" and result.suggestion is not None
    root = ET.fromstring(api.picture_document(spec, inst, result).svg)
    first, second = [e for e in root if e.tag == SVG + "svg"]
    differ = {tuple(c) for c in result.several.differ}
    assert cells_of(first, "differs") == cells_of(second, "differs") == differ
    assert cells_of(first, "suggest") == {tuple(result.suggestion["cell"])}
    assert not cells_of(second, "suggest")


def test_explain_svg_from_the_command_line(tmp_path):
    out = tmp_path / "why.svg"
    run = subprocess.run([sys.executable, "-m", "pzc", "explain", str(ROOT / "docs/tutorial/akari.pz"),
                          str(ROOT / "docs/tutorial/akari6-wrong.txt"), "--format", "svg", "-o",
                          str(out)], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr          # no solution, explained
    assert run.stdout == "" and ET.parse(out).getroot().tag == SVG + "svg"
