"""A ``--verdicts FILE`` (map, path, guarantees, site) is user input: read row by row by a typed reader, and
anything malformed is one line ``FILE:LINE: what; fix: how``, exit status 2, nothing written. No field reaches a
formula parser (a "verdict" that is Python code is refused as what it is: not a verdict word).

The line of each malformed row is counted by hand in the texts below.
"""

from __future__ import annotations

import json
import os

import pytest

from implgraph.cli import main


def read_verdict_file(path):
    from implgraph.map.verdicts import read_verdict_file as read
    return read(path)

CODE = "__import__('os').system('touch PWN')"

#: (name, text, line of the error, words of the message)
MALFORMED = [
    ("truncated", '{"claims": [\n  {"id": "a/b", "verdict": "proved"},\n', 3, "not JSON"),
    ("empty", "", 1, "not JSON"),
    ("claims-not-a-list", '{"claims": 3}', 1, "not a list"),
    ("a-number", "42", 1, "not verdict rows"),
    ("row-not-an-object", '{"claims": [\n  {"id": "a/b", "verdict": "proved"},\n  "a/c"\n]}', 3, "row 2 is a str"),
    ("unknown-word", '{"claims": [\n  {"id": "a/b", "verdict": "proved"},\n  {"id": "a/c",\n   "verdict": '
                     '"proved-ish"}\n]}', 3, "not a verdict word"),
    ("code-as-verdict", json.dumps({"claims": [{"id": "a/b", "verdict": CODE}]}), 1, "not a verdict word"),
    ("verdict-a-number", '[{"id": "a/b", "verdict": 1}]', 1, "not a verdict word"),
    ("verdict-nan", '[\n{"id": "a/b", "verdict": NaN}]', 2, "not a verdict word"),
    ("no-id", '{"claims": [\n\n  {"verdict": "proved"}]}', 3, "no claim id"),
    ("id-a-list", '{"claims": [{"id": ["a"], "verdict": "proved"}]}', 1, "no claim id"),
    ("id-with-escape", json.dumps({"claims": [{"id": "a/\u001b[31mred", "verdict": "proved"}]}), 1,
     "control character"),
    ("id-with-newline", json.dumps({"claims": [{"id": "a/b\nc", "verdict": "proved"}]}), 1, "line break"),
    ("details-a-string", '{"claims": [{"id": "a/b", "verdict": "proved", "details": "x"}]}', 1, "not an object"),
    ("reading-unknown", '{"claims": [{"id": "a/b", "verdict": "proved",\n "details": {"reading_verdict": "yes"}}]}',
     1, "details.reading_verdict"),
    ("evidence-a-number", '[{"id": "a/b", "verdict": "refuted", "evidence": 3}]', 1, "not text"),
    ("duplicate-id", '[{"id": "a/b", "verdict": "proved"},\n {"id": "a/b", "verdict": "refuted"}]', 2, "again"),
    ("mapping-bad-word", '{"a/b": "proved",\n "a/c": "maybe"}', 2, "not a verdict word"),
    ("deep-nesting", "[" * 100000 + "]" * 100000, 1, "not a verdict file"),
]


@pytest.mark.parametrize("name,text,line,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_reader_names_the_line(tmp_path, name, text, line, words):
    from implgraph.core.errors import InputError
    path = tmp_path / "v.json"
    path.write_text(text)
    with pytest.raises(InputError) as exc:
        read_verdict_file(path)
    message = exc.value.format()
    assert message.startswith(f"{path}:{line}: ") and words in message and "; fix: " in message, message


def test_reader_keeps_typed_fields_only(tmp_path):
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"claims": [{"id": "a/b", "verdict": "proved", "evidence": "e", "tight": "eps",
                                            "certificate": {"x": CODE}, "details": {"reading_verdict": "refuted",
                                                                                     "level": CODE}}]}))
    assert read_verdict_file(path) == [{"id": "a/b", "verdict": "proved", "evidence": "e", "tight": "eps",
                                        "witness": None, "details": {"reading_verdict": "refuted"}}]
    path.write_text('{"a/b": "proved", "a/b#reading": "refuted"}')
    assert [(r["id"], r["verdict"]) for r in read_verdict_file(path)] == [("a/b", "proved"),
                                                                         ("a/b#reading", "refuted")]


