"""An adversarial pass over the commands that write files and the files they read besides the data: the verdict
files (``--verdicts``) and the caches.

Every hostile output or verdict file is exit status 2 with one line ``implgraph: ...; fix: ...``, no traceback, no
file written (nor a temporary one), no input changed. A hostile cache is no error of the user's: the command
computes again and gives the same answer as with no cache, and no input is touched.

A full disk is simulated (the output module's writes raise ENOSPC) or real (``/dev/full``); a read-only folder is
simulated (EROFS) since the tests may run as root.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from implgraph.cli import main
from implgraph.io import output
from _hostile import USER_CLAIM, failing_writes

DATA = "age,zip,disease\n30,1,flu\n30,1,cold\n40,2,flu\n40,2,hiv\n"
MATRIX = {"nodes": ["ldp", "dp"], "cells": [{"a": "ldp", "b": "dp", "relation": "implication", "verdict": "proved"},
                                            {"a": "dp", "b": "ldp", "relation": "open", "verdict": "unknown"}]}


class World:
    """A folder with the inputs (data, verdicts, matrix) and an ``out`` folder for the outputs."""

    def __init__(self, root: Path):
        self.root = root
        self.data = root / "g.csv"
        self.data.write_text(DATA)
        self.verdicts = root / "v.json"
        self.verdicts.write_text('{"claims": []}')
        self.matrix = root / "m.json"
        self.matrix.write_text(json.dumps(MATRIX))
        self.out = root / "out"
        self.out.mkdir()

    def snapshot(self) -> dict:
        return {str(p.relative_to(self.root)): (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
                for p in sorted(self.root.rglob("*")) if not p.is_socket() and not p.is_fifo()}


def _fail_writes(monkeypatch, errnum):
    """Every regular file the output module writes fails with ``errnum`` part-way."""
    failing_writes(monkeypatch, OSError(errnum, os.strerror(errnum)), partial=3)


def _fail_folders(monkeypatch, errnum):
    """Making the temporary folder of an output folder fails with ``errnum`` (a read-only parent)."""
    def mkdtemp(*a, **k):
        raise OSError(errnum, os.strerror(errnum))
    monkeypatch.setattr(output.tempfile, "mkdtemp", mkdtemp)


def _map(w, out, verdicts=None):
    return ["map", "--verdicts", str(verdicts or w.verdicts), "--out", str(out)]


def _guarantees(w, html, verdicts=None):
    return ["guarantees", str(w.data), "--qi", "age,zip", "--sensitive", "disease", "--verdicts",
            str(verdicts or w.verdicts), "--html", str(html)]


def _site(w, out, verdicts=None, matrix=None):
    return ["site", "--out", str(out), "--matrix", str(matrix or w.matrix), "--verdicts", str(verdicts or w.verdicts),
            "--no-levels", "--no-certificates", "--groups-n", "0"]


def _path(w, verdicts):
    return ["path", "ldp", "dp", "--verdicts", str(verdicts)]


def _discover(w, out):
    return ["discover", "--N", "2", "--definitions", "ldp", "dp", "--write", str(out), "-q", "--jobs", "1"]


def _hard_link(w, name):
    os.link(w.verdicts, w.out / name)
    return w.out / name


def _symlink(target, link):
    link.symlink_to(target)
    return link


def _socket(path):
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    return path


def _fifo(path):
    os.mkfifo(path)
    return path


def _verdict_file(w, text, name="bad.json"):
    p = w.root / name
    p.write_text(text) if isinstance(text, str) else p.write_bytes(text)
    return p


def _sparse(w, size):
    p = w.root / "huge.json"
    with open(p, "wb") as fh:
        fh.truncate(size)
    return p


#: (name, build argv from the world (may set up files), monkeypatch setup or None, words in the message)
CASES = [
    # map --out
    ("map-out-missing-folder", lambda w: _map(w, w.out / "no" / "m.svg"), None, "does not exist"),
    ("map-out-a-folder", lambda w: _map(w, (w.out / "m.svg").mkdir() or w.out / "m.svg"), None, "directory"),
    ("map-out-unknown-suffix", lambda w: _map(w, w.out / "m.exe"), None, "unknown output format"),
    ("map-out-is-the-verdicts", lambda w: _map(w, w.out / "v.dot", _verdict_file(w, '{"claims": []}', "out/v.dot")),
     None, "is an input"),
    ("map-out-symlink-to-verdicts", lambda w: _map(w, _symlink(_verdict_file(w, "{}", "x.svg"), w.out / "l.svg"),
                                                   w.root / "x.svg"), None, "is an input"),
    ("map-out-hard-link-to-verdicts", lambda w: _map(w, _hard_link(w, "h.dot")), None, "is an input"),
    ("map-out-full-disk", lambda w: _map(w, w.out / "m.svg"), lambda m: _fail_writes(m, errno.ENOSPC),
     "No space left"),
    ("map-out-read-only", lambda w: _map(w, w.out / "m.tex"), lambda m: _fail_writes(m, errno.EROFS), "Read-only"),
    ("map-out-a-socket", lambda w: _map(w, _socket(w.out / "s.dot")), None, "not a regular file"),
    ("map-out-fifo-without-reader", lambda w: _map(w, _fifo(w.out / "f.dot")), None, "No such device"),
    # guarantees --html
    ("html-is-the-data", lambda w: _guarantees(w, w.data), None, "is an input"),
    ("html-is-the-verdicts", lambda w: _guarantees(w, w.verdicts), None, "is an input"),
    ("html-symlink-to-the-data", lambda w: _guarantees(w, _symlink(w.data, w.out / "r.html")), None, "is an input"),
    ("html-a-folder", lambda w: _guarantees(w, w.out), None, "directory"),
    ("html-missing-folder", lambda w: _guarantees(w, w.out / "no" / "r.html"), None, "does not exist"),
    ("html-dev-full", lambda w: _guarantees(w, _symlink("/dev/full", w.out / "full.html")), None, "No space left"),
    ("html-full-disk", lambda w: _guarantees(w, w.out / "r.html"), lambda m: _fail_writes(m, errno.ENOSPC),
     "No space left"),
    ("html-read-only", lambda w: _guarantees(w, w.out / "r.html"), lambda m: _fail_writes(m, errno.EROFS),
     "Read-only"),
    # site --out
    ("site-out-a-file", lambda w: _site(w, w.data), None, "not a directory"),
    ("site-out-is-the-matrix", lambda w: _site(w, w.matrix), None, "not a directory"),
    ("site-out-holds-the-verdicts", lambda w: _site(w, w.root), None, "input"),
    ("site-out-symlink-to-inputs", lambda w: _site(w, _symlink(w.root, w.out / "s")), None, "input"),
    ("site-out-missing-parent", lambda w: _site(w, w.out / "a" / "b"), None, "does not exist"),
    ("site-out-holds-user-files", lambda w: _site(w, (w.out / "notes.md").write_text("mine") and w.out), None,
     "does not write"),
    ("site-out-full-disk", lambda w: _site(w, w.out / "site"), lambda m: _fail_writes_site(m, errno.ENOSPC),
     "No space left"),
    ("site-out-read-only", lambda w: _site(w, w.out / "site"), lambda m: _fail_folders(m, errno.EROFS), "Read-only"),
    ("site-out-dev-full", lambda w: _site(w, "/dev/full"), None, "not a directory"),
    # discover --write
    ("discover-write-a-file", lambda w: _discover(w, w.data), None, "not a directory"),
    ("discover-write-missing-parent", lambda w: _discover(w, w.out / "a" / "b"), None, "does not exist"),
    ("discover-write-theorems-is-a-file", lambda w: _discover(w, (w.out / "theorems").write_text("x") and w.out),
     None, "not a directory"),
    ("discover-write-full-disk", lambda w: _discover(w, w.out / "found"), lambda m: _fail_writes(m, errno.ENOSPC),
     "No space left"),
    # verdict files (map, path, guarantees, site)
    ("verdicts-truncated", lambda w: _path(w, _verdict_file(w, '{"claims": [{"id": "a/b", "verdict": "pro')), None,
     "not JSON"),
    ("verdicts-wrong-type", lambda w: _map(w, w.out / "m.svg", _verdict_file(w, '{"claims": {"a": 1}}')), None,
     "not a list"),
    ("verdicts-row-null", lambda w: _guarantees(w, w.out / "r.html", _verdict_file(w, '{"claims": [null]}')), None,
     "row 1 is a NoneType"),
    ("verdicts-code", lambda w: _site(w, w.out / "s", _verdict_file(
        w, json.dumps([{"id": "a/b", "verdict": "__import__('os').system('touch PWN')"}]))), None,
     "not a verdict word"),
    ("verdicts-ansi-id", lambda w: _path(w, _verdict_file(w, json.dumps([{"id": "\u001b]0;x\u0007",
                                                                          "verdict": "proved"}]))), None,
     "control character"),
    ("verdicts-huge", lambda w: _path(w, _sparse(w, 65 * 2 ** 20)), None, "larger"),
    ("verdicts-dev-zero", lambda w: _path(w, _symlink("/dev/zero", w.root / "z.json")), None, "not a regular file"),
    ("verdicts-a-folder", lambda w: _path(w, w.out), None, "directory"),
    ("verdicts-fifo", lambda w: _path(w, _fifo(w.root / "f.json")), None, "not a regular file"),
    ("verdicts-deep", lambda w: _path(w, _verdict_file(w, "[" * 50000 + "]" * 50000)), None, "not a verdict file"),
    ("verdicts-binary", lambda w: _path(w, _verdict_file(w, bytes(range(256)) * 4)), None, "UTF-8"),
    ("verdicts-duplicate", lambda w: _path(w, _verdict_file(w, '[{"id": "a/b", "verdict": "proved"}, '
                                                                '{"id": "a/b", "verdict": "refuted"}]')), None, "again"),
    ("verdicts-empty", lambda w: _map(w, w.out / "m.dot", _verdict_file(w, "")), None, "not JSON"),
]


def _fail_writes_site(monkeypatch, errnum):
    """The site's pages fail part-way (the disk fills up while the site is written)."""
    from implgraph.site import pages
    real, calls = pages.edge_page, [0]

    def page(data, c):
        calls[0] += 1
        if calls[0] > 1:
            raise OSError(errnum, os.strerror(errnum))
        return real(data, c)

    monkeypatch.setattr(pages, "edge_page", page)


