"""A one-sided subset level of size j (pml: j = 1) against the total variation, and the hockey-stick at gamma = 2,
between two records: min(1, j (T - 1)) (docs/arguments/one-sided-pairs.md).

Hand values (pml, each record at most T times the table in every bucket, nothing below):

- N = 2, T = 3/2: U = 1/2. Records (3/4, 1/4) and (1/4, 3/4): the table is (1/2, 1/2), the largest ratio 3/2, the
  total variation 1/2. The bound: x_i(S) <= T P(S) and x_k(S^c) <= T P(S^c), so
  x_i(S) - x_k(S) = x_i(S) + x_k(S^c) - 1 <= T - 1.
- N = 3, T = 2: U = 1. Records (1, 0), (0, 1), (1/2, 1/2): the table is (1/2, 1/2), ratio 2; total variation 1 and
  hockey-stick at gamma = 2 of (1, 0) against (0, 1) also 1 (1 - 2 * 0).
- The hockey-stick at gamma = 2 is not claimed attained where T < 2: at N = 2, x_1(S) <= T (x_1(S) + x_2(S))/2 gives
  x_1(S) <= T/(2 - T) x_2(S) <= 2 x_2(S) for T <= 4/3, so every table of two records at pml level <= 4/3 has
  hockey-stick 0 while U = T - 1 > 0.
"""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

PML_2 = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
PML_3 = [[F(1), F(0)], [F(0), F(1)], [F(1, 2), F(1, 2)]]


def _events(m):
    return [S for r in range(m + 1) for S in itertools.combinations(range(m), r)]


def _hockey(rows, g):
    """The largest x_i(S) - g x_k(S) over ordered pairs and events (0 at S empty); g = 1: the total variation."""
    m = len(rows[0])
    return max(sum(x[l] for l in S) - g * sum(y[l] for l in S)
               for x, y in itertools.permutations(rows, 2) for S in _events(m))


def test_hand_values_of_the_family():
    assert brute.subset_upper(PML_2, 1) == F(3, 2) and _hockey(PML_2, 1) == F(1, 2)
    assert brute.subset_upper(PML_3, 1) == 2 and _hockey(PML_3, 1) == 1 and _hockey(PML_3, 2) == 1


def test_brute_no_table_above_the_bound():
    rng = random.Random(11)
    for _ in range(1500):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=5)
        t = brute.subset_upper(rows, 1)
        assert _hockey(rows, 1) <= min(F(1), t - 1)
        assert _hockey(rows, 2) <= min(F(1), t - 1)


def test_hockey_stick_below_the_bound_on_two_records_where_t_is_small():
    rng = random.Random(5)
    seen = 0
    for _ in range(3000):
        rows = brute.random_rows(rng, 2, rng.randint(2, 3), high=6)
        t = brute.subset_upper(rows, 1)
        if 1 < t <= F(4, 3):
            seen += 1
            assert _hockey(rows, 2) == 0 < t - 1
    assert seen > 20


B_TV, B_HS = "tv-ldp", "delta-ldp"
HS_PARAMS = {"eps": sympy.log(2)}


@pytest.fixture(scope="module")
def results():
    return {B_TV: check_implication("pml", B_TV, max_n=3),
            B_HS: check_implication("pml", B_HS, b_params=HS_PARAMS, max_n=3)}


def _f_at(r, n, t):
    names = {"N": sympy.Symbol("N", integer=True), "t": sympy.Symbol("t", positive=True),
             "eps": sympy.Symbol("eps", positive=True)}
    f = sympy.sympify(str(r.tight), locals=names)
    return f.subs({names["N"]: n, names["t"]: t, names["eps"]: sympy.log(t)})


@pytest.mark.parametrize("b,n,t,hand", [(B_TV, 2, F(3, 2), F(1, 2)), (B_TV, 3, F(2), F(1)),
                                        (B_HS, 3, F(2), F(1)), (B_HS, 5, F(3), F(1))])
def test_proved_and_rechecked(results, b, n, t, hand):
    r = results[b]
    assert r.verdict == "proved" and r.method == "one-sided-pairs", (b, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    domain = (cert.get("tightness") or {}).get("domain")
    assert domain == (None if b == B_TV else ["T >= 2"])
    assert sympy.simplify(_f_at(r, n, t) - hand) == 0


def _failed(report, words):
    return not report.ok and any(words in s[0] and not s[1] for s in report.steps)


def test_forgeries_are_rejected(results):
    cert = results[B_TV].details["certificate"]
    assert _failed(check_certificate({**cert, "upper": "Min(1, (T - 1)/2)"}), "U is min")
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][1]["value"] = fam["rows"][0]["value"]          # records i and k equal: TV 0, not U
    assert _failed(check_certificate({**cert, "tightness": fam}), "total variation U")
    assert _failed(check_certificate({**cert, "upper_certificate": {**cert["upper_certificate"], "size": "2"}}),
                   "data")
    hs = results[B_HS].details["certificate"]
    fam = {k: v for k, v in hs["tightness"].items() if k != "domain"}     # tight everywhere: false below T = 2
    assert _failed(check_certificate({**hs, "tightness": fam}), "family's domain")
    assert _failed(check_certificate({**hs, "upper_certificate": {**hs["upper_certificate"], "gamma": "1"}}), "data")
    two_sided = {**cert, "A": {**cert["A"], "sides": "two-sided"}}
    assert not check_certificate(two_sided).ok
