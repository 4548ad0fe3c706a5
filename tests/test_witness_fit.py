"""Item 4 of "every verdict from evidence": a witness confirms a non-implication only where it is an
instance of the claim's condition.

Hand facts used: Table VI of ekenstedt2022 has 4 records (N = 4) and its witness claim takes (2, t)-closeness
(k = 2); Table IV's witness claims are taken at N = 6, k = 3, k0 = 2 (their ``fix:``).
"""

import copy

import pytest

from implgraph.theorem_checks import witness_fit
from implgraph.theorems import edge_from_node, load_claims, witness_ids
from implgraph.verdict import check_claim

CLAIMS = {str(c.get("id")): c for c in load_claims()}
ESTABLISHED = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")


def _mutant(cid, **changes):
    node = copy.copy(CLAIMS[cid])
    node.update(changes)
    if "when" in changes:
        node.pop("when_sources", None)     # the mutant's conditions are no paper's: no sources
    return node


def _fit(node):
    edge = edge_from_node(node, witness_ids())
    return witness_fit(edge, node.get("witness_claim"))


def test_theorem_3b_witness_is_an_instance_at_k2_N4():
    fit = _fit(CLAIMS["ekenstedt2022/theorem-3b"])
    assert fit["fits"] is True
    # the claim is for every 2 <= k <= N - 1: one table at k = 2, N = 4 does not cover it
    assert fit["covers"] is False
    assert "Eq(N, 4)" in fit["instance"] and "Eq(k, 2)" in fit["instance"]


@pytest.mark.parametrize("when", [["k == 1", "N >= 2"], ["3 <= k", "k <= N - 1"], ["2 <= k", "N >= 5"]])
def test_theorem_3b_witness_outside_the_condition_confirms_nothing(when):
    node = _mutant("ekenstedt2022/theorem-3b", when=when)
    assert _fit(node)["fits"] is False
    v = check_claim(node, {"max_n": 6, "verdicts": {}})
    # (1, t)-closeness => eps-LDP (Theorem 2a), so k == 1 cannot be confirmed by any witness;
    # the other conditions exclude Table VI's k = 2, N = 4
    if when[0] == "k == 1":
        assert v.verdict not in ESTABLISHED
    assert "not an instance" in v.evidence


def test_lemma_2_2_witness_instance_maps_table_symbols():
    # witness_map {k: k0, k0: k1}: the table's (k, k0) = (3, 2) are the claim's (k0, k1); N = 6
    fit = _fit(CLAIMS["ekenstedt2022/lemma-2.2"])
    assert fit["fits"] is True and fit["covers"] is False
    node = _mutant("ekenstedt2022/lemma-2.2", when=["1 <= k1", "k1 < k0", "k0 <= N - 1", "N >= 7"])
    assert _fit(node)["fits"] is False
