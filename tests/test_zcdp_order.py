"""zcdp-ldp => the divergences of the same records (docs/arguments/divergence-order.md, fact ``zcdp-order``).

Hand derivations. A zero-concentrated level rho between two records says D_alpha <= rho alpha at every order
alpha > 1 (Bun and Steinke 2016, Definition 1.1), so D_2 <= 2 rho and KL = lim_{alpha -> 1} D_alpha <= rho; then
TV <= sqrt(KL/2) <= sqrt(rho/2) (Pinsker). Randomized response at ratio R, p = (R, 1)/(R + 1), q = (1, R)/(R + 1):

- KL(p || q) = (R/(R + 1)) log R - (1/(R + 1)) log R = log(R) (R - 1)/(R + 1); at R = 3: log(3)/2 = 0.5493;
- its zero-concentrated level is the same number (the sup of D_alpha/alpha is its limit at alpha -> 1; tests/brute.py
  evaluates D_alpha/alpha on a grid of orders from below and stays at most it), so KL's f = rho is attained;
- D_2(p || q) = log(sum p^2/q) = log((9/16)/(1/4) + (1/16)/(3/4)) = log(7/3) = 0.8473 at R = 3, below
  2 rho = log 3 = 1.0986 and above rho (so U = rho would be false for Renyi 2);
- TV(p, q) = (R - 1)/(R + 1) = 1/2 at R = 3, below sqrt(rho/2) = sqrt(log(3)/4) = 0.5240.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
import sympy

import brute
from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs
from _forge import edited
from implgraph.certify import check_certificate
from implgraph.definitions import get
from implgraph.definitions.divergences import divergence_of
from implgraph.engines.prove import check_implication

T = sympy.Symbol("T")
_RR3 = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))


def _prove(b, **b_params):
    r = check_implication("zcdp-ldp", b, b_params={k: sympy.sympify(v) for k, v in b_params.items()}, max_n=3)
    return r, r.details["certificate"]


def test_the_declared_renyi_bounds_by_hand():
    z, kl, r2, tv = (divergence_of(get(n), p) for n, p in
                     (("zcdp-ldp", {}), ("kl-ldp", {}), ("renyi-ldp", {"alpha": sympy.Integer(2)}), ("tv-ldp", {})))
    assert [z.renyi_bound(b, T) for b in (1, 2, 3)] == [T, 2 * T, 3 * T] and z.renyi_bound(sympy.oo, T) is None
    assert kl.renyi_bound(1, T) == T and kl.renyi_bound(2, T) is None
    assert r2.renyi_bound(1, T) == T and r2.renyi_bound(2, T) == T and r2.renyi_bound(3, T) is None
    assert tv.renyi_bound(1, T) is None and z.renyi_fact == "zcdp-order" and kl.renyi_fact == "monotone-order"


def test_randomized_response_by_hand_and_by_brute_force():
    p, q = _RR3
    rho = math.log(3) / 2
    assert abs(brute.kl_float(p, q) - rho) < 1e-12 and abs(brute.kl_float(q, p) - rho) < 1e-12
    z = float(brute.zcdp_mp(p, q))
    assert rho - 1e-6 < z <= rho + 1e-12           # the sup is the limit at alpha -> 1: KL
    assert math.log(7 / 3) <= 2 * rho and math.log(7 / 3) > rho
    assert F(1, 2) <= math.sqrt(rho / 2)


def test_kl_ldp_is_rho_and_tight():
    r, cert = _prove("kl-ldp")
    assert r.verdict == "proved" and r.method == "divergence-order" and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(cert["upper"]) - sympy.Symbol("T")) == 0 and cert["tight"]
    assert cert["upper_certificate"]["fact"] == "zcdp-order"
    assert check_certificate(cert).ok


@pytest.mark.parametrize("b,params,want", [
    ("renyi-ldp", {"alpha": 2}, "2*T"), ("renyi-dp", {"alpha": 2}, "2*T"), ("kl-dp", {}, "T"),
    ("kl-closeness", {}, "T"), ("tv-ldp", {}, "sqrt(T/2)"), ("tv-dp", {}, "sqrt(T/2)")])
def test_the_upper_bounds(b, params, want):
    r, cert = _prove(b, **params)
    assert r.verdict == "proved" and r.method == "divergence-order" and not cert["tight"]
    Ts = sympy.Symbol("T", positive=True)
    got, expect = (sympy.sympify(x, locals={"T": Ts}) for x in (cert["upper"], want))
    assert sympy.simplify(got - expect) == 0
    assert check_certificate(cert).ok


def test_eps_delta_ldp_through_the_kl_program():
    r, cert = _prove("eps-delta-ldp", delta=sympy.Rational(1, 10))
    assert r.verdict == "proved" and r.method == "binary-program" and not cert["tight"]
    assert cert["upper_certificate"]["program"] == "kl" and check_certificate(cert).ok


FORGERIES = [
    # KL <= rho/2 is false: randomized response at R = 3 has KL = rho = log(3)/2
    ("kl half", "kl-ldp", {}, ["upper"], "T/2"),
    # D_2 <= rho is false: log(7/3) = 0.847 > log(3)/2 = 0.549 at R = 3
    ("renyi2 at rho", "renyi-ldp", {"alpha": 2}, ["upper"], "T"),
    # monotone-order asks A to be KL or Renyi of an order >= B's: the zero-concentrated level is neither
    ("renyi2 as monotone", "renyi-ldp", {"alpha": 2}, ["upper_certificate", "fact"], "monotone-order"),
    # TV <= sqrt(rho)/4 is false: 1/2 > sqrt(log(3)/2)/4 = 0.185 at R = 3
    ("tv quarter", "tv-ldp", {}, ["upper"], "sqrt(T)/4"),
    # the family edited: (R/(R + 2), ...) is not randomized response
    ("family row", "kl-ldp", {}, ["tightness", "rows", 0, "value"], "R/(R + 2)"),
    # the root of g(R) = 2 T: KL there is 2 T, not T
    ("family root", "kl-ldp", {}, ["tightness", "root", "equation"], "log(R)*(R - 1)/(R + 1) = 2*T"),
]


@pytest.mark.parametrize("name,b,params,path,value", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_tampered_certificates_are_rejected(name, b, params, path, value):
    _, cert = _prove(b, **params)
    assert not check_certificate(edited(cert, path, value)).ok


def test_a_tight_claim_without_the_family_is_rejected():
    _, cert = _prove("renyi-ldp", alpha=2)
    assert not check_certificate(edited(cert, ["tight"], True)).ok


# -- the kernel ----------------------------------------------------------------------------------------------------

def test_the_kernel_states_zcdp_and_applies_the_pairs_lemma():
    from implgraph.kernel_coq.registry import generate
    certs = load_certs("zcdp_order.json")
    text = generate(certs["zcdp-ldp => kl-ldp"])
    assert "zcdp_pairs_le N K x (T) ->" in text and "zcdp_kl_pairs N K x T Htab HA" in text
    assert "zcdp_renyi_pairs N K x T 2%nat" in generate(certs["zcdp-ldp => renyi-ldp(alpha=2)"])
    assert "pairs_to_removal KL" in generate(certs["zcdp-ldp => kl-dp"])


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", ["zcdp-ldp => kl-ldp", "zcdp-ldp => renyi-ldp(alpha=2)", "zcdp-ldp => kl-dp",
                                  "zcdp-ldp => tv-ldp", "zcdp-ldp => renyi-dp(alpha=2)",
                                  "zcdp-ldp => emd-t-closeness(ground=equal)"])
def test_the_kernel_checks(name, library, tmp_path):
    assert_kernel_checked(load_certs("zcdp_order.json")[name], library, tmp_path, name)


@pytest.mark.slow
@coq
def test_a_forged_kernel_certificate_fails(library, tmp_path):
    cert = edited(load_certs("zcdp_order.json")["zcdp-ldp => kl-ldp"], ["upper"], "T/2")   # false: RR at R = 3
    assert not kernel_accepts(cert, library, tmp_path, "forged")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("b", ["eps-delta-ldp", "eps-delta-dp"])
def test_the_kernel_checks_the_kl_program_from_zcdp(b, library, tmp_path):
    # KL <= rho (ZcdpPairs.zcdp_kl_pairs) first, then the KL program's table theorem; an edited exponent (the tangent's
    # identity U T = (exp s - 1) d no longer holds) is rejected
    _, cert = _prove(b, delta=sympy.Rational(1, 10))
    assert_kernel_checked(cert, library, tmp_path, b)
    forged = edited(cert, ["upper"], str(cert["upper"]).replace("exp(10*T) - 1", "exp(5*T) - 1"))
    assert forged["upper"] != cert["upper"] and not kernel_accepts(forged, library, tmp_path, b + "-forged")
