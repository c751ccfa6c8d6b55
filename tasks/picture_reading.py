"""`pzc read`: the instance a picture of a board shows, written as text, a
puzz.link URL, a pzprv3 file or JSON (with each cell's pixel centre, for a
bot that clicks), and a debug picture of what was found.

    reading = read_picture(spec, "board.png", debug_image="seen.png")
    print(picture_text(spec, reading, "url"))
"""

from __future__ import annotations

import json

from ..formats.pictures.errors import UnsurePicture
from ..formats.reading import write_instance
from ..runtime.errors import PzcError

FORMATS = ("text", "json", "url", "pzprv3")


def read_picture(spec, path: str, debug_image: str | None = None):
    """Read the board in the picture at ``path`` for ``spec``.  With
    ``debug_image``, a copy of the picture with what was found drawn over
    it is written there, also when reading fails at a place (drawn red).
    Returns formats.pictures.reading.PictureReading."""
    # here: OpenCV takes a while to load, and only pictures need it
    from ..formats.pictures.reading import read_picture as read_board
    try:
        reading = read_board(spec, path)
    except UnsurePicture as e:
        if debug_image:
            _write_debug(path, debug_image, None, e)
        raise
    if debug_image:
        _write_debug(path, debug_image, reading, None)
    return reading


def picture_text(spec, reading, form: str) -> str:
    """The instance read, in a format of FORMATS."""
    if form == "json":
        return json.dumps(picture_json(spec, reading), indent=1) + "\n"
    if form == "url" and reading.url is None:
        return write_instance(spec, reading.instance, "url") + "\n"
    text = reading.url if form == "url" else write_instance(spec, reading.instance, form)
    return text if text.endswith("\n") else text + "\n"


def picture_json(spec, reading) -> dict:
    """The instance as text and URL (where the spec has one), the board's
    place in the picture and every cell's pixel centre and look."""
    out = {"spec": spec.name, "text": write_instance(spec, reading.instance, "text"),
           "url": reading.url}
    board = reading.board
    if board is not None:
        out["board"] = {"rows": board.rows, "cols": board.cols, "left": round(board.left, 1),
                        "top": round(board.top, 1), "cell": round(board.cell, 2)}
    cells = []
    for (r, c), (x, y) in sorted(reading.centres.items()):
        cell = {"row": r, "col": c, "x": round(x, 1), "y": round(y, 1)}
        look = reading.looks.get((r, c))
        if look is not None:
            cell.update(shade=look.shade, circle=look.circle, text=look.text)
        cells.append(cell)
    out["cells"] = cells
    return out


def _write_debug(path: str, out: str, reading, error) -> None:
    import cv2

    from ..formats.pictures.image import load_picture
    image = load_picture(path)
    if reading is not None and reading.board is not None:
        board = reading.board
        for (r, c), look in reading.looks.items():
            x0, y0, x1, y1 = (int(round(v)) for v in board.box(r, c))
            cv2.rectangle(image, (x0, y0), (x1, y1), (255, 160, 0), 1)
            label = look.text or {"black": "#", "grey": "g"}.get(look.shade, "")
            if look.circle:
                label = ("o" if look.circle == "white" else "@") + label
            if label:
                cv2.putText(image, label, (x0 + 2, y1 - 3), cv2.FONT_HERSHEY_PLAIN,
                            max(0.6, board.cell / 40), (0, 140, 0), 1, cv2.LINE_AA)
        if reading.borders is not None:
            def corner(k, j):          # the corner of columns k and rows j, in pixels
                return (int(round(board.left + k * board.cell_w)),
                        int(round(board.top + j * board.cell_h)))
            walls = [(corner(c + 1, r), corner(c + 1, r + 1))
                     for (r, c), thick in reading.borders.vertical.items() if thick]
            walls += [(corner(c, r + 1), corner(c + 1, r + 1))
                      for (r, c), thick in reading.borders.horizontal.items() if thick]
            for start, end in walls:
                cv2.line(image, start, end, (0, 0, 255), 2)
    elif reading is not None:
        for (x, y) in reading.centres.values():
            cv2.circle(image, (int(round(x)), int(round(y))), 3, (255, 160, 0), -1)
    if error is not None and error.box is not None:
        x0, y0, x1, y1 = (int(round(v)) for v in error.box)
        cv2.rectangle(image, (x0, y0), (x1, y1), (0, 0, 255), 2)
    if not cv2.imwrite(out, image):
        raise PzcError(f"cannot write the debug picture {out} (a .png or .jpg name)")
