"""The on-disk level cache cannot change a printed level or a verdict.

The table is Table III's shape: E1 = {mu, mu}, E2 = {sigma, 2 mu - sigma} on 0 < sigma < mu <= 1/2.
By hand: both classes have mean mu in a1 (and 1 - mu in a2), as has the whole table, so every ratio
Pr_D / Pr_E is 1 and the multiplicative t is exactly 1 on the whole region; the claim "t = 1"
(bound: exact) holds.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from implgraph.checks import level_cache
from implgraph.checks import symbolic_level as claims
from implgraph.cli import main

TABLE = """
    tables:
      - id: test/t3
        source: "hand"
        symbols: {mu: real, sigma: real}
        region: ["0 < sigma", "sigma < mu", "mu <= 1/2"]
        buckets: [a1, a2]
        binary: true
        rows:
          - {p: "mu", class: E1}
          - {p: "mu", class: E1}
          - {p: "sigma", class: E2}
          - {p: "2*mu - sigma", class: E2}
        claims:
          - id: test/t3/mult-t
            source: "hand"
            printed: "t = 1"
            kind: level
            definition: mult-t-closeness
            params: {}
            level: "1"
            bound: exact
            scope: table
            when: []
"""


@pytest.fixture
def cached(tmp_path, monkeypatch):
    """(table file, cache folder) with a fresh cache and no in-process memo."""
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(TABLE))
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("IMPLGRAPH_NO_CACHE", raising=False)
    monkeypatch.setattr(claims, "_MEMO", {})
    return path, tmp_path / "cache" / "levels"


def _run(path, capsys, monkeypatch):
    monkeypatch.setattr(claims, "_MEMO", {})          # a new process: only the disk remains
    assert main(["table", str(path)]) == 0
    return capsys.readouterr().out


def _mult_t_entry(folder):
    """The cache file holding the multiplicative t (the only level '1' of the table)."""
    hits = [f for f in folder.glob("*.json") if [p["value"] for p in json.loads(f.read_text())["pieces"]] == ["1"]]
    assert len(hits) == 1
    return hits[0]


@pytest.mark.parametrize("fix_checksum", [True, False])
def test_a_tampered_cache_entry_changes_nothing(cached, capsys, monkeypatch, fix_checksum):
    path, folder = cached
    first = _run(path, capsys, monkeypatch)
    assert "mult-t-closeness: t = 1\n" in first and "[holds] test/t3/mult-t" in first
    entry = _mult_t_entry(folder)
    data = json.loads(entry.read_text())
    data["pieces"][0]["value"] = "2"                   # valid JSON, wrong level
    if fix_checksum:                                   # even with a consistent checksum
        data["checksum"] = level_cache._cache_checksum(data["key"], data["pieces"])
    entry.write_text(json.dumps(data))
    second = _run(path, capsys, monkeypatch)
    assert "mult-t-closeness: t = 1\n" in second and "[holds] test/t3/mult-t" in second
    assert "mult-t-closeness: t = 2" not in second
    # the wrong entry was overwritten with the recomputed level
    assert [p["value"] for p in json.loads(entry.read_text())["pieces"]] == ["1"]


def test_an_entry_with_a_wrong_key_is_not_used(cached, capsys, monkeypatch):
    path, folder = cached
    _run(path, capsys, monkeypatch)
    entry = _mult_t_entry(folder)
    data = json.loads(entry.read_text())
    data["key"] = "0" * 64
    data["checksum"] = level_cache._cache_checksum(data["key"], data["pieces"])
    entry.write_text(json.dumps(data))
    assert level_cache._cache_load(entry.stem, None, {}) is None


def test_a_correct_entry_is_confirmed(cached, capsys, monkeypatch):
    # an untouched entry passes its re-check (loaded from disk, not recomputed)
    path, folder = cached
    _run(path, capsys, monkeypatch)
    calls = []
    real = claims._pieces
    monkeypatch.setattr(claims, "_pieces", lambda *a, **k: calls.append(a) or real(*a, **k))
    out = _run(path, capsys, monkeypatch)
    assert "mult-t-closeness: t = 1\n" in out
    assert calls == []
