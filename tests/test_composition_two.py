"""The prover's ``composition`` through two intermediates (prover/arguments/composition.py, depth 2): where no one
intermediate gives a bound, the first part may itself be a composition through one.

The bounds are derived by hand. On record removal P is the table's mean and Q_i the mean without record i, so
P - Q_i = (x_i - Q_i)/N and x_i - x_k = (N - 1)(Q_k - Q_i):

- Pinsker: KL(P || Q_i) <= d gives TV(P, Q_i) <= sqrt(d/2); Renyi-2 >= KL gives the same from D_2 <= d;
- TV(P, Q_i) <= t for every i gives TV(x_i, x_k) <= (N - 1)(TV(Q_k, P) + TV(P, Q_i)) <= 2 (N - 1) t, and <= 1;
- the hockey stick at gamma = 2 is at most the total variation (x(E) - 2 y(E) <= x(E) - y(E)).

So kl-dp (and renyi-dp(alpha=2)) at d gives delta-ldp(eps=log 2) at most min(1, 2 (N - 1) sqrt(d/2)) =
min(1, sqrt(2 d) (N - 1)): at N = 3, d = 1/32 it is 2 sqrt(1/16) = 1/2; at N = 5, d = 1/8 it is min(1, 4/2) = 1. No
direct argument and no one intermediate proves these two claims (the cells were open before).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
import sympy

from _coq import load_certs
from _forge import edited

from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.prove import check_implication

N, d = sympy.Symbol("N"), sympy.Symbol("d")
DELTA_LDP = "delta-ldp"
LOG2 = {"eps": sympy.log(2)}
CERTS = load_certs("compose_two.json")
KL = "kl-dp => delta-ldp(eps=log(2)) [composition, two intermediates]"
RENYI = "renyi-dp(alpha=2) => delta-ldp(eps=log(2)) [composition, two intermediates]"


def _proved(a, a_params):
    r = check_implication(a, DELTA_LDP, a_params=a_params, b_params=LOG2)
    assert r.verdict == "proved" and r.method == "composition", r.evidence
    # tight only where a family attains it (N >= 3 and d at least its level: tests/test_attained_weakest_pair.py)
    assert "N >= 3" in r.details["attained_where"]
    return r, sympy.sympify(str(r.tight), locals={"N": N, "d": d})


@pytest.mark.parametrize("a,a_params", [("kl-dp", {}), ("renyi-dp", {"alpha": sympy.Integer(2)})])
def test_two_intermediates_prove_the_hand_bound(a, a_params):
    r, f = _proved(a, a_params)
    assert f.subs({N: 3, d: sympy.Rational(1, 32)}) == sympy.Rational(1, 2)
    assert f.subs({N: 5, d: sympy.Rational(1, 8)}) == 1
    assert sympy.simplify(f.subs({N: 7, d: sympy.Rational(1, 200)}) - sympy.Rational(3, 5)) == 0
    cert = next(c for c in certificates_in(r.details) if c["method"] == "composition")
    first, second = cert["parts"]
    # the first part a composition through one intermediate (tv-dp), then tv-ldp => delta-ldp directly
    assert first["method"] == "composition" and first["via"]["definition"] == "tv-dp"
    assert cert["via"]["definition"] == "tv-ldp" and second["method"] != "composition"
    assert all(p["method"] != "composition" for p in first["parts"])
    assert check_certificate(cert).ok


def test_one_intermediate_still_comes_first():
    # kl-dp => tv-ldp: through tv-dp, both parts direct (the depth-2 search is not asked)
    r = check_implication("kl-dp", "tv-ldp")
    cert = r.details["certificate"]
    assert r.method == "composition" and all(p["method"] != "composition" for p in cert["parts"])


def _kl(p, q):
    """KL(p || q), infinite where p has mass q has not."""
    if any(a > 0 and b == 0 for a, b in zip(p, q)):
        return math.inf
    return sum(a * math.log(a / b) for a, b in zip(p, q) if a > 0)


def _kl_dp(rows):
    """KL privacy on record removal, both ways (floats)."""
    n = len(rows)
    mean = [sum(r[j] for r in rows) / n for j in range(2)]
    out = 0.0
    for i in range(n):
        rest = [sum(r[j] for k, r in enumerate(rows) if k != i) / (n - 1) for j in range(2)]
        out = max(out, _kl(mean, rest), _kl(rest, mean))
    return out


def _delta_ldp_2(rows):
    """The least delta of (log 2, delta)-LDP on binary rows: max over ordered pairs and events of x(S) - 2 y(S)."""
    best = Fraction(0)
    for x, y in itertools.permutations(rows, 2):
        for S in ((0,), (1,), (0, 1)):
            best = max(best, sum(x[j] for j in S) - 2 * sum(y[j] for j in S))
    return best


def test_the_bound_holds_on_random_tables():
    rng = random.Random(7)
    f = sympy.lambdify((N, d), sympy.Min(1, sympy.sqrt(2 * d) * (N - 1)))
    for _ in range(300):
        n = rng.randint(2, 6)
        rows = []
        for _ in range(n):
            v = Fraction(rng.randint(0, 20), 20)
            rows.append((v, 1 - v))
        assert float(_delta_ldp_2(rows)) <= f(n, _kl_dp([tuple(map(float, r)) for r in rows])) + 1e-12


def _forged_leaf(cert):
    """Pinsker's part halved (TV <= sqrt(d/2)/2, false), the nested composition's and the whole's U edited to
    follow it, so that every link but the leaf's own bound is consistent."""
    out = edited(cert, ["parts", 0, "parts", 0, "upper"], "sqrt(2)*sqrt(T)/4")
    out = edited(out, ["parts", 0, "upper"], "Min(1, sqrt(2)*sqrt(T)*(N - 1)/2)")
    return edited(out, ["upper"], "Min(1, sqrt(2)*sqrt(T)*(N - 1)/2)")


