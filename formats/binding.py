"""Stage: puzz.link's formats <-> Instances.  A URL or a pzprv3 file becomes
an Instance of the spec's layers and parameters, and an Instance goes back
to a URL or a file, through the codecs the spec's `url` and `file` lines
name (formats/codecs.py holds the codecs, one per encoding, for every genre).

    url akari, lightup: cells4(clues, [(-2, "x")])
    file lightup: cellqnumans(clues, [(-2, "x")])

    https://puzz.link/p?akari/3/2/g1.h   ->  Instance 3 x 2, clues {(0,1): 1, (1,0): "x"}

The `url` line names puzz.link's types of the genre (the first is written in
URLs); the `file` line may name the type pzprv3 files use when it differs
(the first is written).  Each codec's argument names a layer (`clues`, `regions`, or one of the
spec's `layers`) or a parameter; an optional last argument, a list of
(raw, token) pairs, maps pzprjs's values to the spec's tokens and back
(a raw -2 with no pair is "?").

Several codecs may fill one layer, where puzz.link keeps in two encodings
what a text instance writes in one grid (Bosanowa's board shape and its
numbers, Double Back's rooms and its holes):

    url doubleback: border(areas), binary(areas, [(1, "x")])

A later codec's cells then replace an earlier one's; written, a token goes
to the first codec whose pairs name it, any other to the first without
pairs, and a codec of regions takes every cell (Binding.writes).
"""

from __future__ import annotations

from ..runtime.errors import PzcError, Source
from ..board.geometry import HexGrid, SquareGrid
from . import codecs as codec_table
from .answers import SHOWN, answer_tokens, cell_function, split_source
from .puzzlink import FormatError, looks_like_url, make_url, parse_url
from .pzprv3 import make_pzprv3, parse_pzprv3
from ..encoder import syntax as ast
from ..encoder.ground import blank_tokens, board_option
from ..encoder.instance import Instance, Record, SamePlace, side_places
from ..runtime.clock import big_dict

UNKNOWN = -2          # pzprjs's "a clue without a number"
EMPTY = -1            # pzprjs's empty place: a token paired with it is not written
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def is_url(text: str) -> bool:
    return looks_like_url(text.strip())


def is_pzprv3(text: str) -> bool:
    first = text.lstrip("\ufeff").lstrip().split("\n", 1)[0].strip()
    return first.startswith("pzprv3") or first.startswith("v:")


# ------------------------------------------------------------------ binding

