"""The parser (pzc.encoder.syntax.parse): statements, expressions, precedence,
positions and syntax errors.

Expressions are compared through `sx`, a compact S-expression rendering of the
AST written here, so a test reads as the tree it expects:
`a and b or c` is `(or (and a b) c)`.
"""

from __future__ import annotations

import pytest

from pzc.encoder import syntax as ast
from pzc.encoder.syntax import parse
from pzc.runtime.errors import PzcError

HEAD = "puzzle p\nboard square\n"


def sx(node) -> str:
    """An S-expression for an expression node (independent of the parser)."""
    if isinstance(node, ast.Num):
        return str(node.value)
    if isinstance(node, ast.Str):
        return '"' + node.value + '"'
    if isinstance(node, ast.BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Binder):
        names = node.names[0] if len(node.names) == 1 else "(" + ",".join(node.names) + ")"
        out = f"{names} in {sx(node.source)}"
        return out + (f" where {sx(node.where)}" if node.where is not None else "")
    if isinstance(node, (ast.BoolOp, ast.Compare, ast.Binary)):
        return f"({node.op} {sx(node.left)} {sx(node.right)})"
    if isinstance(node, ast.Not):
        return f"(not {sx(node.operand)})"
    if isinstance(node, ast.Neg):
        return f"(neg {sx(node.operand)})"
    if isinstance(node, ast.Range):
        return f"(.. {sx(node.low)} {sx(node.high)})"
    if isinstance(node, ast.Ite):
        return f"(if {sx(node.cond)} {sx(node.then)} {sx(node.other)})"
    if isinstance(node, ast.Quant):
        return f"({node.kind} [{'; '.join(map(sx, node.binders))}] {sx(node.body)})"
    if isinstance(node, ast.Call):
        if node.binders is not None:
            return f"({node.func} [{'; '.join(map(sx, node.binders))}] {sx(node.body)})"
        return "(" + " ".join([node.func + "()"] + [sx(a) for a in node.args]) + ")"
    if isinstance(node, ast.Index):
        return f"{sx(node.base)}[{', '.join(map(sx, node.indices))}]"
    if isinstance(node, ast.Field):
        return f"{sx(node.base)}.{node.name}"
    if isinstance(node, ast.Collection):
        inner = " ".join(map(sx, node.items))
        return {"list": f"[{inner}]", "set": f"{{{inner}}}", "tuple": f"(tuple {inner})"}[node.kind]
    if isinstance(node, ast.Comprehension):
        inner = f"{sx(node.body)} for {'; '.join(map(sx, node.binders))}"
        return f"[{inner}]" if node.kind == "list" else f"{{{inner}}}"
    raise AssertionError(f"no rendering for {node!r}")


def body(expr: str):
    """The AST of one expression, parsed as the body of a rule."""
    spec = parse(HEAD + "rule r: " + expr + "\n")
    return spec.rules[0].body


def let_body(expr: str):
    return parse(HEAD + "let x = " + expr + "\n").lets["x"].body


def syntax_error(text: str) -> PzcError:
    with pytest.raises(PzcError) as info:
        parse(text, "s.pz")
    return info.value


# ------------------------------------------------------------------ statements

def test_puzzle_with_and_without_description():
    spec = parse('puzzle latin "Latin squares: each row and column once"\nboard square\n')
    assert spec.puzzle.name == "latin" and spec.name == "latin"
    assert spec.description == "Latin squares: each row and column once"
    assert spec.puzzle.pos == (1, 1)
    bare = parse("puzzle bare\nboard hex\n")
    assert bare.name == "bare" and bare.description == ""


def test_board_kind_and_options():
    spec = parse('puzzle p\nboard square(lines, blank: ".0", clues: 1..9)\n')
    board = spec.board
    assert board.kind == "square"
    assert board.pos == (2, 1) and board.kind_pos == (2, 7)
    assert [o.name for o in board.options] == ["lines", "blank", "clues"]
    lines, blank, clues = board.options
    assert lines.value is None and lines.pos == (2, 14)
    assert isinstance(blank.value, ast.Str) and blank.value.value == ".0"
    assert blank.pos == (2, 21)
    assert sx(clues.value) == "(.. 1 9)" and clues.pos == (2, 34)


