"""Item 4 of "every verdict from evidence": a witness confirms a non-implication only where it is an
instance of the claim's condition.

Hand facts used: Table VI of ekenstedt2022 has 4 records (N = 4) and its witness claim takes (2, t)-closeness
(k = 2); Table IV's witness claims are taken at N = 6, k = 3, k0 = 2 (their ``fix:``).
"""

import copy

import pytest

from implgraph.checks.witness_fit import witness_fit
from implgraph.io.theorems import edge_from_node, load_claims, witness_ids
from implgraph.checks import check_claim

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
    assert "N = 4" in fit["instance"] and "k = 2" in fit["instance"]


@pytest.mark.parametrize("when", [["k == 1", "N >= 2"], ["3 <= k", "k <= N - 1"], ["2 <= k", "N >= 5"]])
def test_theorem_3b_witness_outside_the_condition_confirms_nothing(when):
    node = _mutant("ekenstedt2022/theorem-3b", when=when)
    assert _fit(node)["fits"] is False
    v = check_claim(node, {"max_n": 6, "verdicts": {}})
    # (1, t)-closeness => eps-LDP (Theorem 2a), so k == 1 cannot be confirmed by any witness: the subset of
    # one record that the condition fixes is the product argument's, which proves the implication and so
    # refutes the claimed non-implication; the other conditions exclude Table VI's k = 2, N = 4
    if when[0] == "k == 1":
        assert v.verdict == "refuted" and "proves the implication" in v.evidence and "product" in v.evidence
    else:
        assert "not an instance" in v.evidence


def test_lemma_2_2_witness_instance_maps_table_symbols():
    # witness_map {k: k0, k0: k1}: the table's (k, k0) = (3, 2) are the claim's (k0, k1); N = 6
    fit = _fit(CLAIMS["ekenstedt2022/lemma-2.2"])
    assert fit["fits"] is True and fit["covers"] is False
    node = _mutant("ekenstedt2022/lemma-2.2", when=["1 <= k1", "k1 < k0", "k0 <= N - 1", "N >= 7"])
    assert _fit(node)["fits"] is False


@pytest.mark.parametrize("cid, when", [
    # each shifted condition now contains a value where the implication holds (k1 = k0: Lemma 2.1; k = 1:
    # Theorem 2a; kDP = N - kClo: Theorem 4.1), and the witness covers one instance only
    ("ekenstedt2022/lemma-2.2", ["1 <= k1", "k1 < k0 + 1", "k0 <= N - 1"]),
    ("ekenstedt2022/theorem-3b", ["2 <= k + 1", "k <= N - 1"]),
    ("ekenstedt2022/theorem-4.2", ["kDP > N - kClo - 1", "1 <= kClo", "kClo <= N - 1", "kDP <= N - 1"]),
])
def test_a_witness_covering_one_instance_does_not_confirm_a_false_claim(cid, when):
    v = check_claim(_mutant(cid, when=when), {"max_n": 6, "verdicts": {}})
    assert v.verdict not in ESTABLISHED


def test_theorem_5_table_iii_witness_covers_k1_only():
    # Table III has classes of 2 records, so its (k, eps)-DP per class is taken with k = 1 only
    node = _mutant("ekenstedt2022/theorem-5", witness="ekenstedt2022/table-III",
                   witness_claim="ekenstedt2022/table-III/theorem-5-non-implication")
    v = check_claim(node, {"max_n": 6, "verdicts": {}})
    assert v.verdict == "verified-bounded" and v.bound == "at the witness's instance only: k = 1"


def test_theorem_5_family_covers_every_k():
    # the family of ekenstedt2022/table-III/k-family is claimed `for_every: [k]` with the range 1 <= k (its
    # region's constraint on k alone): every k of Theorem 5's condition 1 <= k is an instance
    fit = _fit(CLAIMS["ekenstedt2022/theorem-5"])
    assert fit == {"fits": True, "covers": True, "instance": "1 <= k"}
    v = check_claim(CLAIMS["ekenstedt2022/theorem-5"], {"max_n": 6, "verdicts": {}})
    assert v.verdict == "confirmed" and v.bound is None
    assert "for every k with 1 <= k (decided symbolically, not sampled)" in v.evidence


def test_map_arrow_outside_its_claims_condition_is_not_supported():
    # Fig. 2's Theorem 3 arrow with `k <= 1` instead of `k > 1`: Theorem 3b says nothing for k = 1 (where
    # (1, t)-closeness => LDP by Theorem 2a), so the arrow is not held by the claim's verdict
    from implgraph.checks.maps import check_map
    node = copy.copy(CLAIMS["ekenstedt2022/fig-2"])
    arrows = [copy.copy(a) for a in node["arrows"]]
    i = next(i for i, a in enumerate(arrows) if a.get("claim") == "ekenstedt2022/theorem-3b")
    arrows[i]["when"] = ["k <= 1"]
    arrows[i].pop("when_sources", None)
    node["arrows"] = arrows
    v = check_map(node, {"max_n": 6, "verdicts": {}})
    row = next(r for r in v.details["arrows"] if r["claim"] == "ekenstedt2022/theorem-3b")
    assert row["state"] != "holds"


def test_theorem_5_under_both_readings_of_definition_8():
    # per class (the paper's choice): Table III grown to classes of k + 1 records, every k; on the whole table (Definition 8 as written) the
    # claim fails at k = 1: removing one record of a table whose class level is t leaves every bucket's mean
    # at least m / ((N - 1) t) (the removed record is at most its class's sum, the other classes keep
    # N - e >= 1 records of mean >= m / t; by hand), so eps = ln((N - 1) t) works for every N
    from implgraph.checks.verify import run_verify
    # over every partition a table of one class (t = 1) with a record holding a whole bucket (eps = oo) is a witness at
    # k = 1 too: the reading holds; under the assumption "partitions into at least 2 classes" the argument above refutes
    # it at k = 1, and the verdict says so
    rows = {v.id: v for v in run_verify(["ekenstedt2022/theorem-5"], max_n=6)}
    printed, reading = rows["ekenstedt2022/theorem-5"], rows["ekenstedt2022/theorem-5#reading"]
    assert printed.verdict == "confirmed"
    assert reading.verdict == "confirmed"
    cond = reading.details["conditional"]
    assert cond["assumption"] == "partitions into at least 2 classes" and cond["verdict"] == "refuted"
    assert cond["evidence"].startswith("at k = 1")


def test_an_instance_without_a_proof_refutes_nothing():
    # Theorem 3b, (k, t)-closeness =/=> eps-LDP for k >= 2: no argument proves the implication at k = 2 or 3
    # (the product argument needs a subset of one record), so the claim keeps its witness's verdict
    from implgraph.checks.not_implies import _implication_at_an_instance
    edge = edge_from_node(CLAIMS["ekenstedt2022/theorem-3b"], witness_ids())
    assert _implication_at_an_instance(edge) is None
