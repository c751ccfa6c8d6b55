"""Installing pzc and reaching it: a plain (non-editable) install finds the grammar and
the built-in specs; `make demo` and the README's set-up lead to pzc."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_plain_install_runs_outside_the_source_tree(tmp_path):
    target = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(ROOT)],
        capture_output=True, text=True, cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    # the installed copy, not the source tree, must be the one imported
    env = dict(os.environ, PYTHONPATH=str(target))
    example = target / "pzc" / "specs" / "examples" / "sudoku" / "grid4.txt"
    assert example.is_file()
    run = subprocess.run(
        [sys.executable, "-c",
         "import pzc, sys; assert pzc.__file__.startswith(sys.argv[1]), pzc.__file__;"
         "from pzc.cli import main; sys.exit(main(['solve', 'sudoku', sys.argv[2]]))",
         str(target), str(example)],
        capture_output=True, text=True, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert "solved, verified" in run.stdout
    rows = [line.strip() for line in run.stdout.splitlines()[1:] if line.strip()]
    assert len(rows) == 4 and all(sorted(r) == list("1234") for r in rows)
    specs = subprocess.run([sys.executable, "-m", "pzc.cli", "specs"], capture_output=True,
                           text=True, cwd=tmp_path, env=env)
    assert specs.returncode == 0
    assert {line.split()[0] for line in specs.stdout.splitlines()} >= {"sudoku", "hexiom", "puzlogic"}


def _listed_packages():
    import tomllib
    with open(ROOT / "pyproject.toml", "rb") as f:
        return set(tomllib.load(f)["tool"]["setuptools"]["packages"])


@pytest.mark.skipif(sys.version_info < (3, 11) or not (ROOT / "pyproject.toml").exists(),
                    reason="needs tomllib and the source tree")
def test_every_folder_of_the_package_is_listed():
    """setuptools warns about (and may skip) any folder under the package that
    is not in `packages`; the repository root is the package pzc."""
    skip = {"tests", "bench", "docs", "build", "dist", ".git", ".venv", ".ci", "__pycache__",
            ".pytest_cache"}
    found = {"pzc"}
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if not path.is_dir() or rel.parts[0] in skip or path.name == "__pycache__" \
                or any(p.startswith(".") or p.endswith(".egg-info") for p in rel.parts):
            continue
        found.add(".".join(("pzc",) + rel.parts))
    assert found == _listed_packages()


@pytest.mark.slow
def test_python_dash_m_pzc_runs_the_command_line(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pzc", "specs"], capture_output=True,
                         text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "sudoku" in run.stdout
    usage = subprocess.run([sys.executable, "-m", "pzc", "--help"], capture_output=True,
                           text=True, cwd=tmp_path)
    assert usage.returncode == 0 and usage.stdout.startswith("usage: pzc")


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_building_the_package_prints_no_warnings(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
         "--no-cache-dir", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    noisy = [line for line in (build.stdout + build.stderr).splitlines()
             if ("warn" in line.lower() or "deprecat" in line.lower())
             and "byte-compiling is disabled" not in line
             and "Location 'file:" not in line]     # this machine's pip configuration
    assert not noisy, "\n".join(noisy)


SCREEN_LINES = 24     # a terminal's first screenful


@pytest.mark.skipif(shutil.which("make") is None or not (Path(sys.executable).parent / "pzc").exists(),
                    reason="needs make and the pzc command beside this interpreter")
@pytest.mark.slow
def test_make_demo_solves_on_its_first_screen_and_ends_with_a_hint():
    # the demo's commands with this interpreter's pzc; the venv is taken as set up
    bin_dir = Path(sys.executable).parent
    run = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed", "demo",
                          f"BIN={bin_dir}"], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"{bin_dir}/pzc solve hexiom specs/examples/hexiom/medium.txt --stats"
    assert lines[1] == "specs/examples/hexiom/medium.txt: solved, verified"
    first_screen = lines[:SCREEN_LINES]
    assert sum(line.endswith(": solved, verified") for line in first_screen) >= 3
    # no list of specs (`name  description`) before the answers
    assert not any(line.startswith(f"{bin_dir}/pzc specs") for line in lines)
    assert sum(": solved, verified" in line for line in lines) == 8
    assert lines[-1] == (f"more: '{bin_dir}/pzc specs' lists the built-in specs; "
                         f"'. {bin_dir}/activate' puts pzc on your PATH")


def test_readme_says_how_to_reach_pzc_and_the_cluster_extra():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    assert "`.venv/bin/pzc`" in setup
    assert "$ . .venv/bin/activate" in setup          # tests/test_docs.py runs the next line
    assert "pip install 'pzc[cluster]'" in setup
    assert ".venv/bin/pip install -e '.[cluster]'" in setup
