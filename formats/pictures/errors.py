"""The errors of reading a picture: exit 2, located at the cell or border the
reader could not read, with what it saw there."""

from __future__ import annotations

from ...runtime.errors import PzcError


class UnsurePicture(PzcError):
    """The reader is not sure what a place of the board shows.

    ``place``: the cell (row, column), 0-based, or a border as the two cells
    it lies between; ``box``: its pixels (x0, y0, x1, y1) in the picture;
    ``saw``: what the reader saw there, in words ("'8' or '3'", "a mark
    covering 40% of the cell").  The message reads
    ``IMAGE: error: row 3, column 5 (pixels 120-156 x 80-116): unsure: SAW``."""

    def __init__(self, path: str, place, box, saw: str, what: str = "unsure"):
        self.place = place
        self.box = box
        self.saw = saw
        where = describe_place(place)
        if box is not None:
            x0, y0, x1, y1 = (int(round(v)) for v in box)
            where += f" (pixels x {x0}-{x1}, y {y0}-{y1})"
        super().__init__(f"{where}: {what}: {saw}", file=path)


def describe_place(place) -> str:
    """'row 3, column 5' for a cell (2, 4); 'the border between row 1, column 1
    and row 1, column 2' for a border given as two cells; 'the board' for None."""
    if place is None:
        return "the board"
    if len(place) == 2 and all(isinstance(p, tuple) for p in place):
        return f"the border between {describe_place(place[0])} and {describe_place(place[1])}"
    r, c = place
    return f"row {r + 1}, column {c + 1}"
