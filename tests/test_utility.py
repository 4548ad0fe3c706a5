"""Utility (eq. 3-6), calibrations, the claim checkers and the figure command."""


import pytest
import sympy
from sympy import Rational as R

from implgraph.cli import main
from implgraph.io.datafile import data_files
from implgraph.io.validate import load_yaml
from implgraph.core.errors import InputError
from implgraph.definitions.levels import optimal_level
from implgraph.papers.ekenstedt2022 import fig6_curves, fig7_curves
from implgraph.mechanisms.calibrate import keep_for_level
from implgraph.mechanisms.channels import empirical_response, randomised_response
from implgraph.mechanisms.datasets import Dataset, worst_case_dataset
from implgraph.mechanisms.utility import bayes_utility, mechanism_utilities, utility
from implgraph.checks import check_claim


def test_bayes_utility_hand():
    half = R(1, 2)
    # p(y, z) = 1/2 * (3/4 or 1/4); sum_z max_y = 3/8 + 3/8
    assert bayes_utility(randomised_response(2, half), [half, half]) == R(3, 4)
    # skewed: z = a1: max(1/10 * 3/4, 9/10 * 1/4) = 9/40; z = a2: 9/10 * 3/4 = 27/40
    assert bayes_utility(randomised_response(2, half), [R(1, 10), R(9, 10)]) == R(9, 10)


def test_eq3_with_bayes_strategy_is_eq4():
    m = empirical_response([R(1, 5), R(3, 10), R(1, 2)], R(1, 3))
    py = [R(1, 5), R(3, 10), R(1, 2)]
    # the Bayes guess for each z: the y maximising p(y, z)
    pj = [[py[y] * m.matrix[y, z] for z in range(3)] for y in range(3)]
    strategy = sympy.zeros(3, 3)
    for z in range(3):
        best = max(range(3), key=lambda y: pj[y][z])
        strategy[z, best] = 1
    assert utility(m, py, strategy=strategy) == bayes_utility(m, py) == utility(m, py)


def test_eq3_general_gain_hand():
    # identity channel (p = 1): the guess is y itself, U = sum_y p_y g(y, y)
    m = randomised_response(2, 1)
    g = sympy.Matrix([[1, R(1, 2)], [R(1, 2), 2]])
    assert utility(m, [R(1, 4), R(3, 4)], gain=g) == R(1, 4) + R(3, 2)
    # no information (p = 0): best fixed guess yhat maximises sum_y p_y g(y, yhat) = max(1/4 + 3/8, 1/8 + 3/2)
    m0 = randomised_response(2, 0)
    assert utility(m0, [R(1, 4), R(3, 4)], gain=g) == R(13, 8)


def _claim(cid):
    for f in data_files("theorems"):
        for c in load_yaml(f).get("claims") or []:
            if c.get("id") == cid:
                return c
    raise KeyError(cid)


def _rr_keep(eps, n):
    """Fig. 4 calibrated for LDP (the data's definition of p_LDP)."""
    return keep_for_level(lambda p: randomised_response(n, p), "ldp", eps)


def _er_keep(t0, py):
    """Fig. 5 calibrated for multiplicative t-closeness on the value partition (the data's p_t)."""
    return keep_for_level(lambda p: empirical_response(py, p), "mult-t-closeness", t0, py)


def test_calibrations_hand():
    eps = sympy.log(R(195, 94))
    assert _rr_keep(eps, 2) == R(101, 289)         # 1 + 2p/(1-p) = 195/94
    # pure class of a1: p/(1/10) + 1 - p = 2 -> p = 1/9 (and 1/(1 - 1/9) = 9/8 <= 2)
    assert _er_keep(2, [R(1, 10), R(9, 10)]) == R(1, 9)
    # uniform: 2p + 1 - p = 2 at p = 1, 1/(1 - p) = 2 at p = 1/2: the smaller wins
    assert _er_keep(2, [R(1, 2), R(1, 2)]) == R(1, 2)


def test_calibrated_mechanisms_reach_the_levels_exactly():
    """The engine's p_LDP and p_t give exactly eps_t and t0 by the core."""
    eps = sympy.log(R(195, 94))
    m4 = randomised_response(2, _rr_keep(eps, 2))
    assert optimal_level(m4.apply(Dataset.from_counts({None: [1, 1]})), "ldp").value == eps
    m5 = empirical_response([R(1, 10), R(9, 10)], _er_keep(2, [R(1, 10), R(9, 10)]))
    assert optimal_level(m5.apply(worst_case_dataset([10, 90], 5)), "mult-t-closeness").value == 2


def test_mechanism_utilities_fig6_point():
    u = mechanism_utilities([R(1, 2), R(1, 2)], R(101, 289), R(1, 2))
    assert u["U_LDP"] == R(195, 289)            # (1 + p)/2
    assert u["U_tClo"] == R(3, 4)
    assert u["U_tClo_LDP"] < u["U_LDP"] < u["U_tClo"]


