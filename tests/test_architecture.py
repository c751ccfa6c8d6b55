"""The package's shape, read from its imports (ast), not from a list kept by hand:

* dependencies between the top-level modules and packages of pzc run one way
  (runtime <- board, encoder, formats <- backends <- tasks <- api <- cli):
  no cycle, lazy imports inside functions counted too;
* no module takes another's private names: no ``from X import _name``, no
  ``module._name``, and no ``obj._attr`` of an attribute that this module
  does not define itself (a private field belongs to its own module).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_PACKAGE = {"tests", "bench", "docs", ".venv", "build", ".git", ".cache"}
# the one-way order of the design (README, "How it is built"): a unit may
# import only units on its own level or below it
LAYERS = [{"pzc", "runtime", "grammar", "specs"}, {"board"}, {"encoder"}, {"formats"},
          {"backends"}, {"tasks"}, {"api"}, {"cli"}, {"__main__"}]
# private names of the standard library that are its public interface
STDLIB_PRIVATE = {("os", "_exit"), ("sys", "_getframe")}


def package_files() -> dict:
    """Dotted module name (below pzc) -> path, for every module of the package."""
    out = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in NOT_PACKAGE:
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = package_files()


def imported(module: str, path: Path, node: ast.ImportFrom) -> str | None:
    """The pzc module (dotted, below pzc; '' for pzc itself) a from-import reads."""
    if node.level == 0:
        name = node.module or ""
        if name == "pzc" or name.startswith("pzc."):
            return name[4:]
        return None
    base = module.split(".") if module else []
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + (node.module.split(".") if node.module else []))


def unit(module: str) -> str:
    return module.split(".")[0] if module else "pzc"


def dependencies() -> dict:
    """unit -> {unit it imports: [(module, line), ...]}."""
    deps: dict = {}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom):
                target = imported(module, path, node)
                if target is not None:
                    targets.append(target)
                    targets += [f"{target}.{a.name}" if target else a.name for a in node.names
                                if (f"{target}.{a.name}" if target else a.name) in MODULES]
            elif isinstance(node, ast.Import):
                targets += [a.name[4:] for a in node.names if a.name.startswith("pzc.")]
            for target in targets:
                if unit(target) != unit(module):
                    deps.setdefault(unit(module), {}).setdefault(unit(target), []).append(
                        (module, node.lineno))
    return deps


def test_no_cycle_between_top_level_modules_and_packages():
    deps = dependencies()
    cycles = []
    for a, targets in deps.items():
        for b in targets:
            if a in deps.get(b, {}):
                cycles.append(f"{a} <-> {b}: {a} at {targets[b][:2]}, {b} at {deps[b][a][:2]}")
    assert not cycles, "\n".join(cycles)
    # and longer cycles: a depth-first walk finds any back edge
    state: dict = {}

    def walk(u, trail):
        state[u] = "open"
        for v in deps.get(u, {}):
            if state.get(v) == "open":
                raise AssertionError("import cycle: " + " -> ".join(trail + [u, v]))
            if v not in state:
                walk(v, trail + [u])
        state[u] = "done"

    for u in list(deps):
        if u not in state:
            walk(u, [])


def test_dependencies_follow_the_layers():
    level = {name: k for k, names in enumerate(LAYERS) for name in names}
    units = {unit(m) for m in MODULES}
    assert units <= set(level), f"units missing from LAYERS: {sorted(units - set(level))}"
    wrong = [f"{a} imports {b} ({where[0][0]}:{where[0][1]})"
             for a, targets in dependencies().items() for b, where in targets.items()
             if level[b] > level[a]]
    assert not wrong, "\n".join(wrong)


def defined_privates(tree) -> set:
    """Private names a module defines: functions, classes, assignments,
    class fields and the attributes its own classes set (self._x = ...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)          # self._x = ...: only its own class sets it
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return {n for n in names if isinstance(n, str) and n.startswith("_")}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def shown(path: Path) -> str:
    """A module's path as messages give it (from the repository's root)."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def private_uses(module: str, path: Path) -> list:
    """Where the module at ``path`` (dotted name ``module``) takes another
    module's private names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = defined_privates(tree)
    modules = {}             # local name -> the module it stands for ('os', or a pzc module)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = imported(module, path, node)
            for a in node.names:
                if target is not None and private(a.name):
                    found.append(f"{shown(path)}:{node.lineno}: imports "
                                 f"{a.name} from {target or 'pzc'}")
                full = f"{target}.{a.name}" if target else a.name
                if target is not None and full in MODULES:
                    modules[a.asname or a.name] = full
        elif isinstance(node, ast.Import):
            for a in node.names:
                modules[a.asname or a.name.split(".")[0]] = a.name
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and private(node.attr)):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Name) and owner.id in modules:
            if (modules[owner.id], node.attr) in STDLIB_PRIVATE:
                continue
            found.append(f"{shown(path)}:{node.lineno}: uses "
                         f"{owner.id}.{node.attr} of another module")
        elif node.attr not in own:
            found.append(f"{shown(path)}:{node.lineno}: reads .{node.attr}, "
                         f"a private attribute this module does not define")
    return found


