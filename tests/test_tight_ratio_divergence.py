"""Ratio and syntactic definitions against a class's KL or Renyi divergence from the table: the bounds made tight
(docs/proofs/tight-divergence-ceiling.md, docs/proofs/tight-one-sided-chord.md).

Hand values (brute force of tests/brute.py on the families):

- k-anonymity at T = 2, N = 5: two records at (1, 0) in one class, three at (0, 1) in another: smallest class 2,
  P = (2/5, 3/5), the first class's KL log(5/2) and exp(D_2) = 1/(2/5) = 5/2 = N/T (the second's log(5/3) smaller);
- p-sensitive 2-anonymity at p = 3, N = 5: two records uniform over 3 values, three uniform over 3 others: every class
  >= 2 records and 3 values, the first class 1/3 on each of its values where the table has 2/15: ratio 5/2, KL
  log(5/2), exp(D_2) = 5/2 = N/k;
- basic beta-likeness and pml at raw level T (1 + beta, e^eps), N = 4: one record at (1, 0) in a class of its own,
  three at ((4/T - 1)/3, ...): P_1 = 1/T, the lone class's ratio T, the others' 4/3 on the second bucket: levels T
  where 4/3 <= T <= 4, the lone class's KL log T and exp(D_2) = T (T = 2: rows (1/3, 2/3); T = 3: (1/9, 8/9)).
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

TWO = {"alpha": sympy.Integer(2)}


def _p_sensitive(rows, classes, k):
    groups = brute.groups(classes)
    if min(len(g) for g in groups) < k:
        return 0
    return min(sum(1 for l in range(len(rows[0])) if brute.mean(rows, g, l) > 0) for g in groups)


def _uniform_family(n, s, m):
    rows = [[F(1, m)] * m + [F(0)] * m] * s + [[F(0)] * m + [F(1, m)] * m] * (n - s)
    return rows, ["E1"] * s + ["E2"] * (n - s)


def _one_sided_family(n, t):
    y = (F(n) / t - 1) / (n - 1)
    return [[F(1), F(0)]] + [[y, 1 - y]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


def test_hand_values_class_floor_families():
    rows, classes = _uniform_family(5, 2, 1)
    assert min(len(g) for g in brute.groups(classes)) == 2
    assert abs(brute.kl_level_float(rows, "class", classes) - math.log(5 / 2)) < 1e-12
    assert brute.renyi_level_sum(rows, 2, "class", classes) == F(5, 2)
    rows, classes = _uniform_family(5, 2, 3)
    assert _p_sensitive(rows, classes, 2) == 3
    assert abs(brute.kl_level_float(rows, "class", classes) - math.log(5 / 2)) < 1e-12
    assert brute.renyi_level_sum(rows, 2, "class", classes) == F(5, 2)


@pytest.mark.parametrize("t", [F(4, 3), F(2), F(3), F(4)])
def test_hand_values_one_sided_family(t):
    rows, classes = _one_sided_family(4, t)
    assert 1 + brute.basic_beta_likeness(rows, classes) == t
    assert brute.subset_upper(rows, 1) == t                     # pml's ratio
    assert abs(brute.kl_level_float(rows, "class", classes) - math.log(t)) < 1e-12
    assert brute.renyi_level_sum(rows, 2, "class", classes) == t


@pytest.fixture(scope="module")
def floors():
    return {"k-kl": check_implication("k-anonymity", "kl-closeness", max_n=3),
            "k-r2": check_implication("k-anonymity", "renyi-closeness", b_params=TWO, max_n=3),
            "p-kl": check_implication("p-sensitive-k-anonymity", "kl-closeness", a_params={"k": 2}, max_n=3),
            "p-r2": check_implication("p-sensitive-k-anonymity", "renyi-closeness", a_params={"k": 2},
                                      b_params=TWO, max_n=3)}


def test_class_floor_ceiling_tight(floors):
    N, k = sympy.Symbol("N"), sympy.Symbol("k")
    for key, r in floors.items():
        # (p-sensitive: floor-level's share kind, tight for every N: on N < 4 records one class, the table, 0)
        method = "divergence-ceiling" if key.startswith("k") else "floor-level"
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == method, key
        want = sympy.log(N / k) if key.startswith("k") else sympy.Piecewise((0, N < 4), (sympy.log(N / 2), True))
        f = sympy.sympify(str(r.tight), locals={"N": N, "k": k})
        assert all(sympy.simplify(sympy.expand_log(f.subs(N, n) - want.subs(N, n), force=True)) == 0
                   for n in (2, 3, 4, 5, 9)) if key.startswith("p") else \
            sympy.simplify(sympy.expand_log(f - want, force=True)) == 0
        assert r.details.get("attained_where") == ("2*T <= N" if key.startswith("k") else None)
        cert = r.details["certificate"]
        assert cert["tight"] and check_certificate(cert).ok


def test_class_floor_forged_rejected(floors):
    cert = floors["k-kl"].details["certificate"]
    bad = copy.deepcopy(cert)
    bad["tightness"]["domain"] = []            # at N < 2 T no two classes of >= T records
    assert not check_certificate(bad).ok
    cert = floors["k-r2"].details["certificate"]
    bad = copy.deepcopy(cert)
    bad["tightness"]["uniform_blocks"][0]["count"] = "T + 1"
    bad["tightness"]["uniform_blocks"][1]["count"] = "N - (T + 1)"
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper"] = "log(N/(T + 1))"            # below the family's level
    assert not check_certificate(bad).ok


@pytest.fixture(scope="module")
def one_sided():
    return {"beta-kl": check_implication("basic-beta-likeness", "kl-closeness", max_n=3),
            "pml-r2": check_implication("pml", "renyi-closeness", b_params=TWO, max_n=3)}


def test_one_sided_chord_tight(one_sided):
    for key, r in one_sided.items():
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chord", key
        cert = _on_zero_t(r)
        assert cert["tight"] and check_certificate(cert).ok
        assert cert["tightness"]["domain"] == ["T >= N/(N - 1)", "T <= N/1"]
    # basic beta-likeness and pml: the supremum piece by piece in T (tests/test_chord_small_pieces.py,
    # tests/test_chord_one_record.py), [0, T] its middle piece
    assert not one_sided["beta-kl"].details.get("attained_where")
    assert not one_sided["pml-r2"].details.get("attained_where")


def _on_zero_t(r):
    """The tight certificate on [0, T]: the bound's own, or the supremum's piece N/(N - 1) <= T <= N."""
    certs = [r.details.get("certificate")] + list(r.details.get("certificates") or [])
    return next(c for c in certs if c and c.get("tight") and (c["upper_certificate"]["lo"],
                                                                c["upper_certificate"]["hi"]) == ("0", "T"))


def test_one_sided_chord_forged_rejected(one_sided):
    cert = _on_zero_t(one_sided["pml-r2"])
    bad = copy.deepcopy(cert)
    bad["tightness"]["domain"] = ["T >= 1", "T <= N"]       # below N/(N - 1) no class reaches log T
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["tightness"]["rows"][1]["value"] = "1/T"             # the table's first bucket is then not 1/T
    assert not check_certificate(bad).ok


def _split(rows, m):
    return [[v / m for v in row for _ in range(m)] for row in rows]


@pytest.mark.parametrize("t", [F(2), F(3)])
def test_hand_values_enhanced_split_family(t):
    """Enhanced beta-likeness caps each increase at -ln p: on the family itself (p = 1/T at ratio T) the cap fails;
    split into 3^ceiling(T) buckets per bucket it holds and the level is basic beta-likeness's, the divergences
    unchanged."""
    rows, classes = _one_sided_family(4, t)
    assert brute.enhanced_beta_likeness(rows, classes) == brute.INF
    split = _split(rows, 3 ** math.ceil(t))
    assert brute.enhanced_beta_likeness(split, classes) == t
    assert abs(brute.kl_level_float(split, "class", classes) - math.log(t)) < 1e-12
    assert brute.renyi_level_sum(split, 2, "class", classes) == t


def _record_ratio_family(n, t):
    y = (n - t) / ((n - 1) * (t + 1))
    return [[t / (t + 1), 1 / (t + 1)]] + [[y, 1 - y]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n,t", [(3, F(2)), (5, F(3)), (5, F(4)), (6, F(3, 2))])
def test_hand_values_record_ratio_family(n, t):
    """LIP (each record within [1/T, T] of the table): one record at (T, 1)/(T + 1) alone and N - 1 at
    ((N - T)/((N - 1)(T + 1)), ...) put the table at (1, T)/(T + 1) where T <= N - 1; the lone class's ratios T and
    1/T: KL (T - 1) log T/(T + 1), exp(D_2) = T - 1 + 1/T. At N = 3, T = 2: others (1/6, 5/6), KL log(2)/3, 3/2."""
    rows, classes = _record_ratio_family(n, t)
    assert brute.kt(rows, 1) == t                                   # lip's ratio, both ways
    kl = float(t - 1) * math.log(t) / float(t + 1)
    assert abs(brute.kl_level_float(rows, "class", classes) - kl) < 1e-12
    assert brute.renyi_level_sum(rows, 2, "class", classes) == t - 1 + 1 / t


def test_enhanced_chain_tight():
    r = check_implication("enhanced-beta-likeness", "kl-closeness", max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chain"
    assert not r.details.get("attained_where")      # tight for every N, piece by piece (tests/test_chain_kl_pieces.py)
    (cert,) = [c for c in r.details["certificates"] if c["upper"] == "log(T)"]     # the middle piece, log(1 + beta)
    assert cert["tight"] and check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["tightness"]["split"] = "1"                 # no split: the cap -ln p fails on the family
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["tightness"]["domain"] = ["T >= 1"]         # not the chord part's family
    assert not check_certificate(bad).ok


def test_record_ratio_chord_tight():
    for b, params in (("kl-closeness", {}), ("renyi-closeness", TWO)):
        r = check_implication("lip", b, b_params=params, max_n=3)
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chord"
        # tight for every N, piece by piece in T (tests/test_chord_record_class.py): the piece T <= N - 1's family
        assert not r.details.get("attained_where")
        (cert,) = [c for c in r.details["certificates"] if c["upper_certificate"]["hi"] == "T"]
        assert cert["tight"] and cert["tightness"]["domain"] == ["N >= T + 1"] and check_certificate(cert).ok
        bad = copy.deepcopy(cert)
        bad["tightness"]["domain"] = []             # beyond T = N - 1 the family is no table
        bad["domain"] = [d for d in bad["domain"] if d != "T <= N - 1"]
        assert not check_certificate(bad).ok
