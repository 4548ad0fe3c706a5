"""The mechanism claims are judged from the data and the exact channels (GitHub issue 10, item 3).

Each test changes one field of a claim node (a mutant of the data) or checks a value against a hand
derivation; none of them passed on the checkers that carried closed forms, grids or inequalities in code.
"""

import copy
from fractions import Fraction as F

import pytest
import sympy
from sympy import Rational as R

from implgraph.mechanisms.calibrate import exact_level
from implgraph.mechanisms.channels import empirical_response, randomised_response
from implgraph.io.theorems import load_claims
from implgraph.checks import check_claim


def _claim(cid, **changes):
    node = next(c for c in load_claims() if c.get("id") == cid)
    node = copy.deepcopy(node)
    node.update(changes)
    return node


# -- eq. 2: the true t comes from the Fig. 5 channel's table -----------------------------------------

def test_eq2_true_t_from_the_channel_hand():
    # p_y = (1/10, 9/10), p_t = 1/2.  Class of records a_1: Pr_E(a_1) = p_t + (1 - p_t) p_y(a_1) = 11/20
    # against Pr_D(a_1) = 1/10: ratio 11/2; Pr_D(a_2)/Pr_E(a_2) = (9/10)/((1/2)(9/10)) = 2.  Class of
    # records a_2: Pr_E(a_2) = 19/20 vs 9/10 (19/18), Pr_D(a_1)/Pr_E(a_1) = (1/10)/(1/20) = 2.  t = 11/2.
    py = [R(1, 10), R(9, 10)]
    assert exact_level(empirical_response(py, R(1, 2)), py, "mult-t-closeness").value == R(11, 2)


def test_eq2_refuted_with_a_rechecked_witness():
    v = check_claim(_claim("ekenstedt2022/eq-2"))
    assert v.verdict == "refuted"
    w = v.witness
    py1, pt = F(w["params"]["py1"]), F(w["params"]["p_t"])
    # hand: the printed t is 1/(1 - p_t) (mu_i = p_y(a_i)); the true t is the max of the ratios above
    true_t = max(pt / py1 + 1 - pt, pt / (1 - py1) + 1 - pt, 1 / (1 - pt))
    assert F(w["engine"]) == true_t > F(w["printed"]) == 1 / (1 - pt)


def test_eq2_mutant_with_the_true_level_holds():
    # the hand-derived worst case (see above) written as the printed level: nothing in code expects 'refuted'
    v = check_claim(_claim("ekenstedt2022/eq-2", level="Max(p_t/py1 + 1 - p_t, p_t/py2 + 1 - p_t, 1/(1 - p_t))"))
    assert v.verdict == "holds", v.evidence


def test_eq1_mutant_with_the_channel_level_holds():
    # Fig. 4: Pr(a|a)/Pr(a|b) = (p + (1 - p)/n)/((1 - p)/n) = 1 + n p/(1 - p)
    v = check_claim(_claim("ekenstedt2022/eq-1", level="ln(1 + n*p_LDP/(1 - p_LDP))"))
    assert v.verdict == "holds", v.evidence
    assert "reading_verdict" not in v.details          # no printed N left to read as n


def test_eq1_refuted_and_witness_hand():
    v = check_claim(_claim("ekenstedt2022/eq-1"))
    assert v.verdict == "refuted" and v.details["reading_verdict"] == "refuted"
    p, n, N = (F(v.witness["params"][k]) for k in ("p_LDP", "n", "N"))
    assert sympy.exp(sympy.sympify(v.witness["engine"])) == sympy.Rational(1 + n * p / (1 - p))
    assert sympy.exp(sympy.sympify(v.witness["printed"])) == sympy.Rational(1 + p / (N * (1 - p)))


EQ5_N_AS_2 = ("U_LDP == Max(py2*(1 - p_LDP)/2, py1*(p_LDP + (1 - p_LDP)/2)) + "
              "Max(py1*(1 - p_LDP)/2, py2*(p_LDP + (1 - p_LDP)/2))")


