"""Every subset of N - k records within [1/T, T] of the table ((k, eps)-DP; (k', t)-closeness with k = N - k')
against record removal's KL and Renyi divergences: the chord on the lemma's interval of Q_i/P, tight for every N
(docs/proofs/tight-subset-removal.md).

Hand values: y = Q_i/P lies in [max(1/T, (N - (N - k) T)/k), min(T, N/(N - 1), (N - (N - k)/T)/k)]; two buckets at
its ends with the table's mass L = (1 - lo)/(hi - lo) at hi: one record at N P - (N - 1) Q, N - 1 at Q.

- (2, eps)-DP, N = 4, T = 2: [1/2, 4/3] (N/(N - 1) = 4/3 below (4 - 1)/2 = 3/2), L = 3/5, P = (3/5, 2/5),
  Q = (4/5, 1/5), the removed record (0, 1). Level 2 (the pair {(0, 1), (4/5, 1/5)} leaves (2/5, 3/5): 2/3, 3/2; two
  others leave (4/5, 1/5): 4/3, 1/2). exp(D_2(P || Q)) = 9/20 + 4/5 = 5/4 (Q || P: 7/6); KL(P || Q) =
  (3/5) log(3/4) + (2/5) log 2. Before: log(3/2) and log(2)/3 (the chord on [1/2, 2]).
- (2, t)-closeness, N = 5, T = 2 (k = 3): [1/2, 5/4], L = 2/3, P = (2/3, 1/3), Q = (5/6, 1/6), the removed record
  (0, 1): level 2, exp(D_2(P || Q)) = 8/15 + 2/3 = 6/5.
- Total variation and the hockey-stick at gamma = 2 (the same interval): (2, eps)-DP, N = 5, T = 2: [1/2, 5/4],
  P = (2/3, 1/3), Q = (5/6, 1/6), the removed record (0, 1): TV = 1/6 = (hi - 1)(1 - lo)/(hi - lo). At T = 3:
  [1/3, 5/4], L = 8/11, P = (8/11, 3/11), Q = (10/11, 1/11), the removed record (0, 1): the hockey-stick both ways
  max(0, 1/11) = 1/11 = (1 - L)(1 - 2 lo). Before: the upper bounds (T - 1)/(T + 1) = 1/3 and (T - 2)/(T + 1) = 1/4.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

TWO = {"alpha": sympy.Integer(2)}
KDP_4 = [[F(0), F(1)]] + [[F(4, 5), F(1, 5)]] * 3
KT_5 = [[F(0), F(1)]] + [[F(5, 6), F(1, 6)]] * 4
KDP_5_T3 = [[F(0), F(1)]] + [[F(10, 11), F(1, 11)]] * 4


def _removal_tv(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in brute._pairs_of(rows, "removal"))


def _removal_hockey(rows, g):
    return max(sum(max(a - g * b, F(0)) for a, b in zip(x, y)) for x, y in brute._pairs_of(rows, "removal"))


def test_hand_values_families():
    assert brute.kdp(KDP_4, 2) == 2
    assert brute.renyi_level_sum(KDP_4, 2, "removal") == F(5, 4)
    kl = 3 / 5 * math.log(3 / 4) + 2 / 5 * math.log(2)
    assert abs(brute.kl_level_float(KDP_4, "removal") - kl) < 1e-12
    assert brute.kt(KT_5, 2) == 2
    assert brute.renyi_level_sum(KT_5, 2, "removal") == F(6, 5)


def test_brute_no_table_above_the_bound():
    """Random tables of 4 records at (2, eps)-DP level <= 2 never exceed exp(D_2) = 5/4."""
    rng = random.Random(11)
    seen = 0
    for _ in range(3000):
        rows = brute.random_rows(rng, 4, 2, high=6)
        if brute.kdp(rows, 2) <= 2:
            seen += 1
            assert brute.renyi_level_sum(rows, 2, "removal") <= F(5, 4)
    assert seen > 50


@pytest.fixture(scope="module")
def results():
    k2 = {"k": sympy.Integer(2)}
    return {("kdp", "kl"): check_implication("kdp", "kl-dp", a_params=k2, max_n=3),
            ("kdp", "r2"): check_implication("kdp", "renyi-dp", a_params=k2, b_params=TWO, max_n=3),
            ("kt", "kl"): check_implication("kt-closeness", "kl-dp", a_params=k2, max_n=3),
            ("kt", "r2"): check_implication("kt-closeness", "renyi-dp", a_params=k2, b_params=TWO, max_n=3)}


def _at(f, n, t, log_level):
    eps, N, t_ = sympy.Symbol("eps"), sympy.Symbol("N"), sympy.Symbol("t")
    f = sympy.sympify(str(f), locals={"eps": eps, "N": N, "t": t_})
    return float(f.subs({N: n, eps: sympy.log(t), t_: t}))


@pytest.mark.slow
def test_tight_for_every_n(results):
    for key, r in results.items():
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chord", key
        cert = r.details["certificate"]
        assert cert["tight"] and check_certificate(cert).ok, key
    assert abs(_at(results[("kdp", "r2")].tight, 4, 2, True) - math.log(5 / 4)) < 1e-12
    assert abs(_at(results[("kdp", "kl")].tight, 4, 2, True)
               - (3 / 5 * math.log(3 / 4) + 2 / 5 * math.log(2))) < 1e-12
    assert abs(_at(results[("kt", "r2")].tight, 5, 2, False) - math.log(6 / 5)) < 1e-12
    assert _at(results[("kdp", "kl")].tight, 4, 1, True) == 0             # T = 1: every subset is the table


@pytest.mark.slow
def test_forged_rejected(results):
    for key in (("kdp", "r2"), ("kt", "kl")):
        cert = results[key].details["certificate"]
        bad = copy.deepcopy(cert)
        bad["tightness"]["domain"] = [c for c in bad["tightness"]["domain"] if c != "T > 1"]   # rows 0/0 at T = 1
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["upper_certificate"]["hi"] = "Min(T, N/(N - 1))"             # not the lemma's interval
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["upper"] = str(sympy.sympify(cert["upper"], locals={"N": sympy.Symbol("N"), "T": sympy.Symbol("T")}
                                         ).args[1].expr)                  # no value at T = 1
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["tightness"]["rows"][0]["value"] = "0"                        # not the attaining table
        assert not check_certificate(bad).ok


def test_total_variation_and_hockey_hand_values():
    assert brute.kdp(KT_5, 2) == 2 and _removal_tv(KT_5) == F(1, 6)
    assert brute.kdp(KDP_5_T3, 2) == 3 and _removal_hockey(KDP_5_T3, 2) == F(1, 11)
    rng = random.Random(5)
    seen = 0
    for _ in range(2000):
        rows = brute.random_rows(rng, 5, 2, high=6)
        t = brute.kdp(rows, 2)
        if t != brute.INF and t <= 3:
            seen += 1
            assert _removal_tv(rows) <= _chord_tv(rows, t) and _removal_hockey(rows, 2) <= F(1, 11)
    assert seen > 50


def _chord_tv(rows, t):
    """The hand chord (hi - 1)(1 - lo)/(hi - lo) on (2, eps)-DP's interval at N = 5 (k = 2) and level t."""
    lo, hi = max(1 / t, (5 - 3 * t) / 2), min(t, F(5, 4), (5 - 3 / t) / 2)
    return (hi - 1) * (1 - lo) / (hi - lo) if hi > lo else F(0)


@pytest.mark.parametrize("b,params,t,hand", [("tv-dp", {}, 2, F(1, 6)),
                                             ("delta-dp", {"eps": sympy.log(2)}, 3, F(1, 11))])
def test_total_variation_and_hockey_tight_and_rechecked(b, params, t, hand):
    r = check_implication("kdp", b, a_params={"k": sympy.Integer(2)}, b_params=params, max_n=3)
    assert r.verdict == "proved" and r.method == "chord" and r.tightness == "tight", (b, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    assert abs(_at(r.tight, 5, t, True) - float(hand)) < 1e-12
    bad = copy.deepcopy(cert)
    bad["upper"] = bad["upper"].replace("Min(", "Max(", 1)           # a larger hi: not the chord on the interval
    assert not check_certificate(bad).ok
