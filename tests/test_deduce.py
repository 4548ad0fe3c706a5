import sympy
"""Deduction of non-implications, conflicts and open pairs (implgraph.map.deduce)."""

from pathlib import Path

import networkx as nx
import pytest

from conftest import computed_rules
from implgraph.map.deduce import analyse, asserted_conflicts, reduced_non_implications
from implgraph.map.figures import figure_check
from implgraph.map.arrows import load_arrows
from implgraph.map.graph import groups_map

PLANTED = Path(__file__).parent / "data" / "planted_conflict" / "theorems" / "planted.yaml"


def small(*edges):
    G = nx.MultiDiGraph()
    for u, v, key, kind, *rest in edges:
        verdict = rest[0] if rest else ("proved" if kind == "implies" else "confirmed")
        G.add_edge(u, v, key=key, kind=kind, verdict=verdict, witness=f"w-{key}" if kind == "not-implies" else None)
    return G


def test_rule_one_forward():
    # A => B and A =/=> C give B =/=> C
    an = analyse(small(("A", "B", "ab", "implies"), ("A", "C", "ac", "not-implies")))
    tr = an.non_implication_trace("B", "C")
    assert tr["derived"] and tr["base"] == ["A", "C"] and tr["trace"] == ["ab", "ac"]
    assert tr["witness"] == "w-ac"
    assert not an.not_implies("C", "B") and not an.implies("B", "C")


def test_rule_two_backward():
    # B => C and A =/=> C give A =/=> B
    an = analyse(small(("B", "C", "bc", "implies"), ("A", "C", "ac", "not-implies")))
    tr = an.non_implication_trace("A", "B")
    assert tr["derived"] and tr["trace"] == ["ac", "bc"] and tr["witness"] == "w-ac"


def test_both_rules_along_chains():
    # A => X1 => X2 and Y2 => Y1 => C with A =/=> C give X2 =/=> Y2 (and all mixtures)
    an = analyse(small(("A", "X1", "a1", "implies"), ("X1", "X2", "a2", "implies"),
                       ("Y2", "Y1", "b2", "implies"), ("Y1", "C", "b1", "implies"),
                       ("A", "C", "ac", "not-implies")))
    expected = {(x, y) for x in ("A", "X1", "X2") for y in ("C", "Y1", "Y2")} - {("A", "C")}
    assert set(an.derived_non_implications()) == expected
    assert an.non_implication_trace("X2", "Y2")["trace"] == ["a1", "a2", "ac", "b2", "b1"]


def test_refuted_facts_are_not_used():
    an = analyse(small(("A", "B", "ab", "implies", "refuted"), ("A", "C", "ac", "not-implies")))
    assert not an.not_implies("B", "C")
    assert not an.implies("A", "B")


def test_conflict_claimed_and_derived():
    an = analyse(small(("A", "B", "ab", "implies"), ("B", "C", "bc", "implies"), ("A", "C", "ac", "not-implies")))
    conflicts = an.conflicts()
    assert len(conflicts) == 1
    c = conflicts[0]
    assert c["pair"] == ["A", "C"]
    assert c["implication"]["claims"] == ["ab", "bc"]
    assert c["non_implication"]["trace"] == ["ac"]


def test_open_pairs_hand_count():
    # A => B, nothing else: ordered pairs of {A, B, C} without a fact: all but A->B
    G = small(("A", "B", "ab", "implies"))
    G.add_node("C")
    an = analyse(G)
    assert set(an.open_pairs()) == {("B", "A"), ("A", "C"), ("C", "A"), ("B", "C"), ("C", "B")}


def test_planted_contradiction_is_reported():
    G = groups_map(computed_rules([PLANTED]), 5)
    # the engine proves both implications and refutes both planted non-implications: its map is consistent
    assert analyse(G).conflicts() == []
    # the claims as printed contradict each other: shown, not hidden
    pairs = {tuple(c["pair"]): c for c in asserted_conflicts(G)["printed"]}
    assert set(pairs) == {("ldp", "kt-closeness(k=2)"), ("kt-closeness(k=1)", "kt-closeness(k=3)")}
    derived = pairs[("ldp", "kt-closeness(k=2)")]
    assert derived["implication"]["claims"] == ["planted/theorem-2b", "planted/lemma-2.1"]
    assert derived["non_implication"]["trace"] == ["planted/ldp-not-kt2"]
    direct = pairs[("kt-closeness(k=1)", "kt-closeness(k=3)")]
    assert direct["implication"]["claims"] == ["planted/lemma-2.1"]


