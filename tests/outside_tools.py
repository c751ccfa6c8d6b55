"""Helpers shared by the tests of the genres with clues outside the grid
(tests/test_genre_outside.py, tests/test_genre_outside2.py): the cells of a
board, instances through puzz.link URLs and pzprv3 files, what puzz.link
writes read back, and a genre's examples unique."""

from __future__ import annotations

from conftest import EXAMPLES, run_cli
from pzc import api
from pzc.formats.codecs import normalize_regions


def cells_of(h, w):
    return [(r, c) for r in range(h) for c in range(w)]


def same_instance(a, b):
    """The same size, clues, parameters and layers; regions as the same cut
    into connected pieces (a text instance names them, puzz.link numbers them)."""
    def layers(inst):
        g = inst.geometry
        return {k: normalize_regions(dict(v), g.height, g.width) if k == "regions" else dict(v)
                for k, v in inst.layers.items()}
    return (a.geometry.width, a.geometry.height, a.clues, a.params, layers(a)) == \
        (b.geometry.width, b.geometry.height, b.clues, b.params, layers(b))


def round_trips(spec_name, texts, tmp_path):
    """Each text instance written as a puzz.link URL and as a pzprv3 file reads
    back as the same instance."""
    spec = api.load_spec(spec_name)
    for i, text in enumerate(texts):
        path = tmp_path / f"inst{i}.txt"
        path.write_text(text)
        inst, = api.load_instances(spec, str(path))
        url = api.write_instance(spec, inst, "url")
        assert url.startswith(f"https://puzz.link/p?{spec.url_types[0]}/")
        again, = api.load_instances(spec, url)
        assert same_instance(inst, again), (text, url)
        assert api.write_instance(spec, again, "url") == url
        file = tmp_path / f"inst{i}.pzprv3"
        file.write_text(api.write_instance(spec, inst, "pzprv3"))
        back, = api.load_instances(spec, str(file))
        assert same_instance(inst, back), (text, file.read_text())


def examples_unique(spec):
    files = sorted((EXAMPLES / spec).iterdir())
    assert files
    for path in files:
        run = run_cli("unique", spec, path)
        assert run.returncode == 0, run.stdout + run.stderr


def reads_what_puzzlink_writes(spec_name, url, file, clues, tmp_path):
    """A URL and a pzprv3 file (its answer in it) as today's puzz.link (robx/pzprjs,
    built from its source) wrote them read as ``clues``; pzc writes the same
    URL body back."""
    spec = api.load_spec(spec_name)
    from_url, = api.load_instances(spec, url)
    path = tmp_path / "puzzlink.pzprv3"
    path.write_text(file)
    from_file, = api.load_instances(spec, str(path))
    assert from_url.clues == from_file.clues == clues
    assert api.write_instance(spec, from_url, "url").rpartition("/")[2] == url.rpartition("/")[2]
