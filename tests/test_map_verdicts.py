"""The map is built from computed verdicts, and reports conflicts among the claims as printed."""


import networkx as nx

from implgraph.map.deduce import analyse, asserted_conflicts
from implgraph.map.rules import load_edges, rules_from_edges


def test_rules_never_take_the_data_expectation():
    edges = load_edges()
    assert any(e.expect for e in edges)
    rules = rules_from_edges(edges, verdicts=None)
    # nothing computed: every paper rule is unknown, whatever `expect:` says
    assert {r.verdict for r in rules if not r.claim.startswith("definition/")} == {"unknown"}
    rules = rules_from_edges(edges, verdicts={"ekenstedt2022/theorem-2b": "refuted"})
    assert {r.verdict for r in rules if r.claim == "ekenstedt2022/theorem-2b"} == {"refuted"}


def _paper_graph():
    # A => B as printed (refuted by the engine), B => C (proved), A =/=> C (confirmed); the proof of
    # "A => B" reads "A => B' " instead.
    G = nx.MultiDiGraph()
    G.add_edge("A", "B", key="p/ab", kind="implies", claim="p/ab", basis="printed", paper="p", verdict="refuted")
    G.add_edge("A", "D", key="p/ab#reading", kind="implies", claim="p/ab", basis="reading", paper="p",
               verdict="proved")
    G.add_edge("B", "C", key="p/bc", kind="implies", claim="p/bc", basis="printed", paper="p", verdict="proved")
    G.add_edge("A", "C", key="p/ac", kind="not-implies", claim="p/ac", basis="printed", paper="p",
               verdict="confirmed", witness="w")
    return G


def test_conflicts_as_printed_are_shown_not_hidden():
    G = _paper_graph()
    # the engine's map has no conflict: the refuted printed edge is not a fact
    assert analyse(G).conflicts() == []
    found = asserted_conflicts(G)
    # as printed: A => B => C against A =/=> C
    assert [c["pair"] for c in found["printed"]] == [["A", "C"]]
    assert found["printed"][0]["implication"]["claims"] == ["p/ab", "p/bc"]
    # under the reading A => D replaces A => B: no conflict
    assert found["reading"] == []


def test_fig1_text_not_vice_versa_is_refuted_by_theorem_4_1():
    # By hand: Theorem 4.1 makes (k, t)-closeness <=> (N - k, ln t)-DP, Lemma 3.3 (1, eps)-DP <=> eps-DP and
    # Theorem 2a (1, t)-closeness => LDP, so every DP node is reached from a t-closeness node: "but not vice
    # versa" is false on every map where those edges are established.
    from implgraph.io.theorems import load_claims
    from implgraph.checks import check_claim
    node = next(c for c in load_claims(kinds=("theorems",)) if c.get("id") == "ekenstedt2022/fig-1-text")
    v = check_claim(node, {"max_n": 8, "verdicts": {}})
    assert v.verdict == "refuted"
    assert v.details["engine"]["not_vice_versa"] is False
    assert "N = 4, 5, 6" in v.bound
