"""``floor-level``'s ``share`` kind (docs/arguments/floor-level.md): p-sensitive k-anonymity => basic beta-likeness,
EMD and hierarchical EMD t-closeness (ground distance equal), KL and Renyi-2 closeness, tight for every N.

By hand and by tests/brute.py. At p >= 1 every class has >= k records, so a class of s >= k records holds at least
s/N of the table in each bucket: its mean is at most (N/s) times the table's, beta <= N/k - 1, and its total variation
distance from the table is (1 - s/N) times its distance from the rest, at most (N - k)/N; its KL and Renyi-2
divergences at most log of its largest ratio to the table, log(N/k). On N < 2 k records two classes of >= k records
do not fit: one class, the table, beta = 0, distance and divergences 0. Attained (k = 2): N = 4, classes
{(1/2, 1/2, 0, 0) x 2}, {(0, 0, 1/2, 1/2) x 2}: p = 2, beta = 1, distance 1/2; N = 6 with 4 records in the second
class: beta = 2 (the first class: (1/2)/(1/6) - 1), distance 2/3; KL = Renyi-2 = log(N/2) (the first class's
distribution is the table's on its two values times N/2).
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
N, K4 = sympy.Symbol("N"), sympy.Symbol("k4", integer=True)
HALF, ZERO = Fraction(1, 2), Fraction(0)
CELLS = [("basic-beta-likeness", {}), ("emd-t-closeness", {"ground": "equal"}),
         ("hierarchical-emd-t-closeness", {"ground": "equal"}), ("kl-closeness", {}), ("renyi-closeness", {"alpha": 2})]
LOG2, LOG3 = sympy.log(2), sympy.log(3)


def _ps(rows, classes, k=2):
    return get(PS).concrete(ConcreteTable.from_fractions(rows, classes=classes), k)


def _two_classes(n, first=2):
    """``first`` records (1/2, 1/2, 0, 0) in E1, n - first records (0, 0, 1/2, 1/2) in E2."""
    rows = [[HALF, HALF, ZERO, ZERO]] * first + [[ZERO, ZERO, HALF, HALF]] * (n - first)
    return rows, ["E1"] * first + ["E2"] * (n - first)


@pytest.fixture(scope="module")
def proofs():
    return {b: check_implication(PS, b, a_params={"k": 2}, b_params=bp) for b, bp in CELLS}


def test_the_families_by_hand():
    rows, classes = _two_classes(4)
    assert _ps(rows, classes) == 2
    assert brute.basic_beta_likeness(rows, classes) == 1 and brute.emd_t(rows, classes) == HALF
    rows, classes = _two_classes(6)
    assert _ps(rows, classes) == 2
    assert brute.basic_beta_likeness(rows, classes) == 2 and brute.emd_t(rows, classes) == Fraction(2, 3)
    assert abs(brute.kl_level_float(rows, "class", classes) - float(LOG3)) < 1e-12
    assert brute.renyi_level_sum(rows, 2, "class", classes) == 3       # exp(Renyi-2) = sum q^2/p
    rows, classes = [[HALF, HALF, ZERO, ZERO]] * 3, ["E1"] * 3        # N = 3: one class
    assert _ps(rows, classes) == 2 and brute.basic_beta_likeness(rows, classes) == 0 == brute.emd_t(rows, classes)


def test_the_bounds_against_brute_force():
    """Every random table with p >= 1 (k = 2) has beta <= N/2 - 1 and distance <= (N - 2)/N, and 0 on 3 records."""
    rng, seen = random.Random(7), 0
    for _ in range(300):
        n = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, n, rng.randint(2, 4)), brute.random_labels(rng, n, 2)
        if _ps(rows, classes) < 1:
            continue
        seen += 1
        beta, tv = brute.basic_beta_likeness(rows, classes), brute.emd_t(rows, classes)
        assert beta <= Fraction(n, 2) - 1 and tv <= Fraction(n - 2, n)
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= (Fraction(n, 2) if n >= 4 else 1)
        if n < 4:
            assert beta == 0 == tv and brute.kl_level_float(rows, "class", classes) < 1e-12
    assert seen > 20


def test_the_tight_f_at_hand_values(proofs):
    """Raw U (beta-likeness's ratio, beta + 1; the distance; the divergences): N = 3: 1, 0, 0; N = 4: 2, 1/2,
    log 2; N = 6: 3, 2/3, log 3."""
    for b, _ in CELLS:
        r = proofs[b]
        assert r.verdict == "proved" and r.method == "floor-level" and r.tightness == "tight"
        cert = r.details["certificate"]
        assert cert["family"] == {"kind": "share"} and check_certificate(cert).ok
        U = sympy.sympify(cert["upper"], locals={"N": N})
        want = {"basic-beta-likeness": [1, 2, 3], "kl-closeness": [0, LOG2, LOG3],
                "renyi-closeness": [0, LOG2, LOG3]}.get(b, [0, HALF, Fraction(2, 3)])
        assert all(sympy.simplify(U.subs(N, n) - w) == 0 for n, w in zip((3, 4, 6), want))


def test_symbolic_k():
    """k = k4: below 2 k4 records one class; else N/k4 and (N - k4)/N (k4 = 3, N = 7: 7/3 and 4/7)."""
    for b, bp in CELLS[:2]:
        r = check_implication(PS, b, a_params={"k": K4}, b_params=bp, when=["1 <= k4", "k4 <= N"])
        cert = r.details["certificate"]
        assert r.verdict == "proved" and cert["family"]["kind"] == "share" and check_certificate(cert).ok
        U = sympy.sympify(cert["upper"], locals={"N": N, "k4": K4})
        small, big = (1, Fraction(7, 3)) if b == "basic-beta-likeness" else (0, Fraction(4, 7))
        assert U.subs({N: 5, K4: 3}) == small and U.subs({N: 7, K4: 3}) == big


def _rejected(cert, step_text):
    rep = check_certificate(cert)
    assert not rep.ok
    assert any(step_text in s[0] and not s[1] for s in rep.steps), [s for s in rep.steps if not s[1]]


def test_forgeries_rejected(proofs):
    ratio = proofs["basic-beta-likeness"].details["certificate"]
    tv = proofs["emd-t-closeness"].details["certificate"]
    _rejected(edited(ratio, ["upper"], "N/2"), "U is the registry's")         # 3/2 at N = 3: one class, 1
    _rejected(edited(ratio, ["upper"], "Piecewise((1, N < 4), (N/3, True))"), "U is the registry's")
    _rejected(edited(tv, ["upper"], "Piecewise((0, N < 5), ((N - 2)/N, True))"), "U is the registry's")
    _rejected(edited(tv, ["upper"], "Piecewise((0, N < 4), ((N - 2)/N, N < 13), ((N - 1)/N, True))"),
              "U is the registry's")       # equal at every sampled N, false at N = 13 (the family: 11/13)
    _rejected(edited(tv, ["family", "kind"], "floor"), "the family's kind")
    _rejected(edited(tv, ["family", "domain"], ["N >= 4"]), "the registry's conditions")
    _rejected(edited(ratio, ["domain"], ["T >= 0", "N >= 2"]), "above A's weakest level")       # p = 0: any classes
    _rejected(edited(ratio, ["B", "sides"], "two-sided"), "as registered")
