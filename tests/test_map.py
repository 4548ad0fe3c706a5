"""The implication map: graph construction, rendering and the map/path commands."""

import json
import time
from pathlib import Path

import pytest
import sympy

from conftest import computed_rules
from implgraph.cli import main
from implgraph.map.deduce import analyse
from implgraph.map.drawing import drawing
from implgraph.map.graph import definitions_map, groups_map
from implgraph.map.instantiate import edge_f
from implgraph.map.rules import load_rules

PLANTED = Path(__file__).parent / "data" / "planted_conflict" / "theorems" / "planted.yaml"
eps = sympy.Symbol("eps", real=True)


@pytest.fixture(scope="module")
def rules():
    return computed_rules()


@pytest.fixture(scope="module")
def g4(rules):
    return groups_map(rules, 4)


def test_group_nodes_for_n4(g4):
    # kt-closeness and kdp for k = 1..3, mult-t for minimum class size 1..2 (2k <= N), the
    # singleton-class restriction of the Theorem 1 exception, kdp within classes for k = 1..3
    expected = ({f"kt-closeness(k={k})" for k in (1, 2, 3)} | {f"kdp(k={k})" for k in (1, 2, 3)}
                | {"mult-t-closeness(k=1)", "mult-t-closeness(k=2)", "mult-t-closeness(k=1, max=1)"}
                | {f"kdp(k={k})@class" for k in (1, 2, 3)} | {"ldp", "dp"})
    assert set(g4.nodes) == expected


def _keys(G, key):
    return sorted((u, v) for u, v, k in G.edges(keys=True) if k == key)


def test_instances_for_n4(g4):
    # Lemma 2.1 (k0 <= k1, loops dropped): (1,2), (1,3), (2,3)
    assert _keys(g4, "ekenstedt2022/lemma-2.1") == [
        ("kt-closeness(k=1)", "kt-closeness(k=2)"), ("kt-closeness(k=1)", "kt-closeness(k=3)"),
        ("kt-closeness(k=2)", "kt-closeness(k=3)")]
    # Theorem 4.1: (k,t)-closeness <=> (4 - k, ln t)-DP
    assert _keys(g4, "ekenstedt2022/theorem-4.1") == [
        ("kt-closeness(k=1)", "kdp(k=3)"), ("kt-closeness(k=2)", "kdp(k=2)"), ("kt-closeness(k=3)", "kdp(k=1)")]
    # Theorem 3b: k > 1 only
    assert _keys(g4, "ekenstedt2022/theorem-3b") == [("kt-closeness(k=2)", "ldp"), ("kt-closeness(k=3)", "ldp")]


def test_f_instantiated(g4):
    d = g4.get_edge_data("ldp", "kt-closeness(k=1)")["ekenstedt2022/theorem-2b"]
    assert sympy.simplify(edge_f(d) - (3 * sympy.exp(eps) + 1) / 4) == 0
    # Theorem 2b is true (the worst case is one record at Pr = a, the others at e^eps a): proved
    assert d["verdict"] == "proved" and d["verdict_from"] == "verify"


def test_given_verdicts_are_used():
    rules = load_rules(verdicts=[{"id": "ekenstedt2022/theorem-2b", "verdict": "refuted"}])
    G = groups_map(rules, 4)
    d = G.get_edge_data("ldp", "kt-closeness(k=1)")["ekenstedt2022/theorem-2b"]
    assert d["verdict"] == "refuted" and d["verdict_from"] == "verify" and not d["established"]
    assert not analyse(G).implies("ldp", "kt-closeness(k=1)")


def test_definitions_map(rules):
    D = definitions_map(rules)
    assert {"ldp", "dp", "kt-closeness", "kdp", "mult-t-closeness", "kdp@class"} <= set(D.nodes)
    assert D.has_edge("kdp", "kt-closeness")          # the converse of Theorem 4.1
    assert any(d["dashed"] for _, _, d in D.edges(data=True))   # domingo-ferrer2015