@pytest.mark.parametrize("kind", ["square", "hex", "json"])
def test_board_without_options(kind):
    spec = parse(f"puzzle p\nboard {kind}\n")
    assert spec.board.kind == kind and spec.board.options == []


def test_let_value_and_functions():
    spec = parse(HEAD + "let n = width\nlet f(a, b) = a + b\nlet g() = 1\n")
    assert list(spec.lets) == ["n", "f", "g"]
    n, f, g = spec.lets.values()
    assert n.params is None and sx(n.body) == "width"
    assert f.params == ["a", "b"] and sx(f.body) == "(+ a b)"
    assert g.params == [] and sx(g.body) == "1"
    assert [x.pos for x in (n, f, g)] == [(3, 1), (4, 1), (5, 1)]


def test_var_domains_and_binders():
    spec = parse(HEAD + "var flag : bool\n"
                        "var v[c in cells] : 1..9\n"
                        "var z[c in cells, k in 0..3] : bool\n"
                        "var w[c in cells where given(c)] : {1, 2} + {\"a\"}\n"
                        "var t[(a, b) in pairs] : 0..1\n"
                        "var u : 0..3\n")
    vs = spec.vars
    assert list(vs) == ["flag", "v", "z", "w", "t", "u"]
    assert vs["flag"].binders == [] and vs["flag"].domain is None        # bool
    assert [sx(b) for b in vs["v"].binders] == ["c in cells"]
    assert sx(vs["v"].domain) == "(.. 1 9)"
    assert [sx(b) for b in vs["z"].binders] == ["c in cells", "k in (.. 0 3)"]
    assert vs["z"].domain is None
    assert [sx(b) for b in vs["w"].binders] == ["c in cells where (given() c)"]
    assert sx(vs["w"].domain) == '(+ {1 2} {"a"})'
    assert vs["t"].binders[0].names == ("a", "b")
    assert vs["u"].binders == [] and sx(vs["u"].domain) == "(.. 0 3)"


def test_rules_and_implied_rules_keep_their_order():
    spec = parse(HEAD + "rule a: true\nimplied rule b: false\nrule c: x = 1\n")
    assert [(r.name, r.implied) for r in spec.rules] == [("a", False), ("b", True), ("c", False)]
    assert [sx(r.body) for r in spec.rules] == ["true", "false", "(= x 1)"]
    assert [r.pos for r in spec.rules] == [(3, 1), (4, 1), (5, 1)]


def test_require_with_and_without_message():
    spec = parse(HEAD + 'require width = height else "square boards only"\nrequire true\n')
    first, second = spec.requires
    assert sx(first.test) == "(= width height)" and first.message == "square boards only"
    assert sx(second.test) == "true" and second.message == ""


def test_show_variable_is_show_cell_of_an_index():
    spec = parse(HEAD + "show v\n")
    show = spec.show_cell
    assert isinstance(show, ast.ShowCell)
    assert show.cell == "c" and sx(show.body) == "v[c]"
    assert show.pos == (3, 1) and show.body.base.pos == (3, 6)
    assert spec.show_moves is None


def test_show_cell_expression():
    spec = parse(HEAD + 'show d: if full(d) then tile[d] else "."\n')
    assert spec.show_cell.cell == "d"
    assert sx(spec.show_cell.body) == '(if (full() d) tile[d] ".")'


def test_show_moves_with_fields():
    spec = parse(HEAD + "show moves(c in open where put[c] != none): piece = put[c], to = c\n")
    moves = spec.show_moves
    assert [sx(b) for b in moves.binders] == ["c in open where (!= put[c] none)"]
    assert [(name, sx(e)) for name, e in moves.fields] == [("piece", "put[c]"), ("to", "c")]
    assert spec.show_cell is None


def test_statements_span_lines_and_comments_are_ignored():
    text = ("# a comment before everything\n"
            "puzzle p   # trailing comment\n"
            "board\n   square\n"
            "rule spread:\n    all c in cells:\n        # a comment inside a rule\n"
            "        v[c] = 1\n")
    spec = parse(text)
    assert spec.puzzle.pos == (2, 1) and spec.board.kind == "square"
    assert sx(spec.rules[0].body) == "(all [c in cells] (= v[c] 1))"
    assert spec.rules[0].body.body.pos == (8, 14)


