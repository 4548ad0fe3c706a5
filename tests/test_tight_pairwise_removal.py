"""eps-LDP (every two records within ratio T = e^eps) against a record-removal divergence, tight for every N
(docs/proofs/tight-pairwise-removal.md).

Hand values: Q_i/P = N/(N - 1 + x_i/Q_i) with x_i/Q_i in [1/T, T], so every ratio lies in [lo, hi],
lo = N/(N - 1 + T), hi = N T/((N - 1) T + 1); the P-mass at hi of the two-bucket table is
L = (1 - lo)/(hi - lo) = ((N - 1) T + 1)/(N (T + 1)). Then

- Renyi 2: exp(D) = max(L hi^2 + (1 - L) lo^2, L/hi + (1 - L)/lo);
- KL: max(L hi log hi + (1 - L) lo log lo, -(L log hi + (1 - L) log lo));
- total variation: (1 - lo)(hi - 1)/(hi - lo) = (T - 1)/(N (T + 1)), i.e. tanh(eps/2)/N.

At N = 2, T = 2: lo = 2/3, hi = 4/3, L = 1/2; Renyi 2: max(10/9, 9/8) = 9/8; total variation 1/6. All attained by one
record at (T, 1)/(T + 1) and N - 1 at (1, T)/(T + 1).
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction as F

import mpmath
import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

mpmath.mp.dps = 50


def _mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def ends(T, n):
    lo, hi = F(n) / (n - 1 + T), n * T / ((n - 1) * T + 1)
    return lo, hi, ((n - 1) * T + 1) / (n * (T + 1))


def renyi2(T, n):
    lo, hi, L = ends(T, n)
    return max(L * hi ** 2 + (1 - L) * lo ** 2, L / hi + (1 - L) / lo)


def kl(T, n):
    lo, hi, L = (_mp(x) for x in ends(T, n))
    fwd = L * hi * mpmath.log(hi) + (1 - L) * lo * mpmath.log(lo)
    return max(fwd, -(L * mpmath.log(hi) + (1 - L) * mpmath.log(lo)))


def tv(T, n):
    return (T - 1) / (n * (T + 1))


def attaining(T, n):
    return [[T / (T + 1), 1 / (T + 1)]] + [[1 / (T + 1), T / (T + 1)]] * (n - 1)


def _removal_tv(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in brute._pairs_of(rows, "removal"))


def _engine_f(result, T, n):
    subs = {s: (sympy.log(sympy.Rational(T.numerator, T.denominator)) if s.name == "eps" else n)
            for s in result.tight.free_symbols}
    return mpmath.mpf(str(sympy.N(result.tight.subs(subs), 60)))


@pytest.fixture(scope="module")
def results():
    return {"kl": check_implication("ldp", "kl-dp", max_n=3),
            "renyi2": check_implication("ldp", "renyi-dp", b_params={"alpha": sympy.Integer(2)}, max_n=3),
            "tv": check_implication("ldp", "tv-dp", max_n=3)}


def test_hand_values():
    assert ends(F(2), 2) == (F(2, 3), F(4, 3), F(1, 2))
    assert renyi2(F(2), 2) == F(9, 8)
    assert tv(F(2), 2) == F(1, 6)
    lo, hi, L = ends(F(3), 5)
    assert (1 - lo) * (hi - 1) / (hi - lo) == tv(F(3), 5)


@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_the_two_point_table_attains_it(n):
    for T in (F(5, 4), F(2), F(3), F(7)):
        rows = attaining(T, n)
        assert brute.ldp(rows) == T
        assert brute.renyi_level_sum(rows, 2, "removal") == renyi2(T, n)
        assert _removal_tv(rows) == tv(T, n)
        assert abs(brute.kl_level_float(rows, "removal") - float(kl(T, n))) < 1e-9


def test_against_brute_force():
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        rows = brute.random_rows(rng, rng.randint(2, 4), rng.randint(2, 3))
        T = brute.ldp(rows)
        if T == brute.INF or T == 1:
            continue
        checked += 1
        n = len(rows)
        assert brute.renyi_level_sum(rows, 2, "removal") <= renyi2(T, n)
        assert _removal_tv(rows) <= tv(T, n)
        assert brute.kl_level_float(rows, "removal") <= float(kl(T, n)) + 1e-9
    assert checked > 50


@pytest.mark.parametrize("n", [2, 3, 5, 10])
def test_engine_tight_f_is_the_hand_f(results, n):
    for r in results.values():
        assert r.verdict == "proved" and r.tightness == "tight"
    for T in (F(5, 4), F(2), F(3), F(7)):
        assert abs(_engine_f(results["renyi2"], T, n) - mpmath.log(_mp(renyi2(T, n)))) < 1e-40
        assert abs(_engine_f(results["kl"], T, n) - kl(T, n)) < 1e-40
        assert abs(_engine_f(results["tv"], T, n) - _mp(tv(T, n))) < 1e-40


def test_certificates_check(results):
    for r in results.values():
        assert check_certificate(r.details["certificate"]).ok


def test_forged_certificates_rejected(results):
    cert = results["renyi2"].details["certificate"]
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["lo"], bad["upper_certificate"]["hi"] = "1/T", "T"     # a tight claim on [1/T, T]
    bad["upper"] = "log(T - 1 + 1/T)"
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)       # the smaller chord alone (one direction)
    bad["upper"] = "log(N*(N*T + T**2 - 2*T + 1)/((N + T - 1)*(N*T - T + 1)))"
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(results["tv"].details["certificate"])
    bad["upper"] = "(T - 1)/(2*N*(T + 1))"     # below the family's level
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(results["tv"].details["certificate"])
    bad["tightness"]["rows"][0]["value"] = "T/(T + 2)"      # a family not attaining U
    assert not check_certificate(bad).ok


# -- each record against the table (eps-LIP: a subset level of size 1) against record removal's total variation ------
# Q_i/P = (N - x_i/P)/(N - 1) lies in [max((N - T)/(N - 1), 1/T), (N - 1/T)/(N - 1)]; the chord there, by hand:
# (T - 1)/((N - 1)(T + 1)) where T <= N - 1, (T - 1)/(N T) beyond. At N = 3, T = 2: 1/6; at N = 2, T = 2: 1/4.

def tv_single(T, n):
    return (T - 1) / ((n - 1) * (T + 1)) if T <= n - 1 else (T - 1) / (n * T)


def single_attaining(T, n):
    lo, hi = (max(F(n) - T, (n - 1) / T) / (n - 1), (n - 1 / T) / (n - 1))
    L = (1 - lo) / (hi - lo)
    return [[L / T, 1 - L / T]] + [[hi * L, 1 - hi * L]] * (n - 1)


def test_single_record_hand_values():
    assert tv_single(F(2), 3) == F(1, 6) and tv_single(F(2), 2) == F(1, 4)
    T, n = F(3), 4          # both pieces agree at T = N - 1: (N - 2)/((N - 1) N)
    assert (T - 1) / ((n - 1) * (T + 1)) == (T - 1) / (n * T) == F(2, 12)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_single_record_family_attains(n):
    for T in (F(5, 4), F(2), F(3), F(7)):
        rows = single_attaining(T, n)
        assert brute.kt(rows, 1) <= T
        assert _removal_tv(rows) == tv_single(T, n)


def test_single_record_against_brute_force():
    rng = random.Random(9)
    checked = 0
    for _ in range(300):
        rows = brute.random_rows(rng, rng.randint(2, 4), rng.randint(2, 3))
        T = brute.kt(rows, 1)
        if T == brute.INF or T == 1:
            continue
        checked += 1
        assert _removal_tv(rows) <= tv_single(T, len(rows))
    assert checked > 50


def test_single_record_engine():
    r = check_implication("lip", "tv-dp", max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight"
    for n in (2, 3, 5, 10):
        for T in (F(5, 4), F(2), F(3), F(7), F(20)):
            assert abs(_engine_f(r, T, n) - _mp(tv_single(T, n))) < 1e-40
    certs = r.details["certificates"]
    assert len(certs) == 2 and all(check_certificate(c).ok for c in certs)
    piece = next(c for c in certs if "T <= N - 1" in c["domain"])
    bad = copy.deepcopy(piece)
    bad["domain"].remove("T <= N - 1")          # the lower end (N - T)/(N - 1) only where T <= N - 1
    assert not check_certificate(bad).ok


# -- the hockey-stick at gamma = 2 (delta-dp(eps = log 2)) both ways: phi(q) = max(q - 2, 0), psi(q) = max(1 - 2 q, 0)
# with lo <= 1 <= hi: the chords L max(hi - 2, 0) and (1 - L) max(1 - 2 lo, 0). By hand, eps-LDP:
# max(0, T - N - 1)/(N (T + 1)) (L (hi - 2) < 0 as hi < 2); at N = 2, T = 6: 3/14. eps-LIP: where T <= N - 1
# (L = T/(T + 1), lo = (N - T)/(N - 1)): max(0, 2 T - N - 1)/((N - 1)(T + 1)); beyond (L = (N - 1)/N, lo = 1/T):
# max(0, T - 2)/(N T);
# at N = 4, T = 3: 1/12; at N = 2, T = 3: 1/6.

def removal_e2(rows):
    from brute_divergences import event_gap, level_over
    return level_over(lambda x, y: event_gap(x, y, 2), rows, "removal")


def e2_pairwise(T, n):
    return max(F(0), T - n - 1) / (n * (T + 1))


def e2_single(T, n):
    return max(F(0), 2 * T - n - 1) / ((n - 1) * (T + 1)) if T <= n - 1 else max(F(0), T - 2) / (n * T)


def test_hockey_hand_values():
    assert e2_pairwise(F(6), 2) == F(3, 14)
    assert e2_single(F(3), 4) == F(1, 12) and e2_single(F(3), 2) == F(1, 6)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_hockey_families_attain(n):
    for T in (F(5, 4), F(2), F(3), F(7), F(12)):
        assert removal_e2(attaining(T, n)) == e2_pairwise(T, n)
        assert removal_e2(single_attaining(T, n)) == e2_single(T, n)


def test_hockey_against_brute_force():
    rng = random.Random(13)
    for _ in range(300):
        rows = brute.random_rows(rng, rng.randint(2, 4), rng.randint(2, 3))
        T, t1 = brute.ldp(rows), brute.kt(rows, 1)
        if T != brute.INF:
            assert removal_e2(rows) <= e2_pairwise(T, len(rows))
        if t1 != brute.INF:
            assert removal_e2(rows) <= e2_single(t1, len(rows))


def test_hockey_engine():
    log2 = {"eps": sympy.log(2)}
    pair = check_implication("ldp", "delta-dp", b_params=log2, max_n=3)
    single = check_implication("lip", "delta-dp", b_params=log2, max_n=3)
    for r in (pair, single):
        assert r.verdict == "proved" and r.tightness == "tight"
    for n in (2, 3, 5, 10):
        for T in (F(5, 4), F(2), F(3), F(7), F(20)):
            assert abs(_engine_f(pair, T, n) - _mp(e2_pairwise(T, n))) < 1e-40
            assert abs(_engine_f(single, T, n) - _mp(e2_single(T, n))) < 1e-40
    assert check_certificate(pair.details["certificate"]).ok
    assert all(check_certificate(c).ok for c in single.details["certificates"])
    bad = copy.deepcopy(pair.details["certificate"])
    bad["upper"] = "Max(0, (T - N - 1)/(N*(T + 1)))/2"          # below the family's level
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(pair.details["certificate"])
    bad["upper"] = "Max(0, (-N*T + 2*T - 2)/(N*(T + 1)))"     # one chord only
    assert not check_certificate(bad).ok