def test_bad_inputs():
    with pytest.raises(InputError, match="sum"):
        bayes_utility(randomised_response(2, R(1, 2)), [R(1, 2), R(2, 3)])
    with pytest.raises(InputError, match="outside"):
        bayes_utility(randomised_response(2, R(1, 2)), [R(3, 2), -R(1, 2)])
    with pytest.raises(InputError, match="< 1"):
        _er_keep(R(1, 2), [R(1, 2), R(1, 2)])


FAST = {"ekenstedt2022/eq-1": "refuted", "ekenstedt2022/eq-2": "refuted", "ekenstedt2022/eq-5": "refuted", "ekenstedt2022/eq-6": "refuted",
        "ekenstedt2022/sec-5d": "holds", "domingo-ferrer2015/sec-6.1": "holds",
        "domingo-ferrer2015/sec-6.2": "holds"}
SLOW = {"ekenstedt2022/fig-6": "refuted", "ekenstedt2022/fig-7": "holds"}


@pytest.mark.parametrize("cid, expected", sorted(FAST.items()))
def test_checkers(cid, expected):
    v = check_claim(_claim(cid))
    assert v.verdict == expected, v.evidence


@pytest.mark.slow
@pytest.mark.parametrize("cid, expected", sorted(SLOW.items()))
def test_checkers_slow(cid, expected):
    v = check_claim(_claim(cid))
    assert v.verdict == expected, v.evidence


def test_sec5d_exact_value():
    # 2 = (5/100)(1 + (94/5) e) -> e = 195/94
    v = check_claim(_claim("ekenstedt2022/sec-5d"))
    assert v.details["eps_t"] == "log(195/94)"


def test_sec5d_mutant_claimed_value_is_refuted():
    # ln(195/94) = 0.7297...: 0.8 is more than 0.05 away
    import copy
    c = copy.deepcopy(_claim("ekenstedt2022/sec-5d"))
    c["claimed"] = {"eps_t": "0.8"}
    assert check_claim(c).verdict == "refuted"


def test_fig_curves_exact_points():
    # p_y = (1/2, 1/2): p_LDP = 101/289 (1 + 2p/(1 - p) = 195/94), U_LDP = (1 + p)/2; p_t = 1/2, U_tClo = 3/4
    e = fig6_curves([R(1, 2)])[0]
    assert e["U_LDP"] == R(195, 289) and e["U_tClo"] == R(3, 4)
    # n = 4, t0 = 2: e^eps = 195/94, 1 + 4p/(1 - p) = 195/94 -> p = 101/477; U_LDP = p + (1 - p)/4 = 65/159
    f = fig7_curves([R(2)], 4)[0]
    assert f["U_LDP"] == R(65, 159)


@pytest.mark.slow
def test_figure_command(tmp_path):
    out = tmp_path / "f.png"
    assert main(["figure", "fig-6", "--out", str(out), "--points", "21"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_figure_command_bad_dir(tmp_path, capsys):
    out = tmp_path / "missing" / "f.png"
    assert main(["figure", "fig-7", "--out", str(out), "--points", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fix:" in err
    assert not out.exists()


@pytest.mark.parametrize("cid", ["domingo-ferrer2015/fig-2/mult-t", "domingo-ferrer2015/table-1/t2/mult-t",
                                 "domingo-ferrer2015/table-1/t3/mult-t"])
def test_domingo_table_claims(cid):
    from implgraph.io.theorems import load_claims
    claim = next(c for c in load_claims() if c.get("id") == cid)
    v = check_claim(claim)
    assert v.verdict == "holds", v.evidence


@pytest.mark.slow
def test_fig6_data_reading_row():
    ctx = {}
    v = check_claim(_claim("ekenstedt2022/fig-6"), ctx)
    (row,) = ctx["extra_rows"]
    assert row.id == "ekenstedt2022/fig-6#reading"
    assert row.verdict == "refuted"
    w = row.details["judged"]["U_LDP >= U_tClo"]["witness"]
    # hand at the witness: printed p_LDP = 5050/5097, p_t = 1/2; Fig. 4 as read keeps N = 100 as divisor;
    # Fig. 5: p(y, z) = p_y(y)(p_t [y = z] + (1 - p_t) p_y(z))
    from fractions import Fraction as F
    y = [F(w["py1"]), 1 - F(w["py1"])]
    p, pt = F(5050, 5097), F(1, 2)
    u_ldp = sum(max(y[i] * ((p if i == j else 0) + (1 - p) / 100) for i in range(2)) for j in range(2))
    u_tclo = sum(max(y[i] * ((pt if i == j else 0) + (1 - pt) * y[j]) for i in range(2)) for j in range(2))
    assert (F(w["lhs"]), F(w["rhs"])) == (u_ldp, u_tclo) and u_ldp < u_tclo
    assert v.details["exact_channels"]["U_LDP >= U_tClo_LDP"]["proved_on_interval"] is True