@pytest.mark.parametrize("name,argv,setup,words", CASES, ids=[c[0] for c in CASES])
def test_hostile_output_or_verdict_file(tmp_path, capsys, monkeypatch, name, argv, setup, words):
    monkeypatch.chdir(tmp_path)
    w = World(tmp_path)
    args = argv(w)
    before = w.snapshot()
    if setup is not None:
        setup(monkeypatch)
    assert main(args) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("implgraph: ") and "; fix: " in lines[0] and words in lines[0], lines[0]
    assert w.snapshot() == before                        # nothing written, no temporary file, no input changed
    assert not (tmp_path / "PWN").exists()


def test_the_adversarial_pass_has_forty_cases():
    assert len(CASES) >= 40


# -- hostile caches: computed again, the same answer, no input touched ---------------------------------------------



def _entries(cache):
    return sorted((cache / "claims").glob("*.json"))


def _truncate(cache, claim):
    for e in _entries(cache):
        e.write_text(e.read_text()[:100])


def _wrong_types(cache, claim):
    for e in _entries(cache):
        e.write_text(json.dumps({"format": "implgraph-claim-rows/2", "rows": [1, 2], "macs": "x"}))


def _huge(cache, claim):
    for e in _entries(cache):
        with open(e, "wb") as fh:
            fh.truncate(300 * 2 ** 20)


