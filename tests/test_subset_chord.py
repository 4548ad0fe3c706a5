"""Every j records' mean within ratio T of the table against a class's divergence from the table: the subset-chord
argument, tight for every N (docs/arguments/subset-chord.md, docs/proofs/subset-closeness-chord.md).

Hand values, kt-closeness(k=2) at N = 7, T = 3/2 (j = 2):

- a record's ratio a: the others' mean b = (7 - a)/6 in [2/3, 3/2] gives a in [-2, 3]; the subsets holding it,
  (a + b)/2 = (5 a + 7)/12 in [2/3, 3/2], give a in [1/5, 11/5]; so [lo, hi] = [1/5, 11/5];
- L = (1 - 1/5)/(11/5 - 1/5) = 2/5; record i at (hi L, lo (1 - L)) = (22/25, 3/25), the six others at
  ((7 - 11/5)(2/5)/6, (7 - 1/5)(3/5)/6) = (8/25, 17/25); the table is (2/5, 3/5);
- Renyi 2: sum x^2/P = (22/25)^2 (5/2) + (3/25)^2 (5/3) = 484/250 + 3/125 = 49/25 = hi + lo - hi lo;
- KL: (2/5)(11/5) log(11/5) + (3/5)(1/5) log(1/5) = 0.50071... (the engine's old bound: log(7 - 6/T) = log 3).
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

ROWS = [[F(22, 25), F(3, 25)]] + [[F(8, 25), F(17, 25)]] * 6
KL_HAND = (F(22, 25) * math.log(F(11, 5)) + F(3, 25) * math.log(F(1, 5)))


def _hand_ends(n, j, t):
    """The interval of the module notes, written again here: [lo, hi] of one record's ratio."""
    hi = min(n - (n - 1) / t, (j * t * (n - 1) - (j - 1) * n) / (n - j))
    lo = max(F(0), n - (n - 1) * t, (j * (n - 1) / t - (j - 1) * n) / (n - j))
    return lo, hi


def _kl_chord(lo, hi):
    """L phi(hi) + (1 - L) phi(lo) for phi(r) = r log r (0 log 0 = 0)."""
    return ((1 - lo) * hi * math.log(hi) + ((hi - 1) * lo * math.log(lo) if lo else 0)) / (hi - lo)


def test_hand_values_of_the_family():
    assert _hand_ends(7, 2, F(3, 2)) == (F(1, 5), F(11, 5))
    assert brute.kt(ROWS, 2) == F(3, 2)
    singletons = list(range(7))
    assert brute.renyi_level_sum(ROWS, 2, "class", singletons) == F(49, 25)
    assert abs(brute.kl_level_float(ROWS, "class", singletons) - KL_HAND) < 1e-12
    assert abs(KL_HAND - 0.50071) < 1e-4 and KL_HAND < math.log(3)


@pytest.mark.parametrize("j_of", [lambda n: 2, lambda n: n - 2])
def test_brute_no_table_above_the_chord(j_of):
    """Random tables (N = 4..6, 2 or 3 buckets, every record its own class: the worst partition) never exceed the
    chord on the hand interval at their own subset level."""
    rng = random.Random(7)
    seen = 0
    for _ in range(1500):
        n = rng.randint(4, 6)
        j = j_of(n)
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=6)
        t = brute.kt(rows, j)
        if t == brute.INF or t == 1:
            continue
        seen += 1
        lo, hi = _hand_ends(n, j, t)
        classes = list(range(n))
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= hi + lo - hi * lo
        assert brute.kl_level_float(rows, "class", classes) <= _kl_chord(lo, hi) + 1e-12
    assert seen > 300


CASES = [("kt-closeness", {"k": sympy.Integer(2)}, "kl-closeness", {}),
         ("kt-closeness", {"k": sympy.Integer(2)}, "renyi-closeness", {"alpha": sympy.Integer(2)}),
         ("kdp", {"k": sympy.Integer(2)}, "kl-closeness", {}),
         ("kdp", {"k": sympy.Integer(2)}, "renyi-closeness", {"alpha": sympy.Integer(2)})]


@pytest.fixture(scope="module")
def results():
    return {(a, b): check_implication(a, b, a_params=ap, b_params=bp, max_n=3) for a, ap, b, bp in CASES}


def _at(f, n, t, eps=False):
    """f (the engine's, in t or eps) at N = n and raw level t."""
    names = {"N": sympy.Symbol("N", integer=True), "t": sympy.Symbol("t", positive=True),
             "eps": sympy.Symbol("eps", positive=True)}
    expr = sympy.sympify(str(f), locals=names)
    point = {names["N"]: n, names["eps"]: sympy.log(t)} if eps else {names["N"]: n, names["t"]: t}
    return float(expr.subs(point))


@pytest.mark.parametrize("a,ap,b,bp", CASES)
def test_proved_tight_for_every_n_and_rechecked(results, a, ap, b, bp):
    r = results[(a, b)]
    assert r.verdict == "proved" and r.method == "subset-chord", (a, b, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    # at N = 7, T = 3/2 the hand values (kt(2)); kdp(2) at N = 4 is the same definition (j = 2 = N - 2)
    n = 7 if a == "kt-closeness" else 4
    lo, hi = _hand_ends(n, 2 if a == "kt-closeness" else n - 2, F(3, 2))
    hand = math.log(hi + lo - hi * lo) if b.startswith("renyi") else _kl_chord(lo, hi)
    assert abs(_at(r.tight, n, F(3, 2), eps=a == "kdp") - hand) < 1e-12


def _forged(cert, **changes):
    out = copy.deepcopy(cert)
    out.update(changes)
    return out


def _failed(report, words):
    return not report.ok and any(words in s[0] and not s[1] for s in report.steps)


def test_forgeries_are_rejected(results):
    cert = results[("kt-closeness", "renyi-closeness")].details["certificate"]
    data = cert["upper_certificate"]
    # the engine's old, larger interval [0, N - (N - 1)/T]: not the lemma's ends
    assert _failed(check_certificate(_forged(cert, upper_certificate={**data, "lo": "0",
                                                                       "hi": "(N*T - N + 1)/T"})), "lo is Max")
    # U with the subsets' end dropped from hi: larger than the chord's value on the lemma's interval
    assert _failed(check_certificate(_forged(cert, upper=cert["upper"].replace("Min(", "Max(", 1))), "U is 0 at T = 1")
    # a size the registry does not declare for kt-closeness(k=2)
    assert not check_certificate(_forged(cert, upper_certificate={**data, "size": "3"})).ok
    # a family whose record i sits with the others: its class is not at U
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][0]["value"] = fam["rows"][1]["value"]
    assert _failed(check_certificate(_forged(cert, tightness=fam)), "ratios hi and lo")
    # a domain that lets the size reach N (no subset avoids a record there)
    assert _failed(check_certificate(_forged(cert, domain=["T > 0", "T >= 1", "N >= 2"])), "2 <= N - 1")
