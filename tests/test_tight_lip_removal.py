"""LIP (each record within ratio T of the table) against record removal's KL and Renyi divergences: the chord on the
narrowed interval of Q_i/P, tight for every N (docs/proofs/tight-lip-removal.md).

Hand values: Q_i/P = (N - x_i/P)/(N - 1) with x_i/P in [1/T, T], and Q_i/P >= 1/T (a mean of the others), so Q_i/P
lies in [max((N - T)/(N - 1), 1/T), (N - 1/T)/(N - 1)]. Two buckets at those ends with the table's mass
L = (1 - lo)/(hi - lo) at hi: one record at N P - (N - 1) Q, N - 1 at Q.

- N = 3, T = 2: [1/2, 5/4], L = 2/3: P = (2/3, 1/3), Q = (5/6, 1/6), the removed record (1/3, 2/3). LIP's level 2;
  KL(P || Q) = (2/3) log(4/5) + (1/3) log 2 (larger than KL(Q || P)); exp(D_2(P || Q)) = 8/15 + 2/3 = 6/5 (Q || P:
  9/8). The old bounds (T - 1) log T/(T + 1) = log(2)/3 and T - 1 + 1/T = 3/2 are not reached.
- N = 3, T = 3: [1/3, 4/3], L = 2/3: P = (2/3, 1/3), Q = (8/9, 1/9), the removed record (2/9, 7/9); exp(D_2(P || Q))
  = 1/2 + 1 = 3/2 (Q || P: 11/9).
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

# (N, T, rows, KL level by hand, exp(D_2) level by hand)
HAND = [
    (3, F(2), [[F(1, 3), F(2, 3)], [F(5, 6), F(1, 6)], [F(5, 6), F(1, 6)]],
     2 / 3 * math.log(4 / 5) + math.log(2) / 3, F(6, 5)),
    (3, F(3), [[F(2, 9), F(7, 9)], [F(8, 9), F(1, 9)], [F(8, 9), F(1, 9)]],
     None, F(3, 2)),
]


@pytest.mark.parametrize("n,t,rows,kl,r2", HAND)
def test_hand_values_family(n, t, rows, kl, r2):
    assert brute.kt(rows, 1) == t                       # lip's level
    assert brute.renyi_level_sum(rows, 2, "removal") == r2
    if kl is not None:
        assert abs(brute.kl_level_float(rows, "removal") - kl) < 1e-12


def test_brute_no_table_above_the_bound():
    """Random tables of 3 records at LIP level <= 2 never exceed exp(D_2) = 6/5 (the narrowed chord's value)."""
    rng = random.Random(7)
    seen = 0
    for _ in range(4000):
        rows = brute.random_rows(rng, 3, 2, high=6)
        if brute.kt(rows, 1) <= 2:
            seen += 1
            assert brute.renyi_level_sum(rows, 2, "removal") <= F(6, 5)
    assert seen > 50


@pytest.fixture(scope="module")
def results():
    return {"kl": check_implication("lip", "kl-dp", max_n=3),
            "r2": check_implication("lip", "renyi-dp", b_params=TWO, max_n=3)}


def _at(f, n, t):
    eps, N = sympy.Symbol("eps"), sympy.Symbol("N")
    f = sympy.sympify(str(f), locals={"eps": eps, "N": N})
    return float(f.subs({N: n, eps: sympy.log(t)}))


@pytest.mark.slow
def test_tight_for_every_n(results):
    for key, r in results.items():
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chord", key
        certs = r.details["certificates"]
        assert len(certs) == 2 and all(c["tight"] and check_certificate(c).ok for c in certs)
    assert abs(_at(results["kl"].tight, 3, 2) - HAND[0][3]) < 1e-12
    assert abs(_at(results["r2"].tight, 3, 2) - math.log(6 / 5)) < 1e-12
    assert abs(_at(results["r2"].tight, 3, 3) - math.log(3 / 2)) < 1e-12
    assert _at(results["kl"].tight, 3, 2) < math.log(2) / 3        # below the old eps tanh(eps/2)


@pytest.mark.slow
def test_forged_rejected(results):
    for key in ("kl", "r2"):
        cert = next(c for c in results[key].details["certificates"] if "T <= N - 1" in c["domain"])
        bad = copy.deepcopy(cert)
        bad["domain"] = [c for c in bad["domain"] if c != "T <= N - 1"]     # lower end (N - T)/(N - 1) needs it
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["upper_certificate"]["hi"] = "T"                                # not the narrowed interval
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["tightness"]["rows"][1]["value"] = "1/(T + 1)"                  # not the attaining table
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["upper"] = "log(T)/(N + 1)" if key == "kl" else "log(1 + 1/(N*T))"   # below the family's level
        assert not check_certificate(bad).ok