@pytest.fixture(scope="module")
def an6():
    return analyse(groups_map(computed_rules(), 6))


@pytest.mark.parametrize("x, y, base_claims", [
    # mult-t(2-anonymous) =/=> (1,t)-closeness: Theorem 1 (mult-t =/=> LDP, Table III has classes of 2)
    # and (1,t)-closeness => LDP (Theorem 2a), rule B => C, A =/=> C gives A =/=> B
    ("mult-t-closeness(k=2)", "kt-closeness(k=1)", {"ekenstedt2022/theorem-1", "ekenstedt2022/lemma-2.3#reading-strict"}),
    # eps-DP =/=> eps-LDP: (2,t)-closeness => (1,eps)-DP <=> DP (Theorem 4.3 read, Lemma 3.3) and
    # (2,t)-closeness =/=> LDP (Theorem 3b), rule A => B, A =/=> C gives B =/=> C
    ("dp", "ldp", {"ekenstedt2022/theorem-3b"}),
    # mult-t(3-anonymous) =/=> LDP for N = 6: (2,t) => (3,t) => mult-t(3) and (2,t) =/=> LDP
    ("mult-t-closeness(k=3)", "ldp", {"ekenstedt2022/theorem-3b"}),
])
def test_expected_derived_non_implications(an6, x, y, base_claims):
    tr = an6.non_implication_trace(x, y)
    assert tr is not None and tr["derived"]
    assert tr["base_claim"] in base_claims
    assert tr["witness"]
    assert not an6.implies(x, y)


def test_no_conflicts_in_the_papers_data(an6):
    assert an6.conflicts() == []


def test_reduced_non_implications_keep_the_generators(an6):
    reduced = set(reduced_non_implications(an6))
    # Lemma 2.2 instances kt[k0] =/=> kt[k1] (k1 < k0) all follow from kt[k+1] =/=> kt[k] (or kt[2] =/=> LDP)
    assert ("kt-closeness(k=5)", "kt-closeness(k=1)") not in reduced
    assert ("kt-closeness(k=4)", "kt-closeness(k=3)") in reduced


def test_figure_check_flags_printed_non_implications():
    an = analyse(groups_map(computed_rules(), 6))
    check = figure_check(an, load_arrows(figures=["ekenstedt2022/fig-1"]))
    by = {(a["label"], a["basis"]): a for a in check["arrows"]}
    assert by[("Lemma 2.1", "printed")]["verdict"] == "supported"
    printed = by[("Theorem 4.3 (printed =/=>, proof =>)", "printed")]
    assert printed["verdict"] == "contradicted" and printed["supported"] == 0
    assert by[("Theorem 4.3 (printed =/=>, proof =>)", "reading")]["verdict"] == "supported"


def test_structural_class_size_edges_are_not_composed():
    # (k,t)-closeness => mult-t-closeness for partitions with classes >= k (Lemma 2.3's reading) does
    # not give partitions with smaller classes: with N = 6 and k = 3, the table with Pr(a1) = 0, 0, 1,
    # 1, 1, 1 has finite (3,t)-closeness (its 3-subset means lie in [1/3, 1] around 2/3) while the
    # partition {0}, {0, 1, 1, 1, 1} (classes >= 1) has an infinite multiplicative level.
    G = groups_map(computed_rules(), 6)
    an = analyse(G)
    assert an.implies("kt-closeness(k=3)", "mult-t-closeness(k=3)")
    assert not an.implies("kt-closeness(k=3)", "mult-t-closeness(k=2)")
    assert not an.implies("kt-closeness(k=3)", "mult-t-closeness(k=1)")
    # and the witness really is one: exact levels from the core
    from implgraph.definitions.levels import optimal_level
    from implgraph.core.table import table_from_rows
    rows = [["0"]] + [["1/2"]] * 5
    assert optimal_level(table_from_rows(rows), "kt-closeness", k=3).value == sympy.Rational(5, 4)
    split = table_from_rows(rows, classes=["A", "B", "B", "B", "B", "B"])
    assert optimal_level(split, "mult-t-closeness").value.is_infinite