class Binding:
    """What one `url` or `file` line says: its codecs and, for each, the
    layers or parameters its values go to and the raw <-> token pairs."""

    def __init__(self, spec: ast.Spec, line: ast.PuzzLink):
        self.spec = spec
        self.line = line
        self.codecs = [c.name for c in line.codecs]
        self.optional = [c.optional for c in line.codecs]     # `codec(...)?`
        self.registry = codec_table.URL_CODECS if line.kind == "url" else codec_table.FILE_CODECS
        # board option letters: pzprjs's numbers 1..26 are the letters A..Z
        # (its numberAsLetter), unless a pair names them
        self.letters = board_option(spec, "letters") is not None
        self.targets = []           # per codec: [layer or parameter name]
        self.pairs = []             # per codec: [(raw, token)]
        self.sources = []           # per codec: the variable (or `shown`) its answer is, or None
        self.answer_pairs = []      # per codec: [(raw, value)] of the answer
        for c in line.codecs:
            names, pairs, source, answer_pairs = split_source(
                self.registry.get(c.name), list(c.args))
            self.targets.append([a.id for a in names])
            self.pairs.append([pair_values(t) for t in pairs])
            self.sources.append(source.id if source is not None else None)
            self.answer_pairs.append([pair_values(t) for t in answer_pairs])

    @property
    def types(self) -> list:
        return [n for n, _ in self.line.types]

    def to_token(self, k: int, raw):
        if type(raw) is tuple:                  # a list of numbers: each by itself
            return tuple(self.to_token(k, x) for x in raw)
        for r, tok in self.pairs[k]:
            if r == raw:
                return tok
        if isinstance(raw, codec_table.Mark):   # a mark of the answer, not a clue
            return None
        if self.letters and type(raw) is int and 1 <= raw <= len(LETTERS):
            return LETTERS[raw - 1]
        return "?" if raw == UNKNOWN else raw

    def to_raw(self, k: int, token):
        if type(token) is tuple:
            return tuple(self.to_raw(k, x) for x in token)
        for r, tok in self.pairs[k]:
            if tok == token:
                return r
        if self.letters and type(token) is str and len(token) == 1 and token in LETTERS:
            return LETTERS.index(token) + 1
        return UNKNOWN if token == "?" else token

    def writes(self, k: int, layer: str, token) -> bool:
        """Whether codec k writes this token of the layer.  When several
        codecs fill one layer's cells (Bosanowa's board shape and its
        numbers, Double Back's rooms and holes), a token goes to the first of
        them whose pairs name it, any other token to the first of them with
        no pairs; a codec of regions (border, rooms) takes every cell."""
        codec = self.registry[self.codecs[k]]
        sharing = [i for i, targets in enumerate(self.targets) if layer in targets
                   and self.registry[self.codecs[i]].places == "cells"]
        if len(sharing) <= 1 or k not in sharing or codec.whole:
            return True
        naming = [i for i in sharing if any(tok == token for _, tok in self.pairs[i])]
        plain = [i for i in sharing if not self.pairs[i] and not self.registry[self.codecs[i]].whole]
        return k == (naming or plain or [None])[0]

    def layer_tokens(self, k: int, raw: dict, geometry, blanks, extra=()) -> dict:
        """Codec ``k``'s raw values as the spec's tokens, on the cells of
        ``geometry``'s board (and the places ``extra``, outside clues').  A
        cell the codec leaves out
        has its blank raw value (binary's 0) when a pair names that value; a
        file's mark no pair names (``codecs.Mark``: the answer's) is left out;
        so is a cell whose token is a blank character (a pair such as
        (1, ".") says which raw value means nothing)."""
        codec = self.registry[self.codecs[k]]
        named = {r for r, _ in self.pairs[k]}
        if codec.blank_raw is not None and codec.blank_raw in named:
            raw = {cell: raw.get(cell, codec.blank_raw) for cell in geometry.cells}
        cells = geometry.cell_set
        out = {}
        for cell, value in raw.items():
            if cell not in cells and cell not in extra:
                continue
            token = self.to_token(k, value)
            if token is not None and not (isinstance(token, str) and token in blanks):
                out[cell] = token
        return out

    def layer_raw(self, k: int, layer: dict, cells, blanks) -> dict:
        """The raw values codec ``k`` writes for a layer of tokens: a blank
        cell takes the raw value of a pair whose token is a blank character."""
        out = {c: self.to_raw(k, v) for c, v in layer.items()}
        empty = [r for r, tok in self.pairs[k] if isinstance(tok, str) and tok in blanks]
        if empty:
            out.update({c: empty[0] for c in cells if c not in layer})
        return out


def pair_values(pair: ast.Collection) -> tuple:
    """A (raw, token) pair's two values (true and false for an answer's)."""
    return tuple(x.value for x in pair.items)


def check_spec_lines(spec: ast.Spec) -> None:
    """The spec's `url` and `file` lines, checked where they are written (the
    spec loader calls this after encoder/check.py)."""
    for line in (spec.url, spec.file):
        if line is not None:
            check_binding(spec, line, lambda node, message: spec.source.error(node.pos, message))


