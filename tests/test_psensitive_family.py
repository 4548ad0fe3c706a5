"""p-sensitive k-anonymity in ``weakest-family`` (docs/arguments/weakest-family.md): its declared level above its class
floor (distinct l-diversity's), B's weakest level under it and its weakest level under the l-diversities.

Values by hand and by tests/brute.py. p-sensitive k-anonymity (Truta and Vinay) is the fewest values a class holds
where every class has at least k records, else 0. The lone-record family at N = 3, m = 2 (one record uniform over
buckets 0, 1, two over buckets 2..5, one class): its class of 3 >= 2 records holds 6 values, so p = 6 >= 2; the first
record puts 1/2 on bucket 0, where the table's mean is 1/6: one record against the table, ratio 3 = N (pml's weakest
raw level, log 3). The singletons at N = 3, m = 2 (three records uniform over the same 2 values, each its own class):
distinct l = 2, and p = 0 at k = 2 (a class of 1 < 2 records), its weakest; at k = 1 it would be 2.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy

from _forge import edited

from implgraph.certify import check_certificate
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions import get
from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
from implgraph.engines.prove import check_implication
from implgraph.prover.arguments.weakest_family import family_blocks, family_rows

import brute

PS = "p-sensitive-k-anonymity"
N_ = sympy.Symbol("N", positive=True, integer=True)
K4 = sympy.Symbol("k4", integer=True)
#: A = p-sens(k=2), B and its weakest raw level by hand (1 between records; 1/N on removal; a record's ratio N)
AS_A = [("tv-ldp", {}, "1"), ("delta-ldp", {"eps": "log(2)"}, "1"), ("tv-dp", {}, "1/N"),
        ("delta-dp", {"eps": "log(2)"}, "1/N"), ("pml", {}, "N")]
#: B = p-sens(k=2): 0, a class of one record
AS_B = ["distinct-l-diversity", "frequency-l-diversity", "entropy-l-diversity"]


@pytest.fixture(scope="module")
def proofs():
    out = {(PS, b): check_implication(PS, b, a_params={"k": 2}, b_params=pb) for b, pb, _ in AS_A}
    out.update({(a, PS): check_implication(a, PS, b_params={"k": 2}) for a in AS_B})
    return out


def _ps(rows, classes, k):
    return get(PS).concrete(ConcreteTable.from_fractions(rows, classes=classes), k)


# -- the declaration, against brute force ----------------------------------------------------------------------------

def test_level_of_is_distinct_where_the_floor_holds():
    """On random tables: p = distinct l where every class has >= k records, else 0 (brute.distinct_l, k_anonymity)."""
    assert get(PS).declared(MinClassSizeAboveWeakest).level_of == "distinct-l-diversity"
    rng, seen = random.Random(7), {True: 0, False: 0}
    for _ in range(150):
        n = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, n, rng.randint(2, 4)), brute.random_labels(rng, n, 2)
        for k in (1, 2, 3):
            floor = brute.k_anonymity(classes) >= k
            seen[floor] += 1
            assert _ps(rows, classes, k) == (brute.distinct_l(rows, classes) if floor else 0)
    assert seen[True] and seen[False]


# -- the families, by hand -------------------------------------------------------------------------------------------

def test_lone_record_family_by_hand():
    rows, classes = family_rows(family_blocks("lone-record", sympy.Integer(2), sympy.Integer(3)))
    assert classes == ["E1"] * 3 and _ps(rows, classes, 2) == 6 == brute.distinct_l(rows, classes)
    mean0 = sum(r[0] for r in rows) / 3
    assert rows[0][0] == Fraction(1, 2) and mean0 == Fraction(1, 6) and rows[0][0] / mean0 == 3
    assert brute.eps_delta_dp(rows, Fraction(1, 3)) == 1            # on removal: 1/N at ratio 1


def test_singletons_family_by_hand():
    rows, classes = family_rows(family_blocks("singletons", sympy.Integer(2), sympy.Integer(3)))
    assert brute.distinct_l(rows, classes) == 2 and _ps(rows, classes, 2) == 0 and _ps(rows, classes, 1) == 2


# -- the verdicts ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("b, pb, weakest", AS_A, ids=[c[0] for c in AS_A])
def test_psens_as_a_is_tight_at_b_weakest(proofs, b, pb, weakest):
    r = proofs[(PS, b)]
    assert r.verdict == "proved" and r.method == "weakest-family" and r.tightness == "tight"
    cert = r.details["certificate"]
    assert sympy.simplify(sympy.sympify(cert["upper"], locals={"N": N_}) - sympy.sympify(weakest,
                                                                                       locals={"N": N_})) == 0
    assert cert["family"]["kind"] == "lone-record" and check_certificate(cert).ok


@pytest.mark.parametrize("a", AS_B)
def test_psens_as_b_is_tight_at_zero(proofs, a):
    r = proofs[(a, PS)]
    assert r.verdict == "proved" and r.method == "weakest-family" and sympy.sympify(str(r.tight)) == 0
    cert = r.details["certificate"]
    assert cert["upper"] == "0" and cert["family"]["kind"] == "singletons" and check_certificate(cert).ok


def test_symbolic_k_states_k_at_least_2():
    """B = p-sens(k = k4): tight where k4 >= 2 only (at k4 = 1 singletons have p = their values, not 0)."""
    r = check_implication("distinct-l-diversity", PS, b_params={"k": K4}, when=["1 <= k4", "k4 <= N"])
    assert r.verdict == "proved" and r.details["certificate"]["family"]["domain"] == ["k4 >= 2"]
    r = check_implication(PS, "tv-dp", a_params={"k": K4}, when=["1 <= k4", "k4 <= N"])
    assert r.verdict == "proved" and r.tightness == "tight" and check_certificate(r.details["certificate"]).ok


# -- forgeries -------------------------------------------------------------------------------------------------------

def _rejected(cert, step_text):
    rep = check_certificate(cert)
    assert not rep.ok
    assert any(step_text in s[0] and not s[1] for s in rep.steps), [s for s in rep.steps if not s[1]]


def test_forged_psens_b_rejected(proofs):
    cert = proofs[("frequency-l-diversity", PS)].details["certificate"]
    _rejected(edited(cert, ["upper"], "1"), "U is B's weakest raw level")
    # at k = 1 a class of one record is not at p's weakest: the singletons do not attain 0
    _rejected(edited(cert, ["B", "params", "k"], "1"), "minimum class size above its weakest level")


def test_forged_symbolic_domain_rejected():
    r = check_implication("entropy-l-diversity", PS, b_params={"k": K4}, when=["1 <= k4", "k4 <= N"])
    cert = r.details["certificate"]
    _rejected(edited(cert, ["family", "domain"], []), "minimum class size above its weakest level")
    _rejected(edited(cert, ["family", "domain"], ["k4 >= 1"]), "the registry's conditions")


def test_forged_record_ratio_rejected(proofs):
    cert = proofs[(PS, "pml")].details["certificate"]
    _rejected(edited(cert, ["upper"], "N - 1"), "U is B's weakest raw level")
    # two records in the first block: each against the table is N/2, below U = N
    forged = edited(edited(cert, ["family", "blocks", 0, "count"], "2"), ["family", "blocks", 1, "count"], "N - 2")
    assert not check_certificate(forged).ok
    # each record over one value: the class holds N values, fewer than T at N = 2, T = 7
    forged = edited(edited(cert, ["family", "blocks", 0, "values"], "1"), ["family", "blocks", 1, "values"], "N - 1")
    _rejected(forged, "A meets T")
