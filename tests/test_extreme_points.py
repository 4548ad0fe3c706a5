"""The ``extreme-points`` argument: (eps,delta)-DP on record removal under a ratio or pair-slack level, tight for every N.

By hand (docs/proofs/extreme-points.md), with T = e^eps A's raw level and delta B's slack. Merging an event's
buckets and averaging the records other than the removed one, the supremum is over tables of one record at u and
N - 1 at v, on A's polygon.

- eps-LDP: the polygon's vertices are (0, 0), (1, 1), (T/(T + 1), 1/(T + 1)) and its mirror; removing the record at
  T/(T + 1), (P - delta)/Q = (T + N - 1)/N - delta (T + 1), the supremum: e^f = max(1, 1 + (T - 1)/N - delta (T + 1))
  (the mirror's (Q - delta)/P = N ((1 - delta) T - delta)/((N - 1) T + 1) never exceeds it where it exceeds 1).
  At delta = 1/10: f = 0 up to T = (N + 10)/(10 - N) (3/2 at N = 2, 7/3 at N = 4), and f = 0 for every T once N >= 10.
- (eps,delta_A)-LDP: the vertex u = (T + delta_A)/(T + 1), v = (1 - delta_A)/(T + 1), and
  e^f = max(1, (T + delta_A + (N - 1)(1 - delta_A) - N delta (T + 1))/(N (1 - delta_A))).
"""

import copy
import json
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.core import methods
from implgraph.engines.prove import check_implication

D = Fraction(1, 10)
LEVELS = [Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(7, 3), Fraction(3), Fraction(7)]


def ldp_by_hand(t, n, d):
    return max(Fraction(1), 1 + (t - 1) / n - d * (t + 1))


def slack_ldp_by_hand(t, n, d, da):
    return max(Fraction(1), (t + da + (n - 1) * (1 - da) - n * d * (t + 1)) / (n * (1 - da)))


_CACHE = {}


def _prove(a, a_params=None):
    key = (a, json.dumps(a_params or {}))
    if key not in _CACHE:
        _CACHE[key] = check_implication(a, "eps-delta-dp", a_params=a_params or {}, b_params={"delta": str(D)},
                                        max_n=3)
    return _CACHE[key]


def _f_at(r, t, n):
    """The engine's tight f at A's raw level t and N = n, as B's raw level e^f (exact)."""
    eps, N = sympy.Symbol("eps", real=True), sympy.Symbol("N", integer=True, positive=True)
    f = sympy.sympify(str(r.tight), locals={"eps": eps, "N": N})
    value = sympy.exp(f.subs({N: n, eps: sympy.log(sympy.Rational(t.numerator, t.denominator))}))
    return sympy.nsimplify(sympy.simplify(value))


def _rows(u, n, v):
    return [[u, 1 - u]] + [[v, 1 - v] for _ in range(n - 1)]


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 6, 9, 12])
def test_ldp_tight_f_is_the_hand_derived_one_for_every_n(n):
    r = _prove("ldp")
    assert r.verdict == "proved" and r.tightness == "tight"
    assert r.method in (methods.EXTREME_POINTS.name, methods.EXTREME_POINTS_PIECES.name)
    for t in LEVELS:
        want = ldp_by_hand(t, n, D)
        assert _f_at(r, t, n) == sympy.Rational(want.numerator, want.denominator), (t, n)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ldp_hand_value_attained_and_never_exceeded_by_brute_force(n):
    for t in LEVELS[1:]:
        u, v = t / (t + 1), 1 / (t + 1)
        rows = _rows(u, n, v)
        assert brute.ldp(rows) <= t
        assert brute.eps_delta_dp(rows, D) == ldp_by_hand(t, n, D)
    rng = random.Random(n)
    for _ in range(150):
        rows = brute.random_rows(rng, n, rng.choice([2, 3]))
        t = brute.ldp(rows)
        if t != brute.INF:
            assert brute.eps_delta_dp(rows, D) <= ldp_by_hand(t, n, D)


