"""The ``weakest-pair`` family of ``attained-family`` (prover/arguments/attained_family.py): A a KL or Renyi divergence
on record removal, B a total variation or hockey stick between two records, U (a composition's) B's weakest level 1
on the family's own domain N >= 3, T >= A's level on the family.

Hand derivation: x = (1, 0), y = (0, 1) and N - 2 records z = (1/2, 1/2). The mean is P = (1/2, 1/2); without x it
is Q = ((1 - u)/2, (1 + u)/2), u = 1/(N - 1) (without y the mirror, without a z P itself). KL(P || Q) =
-log(1 - u^2)/2 = log((N - 1)^2/(N (N - 2)))/2 is the larger direction (term by term in u^2), so kl-dp's level on the
family is d*(N) = log((N - 1)^2/(N (N - 2)))/2, d*(3) = log(4/3)/2; renyi-dp(2)'s is -log(1 - u^2) = 2 d*(N) (against
log(1 + u^2) the other way), log(4/3) at N = 3. B between x and y: TV = 1, the hockey stick at 2 is
x(bucket 1) - 2 y(bucket 1) = 1. The composed U = min(1, sqrt(2 d) (N - 1)) is 1 where 2 d (N - 1)^2 >= 1, and
d >= d*(N) gives that: log(1 + 1/(N (N - 2))) >= (1/(N (N - 2)))/(1 + 1/(N (N - 2))) = 1/(N - 1)^2.
"""

from __future__ import annotations

import pytest
import sympy

from _forge import edited

from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.prove import check_implication

LOG2 = {"eps": sympy.log(2)}
R2 = {"alpha": sympy.Integer(2)}
CASES = [("kl-dp", {}, "delta-ldp", LOG2, sympy.log(sympy.Rational(4, 3)) / 2),
         ("renyi-dp", R2, "delta-ldp", LOG2, sympy.log(sympy.Rational(4, 3))),
         ("kl-dp", {}, "tv-ldp", {}, sympy.log(sympy.Rational(4, 3)) / 2)]


def _run(a, a_params, b, b_params):
    r = check_implication(a, b, a_params=a_params, b_params=b_params)
    certs = {c["method"]: c for c in certificates_in(r.details)}
    return r, certs["attained-family"]


def _threshold(cert):
    """The family's own domain's threshold on T, read back, at N = 3, 4."""
    n = sympy.Symbol("N")
    rhs = sympy.sympify(cert["tightness"]["domain"][1].split(">=", 1)[1], locals={"N": n})
    return [rhs.subs(n, k) for k in (3, 4)]


@pytest.mark.parametrize("a,a_params,b,b_params,at3", CASES)
def test_tight_where_d_at_least_the_family_level(a, a_params, b, b_params, at3):
    r, cert = _run(a, a_params, b, b_params)
    assert r.verdict == "proved"
    names = {"N": sympy.Symbol("N"), "d": sympy.Symbol("d")}
    assert sympy.simplify(sympy.sympify(str(r.tight), locals=names)
                          - sympy.sympify("Min(1, sqrt(2)*sqrt(d)*(N - 1))", locals=names)) == 0
    assert "N >= 3" in r.details["attained_where"]
    assert cert["tightness"]["domain"][0] == "N >= 3"
    t3, t4 = _threshold(cert)
    scale = 2 if a == "renyi-dp" else 1
    assert sympy.simplify(sympy.expand_log(t3 - at3, force=True)) == 0
    assert sympy.simplify(sympy.expand_log(t4 - scale * sympy.log(sympy.Rational(9, 8)) / 2, force=True)) == 0
    assert check_certificate(cert).ok


def _failed(cert):
    rep = check_certificate(cert)
    assert not rep.ok
    return [w for w, _, _ in rep.failures()]


def test_forgeries_are_rejected():
    _, cert = _run("kl-dp", {}, "delta-ldp", LOG2)
    own = cert["tightness"]["domain"]
    # the threshold halved: A's level on the family is above T there, and the domain is not the family's level
    halved = edited(cert, ["tightness", "domain", 1], f"T >= ({own[1].split('>=', 1)[1]})/2")
    assert _failed(halved)[0].startswith("the family's own domain")
    # N = 2 let in: at N = 2 there is no z and kl-dp's level is infinite
    assert _failed(edited(cert, ["tightness", "domain", 0], "N >= 2"))[0].startswith("the family's own domain")
    # the middle records at (1/3, 2/3): the stated domain is no longer A's level on the family
    assert _failed(edited(cert, ["tightness", "blocks", 2, "value"], "1/3"))[0].startswith("the family's own domain")
    # y at (1/4, 3/4): B's level is 1/2 < U = 1 at the points (the domain is checked against the edited family too)
    moved = edited(cert, ["tightness", "blocks", 1, "value"], "1/4")
    assert _failed(moved)


def test_no_family_where_n_is_2():
    # the claim is made for N >= 3 only: at N = 2 every table with kl-dp level d < oo has delta-ldp below 1
    r, _ = _run("kl-dp", {}, "delta-ldp", LOG2)
    assert "N >= 3" in r.details["attained"]
