"""A seeded fuzzer of pzc: generated and mutated specs and instances, both backends.

Each case is a function of its number alone (``case(n)``), so a failure is
reproduced by its number: ``python bench/fuzz.py --case N`` writes the spec
and instance and prints the command.  Cases come in four kinds:

  * ``spec-gen``: a spec generated from a small grammar of the language
    (variables over cells, rules with counts, sums, distinct, if/then/else,
    quantifiers), on a random text board;
  * ``spec-mut``: a built-in, tutorial or test spec with a few token-level
    mutations (a token dropped, doubled, swapped or replaced by another of
    the spec's tokens, a number made huge, zero or negative, a truncation),
    on one of its own instances;
  * ``inst-text``: a built-in spec on a mutated text instance (characters
    changed, rows cut, CR line ends, control characters, bytes that are not
    UTF-8, headers that lie);
  * ``inst-json``: Puzlogic on a mutated JSON level (values made null,
    strings, lists, floats, huge; fields dropped; nesting added).

Every case runs `pzc solve` (sometimes `count` or `unique`) in a forked
child, in process (no interpreter start-up per case), under an address-space
limit and a hard alarm, and its outcome is judged by ``verdict``: never exit
4, never a traceback or an "internal error", every exit-2 message located
(file:line:col, or the file named with its first line), and the time limit
held (loosely).  A case that runs out of memory or past the alarm belongs to
resource limits (issue 11, branches `resources` and `timelimits`); it is
reported as ``resources``, not as a failure of this harness.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import resource
import select
import signal
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 2.0                 # --timeout of every case
SLACK = 3.0                   # seconds past the limit before a case counts as overrun
HARD_LIMIT = 20               # seconds: the child is stopped after this
MEMORY = 2 * 1024 ** 3        # bytes of address space for a child

# ------------------------------------------------------------------ seeds

BUILTIN_INSTANCES = {
    "sudoku": ["specs/examples/sudoku/grid4.txt"],
    "hexiom": ["specs/examples/hexiom/small.txt"],
    "puzlogic": ["specs/examples/puzlogic/level.json"],
    "sliding": ["specs/examples/sliding/three.txt"],
}
DOC_PAIRS = {
    "docs/tutorial/akari.pz": "docs/tutorial/akari6.txt",
    "docs/tutorial/starbattle.pz": "docs/tutorial/star5.txt",
    "docs/tutorial/steps/starbattle1.pz": "docs/tutorial/star5.txt",
    "docs/tutorial/steps/starbattle2.pz": "docs/tutorial/star5.txt",
    "docs/tutorial/steps/starbattle3.pz": "docs/tutorial/star5.txt",
    "docs/tutorial/steps/unique.pz": "docs/tutorial/star5.txt",
    "docs/tutorial/ref/holes.pz": "docs/tutorial/ref/holes.json",
    "docs/tutorial/ref/path.pz": "docs/tutorial/ref/path.txt",
}


def _small_instances() -> dict:
    """Built-in spec name -> small instance texts (the brute-forced boards of
    tests/brute.py and the examples)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import brute
    out = {}
    for _, name, text in brute.CASES:
        out.setdefault(name, []).append(text)
    for name, paths in BUILTIN_INSTANCES.items():
        for p in paths:
            out.setdefault(name, []).append((ROOT / p).read_text())
    return out


_CACHE = {}


def corpus():
    """[(spec name or path, spec text, [instance texts], instance suffix)]."""
    if "corpus" not in _CACHE:
        small = _small_instances()
        seeds = []
        for name in sorted(small):
            text = (ROOT / "specs" / f"{name}.pz").read_text()
            suffix = ".json" if name == "puzlogic" else ".txt"
            seeds.append((name, text, small[name], suffix))
        for spec, inst in DOC_PAIRS.items():
            suffix = Path(inst).suffix
            seeds.append((spec, (ROOT / spec).read_text(), [(ROOT / inst).read_text()], suffix))
        _CACHE["corpus"] = seeds
    return _CACHE["corpus"]


# ------------------------------------------------------------------ generated specs