# (a second delta_A proves a second piecewise f: slow)
@pytest.mark.slow
@pytest.mark.parametrize("da", [D, pytest.param(Fraction(1, 5), marks=pytest.mark.slow)])
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_slack_ldp_tight_f_is_the_hand_derived_one(n, da):
    r = _prove("eps-delta-ldp", {"delta": str(da)})
    assert r.verdict == "proved" and r.tightness == "tight"
    for t in LEVELS:
        want = slack_ldp_by_hand(t, n, D, da)
        assert _f_at(r, t, n) == sympy.Rational(want.numerator, want.denominator), (t, n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_slack_ldp_hand_value_by_brute_force(n):
    for t in LEVELS[1:]:
        u, v = (t + D) / (t + 1), (1 - D) / (t + 1)
        rows = _rows(u, n, v)
        assert brute.eps_delta_ldp(rows, D) <= t
        assert brute.eps_delta_dp(rows, D) == slack_ldp_by_hand(t, n, D, D)
    rng = random.Random(10 + n)
    for _ in range(150):
        rows = brute.random_rows(rng, n, 2)
        t = brute.eps_delta_ldp(rows, D)
        if t != brute.INF:
            assert brute.eps_delta_dp(rows, D) <= slack_ldp_by_hand(t, n, D, D)


def _certs(r):
    certs = certificates_in(r.details)
    assert certs
    return certs


def test_certificates_rechecked_and_forgeries_rejected():
    cert = _certs(_prove("ldp"))[0]
    assert check_certificate(cert).ok
    parts = cert.get("parts") or [cert]
    winner = next(p for p in parts if p["upper"] != "1")

    def rejected(edit, whole=True):
        bad = copy.deepcopy(cert if whole else winner)
        target = bad if not whole or "parts" not in bad else next(p for p in bad["parts"] if p["upper"] != "1")
        edit(target)
        return not check_certificate(bad, ns=range(2, 6)).ok

    def multiplier(c):
        req = next(iter(c["upper_certificate"]["requirements"].values()))
        key = next(k for k, x in req["multipliers"].items() if x != "0")
        req["multipliers"][key] = f"2*({req['multipliers'][key]})"

    def scale(c):
        req = next(iter(c["upper_certificate"]["requirements"].values()))
        req["scale"] = f"3*({req['scale']})"

    def upper(c):
        c["upper"] = f"({c['upper']}) - 1/100"
    assert rejected(multiplier) and rejected(multiplier, whole=False)
    assert rejected(scale, whole=False)
    assert rejected(upper, whole=False) and rejected(upper)
    if "parts" in cert:     # a piece left out: the others do not cover the domain, or U is not their Piecewise
        short = copy.deepcopy(cert)
        short["parts"] = [p for p in short["parts"] if p is not short["parts"][0]]
        assert not check_certificate(short, ns=range(2, 6)).ok


def test_subset_levels_are_not_tried_yet():
    # (their polygon of 12 sides: see docs/proofs/extreme-points.md) eps-DP keeps its upper bound
    r = _prove("dp")
    assert r.verdict == "proved" and r.method not in (methods.EXTREME_POINTS.name, methods.EXTREME_POINTS_PIECES.name)


@pytest.mark.parametrize("d, da", [(Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 10), Fraction(1, 5)),
                                   (Fraction(1, 4), Fraction(1, 20))])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_hand_formulas_for_other_deltas_by_brute_force(d, da, n):
    # the hand formulas for a general delta (and delta_A): attained at their vertex tables, never exceeded
    for t in LEVELS[1:]:
        rows = _rows(t / (t + 1), n, 1 / (t + 1))
        assert brute.eps_delta_dp(rows, d) == ldp_by_hand(t, n, d)
        rows = _rows((t + da) / (t + 1), n, (1 - da) / (t + 1))
        assert brute.eps_delta_ldp(rows, da) <= t
        assert brute.eps_delta_dp(rows, d) == slack_ldp_by_hand(t, n, d, da)
    rng = random.Random(100 * n + int(1 / d))
    for _ in range(120):
        rows = brute.random_rows(rng, n, rng.choice([2, 3]))
        t = brute.ldp(rows)
        if t != brute.INF:
            assert brute.eps_delta_dp(rows, d) <= ldp_by_hand(t, n, d)
        t = brute.eps_delta_ldp(rows, da)
        if t != brute.INF:
            assert brute.eps_delta_dp(rows, d) <= slack_ldp_by_hand(t, n, d, da)
