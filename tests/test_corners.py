"""Each record within ratio T of the table (local information privacy) against a divergence between two records: the
corners argument, tight where N >= T + 1 and N >= 2 + 2/T (docs/arguments/corners.md).

Hand values at T = 2 (eps = log 2), N = 4: m = (1/3, 1/3, 1/3), x = m (2, 1/2, 1/2) = (2/3, 1/6, 1/6),
y = m (1/2, 2, 1/2) = (1/6, 2/3, 1/6), and the two others at (4 m - x - y)/2 = (1/4, 1/4, 1/2) (ratios 3/4, 3/4, 3/2 to
m, within [1/2, 2]). LIP's level is 2, and

- KL(x || y) = (2/3) log 4 + (1/6) log(1/4) = log 2 = 2 (T - 1) log(T)/T;
- sum x^2/y = (4/9)(6) + (1/36)(3/2) + (1/36)(6) = 8/3 + 1/24 + 1/6 = 23/8 = T^2 - T + 1 - 1/T^2 + 1/T^3 (Renyi 2:
  log(23/8));
- TV(x, y) = (1/2 + 1/2 + 0)/2 = 1/2 = (T - 1)/T;
- the hockey-stick at gamma = 2: (2/3 - 1/3) + 0 + 0 = 1/3 = (T^2 - 2)/(T (T + 1)).

The old bound through lip => ldp (ratio R = T^2 = 4 between two records) was 3 log(4)/5 > log 2 for KL and
(R - 1)/(R + 1) = 3/5 > 1/2 for TV.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

ROWS = [[F(2, 3), F(1, 6), F(1, 6)], [F(1, 6), F(2, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)],
        [F(1, 4), F(1, 4), F(1, 2)]]


def _tv(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in itertools.permutations(rows, 2))


def _hockey(rows, g):
    return max(sum(max(a - g * b, F(0)) for a, b in zip(x, y)) for x, y in itertools.permutations(rows, 2))


def _renyi2_bound(t):
    return t ** 2 - t + 1 - 1 / t ** 2 + 1 / t ** 3


def test_hand_values_of_the_family():
    assert brute.kt(ROWS, 1) == 2
    assert abs(brute.kl_level_float(ROWS, "pairs") - math.log(2)) < 1e-12
    assert brute.renyi_level_sum(ROWS, 2, "pairs") == F(23, 8) == _renyi2_bound(F(2))
    assert _tv(ROWS) == F(1, 2)
    assert _hockey(ROWS, 2) == F(1, 3)


def test_brute_no_table_above_the_bound():
    """Random tables of 4 records over 3 buckets never exceed the corners' values at their own LIP level."""
    rng = random.Random(11)
    seen = 0
    for _ in range(3000):
        rows = brute.random_rows(rng, 4, 3, high=5)
        t = brute.kt(rows, 1)
        if t == brute.INF:
            continue
        seen += 1
        assert _tv(rows) <= (t - 1) / t
        assert _hockey(rows, 2) <= max(t * t - 2, 0) / (t * (t + 1))
        assert brute.renyi_level_sum(rows, 2, "pairs") <= _renyi2_bound(t)
        assert brute.kl_level_float(rows, "pairs") <= 2 * (t - 1) * math.log(t) / t + 1e-12
    assert seen > 300


# (lip => tv-ldp: the same value 1 - 1/T, decided by subset-pairs first, tight for every N: tests/test_subset_pairs.py)
CASES = [("kl-ldp", {}, math.log(2)), ("renyi-ldp", {"alpha": sympy.Integer(2)}, math.log(23 / 8)),
         ("delta-ldp", {"eps": sympy.log(2)}, 1 / 3)]


@pytest.fixture(scope="module")
def results():
    return {b: check_implication("lip", b, b_params=params, max_n=3) for b, params, _ in CASES}


def _at(f, t, n=4):
    eps, N = sympy.Symbol("eps"), sympy.Symbol("N")
    return float(sympy.sympify(str(f), locals={"eps": eps, "N": N}).subs({eps: sympy.log(t), N: n}))


def _first_piece(r):
    """The tight certificate on the box [1/T, T] (the piece T < N - 1 where N T >= 2 T + 2; from T = N - 1 on
    tests/test_corners_narrow.py, few records tests/test_corners_small.py)."""
    return next(c for c in r.details["certificates"] if c["upper_certificate"]["hi"] == "T")


@pytest.mark.parametrize("b,params,hand", CASES)
def test_proved_for_every_n_tight_where_the_family_exists(results, b, params, hand):
    r = results[b]
    assert r.verdict == "proved" and r.method == "corners", (b, r.method)
    assert abs(_at(r.tight, 2) - hand) < 1e-12         # at N = 4, T = 2 <= N - 1
    cert = _first_piece(r)
    assert cert["tight"] and check_certificate(cert).ok
    assert cert["tightness"]["domain"] == ["N >= T + 1", "N*T >= 2*T + 2"]


def _forged(cert, **changes):
    out = copy.deepcopy(cert)
    out.update(changes)
    return out


def test_forgeries_are_rejected(results):
    cert = _first_piece(results["kl-ldp"])
    # U the chord's value of the ratio interval [1/T, T] between x and the mean, not the corners': smaller, no bound
    bad_u = check_certificate(_forged(cert, upper="(T - 1)*log(T)/(T + 1)"))
    assert not bad_u.ok and any("corners' value" in s[0] and not s[1] for s in bad_u.steps)
    # a family whose first record is the second's: its two records are at divergence 0, not U
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][0]["values"] = list(fam["rows"][1]["values"])
    bad_f = check_certificate(_forged(cert, tightness=fam))
    assert not bad_f.ok and any("divergence is V" in s[0] and not s[1] for s in bad_f.steps)
    # B another divergence than the certificate's kind says
    bad_k = check_certificate(_forged(cert, upper_certificate={**cert["upper_certificate"], "kind": "tv"}))
    assert not bad_k.ok and any("declared one" in s[0] and not s[1] for s in bad_k.steps)


def test_the_family_is_no_table_at_level_t_outside_its_domain():
    """At N = 3, T = 3 (N < T + 1) the family's third record is (3 m - x - y)/1 with bucket 1 at
    (1/4)(3 - 3 - 1/3) = -1/12 < 0: no table, so tightness is claimed only where N >= T + 1 and N >= 2 + 2/T."""
    from implgraph.prover.arguments.corners import family_rows
    rows = family_rows(sympy.Integer(3), sympy.Integer(3))
    assert rows[2][0] == 1 and rows[2][1][0] == sympy.Rational(-1, 12)
