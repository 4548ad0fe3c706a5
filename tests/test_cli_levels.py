"""``implgraph levels``: good input (text and JSON) and every kind of bad input.

Bad input must give exit status 2, exactly one line on stderr naming the file (and the line), no
traceback, and leave the working directory untouched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from implgraph.cli import main

GOOD_CSV = "class,a1,a2\nE1,1/2,1/2\nE1,0.25,0.75\nE2,1/2,1/2\nE2,1/4,3/4\n"


def _run(tmp_path, capsys, name, text, *args):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    before = sorted(os.listdir(tmp_path))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code = main(["levels", name, *args])
    finally:
        os.chdir(cwd)
    out = capsys.readouterr()
    assert sorted(os.listdir(tmp_path)) == before      # nothing written
    return code, out


def test_levels_csv_text(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "t.csv", GOOD_CSV)
    assert code == 0 and out.err == ""
    # a1 values 1/2, 1/4, 1/2, 1/4: LDP ratio 2 (a1) vs 3/2 (a2) -> eps = log(2)
    assert "eps = log(2)" in out.out
    # classes {1/2, 1/4} twice: both class means equal the table mean -> t = 1; 2 records each
    assert "t = 1" in out.out and "k = 2" in out.out


def test_levels_csv_with_bom(tmp_path, capsys):
    """A UTF-8 byte-order mark (as spreadsheet programs write) is dropped, not read into the header."""
    (tmp_path / "bom.csv").write_bytes(b"\xef\xbb\xbf" + GOOD_CSV.encode())
    code, out = _run(tmp_path, capsys, "plain.csv", GOOD_CSV, "--json")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["levels", "bom.csv", "--json"]) == 0
    finally:
        os.chdir(cwd)
    bom = json.loads(capsys.readouterr().out)
    assert code == 0 and bom["definitions"] == json.loads(out.out)["definitions"]
    # the same hand-derived level as the plain file: a1 ratio 2 -> eps = log(2)
    assert bom["definitions"]["ldp"]["level"] == "log(2)"


def test_levels_csv_json(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, "t.csv", GOOD_CSV, "--json", "--k", "1")
    assert code == 0
    data = json.loads(out.out)
    defs = data["definitions"]
    assert set(defs) >= {"mult-t-closeness", "kt-closeness", "dp", "ldp", "kdp", "k-anonymity",
                         "emd-t-closeness"}
    assert defs["ldp"]["level"] == "log(2)"
    assert defs["kt-closeness"]["params"] == {"k": "1"}
    # (1,t): a1 mean 3/8, smallest record 1/4 -> 3/2; largest 1/2 -> 4/3; a2 mean 5/8: 6/5, 5/4
    assert defs["kt-closeness"]["level"] == "3/2"
    assert defs["kt-closeness"]["float"] == 1.5


BAD = [
    # (file name, content, extra args, text the message must contain, line)
    ("p.csv", "a1,a2\n0.5,0.5\n1.5,-0.5\n", (), "outside [0,1]", 3),
    ("s.csv", "a1,a2\n0.5,0.5\n0.5,0.25\n", (), "sum to 3/4", 3),
    ("c.csv", "class,a1,a2\nE1,0.5,0.5\n,0.5,0.5\n", (), "missing class", 3),
    ("n.csv", "a1,a2\n0.5,0.5\nhalf,0.5\n", (), "not a number", 3),
    ("u.yaml", """
        id: t
        symbols: {mu: real}
        region: ["0 < mu", "mu < 1/2"]
        rows:
          - {p: "mu"}
          - {p: "nu"}
        """, (), "undeclared symbol 'nu'", 7),
    ("f.yaml", """
        id: t
        symbols: {mu: real}
        rows:
          - {p: "mu +* 2"}
          - {p: "1/2"}
        """, (), "cannot parse", 5),
    ("i.yaml", """
        id: t
        symbols: {}
        rows:
          - {p: "__import__('os').system('touch pwned')"}
          - {p: "1/2"}
        """, (), "not allowed", 5),
    ("b.yaml", """
        id: t
        symbols: {N: integer, k: integer}
        region: ["1 <= k", "k <= N"]
        rows:
          - {p: "0", count: "k - 1"}
          - {p: "1/2", count: "N - k + 1"}
        """, (), "block count k - 1", 6),
    ("r.yaml", """
        id: t
        symbols: {mu: real}
        region: ["0 < mu", "mu <= 1"]
        rows:
          - {p: "mu"}
          - {p: "2*mu"}
        """, (), "above 1", 7),
    ("k.yaml", """
        id: t
        symbols: {}
        rows:
          - {p: "1/2", class: E1}
          - {p: "1/4"}
        """, (), "no class", 6),
    ("kk.csv", "a1,a2\n0.5,0.5\n0.25,0.75\n", ("--k", "2"), "out of range", None),
    ("kz.csv", "a1,a2\n0.5,0.5\n0.25,0.75\n", ("--k", "0"), "out of range", None),
]


@pytest.mark.parametrize("name, text, args, needle, line", BAD, ids=[b[0] for b in BAD])
def test_levels_bad_input(tmp_path, capsys, name, text, args, needle, line):
    code, out = _run(tmp_path, capsys, name, text, *args)
    assert code == 2
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1, out.err
    msg = lines[0]
    assert "Traceback" not in out.err
    assert needle in msg, msg
    assert name in msg
    if line is not None:
        assert f"{name}:{line}:" in msg, msg
    assert "fix:" in msg
    assert not (tmp_path / "pwned").exists()


def test_levels_bad_input_subprocess(tmp_path):
    """The real console entry point: one line, status 2, no traceback, nothing written."""
    path = tmp_path / "bad.csv"
    path.write_text("a1,a2\n0.5,0.5\n1.5,-0.5\n")
    before = sorted(os.listdir(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "implgraph.cli", "levels", "bad.csv"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "bad.csv:3:" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(os.listdir(tmp_path)) == before
