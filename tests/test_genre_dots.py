"""The doubled grid (board option `doubled`): clues in the cells, on the
sides between them and on their corners, read and checked as
docs/language.md says.
"""

from __future__ import annotations

import pytest

from pzc import api

# ---------------------------------------------------------------- the doubled grid

TOUCH = """\
puzzle touch
board square(doubled)
var shaded[c in cells] : bool
show c: if shaded[c] then "#" else "."
rule counts: all p in places where given(p): count(c in cells_at(p): shaded[c]) = clue(p)
"""


def test_doubled_grid_reads_places(write):
    spec = api.load_spec(str(write("touch.pz", TOUCH)))
    # "R C" too: 2 rows of 3 cells; the first row has 7 places
    inst, = api.load_instances(spec, str(write("t.txt", "2 3\n. . . . . . .\n. 1 . . . . .\n"
                                                    ". . . 2 . 1 .\n. . . . . . .\n"
                                                    "0 . . . . . 1\n")))
    assert inst.doubled and (inst.geometry.width, inst.geometry.height) == (3, 2)
    assert inst.clues == {(1, 1): 1, (2, 3): 2, (2, 5): 1, (4, 0): 0, (4, 6): 1}
    assert inst.positions[(2, 3)] == (4, 7)
    res = api.solve(spec, inst)
    assert res.status == "solved" and res.grid == ["##.", ".##"]
    assert api.write_instance(spec, inst, "text").splitlines()[1:] == [
        ". . . . . . .", ". 1 . . . . .", ". . . 2 . 1 .", ". . . . . . .", "0 . . . . . 1"]


@pytest.mark.parametrize("text, message", [
    ("......\n......\n", "t.txt:1:1: error: a doubled grid of clues has 2h+1 rows of 2w+1 "
                         "places for a board of h x w cells (odd sizes, at least 3 x 3), not 6 x 2"),
    ("3 2\n.......\n.......\n", "t.txt:1:1: error: the header says 5 rows, but only 2 follow"),
    ("1 1\n...\n.x.\n...\n", "t.txt:3:2: error: 'x' is not allowed"),
])
def test_doubled_grid_errors(text, message, write, run_pzc):
    write("touch.pz", TOUCH.replace("board square(doubled)", "board square(doubled, clues: 0..4)"))
    write("t.txt", text)
    res = run_pzc("solve", "touch.pz", "t.txt")
    assert res.returncode == 2 and message in res.stderr, res.stderr


def test_clue_off_the_doubled_grid_is_an_error(write, run_pzc):
    write("far.pz", TOUCH + "require given((9, 9))\n")
    write("t.txt", "1 1\n...\n.1.\n...\n")
    res = run_pzc("solve", "far.pz", "t.txt")
    assert res.returncode == 2
    assert "far.pz:6:15: error: expected a cell of the board or a place of the doubled grid, " \
           "but this is (9, 9)" in res.stderr, res.stderr