def check_binding(spec: ast.Spec, line: ast.PuzzLink, err):
    """The `url`/`file` line's codecs exist and name declared layers or
    parameters, as many as each codec fills; ``err(node, message)`` reports."""
    registry = codec_table.URL_CODECS if line.kind == "url" else codec_table.FILE_CODECS
    if spec.board.kind != "square":
        raise err(line, f"'{line.kind}' is for square boards")
    known = set(spec.layer_names) | set(spec.params)
    for i, c in enumerate(line.codecs):
        if c.optional and (line.kind != "url" or not all(d.optional for d in line.codecs[i:])):
            raise err(c, "'?' marks URL layers that pzprjs leaves out when they are blank: "
                         "only on a url line, and only on its last codecs")
        codec = registry.get(c.name)
        if codec is None:
            raise err(c, f"unknown {'URL' if line.kind == 'url' else 'pzprv3'} codec "
                         f"'{c.name}'; the codecs are: {', '.join(sorted(registry))}")
        args, pairs, source, answer_pairs = split_source(codec, list(c.args))
        for t in pairs + answer_pairs:
            if not (isinstance(t, ast.Collection) and t.kind == "tuple" and len(t.items) == 2
                    and isinstance(t.items[0], (ast.Num, ast.Str))
                    and isinstance(t.items[1], (ast.Num, ast.Str)
                                   + ((ast.BoolLit,) if t in answer_pairs else ()))):
                raise err(t, "a codec's last argument lists (raw, token) pairs of numbers "
                             "or strings, such as [(-2, \"x\")] (an answer's: or true, false)")
        if source is not None and not (isinstance(source, ast.Name)
                                       and (source.id == SHOWN or source.id in spec.vars
                                            or cell_function(spec, source.id))):
            raise err(source, f"an answer section's argument names a variable of the spec "
                              f"({', '.join(spec.vars) or 'none'}), '{SHOWN}', the grid "
                              f"it shows, or a `let` function of one cell")
        if codec.answer is not None and codec.layers == 0:
            continue
        if not args and _is_option(c.name):
            continue        # the option must be off: a file with it is refused
        if len(args) != codec.layers:
            raise err(c, f"'{c.name}' fills {_plural(codec.layers, 'layer')}: name "
                         f"{'it' if codec.layers == 1 else 'them'} ({codec.doc})")
        for a in args:
            if not isinstance(a, ast.Name) or a.id not in known:
                raise err(a, "a codec's arguments name the spec's layers ("
                             + ", ".join(spec.layer_names) + ")"
                             + (" or parameters (" + ", ".join(spec.params) + ")"
                                if spec.params else ""))


def _is_option(codec: str) -> bool:
    """A pzprv3 rule option (a flag line, the options line): with no argument
    in the spec it must be off."""
    return codec == "flags" or codec.startswith("flag_")


def _plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


# ------------------------------------------------------------------ reading

def read_url(spec: ast.Spec, text: str, name: str, source: Source | None = None,
             line: int = 1) -> Instance:
    """One instance from a puzz.link URL (``source``/``line``: the file and
    line it was read from, for errors; else the URL itself)."""
    return read_url_by_type(lambda ptype, fail: spec, text, name, source, line)[1]


def read_url_by_type(spec_for_type, text: str, name: str, source: Source | None = None,
                     line: int = 1) -> tuple:
    """(spec, instance) of a puzz.link URL, read by the spec that
    ``spec_for_type(ptype, fail)`` gives for its puzzle type (``fail(message)``:
    the error, located at the type, to raise when no spec reads it).  A URL
    that cannot be read is the same located error whichever spec is given."""
    text = text.strip()
    src = source or Source(name, text)
    column0 = (src.line(line).find(text) + 1) if source else 1

    def fail(message, offset=None):
        if isinstance(offset, str):         # the puzzle type: where it is written
            offset = max(text.find("?" + offset), text.find("/" + offset)) + 1
        return src.error((line, column0 + (offset or 0)), message)

    try:
        url = parse_url(text)
    except FormatError as e:
        raise fail(e.message, e.offset) from None
    if url.file is not None:        # a "duplicate" URL: a whole pzprv3 file
        return read_pzprv3_by_type(spec_for_type, Source(name, url.file))
    spec = spec_for_type(url.type, lambda message: fail(message, url.type))
    binding = _binding(spec, "url", url.type, fail)
    if url.pflag:
        raise fail(f"this URL's flag '{url.pflag}' asks for a variant of the rules; the "
                   f"spec '{spec.name}' reads the standard rules", text.find(url.pflag))
    rows, cols = codec_table.board_size(binding.codecs, url.rows, url.cols)
    try:
        values = codec_table.decode_layers(binding.codecs, url.body, url.rows, url.cols,
                                           url.body_offset, optional=binding.optional)
    except FormatError as e:
        raise fail(e.message, e.offset) from None
    inst = Instance(name, src, "tokens", SquareGrid(cols, rows), start_line=line)
    place = (line, column0 + url.body_offset)
    _fill(spec, binding, values, inst, place, lambda m: fail(m, url.body_offset))
    return spec, inst


def read_pzprv3(spec: ast.Spec, source: Source) -> Instance:
    """One instance from a pzprv3 file."""
    return read_pzprv3_by_type(lambda ptype, fail: spec, source)[1]


