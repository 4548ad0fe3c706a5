"""A one-sided class ratio (basic beta-likeness, raw level T = 1 + beta) bounds a class's KL and Renyi divergence
from the table by log T (docs/proofs/chord-one-sided.md), tight where N/(N - 1) <= T <= N
(docs/proofs/tight-one-sided-chord.md).

Hand values: every ratio m_l/P_l of a class to the table lies in [0, T]; the chord of r log r (or r^alpha) on [0, T]
with mass L = 1/T at T gives KL <= log T and exp((alpha - 1) D_alpha) <= T^(alpha - 1). Attained at N = 2 by records
(1, 0) and (0, 1) in two classes: P = (1/2, 1/2), T = 2, KL = log 2, exp(D_2) = 2.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from brute_divergences import level_over
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

_BETA = sympy.Symbol("beta")


@pytest.fixture(scope="module")
def proved():
    return {"kl": check_implication("basic-beta-likeness", "kl-closeness", max_n=3),
            "renyi2": check_implication("basic-beta-likeness", "renyi-closeness",
                                        b_params={"alpha": sympy.Integer(2)}, max_n=3)}


def _cert(r):
    return r.details.get("certificate") or r.details["certificates"][0]


def test_proved_log_one_plus_beta_as_an_upper_bound(proved):
    for r in proved.values():
        assert r.verdict == "proved" and r.tightness == "tight"    # where N/(N - 1) <= T <= N (stated)
        assert r.details["attained_where"] == "(T <= N) & (T >= N/(N - 1))"
        f = sympy.sympify(str(r.tight), locals={"beta": _BETA})
        assert sympy.simplify(f - sympy.log(1 + _BETA)) == 0        # the hand value log(1 + beta)
        cert = _cert(r)
        assert cert["method"] == "chord" and cert["tight"]
        assert check_certificate(cert).ok


def test_forged_certificates_rejected(proved):
    cert = _cert(proved["kl"])
    bad = copy.deepcopy(cert)
    bad["upper"] = "log(T)/2"                   # below the chord's value
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["lo"] = "1/T"      # A bounds no ratio from below
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["tightness"]["domain"] = ["T >= N/(N - 1)"]      # a tight claim beyond T <= N (no table there)
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["B"]["min_class"] = "2"                 # another partition than A's
    assert not check_certificate(bad).ok


def test_hand_table_attains_log_T():
    rows, classes = [[F(1), F(0)], [F(0), F(1)]], ["E1", "E2"]
    assert brute.basic_beta_likeness(rows, classes) == 1                  # T = 2
    assert abs(brute.kl_level_float(rows, "class", classes) - math.log(2)) < 1e-12
    assert brute.renyi_level_sum(rows, 2, "class", classes) == 2        # exp(D_2) = T


def test_against_brute_force():
    rng, checked = random.Random(40), 0
    for _ in range(300):
        n = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, n, rng.randint(2, 3)), brute.random_labels(rng, n)
        T = 1 + brute.basic_beta_likeness(rows, classes)
        assert brute.kl_level_float(rows, "class", classes) <= math.log(T) + 1e-12
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= T             # exactly
        assert brute.renyi_level_sum(rows, 3, "class", classes) <= T ** 2        # order 3 too
        assert level_over(lambda x, y: max(a / b for a, b in zip(x, y) if b), rows, "class", classes) <= T
        checked += 1
    assert checked == 300


@pytest.fixture(scope="module")
def chained():
    """Enhanced beta-likeness declares basic beta-likeness's level where finite: the chain to the chord's log T."""
    return {"kl": check_implication("enhanced-beta-likeness", "kl-closeness", max_n=3),
            "renyi2": check_implication("enhanced-beta-likeness", "renyi-closeness",
                                        b_params={"alpha": sympy.Integer(2)}, max_n=3)}


def test_finite_level_chain_to_log_one_plus_beta(chained):
    for r in chained.values():
        # tight where N/(N - 1) <= T <= N, the chord's family split into 3^ceiling(T) buckets per bucket
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chain"
        f = sympy.sympify(str(r.tight), locals={"beta": _BETA})
        assert sympy.simplify(f - sympy.log(1 + _BETA)) == 0
        cert = r.details["certificate"]
        assert cert["min_classes"] == 1 and check_certificate(cert).ok       # every partition, one class included
        for upper in ("log(T)/2", "log(2*T)", "T - 1"):                      # not the chord part's bound
            bad = copy.deepcopy(cert)
            bad["upper"] = upper
            assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["parts"][1]["upper"] = bad["upper"] = "log(T)/2"                   # the part's own lemma refuses it
        assert not check_certificate(bad).ok


def test_enhanced_against_brute_force():
    rng, finite = random.Random(41), 0
    for _ in range(300):
        n = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, n, rng.randint(2, 3)), brute.random_labels(rng, n)
        T = brute.enhanced_beta_likeness(rows, classes)          # 1 + beta, or INF
        if T == brute.INF:
            continue
        finite += 1
        assert brute.kl_level_float(rows, "class", classes) <= math.log(T) + 1e-12
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= T
    assert finite > 50
