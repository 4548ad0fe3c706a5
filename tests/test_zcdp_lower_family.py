"""KL and Renyi-2 local privacy do not imply zero-concentrated local privacy (method ``zcdp-lower-family``).

Hand derivations (docs/arguments/zcdp-lower-family.md): one record at x = (K b, 1 - K b), N - 1 at y = (b, 1 - b),
b = 1/((K - 1)^2 + 1), K >= 3.

- chi^2(x || y) = (K - 1)^2 b^2 (1/b + 1/(1 - b)) = (K - 1)^2 b/(1 - b) = 1 (1 - b = (K - 1)^2 b), and
  chi^2(y || x) = (K - 1)^2 b^2 (1/(K b) + 1/(1 - K b)) = (K - 1)/(K (K - 2)) <= 1 for K >= 3
  (1 - K b = (K - 1)(K - 2) b): so sum x^2/y = 2 and sum y^2/x <= 2 (Renyi-2 <= log 2) and KL <= chi^2 <= 1.
- rho* >= D_3(x || y)/3 = log(sum x^3/y^2)/6 >= log((K b)^3/b^2)/6 = log(K^3 b)/6, and K^3 b >= K
  (K^3 - K ((K - 1)^2 + 1) = 2 K (K - 1) >= 0).

The brute force (tests/brute.py: zcdp_mp, kl_float, renyi_power_sum) checks both at several K.
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import mpmath
import pytest

import brute

from _coq import assert_kernel_checked, coq

from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import generate


def _pair(K):
    b = F(1, (K - 1) ** 2 + 1)
    return (K * b, 1 - K * b), (b, 1 - b)


@pytest.mark.parametrize("K", [3, 4, 7, 20, 100, 1000])
def test_the_family_by_brute_force(K):
    x, y = _pair(K)
    b = y[0]
    # A: KL and Renyi-2 bounded both ways (hand: chi^2(x || y) = 1, chi^2(y || x) = (K - 1)/(K (K - 2)))
    assert brute.renyi_power_sum(x, y, 2) == 2
    assert brute.renyi_power_sum(y, x, 2) == 1 + F(K - 1, K * (K - 2)) <= 2
    assert brute.kl_float(x, y) <= 1 and brute.kl_float(y, x) <= 1
    # B: the brute force's zero-concentrated level (a value of D_a/a actually evaluated: at most the supremum) is
    # at least the stated lower bound log(K^3 b)/6, itself >= log(K)/6
    low = mpmath.log(mpmath.mpf((K ** 3 * b).numerator) / (K ** 3 * b).denominator) / 6
    assert brute.zcdp_mp(x, y) >= low >= mpmath.log(K) / 6
    # the lower bound from the order 3 alone, exactly
    assert brute.renyi_power_sum(x, y, 3) >= K ** 3 * b >= K


def test_the_lower_bound_grows():
    assert math.log(1000) / 6 > 1 and math.log(10 ** 6) / 6 > 2


@pytest.mark.parametrize("a", ["kl-ldp", "renyi-ldp(alpha=2)"])
def test_refuted_with_a_certificate(a):
    from implgraph.definitions.nodes import parse_node
    from implgraph.engines.prove import node_params
    node = parse_node(a)
    r = check_implication(node.name, "zcdp-ldp", a_params=node_params(node), max_n=3)
    assert r.verdict == "refuted" and r.method == "zcdp-lower-family"
    cert = r.details["certificate"]
    assert cert["family"]["kind"] == "unbounded" and cert["family"]["n0"] == 2 and cert["family"]["order"] == "3"
    assert check_certificate(cert).ok


def _cert(a="kl-ldp"):
    from implgraph.definitions.nodes import parse_node
    from implgraph.engines.prove import node_params
    node = parse_node(a)
    r = check_implication(node.name, "zcdp-ldp", a_params=node_params(node), max_n=3)
    return copy.deepcopy(r.details["certificate"])


@pytest.mark.parametrize("what", ["count", "value", "order", "domain", "B", "A", "claim"])
def test_a_tampered_certificate_is_refused(what):
    cert = _cert()
    assert check_certificate(cert).ok
    fam = cert["family"]
    if what == "count":
        fam["rows"][0]["count"] = "2"                   # N + 1 records
    elif what == "value":
        fam["rows"][0]["values"] = ["2*K/((K - 1)**2 + 1)", "1 - 2*K/((K - 1)**2 + 1)"]     # chi^2 > 1
    elif what == "order":
        fam["order"] = "2"                              # x^2/y = K^2 b, bounded: no growth at order 2
    elif what == "domain":
        cert["domain"] = ["N >= 2", "K >= 2"]           # not what the family is checked on (x = (1, 0) at K = 2)
    elif what == "B":
        cert["B"]["definition"] = "kl-ldp"
    elif what == "A":
        cert["A"]["definition"] = "zcdp-ldp"
    else:
        cert["claim"] = "f"
    assert not check_certificate(cert).ok


def test_not_its_case():
    from implgraph.definitions import get
    from implgraph.prover.arguments.zcdp_lower_family import refutation
    # zcdp A (the other direction) and a Renyi order above 2 (D_3 bounds nothing here): not this family's
    assert refutation(get("zcdp-ldp"), get("kl-ldp")) is None
    assert refutation(get("renyi-ldp"), get("zcdp-ldp"), {"alpha": 3}) is None


# -- the Coq theorem (ZcdpLowerFamily.zcdp_family) --------------------------------------------------------------------------

@coq
@pytest.mark.parametrize("a", ["kl-ldp", "renyi-ldp(alpha=2)"])
def test_the_coq_theorem_checks(a, library, tmp_path):
    assert_kernel_checked(_cert(a), library, tmp_path, a)


@pytest.mark.parametrize("what", ["value", "order", "n0"])
def test_the_generator_states_only_the_library_family(what):
    cert = _cert()
    if what == "value":
        cert["family"]["rows"][1]["values"] = ["1/(K**2 + 1)", "K**2/(K**2 + 1)"]
    elif what == "order":
        cert["family"]["order"] = "4"
    else:
        cert["family"]["n0"] = 3
    with pytest.raises(Untranslatable):
        generate(cert)


# -- eps-delta-ldp(delta=1/10) =/=> zcdp-ldp: the support family (prover/divergence_witness.py) -------------------------
# One record at x = (1/10, 9/10), N - 1 at y = (0, 1): every event S has x(S) <= y(S) + 1/10 and y(S) <= x(S) + 1/10
# (S = {1}: 1 <= 9/10 + 1/10), so eps-delta-ldp(delta=1/10) holds at eps = 0 (finite); x_1 = 1/10 > 0 = y_1, so
# KL(x || y) = oo and the zero-concentrated level (>= KL) is oo, at every N >= 2.

def _support():
    import sympy

    from implgraph.definitions import get
    from implgraph.prover.divergence_witness import support_certificate
    return support_certificate(get("eps-delta-ldp"), {"delta": sympy.Rational(1, 10)}, get("zcdp-ldp"), {})


def test_the_support_family_by_brute_force():
    x, y = (F(1, 10), F(9, 10)), (F(0), F(1))
    assert brute.eps_delta_ldp([list(x), list(y)], F(1, 10)) == 1      # e^eps = 1: eps = 0
    assert brute.zcdp_mp(x, y) is None            # infinite
    assert brute.zcdp_mp(y, x) is not None        # the other way finite: the level is oo by (x, y)


def test_eps_delta_does_not_imply_zcdp_for_every_n():
    found = _support()
    assert found is not None
    cert, text = found
    assert cert["family"]["n0"] == 2 and cert["family"]["rows"][0]["values"] == ["1/10", "9/10"]
    assert check_certificate(cert).ok


@pytest.mark.parametrize("values", [["1/5", "4/5"], ["0", "1"]])
def test_a_tampered_support_family_is_refused(values):
    cert = copy.deepcopy(_support()[0])
    # (1/5, 4/5) against (0, 1): mass 1/5 > delta where y is 0, A infinite; (0, 1) twice: B finite
    cert["family"]["rows"][0]["values"] = values
    assert not check_certificate(cert).ok
