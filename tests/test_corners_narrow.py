"""Each record within [1/T, T] of the table (lip) against KL, Renyi of order 2 and the hockey stick at gamma = 2
between two records, beyond T = N - 1: the corners on the narrowed box [1/T, N - (N - 1)/T]
(implgraph.prover.corners_narrow; docs/arguments/corners.md).

Hand values at N = 4, T = 5 (h = 4 - 3/5 = 17/5): the corner family m = (1/4, 1/4, 1/2), x_i = m (h, 1/5, 1/5) =
(17/20, 1/20, 1/10), x_j = (1/20, 17/20, 1/10) and the two others m (1/5, 1/5, (4 - 2/5)/2) = (1/20, 1/20, 9/10) (their
ratios 1/5, 1/5, 9/5, within [1/5, 5]); lip's level is 5 (x_i's 1/5), and

- KL(x_i || x_j) = (17/20) log 17 + (1/20) log(1/17) = (4/5) log 17 = (1 - 1/T) log(N T - N + 1), below the box
  [1/T, T]'s 2 (T - 1) log(T)/T = (8/5) log 5;
- sum x_i^2/x_j = (289/400)(20) + (1/400)(20/17) + (1/100)(10) = 289/20 + 1/340 + 1/10 = 1237/85;
- the hockey stick at 2: (17/20 - 2/20) + 0 + 0 = 3/4 = 1 - (N + 1)/(N T).
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import sympy

import brute
from brute_divergences import event_gap, level_over
from implgraph.certify import check_certificate
from implgraph.core.formula import parse_expr

from _coq import load_certs

CERTS = load_certs("corners_narrow.json")
KL, RENYI, HOCKEY = "lip => kl-ldp", "lip => renyi-ldp(alpha=2)", "lip => delta-ldp(eps=log(2))"
ROWS = [[F(17, 20), F(1, 20), F(1, 10)], [F(1, 20), F(17, 20), F(1, 10)], [F(1, 20), F(1, 20), F(9, 10)],
        [F(1, 20), F(1, 20), F(9, 10)]]


def _at(text, n=4, t=5):
    T, N = sympy.Symbol("T", positive=True), sympy.Symbol("N", integer=True, positive=True)
    return parse_expr(text, {"T": T, "N": N}).subs({T: t, N: n})


def test_the_corner_family_has_level_five_and_attains_each_u():
    assert brute.kt(ROWS, 1) == 5
    assert math.isclose(brute.kl_level_float(ROWS, "pairs"), 0.8 * math.log(17))
    assert brute.renyi_level_sum(ROWS, 2, "pairs") == F(1237, 85)
    assert level_over(lambda x, y: event_gap(x, y, 2), ROWS, "pairs") == F(3, 4)
    assert math.isclose(float(_at(CERTS[KL]["upper"])), 0.8 * math.log(17))
    assert sympy.simplify(_at(CERTS[RENYI]["upper"]) - sympy.log(sympy.Rational(1237, 85))) == 0
    assert _at(CERTS[HOCKEY]["upper"]) == sympy.Rational(3, 4)
    assert 0.8 * math.log(17) < 1.6 * math.log(5)          # below the box [1/T, T]'s value


def test_the_prover_states_the_pieces():
    from implgraph.engines.prove import check_implication
    res = check_implication("lip", "kl-ldp", max_n=3)
    assert res.verdict == "proved" and "log(N*exp(eps) - N + 1)" in str(res.tight)


def test_the_narrowed_certificates_are_accepted():
    for name, cert in CERTS.items():
        assert check_certificate(cert).ok, name


def _forged(cert, path, value):
    out = copy.deepcopy(cert)
    node = out
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return out


def test_the_narrowed_end_needs_the_domain_t_at_least_n_minus_one():
    for name, cert in CERTS.items():
        without = [c for c in cert["domain"] if c != "T > N - 1"]
        assert not check_certificate(_forged(cert, ["domain"], without)).ok, name


def test_forged_ends_and_u_are_rejected():
    # hi = N - N/T: no end the lemma derives; U at the box [1/T, T]'s narrower neighbour: (1 - 1/T) log(N T - N)
    assert not check_certificate(_forged(CERTS[KL], ["upper_certificate", "hi"], "N - N/T")).ok
    assert not check_certificate(_forged(CERTS[KL], ["upper"], "(1 - 1/T)*log(N*T - N)")).ok
    assert not check_certificate(_forged(CERTS[HOCKEY], ["upper"], "Max(0, N*T - N - 2)/(N*T)")).ok
    assert not check_certificate(_forged(CERTS[RENYI], ["upper_certificate", "lo"], "1/T**2")).ok
