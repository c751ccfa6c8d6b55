"""The static checker (pzc.encoder.check): unknown names, arity, types, rules,
board kinds and options, built-in names, specs that show nothing; the built-in
specs pass it.  Errors are compared exactly: message, line and column."""

from __future__ import annotations

import pytest

from pzc import api
from pzc.encoder import check, syntax
from pzc.runtime.errors import PzcError

HEAD = "puzzle p\nboard square\nvar v[c in cells] : 1..9\nvar b[c in cells] : bool\nshow v\n"
L = 6          # the line of the first statement after HEAD

BOOL_AS_INT = ("a bool is used as an int here; count(...) or 'if ... then 1 else 0' "
               "turns bools into numbers")
INT_AS_BOOL = "an int is used as a bool here; compare it, as in x > 0"


def checked(text: str, path="s.pz"):
    return check.check(syntax.parse(text, path))


def error(text: str) -> PzcError:
    with pytest.raises(PzcError) as info:
        checked(text)
    return info.value


def where(err: PzcError):
    return err.message, err.line, err.column


def test_a_good_spec_passes_and_is_returned_unchanged():
    spec = syntax.parse(HEAD + "rule r: all c in cells: b[c] -> v[c] > 1\n", "s.pz")
    assert check.check(spec) is spec
    assert check.summary(spec) == "p: ok; board square; variables v, b; 1 rule; shows grid"


# ------------------------------------------------------------------ unknown names

UNKNOWN = [
    ("rule r: all c in cels: v[c] = 1", 18, "unknown name 'cels'; did you mean 'cells'?"),
    ("rule r: all c in cells: vv[c] = 1", 25, "unknown name 'vv'; did you mean 'v'?"),
    ("rule r: all cell in cells: v[cel] = 1", 30, "unknown name 'cel'; did you mean 'cell'?"),
    ("rule r: all c in cells: v[c] = clu(c)", 32, "unknown function 'clu'; did you mean 'clue'?"),
    ("rule r: all c in cells: v[c] = nieghbours(c)", 32,
     "unknown function 'nieghbours'; did you mean 'neighbours'?"),
    ("rule r: conut(c in cells: b[c]) = 1", 9, "unknown function 'conut'; did you mean 'count'?"),
    ("rule r: all r in rowz: true", 18, "unknown name 'rowz'; did you mean 'rows'?"),
    ("rule r: widht = 9", 9, "unknown name 'widht'; did you mean 'width'?"),
    ("rule r: all c in cells: v[c] = zzz", 32, "unknown name 'zzz'"),
    ("rule r: qqq(1) = 1", 9, "unknown function 'qqq'"),
]


@pytest.mark.parametrize("line, column, message", UNKNOWN, ids=[u[0] for u in UNKNOWN])
def test_unknown_names_with_suggestions(line, column, message):
    assert where(error(HEAD + line + "\n")) == (message, L, column)


def test_suggestions_include_lets_and_let_functions():
    text = HEAD + "let total = 3\nlet double(x) = 2 * x\nrule r: totl = dobule(1)\n"
    assert where(error(text)) == ("unknown name 'totl'; did you mean 'total'?", L + 2, 9)
    text = HEAD + "let total = 3\nlet double(x) = 2 * x\nrule r: total = dobule(1)\n"
    assert where(error(text)) == ("unknown function 'dobule'; did you mean 'double'?", L + 2, 17)


def test_unknown_names_are_found_in_every_statement_kind():
    cases = [
        ("let k = wdth\n", (L, 9), "unknown name 'wdth'; did you mean 'width'?"),
        ("var w[c in cels] : bool\n", (L, 12), "unknown name 'cels'; did you mean 'cells'?"),
        ("var w[c in cells] : 1..wdth\n", (L, 24), "unknown name 'wdth'; did you mean 'width'?"),
        ("require wdth = 9\n", (L, 9), "unknown name 'wdth'; did you mean 'width'?"),
        ("let f(x) = x + y\n", (L, 16), "unknown name 'y'"),
        ("show moves(c in cells): to = cc\n", (L, 30), "unknown name 'cc'; did you mean 'c'?"),
    ]
    for text, pos, message in cases:
        assert where(error(HEAD + text)) == (message, *pos), text
    # the cell of `show d: ...` is in scope, others are not
    text = "puzzle p\nboard square\nvar v[c in cells] : 1..9\nshow d: v[c]\n"
    assert where(error(text)) == ("unknown name 'c'", 4, 11)
    text = "puzzle p\nboard square(clues: 1..m)\nvar v[c in cells] : 1..9\nshow v\n"
    assert where(error(text)) == ("unknown name 'm'", 2, 24)


