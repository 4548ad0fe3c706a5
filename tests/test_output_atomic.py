"""Every file a command writes is written all at once: a full or read-only disk, or an error part-way, is one
line (exit status 2), leaves no partial file or folder and no temporary one, and never touches an existing output
or an input. Standard output on a full disk is one line too.

The full disk is simulated in the process (the output module's writes raise ENOSPC, as a full disk makes them) and,
for standard output, with the device /dev/full. A read-only folder is simulated (EROFS) and, where the tests do not
run as root (root writes anyway), made with chmod.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from implgraph.cli import main
from _hostile import failing_writes

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
EROFS = OSError(errno.EROFS, os.strerror(errno.EROFS))
DATA = "age,zip,disease\n30,1,flu\n30,1,cold\n40,2,flu\n40,2,hiv\n"


def _one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "fix:" in lines[0] and lines[0].startswith("implgraph: "), err
    return lines[0]


def _tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# -- site --------------------------------------------------------------------------------------------------

CELLS = [{"a": "ldp", "b": "dp", "relation": "implication", "verdict": "proved", "tight": "eps", "bound": "every N",
          "proved_every_n": True},
         {"a": "dp", "b": "ldp", "relation": "non-implication", "verdict": "refuted", "witness": None}]


@pytest.fixture
def site_inputs(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "m.json").write_text(json.dumps({"nodes": ["ldp", "dp"], "cells": CELLS}))
    (inputs / "v.json").write_text(json.dumps({"claims": [{"id": "ekenstedt2022/lemma-1", "verdict": "refuted"}]}))
    return inputs / "m.json", inputs / "v.json"


def _site(out, matrix, verdicts):
    return main(["site", "--out", str(out), "--matrix", str(matrix), "--verdicts", str(verdicts), "--no-levels",
                 "--no-certificates", "--groups-n", "0"])


def _fail_pages_after(monkeypatch, n, exc):
    """The site's n+1-th pair page fails with ``exc`` (a disk that fills up part-way through the site)."""
    from implgraph.site import pages
    real, calls = pages.edge_page, [0]

    def page(data, c):
        calls[0] += 1
        if calls[0] > n:
            raise exc
        return real(data, c)

    monkeypatch.setattr(pages, "edge_page", page)


@pytest.mark.parametrize("exc", [ENOSPC, EROFS], ids=["full", "read-only"])
def test_site_on_a_failing_disk_leaves_no_partial_site(tmp_path, site_inputs, capsys, monkeypatch, exc):
    out = tmp_path / "site"
    _fail_pages_after(monkeypatch, 1, exc)
    assert _site(out, *site_inputs) == 2
    line = _one_line(capsys.readouterr().err)
    assert exc.strerror in line and f"--out {out}" in line
    assert sorted(os.listdir(tmp_path)) == ["in"]          # no site, no temporary folder


def test_an_existing_site_is_replaced_only_when_complete(tmp_path, site_inputs, capsys, monkeypatch):
    out = tmp_path / "site"
    assert _site(out, *site_inputs) == 0
    before = _tree(out)
    assert "index.html" in before and "edges/ldp--dp.html" in before
    _fail_pages_after(monkeypatch, 1, ENOSPC)
    assert _site(out, *site_inputs) == 2
    _one_line(capsys.readouterr().err)
    assert _tree(out) == before and sorted(os.listdir(tmp_path)) == ["in", "site"]
    monkeypatch.undo()
    (out / "edges" / "stale--page.html").write_text("a page of a pair no longer in the matrix")
    assert _site(out, *site_inputs) == 0                  # a complete build replaces the whole site
    assert _tree(out) == before


@pytest.mark.parametrize("foreign", ["notes.txt", "drafts/a.html", "assets/logo.xcf"])
def test_a_folder_with_other_files_is_not_replaced(tmp_path, site_inputs, capsys, foreign):
    out = tmp_path / "site"
    (out / foreign).parent.mkdir(parents=True)
    (out / foreign).write_text("mine")
    assert _site(out, *site_inputs) == 2
    assert "holds files the command does not write" in _one_line(capsys.readouterr().err)
    assert _tree(out) == {foreign: b"mine"} and sorted(os.listdir(tmp_path)) == ["in", "site"]


