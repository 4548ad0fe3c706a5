"""The ``ceiling-chord`` argument: a class's total variation distance from the table bounds its KL and Renyi-2
divergence (ratios at most N); values by hand and by tests/brute.py."""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction

import pytest

from implgraph.certify import check_certificate
from implgraph.core.formula import Word
from implgraph.engines.prove import check_implication

import brute


def _tv(x, y):
    return sum(abs(a - b) for a, b in zip(x, y)) / 2


def _class_tv(rows, classes):
    n, p = len(rows), len(rows[0])
    whole = [brute.mean(rows, range(n), l) for l in range(p)]
    return max(_tv([brute.mean(rows, e, l) for l in range(p)], whole) for e in brute.groups(classes))


def test_bounds_hold_on_random_tables():
    # KL <= N log N/(N - 1) TV(m, P) and exp(D_2) <= 1 + N TV(m, P); TV(m, P) <= (N - 1)/N max TV between records
    rng = random.Random(41)
    for _ in range(300):
        N = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, N, rng.randint(2, 4)), brute.random_labels(rng, N, 3)
        ctv = _class_tv(rows, classes)
        ptv = max(_tv(x, y) for x in rows for y in rows)
        assert ctv <= Fraction(N - 1, N) * ptv
        assert brute.kl_level_float(rows, "class", classes) <= N * math.log(N) / (N - 1) * float(ctv) + 1e-12
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= 1 + N * ctv


@pytest.mark.parametrize("N, t", [(2, Fraction(1, 2)), (3, Fraction(1, 3)), (5, Fraction(9, 10)), (4, Fraction(1))])
def test_the_family_attains_the_bounds(N, t):
    # one record at (t, 1 - t, 0) alone, N - 1 at (0, 1 - t, t): TV between records t, the lone class's distance
    # (N - 1) t/N; its KL is t log N, its sum m^2/P is 1 + (N - 1) t (hand)
    rows = [[t, 1 - t, Fraction(0)]] + [[Fraction(0), 1 - t, t]] * (N - 1)
    classes = ["E1"] + ["E2"] * (N - 1)
    assert max(_tv(x, y) for x in rows for y in rows) == t
    assert _class_tv(rows, classes) == Fraction(N - 1, N) * t
    assert brute.emd_t(rows, classes) == Fraction(N - 1, N) * t
    assert brute.kl_level_float(rows, "class", classes) == pytest.approx(float(t) * math.log(N))
    assert brute.renyi_level_sum(rows, 2, "class", classes) == 1 + (N - 1) * t


@pytest.fixture(scope="module")
def tv_kl():
    return check_implication("tv-ldp", "kl-closeness")


def test_tv_ldp_to_kl_closeness(tv_kl):
    r = tv_kl
    assert r.verdict == "proved" and r.method == "ceiling-chord" and r.tightness == "tight"
    assert str(r.tight) == "delta*log(N)"
    assert "vacuous" not in r.details
    assert check_certificate(r.details["certificate"]).ok


def test_emd_to_renyi_closeness():
    r = check_implication("emd-t-closeness", "renyi-closeness", a_params={"ground": Word("equal")},
                          b_params={"alpha": 2})
    assert r.verdict == "proved" and r.method == "ceiling-chord" and str(r.tight) == "log(N*t + 1)"
    assert "N*t/(N - 1) <= 1" in r.details.get("attained", "")


def test_forged_factor_rejected(tv_kl):
    bad = copy.deepcopy(tv_kl.details["certificate"])
    bad["upper_certificate"]["factor"] = "1"
    bad["upper"] = "N*T*log(N)/(N - 1)"
    assert not check_certificate(bad).ok


def test_forged_family_rejected(tv_kl):
    bad = copy.deepcopy(tv_kl.details["certificate"])
    bad["tightness"]["rows"][1]["values"] = ["0", "1 - (T)/2", "(T)/2"]     # no longer a class at t log N
    assert not check_certificate(bad).ok


def test_forged_upper_rejected(tv_kl):
    bad = copy.deepcopy(tv_kl.details["certificate"])
    bad["upper"] = "T*log(N)/2"
    assert not check_certificate(bad).ok
