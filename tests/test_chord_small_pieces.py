"""The divergence definitions against the ratio definitions where a piece was missing: dp (record removal) against a
class's KL / Renyi-2 divergence and against the removal total variation / hockey-stick at N = 2 (and beyond
N/(N - 1)), basic beta-likeness (a one-sided class level) against a class's KL / Renyi-2 divergence for every beta,
kt-closeness(k=2) stated at N >= 3 only (implgraph.prover.removal_record_class, removal_supremum).

Hand values (T the raw level: e^eps for dp, beta + 1 for basic beta-likeness):

- dp at N = 2: removing one record leaves the other, x_1 = Q_2, so x_1/P in [1/T, T] and x_1/P = 2 - x_2/P <= 2 - 1/T:
  a class's ratio lies in [1/T, 2 - 1/T], symmetric about 1, so the chord's mass at each end is 1/2. Renyi-2:
  exp(D) = (hi^2 + lo^2)/2 = 2 - 2/T + 1/T^2 (T = 3/2: 10/9; T = 3: 13/9); KL ((2 - 1/T) ln(2 - 1/T) - ln(T)/T)/2.
  Attained by x_1 = (1 - 1/(2T), 1/(2T)), x_2 = (1/(2T), 1 - 1/(2T)) in two classes (P = (1/2, 1/2)).
- dp against the removal total variation: Q_i/P lies in [1/T, 2 - 1/T] at N = 2, in [1/T, N/(N - 1)] for N >= 3
  beyond T = N/(N - 1) (x_i = N P - (N - 1) Q_i >= 0); the chord (1 - lo)(hi - 1)/(hi - lo) is (T - 1)/(2 T) at N = 2
  (T = 3: 1/3) and (T - 1)/(N T - N + 1) there (N = 3, T = 2: 1/4). The hockey-stick at gamma = 2: the larger chord
  both ways, max(0, L (hi - 2), (1 - L)(1 - 2 lo)): at N = 2 (T - 2)/(2 T) (T = 3: 1/6).
- basic beta-likeness: a class of s records has ratio (N - the rest's)/s, the rest a union of classes each <= T, so
  >= (N - (N - s) T)/s >= N - (N - 1) T, and <= N/s <= N. Renyi-2 on [N - (N - 1) T, T] (mass (N - 1)/N at T):
  exp(D) = T + lo - T lo = (N - 1)(T - 1)^2 + 1 (N = 3, T = 5/4: 9/8); on [0, T]: T; on [0, N]: N (N = 3, T = 4: 3,
  below the chord on [0, T], 4).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import pytest
import sympy

import brute
from _coq import load_certs
from _forge import edited
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

CERTS = load_certs("chord_small.json")
R2 = {"alpha": sympy.Integer(2)}


def _at(f, n, **level):
    names = {s.name: s for s in f.free_symbols}
    return float(f.subs({names["N"]: n, **{names[k]: v for k, v in level.items()}}))


def _grid(n, den, labels):
    """Every table of ``n`` records over two buckets with values in 1/den, under each labelling."""
    points = [[F(a, den), 1 - F(a, den)] for a in range(den + 1)]
    for rows in itertools.combinations_with_replacement(points, n):
        for classes in labels:
            yield [list(r) for r in rows], classes


def _tv_removal(rows, gamma=None):
    """The largest removal total variation (gamma None) or hockey-stick at gamma both ways, exactly."""
    n, best = len(rows), F(0)
    P = [brute.mean(rows, range(n), l) for l in range(2)]
    for i in range(n):
        Q = [brute.mean(rows, [j for j in range(n) if j != i], l) for l in range(2)]
        if gamma is None:
            best = max(best, sum(abs(p - q) for p, q in zip(P, Q)) / 2)
        else:
            best = max(best, sum(max(p - gamma * q, 0) for p, q in zip(P, Q)),
                       sum(max(q - gamma * p, 0) for p, q in zip(P, Q)))
    return best


@pytest.mark.parametrize("t", [F(3, 2), F(3), F(5, 4)])
def test_dp_at_two_records_by_hand(t):
    rows = [[1 - 1 / (2 * t), 1 / (2 * t)], [1 / (2 * t), 1 - 1 / (2 * t)]]
    assert brute.dp(rows) == t
    assert brute.renyi_level_sum(rows, 2, "class", ["E1", "E2"]) == 2 - 2 / t + 1 / t ** 2
    hi, lo = 2 - 1 / float(t), 1 / float(t)
    kl = (hi * math.log(hi) + lo * math.log(lo)) / 2
    assert brute.kl_level_float(rows, "class", ["E1", "E2"]) == pytest.approx(kl)
    # no table of two records at dp level <= T above it (a grid of 1/12)
    top = max(brute.renyi_level_sum(r, 2, "class", c) for r, c in _grid(2, 12, [["E1", "E2"]]) if brute.dp(r) <= t)
    assert top <= 2 - 2 / t + 1 / t ** 2


def test_dp_into_class_divergences_tight_for_every_n():
    for b, params, hand in (("kl-closeness", None, lambda t: ((2 - 1 / t) * math.log(2 - 1 / t) - math.log(t) / t) / 2),
                            ("renyi-closeness", R2, lambda t: math.log(2 - 2 / t + 1 / t ** 2))):
        r = check_implication("dp", b, b_params=params, max_n=3)
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
        for t in (1.5, 3.0):
            assert _at(r.tight, 2, eps=math.log(t)) == pytest.approx(hand(t), rel=1e-12)
        assert all(check_certificate(c).ok for c in r.details["certificates"])


def test_dp_into_removal_tv_and_hockey_by_hand():
    two = [[F(5, 6), F(1, 6)], [F(1, 6), F(5, 6)]]       # N = 2, T = 3
    assert brute.dp(two) == 3 and _tv_removal(two) == F(1, 3) and _tv_removal(two, 2) == F(1, 6)
    three = [[F(0), F(1)], [F(3, 4), F(1, 4)], [F(3, 4), F(1, 4)]]      # N = 3, T = 2: Q_1/P = (3/2, 1/2)
    assert brute.dp(three) == 2 and _tv_removal(three) == F(1, 4)
    top = max(_tv_removal(r) for r, _ in _grid(2, 12, [None]) if brute.dp(r) <= 3)
    assert top == F(1, 3)


def test_dp_into_removal_tv_and_hockey_tight_for_every_n():
    tv = check_implication("dp", "tv-dp", max_n=3)
    hs = check_implication("dp", "delta-dp", b_params={"eps": sympy.log(2)}, max_n=3)
    for r in (tv, hs):
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
        assert all(check_certificate(c).ok for c in r.details["certificates"])
    assert _at(tv.tight, 2, eps=math.log(3)) == pytest.approx(1 / 3)
    assert _at(tv.tight, 3, eps=math.log(2)) == pytest.approx(1 / 4)
    assert _at(tv.tight, 5, eps=math.log(1.1)) == pytest.approx(0.1 / 2.1)      # (T - 1)/(T + 1) below the cut
    assert _at(hs.tight, 2, eps=math.log(3)) == pytest.approx(1 / 6)


@pytest.mark.parametrize("n,t,rows,classes,power", [
    (3, F(5, 4), [[F(5, 6), F(1, 6)], [F(7, 12), F(5, 12)], [F(7, 12), F(5, 12)]], ["E1", "E2", "E2"], F(9, 8)),
    (2, F(5, 4), [[F(5, 8), F(3, 8)], [F(3, 8), F(5, 8)]], ["E1", "E2"], F(17, 16)),
    (3, F(4), [[F(1), F(0)], [F(0), F(1)], [F(0), F(1)]], ["E1", "E2", "E2"], F(3)),
])
def test_basic_beta_likeness_families_by_hand(n, t, rows, classes, power):
    assert brute.basic_beta_likeness(rows, classes) + 1 <= t
    assert brute.renyi_level_sum(rows, 2, "class", classes) == power
    labels = [["E1"] + ["E2"] * (n - 1), ["E1", "E1"] + ["E2"] * (n - 2)] if n > 2 else [["E1", "E2"]]
    top = max(brute.renyi_level_sum(r, 2, "class", c) for r, c in _grid(n, 12, labels)
              if brute.basic_beta_likeness(r, c) + 1 <= t)
    assert top <= power


def test_basic_beta_likeness_tight_for_every_beta():
    kl = check_implication("basic-beta-likeness", "kl-closeness", max_n=3)
    r2 = check_implication("basic-beta-likeness", "renyi-closeness", b_params=R2, max_n=3)
    for r in (kl, r2):
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
        assert len(r.details["certificates"]) == 3 and all(check_certificate(c).ok for c in r.details["certificates"])
    assert _at(r2.tight, 3, beta=0.25) == pytest.approx(math.log(9 / 8))
    assert _at(r2.tight, 3, beta=1) == pytest.approx(math.log(2))
    assert _at(r2.tight, 3, beta=3) == pytest.approx(math.log(3))        # log N, not log(beta + 1)
    assert _at(kl.tight, 3, beta=3) == pytest.approx(math.log(3))
    # KL on [N - (N - 1) T, T], mass (N - 1)/N at T: ((N - 1) T ln T + lo ln lo)/N at N = 3, T = 5/4, lo = 1/2
    assert _at(kl.tight, 3, beta=0.25) == pytest.approx((2 * 1.25 * math.log(1.25) + 0.5 * math.log(0.5)) / 3)


def test_kt_two_is_tight_wherever_it_is_stated():
    for b, params in (("kl-dp", None), ("kl-closeness", None), ("tv-dp", None)):
        r = check_implication("kt-closeness", b, a_params={"k": sympy.Integer(2)}, b_params=params, max_n=4)
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_pieces_are_accepted(name):
    assert check_certificate(CERTS[name]).ok


def _without(cert, condition):
    return edited(cert, ["domain"], [d for d in cert["domain"] if d != condition])


FORGED = [
    # the N = 2 interval claimed for every N (at N = 3 a record's ratio reaches N - (N - 1)/T > 2 - 1/T)
    ("dp => kl-closeness on [1/T, 2 - 1/T]", lambda c: _without(c, "N <= 2")),
    ("dp => tv-dp on [1/T, 2 - 1/T]", lambda c: _without(c, "N <= 2")),
    ("dp => renyi-closeness(alpha=2) on [1/T, 2 - 1/T]", lambda c: edited(c, ["upper_certificate", "hi"], "2 - 2/T")),
    # basic beta-likeness: the narrowed ends where the domain does not state their piece
    ("basic-beta-likeness => kl-closeness on [N - T*(N - 1), T]", lambda c: _without(c, "T < N/(N - 1)")),
    ("basic-beta-likeness => renyi-closeness(alpha=2) on [0, N]", lambda c: _without(c, "T > N")),
    # U below the chord's value, which the family attains
    ("dp => tv-dp on [1/T, N/(N - 1)]", lambda c: edited(c, ["upper"], "(T - 1)/(N*T)")),
    ("dp => delta-dp(eps=log(2)) on [1/T, 2 - 1/T]", lambda c: edited(c, ["upper"], "Max(0, (T - 2)/(3*T))")),
    ("basic-beta-likeness => renyi-closeness(alpha=2) on [N - T*(N - 1), T]",
     lambda c: edited(c, ["upper"], f"({c['upper']})*9/10")),
]


@pytest.mark.parametrize("name,forge", FORGED, ids=[n for n, _ in FORGED])
def test_forged_pieces_are_rejected(name, forge):
    assert not check_certificate(forge(CERTS[name])).ok
