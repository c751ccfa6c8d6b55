"""Reading a puzzle from a picture (PNG or JPEG) of its board: `pzc read`.

    image.py      load a picture; errors for files that are not one
    errors.py     UnsurePicture: the place the reader could not read, what it saw
    glyphs.py     a classifier of digits, '?' and letters, trained on glyphs
                  pzc renders itself at first use
    glyphset.py   the glyphs it learns from: rendering, features, the disk cache
    hexgrid.py    Hexiom's hexagonal boards
    squaregrid.py square boards: the frame, rows and columns
    marks.py      what a square cell shows (numbers, circles, shading)
    walls.py      which lines between square cells are walls
    reading.py    the spec's readers drive it: what each URL codec's layer looks like

Nothing here is per genre: the spec's `url` line says which layers its board
holds, and each layer's codec says what it looks like in a picture.
"""
