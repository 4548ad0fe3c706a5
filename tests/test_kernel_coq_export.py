"""``implgraph certificate --coq OUT``: the Coq files of proved edges, the library beside them, coqc's answer.

The edge is ldp => kt-closeness(k=1) (ekenstedt2022's theorem 2b at k = 1): its certificate (vertex) states, by hand,
that a table whose pairwise ratio level is at most T has every record within ratio (T (N - 1) + 1)/N of the table's
mean. The coqc test is slow (it builds the library copied into OUT) and skips where Debian's ``coq`` is missing.
"""

from __future__ import annotations

import copy
import json
import os

import pytest

from implgraph.cli import main
from implgraph.kernel_coq import export

from _coq import VERTEX, coq

EDGE = ["certificate", "--edge", "ldp", "kt-closeness(k=1)"]
#: the statement of ldp => kt-closeness(k=1) in the library's terms (U = (T (N - 1) + 1)/N)
STATEMENT = ("pairwise_le N K x (T) ->\n  subset_le TwoSided N K x (1) ((((T * ((INR N) - 1)) + 1) / (INR N))).")


def _one_line(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    return lines[0]


def test_existing_folder_is_refused_and_nothing_written(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    assert main(EDGE + ["--coq", str(out)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "exists and is not an empty folder" in line and "; fix: " in line
    assert sorted(os.listdir(tmp_path)) == ["out"] and os.listdir(out) == ["mine.txt"]


def test_bad_library_or_parent_is_refused(tmp_path, capsys):
    assert main(EDGE + ["--coq", str(tmp_path / "out"), "--coq-lib", str(tmp_path)]) == 2
    assert "no Coq library there" in _one_line(capsys.readouterr().err)
    assert main(EDGE + ["--coq", str(tmp_path / "no" / "out")]) == 2
    assert "does not exist" in _one_line(capsys.readouterr().err)
    assert main(EDGE + ["--coq-lib", str(tmp_path)]) == 2
    assert "--coq-lib without --coq" in _one_line(capsys.readouterr().err)
    assert os.listdir(tmp_path) == []


def test_without_coqc_the_files_are_written(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(export, "coq_available", lambda: False)
    out = tmp_path / "out"
    assert main(EDGE + ["--coq", str(out), "--check"]) == 0
    cap = capsys.readouterr()
    assert "coqc is not on PATH" in _one_line(cap.err)
    row = json.loads(cap.out)["claims"][0]
    assert row["coq"]["file"] == "certificates/claim01_ldp_kt_closeness_k_1.v"
    assert row["coq"]["theorems"] == [{"name": "c1", "method": "vertex", "generated": True}]
    text = (out / row["coq"]["file"]).read_text()
    assert STATEMENT in text and "Print Assumptions all_theorems." in text
    # the library's sources and a Makefile that checks every file against them
    assert (out / "lib" / "_CoqProject").is_file() and (out / "lib" / "theories" / "Vertex.v").is_file()
    assert "coqc" in (out / "Makefile").read_text()
    assert not [n for n in os.listdir(tmp_path) if n != "out"]      # the temporary folder renamed, none left




@pytest.mark.slow
@coq
def test_coq_check_accepts_the_edge_and_rejects_a_forgery(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(EDGE + ["--coq", str(out), "--check"]) == 0
    row = json.loads(capsys.readouterr().out)["claims"][0]
    check = row["coq"]["check"]
    assert check["ok"] and check["audit_ok"] and set(check["axioms"]) <= export_axioms()
    summary = json.loads((out / "coq.json").read_text())
    assert summary["checked"] and summary["failed"] == 0
    # the same certificate with U one less in the numerator: false at T = 1 (equal rows: ratio 1 > (N - 1)/N)
    forged = copy.deepcopy(VERTEX)
    forged["upper"] = "(T*(N - 1))/N"
    res = export.write(str(tmp_path / "forged"), [{"id": "ldp => kt-closeness(k=1)", "certificates": [forged]}],
                       export.find_library(), check=True)
    assert res["checked"] and res["failed"] == 1 and not res["files"][0]["check"]["ok"]


def export_axioms():
    from implgraph.kernel_coq.check import STANDARD_AXIOMS
    return STANDARD_AXIOMS


def test_library_found_in_the_checkout():
    lib = export.find_library()
    assert os.path.isfile(os.path.join(lib, "theories", "Slack.v"))
    assert os.path.basename(lib) == "coq"