def read_pzprv3_by_type(spec_for_type, source: Source) -> tuple:
    """(spec, instance) of a pzprv3 file, read by the spec that
    ``spec_for_type(ptype, fail)`` gives for its puzzle type (as read_url_by_type)."""
    def fail(message, line=None):
        return source.error((line if isinstance(line, int) else 1, 1), message)

    try:
        ptype, urows, ucols, lines = parse_pzprv3(source.text)
    except FormatError as e:
        raise fail(e.message, e.line) from None
    type_line = next((n for n, text in enumerate(source.text.split("\n"), 1)
                      if text.strip() == ptype), 2)
    spec = spec_for_type(ptype, lambda message: fail(message, type_line))
    binding = _binding(spec, "file", ptype, lambda m, _=None: fail(m, type_line))
    rows, cols = urows, ucols
    if any(codec_table.FILE_CODECS[n].margin for n in binding.codecs):
        rows, cols = urows + 1, ucols + 1
    try:
        values = codec_table.decode_file_layers(binding.codecs, lines, urows, ucols)
    except FormatError as e:
        raise fail(e.message, e.line) from None
    inst = Instance(source.path, source, "tokens", SquareGrid(cols, rows))
    _fill(spec, binding, values, inst, (1, 1), lambda m: fail(m))
    return spec, inst


def _binding(spec, kind, ptype, fail) -> Binding:
    line = spec.url if kind == "url" else spec.file
    names = spec.url_types + ([n for n, _ in line.types if n not in spec.url_types]
                              if kind == "file" and line else [])
    if line is None:
        raise fail(f"the spec '{spec.name}' reads no puzz.link "
                   f"{'URL' if kind == 'url' else 'pzprv3 file'}: it has no '{kind}' line")
    if ptype not in names:
        raise fail(f"this is a '{ptype}' puzzle, but the spec '{spec.name}' reads "
                   + " and ".join(f"'{n}'" for n in names), ptype)
    return Binding(spec, line)


def _fill(spec, binding: Binding, values: list, inst: Instance, place, fail):
    """Put the codecs' values into the instance's layers and parameters."""
    k = 0
    inst.outside = outside_sides(spec)
    inst.points = board_option(spec, "points") is not None
    inst.doubled = board_option(spec, "doubled") is not None
    places = inst.clue_places() or set()
    blanks = blank_tokens(spec)
    for i, targets in enumerate(binding.targets):
        if not targets and _is_option(binding.codecs[i]):
            on = values[k]
            if on:
                names = ", ".join(on) if isinstance(on, list) else binding.codecs[i][5:]
                raise fail(f"this puzzle's option '{names}' asks for a variant of the rules; "
                           f"the spec '{spec.name}' reads the standard rules")
            k += 1
            continue
        for target in targets:
            value = values[k]
            k += 1
            if target in spec.params:
                inst.params[target] = tuple(value) if spec.params[target].rest else int(value)
                continue
            if not isinstance(value, dict):
                raise fail(f"the codec '{binding.codecs[i]}' gives a number, not the layer "
                           f"'{target}'")
            extra = places if target == "clues" else ()
            layer = binding.layer_tokens(i, value, inst.geometry, blanks, extra)
            if target == "clues":          # several codecs may fill it (outside, inside)
                inst.clues.update(layer)
                inst.tokens.update({cell: clue_token(inst, cell) for cell in layer})
            else:                          # a later codec's cells replace the earlier's
                inst.layers[target] = Record({**inst.layers.get(target, {}), **layer})
    inst.positions = SamePlace(inst.geometry, place)
    for name in spec.layer_names:
        if name == "regions" and name not in inst.layers:
            inst.layers[name] = Record(big_dict(inst.geometry.cells, 1))
        elif name not in ("clues", "regions"):
            inst.layers.setdefault(name, Record({}))
    for name, p in spec.params.items():
        if name not in inst.params:
            if p.rest:
                inst.params[name] = ()
                continue
            if p.default is None:
                raise fail(f"the spec's parameter '{name}' is not in this puzzle's "
                           f"{binding.line.kind}")
            inst.params[name] = p.default.value


# ------------------------------------------------------------------ writing