def test_crlf_line_ends_parse_like_lf():
    lf = parse(HEAD + "rule r: all c in cells: v[c] = 1\n")
    crlf = parse((HEAD + "rule r: all c in cells: v[c] = 1\n").replace("\n", "\r\n"))
    assert sx(crlf.rules[0].body) == sx(lf.rules[0].body)
    assert crlf.rules[0].body.body.pos == lf.rules[0].body.body.pos == (3, 30)


def test_statement_order_is_recorded():
    spec = parse(HEAD + "var v : bool\nshow c: 1\nrule r: v\nlet k = 2\n")
    kinds = [type(s).__name__ for s in spec.statements]
    assert kinds == ["Puzzle", "Board", "Var", "ShowCell", "Rule", "Let"]


@pytest.mark.parametrize("word", ["moves", "grid", "text", "bool"])
def test_contextual_keywords_are_names_elsewhere(word):
    # `show moves(...)`, `show grid(...)`, `show text` and `: bool` are keywords only there
    spec = parse(HEAD + f"let {word} = 1\nrule r: {word} = 1\n")
    assert word in spec.lets
    assert sx(spec.rules[0].body) == f"(= {word} 1)"


# ------------------------------------------------------------------ expressions

PRECEDENCE = [
    # boolean operators: not > and > or > -> > <->
    ("a and b or c", "(or (and a b) c)"),
    ("a or b and c", "(or a (and b c))"),
    ("not a and b", "(and (not a) b)"),
    ("not not a", "(not (not a))"),
    ("a or b -> c", "(-> (or a b) c)"),
    ("a -> b -> c", "(-> a (-> b c))"),              # -> is right-associative
    ("a -> b <-> c -> d", "(<-> (-> a b) (-> c d))"),
    ("a <-> b <-> c", "(<-> (<-> a b) c)"),          # <-> is left-associative
    ("a and b and c", "(and (and a b) c)"),
    # comparisons bind tighter than not/and
    ("not a = b", "(not (= a b))"),
    ("a = b and c != d", "(and (= a b) (!= c d))"),
    ("x < y or x >= y", "(or (< x y) (>= x y))"),
    ("x <= 1 and y > 2", "(and (<= x 1) (> y 2))"),
    # membership
    ("x in S", "(in x S)"),
    ("x not in S", "(notin x S)"),
    ("x in S and y not in T", "(and (in x S) (notin y T))"),
    ("not x in S", "(not (in x S))"),
    ("x + 1 in 1..n + 1", "(in (+ x 1) (.. 1 (+ n 1)))"),
    # arithmetic
    ("1 + 2 * 3 = 7", "(= (+ 1 (* 2 3)) 7)"),
    ("(1 + 2) * 3 = 9", "(= (* (+ 1 2) 3) 9)"),
    ("a - b - c = 0", "(= (- (- a b) c) 0)"),
    ("a / b % c = 0", "(= (% (/ a b) c) 0)"),
    ("a * -b = 1", "(= (* a (neg b)) 1)"),
    ("-a - -b = 0", "(= (- (neg a) (neg b)) 0)"),
    ("- - a = 1", "(= (neg (neg a)) 1)"),
    ("x = -3", "(= x -3)"),                          # a negative literal is a number
    ("x = - 3", "(= x -3)"),
    ("-v[c] = 1", "(= (neg v[c]) 1)"),
    # ranges
    ("x in 1..9", "(in x (.. 1 9))"),
    ("x in a + 1..b * 2", "(in x (.. (+ a 1) (* b 2)))"),
    ("x in -1..1", "(in x (.. -1 1))"),
    # if-then-else: the else branch extends as far right as it can
    ("if a then b else c", "(if a b c)"),
    ("if a then 1 else 2 = x", "(if a 1 (= 2 x))"),
    ("(if a then 1 else 2) = x", "(= (if a 1 2) x)"),
    ("if a and b then c or d else e -> f", "(if (and a b) (or c d) (-> e f))"),
    ("if a then if b then 1 else 2 else 3", "(if a (if b 1 2) 3)"),
    ("x = (if a then 1 else 0) + 1", "(= x (+ (if a 1 0) 1))"),
    # literals
    ('x = "sym"', '(= x "sym")'),
    ("true or false", "(or true false)"),
]


