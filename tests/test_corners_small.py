"""lip against KL, Renyi of order 2 and the hockey stick at gamma = 2 between two records where the corner family of
[1/T, T] is no table: N = 2 (every T) and N = 3 with T < 2 (implgraph.prover.corners_narrow; docs/arguments/corners.md).

Hand values.

- N = 2, T = 3 (h = 2 - 1/3 = 5/3): the corner family of the narrowed box, its third block empty: m = (1/2, 1/2, 0),
  x = (5/6, 1/6, 0), y = (1/6, 5/6, 0); lip's level max(5/3, 3) = 3; KL(x || y) = (5/6 - 1/6) log 5 = (2/3) log 5 =
  (1 - 1/T) log(N T - N + 1); sum x^2/y = (25/36)(6) + (1/36)(6/5) = 25/6 + 1/30 = 21/5; the hockey stick at 2:
  5/6 - 2/6 = 1/2 = max(0, N T - N - 1)/(N T) = 3/6. Two records' ratios are a and 2 - a, so (a, b) lies on the
  segment from (1/3, 5/3) to (5/3, 1/3) and the family's mass is on its two ends: nothing larger exists.
- N = 3, T = 3/2 (k = 3 - 3/2 - 2/3 = 5/6): the cycle family, masses m = (2/5, 7/20, 1/4), x = m (3/2, 2/3, 2/3) =
  (3/5, 7/30, 1/6), y = m (2/3, 3/2, 5/6) = (4/15, 21/40, 5/24), the third m (5/6, 5/6, 3/2) = (1/3, 7/24, 3/8);
  lip's level 3/2; the hockey stick at 2: 3/5 - 8/15 = 1/15 = (T^2 - 2)/(T (T + 1)) = (1/4)/(15/4), the corners' V.
  Its sum x^2/y = 27/20 + 14/135 + 2/15 = 857/540, below Renyi 2's V = (27/8 + 8/27 + 1/3)/(5/2) = 865/540: there
  the corner bound is not the supremum, which the vertex search below finds to be 857/540; the hexagon's value W2 of
  the module notes (T^3/(T + 1) + (T^2 - T + 1)/(T^3 (T + 1)(2 T - 1)) + (T - 1)/(T (2 T - 1)(3 T - T^2 - 1))) is
  27/20 + 14/135 + 2/15 there too, and the prover's piece N = 3, T < 2 states log(W2). KL(x || y) = (3/5) log(9/4) +
  (7/30) log(4/9) + (1/6) log(4/5) = (11/15) log(3/2) - (1/6) log(5/4), the KL value of the module notes,
  (T - 1)/(T (2 T - 1)) (2 (2 T^2 + 1) log(T)/(T + 1) - log(3 T - T^2 - 1)) = (1/6)((22/5) log(3/2) - log(5/4)).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import sympy

import brute
from brute_divergences import event_gap, level_over
from implgraph.certify import check_certificate
from implgraph.core.formula import parse_expr

from _coq import load_certs
from _forge import edited

CERTS = load_certs("corners_small.json")
CYCLE, HEXAGON = "lip => delta-ldp(eps=log(2)) cycle", "lip => renyi-ldp(alpha=2) hexagon"
KL_HEXAGON = "lip => kl-ldp hexagon"
KL, RENYI, HOCKEY = "lip => kl-ldp", "lip => renyi-ldp(alpha=2)", "lip => delta-ldp(eps=log(2))"
TWO = [[F(5, 6), F(1, 6), F(0)], [F(1, 6), F(5, 6), F(0)]]
THREE = [[F(3, 5), F(7, 30), F(1, 6)], [F(4, 15), F(21, 40), F(5, 24)], [F(1, 3), F(7, 24), F(3, 8)]]


def _at(text, n, t):
    T, N = sympy.Symbol("T", positive=True), sympy.Symbol("N", integer=True, positive=True)
    return parse_expr(text, {"T": T, "N": N}).subs({T: t, N: n})


def test_two_records_attain_the_narrowed_bound():
    assert brute.kt(TWO, 1) == 3
    assert math.isclose(brute.kl_level_float(TWO, "pairs"), 2 / 3 * math.log(5))
    assert brute.renyi_level_sum(TWO, 2, "pairs") == F(21, 5)
    assert level_over(lambda x, y: event_gap(x, y, 2), TWO, "pairs") == F(1, 2)
    assert math.isclose(float(_at(CERTS[KL]["upper"], 2, 3)), 2 / 3 * math.log(5))
    assert sympy.simplify(_at(CERTS[RENYI]["upper"], 2, 3) - sympy.log(F(21, 5))) == 0
    assert _at(CERTS[HOCKEY]["upper"], 2, 3) == sympy.Rational(1, 2)


def test_three_records_of_the_cycle_attain_the_hockey_sticks_v():
    assert all(sum(r) == 1 for r in THREE) and brute.kt(THREE, 1) == F(3, 2)
    assert level_over(lambda x, y: event_gap(x, y, 2), THREE, "pairs") == F(1, 15)
    assert _at(CERTS[CYCLE]["upper"], 3, F(3, 2)) == sympy.Rational(1, 15)
    assert brute.renyi_power_sum(THREE[0], THREE[1], 2) == F(857, 540)


def _vertex_supremum(g, t):
    """The largest sum w_v g(v) over mixtures of the hexagon's vertices (the orderings of (t, 1/t, 3 - t - 1/t) as
    (a, b)) with mean (1, 1): exact, every three vertices by Cramer's rule."""
    k = 3 - t - 1 / t
    vs = sorted({(p[0], p[1]) for p in itertools.permutations((t, 1 / t, k))})
    best = None
    for tri in itertools.combinations(vs, 3):
        m = [[F(1)] * 3, [v[0] for v in tri], [v[1] for v in tri]]
        det = _det(m)
        if det == 0:
            continue
        w = [_det([[F(1) if c == j else m[r][c] for c in range(3)] for r in range(3)]) / det for j in range(3)]
        if min(w) >= 0:
            value = sum(wi * g(*v) for wi, v in zip(w, tri))
            best = value if best is None else max(best, value)
    return best


