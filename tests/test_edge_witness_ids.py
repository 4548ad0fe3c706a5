"""An edge claim's witness ids follow the table files of each command, also within one process (issue 16):
a first ``verify`` with the bundled tables alone, then one with ``--tables``, whose table the theorem names."""

from __future__ import annotations

import re

from implgraph.cli import main

from test_tables_option import TABLES, THEOREM, _write

BUNDLED_EDGE = "ekenstedt2022/lemma-2.4"
"""A bundled edge claim decided in a fraction of a second."""


def test_a_later_verify_in_the_same_process_sees_its_own_tables(tmp_path, capsys):
    tables = _write(tmp_path / "counterexamples", "mine.yaml", TABLES)   # the table and theorem of issue 16's tests
    theorems = _write(tmp_path / "theorems", "mine.yaml", THEOREM)
    assert main(["verify", BUNDLED_EDGE, "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main(["verify", "mine/mult-t-not-ldp", "--theorems", theorems, "--tables", tables, "--jobs", "1"]) == 0
    out = capsys.readouterr()
    assert "is not a table" not in out.err
    assert re.search(r"^mine/mult-t-not-ldp\s", out.out, re.M)
    # and the table is gone again for a command without it
    assert main(["verify", "mine/mult-t-not-ldp", "--theorems", theorems, "--jobs", "1"]) == 2
    assert "witness 'mine/two-classes' is not a table" in capsys.readouterr().err
