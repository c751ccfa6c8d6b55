"""Shared fixtures: run the `pzc` command line, write spec and instance files.

    def test_something(write, run_pzc):
        write("grid.txt", "4..1\\n...3\\n3..4\\n1.3.\\n")
        run = run_pzc("solve", "sudoku", "grid.txt")     # runs in tmp_path
        assert run.returncode == 0, run.stderr
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "specs" / "examples"
# third-party puzzle sets (../shared/corpus beside the repository); tests that
# read them skip where it is absent
CORPUS = ROOT.parent / "shared" / "corpus"
# puzzlekit dataset files of genres ../shared/corpus does not hold (Fillomino,
# LITS): $PZC_DATASETS, by default ../datasets (bench/run.py says how to get them)
DATASETS = Path(os.environ.get("PZC_DATASETS", ROOT.parent / "datasets"))
# the external backend's tests run the `cadical` binary (Debian's package)
needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None,
                                   reason="no cadical binary on PATH")


def reads_corpus(path: Path):
    """A test that reads ``path`` in ../shared/corpus: marked "corpus" (so
    `make test-fast` leaves it out), and skipped where the file is absent."""
    skip = pytest.mark.skipif(not path.exists(), reason=f"{path} is absent")
    return lambda test: pytest.mark.corpus(skip(test))


class Run(NamedTuple):
    """The outcome of one `pzc` run; unpacks as (returncode, stdout, stderr)."""
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args, stdin: str | None = None, cwd=None, timeout: float = 120) -> Run:
    """Run `python -m pzc.cli ARGS...` with this interpreter; text in, text out."""
    proc = subprocess.run([sys.executable, "-m", "pzc.cli", *map(str, args)],
                          input=stdin, capture_output=True, text=True, cwd=cwd,
                          timeout=timeout)
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def run_pzc(tmp_path):
    """run_pzc(*args, stdin=None, cwd=tmp_path, timeout=120) -> Run(returncode, stdout, stderr).

    Relative file names resolve in the test's tmp_path, where `write` puts files."""
    def run(*args, stdin=None, cwd=None, timeout=120):
        return run_cli(*args, stdin=stdin, cwd=cwd or tmp_path, timeout=timeout)
    return run


@pytest.fixture
def write(tmp_path):
    """write(name, text, dedent=False) -> Path: a file in tmp_path, written byte
    for byte (no newline translation, so "\\r\\n" stays CRLF)."""
    def write_file(name, text, dedent=False):
        if dedent:
            text = textwrap.dedent(text).lstrip("\n")
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path
    return write_file


@pytest.fixture
def examples() -> Path:
    """specs/examples: the instances shipped with pzc."""
    return EXAMPLES


def example_url(name: str) -> str:
    """The puzz.link URL of the spec's first example in specs/examples."""
    from pzc import api     # here: conftest loads before every test, most need no spec
    spec = api.load_spec(name)
    path = sorted((EXAMPLES / name).glob("*"))[0]
    return api.write_instance(spec, api.load_instances(spec, str(path))[0], "url")


def pytest_collection_modifyitems(items):
    """Tests named for pzprjs run puzz.link's engine in node (a process of
    its own, a second or more each): they carry the mark `pzprjs`."""
    for item in items:
        if "pzprjs" in getattr(item, "originalname", item.name):
            item.add_marker(pytest.mark.pzprjs)