def _values(spec, binding: Binding, inst: Instance) -> list:
    out = []
    blanks = blank_tokens(spec)
    cells = inst.geometry.cells
    for i, targets in enumerate(binding.targets):
        if not targets and _is_option(binding.codecs[i]):
            out.append([] if binding.codecs[i] == "flags" else False)
        for target in targets:
            if target in spec.params:
                out.append(inst.params[target])
            elif target == "clues":       # each codec its share: the cells, outside, dots
                share = binding.registry[binding.codecs[i]].places
                inside = inst.geometry.cell_set
                mine = {c: v for c, v in inst.clues.items()
                        if (share in ("dots", "doubled", "all")
                            or (c in inside) == (share == "cells"))
                        and binding.writes(i, target, v)}
                out.append(_written(binding.layer_raw(i, mine, cells if share == "cells" else (),
                                                      blanks)))
            elif target == "regions":        # any ids -> 1..k, as the codecs number rooms
                number = {}
                out.append({c: number.setdefault(v, len(number) + 1)
                            for c, v in sorted(inst.layers[target].items())
                            if binding.writes(i, target, v)})
            else:
                out.append(_written(binding.layer_raw(
                    i, {c: v for c, v in inst.layers[target].items()
                        if binding.writes(i, target, v)}, cells, blanks)))
    return out


def _written(layer: dict) -> dict:
    """What pzprjs is given of a layer: a token a pair maps to pzprjs's -1 (an
    empty place; Nonogram's 0, an empty row) is left out, and so is such an
    item of a list of numbers (an empty list with it)."""
    out = {}
    for place, raw in layer.items():
        if type(raw) is tuple:
            raw = tuple(x for x in raw if x != EMPTY)
            if raw:
                out[place] = raw
        elif raw != EMPTY:
            out[place] = raw
    return out


def write_url(spec: ast.Spec, inst: Instance) -> str:
    """The instance as puzz.link writes its URL."""
    binding = _writer(spec, "url", inst)
    g = inst.geometry
    rows, cols = codec_table.url_size(binding.codecs, g.height, g.width)
    try:
        body = codec_table.encode_layers(binding.codecs, _values(spec, binding, inst), rows, cols,
                                         optional=binding.optional)
    except FormatError as e:
        raise PzcError(f"{inst.name}: cannot be written as a puzz.link URL: {e.message}") from None
    return make_url(binding.types[0], cols, rows, body)


def write_pzprv3(spec: ast.Spec, inst: Instance, answer=None) -> str:
    """The instance as a pzprv3 file: its answer sections empty, or holding
    ``answer`` as puzz.link saves a solved puzzle.  ``answer``: the verified
    answer's data (encoder/answer_data.AnswerData, or any object with its
    ``values``, ``kinds`` and ``cells``); a value it leaves out (a partial
    answer) leaves its place empty.  The sections say what fills them
    (formats/answers.py); a spec whose file line fills none is an error."""
    binding = _writer(spec, "file", inst)
    g = inst.geometry
    margin = int(any(codec_table.FILE_CODECS[n].margin for n in binding.codecs))
    rows, cols = g.height - margin, g.width - margin
    answers = _answers(spec, binding, inst, answer, margin) if answer is not None else None
    try:
        lines = codec_table.encode_file_layers(binding.codecs, _values(spec, binding, inst),
                                               rows, cols, answers)
    except FormatError as e:
        raise PzcError(f"{inst.name}: cannot be written as a pzprv3 file: {e.message}") from None
    return make_pzprv3(binding.types[0] if binding.types else spec.url_types[0], rows, cols, lines)


def check_answer_file(spec: ast.Spec) -> None:
    """A PzcError (exit 2) unless the spec writes answers in pzprv3 files: a
    `file` line with a section that names what fills it."""
    if spec.file is None or not (spec.url_types or spec.file.types):
        raise PzcError(f"the spec '{spec.name}' has no 'file' line: pzc cannot write its "
                       f"puzzles as pzprv3 files")
    if not any(Binding(spec, spec.file).sources):
        raise PzcError(f"the spec '{spec.name}' writes no answer in pzprv3 files: its "
                       f"'file' line names no variable for an answer section (such as "
                       f"'cellans(shaded)'; docs/language.md, \"url and file\")")