def test_no_module_takes_another_modules_private_names():
    found = [use for module, path in sorted(MODULES.items())
             for use in private_uses(module, path)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("source, message", [
    ("from .api import _solver\n", "imports _solver"),
    ("from .. import api\napi._solver(1)\n", "uses api._solver"),
    ("def f(r):\n    r._found = 1\n", "reads ._found"),
    ("def f(r):\n    return r._found\n", "reads ._found"),
])
def test_the_private_name_check_finds_each_kind(tmp_path, source, message):
    # read as if it were tasks/probe.py (written elsewhere: the tree stays as it is)
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert any(message in use for use in private_uses("tasks.probe", path))


def test_the_cycle_check_sees_lazy_imports():
    deps = dependencies()
    # cli imports the api lazily or not: either way the edge is there
    assert "api" in deps["cli"]
    assert "cli" not in deps.get("api", {})


def module_map() -> str:
    """The README's module map: the code block after "How it is built"."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = text[text.index("## How it is built"):]
    return part[part.index("```") + 3:part.index("```", part.index("```") + 3)]


def test_the_readme_module_map_names_every_module_and_nothing_else():
    block = module_map()
    words = set(re.findall(r"[A-Za-z_][\w.]*", block))
    missing = []
    for module, path in MODULES.items():
        if path.name == "__init__.py":
            name = path.parent.name
            if module and not re.search(rf"(^|\s){re.escape(name)}/", block, re.M):
                missing.append(f"{name}/")
        elif path.stem not in words and path.name not in words:
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"modules the README's map leaves out: {missing}"
    named = re.findall(r"^\s*([\w.]+(?:/|\.py|\.toml))\s", block, re.M)
    absent = [n for n in named if not (ROOT / n).exists()
              and not any((p / n).exists() for p in ROOT.iterdir() if p.is_dir())]
    assert not absent, f"the README's map names what is not in the tree: {absent}"


def imported_test_modules(path: Path, test_modules: set) -> list:
    """The names among ``test_modules`` that the module at ``path`` imports
    (``import test_x``, ``from test_x import f``, ``from tests import test_x``,
    lazy imports inside functions too)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        out += [n for n in names if n.split(".")[-1] in test_modules]
    return out


def imports_between_test_modules(folder: Path) -> list:
    """'test_x.py imports test_y' for each test module of ``folder`` that imports another."""
    paths = sorted(folder.glob("test_*.py"))
    names = {p.stem for p in paths}
    return [f"{p.name} imports {name}" for p in paths for name in imported_test_modules(p, names)]


def test_no_test_module_imports_another():
    """A test module importing another collects its tests twice or ties the
    two together: shared helpers live in modules not named test_*
    (tests/genre_tools.py, loop_tools.py, marks_tools.py, ...)."""
    assert imports_between_test_modules(ROOT / "tests") == []


def test_the_test_module_import_check_finds_each_kind(tmp_path):
    for name in ("test_a", "test_b", "test_c", "test_d"):
        (tmp_path / f"{name}.py").write_text("import os\nfrom shaded import printed\n")
    (tmp_path / "test_a.py").write_text("import os\nimport test_b as b\n")
    (tmp_path / "test_c.py").write_text("def f():\n    from test_b import g\n")
    (tmp_path / "test_d.py").write_text("from tests import test_a\n")
    assert imports_between_test_modules(tmp_path) == [
        "test_a.py imports test_b", "test_c.py imports test_b", "test_d.py imports tests.test_a"]
