"""Each record within [1/T, T] of the table (lip) against a class's KL or Renyi-2 divergence from the table: tight for
every N, piece by piece in T (implgraph.prover.removal_record_class).

Hand values: a record's ratio a = x_i(l)/P_l is N minus the others' N - 1 ratios, each >= 1/T, so
a <= h = N - (N - 1)/T; h <= T exactly where T >= N - 1 ((T - 1)(T - (N - 1)) >= 0). The chord of phi on [1/T, hi]
has mass L = (1 - 1/T)/(hi - 1/T) at hi: L = 1/(T + 1) for hi = T, L = 1/N for hi = h. So

- T <= N - 1: KL (T - 1) log(T)/(T + 1) (at T = 2: log(2)/3), Renyi-2 log(T - 1 + 1/T) (at T = 2: log(3/2));
- T >= N - 1: KL (h log h + (N - 1) log(1/T)/T)/N, Renyi-2 log((h^2 + (N - 1)/T^2)/N). At N = 3, T = 3: h = 7/3, KL
  (7/9) log(7/3) - (2/9) log 3, Renyi-2 log(17/9); at N = 2, T = 2: h = 3/2, KL (3/4) log(3/2) - (1/4) log 2,
  Renyi-2 log(5/4).

The attaining table beyond N - 1: P = (1/N, (N - 1)/N), one record at (h/N, (N - 1)/(N T)) in class E1, the N - 1
others at (1/(N T), 1 - 1/(N T)) in E2; lip's level (tests/brute.py's kt at k = 1) is T and E1's divergence the
chord's.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
import sympy

import brute
from _forge import edited
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication


@pytest.fixture(scope="module")
def proved():
    return {"kl": check_implication("lip", "kl-closeness", max_n=3),
            "renyi2": check_implication("lip", "renyi-closeness", b_params={"alpha": sympy.Integer(2)}, max_n=3)}


def _kl_hand(n, t):
    h = n - (n - 1) / t
    if t <= n - 1:
        return (t - 1) * math.log(t) / (t + 1)
    return (h * math.log(h) + (n - 1) * math.log(1 / t) / t) / n


def _renyi2_hand(n, t):
    h = n - (n - 1) / t
    return math.log(t - 1 + 1 / t) if t <= n - 1 else math.log((h * h + (n - 1) / t ** 2) / n)


def _tight_at(r, n, t):
    f = r.tight
    names = {s.name: s for s in f.free_symbols}
    return float(f.subs({names["N"]: n, names["eps"]: sympy.log(sympy.Rational(t))}))


def test_the_points_by_hand():
    assert _kl_hand(5, 2) == pytest.approx(math.log(2) / 3)
    assert _kl_hand(3, 3) == pytest.approx(7 / 9 * math.log(7 / 3) - 2 / 9 * math.log(3))
    assert _kl_hand(2, 2) == pytest.approx(0.75 * math.log(1.5) - 0.25 * math.log(2))
    assert _renyi2_hand(5, 2) == pytest.approx(math.log(1.5))
    assert _renyi2_hand(3, 3) == pytest.approx(math.log(17 / 9))
    assert _renyi2_hand(2, 2) == pytest.approx(math.log(5 / 4))


def test_tight_for_every_n_piece_by_piece(proved):
    for key, hand in (("kl", _kl_hand), ("renyi2", _renyi2_hand)):
        r = proved[key]
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
        assert isinstance(r.tight, sympy.Piecewise) and len(r.tight.args) == 2       # two pieces, no Min/Max
        assert not r.tight.has(sympy.Min, sympy.Max)
        for n, t in ((2, 2), (2, 5), (3, 3), (3, 2), (5, 2), (5, 4), (5, 7), (10, F(3, 2))):
            assert _tight_at(r, n, t) == pytest.approx(hand(n, float(t)), rel=1e-12)


def _table(n, t):
    h = n - (n - 1) / t
    one, other = h / n, 1 / (n * t)
    return [[one, 1 - one]] + [[other, 1 - other]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n,t", [(2, F(2)), (2, F(5, 4)), (3, F(3)), (3, F(2)), (4, F(5)), (6, F(11, 2))])
def test_the_attaining_table_beyond_n_minus_one(n, t):
    rows, classes = _table(n, t)
    assert brute.kt(rows, 1) == t                 # lip's level: every record against the table within [1/T, T]
    P = [sum(r[l] for r in rows) / n for l in range(2)]
    x = rows[0]                                   # E1 is the first record alone
    kl = sum(float(x[l]) * math.log(x[l] / P[l]) for l in range(2))
    r2 = math.log(sum(float(x[l] ** 2 / P[l]) for l in range(2)))
    assert kl == pytest.approx(_kl_hand(n, float(t)), rel=1e-12)
    assert r2 == pytest.approx(_renyi2_hand(n, float(t)), rel=1e-12)


def test_below_n_minus_one_the_family_exceeds_a():
    # at T < N - 1 the record's ratio h = N - (N - 1)/T exceeds T (6 - 5/(9/2) = 44/9 > 9/2): the other piece's
    rows, _ = _table(6, F(9, 2))
    assert brute.kt(rows, 1) == F(44, 9)


def _narrow(r):
    (cert,) = [c for c in r.details["certificates"] if c["upper_certificate"]["hi"] == "N - (N - 1)/T"]
    return cert


def test_every_certificate_is_accepted(proved):
    for r in proved.values():
        assert r.details["certificates"] and all(check_certificate(c).ok for c in r.details["certificates"])
        assert "T > N - 1" in _narrow(r)["domain"]


def test_a_forged_narrow_end_is_rejected(proved):
    for r in proved.values():
        cert = _narrow(r)
        # a smaller end than the others' records allow (one record at ratio N - (N - 1)/T is a table satisfying A)
        assert not check_certificate(edited(cert, ["upper_certificate", "hi"], "N - N/T")).ok
        # the narrowed end claimed where T < N - 1 (there it is above T: not the interval A confines to)
        assert not check_certificate(edited(cert, ["domain"], [d for d in cert["domain"] if d != "T > N - 1"])).ok
        assert not check_certificate(edited(cert, ["domain"], [*cert["domain"][:-1], "T > N - 2"])).ok
        # U below the chord's value, which the family attains
        assert not check_certificate(edited(cert, ["upper"], f"({cert['upper']})*9/10")).ok