def test_binder_names_are_local_to_their_quantifier():
    text = HEAD + "rule r: (all c in cells: v[c] > 0) and v[c] = 1\n"
    assert where(error(text)) == ("unknown name 'c'", L, 42)


# ------------------------------------------------------------------ arity

ARITY = [
    ("rule r: all c in cells: v[c] = clue(c, 1)", 32, "'clue' takes 1 argument, not 2"),
    ("rule r: all c in cells: given() ", 25, "'given' takes 1 argument, not 0"),
    ("rule r: all x in boxes(3): true", 18, "'boxes' takes 2 arguments, not 1"),
    ('rule r: get(input, "a") = 1', 9, "'get' takes 3 arguments, not 2"),
    ("rule r: all c in cells: v[c, 1] = 1", 25, "'v' takes 1 index, not 2"),
    ("rule r: v[] = 1", 11, None),                     # a syntax error: [] needs an index
    ("rule r: all c in cells: v = 1", 25, "'v' is indexed: write v[...]"),
    ("rule r: v(1) = 1", 9, "'v' is a variable: index it as v[...]"),
    ("rule r: clue = 1", 9, "'clue' is a function: call it as clue(...)"),
    ("rule r: count = 1", 9, "'count' is a function: call it as count(...)"),
    ("rule r: count() = 1", 9, "'count' needs arguments"),
    ("rule r: all c in cells: neighbours(d in cells: true) = cells", 25,
     "'neighbours' takes plain arguments, not binders"),
]


@pytest.mark.parametrize("line, column, message", ARITY, ids=[a[0] for a in ARITY])
def test_wrong_arity(line, column, message):
    err = error(HEAD + line + "\n")
    assert (err.line, err.column) == (L, column)
    if message is not None:
        assert err.message == message


def test_let_function_arity_and_misuse():
    lets = "let f(a, b) = a + b\nlet k = 3\nlet g() = 1\n"
    cases = [
        ("rule r: f(1) = 2", 9, "'f' takes 2 arguments, not 1"),
        ("rule r: f(1, 2, 3) = 2", 9, "'f' takes 2 arguments, not 3"),
        ("rule r: g(1) = 1", 9, "'g' takes 0 arguments, not 1"),
        ("rule r: f = 2", 9, "'f' is a function: call it as f(...)"),
        ("rule r: k(1) = 1", 9, "'k' is a value, not a function"),
        ("rule r: f(c in cells: 1) = 1", 9, "'f' takes plain arguments, not binders"),
    ]
    for line, column, message in cases:
        assert where(error(HEAD + lets + line + "\n")) == (message, L + 3, column), line
    assert checked(HEAD + lets + "rule r: f(1, 2) = k + g()\n")


def test_several_index_variable():
    text = HEAD + "var z[c in cells, k in 0..3] : bool\n"
    assert checked(text + "rule r: all c in cells: z[c, 1]\n")
    assert where(error(text + "rule r: all c in cells: z[c]\n")) == \
        ("'z' takes 2 indices, not 1", L + 1, 25)
    text = HEAD + "var one : 0..3\n"
    assert where(error(text + "rule r: one[1] = 1\n")) == ("'one' takes 0 indices, not 1", L + 1, 9)


# ------------------------------------------------------------------ bool / int

TYPES = [
    ("rule r: all c in cells: v[c] + b[c] = 2", 32, BOOL_AS_INT),
    ("rule r: all c in cells: b[c] * 2 = 2", 25, BOOL_AS_INT),
    ("rule r: all c in cells: b[c] < 1", 25, BOOL_AS_INT),
    ("rule r: sum(c in cells: b[c]) = 3", 25, BOOL_AS_INT),
    ("rule r: sum(c in cells: v[c] = 1) = 3", 30, BOOL_AS_INT),
    ("rule r: -true = 1", 10, BOOL_AS_INT),
    ("rule r: isqrt(true) = 1", 15, BOOL_AS_INT),
    ("rule r: all c in cells: v[c] and true", 25, INT_AS_BOOL),
    ("rule r: all c in cells: true or v[c]", 33, INT_AS_BOOL),
    ("rule r: all c in cells: not v[c]", 29, INT_AS_BOOL),
    ("rule r: all c in cells: v[c] -> b[c]", 25, INT_AS_BOOL),
    ("rule r: count(c in cells: v[c]) = 1", 27, INT_AS_BOOL),
    ("rule r: all c in cells where v[c]: b[c]", 30, INT_AS_BOOL),
    ("rule r: if 1 then true else false", 12, INT_AS_BOOL),
    ("rule r: all c in cells: v[c]", 25, INT_AS_BOOL),
    ("rule r: all c in cells: b[c] = 1", 32, "cannot compare a bool with an int"),
    ("rule r: if true then 1 else false", 29,
     "both branches of 'if' must be bools or neither: an int and a bool"),
]