def test_eq5_verdict_follows_the_channel_the_data_names():
    # (5) with N = n = 2 is eq. (4) on Fig. 4: p(a_i, a_i) = p_y(a_i)(p + (1 - p)/2), p(a_j, a_i) = p_y(a_j)(1 - p)/2
    assert check_claim(_claim("ekenstedt2022/eq-5", formula=EQ5_N_AS_2)).verdict == "holds"
    # on Fig. 5 (keep p, else draw from p_y) at p = 1/2, p_y = (1/4, 3/4): column a_1 max(1/4 * 5/8,
    # 3/4 * 1/8) = 5/32, column a_2 max(1/4 * 3/8, 3/4 * 7/8) = 21/32, U = 13/16; the formula gives 3/4
    v = check_claim(_claim("ekenstedt2022/eq-5", formula=EQ5_N_AS_2,
                           mechanism={"keep": "p_LDP", "fallback": "empirical"}))
    assert v.verdict == "refuted", v.evidence


# -- Figures 6 and 7: the data's formula and grid are obeyed ---------------------------------------------

def _fig7_printed_hand(t0, n):
    """The printed Fig. 7 quantities at p_y uniform, N = 100, k = 5 (hand, with fractions).

    eps_t: t0 = (k/N)(1 + ((N - k - 1)/k) e) -> e = (t0 N - k)/(N - k - 1); p_LDP = N(e - 1)/(1 + N(e - 1))
    (eq. 1 inverted); eq. 2 at p_y = 1/n has mu = 1/n, so t = 1/(1 - p_t) and p_t = 1 - 1/t0.
    """
    N, k = 100, 5
    e = F(t0 * N - k, N - k - 1)
    p = N * (e - 1) / (1 + N * (e - 1))
    pt = 1 - F(1, 1) / t0
    u_ldp = n * max(F(1, n) * (1 - p) / N, F(1, n) * (p + (1 - p) / N))
    f1 = F(1, n) * (pt * (p + (1 - p) / N) + (1 - pt) * (F(1, n) * p + (1 - p) / N))
    f2 = F(1, n) * (pt * (1 - p) / N + (1 - pt) * (F(1, n) * (p + (1 - p) / N)))
    return u_ldp, n * max(f1, f2)


@pytest.mark.slow
def test_fig7_reversed_inequality_is_refuted():
    u_ldp, u_both = _fig7_printed_hand(2, 4)
    assert u_ldp > u_both                            # so U_LDP <= U_tClo_LDP fails at t0 = 2, n = 4
    v = check_claim(_claim("ekenstedt2022/fig-7",
                           formula="U_LDP <= U_tClo_LDP and U_tClo >= U_tClo_LDP and U_LDP >= U_tClo"))
    assert v.verdict == "refuted", v.evidence
    key = next(k for k, r in v.details["printed"].items() if "U_LDP <= U_tClo_LDP" in k and r["witness"])
    w = v.details["printed"][key]["witness"]
    n = int(key.split(":")[0].split("=")[1])
    hand = _fig7_printed_hand(F(w["t0"]), n)
    assert (F(w["lhs"]), F(w["rhs"])) == hand and hand[0] > hand[1]


@pytest.mark.slow
def test_fig7_grid_mutant_changes_the_checked_range():
    v = check_claim(_claim("ekenstedt2022/fig-7", grid={"t0": {"interval": ["1", "2"]}, "n": {"values": ["2", "4"]}}))
    assert v.bound.startswith("t0 in [1, 2], n in {2, 4}")
    assert all(not k.startswith("n = 6") for k in v.details["printed"])
    for r in v.details["exact_channels"].values():
        if r["witness"]:
            assert 1 <= F(r["witness"]["t0"]) <= 2


@pytest.mark.slow
def test_fig6_grid_mutant_narrow_interval_holds():
    # at p_y(a1) = 1/2 (inside the mutant's grid) the printed quantities are, by hand: p_LDP = 5050/5097
    # (eps_t = ln(195/94), eq. 1), p_t = 1/2 (eq. 2: mu_i = p_y(a_i), the 1/(1 - p_t) term), U_LDP = p +
    # (1 - p)/100 = 505047/509700, U_tClo = 2 * (1/2)(1/2 + 1/4) = 3/4 <= U_LDP
    v = check_claim(_claim("ekenstedt2022/fig-6", grid={"py1": {"interval": ["9/20", "11/20"]}}))
    assert v.verdict == "holds", v.evidence
    full = check_claim(_claim("ekenstedt2022/fig-6"))
    assert full.verdict == "refuted"
    w = full.witness
    assert F(w["lhs"]) < F(w["rhs"])


