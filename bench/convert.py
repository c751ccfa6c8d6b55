"""Convert third-party puzzle sets to pzc instance files, in a temp folder.

The corpus stays where it is (../shared/corpus); the converted files are
written under the system temp directory and never committed.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

OUT = Path(tempfile.gettempdir()) / "pzc-bench"


def _puzzlekit(path):
    data = json.loads(Path(path).read_text())["data"]
    for key, entry in data.items():
        lines = [l for l in entry["problem"].strip().split("\n")]
        rows, cols = map(int, lines[0].split()[:2])
        body = [l.split() for l in lines[1:] if l.strip()]
        if len(body) != rows or any(len(r) != cols for r in body):
            continue            # the dataset's corrupted entries (see its SOURCES.md)
        yield key, body, entry.get("solution", "")


# The 18 slowest for pzc (2026-11-23), by puzzlekit key: the 14 over 10 s in
# one run and four near that
NURIKABE_HARD = ("29_10x10", "753_10x10", "683_14x24", "1108_20x15", "94_20x36", "92_20x36",
                 "667_14x24", "1047_25x32", "680_31x45", "1046_23x33", "1008_14x24",
                 "459_20x36", "460_20x36", "510_20x36", "570_31x45", "1050_15x25",
                 "690_50x50", "1055_40x57")


def nurikabe(corpus: Path, only=None, name="nurikabe.txt") -> tuple:
    """One token-grid file holding every usable puzzle (or those whose keys
    are in ``only``); (path, keys, solutions)."""
    keys, texts, solutions = [], [], []
    for key, body, solution in _puzzlekit(corpus / "nurikabe" / "puzzlekit" / "Nurikabe_dataset.json"):
        if only is not None and key not in only:
            continue
        keys.append(key)
        texts.append("\n".join(" ".join("." if t == "-" else t for t in row) for row in body))
        sol = [l.split() for l in solution.strip().split("\n")[1:]]
        solutions.append(sol)
    return _write(name, keys, texts), keys, solutions


def nurikabe_hard(corpus: Path) -> tuple:
    return nurikabe(corpus, NURIKABE_HARD, "nurikabe-hard.txt")


def slitherlink(corpus: Path) -> tuple:
    keys, texts, solutions = [], [], []
    for key, body, solution in _puzzlekit(corpus / "other" / "puzzlekit" / "Slitherlink_dataset.json"):
        keys.append(key)
        texts.append("\n".join("".join("." if t in "-." else t for t in row) for row in body))
        sol = [l.split() for l in solution.strip().split("\n")[1:]] if solution.strip() else None
        solutions.append(sol)
    return _write("slitherlink.txt", keys, texts), keys, solutions


def _write(name, keys, texts) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    parts = [f"# {k}\n{t}" for k, t in zip(keys, texts)]
    path.write_text("\n\n".join(parts) + "\n")
    return path


if __name__ == "__main__":   # pragma: no cover - a manual aid
    root = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    for fn in (nurikabe, slitherlink, nurikabe_hard):
        p, keys, _ = fn(root)
        print(p, len(keys))
