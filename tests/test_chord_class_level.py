"""A two-sided class level on B's partition (mult-t-closeness at t, delta-disclosure-privacy at T = e^delta) against
a class's KL or Renyi-2 divergence from the table: tight for every N, piece by piece in T
(implgraph.prover.removal_record_class; docs/proofs/tight-one-sided-chord.md).

Hand values: the records outside a class of s records are a union of classes, each of mean ratio >= 1/T, so the
class's ratio r satisfies s r + (N - s)/T <= N: r <= (N - (N - s)/T)/s, widest at s = 1, h = N - (N - 1)/T (the gap
N (s - 1)(1 - 1/T)/s >= 0). So the same pieces as each record against the table: T <= N - 1, the chord on [1/T, T]
(KL (T - 1) log(T)/(T + 1), Renyi-2 log(T - 1 + 1/T)); T > N - 1, on [1/T, h], mass 1/N at h (KL
(h log h - (N - 1) log(T)/T)/N, Renyi-2 log((h^2 + (N - 1)/T^2)/N)). At N = 3, t = 3: KL (7/9) log(7/3) - (2/9) log 3,
Renyi-2 log(17/9); at N = 4, t = 2 (the first piece): KL log(2)/3, Renyi-2 log(3/2).

The attaining table beyond N - 1: one record at (h/N, (N - 1)/(N T)) alone in E1, N - 1 at (1/(N T), 1 - 1/(N T)) in
E2: tests/brute.py's mult_t and delta_disclosure_ratio give T (E1's ratios h <= T and 1/T, E2's 1/T and
(N T - 1)/((N - 1) T)).
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

TWO = {"alpha": sympy.Integer(2)}
PAIRS = [("mult-t-closeness", "kl-closeness", {}), ("mult-t-closeness", "renyi-closeness", TWO),
         ("delta-disclosure-privacy", "kl-closeness", {}), ("delta-disclosure-privacy", "renyi-closeness", TWO)]


@pytest.fixture(scope="module")
def proved():
    return {(a, b): check_implication(a, b, b_params=p, max_n=3) for a, b, p in PAIRS}


def _hand(b, n, t):
    h = n - (n - 1) / t
    if b == "kl-closeness":
        return (t - 1) * math.log(t) / (t + 1) if t <= n - 1 else (h * math.log(h) - (n - 1) * math.log(t) / t) / n
    return math.log(t - 1 + 1 / t) if t <= n - 1 else math.log((h * h + (n - 1) / t ** 2) / n)


def test_the_points_by_hand():
    assert _hand("kl-closeness", 3, 3) == pytest.approx(7 / 9 * math.log(7 / 3) - 2 / 9 * math.log(3))
    assert _hand("renyi-closeness", 3, 3) == pytest.approx(math.log(17 / 9))
    assert _hand("kl-closeness", 4, 2) == pytest.approx(math.log(2) / 3)
    assert _hand("renyi-closeness", 4, 2) == pytest.approx(math.log(1.5))


@pytest.mark.parametrize("a,b,params", PAIRS)
def test_tight_for_every_n_piece_by_piece(proved, a, b, params):
    r = proved[(a, b)]
    assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
    assert isinstance(r.tight, sympy.Piecewise) and len(r.tight.args) == 2 and not r.tight.has(sympy.Min, sympy.Max)
    names = {s.name: s for s in r.tight.free_symbols}
    for n, t in ((2, F(2)), (3, F(3)), (4, F(2)), (5, F(7)), (6, F(11, 2))):
        level = sympy.Rational(t) if "t" in names else sympy.log(sympy.Rational(t))
        at = {names["N"]: n, names.get("t", names.get("delta")): level}
        assert float(r.tight.subs(at)) == pytest.approx(_hand(b, n, float(t)), rel=1e-12)
    assert r.details["certificates"] and all(check_certificate(c).ok for c in r.details["certificates"])


@pytest.mark.parametrize("n,t", [(2, F(3, 2)), (3, F(3)), (4, F(4)), (5, F(9, 2))])
def test_the_attaining_table_beyond_n_minus_one(n, t):
    h = n - (n - 1) / t
    rows = [[h / n, 1 - h / n]] + [[1 / (n * t), 1 - 1 / (n * t)]] * (n - 1)
    classes = ["E1"] + ["E2"] * (n - 1)
    assert brute.mult_t(rows, classes) == t and brute.delta_disclosure_ratio(rows, classes) == t
    P = [sum(r[l] for r in rows) / n for l in range(2)]
    assert math.fsum(float(rows[0][l]) * math.log(rows[0][l] / P[l]) for l in range(2)) == \
        pytest.approx(_hand("kl-closeness", n, float(t)), rel=1e-12)
    assert math.log(sum(float(rows[0][l] ** 2 / P[l]) for l in range(2))) == \
        pytest.approx(_hand("renyi-closeness", n, float(t)), rel=1e-12)


def test_a_forged_narrow_end_is_rejected(proved):
    for r in proved.values():
        (cert,) = [c for c in r.details["certificates"] if c["upper_certificate"]["hi"] == "N - (N - 1)/T"]
        assert check_certificate(cert).ok
        assert not check_certificate(edited(cert, ["upper_certificate", "hi"], "N - N/T")).ok
        assert not check_certificate(edited(cert, ["domain"], [d for d in cert["domain"] if d != "T > N - 1"])).ok
        assert not check_certificate(edited(cert, ["B", "min_class"], "2")).ok     # not A's classes
