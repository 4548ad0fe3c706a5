"""zcdp-ldp =/=> a two-sided ratio level, for every N: the zero-concentrated witness family (docs/arguments/zcdp-family.md).

Hand derivations. The family: one record x = (K b, 1 - K b), N - 1 records y = (b, 1 - b), K = 2^j,
b = 2^(-j^2 - 2 j), j >= 1 (j = 1: x = (1/4, 3/4), y = (1/8, 7/8); j = 2: x = (1/64, 63/64), y = (1/256, 255/256)).

- A's level is at most 1 both ways (the bound proved in ZcdpFamily.v); the brute force (tests/brute.py, D_alpha/alpha
  evaluated on a grid of orders, from below) stays well under it: about 0.08, 0.10, 0.12 for x || y at j = 1, 2, 3.
- B's raw level on the family at (N, j): ldp (pairwise) x_1/y_1 = 2^j; a set of records at y, or their class,
  against the table in bucket 1: ((2^j + N - 1)/N); so the levels grow with j at every N.
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

import brute
from implgraph.certify import check_certificate
from implgraph.core.concrete import INF, ConcreteTable
from implgraph.definitions import get
from implgraph.engines.prove import check_implication
from implgraph.engines.recheck import raw_level
from implgraph.prover.arguments import zcdp_family


def _pair(j):
    K, b = 2 ** j, F(1, 2 ** (j * j + 2 * j))
    return (K * b, 1 - K * b), (b, 1 - b)


def test_the_rows_by_hand():
    assert zcdp_family.family_rows(1, 2) == [[F(1, 4), F(3, 4)], [F(1, 8), F(7, 8)]]
    assert zcdp_family.family_rows(2, 3) == [[F(1, 64), F(63, 64)]] + [[F(1, 256), F(255, 256)]] * 2


@pytest.mark.parametrize("j", [1, 2, 3, 4, 5, 6])
def test_the_brute_force_stays_below_one_both_ways(j):
    x, y = _pair(j)
    assert brute.zcdp_mp(x, y) <= 1 and brute.zcdp_mp(y, x) <= 1


@pytest.mark.parametrize("j", [1, 2])
def test_the_exact_level_stays_below_one(j):
    from implgraph.definitions._zcdp_values import zcdp_between
    x, y = _pair(j)
    for u, v in ((x, y), (y, x)):
        level = zcdp_between(u, v)
        hi = getattr(level, "hi", None)
        assert (hi is not None and hi <= 1) or float(level) <= 1


def test_b_grows_with_j():
    """ldp's raw level 2^j (x_1/y_1); kt-closeness(k=2)'s (2^j + N - 1)/N at least: by hand."""
    for N in (2, 3):
        last = 0
        for j in (1, 2, 3):
            ct = ConcreteTable.from_fractions(zcdp_family.family_rows(j, N))
            rb = raw_level(get("ldp"), {}, ct)
            assert rb != INF and F(rb) == 2 ** j and F(rb) > last
            last = F(rb)
    ct = ConcreteTable.from_fractions(zcdp_family.family_rows(3, 3))
    assert F(raw_level(get("kt-closeness"), {"k": 2}, ct)) >= F(8 + 2, 3)


CELLS = [("ldp", None, "pairwise"), ("lip", None, None), ("dp", None, None), ("kdp", {"k": 2}, None),
         ("mult-t-closeness", None, None), ("kt-closeness", {"k": 2}, None), ("delta-disclosure-privacy", None, None)]


@pytest.mark.parametrize("b,bp,_", CELLS)
def test_zcdp_ldp_does_not_imply_the_ratio_levels(b, bp, _):
    import sympy
    r = check_implication("zcdp-ldp", b, b_params={k: sympy.Integer(v) for k, v in (bp or {}).items()}, max_n=3)
    assert r.verdict == "refuted" and r.method == "zcdp-family"
    cert = r.details["certificate"]
    assert cert["method"] == "zcdp-family" and cert["claim"] == "no-f"
    assert check_certificate(cert).ok


@pytest.mark.parametrize("what", ["count", "exponent", "tail", "definition", "domain"])
def test_the_checker_refuses_a_tampered_certificate(what):
    cert = copy.deepcopy(check_implication("zcdp-ldp", "ldp", max_n=3).details["certificate"])
    assert check_certificate(cert).ok
    rows = cert["family"]["rows"]
    if what == "count":
        rows[0]["count"] = "2"                      # N + 1 records
    elif what == "exponent":                        # K = 2^(2 j), K b = 2^(-j^2 + j): the tail is too short
        rows[0]["values"] = ["2**(-j**2)", "1 - 2**(-j**2)"]
    elif what == "tail":                            # b = 2^(-2 j): K b = 2^(-j), ln K (ln K + 1) > -ln(K b)
        rows[0]["values"] = ["2**(-j)", "1 - 2**(-j)"]
        rows[1]["values"] = ["2**(-2*j)", "1 - 2**(-2*j)"]
    elif what == "definition":
        cert["A"]["definition"] = "ldp"
    else:
        cert["domain"] = ["N >= 2"]
    assert not check_certificate(cert).ok


def test_the_tail_matters():
    """The divergence family's b = 1/((K - 1)^2 + 1) is not enough for zCDP: at K = 2^10 its level exceeds 1 (the
    brute force evaluates D_alpha/alpha at actual orders, so a value above 1 is a real one)."""
    K = 2 ** 10
    b = F(1, (K - 1) ** 2 + 1)
    assert brute.zcdp_mp((K * b, 1 - K * b), (b, 1 - b)) > 1


# -- the Coq theorems (coq/theories/ZcdpFamily.v, implgraph/kernel_coq/gen_zcdp_family.py) ---------------------------

def _cert(b, bp=None):
    import sympy
    return check_implication("zcdp-ldp", b, b_params={k: sympy.Integer(v) for k, v in (bp or {}).items()},
                             max_n=3).details["certificate"]


def test_the_theorem_states_b_from_the_registry():
    from implgraph.kernel_coq.registry import COVERED, generate
    assert "zcdp-family" in COVERED
    assert "~ pairwise_le N 2 (fam j) (U)." in generate(_cert("ldp"))
    assert "subset_le TwoSided N 2 (fam j) (((INR N) - 2)) (U)" in generate(_cert("kdp", {"k": 2}))
    assert "partition N fam_cls 1 /\\ ~ class_le TwoSided N 2 (fam j) fam_cls (U)" in generate(_cert("mult-t-closeness"))


@pytest.mark.parametrize("what", ["value", "J0"])
def test_the_generator_refuses_another_family(what):
    from implgraph.kernel_coq.coqexpr import Untranslatable
    from implgraph.kernel_coq.registry import generate
    cert = copy.deepcopy(_cert("ldp"))
    if what == "value":
        cert["family"]["rows"][1]["values"] = ["2**(-j**2 - 3*j)", "1 - 2**(-j**2 - 3*j)"]
    else:
        cert["family"]["J0"] = "2"
    with pytest.raises(Untranslatable):
        generate(cert)


@pytest.mark.slow
@pytest.mark.skipif(not __import__("implgraph.kernel_coq.export", fromlist=["coq_available"]).coq_available(),
                    reason="Coq (Debian's coq package) is not installed")
@pytest.mark.parametrize("b,bp,_", CELLS)
def test_the_theorems_check(b, bp, _, library, tmp_path):
    from _coq import assert_kernel_checked
    assert_kernel_checked(_cert(b, bp), library, tmp_path, b)
