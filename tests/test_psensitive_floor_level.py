"""``floor-level`` (docs/arguments/floor-level.md): tight f read off p-sensitive k-anonymity's class floor above its
weakest level and the level it is there (distinct l-diversity's).

By hand and by tests/brute.py. p-sensitive k-anonymity at p >= 1 has every class of >= k records, and then p is the
fewest values a class holds, distinct l: so p => distinct l at ceiling(p) (a count). One class of 3 records uniform
over the same 3 values has p = distinct = 3 (>= 5/2). k-anonymity at T > 1 has classes of >= 2 records, each holding
at least one value: p-sensitive 2-anonymity >= 1. One class of one-hot records (1, 0): k-anonymity N, p = 1; each
record its own class: k-anonymity 1, p = 0.
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
from implgraph.engines.prove import check_implication

import brute

PS = "p-sensitive-k-anonymity"
K4 = sympy.Symbol("k4", integer=True)


@pytest.fixture(scope="module")
def proofs():
    return {"floor": check_implication(PS, "k-anonymity", a_params={"k": 2}),
            "same": check_implication(PS, "distinct-l-diversity", a_params={"k": 2}),
            "size": check_implication("k-anonymity", PS, b_params={"k": 2})}


def _ps(rows, classes, k):
    return get(PS).concrete(ConcreteTable.from_fractions(rows, classes=classes), k)


def test_the_two_facts_against_brute_force():
    rng, seen = random.Random(11), [0, 0]
    for _ in range(200):
        n = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, n, rng.randint(2, 4)), brute.random_labels(rng, n, 3)
        p = _ps(rows, classes, 2)
        if p >= 1:              # above the weakest level: distinct l is p
            seen[0] += 1
            assert brute.distinct_l(rows, classes) == p
        if brute.k_anonymity(classes) >= 2:     # classes of >= 2 records: p >= 1
            seen[1] += 1
            assert p >= 1
    assert all(seen)


def test_the_families_by_hand():
    third = Fraction(1, 3)
    rows, classes = [[third] * 3] * 3, ["E1"] * 3
    assert _ps(rows, classes, 2) == 3 == brute.distinct_l(rows, classes)
    one_hot = [[Fraction(1), Fraction(0)]] * 4
    assert brute.k_anonymity(["E1"] * 4) == 4 and _ps(one_hot, ["E1"] * 4, 2) == 1
    assert brute.k_anonymity(["a", "b", "c", "d"]) == 1 and _ps(one_hot, ["a", "b", "c", "d"], 2) == 0


def test_floor_on_three_records_is_one_class():
    """p >= 1 at k = 2 on 3 records: every class has >= 2 records, so one class: k-anonymity 3 (every partition)."""
    rng = random.Random(5)
    for _ in range(100):
        rows, classes = brute.random_rows(rng, 3, 3), brute.random_labels(rng, 3, 3)
        if _ps(rows, classes, 2) >= 1:
            assert brute.k_anonymity(classes) == 3
    half = [[Fraction(1, 2)] * 2] * 5     # 5 records, classes of 2 and 3: p = 2, k-anonymity 2
    assert _ps(half, ["E1"] * 2 + ["E2"] * 3, 2) == 2 and brute.k_anonymity(["E1"] * 2 + ["E2"] * 3) == 2


def test_psens_to_kanonymity_is_n_below_2k(proofs):
    r = proofs["floor"]
    assert r.verdict == "proved" and r.method == "floor-level" and r.tightness == "tight"
    N = sympy.Symbol("N")
    U = sympy.sympify(r.details["certificate"]["upper"], locals={"N": N})
    assert [U.subs(N, n) for n in (2, 3, 4, 5, 9)] == [2, 3, 2, 2, 2]
    assert check_certificate(r.details["certificate"]).ok


def test_skewed_class_approaches_one():
    """One class of 3 records (1 - e, e) at e = 1/100: p = 2 values; frequency 1/(1 - e) = 100/99; entropy exp(H),
    H(0.99, 0.01) = 0.0560 (by hand), exp(H) = 1.058; a class of one value: p = 1, both 1."""
    e = Fraction(1, 100)
    rows, classes = [[1 - e, e]] * 3, ["E1"] * 3
    assert _ps(rows, classes, 2) == 2 and brute.frequency_l(rows, classes) == Fraction(100, 99)
    assert 1.05 < float(brute.entropy_l(rows, classes)) < 1.06
    one = [[Fraction(1), Fraction(0)]] * 3
    assert _ps(one, classes, 2) == 1 and brute.frequency_l(one, classes) == 1 and brute.entropy_l(one, classes) == 1


@pytest.mark.parametrize("b", ["frequency-l-diversity", "entropy-l-diversity"])
def test_psens_to_frequency_and_entropy_is_one_approached(b):
    r = check_implication(PS, b, a_params={"k": 2})
    cert = r.details["certificate"]
    assert r.verdict == "proved" and r.method == "floor-level" and cert["upper"] == "1"
    assert cert["family"] == {"kind": "skew", "domain": ["T <= 1"]} and check_certificate(cert).ok
    _rejected(edited(cert, ["upper"], "2"), "U is the registry's")
    _rejected(edited(cert, ["family", "domain"], ["T <= 2"]), "the registry's conditions")


def test_psens_to_distinct_is_ceiling(proofs):
    r = proofs["same"]
    assert r.verdict == "proved" and r.method == "floor-level" and r.tightness == "tight"
    cert = r.details["certificate"]
    assert cert["upper"] == "ceiling(T)" and cert["family"]["kind"] == "same" and check_certificate(cert).ok


def test_kanonymity_to_psens_is_one_above_one(proofs):
    r = proofs["size"]
    assert r.verdict == "proved" and r.method == "floor-level"
    U = sympy.sympify(r.details["certificate"]["upper"], locals={"T": sympy.Symbol("T")})
    T = sympy.Symbol("T")
    assert [U.subs(T, t) for t in (1, Fraction(3, 2), 2, 4)] == [0, 1, 1, 1]
    assert check_certificate(r.details["certificate"]).ok


def test_symbolic_k():
    r = check_implication("k-anonymity", PS, b_params={"k": K4}, when=["1 <= k4", "k4 <= N"])
    assert r.verdict == "proved" and check_certificate(r.details["certificate"]).ok
    U = sympy.sympify(r.details["certificate"]["upper"], locals={"T": sympy.Symbol("T"), "k4": K4})
    assert U.subs({sympy.Symbol("T"): 3, K4: 4}) == 0 and U.subs({sympy.Symbol("T"): 3, K4: 3}) == 1
    r = check_implication(PS, "distinct-l-diversity", a_params={"k": K4}, when=["1 <= k4", "k4 <= N"])
    assert r.verdict == "proved" and r.details["certificate"]["family"]["domain"] == ["N >= k4"]


def _rejected(cert, step_text):
    rep = check_certificate(cert)
    assert not rep.ok
    assert any(step_text in s[0] and not s[1] for s in rep.steps), [s for s in rep.steps if not s[1]]


def test_forgeries_rejected(proofs):
    same, size = proofs["same"].details["certificate"], proofs["size"].details["certificate"]
    _rejected(edited(same, ["upper"], "ceiling(T) + 1"), "U is the registry's")
    _rejected(edited(same, ["family", "kind"], "size"), "the family's kind")
    _rejected(edited(same, ["family", "domain"], ["N >= 3"]), "the registry's conditions")
    _rejected(edited(same, ["domain"], ["N >= 2"]), "above A's weakest level")
    _rejected(edited(size, ["upper"], "Piecewise((1, T > 0), (0, True))"), "U is the registry's")
    _rejected(edited(size, ["upper"], "1"), "U is the registry's")
    floor = proofs["floor"].details["certificate"]
    _rejected(edited(floor, ["upper"], "2"), "U is the registry's")        # 3 at N = 3
    _rejected(edited(floor, ["upper"], "Piecewise((N, N < 5), (2, True))"), "U is the registry's")


def test_a_forged_u_equal_on_every_sampled_point_is_rejected(proofs):
    """A U that agrees with the registry's at every small N and T and differs beyond is false on some table: 9
    records at (1/2, 1/2) in one class have p = distinct l-diversity = 2, not 3 (by hand); 7 one-hot records in one
    class have k-anonymity 7 and p = 1, not 2. The checker compares U for every N and T, not at samples only."""
    same, size = proofs["same"].details["certificate"], proofs["size"].details["certificate"]
    _rejected(edited(same, ["upper"], "Piecewise((ceiling(T), N < 9), (ceiling(T) + 1, True))"), "U is the registry's")
    _rejected(edited(size, ["upper"], "Piecewise((1, T > 1), (0, True)) + Piecewise((1, T > 6), (0, True))"),
              "U is the registry's")


def test_the_verdict_states_the_levels_its_proof_claims():
    """p-sensitive(2) => k-anonymity is proved for p >= 1 only: at p = 0, its weakest level, every table meets it
    (three records at (1/2, 1/2), classes {1, 2}, {3}: p = 0, k-anonymity 1, below the f = N = 3 of p >= 1), so the
    verdict must say which levels its f is for."""
    from implgraph.engines.checkedge import check_edge
    half = Fraction(1, 2)
    rows, classes = [[half, half]] * 3, ["E1", "E1", "E2"]
    assert _ps(rows, classes, 2) == 0 and brute.k_anonymity(classes) == 1
    d = check_edge(f"{PS}(k=2)", "k-anonymity", N=3).forward
    assert d.tight_all_n is not None and "where p >= 1 (the proof's domain" in (d.tight_attained or "")