def _expr(rng, depth=0) -> str:
    """A random int expression over a cell `c` and the variable v."""
    leaves = ["v[c]", "(if given(c) then clue(c) else 0)", str(rng.choice([0, 1, 2, 3, -1, 7, 2**31, 10**12])),
              "count(d in neighbours(c): v[d] > 1)", "width", "c[0]", "c[1]",
              "sum(v[d] for d in neighbours(c))", "len(neighbours(c))"]
    if depth > 2 or rng.random() < 0.4:
        return rng.choice(leaves)
    op = rng.choice(["+", "-", "*", "if", "abs", "neg"])
    a, b = _expr(rng, depth + 1), _expr(rng, depth + 1)
    if op == "if":
        return f"(if {_cond(rng, depth + 1)} then {a} else {b})"
    if op == "abs":
        return f"abs({a})"
    if op == "neg":
        return f"-({a})"
    return f"({a} {op} {b})"


def _cond(rng, depth=0) -> str:
    if depth > 2 or rng.random() < 0.5:
        cmp = rng.choice(["=", "!=", "<", "<=", ">", ">="])
        return f"{_expr(rng, depth + 1)} {cmp} {_expr(rng, depth + 1)}"
    kind = rng.choice(["and", "or", "not", "->", "any", "all", "given"])
    if kind == "not":
        return f"not ({_cond(rng, depth + 1)})"
    if kind in ("any", "all"):
        return f"({kind} d in neighbours(c): v[d] {rng.choice(['=', '!='])} v[c])"
    if kind == "given":
        return "given(c)"
    return f"({_cond(rng, depth + 1)}) {kind} ({_cond(rng, depth + 1)})"


def generated_spec(rng) -> str:
    low = rng.choice([0, 1, -2])
    high = low + rng.choice([1, 2, 3, 5])
    lines = ['puzzle fuzz "generated"',
             f'board square(blank: "{rng.choice([".", "_"])}")',
             f"var v[c in cells] : {low}..{high}",
             "show v"]
    rules = [
        "rule givens: all c in cells where given(c): v[c] = clue(c)",
        "rule rows: all r in rows: distinct(v[c] for c in r)",
        f"rule some: all c in cells: {_cond(rng)}",
        f"rule cap: sum(v[c] for c in cells) <= {rng.randint(0, 40)}",
        f"rule pick: count(c in cells: {_cond(rng)}) >= {rng.randint(0, 3)}",
        f"rule each: all c in cells where given(c): {_cond(rng)}",
    ]
    rng.shuffle(rules)
    lines += rules[:rng.randint(1, 4)]
    if rng.random() < 0.1:           # deep nesting: the parser's limit is 250 levels
        k = rng.choice([50, 200, 260, 600])
        lines.append(rng.choice([f"let deep = {' + '.join(['1'] * k)}",
                                 f"rule deep: all c in cells: {'not ' * k}(v[c] = {low})",
                                 f"let deep = {'[' * k}1{']' * k}"]))
    return "\n".join(lines) + "\n"


def generated_board(rng) -> str:
    w, h = rng.randint(1, 4), rng.randint(1, 4)
    alphabet = "....0123456789a"
    return "".join("".join(rng.choice(alphabet) for _ in range(w)) + "\n" for _ in range(h))


# ------------------------------------------------------------------ mutations

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\w+|\.\.|->|<=|>=|!=|[^\s\w]|\s+')
NUMBERS = ["0", "-1", "1", "2147483648", "100000000", "99999999999999999999", "3000000000"]
JUNK = ["(", ")", "[", "]", "{", "}", ",", ":", "..", "=", "not", "all", "in", "if",
        "then", "else", "let", "rule", "var", "\\", '"', "#", "\t", "\x00", "é", "\r"]


def _builtin_names() -> list:
    from pzc.encoder import builtins
    from pzc.encoder.builtins import registry  # noqa: F401  (builtins fills the registry)
    return sorted(registry.FUNCTIONS) + sorted(registry.VALUES) + [
        "sum", "count", "distinct", "connected", "product", "min", "max", "any", "all"]


OPERATORS = ["+", "-", "*", "/", "%", "=", "!=", "<", "<=", ">", ">=", "and", "or", "->",
             "in", "..", "not"]


