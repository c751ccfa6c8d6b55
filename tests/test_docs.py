"""Every example in the docs is produced by pzc, so the docs cannot drift.

From README.md, docs/language.md, docs/tutorial.md, docs/dimacs.md, docs/genres.md,
docs/batch.md and docs/api.md:

* command blocks: each `$ COMMAND` line with the output shown under it is
  run (in a scratch folder where specs/ and docs/ are the repository's) and
  its standard output and error must be what is shown, except for timings
  (`compile 0.004 s`, `"solve_s": 0.0005`); a line `...` stands for any lines,
  and a line ending in `...` for any line that starts with the rest;
* spec blocks (```pz): a whole spec must parse and check, and equal a file
  of the repository when one holds it; a fragment is solved inside a small
  spec on the 3 x 2 instance `1.A` / `.b2` (its `require`s must hold); an
  excerpt of a built-in spec must be found in it, line by line;
* the `my.pz` error examples of docs/language.md are checked as the text
  says (two variables, the rule on line 6);
* Python sessions (```pycon, `>>>` prompts as doctest reads them) run in
  order, one namespace a doc, in a scratch folder like the commands; each
  prints what is shown, `...` standing for any text (doctest's ELLIPSIS);
* the built-ins documented in language.md are exactly the built-ins there are.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pzc import api
from pzc.encoder import check, syntax
from pzc.encoder.interpreter.evaluate import BUILTIN_NAMES
from pzc.encoder.instance import read_instances
from pzc.runtime.errors import PzcError, Source

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", "docs/language.md", "docs/tutorial.md", "docs/dimacs.md", "docs/genres.md",
        "docs/batch.md", "docs/api.md"]
# set-up steps shown for the reader, not examples with an output to check
SETUP = {". .venv/bin/activate"}


def fenced_blocks(doc):
    """(info string, first line number, lines) of each fenced block of a doc."""
    lines = (ROOT / doc).read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            info, start = lines[i][3:].strip(), i + 2
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            yield info, start, lines[i + 1:j]
            i = j
        i += 1


def command_blocks():
    for doc in DOCS:
        for info, line, body in fenced_blocks(doc):
            if info in ("", "text") and any(x.startswith("$ ") for x in body):
                yield pytest.param(doc, body, id=f"{doc}:{line}")


def spec_blocks():
    for doc in DOCS:
        for info, line, body in fenced_blocks(doc):
            if info == "pz":
                yield pytest.param(body, id=f"{doc}:{line}")


def sessions(body):
    """[(command, expected output lines)] of a command block."""
    out = []
    for x in body:
        if x.startswith("$ "):
            out.append((x[2:], []))
        else:
            assert out, f"output before any command: {x!r}"
            out[-1][1].append(x)
    return out


_TIMES = [
    (re.compile(r'"(\w+_s)": [0-9.e-]+'), r'"\1": T'),
    (re.compile(r"\b\d+(\.\d+)? s\b"), "T s"),
]


def normalise(lines):
    text = "\n".join(lines)
    for pattern, repl in _TIMES:
        text = pattern.sub(repl, text)
    lines = text.split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def matches(expected, actual):
    """Lines equal, where an expected line '...' stands for any lines and a
    line ending in '...' for any line that starts with the rest."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    head = expected[0]
    same = (actual[0].startswith(head[:-3]) if head.endswith("...")
            else head == actual[0]) if actual else False
    return same and matches(expected[1:], actual[1:])


_SCRATCH = {}


@pytest.fixture
def scratch(tmp_path_factory):
    """scratch(doc): the folder a doc's commands run in, in order, one per doc
    (a later block may read a file an earlier one wrote, as the reader would)."""
    def folder(doc):
        if doc not in _SCRATCH:
            path = tmp_path_factory.mktemp("doc")
            for name in ("specs", "docs"):
                (path / name).symlink_to(ROOT / name)
            _SCRATCH[doc] = path
        return _SCRATCH[doc]
    return folder


# slow as a whole: one pzc process an example, about 80 of them (35 s in all)
@pytest.mark.slow
@pytest.mark.parametrize("doc, body", list(command_blocks()))
def test_command_block_output_is_what_pzc_prints(doc, body, scratch):
    folder = scratch(doc)
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    env.pop("PZC_PROGRESS_AFTER", None)
    for command, expected in sessions(body):
        if command in SETUP:
            continue
        tool = next(w for w in command.split() if "=" not in w)    # after VAR=value
        if tool not in ("pzc", "cat", "head", "printf") and shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
        run = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=folder, env=env,
                             capture_output=True, text=True, timeout=300)
        actual = normalise(run.stdout.split("\n"))
        want = normalise(expected)
        assert matches(want, actual), (
            f"$ {command}\n--- the docs show\n" + "\n".join(want)
            + "\n--- pzc printed\n" + "\n".join(actual))


# ------------------------------------------------------------------ Python sessions

def python_sessions(doc):
    """(first line number, lines) of each ```pycon block of a doc."""
    return [(line, body) for info, line, body in fenced_blocks(doc) if info == "pycon"]


@pytest.mark.parametrize("doc", [d for d in DOCS if python_sessions(d)])
def test_python_sessions_print_what_the_docs_show(doc, scratch, monkeypatch):
    monkeypatch.chdir(scratch(doc))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace = {}
    report = []
    for line, body in python_sessions(doc):
        test = parser.get_doctest("\n".join(body) + "\n", namespace, f"{doc}:{line}", doc,
                                  line - 1)
        runner.run(test, out=report.append, clear_globs=False)
        namespace = test.globs       # the next block goes on where this one ends
    assert runner.failures == 0, "".join(report)


