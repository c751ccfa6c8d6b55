"""A plain (non-editable) install finds the grammar and the built-in specs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