def _answers(spec, binding: Binding, inst: Instance, answer, margin: int) -> list:
    """Per codec of the file line, the raw tokens of the answer it holds (None)."""
    check_answer_file(spec)
    blanks = blank_tokens(spec)
    cells = inst.geometry.cell_set
    out = []
    for k, source in enumerate(binding.sources):
        if source is None:
            out.append(None)
            continue

        def clue_reads(cell, raw, k=k):
            # a question section holding the answer too: a clue stays unless
            # the raw token reads back as the same clue
            if cell not in inst.clues:
                return True
            if not binding.targets[k]:
                return binding.registry[binding.codecs[k]].answer_on_clues
            return binding.to_token(k, codec_table.Mark(raw)) == inst.clues[cell]
        out.append(answer_tokens(spec, binding, k, answer, cells, margin, binding.letters,
                                 blanks, clue_reads))
    return out


def _writer(spec, kind, inst) -> Binding:
    line = spec.url if kind == "url" else spec.file
    if line is None or not (spec.url_types or line.types):
        raise PzcError(f"the spec '{spec.name}' has no '{kind}' line: pzc cannot write its "
                       f"puzzles as puzz.link {'URLs' if kind == 'url' else 'files'}")
    if not isinstance(inst.geometry, SquareGrid):
        raise PzcError(f"{inst.name}: only square boards are written for puzz.link")
    return Binding(spec, line)


# ------------------------------------------------------------------ text

def outside_sides(spec: ast.Spec) -> tuple:
    """The sides the spec's board option `outside` names, in its order."""
    opt = board_option(spec, "outside")
    return tuple(opt.value.value.replace(",", " ").split()) if opt is not None else ()


def clue_token(inst: Instance, place) -> str:
    """The text of the clue at ``place``: as the instance wrote it, else its
    value (a list of numbers joined by commas)."""
    if place in inst.tokens:
        return inst.tokens[place]
    value = inst.clues[place]
    return ",".join(str(x) for x in value) if type(value) is tuple else str(value)


def write_text(spec: ast.Spec, inst: Instance, blank: str) -> str:
    """The instance as a pzc text instance: a "W H [parameters]" header, then
    one token grid per layer (every layer of the spec, in order)."""
    g = inst.geometry
    if isinstance(g, HexGrid):          # the side, then the indented hexagon, '+' on locks
        from ..encoder.render import layout_rows
        tokens = {c: inst.tokens.get(c, str(inst.clues[c])) if c in inst.clues else blank
                  for c in g.cells}
        return f"{g.side}\n" + "\n".join(layout_rows(inst, tokens)) + "\n"
    if not isinstance(g, SquareGrid):
        raise PzcError(f"{inst.name}: only square and hex boards are written as text grids")
    numbers = [x for p in spec.params for x in (inst.params[p] if spec.params[p].rest
                                                  else [inst.params[p]])]
    head = " ".join(str(x) for x in [g.width, g.height] + numbers)
    grids = []
    if inst.outside:       # "R C", then a line a side (with lists: a line a row or column)
        head = " ".join(str(x) for x in [g.height, g.width] + numbers)
        lists = board_option(spec, "lists") is not None
        for side in inst.outside:
            places = side_places(side, g.height, g.width)
            if lists:
                grids.append("\n".join(" ".join(str(x) for x in inst.clues[p]) if p in inst.clues
                                       else blank for p in places))
            else:
                grids.append(" ".join(clue_token(inst, p) if p in inst.clues else blank
                                      for p in places))
    if inst.points or inst.doubled:     # the grid of the dots, or the doubled grid
        h, w = (g.height + 1, g.width + 1) if inst.points else (2 * g.height + 1, 2 * g.width + 1)
        grids.append("\n".join(" ".join(clue_token(inst, (r, k)) if (r, k) in inst.clues else blank
                                        for k in range(w)) for r in range(h)))
        return head + "\n" + "\n".join(grids) + "\n"
    for name in spec.layer_names:
        if name == "clues":
            layer = {c: clue_token(inst, c) for c in inst.clues}
        else:
            layer = {c: str(v) for c, v in inst.layers.get(name, {}).items()}
        grids.append("\n".join(" ".join(layer.get((r, k), blank) for k in range(g.width))
                               for r in range(g.height)))
    return head + "\n" + "\n".join(grids) + "\n"