@pytest.mark.parametrize("expr, tree", PRECEDENCE, ids=[e for e, _ in PRECEDENCE])
def test_operator_precedence(expr, tree):
    assert sx(body(expr)) == tree


QUANTIFIERS = [
    ("all c in cells: p and q", "(all [c in cells] (and p q))"),
    ("all c in cells: p -> q", "(all [c in cells] (-> p q))"),
    ("any c in cells: p or q", "(any [c in cells] (or p q))"),
    ("a and all c in cells: p or q", "(and a (all [c in cells] (or p q)))"),
    ("(all c in cells: p) and q", "(and (all [c in cells] p) q)"),
    ("not all c in S: p or q", "(not (all [c in S] (or p q)))"),
    ("all r in rows, c in r where given(c): v[c] = 1",
     "(all [r in rows; c in r where (given() c)] (= v[c] 1))"),
    ("all c in cells: any d in neighbours(c): v[c] = v[d]",
     "(all [c in cells] (any [d in (neighbours() c)] (= v[c] v[d])))"),
    ("all (a, b) in pairs: a != b", "(all [(a,b) in pairs] (!= a b))"),
    ("all k in 0..6: x = k", "(all [k in (.. 0 6)] (= x k))"),
    ("all c in cells where c in S and p(c): q", "(all [c in cells where (and (in c S) (p() c))] q)"),
]


@pytest.mark.parametrize("expr, tree", QUANTIFIERS, ids=[e for e, _ in QUANTIFIERS])
def test_quantifiers_extend_to_the_right(expr, tree):
    assert sx(body(expr)) == tree


AGGREGATES = [
    # binder form: f(x in S where p: body)
    ("count(c in cells where given(c): v[c] = 1) = 2",
     "(= (count [c in cells where (given() c)] (= v[c] 1)) 2)"),
    ("sum(c in r: v[c]) = 10", "(= (sum [c in r] v[c]) 10)"),
    ("count(c in cells, d in cells: v[c] = v[d]) = 0",
     "(= (count [c in cells; d in cells] (= v[c] v[d])) 0)"),
    ("count(c in cells: x and y) = 1", "(= (count [c in cells] (and x y)) 1)"),
    # generator form: f(body for x in S)
    ("distinct(v[c] for c in r)", "(distinct [c in r] v[c])"),
    ("distinct(v[c] for c in r where given(c))", "(distinct [c in r where (given() c)] v[c])"),
    ("sum(v[c] * 2 for c in r) = 4", "(= (sum [c in r] (* v[c] 2)) 4)"),
    # plain arguments
    ("distinct(a, b, c)", "(distinct() a b c)"),
    ("count(xs) = 1", "(= (count() xs) 1)"),
    ("max(1, 2) = min(x)", "(= (max() 1 2) (min() x))"),
    ("f() = 1", "(= (f()) 1)"),
]


@pytest.mark.parametrize("expr, tree", AGGREGATES, ids=[e for e, _ in AGGREGATES])
def test_aggregate_binder_and_generator_forms(expr, tree):
    assert sx(body(expr)) == tree


COLLECTIONS = [
    ("[1, 2, 3]", "[1 2 3]"),
    ("[]", "[]"),
    ("{1, 2}", "{1 2}"),
    ("{}", "{}"),
    ("{empty} + (0..6)", "(+ {empty} (.. 0 6))"),
    ("(1, 2)", "(tuple 1 2)"),
    ("(1,)", "(tuple 1)"),
    ("(1, 2, 3)", "(tuple 1 2 3)"),
    ("(1)", "1"),
    ("[x * 2 for x in S where x > 1]", "[(* x 2) for x in S where (> x 1)]"),
    ("{(b[0], b[1]) for b in input.board}", "{(tuple b[0] b[1]) for b in input.board}"),
    ("{a for (a, b) in T, c in U}", "{a for (a,b) in T; c in U}"),
    ("v[c]", "v[c]"),
    ("v[c, k]", "v[c, k]"),
    ("m[1][2]", "m[1][2]"),
    ("e.a.row", "e.a.row"),
    ("xs[0].row", "xs[0].row"),
    ("input.pieces[0]", "input.pieces[0]"),
    ("f(x)[1]", "(f() x)[1]"),
    ("[(b[0], b[1]) for b in input.board where b[2] = -1][0]",
     "[(tuple b[0] b[1]) for b in input.board where (= b[2] -1)][0]"),
    ('get(input, "sum_constraints", [])', '(get() input "sum_constraints" [])'),
]