def _det(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def test_the_vertex_search_finds_v_for_the_hockey_stick_and_less_for_renyi_two():
    t = F(3, 2)
    assert _vertex_supremum(lambda a, b: max(a - 2 * b, 0), t) == F(1, 15)
    assert _vertex_supremum(lambda a, b: a * a / b, t) == F(857, 540) < F(865, 540)
    for t in (F(5, 4), F(7, 4)):        # V = max(T^2 - 2, 0)/(T (T + 1)) again
        assert _vertex_supremum(lambda a, b: max(a - 2 * b, 0), t) == max(t * t - 2, 0) / (t * (t + 1))


def test_the_new_pieces_are_accepted():
    for name, cert in CERTS.items():
        assert check_certificate(cert).ok, name


def test_the_cycle_family_is_claimed_only_up_to_t_two():
    fam = CERTS[CYCLE]["tightness"]["domain"]
    # without T <= 2 (or with T <= 3) its identity D = V is checked where the third bucket's x_i - 2 x_j turns
    # positive too (2 T^2 - 6 T + 3 > 0 beyond (3 + sqrt 3)/2): rejected
    assert not check_certificate(edited(CERTS[CYCLE], ["tightness", "domain"], [c for c in fam if c != "T <= 2"])).ok
    assert not check_certificate(edited(CERTS[CYCLE], ["tightness", "domain"],
                                        [c if c != "T <= 2" else "T <= 3" for c in fam])).ok


def test_forged_cycle_certificates_are_rejected():
    # a row edited (E2's third value): no longer sums to 1; U halved: not the corners' value
    assert not check_certificate(edited(CERTS[CYCLE], ["tightness", "rows", 1, "values", 2], "(T - 1)/(2*T**2 - T)")).ok
    assert not check_certificate(edited(CERTS[CYCLE], ["upper"], "Max(0, T**2 - 2)/(2*T*(T + 1))")).ok


def test_the_prover_is_tight_for_every_n_on_the_hockey_stick_and_renyi_two():
    from implgraph.engines.prove import check_implication
    res = check_implication("lip", "delta-ldp", a_params={}, b_params={"eps": sympy.log(2)}, max_n=3)
    assert res.verdict == "proved" and "attained_where" not in res.details
    r2 = check_implication("lip", "renyi-ldp", b_params={"alpha": sympy.Integer(2)}, max_n=3)
    assert r2.verdict == "proved" and "attained_where" not in r2.details
    kl = check_implication("lip", "kl-ldp", max_n=3)
    assert kl.verdict == "proved" and "attained_where" not in kl.details


def _w2(t):
    """W2 of the module notes: T^3/(T + 1) + (T^2 - T + 1)/(T^3 (T + 1)(2 T - 1)) + (T - 1)/(T (2 T - 1)(3 T - T^2 - 1))."""
    return t ** 3 / (t + 1) + (t * t - t + 1) / (t ** 3 * (t + 1) * (2 * t - 1)) + (t - 1) / (t * (2 * t - 1) * (3 * t - t * t - 1))


def test_renyi_two_at_three_records_is_the_hexagons_value():
    t = F(3, 2)
    assert _w2(t) == F(857, 540) == brute.renyi_level_sum(THREE, 2, "pairs")
    for t in (F(5, 4), F(7, 4)):
        assert _vertex_supremum(lambda a, b: a * a / b, t) == _w2(t)
    assert sympy.simplify(_at(CERTS[HEXAGON]["upper"], 3, F(3, 2)) - sympy.log(F(857, 540))) == 0


def test_forged_hexagon_certificates_are_rejected():
    cert = CERTS[HEXAGON]
    assert check_certificate(cert).ok
    # another triangle of vertices: its affine h is below g at a vertex (the supremum's triangle is the only one)
    other = [["T", "1/T"], ["1/T", "T"], ["-T + 3 - 1/T", "1/T"]]
    assert not check_certificate(edited(cert, ["upper_certificate", "hexagon"], other)).ok
    # a support that is no vertex; U at the box's V (not h(1, 1)); the domain without N T < 2 T + 2 (N = 3 not given)
    assert not check_certificate(edited(cert, ["upper_certificate", "hexagon", 2], ["1", "1"])).ok
    box_v = "log((T**3 + 1/T**3 + (T - 1)/T)/(T + 1))"
    assert not check_certificate(edited(cert, ["upper"], box_v)).ok
    assert not check_certificate(edited(cert, ["domain"], ["T > 0", "T >= 1", "N >= 2", "T < N - 1"])).ok


def test_kl_at_three_records_is_the_hexagons_value():
    by_hand = 11 / 15 * math.log(1.5) - math.log(1.25) / 6
    assert math.isclose(brute.kl_level_float(THREE, "pairs"), by_hand)
    assert math.isclose(float(_at(CERTS[KL_HEXAGON]["upper"], 3, F(3, 2))), by_hand)
    assert by_hand < 2 * 0.5 * math.log(1.5) / 1.5          # below V = 2 (T - 1) log(T)/T
    cert = CERTS[KL_HEXAGON]
    assert check_certificate(cert).ok
    other = [["T", "1/T"], ["1/T", "T"], ["-T + 3 - 1/T", "1/T"]]
    assert not check_certificate(edited(cert, ["upper_certificate", "hexagon"], other)).ok
    assert not check_certificate(edited(cert, ["upper"], "2*(T - 1)*log(T)/T")).ok