def test_site_out_holding_an_input_is_refused(tmp_path, site_inputs, capsys):
    matrix, verdicts = site_inputs
    for out in (matrix.parent, matrix):
        before = _tree(matrix.parent)
        assert _site(out, matrix, verdicts) == 2
        _one_line(capsys.readouterr().err)
        assert _tree(matrix.parent) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_site_in_a_read_only_folder(tmp_path, site_inputs, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        assert _site(ro / "site", *site_inputs) == 2
        assert "Permission denied" in _one_line(capsys.readouterr().err)
        assert os.listdir(ro) == []
    finally:
        ro.chmod(0o755)


# -- map --out, guarantees --html, discover --write ---------------------------------------------------------

@pytest.fixture
def no_verdicts(tmp_path):
    path = tmp_path / "v.json"
    path.write_text('{"claims": []}')
    return path


@pytest.mark.parametrize("suffix", [".svg", ".dot", ".tex"])
@pytest.mark.parametrize("exc", [ENOSPC, EROFS], ids=["full", "read-only"])
def test_map_out_on_a_failing_disk(tmp_path, no_verdicts, capsys, monkeypatch, suffix, exc):
    failing_writes(monkeypatch, exc)
    out = tmp_path / f"map{suffix}"
    assert main(["map", "--verdicts", str(no_verdicts), "--out", str(out)]) == 2
    assert exc.strerror in _one_line(capsys.readouterr().err)
    assert sorted(os.listdir(tmp_path)) == ["v.json"]


def test_map_out_equal_to_its_verdicts_file_is_refused(tmp_path, capsys):
    given = tmp_path / "v.dot"                   # a verdict file with a drawing's name
    given.write_text('{"claims": []}')
    link = tmp_path / "link.dot"
    link.symlink_to(given)
    for out in (given, link):
        assert main(["map", "--verdicts", str(given), "--out", str(out)]) == 2
        assert "is an input" in _one_line(capsys.readouterr().err)
        assert given.read_text() == '{"claims": []}'


@pytest.fixture
def microdata(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text(DATA)
    return path


def _guarantees(data, verdicts, html):
    return main(["guarantees", str(data), "--qi", "age,zip", "--sensitive", "disease", "--verdicts", str(verdicts),
                 "--html", str(html)])


def test_guarantees_html_on_a_full_disk_keeps_the_previous_report(tmp_path, microdata, no_verdicts, capsys,
                                                                   monkeypatch):
    from implgraph.commands import guarantees
    report = tmp_path / "report.html"
    report.write_text("the previous report")

    def full_open(path, mode="r", *a, **k):     # a plain open() of the report: truncated, then the disk is full
        fh = open(path, mode, *a, **k)
        if "w" in mode:
            def write(data):
                raise ENOSPC
            fh.write = write
        return fh

    monkeypatch.setattr(guarantees, "open", full_open, raising=False)
    failing_writes(monkeypatch, ENOSPC)
    assert _guarantees(microdata, no_verdicts, report) == 2
    assert "No space left on device" in _one_line(capsys.readouterr().err)
    assert report.read_text() == "the previous report"
    assert sorted(os.listdir(tmp_path)) == ["g.csv", "report.html", "v.json"]


@pytest.mark.parametrize("which", ["data", "verdicts"])
def test_guarantees_html_equal_to_an_input_is_refused(microdata, no_verdicts, capsys, which):
    target = microdata if which == "data" else no_verdicts
    before = target.read_text()
    assert _guarantees(microdata, no_verdicts, target) == 2
    assert "is an input" in _one_line(capsys.readouterr().err)
    assert target.read_text() == before


def _discover(out):
    return main(["discover", "--N", "3", "--definitions", "emd-t-closeness", "ldp", "--write", str(out), "-q",
                 "--jobs", "1"])


@pytest.mark.parametrize("after", [0, 1], ids=["first-file", "second-file"])
def test_discover_write_on_a_full_disk_writes_neither_file(tmp_path, capsys, monkeypatch, after):
    failing_writes(monkeypatch, ENOSPC, after=after)
    assert _discover(tmp_path / "found") == 2
    assert "No space left on device" in _one_line(capsys.readouterr().err)
    assert os.listdir(tmp_path) == []


def test_discover_write_into_a_file_is_refused_before_the_search(tmp_path, capsys, monkeypatch):
    from implgraph.commands import discover
    target = tmp_path / "found"
    target.write_text("x")
    monkeypatch.setattr(discover, "discover", lambda **k: pytest.fail("searched before checking --write"))
    assert _discover(target) == 2
    assert "is not a directory" in _one_line(capsys.readouterr().err)


def test_discover_write_loads_back_with_a_word_parameter(tmp_path, capsys):
    """EMD's ground is a word: the written claim ``params: {ground: "equal"}`` was read as the formula 'equal' by
    the theorem loader (undeclared symbol), so discover refused its own file."""
    from implgraph.io.theorems import load_claims, load_theorems
    assert _discover(tmp_path / "found") == 0
    path = tmp_path / "found" / "theorems" / "discover-N3.yaml"
    edges = load_theorems([str(path)])
    emd = [side for e in edges for side in (e.a, e.b) if side.definition.name == "emd-t-closeness"]
    assert emd and all(str(side.params["ground"]) == "equal" for side in emd)
    assert {c["id"] for c in load_claims([str(path)])} >= {e.id for e in edges}


def test_a_word_parameter_is_never_evaluated(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "theorems").mkdir()
    (tmp_path / "theorems" / "w.yaml").write_text(textwrap.dedent("""\
        paper: w
        reference: "w"
        claims:
          - id: w/emd-ldp
            source: "w"
            printed: "ldp => emd"
            kind: implies
            from: {definition: ldp, level: eps}
            to: {definition: emd-t-closeness, params: {ground: "__import__('os').system('touch PWN')"}, level: t}
            f: "eps"
            symbols: {N: integer}
            when: []
        """))
    main(["verify", "w/emd-ldp", "--theorems", "theorems/w.yaml", "--jobs", "1"])
    assert not (tmp_path / "PWN").exists()
    assert "Traceback" not in capsys.readouterr().err


# -- standard output ----------------------------------------------------------------------------------------

def _cli(args, cwd, stdout):
    env = {**os.environ, "IMPLGRAPH_NO_CACHE": "1"}
    return subprocess.run([sys.executable, "-m", "implgraph.cli", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300, env=env)


@pytest.mark.parametrize("args", [["levels", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--json"],
                                  ["levels", "g.csv", "--qi", "age,zip", "--sensitive", "disease"],
                                  ["definitions"]], ids=["levels-json", "levels", "definitions"])
def test_stdout_on_a_full_disk(tmp_path, microdata, args):
    with open("/dev/full", "w") as full:
        r = _cli(args, tmp_path, full)
    assert r.returncode == 2
    assert "No space left on device" in _one_line(r.stderr) and "free some disk space" in r.stderr


def test_stdout_opened_read_only(tmp_path, microdata):
    with open(microdata) as read_only:
        r = _cli(["levels", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--json"], tmp_path, read_only)
    assert r.returncode == 2 and "cannot write to standard output" in _one_line(r.stderr)
    assert microdata.read_text() == DATA


def test_stdout_closed_pipe_is_quiet(tmp_path, microdata):
    proc = subprocess.Popen([sys.executable, "-m", "implgraph.cli", "definitions"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.readline()
    proc.stdout.close()
    proc.wait(timeout=300)
    assert "Traceback" not in proc.stderr.read()