@pytest.mark.slow
def test_fig6_exact_channels_witness_hand():
    v = check_claim(_claim("ekenstedt2022/fig-6"), {})
    res = v.details["exact_channels"]
    assert v.details["reading_verdict"] == "refuted"
    w = next(r["witness"] for r in res.values() if r["witness"])
    # hand at p_y(a1) = 1/2: the core's LDP level of Fig. 4 is 1 + 2p/(1 - p) = 195/94 -> p = 101/289;
    # Fig. 5's t on pure classes is max(2 p_t + 1 - p_t, 1/(1 - p_t)) = 2 -> p_t = 1/2;
    # U_LDP = (1 + p)/2 = 195/289, U_tClo = (1/2)(1 + p_t)/2 * 2 = 3/4
    if F(w["py1"]) == F(1, 2):
        assert (F(w["lhs"]), F(w["rhs"])) == (F(195, 289), F(3, 4))
    assert F(w["lhs"]) < F(w["rhs"])


# -- domingo-ferrer2015 --------------------------------------------------------------------------------

def test_table1_instances_hand():
    v = check_claim(_claim("domingo-ferrer2015/table-1"))
    assert v.verdict == "verified-bounded"
    for t in range(1, 7):
        t = F(t)
        emph, other, orig = t / (t + 1), 1 / (t * (t + 1)), 1 / (t + 1)
        assert emph + t * other == 1                  # a distribution over t + 1 buckets
        level = max(emph / orig, orig / other)        # Pr_E/Pr_D emphasised, Pr_D/Pr_E the others
        assert v.details["instances"][str(t)] == str(level) == str(t)


def test_table1_mutant_level_is_refuted():
    v = check_claim(_claim("domingo-ferrer2015/table-1", level="t + 1"))
    assert v.verdict == "refuted"
    assert v.witness == {"t": "1", "core": "1", "printed": "2"}   # t = 1: every mass is 1/2


def test_table1_mutant_masses_change_the_instances():
    # with masses 1/2 and 1/(2t) the rows are still distributions and the original data is still
    # 1/(t + 1)... no: the mean is (1/2 + t/(2t))/(t + 1) = 1/(t + 1); the level is max((1/2)/(1/(t+1)),
    # (1/(t+1))/(1/(2t))) = max((t+1)/2, 2t/(t+1)), e.g. t = 3: max(2, 3/2) = 2 != 3
    layout = {"size": "t + 1", "diagonal": "1/2", "off_diagonal": "1/(2*t)", "reference": "1/(t + 1)"}
    v = check_claim(_claim("domingo-ferrer2015/table-1", layout=layout))
    assert v.verdict == "refuted"
    assert v.details["instances"]["3"] == "2"


def test_sec62_mutant_strict_inequality_is_refuted():
    v = check_claim(_claim("domingo-ferrer2015/sec-6.2", formula="k > t + 1"))
    assert v.verdict == "refuted"
    t, N, l = (F(v.witness[k]) for k in ("t", "N", "l"))
    assert N / ((t + 1) * l) == t + 1                 # equality: k >= t + 1 but not k > t + 1


def test_sec61_region_comes_from_the_data():
    # at t = 1 every b solves t b/N + (1/t)(1 - b/N) = 1; with when t >= 1 the solution is not unique
    v = check_claim(_claim("domingo-ferrer2015/sec-6.1", when=["t >= 1", "N >= 1"]))
    assert v.verdict != "holds"
    assert check_claim(_claim("domingo-ferrer2015/sec-6.1")).verdict == "holds"


def test_fig4_ldp_level_of_randomised_response_hand():
    # n = 3, p = 1/2: (1/2 + 1/6)/(1/6) = 4
    assert exact_level(randomised_response(3, R(1, 2)), None, "ldp").value == sympy.log(4)
