"""``--tables FILE...`` adds table files to the bundled data (issue 16); ``--only`` uses the given files alone.

The levels asserted are derived by hand: the table has classes E1 = (1/2, 1/2) and E2 = (1/4, 3/4),
so D = (3/8, 5/8); the largest class-versus-table ratio (either way) is (3/8)/(1/4) = 3/2, the
optimal multiplicative t.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from implgraph.cli import build_parser, main
from implgraph.core.errors import InputError
from implgraph.io.counterexamples import get_table

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
    claims:
      - id: mine/two-classes/t
        printed: "t = 3/2"
        kind: level
        definition: mult-t-closeness
        level: "3/2"
        when: []
      - id: mine/two-classes/too-small
        printed: "t = 4/3"
        kind: level
        definition: mult-t-closeness
        level: "4/3"
        when: []
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

BUNDLED = "ekenstedt2022/lemma-2.4"
"""A bundled claim decided in a fraction of a second (proved)."""


def _write(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


@pytest.fixture
def tables(tmp_path):
    return _write(tmp_path / "counterexamples", "mine.yaml", TABLES)


def _verdicts(out) -> dict:
    return dict(re.findall(r"^(\S+/\S+)\s+([\w-]+)\s+\d+\.\d+s", out, re.M))


def test_tables_add_to_the_bundled_data(tables, capsys):
    assert main(["verify", "mine", BUNDLED, "--tables", tables, "--jobs", "1"]) == 0
    assert _verdicts(capsys.readouterr().out) == {"mine/two-classes/t": "holds",
                                                  "mine/two-classes/too-small": "refuted", BUNDLED: "proved"}


def test_only_uses_the_given_tables(tables, capsys):
    assert main(["verify", "--only", "--tables", tables, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert set(_verdicts(out)) == {"mine/two-classes/t", "mine/two-classes/too-small"}
    assert "2 verdicts: 1 holds, 1 refuted" in out
    assert main(["verify", BUNDLED, "--only", "--tables", tables]) == 2
    assert f"no claim with id {BUNDLED!r}" in capsys.readouterr().err


def test_the_bundled_data_is_restored_after_the_command(tables, capsys):
    assert main(["verify", "mine", "--tables", tables, "--jobs", "1"]) == 0
    with pytest.raises(InputError):
        get_table("mine/two-classes")
    assert get_table("ekenstedt2022/table-III").id == "ekenstedt2022/table-III"


def test_a_theorem_may_name_a_given_table_as_witness(tmp_path, tables, capsys):
    theorems = _write(tmp_path / "theorems", "mine.yaml", THEOREM)
    assert main(["verify", "mine/mult-t-not-ldp", "--theorems", theorems, "--jobs", "1"]) == 2
    assert "theorems/mine.yaml:11: witness 'mine/two-classes' is not a table" in capsys.readouterr().err
    # a command of its own (as from the shell): the checkers keep the witness ids of their process's data
    proc = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", "mine/mult-t-not-ldp", "--theorems",
                           theorems, "--tables", tables, "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^mine/mult-t-not-ldp\s", proc.stdout, re.M)


BAD = [
    ("missing", None, r"counterexamples/missing\.yaml: no such file; fix: "),
    ("elsewhere/mine.yaml", TABLES, r"elsewhere/mine\.yaml: a table file must be a \.yaml file in a folder named "
                                    r"`counterexamples`; fix: move it"),
    ("counterexamples/bad.yaml", "tables:\n  - id: x\n    rows: [1\n", r"counterexamples/bad\.yaml:4: not valid YAML"),
    ("counterexamples/dup.yaml", TABLES, r"counterexamples/dup\.yaml:3: table id 'mine/two-classes' is also defined"),
    ("counterexamples/nodef.yaml", TABLES.replace("definition: mult-t-closeness", "definition: nosuch", 1),
     r"counterexamples/nodef\.yaml:15: unknown definition 'nosuch'; fix: "),
]


@pytest.mark.parametrize("name, text, error", BAD, ids=[b[0] for b in BAD])
def test_bad_table_files_are_one_line_errors(name, text, error, tmp_path, tables, capsys):
    path = tmp_path / (name if text is not None else "counterexamples/missing.yaml")
    if text is not None:
        _write(path.parent, path.name, text)
    given = [tables, str(path)] if "dup" in name else [str(path)]
    assert main(["verify", "mine", "--tables", *given]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(error, err), err


def test_only_needs_files(capsys):
    assert main(["verify", "--only"]) == 2
    assert "--only without --theorems or --tables" in capsys.readouterr().err
    assert main(["map", "--json", "--only"]) == 2
    assert "--only without --theorems;" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["verify", "map", "path", "guarantees"])
def test_every_data_command_takes_tables(command):
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    assert {"--theorems", "--tables", "--only"} <= set(sub._option_string_actions)


@pytest.mark.parametrize("option", ["--theorems", "--tables"])
def test_a_claim_id_after_a_file_option_is_explained(option, tables, capsys):
    """``--theorems``/``--tables`` take every word after them: a claim id there is no file, and the fix says where it
    goes (before the option, or after ``--``)."""
    assert main(["verify", option, tables, "ekenstedt2022/theorem-5"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "ekenstedt2022/theorem-5: no such file" in err and "a claim id goes before " + option in err
