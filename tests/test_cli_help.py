"""The verdict legend of ``--help``: on the commands whose output carries verdict words, not on the others (whose
help keeps the exit statuses). Which command prints verdicts, by reading what each prints: verify, check-edge,
discover, matrix, claims (the expected verdicts), path and guarantees (each chain's status), table (its claims'
verdicts), certificate (each claim's verdict) and map (the figures' arrows); not definitions, levels,
remedy, check-definition (ok / FAIL), construct, figure, site, completion, anonymize, release, reconstruct."""

from __future__ import annotations

import pytest

from implgraph.cli import main

WITH = ["verify", "check-edge", "discover", "matrix", "claims", "path", "guarantees", "table", "certificate", "map"]
WITHOUT = ["definitions", "levels", "remedy", "check-definition", "construct", "figure", "site", "completion", "anonymize",
           "release", "reconstruct"]


def _help(command, capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", WITH + WITHOUT)
def test_verdict_legend_only_where_verdicts_are_printed(command, capsys):
    text = _help(command, capsys)
    assert ("verdicts (status, strength):" in text) == (command in WITH)
    assert "verified-bounded  established, bounded" in text or command not in WITH
    assert "exit status:" in text


def test_every_command_is_classified():
    from implgraph.cli import _commands
    assert sorted(m.NAME for m in _commands()) == sorted(WITH + WITHOUT)
