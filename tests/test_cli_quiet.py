"""``-q`` honoured by every command that prints text: only its summary lines (each one a line the command prints
without ``-q`` too), nothing on stderr (no progress), and no library's warning on the way (numpy, sympy, z3, pandas).

The summary of each command, by hand: ``definitions`` one line per definition and the count; ``check-edge`` the
relation and its one-line summary; ``matrix`` the counts; ``discover`` its heading and one line per relation;
``table`` the table's id, size and one line per claim; ``certificate --text`` one line per claim; ``path`` the
heading, the tightest compositions and the verdict on them; ``guarantees`` the heading of each table;
``check-definition`` its verdict line (every check passing); ``claims`` and ``verify`` the count line.
"""

from __future__ import annotations

import re
import warnings

import pytest

from implgraph import definitions as registry
from implgraph.cli import main

CSV = "zip,disease\n1,flu\n1,cold\n2,flu\n2,cold\n"


def _run(argv, capsys):
    """stdout lines, stderr and the warnings raised (every one, whatever the filters) of ``implgraph argv``."""
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(argv) == 0
    out, err = capsys.readouterr()
    return out.splitlines(), err, [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught]


def _is_subsequence(short, long) -> bool:
    """Is every line of ``short`` a line of ``long``, in order (timings aside)?"""
    untimed = lambda line: re.sub(r"\d+(\.\d+)? s\b", "_ s", line)  # noqa: E731
    short, long = map(untimed, short), map(untimed, long)
    it = iter(long)
    return all(any(line == other for other in it) for line in short)


CASES = {
    "definitions": (["definitions"], lambda normal, capsys: len(registry.names()) + 1),
    "check-edge": (["check-edge", "dp", "ldp", "--N", "3"], lambda normal, capsys: 2),
    "matrix": (["matrix", "--definitions", "dp", "ldp", "--N", "3"], lambda normal, capsys: 1),
    "discover": (["discover", "--definitions", "dp", "ldp", "--N", "3"], lambda normal, capsys: 2),
    "table": (["table", "ekenstedt2022/table-III"],
              lambda normal, capsys: 2 + sum(line.startswith("  [") for line in normal)),
    "certificate": (["certificate", "--text", "ekenstedt2022/theorem-2b"], lambda normal, capsys: 1),
    "check-definition": (["check-definition", "dp"], lambda normal, capsys: 1),
    "claims": (["claims", "ekenstedt2022/table-VI"], lambda normal, capsys: 1),
    "verify": (["verify", "ekenstedt2022/theorem-2b"], lambda normal, capsys: 1),
    # the file's heading alone (no row per definition)
    "levels": (["levels", "t.csv"], lambda normal, capsys: 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_quiet_prints_only_the_summary(name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text("class,a1,a2\nE1,1/2,1/2\nE2,1/4,3/4\n")
    argv, expected = CASES[name]
    normal, _, caught = _run(argv, capsys)
    assert not caught, caught
    quiet, err, caught = _run([*argv, "-q"], capsys)
    assert not caught, caught
    assert err == ""
    assert len(quiet) == expected(normal, capsys) < len(normal), (quiet, normal)
    assert _is_subsequence(quiet, normal), (quiet, normal)


@pytest.mark.slow
def test_quiet_guarantees_prints_the_headings(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.csv").write_text(CSV)
    argv = ["guarantees", "m.csv", "--qi", "zip", "--sensitive", "disease"]
    normal, _, caught = _run(argv, capsys)
    assert not caught, caught
    quiet, err, caught = _run([*argv, "-q"], capsys)
    assert not caught and err == ""
    # the file's line (where the verdicts come from) and the one sensitive column's heading
    assert quiet == [line for line in normal if not line.startswith(" ")] and len(quiet) == 2


@pytest.mark.slow
def test_quiet_path_prints_the_tightest(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    normal, _, caught = _run(["path", "dp", "ldp"], capsys)
    assert not caught, caught
    quiet, err, _ = _run(["path", "dp", "ldp", "-q"], capsys)
    starred = [line for line in normal if line.split(" ", 1)[0].endswith(".") and " * " in line[:6]]
    assert err == "" and starred and quiet == [normal[0], *starred, normal[-1]]


@pytest.mark.parametrize("argv", [["check-edge", "dp", "ldp", "--N", "3"], ["definitions", "dp"],
                                  ["verify", "ekenstedt2022/theorem-2b"], ["table", "ekenstedt2022/table-III"],
                                  ["matrix", "--definitions", "dp", "ldp", "--N", "3"]])
def test_no_library_warning_on_stderr(argv, tmp_path):
    """A fresh process with every warning shown once (``-W default``: import-time DeprecationWarnings of numpy,
    sympy, z3, pandas too) and a cold cache: nothing on stderr."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-W", "default", "-m", "implgraph", *argv, "-q"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=600)
    assert done.returncode == 0 and done.stdout and done.stderr == "", done.stderr


def test_matrix_rows_are_aligned_and_readable(capsys, tmp_path, monkeypatch):
    """One row per ordered pair, its columns aligned (A, B, the relation start at the same place on every row), the
    witness as rows of fractions, never a Python list's repr."""
    monkeypatch.chdir(tmp_path)
    out, _, _ = _run(["matrix", "--definitions", "dp", "ldp", "--N", "3"], capsys)
    rows = [line for line in out if line.split()[0] in ("dp", "ldp")]
    assert len(rows) == 2
    starts = [[m.start() for m in re.finditer(r"\S+", line)][:3] for line in rows]
    assert starts[0] == starts[1], rows
    assert not any("[[" in line or "'" in line or "None" in line for line in out), out
