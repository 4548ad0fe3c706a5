"""A record-removal total variation or hockey-stick against one between records (at a smaller or equal gamma) is at
most T/N, and against one on record removal at most T, both attained (docs/proofs/tight-removal-scaling.md).

Hand values: one record at (t, 1 - t) and N - 1 at (0, 1) have total variation and E_2 between records t (one way;
the other way E_2 = max(0, 2 t - 1) <= t); removing the first record, P = (t/N, 1 - t/N) against Q = (0, 1): total
variation and E_2 t/N (E_2(Q || P) = max(0, 1 - 2 (1 - t/N)) <= t/N). At N = 4, t = 1/2: 1/8. One record at
(N t, 1 - N t), N - 1 at (0, 1), N t <= 1: P = (t, 1 - t) against Q = (0, 1): both t.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from brute_divergences import event_gap, level_over
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication


def pairs_tv(rows):
    return level_over(lambda x, y: event_gap(x, y, 1), rows, "pairs")


def pairs_e2(rows):
    return level_over(lambda x, y: event_gap(x, y, 2), rows, "pairs")


def removal_tv(rows):
    return level_over(lambda x, y: event_gap(x, y, 1), rows, "removal")


def removal_e2(rows):
    return level_over(lambda x, y: event_gap(x, y, 2), rows, "removal")


def family(t, n):
    return [[t, 1 - t]] + [[F(0), F(1)]] * (n - 1)


def test_hand_values():
    rows = family(F(1, 2), 4)
    assert pairs_tv(rows) == F(1, 2) and pairs_e2(rows) == F(1, 2)
    assert removal_tv(rows) == F(1, 8) and removal_e2(rows) == F(1, 8)
    rows = family(F(4, 10), 2)      # (N t, 1 - N t) at N = 2, t = 1/5
    assert removal_tv(rows) == F(1, 5) and removal_e2(rows) == F(1, 5)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_families_attain(n):
    for t in (F(1, 10), F(1, 3), F(1, 2), F(1)):
        rows = family(t, n)
        assert pairs_tv(rows) == t and pairs_e2(rows) == t
        assert removal_tv(rows) == t / n and removal_e2(rows) == t / n
        if n * t <= 1:
            rows = family(n * t, n)
            assert removal_tv(rows) == t and removal_e2(rows) == t


def test_against_brute_force():
    rng = random.Random(3)
    for _ in range(300):
        rows = brute.random_rows(rng, rng.randint(2, 4), rng.randint(2, 3))
        n = len(rows)
        assert removal_tv(rows) <= pairs_tv(rows) / n
        assert removal_e2(rows) <= pairs_tv(rows) / n
        assert removal_e2(rows) <= pairs_e2(rows) / n
        assert removal_e2(rows) <= removal_tv(rows)


@pytest.fixture(scope="module")
def results():
    log2 = {"eps": sympy.log(2)}
    return {"tv": check_implication("tv-ldp", "tv-dp", max_n=3),
            "tv-e2": check_implication("tv-ldp", "delta-dp", b_params=log2, max_n=3),
            "e2": check_implication("delta-ldp", "delta-dp", a_params=log2, b_params=log2, max_n=3),
            "removal": check_implication("tv-dp", "delta-dp", b_params=log2, max_n=3)}


def _at(f, d, n):
    return f.subs({s: (d if s.name == "delta" else n) for s in f.free_symbols})


def test_engine_tight_f(results):
    for key in ("tv", "tv-e2", "e2"):
        r = results[key]
        assert r.verdict == "proved" and r.tightness == "tight"
        for n in (2, 3, 7):
            for d in (sympy.Rational(1, 10), sympy.Rational(1, 2), sympy.Integer(1)):
                assert sympy.simplify(_at(r.tight, d, n) - d / n) == 0
    r = results["removal"]
    assert r.verdict == "proved" and r.tight is not None
    assert sympy.simplify(_at(r.tight, sympy.Rational(1, 5), 4) - sympy.Rational(1, 5)) == 0
    for r in results.values():
        assert check_certificate(r.details["certificate"]).ok


def test_forged_certificates_rejected(results):
    cert = results["tv"].details["certificate"]
    bad = copy.deepcopy(cert)
    bad["upper"] = "T/(2*N)"                # below the family's level
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["case"] = "removal"        # A compares pairs, not removal (and U = T/N is not T)
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["tightness"]["rows"][0]["value"] = "T/2"        # a family not attaining U
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(results["e2"].details["certificate"])
    bad["B"] = copy.deepcopy(results["tv"].details["certificate"]["B"])     # B total variation: gamma_B = 1 < 2
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(results["removal"].details["certificate"])
    bad["tightness"]["domain"] = []         # (N T, 1 - N T) is a record only where N T <= 1
    assert not check_certificate(bad).ok
