"""The YAML layer: parsed once per process, re-read when the file changes, and a leaf module."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from implgraph.core.errors import InputError
from implgraph.io import datafile
from implgraph.io.datafile import parse_yaml
from implgraph.io.validate import load_yaml


def _write(path: Path, text: str, mtime_ns: int | None = None) -> None:
    path.write_text(text)
    if mtime_ns is not None:
        os.utime(path, ns=(mtime_ns, mtime_ns))


def test_a_file_is_parsed_once(tmp_path):
    f = tmp_path / "a.yaml"
    _write(f, "claims:\n  - id: x\n")
    first = parse_yaml(f)
    assert parse_yaml(f) is first
    assert first["claims"][0].line == 2


def test_a_changed_file_is_parsed_again(tmp_path):
    """Same size, same modification time, other text: parsed again (the cache keys on the text)."""
    f = tmp_path / "a.yaml"
    _write(f, "value: 1\n", mtime_ns=10**18)
    assert parse_yaml(f)["value"] == 1
    _write(f, "value: 2\n", mtime_ns=10**18)
    assert parse_yaml(f)["value"] == 2


def test_a_bad_file_fails_every_time(tmp_path):
    f = tmp_path / "bad.yaml"
    _write(f, "a: [1, 2\n")
    for _ in range(2):
        with pytest.raises(InputError):
            parse_yaml(f)


def test_validation_runs_on_each_new_version(tmp_path):
    f = tmp_path / "t.yaml"
    _write(f, "claims:\n  - id: x\n    kind: implies\n", mtime_ns=10**18)
    assert load_yaml(f)["claims"][0]["kind"] == "implies"
    _write(f, "claims:\n  - id: x\n    kind: nonsense\n", mtime_ns=10**18)
    with pytest.raises(InputError) as exc:
        load_yaml(f)
    assert exc.value.line == 3


def test_datafile_is_a_leaf():
    """io/datafile imports nothing of implgraph but the error type (no import loop through it)."""
    tree = ast.parse(Path(datafile.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert {m for m in imported if m.startswith("implgraph")} == {"implgraph.core.errors"}