@pytest.mark.parametrize("line, column, message", TYPES, ids=[t[0] for t in TYPES])
def test_bool_used_as_int_and_int_used_as_bool(line, column, message):
    assert where(error(HEAD + line + "\n")) == (message, L, column)


def test_bools_become_ints_the_documented_ways():
    assert checked(HEAD + "rule r: count(c in cells: b[c]) = sum(c in cells: "
                          "if b[c] then 1 else 0)\n")
    assert checked(HEAD + "rule r: all c in cells: b[c] = (v[c] > 4)\n")


# ------------------------------------------------------------------ rule bodies

RULE_BODIES = [
    ("rule r: 1 + 2", 11, INT_AS_BOOL),
    ("rule r: width", 9, INT_AS_BOOL),
    ("rule r: cells", 9, "a rule must be a bool, but this is a set"),
    ('rule r: "yes"', 9, "a rule must be a bool, but this is a symbol"),
    ("require 1", 9, INT_AS_BOOL),
    ("require cells", 9, "a require must be a bool, but this is a set"),
    ("rule r: all c in cells: c", 25, "the body of 'all' must be a bool, but this is a cell"),
]


@pytest.mark.parametrize("line, column, message", RULE_BODIES, ids=[r[0] for r in RULE_BODIES])
def test_rule_and_require_bodies_must_be_bool(line, column, message):
    assert where(error(HEAD + line + "\n")) == (message, L, column)


OTHER_TYPES = [
    ("rule r: all c in 3: true", 18, "a binder ranges over a set, not an int"),
    ("rule r: 1 in 3", 14, "'in' needs a set on its right, not an int"),
    ("rule r: width[1] = 1", 9, "an int cannot be indexed"),
    ("rule r: width.x = 1", 15, "an int has no field 'x'"),
    ("rule r: all c in cells: c.foo = 1", 27, "a cell has fields row and col, not 'foo'"),
    ("rule r: all e in edges: e.c = e.b", 27, "an edge has fields a and b, not 'c'"),
    ("rule r: all c in cells: neighbours(1) = cells", 36, "'neighbours' takes a cell, not an int"),
    ("var w : 3", 9, "a domain is 'bool', a range such as 1..9 or a set, not an int"),
]


@pytest.mark.parametrize("line, column, message", OTHER_TYPES, ids=[o[0] for o in OTHER_TYPES])
def test_other_type_errors(line, column, message):
    assert where(error(HEAD + line + "\n")) == (message, L, column)


# ------------------------------------------------------------------ board

BOARDS = [
    ("board circle", (2, 7), "unknown board kind 'circle'; choose square, hex, json"),
    ("board square(foo: 1)", (2, 14), "unknown board option 'foo'; options: clues, blank, lines, each, target, outside, lists, letters, points, doubled"),
    ("board square(outside: \"top up\")", (2, 23),
     "'outside' is a string of sides, each once: top, bottom, left, right (e.g. outside: \"top left\")"),
    ("board square(outside: \"left left\")", (2, 23),
     "'outside' is a string of sides, each once: top, bottom, left, right (e.g. outside: \"top left\")"),
    ("board hex(outside: \"top\")", (2, 11), "'outside' is for square boards"),
    ("board square(points, lines)", (2, 1),
     "a board of dot clues ('points') takes no 'outside', 'lines', 'target' or 'doubled' option"),
    ("board square(doubled, target)", (2, 1),
     "a doubled grid ('doubled') takes no 'outside', 'lines', 'target' or 'points' option"),
    ("board square(lists: 2)", (2, 14), "'lists' takes no value"),
    ("board square(lines: 1)", (2, 14), "'lines' takes no value"),
    ("board hex(lines)", (2, 11), "'lines' is for square boards"),
    ("board square(blank)", (2, 14),
     "'blank' needs a value: the characters that mark an empty cell, e.g. blank: \".0\""),
    ("board square(blank: 1)", (2, 14),
     "'blank' is a string: the characters that mark an empty cell, e.g. blank: \".0\""),
    ("board square(clues)", (2, 14), "'clues' needs a value: a set of allowed clue values, "
                                     "e.g. clues: 1..n"),
    ("board square(clues: 1)", (2, 21), "'clues' is a set of allowed clue values, e.g. clues: 1..n"),
    ("board square(lines, lines)", (2, 21), "board option 'lines' is given twice"),
    ('board json(blank: ".")', (2, 1), "a json board takes no 'blank' or 'clues' option"),
    ("board json(clues: 1..3)", (2, 1), "a json board takes no 'blank' or 'clues' option"),
]