MATRIX = {"nodes": ["ldp", "dp"], "cells": [{"a": "ldp", "b": "dp", "relation": "implication", "verdict": "proved"},
                                            {"a": "dp", "b": "ldp", "relation": "open", "verdict": "unknown"}]}


def _command(name, tmp_path, verdicts):
    if name == "map":
        return ["map", "--verdicts", str(verdicts), "--out", str(tmp_path / "out" / "m.svg")]
    if name == "path":
        return ["path", "ldp", "dp", "--verdicts", str(verdicts)]
    if name == "guarantees":
        data = tmp_path / "g.csv"
        data.write_text("age,disease\n30,flu\n30,cold\n40,flu\n40,hiv\n")
        return ["guarantees", str(data), "--qi", "age", "--sensitive", "disease", "--verdicts", str(verdicts),
                "--html", str(tmp_path / "out" / "g.html")]
    matrix = tmp_path / "m.json"
    matrix.write_text(json.dumps(MATRIX))
    return ["site", "--out", str(tmp_path / "out" / "site"), "--matrix", str(matrix), "--verdicts", str(verdicts),
            "--no-levels", "--no-certificates", "--groups-n", "0"]


CLI_CASES = [m for m in MALFORMED if m[0] in ("truncated", "unknown-word", "code-as-verdict", "row-not-an-object",
                                               "id-with-escape")]


@pytest.mark.parametrize("command", ["map", "path", "guarantees", "site"])
@pytest.mark.parametrize("name,text,line,words", CLI_CASES, ids=[m[0] for m in CLI_CASES])
def test_commands_refuse_a_malformed_verdict_file(tmp_path, capsys, monkeypatch, command, name, text, line, words):
    monkeypatch.chdir(tmp_path)
    verdicts = tmp_path / "v.json"
    verdicts.write_text(text)
    (tmp_path / "out").mkdir()
    assert main(_command(command, tmp_path, verdicts)) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"implgraph: {verdicts}:{line}: ") and words in lines[0] and "; fix: " in lines[0]
    assert os.listdir(tmp_path / "out") == [] and not (tmp_path / "PWN").exists()


@pytest.mark.parametrize("kind", ["directory", "missing", "not-utf8", "too-large", "device"])
def test_verdict_file_that_is_not_a_file(tmp_path, capsys, kind):
    path = {"directory": tmp_path, "missing": tmp_path / "none.json", "device": "/dev/zero"}.get(kind,
                                                                                              tmp_path / "v.json")
    if kind == "not-utf8":
        path.write_bytes(b'{"claims": [\n{"id": "\xff"}]}')
    elif kind == "too-large":
        with open(path, "wb") as fh:
            fh.truncate(65 * 2 ** 20)                  # a sparse file over the 64 MiB limit
    assert main(["path", "ldp", "dp", "--verdicts", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"implgraph: {path}") and "fix:" in err, err


def test_a_verify_json_file_is_read(tmp_path, capsys):
    """The output of ``implgraph verify --json`` (a proved claim and a refuted one) reads back."""
    ids = ["ekenstedt2022/theorem-2b", "ekenstedt2022/lemma-2.3", "ekenstedt2022/lemma-1"]
    assert main(["verify", *ids, "--json", "--jobs", "1"]) in (0, 1)
    path = tmp_path / "v.json"
    path.write_text(capsys.readouterr().out)
    rows = {r["id"]: r["verdict"] for r in read_verdict_file(path)}
    assert rows["ekenstedt2022/theorem-2b"] == "proved" and rows["ekenstedt2022/lemma-1"] == "refuted"
    assert main(["path", "ldp", "mult-t-closeness", "--verdicts", str(path)]) == 0
    out = capsys.readouterr().out
    assert "verdicts from verdicts file" in out and "why: ekenstedt2022/theorem-2b -> " in out