@pytest.mark.parametrize("expr, tree", COLLECTIONS, ids=[e for e, _ in COLLECTIONS])
def test_collections_comprehensions_indexing_fields(expr, tree):
    assert sx(let_body(expr)) == tree


def test_string_escapes():
    assert let_body(r'"a\"b"').value == 'a"b'
    assert let_body(r'"tab\there"').value == "tab\there"
    assert let_body(r'"back\\slash"').value == "back\\slash"
    assert let_body('"plain # not a comment"').value == "plain # not a comment"
    assert let_body('"é"').value == "é"


# ------------------------------------------------------------------ positions

def test_positions_of_expression_nodes():
    #          1         2         3         4
    # 1234567890123456789012345678901234567890123456
    # rule r: all c in cells: v[c] + full(c) >= -x
    rule = parse(HEAD + "rule r: all c in cells: v[c] + full(c) >= -x\n").rules[0]
    assert rule.pos == (3, 1)
    quant = rule.body
    assert quant.pos == (3, 9)
    binder = quant.binders[0]
    assert binder.pos == (3, 13) and binder.source.pos == (3, 18)
    cmp_ = quant.body
    assert cmp_.op == ">=" and cmp_.pos == (3, 40)           # a comparison sits on its operator
    plus = cmp_.left
    assert plus.op == "+" and plus.pos == (3, 30)            # so does a binary operator
    assert plus.left.pos == (3, 25) and plus.left.indices[0].pos == (3, 27)
    assert plus.right.pos == (3, 32) and plus.right.args[0].pos == (3, 37)
    neg = cmp_.right
    assert isinstance(neg, ast.Neg) and neg.pos == (3, 43) and neg.operand.pos == (3, 44)


def test_positions_across_lines_and_of_fields():
    text = HEAD + "let k =\n  [1,\n     x.row]\nrule r:\n\n\tif a\n\tthen b else c\n"
    spec = parse(text)
    lst = spec.lets["k"].body
    assert lst.pos == (4, 3)
    assert lst.items[0].pos == (4, 4)
    field = lst.items[1]
    assert isinstance(field, ast.Field) and field.pos == (5, 8)  # on the field name
    assert field.base.pos == (5, 6)
    ite = spec.rules[0].body
    assert ite.pos == (8, 2)                                    # a tab is one column
    assert ite.then.pos == (9, 7) and ite.other.pos == (9, 14)


def test_positions_of_statements_and_board_options():
    spec = parse('puzzle p\n\n  board hex(clues: 0..6)\nvar t[c in cells] : bool\nshow t\n')
    assert spec.board.pos == (3, 3)
    assert spec.board.kind_pos == (3, 9)
    assert spec.board.options[0].pos == (3, 13)
    assert spec.board.options[0].value.pos == (3, 20)
    var = spec.vars["t"]
    assert var.pos == (4, 1) and var.binders[0].pos == (4, 7)


# ------------------------------------------------------------------ syntax errors

SYNTAX_ERRORS = [
    # (text after HEAD, line, column, message)
    ("rule r: a $ b\n", 3, 11, "unexpected character '$'"),
    ("rule r: a → b\n", 3, 11, "unexpected character '→'"),
    ('rule r: x = "open\n', 3, 13, "unexpected character '\"'"),
    ("rule r: a < b <= c\n", 3, 15, None),                 # comparisons do not chain
    ("rule r: a b\n", 3, 11, None),
    ("rule : true\n", 3, 6, None),
    ("rule r true\n", 3, 8, None),
    ("let = 3\n", 3, 5, None),
    ("var v[c in cells] 1..9\n", 3, 19, None),
    ("rule r: all c in cells v[c] = 1\n", 3, 24, None),
    ("rule r: if a then b\nrule s: true\n", 4, 1, None),
    ("show moves(c in S): piece\n", None, None, "unexpected end of spec"),
]


