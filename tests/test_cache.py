"""The on-disk level cache cannot change a printed level or a verdict.

The table is Table III's shape: E1 = {mu, mu}, E2 = {sigma, 2 mu - sigma} on 0 < sigma < mu <= 1/2.
By hand: both classes have mean mu in a1 (and 1 - mu in a2), as has the whole table, so every ratio
Pr_D / Pr_E is 1 and the multiplicative t is exactly 1 on the whole region; the claim "t = 1"
(bound: exact) holds.
"""

from __future__ import annotations

import inspect
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


def _entries_of_one(folder):
    """The cache files holding the level 1 (the multiplicative t, and other definitions' levels equal to 1)."""
    hits = [f for f in folder.glob("*.json") if [p["value"] for p in json.loads(f.read_text())["pieces"]] == ["1"]]
    assert hits
    return hits


@pytest.mark.parametrize("fix_checksum", [True, False])
def test_a_tampered_cache_entry_changes_nothing(cached, capsys, monkeypatch, fix_checksum):
    path, folder = cached
    first = _run(path, capsys, monkeypatch)
    assert "mult-t-closeness: t = 1\n" in first and "[holds] test/t3/mult-t" in first
    entries = _entries_of_one(folder)
    for entry in entries:
        data = json.loads(entry.read_text())
        for piece in data["pieces"]:                   # valid JSON, wrong level (as text and as tree)
            piece["value"], piece["tree"] = "2", "Integer(2)"
        if fix_checksum:                               # even with a consistent checksum
            data["checksum"] = level_cache._cache_checksum(data["key"], data["pieces"])
        entry.write_text(json.dumps(data))
    second = _run(path, capsys, monkeypatch)
    assert "mult-t-closeness: t = 1\n" in second and "[holds] test/t3/mult-t" in second
    assert "mult-t-closeness: t = 2" not in second
    # the wrong entries were overwritten with the recomputed levels
    assert all([p["value"] for p in json.loads(e.read_text())["pieces"]] == ["1"] for e in entries)


def test_an_entry_with_a_wrong_key_is_not_used(cached, capsys, monkeypatch):
    path, folder = cached
    _run(path, capsys, monkeypatch)
    entry = _entries_of_one(folder)[0]
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

    def spy(region, compute, *args):
        calls.append(inspect.getclosurevars(compute).nonlocals["d"].name)     # the definition computed
        return real(region, compute, *args)

    monkeypatch.setattr(claims, "_pieces", spy)
    out = _run(path, capsys, monkeypatch)
    assert "mult-t-closeness: t = 1\n" in out
    assert "mult-t-closeness" not in calls


def test_a_stored_tree_reads_back_as_the_same_tree():
    import sympy
    N, k = sympy.symbols("N k", integer=True)
    mu, alpha = sympy.symbols("mu alpha", real=True)
    syms = {"N": N, "k": k, "mu": mu, "alpha": alpha}
    # written as computed: -(N - 1)*... (reading its text back would give (1 - N)*...)
    value = sympy.Mul(-1, N - 1, N - k * mu, 1 / (N * (-N + k * mu + 1)))
    exprs = [value, sympy.log(sympy.Max(N / (N - 1), value, evaluate=False)), sympy.oo, sympy.Rational(-3, 7),
             sympy.And(mu >= 2 * alpha, N <= 2 * k - 1), sympy.Eq(mu, 2 * alpha)]
    for e in exprs:
        back = level_cache._read_tree(level_cache._write_tree(e), syms)
        assert back == e and str(back) == str(e)
    assert str(level_cache._read_tree(level_cache._write_tree(value), syms)).startswith("-(N - 1)")


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "Symbol('x').subs(1, 2)", "eval('1')",
                                  "Integer(1) + Integer(2)", "Symbol('unknown')"])
def test_a_stored_tree_is_read_not_evaluated(text):
    with pytest.raises((ValueError, KeyError)):
        level_cache._read_tree(text, {"x": object()})