# ------------------------------------------------------------------ spec blocks

FRAGMENT_INSTANCE = "1.A\n.b2\n"
_FILES = None


def repository_specs():
    global _FILES
    if _FILES is None:
        _FILES = {p: p.read_text(encoding="utf-8")
                  for folder in ("specs", "docs") for p in (ROOT / folder).rglob("*.pz")}
    return _FILES


def holders(body):
    """The repository's spec files holding every line of ``body``."""
    wanted = {x.strip() for x in body if x.strip()}
    return [p for p, t in repository_specs().items()
            if wanted <= {y.strip() for y in t.split("\n")}]


@pytest.mark.parametrize("body", list(spec_blocks()))
def test_spec_block_parses_checks_and_holds(body):
    text = "\n".join(body) + "\n"
    starts = {x.split()[0] for x in body if x.strip() and not x.startswith((" ", "#"))}
    if {"puzzle", "board"} <= starts:
        # a whole spec: it checks, and it is (a part of) a file of the repository
        check.check(syntax.parse(text, "doc.pz"))
        assert holders(body), "no spec file under specs/ or docs/ holds this spec"
        return
    if any(p.parent.name == "specs" for p in holders(body)):
        return                   # an excerpt of a built-in spec, tested as a whole
    spec_text = ("" if "puzzle" in starts else "puzzle doc\n") + (
        "" if "board" in starts else "board square\n") + text
    if "show" not in starts:
        spec_text += "show c: 0\n"
    spec = syntax.parse(spec_text, "doc.pz")
    check.check(spec)
    inst, = read_instances(Source("doc.txt", FRAGMENT_INSTANCE), "square")
    result = api.solve(spec, inst)
    assert result.status == "solved" and result.verified, result.error and result.error.format()


# ------------------------------------------------------------------ my.pz errors

MY_HEAD = ("puzzle my\nboard square\nvar v[c in cells] : 1..3\nvar on[c in cells] : bool\n"
           "show v\n")


def my_pz_examples():
    for info, line, body in fenced_blocks("docs/language.md"):
        if any(x.startswith("my.pz:") for x in body):
            chunks = "\n".join(body).split("\n\n")
            for chunk in chunks:
                rule, *shown = chunk.split("\n")
                yield pytest.param(rule, shown, id=f"language.md:{line}:{rule[:30]}")


@pytest.mark.parametrize("rule, shown", list(my_pz_examples()))
def test_my_pz_error_examples(rule, shown):
    with pytest.raises(PzcError) as e:
        check.check(syntax.parse(MY_HEAD + rule + "\n", "my.pz"))
    assert e.value.format().split("\n") == shown


def test_my_pz_examples_are_found():
    assert len(list(my_pz_examples())) >= 6


# ------------------------------------------------------------------ messages quoted in the text

# (a rule as the text writes it, the message the text quotes for it)
QUOTED = [
    ("docs/tutorial.md", "rule r: all c in cells: star[c] + 1 = 2",
     "a bool is used as an int here; count(...) or 'if ... then 1 else 0' turns bools into numbers"),
    ("docs/tutorial.md", "rule r: if p then 1 else 2 = x",
     "both branches of 'if' must be bools or neither"),
    ("docs/tutorial.md", "rule r: x in {-1} + 0..6", "a range bound must be an int, but this is a set"),
    ("docs/language.md", "rule r: x in {-1} + 0..6", "a range bound must be an int, but this is a set"),
]


@pytest.mark.parametrize("doc, rule, message", QUOTED)
def test_quoted_messages_are_what_pzc_says(doc, rule, message):
    assert message in " ".join((ROOT / doc).read_text(encoding="utf-8").split())
    text = ("puzzle q\nboard square\nvar star[c in cells] : bool\nvar x : 0..3\n"
            "var p : bool\nshow c: x\n" + rule + "\n")
    with pytest.raises(PzcError) as e:
        check.check(syntax.parse(text, "q.pz"))
    assert e.value.message.startswith(message)


# ------------------------------------------------------------------ built-ins

def documented_builtins():
    """The names in the first column of the tables under '## Built-ins' and
    of the aggregates' table in docs/language.md."""
    text = (ROOT / "docs/language.md").read_text(encoding="utf-8")
    sections = [text[text.index("## Built-ins"):text.index("## What may depend")],
                text[text.index("### Aggregates"):text.index("### Lists, sets")]]
    names = set()
    for section in sections:
        for row in section.split("\n"):
            if row.startswith("| `"):
                first = row.split("|")[1]
                names |= set(re.findall(r"`([a-z_]+)", first))
    return names


def test_every_builtin_is_documented_and_nothing_else():
    documented = documented_builtins()
    assert documented == BUILTIN_NAMES, (
        f"undocumented: {sorted(BUILTIN_NAMES - documented)}; "
        f"documented but unknown: {sorted(documented - BUILTIN_NAMES)}")


def test_the_docs_hold_examples_of_each_kind():
    # guards the extraction above: a change of fences must not empty the tests
    assert len(list(command_blocks())) >= 30
    assert len(list(spec_blocks())) >= 30
    assert sum(len(body) for _, body in python_sessions("docs/api.md")) >= 100