@pytest.mark.parametrize("text, line, column, message", SYNTAX_ERRORS,
                         ids=[t.splitlines()[0] for t, *_ in SYNTAX_ERRORS])
def test_syntax_error_positions(text, line, column, message):
    err = syntax_error(HEAD + text)
    assert err.file == "s.pz"
    if line is not None:
        assert (err.line, err.column) == (line, column)
        assert err.source_line == (HEAD + text).splitlines()[line - 1]
    if message is not None:
        assert err.message.startswith(message)
    assert "\n" not in err.message


def test_unexpected_token_names_the_token_and_what_was_expected():
    err = syntax_error(HEAD + "rule r true\n")
    assert err.message == "unexpected 'true'; expected ':'"


def test_unexpected_token_in_a_let():
    err = syntax_error(HEAD + "let = 3\n")
    assert err.message == "unexpected '='; expected a name"


def test_unexpected_end_of_spec_points_after_the_last_character():
    err = syntax_error(HEAD + "rule r: a +\n")
    assert (err.line, err.column) == (3, 12)
    assert err.message.startswith("unexpected end of spec; expected ")
    assert "a name" in err.message
    err = syntax_error(HEAD + "rule r: (a")                # no final newline
    assert (err.line, err.column) == (3, 11)
    assert err.message == "unexpected end of spec; expected ')', ','"


def test_syntax_error_format_has_location_line_and_caret():
    err = syntax_error(HEAD + "rule r: a $ b\n")
    assert err.format() == ("s.pz:3:11: error: unexpected character '$'\n"
                            "    rule r: a $ b\n"
                            "              ^")
    assert str(err) == err.format()
    assert err.exit_code == 2
    assert err.as_json() == {"message": "unexpected character '$'", "file": "s.pz",
                             "line": 3, "column": 11}


def test_caret_under_a_tab_indented_line():
    err = syntax_error(HEAD + "\trule r: a $ b\n")
    assert (err.line, err.column) == (3, 12)
    lines = err.format().splitlines()
    assert lines[1] == "     rule r: a $ b"          # the tab shows as one space
    assert lines[2].index("^") == lines[1].index("$")


STRUCTURE_ERRORS = [
    ("rule r: all x: p\n", 3, 13, "expected a binder such as 'c in cells'"),
    ("rule r: all 1 in S: p\n", 3, 13, "the left side of a binder must be a name or a tuple of names"),
    ("rule r: all (x, 1) in S: p\n", 3, 13,
     "the left side of a binder must be a name or a tuple of names"),
    ("var v[c] : bool\n", 3, 7, "expected a binder such as 'c in cells'"),
    ("rule r: distinct(v[c] for c)\n", 3, 27, "expected a binder such as 'c in cells'"),
    ("rule r: f(x where p)\n", 3, 11, "'where' belongs to a binder, as in 'x in S where p: ...'"),
    ("let f(a, a) = 1\n", 3, 1, "repeated parameter name in 'f'"),
    ("let x = 1\nvar x : bool\n", 4, 1, "'x' is already defined on line 3"),
    ("var x : bool\nlet x = 1\n", 4, 1, "'x' is already defined on line 3"),
    ("puzzle q\n", 3, 1, "a spec has one 'puzzle' line"),
    ("board hex\n", 3, 1, "a spec has one 'board' line"),
    ("rule a: true\nrule a: false\n", 4, 1, "there is already a rule named 'a'"),
    ("rule a: true\nimplied rule a: false\n", 4, 1, "there is already a rule named 'a'"),
    ("show v\nshow c: 1\n", 4, 1, "a spec has at most one grid 'show'"),
    ("show moves(c in S): a = 1\nshow moves(c in S): a = 2\n", 4, 1,
     "a spec has at most one 'show moves'"),
]


@pytest.mark.parametrize("text, line, column, message", STRUCTURE_ERRORS,
                         ids=[t.replace("\n", " | ") for t, *_ in STRUCTURE_ERRORS])
def test_structural_errors(text, line, column, message):
    err = syntax_error(HEAD + text)
    assert (err.message, err.line, err.column) == (message, line, column)