def mutate_spec(text, rng, count) -> str:
    """A few token-level mutations: most keep the spec parsing, so that the
    checker, the grounding and the backends see it."""
    tokens = _TOKEN.findall(text)
    words = [t for t in tokens if not t.isspace()]
    names = _builtin_names()
    for _ in range(count):
        if not tokens:
            break
        i = rng.randrange(len(tokens))
        kind = rng.randrange(11)
        if kind >= 8:                # a name for a built-in, an operator for another
            spots = [k for k, t in enumerate(tokens)
                     if (t in OPERATORS) == (kind == 8) and (t in OPERATORS or t.isidentifier())]
            if spots:
                k = rng.choice(spots)
                tokens[k] = (f" {rng.choice(OPERATORS)} " if kind == 8 else rng.choice(names))
            continue
        if kind == 0:
            del tokens[i]
        elif kind == 1:
            tokens.insert(i, tokens[i])
        elif kind == 2:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == 3:
            tokens[i] = rng.choice(words)
        elif kind == 4:
            nums = [k for k, t in enumerate(tokens) if t.isdigit()]
            if nums:
                tokens[rng.choice(nums)] = rng.choice(NUMBERS)
        elif kind == 5:
            tokens.insert(i, " " + rng.choice(JUNK) + " ")
        elif kind == 6:
            tokens = tokens[:i]
        else:
            tokens.insert(i, " " + rng.choice(words) + " ")
    return "".join(tokens)


def mutate_text(text, rng, count) -> bytes:
    chars = list(text)
    for _ in range(count):
        kind = rng.randrange(9)
        i = rng.randrange(len(chars) + 1)
        if kind == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif kind == 1:
            chars.insert(i, rng.choice(".0123456789#?ABxyz +-"))
        elif kind == 2:
            chars.insert(i, rng.choice(["\x1b[31m", "\x07", "\x00", "\t", "\u202e", "\x0c"]))
        elif kind == 3:
            chars = list("".join(chars).replace("\n", "\r"))
        elif kind == 4:
            chars = list("".join(chars).replace("\n", "\r\n"))
        elif kind == 5:
            chars.insert(i, "\n")
        elif kind == 6:
            lines = "".join(chars).split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, rng.choice(["3 3", "0 0", "99999 99999", "2 1", "#", "# x", "-1"]))
            chars = list("\n".join(lines))
        elif kind == 7:
            return ("".join(chars)).encode("utf-8")[:i] + b"\xff\xfe" + \
                ("".join(chars)).encode("utf-8")[i:]
        else:
            chars = chars[:i]
    return "".join(chars).encode("utf-8")


_JSON_VALUES = [None, "x", "10", [1], [], {}, 1.5, 2**40, -1, True, 10**30, [[[[1]]]], ""]


def mutate_json(text, rng, count) -> bytes:
    try:
        data = json.loads(text)
    except ValueError:
        return mutate_text(text, rng, count)
    for _ in range(count):
        path = []
        node = data
        while isinstance(node, (list, dict)) and node and rng.random() < 0.75:
            key = rng.choice(list(node.keys()) if isinstance(node, dict) else range(len(node)))
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        kind = rng.randrange(4)
        if kind == 0:
            parent[key] = rng.choice(_JSON_VALUES)
        elif kind == 1 and isinstance(parent, dict):
            del parent[key]
        elif kind == 2:
            parent[key] = [parent[key]] * rng.randint(0, 3)
        else:
            k = rng.choice([1, 1, 1, 60, 120, 1000])
            value = parent[key]
            for _ in range(k):
                value = [value]
            parent[key] = value
    try:
        out = json.dumps(data)
    except RecursionError:           # nested too deep for Python's json to write
        out = "[" * 5000 + "]" * 5000
    if rng.random() < 0.2:
        return mutate_text(out, rng, 1)
    return out.encode("utf-8")


# ------------------------------------------------------------------ cases

KINDS = ["spec-gen", "spec-mut", "inst-text", "inst-json"]


def case(n: int) -> dict:
    """Case n: {kind, spec (a built-in name or spec text), suffix, instance (bytes), args}."""
    rng = random.Random(f"pzc-fuzz-{n}")
    kind = KINDS[n % len(KINDS)]
    seeds = corpus()
    if kind == "spec-gen":
        name, spec, inst, suffix = "", generated_spec(rng), generated_board(rng).encode(), ".txt"
    elif kind == "spec-mut":
        name, text, instances, suffix = rng.choice(seeds)
        spec = mutate_spec(text, rng, rng.choice([1, 1, 2, 3]))
        inst = rng.choice(instances).encode("utf-8")
    elif kind == "inst-text":
        text_seeds = [s for s in seeds if s[3] == ".txt" and "/" not in s[0]]
        name, _, instances, suffix = rng.choice(text_seeds)
        spec = name
        inst = mutate_text(rng.choice(instances), rng, rng.choice([1, 1, 2, 4]))
    else:
        name, _, instances, suffix = next(s for s in seeds if s[0] == "puzlogic")
        spec = name
        inst = mutate_json(rng.choice(instances), rng, rng.choice([1, 1, 2, 3]))
    # counting is for board puzzles: on a move puzzle it is a usage error
    moves = name == "sliding"
    command = rng.choice(["solve"] * 6 + ([] if moves else ["count", "unique"]))
    backend = "smt" if n % 2 else "sat"
    args = [command, "--backend", backend, "--timeout", str(TIMEOUT)]
    if command == "count":
        args += ["--limit", "5"]
    return {"n": n, "kind": kind, "spec": spec, "suffix": suffix, "instance": inst,
            "args": args}