@pytest.mark.parametrize("name", [KL, RENYI])
def test_the_checker_rechecks_the_nested_part(name):
    assert check_certificate(CERTS[name]).ok
    rep = check_certificate(_forged_leaf(CERTS[name]))
    failed = [what for what, _, _ in rep.failures()]
    assert not rep.ok and failed == ["part 1 (composition) re-checked"], failed


def test_a_forged_nested_link_is_rejected():
    # the nested composition's U edited alone (below g(h) of its own parts): the nested part fails its own U = g(h)
    forged = edited(CERTS[KL], ["parts", 0, "upper"], "Min(1, sqrt(2)*sqrt(T)*(N - 1)/2)")
    forged = edited(forged, ["upper"], "Min(1, sqrt(2)*sqrt(T)*(N - 1)/2)")
    rep = check_certificate(forged)
    assert not rep.ok and "part 1 (composition) re-checked" in [w for w, _, _ in rep.failures()]


# -- where the composed f is delta-ldp's weakest level 1: the family that attains it (attained-family's weakest-pair) --
#
# For N >= 3 the table x = (1, 0), y = (0, 1) and N - 2 records z = (1/2, 1/2) has delta-ldp(eps=log 2) level 1
# (x(S) - 2 y(S) = 1 on S = bucket 1). Its mean is P = (1/2, 1/2); without x it is Q = ((1 - u)/2, (1 + u)/2) with
# u = 1/(N - 1) (y likewise, mirrored), without a z it is P. So its kl-dp level is the larger of
# KL(P || Q) = -log(1 - u^2)/2 = sum u^(2k)/(2k) and KL(Q || P) = sum u^(2k)/((2k - 1) 2k), i.e.
# d*(N) = log((N - 1)^2/(N (N - 2)))/2 (d*(3) = log(4/3)/2), and its renyi-dp(alpha=2) level is the larger of
# D_2(P || Q) = -log(1 - u^2) and D_2(Q || P) = log(1 + u^2), i.e. 2 d*(N) (log(4/3) at N = 3). The composed f is 1
# where 2 d (N - 1)^2 >= 1, and d >= d*(N) gives it: -log(1 - v) >= v, so 2 d*(N) (N - 1)^2 >= 1.

def _family(n):
    half = sympy.Rational(1, 2)
    return [[1, 0], [0, 1], [half, half]], ["E1", "E2", "E3"], [1, 1, n - 2]


def _level(name, params, n):
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    lv = divergence_of(get(name), params).level(*_family(n))
    return sympy.nsimplify(getattr(lv, "expr", lv))


@pytest.mark.parametrize("n", [3, 4, 7, 12])
def test_the_family_meets_the_composed_f_at_delta_ldp_weakest_level(n):
    d_star = sympy.log(sympy.Rational((n - 1) ** 2, n * (n - 2))) / 2
    if n == 3:
        assert d_star == sympy.log(sympy.Rational(4, 3)) / 2
    assert _level("delta-ldp", LOG2, n) == 1
    assert sympy.simplify(_level("kl-dp", {}, n) - d_star) == 0
    assert sympy.simplify(_level("renyi-dp", {"alpha": sympy.Integer(2)}, n) - 2 * d_star) == 0
    f = sympy.Min(1, sympy.sqrt(2 * d) * (N - 1))
    assert f.subs({N: n, d: d_star}) == 1 and f.subs({N: n, d: 2 * d_star}) == 1