def test_spec_must_start_with_puzzle_and_have_a_board():
    err = syntax_error("board square\n")
    assert (err.message, err.line, err.column) == ("a spec starts with 'puzzle NAME'", 1, 1)
    err = syntax_error("")
    assert (err.message, err.line, err.column) == ("a spec starts with 'puzzle NAME'", 1, 1)
    err = syntax_error("# nothing\npuzzle p\n")
    assert err.message == "the spec has no 'board' line (board square, board hex or board json)"
    assert (err.line, err.column) == (2, 1)


def test_junk_never_escapes_as_anything_but_pzc_error():
    import random
    words = ["all", "any", "c", "in", "cells", "where", ":", "v", "[", "]", "(", ")", ",",
             "count", "distinct", "for", "if", "then", "else", "and", "or", "not", "->",
             "<->", "=", "<", "+", "-", "*", "..", "1", '"x"', "true", "{", "}", ".",
             "rule", "show", "moves", "let", "var", "bool", "require", "implied", "#"]
    rng = random.Random(7)
    for _ in range(1500):
        text = HEAD + " ".join(rng.choice(words) for _ in range(rng.randint(1, 12))) + "\n"
        try:
            parse(text)
        except PzcError as e:
            assert e.line is None or e.line >= 1


@pytest.mark.parametrize("tail", ["\n\n\n", "\n# a trailing comment\n"])
def test_unexpected_end_of_spec_points_after_the_last_token(tail):
    err = syntax_error(HEAD + "rule r: a +" + tail)
    assert (err.line, err.column) == (3, 12)
    assert err.source_line == "rule r: a +"


# ------------------------------------------------------------------ deep nesting

DEEP_BASE = 'puzzle deep\nboard square(blank: ".")\nvar v[c in cells] : 0..1\nshow v\n'
DEEP_FORMS = {
    "sum": lambda k: "rule r: all c in cells: 1 <= " + " + ".join(["v[c]"] * k),
    "not": lambda k: "rule r: all c in cells: " + "not " * k + "(v[c] = 1)",
    "list": lambda k: "let x = " + "[" * k + "1" + "]" * k + "\nrule r: all c in cells: v[c] <= len(x)",
    "if": lambda k: "rule r: all c in cells: v[c] <= " + "if v[c] = 1 then 1 else " * k + "0",
    "and": lambda k: "rule r: all c in cells: " + " and ".join(["v[c] <= 1"] * k),
    "let": lambda k: "let f(n) = " + "n + " * k + "0\nrule r: all c in cells: v[c] <= f(1)",
}


@pytest.mark.slow
@pytest.mark.parametrize("form", sorted(DEEP_FORMS))
@pytest.mark.parametrize("depth", [ast.MAX_NESTING + 1])
def test_nesting_too_deep_is_a_located_error(form, depth):
    text = DEEP_BASE + DEEP_FORMS[form](depth) + "\n"
    with pytest.raises(PzcError) as info:
        parse(text, "deep.pz")
    err = info.value
    assert err.message == ("this expression is nested more than 5,000 levels deep; "
                           "split it with 'let'")
    assert err.line in (5, 6) and err.column > 1


@pytest.mark.slow
@pytest.mark.parametrize("form", sorted(DEEP_FORMS))
@pytest.mark.parametrize("backend", ["sat", "smt"])
def test_nesting_just_under_the_limit_solves(form, backend):
    """Every stage after the parser recurses over the tree: at the deepest
    nesting the parser lets through, none of them runs out of stack."""
    from loading import spec_from_text
    from pzc import api
    from pzc.encoder.instance import read_instances
    from pzc.runtime.errors import Source
    # an if/else level is two tree levels
    depth = ast.MAX_NESTING // 2 - 15 if form == "if" else ast.MAX_NESTING - 10
    spec = spec_from_text(DEEP_BASE + DEEP_FORMS[form](depth) + "\n")
    inst, = read_instances(Source("g.txt", "..\n..\n"), "square")
    result = api.solve(spec, inst, backend=backend)
    assert result.error is None, result.error.message
    assert result.status in ("solved", "unsat") and result.exit_code in (0, 1)
    if result.status == "solved":
        assert result.verified
