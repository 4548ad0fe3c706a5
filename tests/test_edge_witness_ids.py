"""An edge claim's witness ids follow the table files of each command, also within one process (issue 16):
a first ``verify`` with the bundled tables alone, then one with ``--tables``, whose table the theorem names."""

from __future__ import annotations

import re

from implgraph.cli import main

TABLES = """\
paper: mine
tables:
  - id: mine/two-classes
    source: "by hand"
    symbols: {}
    region: []
    buckets: [a1, a2]
    rows:
      - {p: ["1/2", "1/2"], class: E1}
      - {p: ["1/4", "3/4"], class: E2}
    claims: []
"""

THEOREM = """\
paper: mine
claims:
  - id: mine/mult-t-not-ldp
    source: "by hand"
    printed: "multiplicative t-closeness does not imply LDP"
    kind: not-implies
    from: {definition: mult-t-closeness, params: {}, level: t}
    to: {definition: ldp, level: eps}
    symbols: {}
    when: []
    witness: mine/two-classes
"""

BUNDLED_EDGE = "ekenstedt2022/lemma-2.4"
"""A bundled edge claim decided in a fraction of a second."""


def _write(folder, name, text):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return str(path)


def test_a_later_verify_in_the_same_process_sees_its_own_tables(tmp_path, capsys):
    tables = _write(tmp_path / "counterexamples", "mine.yaml", TABLES)
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