def test_drawing_reduces(rules):
    G = groups_map(rules, 6)
    D = drawing(G)
    pairs = {(u, v) for u, v, d in D.edges(data=True) if d["kind"] == "implies" and d["color"] == "#222222"}
    assert ("kt-closeness(k=1)", "kt-closeness(k=2)") in pairs
    assert ("kt-closeness(k=1)", "kt-closeness(k=3)") not in pairs      # transitive: reduced away
    # by default only what the engine established; the refuted claims are an overlay asked for
    assert not [d for _, _, d in D.edges(data=True) if d["status"] == "refuted"]
    refuted = [d for _, _, d in drawing(G, overlay="claims").edges(data=True) if d["status"] == "refuted"]
    assert refuted and all(d["color"] == "#d62728" and d["layer"] == "overlay" for d in refuted)


def test_cli_map_json(capsys):
    assert main(["map", "--N", "5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["level"] == "groups" and doc["N"] == 5
    e = [e for e in doc["edges"] if e["key"] == "ekenstedt2022/theorem-2b"][0]
    assert e["from"] == "ldp" and e["to"] == "kt-closeness(k=1)" and e["verdict"] == "proved"
    assert sympy.simplify(sympy.sympify(e["f"], locals={"eps": eps}) - (4 * sympy.exp(eps) + 1) / 5) == 0
    assert doc["analysis"]["conflicts"] == []
    assert doc["analysis"]["derived_non_implications"][0]["trace"]


def test_cli_map_planted_conflict(tmp_path, capsys):
    out = tmp_path / "planted.dot"
    assert main(["map", "--N", "5", "--only", "--theorems", str(PLANTED), "--out", str(out), "--summary"]) == 0
    text = capsys.readouterr().out
    # the engine refutes the planted non-implications (it proves LDP => (1,t) => (2,t)): no conflict in
    # its map, but the claims as printed contradict each other, and that is reported
    assert "conflicts: 0" in text
    assert "conflicts among the papers' claims as printed (every claim taken as asserted): 2" in text
    assert "ldp => kt-closeness(k=2) via planted/theorem-2b -> planted/lemma-2.1" in text
    assert "planted/ldp-not-kt2" in text
    assert out.exists()


@pytest.mark.parametrize("argv", [
    ["map", "--N", "5", "--out", "x.jpg"],
    ["map", "--N", "1", "--json"],
    ["map", "--N", "5"],
    ["path", "nosuch", "ldp"],
    ["path", "kt-closeness[k=q]", "ldp"],
    ["path", "kt-closeness[k=12]", "ldp", "--N", "10"],
    ["map", "--N", "5", "--json", "--theorems", "no/such/theorems/file.yaml"],
])
def test_cli_bad_input_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fix:" in err[0]


def test_cli_path(capsys):
    assert main(["path", "ldp", "mult-t-closeness", "--k", "3", "--N", "10"]) == 0
    text = capsys.readouterr().out
    assert "(9*exp(eps) + 1)/10" in text.replace("9*exp(eps)/10 + 1/10", "(9*exp(eps) + 1)/10")
    assert "ekenstedt2022/theorem-2b -> ekenstedt2022/lemma-2.1 -> ekenstedt2022/lemma-2.3#reading" in text


def test_cli_path_non_implication(capsys):
    assert main(["path", "kt-closeness[k=3]", "ldp", "--N", "10"]) == 0
    text = capsys.readouterr().out
    assert "no chain" in text and "ekenstedt2022/theorem-3b" in text


@pytest.mark.slow
def test_map_n50_under_5s(rules):
    start = time.perf_counter()
    G = groups_map(rules, 50)
    an = analyse(G)
    drawing(G, an)
    assert time.perf_counter() - start < 5
    assert an.conflicts() == []


def test_verdicts_file(tmp_path, capsys):
    vf = tmp_path / "v.json"
    vf.write_text(json.dumps({"claims": [{"id": "ekenstedt2022/lemma-2.3", "verdict": "unknown",
                                          "details": {}},
                                         {"id": "ekenstedt2022/lemma-2.3#reading", "verdict": "unknown"}]}))
    assert main(["map", "--N", "4", "--verdicts", str(vf), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    e = [e for e in doc["edges"] if e["key"] == "ekenstedt2022/lemma-2.3#reading"][0]
    assert e["verdict"] == "unknown" and e["verdict_from"] == "verify" and not e["established"]
