"""A one-sided class ratio (basic beta-likeness, raw level T = 1 + beta) bounds a class's KL and Renyi divergence
from the table by log T (docs/proofs/chord-one-sided.md), which is the supremum where N/(N - 1) <= T <= N
(docs/proofs/tight-one-sided-chord.md); below and beyond, the other classes narrow a class's ratio to
[N - (N - 1) T, T] and [0, N] (tests/test_chord_small_pieces.py).

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


def _bound_cert(r):
    return r.details["certificate"]


def _middle(r):
    """The supremum's piece on [0, T] (N/(N - 1) <= T <= N)."""
    (cert,) = [c for c in r.details["certificates"] if (c["upper_certificate"]["lo"], c["upper_certificate"]["hi"])
               == ("0", "T")]
    return cert


def test_proved_log_one_plus_beta_as_an_upper_bound(proved):
    for r in proved.values():
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
        f = sympy.sympify(str(r.tight), locals={"beta": _BETA, "N": sympy.Symbol("N")})
        middle = [v for v, c in f.args if c != sympy.true and c.has(sympy.Symbol("N")) and not c.has(sympy.Lt)]
        assert sympy.simplify(middle[0] - sympy.log(1 + _BETA)) == 0    # the hand value log(1 + beta) in the middle
        cert = _bound_cert(r)                   # the bound log T on every table, an upper bound beside the supremum
        assert cert["method"] == "chord" and not cert["tight"] and cert["upper"] == "log(T)"
        assert check_certificate(cert).ok
        assert _middle(r)["tight"] and check_certificate(_middle(r)).ok


def test_forged_certificates_rejected(proved):
    cert = _middle(proved["kl"])
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
    # KL: the bound log T on every table, the supremum piece by piece (tests/test_chain_kl_pieces.py derives the
    # pieces by hand)
    r = chained["kl"]
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chain"
    cert = r.details["certificate"]
    assert cert["min_classes"] == 1 and check_certificate(cert).ok       # every partition, one class included
    for upper in ("log(T)/2", "log(2*T)", "T - 1"):                      # not the chord part's bound
        bad = copy.deepcopy(cert)
        bad["upper"] = upper
        assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["parts"][1]["upper"] = bad["upper"] = "log(T)/2"                   # the part's own lemma refuses it
    assert not check_certificate(bad).ok


def test_finite_level_chain_piece_by_piece(chained):
    # Renyi-2: basic beta-likeness's pieces chained one by one: log((N - 1) beta^2 + 1) below N/(N - 1), log(1 + beta)
    # up to N, log N beyond (at N = 3: beta = 1/4 gives log(9/8), beta = 3 gives log 3)
    r = chained["renyi2"]
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chain"
    assert not r.details.get("attained_where")
    names = {s.name: s for s in r.tight.free_symbols}
    at = lambda n, beta: float(r.tight.subs({names["N"]: n, names["beta"]: beta}))      # noqa: E731
    assert at(3, sympy.Rational(1, 4)) == pytest.approx(math.log(9 / 8))
    assert at(3, 1) == pytest.approx(math.log(2)) and at(3, 3) == pytest.approx(math.log(3))
    certs = r.details["certificates"]
    assert len(certs) == 3 and all(c["method"] == "chain" and c["tight"] and check_certificate(c).ok for c in certs)
    bad = copy.deepcopy(certs[0])
    bad["parts"][1]["upper"] = bad["upper"] = f"({certs[0]['upper']})*9/10"     # below the piece's chord
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