@pytest.mark.parametrize("board, pos, message", BOARDS, ids=[b[0] for b in BOARDS])
def test_bad_board_kinds_and_options(board, pos, message):
    text = f"puzzle p\n{board}\nvar v[c in cells] : 1..9\nshow v\n"
    assert where(error(text)) == (message, *pos)


def test_good_board_options():
    for board in ['board square(lines, blank: ".0", clues: 1..9)', "board hex(clues: 0..6)",
                  'board square(blank: "-", clues: {1, 2, "x"})', "board json"]:
        text = f"puzzle p\n{board}\nvar v : bool\nshow c: v\n"
        assert checked(text).board.kind == board.split()[1].split("(")[0]


# ------------------------------------------------------------------ built-in names

@pytest.mark.parametrize("stmt", ["let cells = 1", "let width = 3", "let neighbours = 1",
                                  "let count(x) = 1", "var count : bool", "var rows : bool",
                                  "let input = 1", "var clue[c in cells] : bool"])
def test_built_in_names_cannot_be_redefined(stmt):
    name = stmt.split()[1].split("(")[0].split("[")[0]
    err = error(HEAD + stmt + "\n")
    assert where(err) == (f"'{name}' is a built-in name; choose another name", L, 1)


def test_a_json_board_defines_its_own_cells():
    text = ("puzzle p\nboard json\nlet cells = {(0, 0), (0, 1)}\n"
            "var v[c in cells] : bool\nshow v\n")
    assert list(checked(text).lets) == ["cells"]
    err = error(text.replace("board json", "board square"))
    assert where(err) == ("'cells' is a built-in name; choose another name", 3, 1)


# ------------------------------------------------------------------ shows

def test_a_spec_without_show_is_an_error():
    err = error("puzzle p\nboard square\nvar v[c in cells] : 1..9\nrule r: true\n")
    assert where(err) == ("the spec shows nothing: add 'show v' (a variable per cell), "
                          "'show c: expr', 'show moves(...)' or, in a plan, "
                          "'show moves ACTION: ...'", 1, 1)


def test_show_moves_alone_is_enough():
    text = ("puzzle p\nboard square\nvar v[c in cells] : bool\n"
            "show moves(c in cells where v[c]): at = c\n")
    spec = checked(text)
    assert check.summary(spec) == "p: ok; board square; variables v; 0 rules; shows moves"


# ------------------------------------------------------------------ load_spec

def test_load_spec_from_a_file_checks_it(write):
    path = write("typo.pz", HEAD + "rule r: all c in cels: v[c] > 0\n")
    with pytest.raises(PzcError) as info:
        api.load_spec(str(path))
    err = info.value
    assert err.file == str(path)
    assert where(err) == ("unknown name 'cels'; did you mean 'cells'?", L, 18)
    assert err.format().splitlines() == [
        f"{path}:{L}:18: error: unknown name 'cels'; did you mean 'cells'?",
        "    rule r: all c in cels: v[c] > 0",
        "                     ^"]


def test_load_spec_from_a_good_file(write):
    path = write("latin.pz", HEAD + "rule rows: all r in rows: distinct(v[c] for c in r)\n"
                                    "implied rule any: true\n")
    spec = api.load_spec(str(path))
    assert check.summary(spec) == \
        "p: ok; board square; variables v, b; 1 rule (+1 implied); shows grid"


SUMMARIES = {
    "sudoku": "sudoku: ok; board square; variables v; 4 rules; shows grid",
    "hexiom": "hexiom: ok; board hex; variables tile; 3 rules (+2 implied); shows grid",
    "puzlogic": "puzlogic: ok; board json; variables put; 4 rules; shows grid and moves",
}


@pytest.mark.parametrize("name", sorted(SUMMARIES))
def test_built_in_specs_pass_the_checker(name):
    spec = api.load_spec(name)
    assert spec.source.path == f"<builtin>/{name}.pz"
    assert check.summary(spec) == SUMMARIES[name]


@pytest.mark.parametrize("name", sorted(SUMMARIES))
def test_built_in_specs_pass_pzc_check(name, run_pzc):
    run = run_pzc("check", name)
    assert (run.returncode, run.stdout, run.stderr) == (0, SUMMARIES[name] + "\n", "")
