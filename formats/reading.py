"""Reading instances, whatever form they come in, and writing them back:

    INSTANCE argument          read as
    puzzle.txt, -              text or JSON instances (encoder/instance.py), several a file
    https://puzz.link/p?...    a puzz.link URL (the spec's `url` line: binding.py)
    urls.txt                   a file of URLs, one a line ('#' comments)
    puzzle.pzprv3              a pzprv3 file (the spec's `file` line)
    dataset.json#KEY, file#2   one entry of a puzzlekit dataset file, the k-th of a file
"""

from __future__ import annotations

from pathlib import Path

from ..encoder import syntax
from ..encoder.ground import board_option
from ..encoder.instance import Grids, Instance, read_file, read_instances
from ..encoder.instance import decode as decode_file
from ..runtime.deep_stack import deep_stack
from ..runtime.errors import PzcError
from . import binding as puzzlink
from .pictures.image import looks_like_picture


def instance_file(path: str) -> str | None:
    """The file an INSTANCE argument reads: itself, FILE for FILE#KEY, '-'
    for standard input; None for a puzz.link URL."""
    if puzzlink.is_url(path):
        return None
    base, _, key = path.rpartition("#")
    if base and key and path != "-" and not Path(path).exists() and Path(base).is_file():
        return base
    return path


@deep_stack
def load_instances(spec: syntax.Spec, path: str, only: str | None = None,
                   text=None, read: str | None = None) -> list:
    """Read every instance in a file ('-' for standard input) for this spec:
    a text or JSON file, a puzz.link URL, a file of URLs (one a line) or a
    pzprv3 file.  ``only``: of a dataset file, just the entry of that name.
    ``text`` (bytes or str): the contents of the file ``read`` (default:
    path itself; FILE for a FILE#KEY path), already read elsewhere, so that
    the file is not opened here (pzc batch sends it to cluster workers)."""
    return [inst for _, inst in load_by_type(lambda ptype, fail: spec, path, only, text, read,
                                             pzprv3=spec.board.kind == "square")]


@deep_stack
def load_by_type(spec_for_type, path: str, only: str | None = None, text=None,
                 read: str | None = None, pzprv3: bool = True) -> list:
    """(spec, instance) of every instance in a file, as load_instances reads
    them, each read by the spec ``spec_for_type(ptype, fail)`` gives: ptype
    is the puzz.link type of a URL, of a file of URLs' line or of a pzprv3
    file, None for any other file (``fail(message)``: an error located at
    the type, or at the file's start, to raise when no spec reads it).  A
    URL line that cannot be read is an instance of its own, ``unreadable``,
    with no spec.  ``pzprv3``: read pzprv3 files as such (else as text)."""
    if puzzlink.is_url(path):
        return [puzzlink.read_url_by_type(spec_for_type, path, path.strip())]
    if (path != "-" or text is not None) and looks_like_picture(path, _head(text)):
        # a picture of the board: read for the given spec (a picture names no type)
        from .pictures.reading import read_picture
        spec = spec_for_type(None, lambda message: PzcError(message, file=path))
        reading = read_picture(spec, path, text if isinstance(text, bytes) else None)
        reading.instance.centres = reading.centres      # a bot's moves and clicks: pixels
        return [(spec, reading.instance)]
    if text is None:
        read = instance_file(path)
    base, _, key = path.rpartition("#")
    if read is not None and read != path and read == base:
        # FILE#KEY: one instance of a file holding several (a dataset entry, the k-th)
        every = load_by_type(spec_for_type, base, path, text, None, pzprv3)
        found = [pair for pair in every if pair[1].name == path]
        if not found and key.isdigit() and 1 <= int(key) <= len(every):
            found = [every[int(key) - 1]]          # FILE#1 of a file holding one
        if not found:
            raise PzcError(f"{base} holds no instance named {path} (instances are named "
                           f"FILE#1, FILE#2, ... or, in a dataset file, FILE#KEY)")
        return found
    source = read_file(path) if text is None else decode_file(
        "<stdin>" if path == "-" else path, text)
    if pzprv3 and puzzlink.is_pzprv3(source.text):
        return [puzzlink.read_pzprv3_by_type(spec_for_type, source)]
    urls = url_lines(source)
    if urls:
        found = []
        for k, (n, url) in enumerate(urls, 1):
            name = f"{source.path}#{k}" if len(urls) > 1 else source.path
            try:
                found.append(puzzlink.read_url_by_type(spec_for_type, url, name, source, n))
            except PzcError as e:      # one bad URL is its own error; the others run
                found.append((None, Instance(name, source, "tokens", None, unreadable=e)))
        return found
    spec = spec_for_type(None, lambda message: source.error((1, 1), message))
    blank_opt = board_option(spec, "blank")
    blank = blank_opt.value.value if blank_opt is not None else "."
    lines = board_option(spec, "lines") is not None
    each_opt = board_option(spec, "each")
    each = each_opt.value.value if each_opt is not None else None
    target = board_option(spec, "target") is not None
    return [(spec, inst) for inst in read_instances(
        source, spec.board.kind, blank=blank, lines=lines, each=each, target=target,
        grids=grids_of(spec), only=only)]


def _head(text):
    """The first bytes of a file's contents already read, or None."""
    return None if text is None else text[:8]


def write_instance(spec: syntax.Spec, inst: Instance, form: str, answer=None) -> str:
    """An instance as a puzz.link URL ('url'), a pzprv3 file ('pzprv3': with
    ``answer``, an AnswerData, in its answer sections) or a pzc text
    instance ('text')."""
    if form == "url":
        return puzzlink.write_url(spec, inst)
    if form == "pzprv3":
        return puzzlink.write_pzprv3(spec, inst, answer)
    blank_opt = board_option(spec, "blank")
    return puzzlink.write_text(spec, inst, blank_opt.value.value[0] if blank_opt else ".")


def url_lines(source) -> list:
    """(line, URL) of a file whose first line holding anything is a puzz.link
    URL: one URL a line; '#' comment lines and blank lines are skipped.
    Anything else on a line is an error there."""
    lines = [(n, line) for n, line in enumerate(source.text.split("\n"), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines or not puzzlink.is_url(lines[0][1]):
        return []
    for n, line in lines:
        if not puzzlink.is_url(line):
            col = len(line) - len(line.lstrip()) + 1
            raise source.error((n, col), "this file holds puzz.link URLs, one a line, but "
                                         "this line is not one")
    return lines


def grids_of(spec: syntax.Spec) -> Grids:
    """The grids and parameters the spec's instances hold, and how their
    clues are read (board options outside, lists, letters, points, doubled)."""
    return Grids(tuple(spec.layer_names), tuple(spec.params),
                 tuple((name, p.default.value) for name, p in spec.params.items()
                       if p.default is not None),
                 outside=puzzlink.outside_sides(spec),
                 lists=board_option(spec, "lists") is not None,
                 letters=board_option(spec, "letters") is not None,
                 points=board_option(spec, "points") is not None,
                 rest=next((name for name, p in spec.params.items() if p.rest), None),
                 doubled=board_option(spec, "doubled") is not None)


@deep_stack
def select_instance(spec: syntax.Spec, path: str) -> Instance:
    """One instance: `path`, or `path#k` for the k-th of a file holding several."""
    return only_one(path, load_instances(spec, path))      # path#k and path#KEY pick one there


def only_one(path: str, found: list):
    """The one instance (or pair) of those read from ``path``; several are an error."""
    if len(found) > 1:
        raise PzcError(f"{path} holds {len(found)} instances; name one as {path}#1 .. "
                       f"{path}#{len(found)}")
    return found[0]