def _symlink_to_input(cache, claim):
    for e in _entries(cache):
        e.unlink()
        e.symlink_to(claim)


def _key_symlink(cache, claim):
    (cache / "cache.key").unlink()
    (cache / "cache.key").symlink_to(claim)


def _key_world_readable(cache, claim):
    (cache / "cache.key").chmod(0o644)


def _cache_is_a_file(cache, claim):
    import shutil
    shutil.rmtree(cache)
    cache.write_text("not a folder")


def _entry_a_folder(cache, claim):
    for e in _entries(cache):
        e.unlink()
        e.mkdir()


CACHE_CASES = [_truncate, _wrong_types, _huge, _symlink_to_input, _key_symlink, _key_world_readable,
               _cache_is_a_file, _entry_a_folder]


#: the cases the default suite runs (each starts verify on a damaged cache, ~5 s); the others run with -m slow
_CACHE_DEFAULT = (_truncate, _symlink_to_input, _key_world_readable, _entry_a_folder)


@pytest.mark.parametrize("damage", [f if f in _CACHE_DEFAULT else pytest.param(f, marks=pytest.mark.slow)
                                    for f in CACHE_CASES], ids=[f.__name__.strip("_") for f in CACHE_CASES])
def test_hostile_cache(tmp_path, damage):
    (tmp_path / "theorems").mkdir()
    claim = tmp_path / "theorems" / "user.yaml"
    claim.write_text(textwrap.dedent(USER_CLAIM))
    cache = tmp_path / "cache"
    env = {**os.environ, "IMPLGRAPH_CACHE_DIR": str(cache)}
    env.pop("IMPLGRAPH_NO_CACHE", None)

    def verify():
        r = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", "user/ldp-mt", "--theorems",
                            "theorems/user.yaml", "--jobs", "1", "--json"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=600, env=env)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        return [(row["id"], row["verdict"], row["evidence"]) for row in json.loads(r.stdout)["claims"]]

    cold = verify()
    assert [v for _, v, _ in cold] == ["refuted"]
    damage(cache, claim)
    assert verify() == cold
    assert claim.read_text() == textwrap.dedent(USER_CLAIM)