def files(c: dict, directory: Path) -> list:
    """Write case c's files into ``directory``; the pzc argument list."""
    inst = directory / f"inst{c['suffix']}"
    inst.write_bytes(c["instance"])
    spec = c["spec"]
    if c["kind"].startswith("spec"):
        (directory / "fuzz.pz").write_text(spec, encoding="utf-8", errors="surrogatepass")
        spec = "fuzz.pz"
    command, *options = c["args"]
    return [command, spec, inst.name, *options]


# ------------------------------------------------------------------ running

def _child(argv, directory, write_fd):
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.chdir(directory)
    from pzc import cli
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = cli.main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 2
    except MemoryError:
        code = "memory"
    except BaseException as e:       # the CLI should have caught it: a traceback
        code = "raised"
        err.write(f"Traceback (raised out of cli.main): {type(e).__name__}: {e}\n")
    record = {"code": code, "stdout": out.getvalue()[-2000:], "stderr": err.getvalue()[-4000:],
              "seconds": time.perf_counter() - start}
    with os.fdopen(write_fd, "w") as f:
        f.write(json.dumps(record))
    os._exit(0)


def run_case(c: dict) -> dict:
    """Run one case in a forked child; its record with a ``verdict``."""
    from pzc import cli  # noqa: F401  imported once here, so each child starts warm
    with tempfile.TemporaryDirectory(prefix="pzc-fuzz-") as tmp:
        argv = files(c, Path(tmp))
        read_fd, write_fd = os.pipe()
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:                 # pragma: no cover - the child
            os.close(read_fd)
            try:
                _child(argv, tmp, write_fd)
            finally:
                os._exit(70)
        os.close(write_fd)
        chunks = []
        killed = False
        with os.fdopen(read_fd) as pipe:
            while True:
                left = HARD_LIMIT - (time.perf_counter() - start)
                ready, _, _ = select.select([pipe], [], [], max(0.0, left))
                if not ready:
                    os.kill(pid, signal.SIGKILL)
                    killed = True
                    break
                data = pipe.read()
                chunks.append(data)
                break
        _, status = os.waitpid(pid, 0)
        text = "".join(chunks)
        if killed:
            record = {"code": "killed", "stdout": "", "stderr": "", "seconds": HARD_LIMIT}
        elif not text:
            record = {"code": f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                      else f"status {os.WEXITSTATUS(status)}",
                      "stdout": "", "stderr": "", "seconds": time.perf_counter() - start}
        else:
            record = json.loads(text)
        record["argv"] = argv
        record["verdict"] = verdict(record)
        return record


# file:line:col, file:line, or the file alone for what is about the whole file
# (it holds no instance); "pzc: error:" names no place
_LOCATED = re.compile(r"^(?!pzc: )(\S.*?)(:(\d+))?(:(\d+))?: error: ")


def verdict(record) -> str:
    """'ok', 'resources' (memory or time far past the limit: other branches'
    work), or what is wrong: 'exit 4', 'traceback', 'unlocated', 'crash'."""
    code, err = record["code"], record["stderr"]
    if code in ("memory", "killed") or "MemoryError" in err or "out of memory" in err:
        return "resources"
    if isinstance(code, str):
        return "crash"               # a signal (abort) or a child that died
    if "Traceback" in err or "internal error" in err:
        return "traceback"
    if code == 4:
        return "exit 4"
    if code == 2:
        errors = [line for line in err.splitlines() if ": error: " in line]
        if not errors or not all(_LOCATED.match(line) for line in errors):
            return "unlocated"
    if code not in (0, 1, 2, 3):
        return f"exit {code}"
    if record["seconds"] > TIMEOUT + SLACK:
        return "resources"
    return "ok"


def reproduce(c: dict, directory: Path) -> str:
    """Write case c into ``directory``; the command line that runs it."""
    directory.mkdir(parents=True, exist_ok=True)
    argv = files(c, directory)
    return f"cd {directory} && pzc " + " ".join(argv)
