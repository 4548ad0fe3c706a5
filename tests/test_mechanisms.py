"""Mechanisms of ekenstedt2022 Section V: exact channels, levels by the core, Monte-Carlo cross-check."""

import numpy as np
import pytest
import sympy
from sympy import Rational as R

from implgraph.core.errors import InputError
from implgraph.definitions.levels import all_levels, optimal_level
from implgraph.papers.ekenstedt2022 import fig4_level
from implgraph.mechanisms.calibrate import mechanism_level
from implgraph.mechanisms.channels import empirical_response, lumped_randomised_response, randomised_response, sequential
from implgraph.mechanisms.datasets import Dataset, worst_case_dataset

p, pt, pl = sympy.symbols("p p_t p_LDP", real=True)


def test_fig4_matrix_hand():
    m = randomised_response(3, R(1, 2))
    assert m.matrix[0, 0] == R(2, 3) and m.matrix[0, 1] == R(1, 6) and m.matrix[2, 1] == R(1, 6)
    assert all(sum(m.matrix.row(i)) == 1 for i in range(3))


def test_fig5_matrix_hand():
    m = empirical_response([R(1, 5), R(3, 10), R(1, 2)], R(1, 3))
    # keep 1/3, else draw from p_y: Pr(a1 | a1) = 1/3 + 2/3 * 1/5
    assert m.matrix[0, 0] == R(1, 3) + R(2, 15)
    assert m.matrix[1, 0] == R(2, 15)
    assert m.matrix[0, 2] == R(1, 3)


def test_sequential_matrix_hand():
    py = [R(1, 4), R(3, 4)]
    m = sequential(empirical_response(py, pt), randomised_response(2, pl))
    for i in range(2):
        for j in range(2):
            hand = pt * (pl * int(i == j) + (1 - pl) / 2) + (1 - pt) * (pl * py[j] + (1 - pl) / 2)
            assert sympy.simplify(m.matrix[i, j] - hand) == 0
    m.validate()


@pytest.mark.parametrize("n, pv, ratio", [(2, R(1, 2), 3), (3, R(1, 2), 4), (4, R(1, 3), 3)])
def test_fig4_ldp_level_hand(n, pv, ratio):
    # e^eps = (p + (1-p)/n) / ((1-p)/n) = 1 + n p/(1-p)
    lv = mechanism_level(randomised_response(n, pv), Dataset.from_counts({None: [1] * n}), "ldp")
    assert lv.value == sympy.log(ratio)


def test_fig4_ldp_symbolic_n():
    n = sympy.Symbol("n", integer=True)
    ratio, _ = fig4_level(n, p)
    assert sympy.simplify(ratio - (1 + n * p / (1 - p))) == 0


def test_fig4_ldp_symbolic_p_full_matrix():
    lv = mechanism_level(randomised_response(3, p), Dataset.from_counts({None: [1, 1, 1]}), "ldp")
    piece = [pc for pc in lv.pieces if sympy.sympify(pc.condition).subs(p, R(1, 2)) == sympy.true][0]
    assert sympy.simplify(piece.value - (1 + 2 * p) / (1 - p)) == 0


@pytest.mark.parametrize("counts, ptv, t", [((10, 90), R(1, 2), R(11, 2)), ((50, 50), R(1, 2), 2),
                                            ((20, 80), R(1, 10), R(1, 10) * 5 + R(9, 10))])
def test_fig5_mult_t_worst_partition_hand(counts, ptv, t):
    # t = max(p_t/min p_y + 1 - p_t, 1/(1 - p_t))
    N = sum(counts)
    m = empirical_response([R(c, N) for c in counts], ptv)
    lv = optimal_level(m.apply(worst_case_dataset(counts, 5)), "mult-t-closeness")
    assert lv.value == max(t, 1 / (1 - ptv))


def test_fig4_mult_t_hand():
    # p = 101/289, uniform p_y, class of 5 records a1: max(1 + p, 1/(1 - p)) = 289/188
    m = randomised_response(2, R(101, 289))
    lv = optimal_level(m.apply(worst_case_dataset([50, 50], 5)), "mult-t-closeness")
    assert lv.value == R(289, 188)


def test_apply_blocks_and_all_levels():
    d = Dataset.from_counts({"E1": [3, 0], "E2": [1, 2]})
    table = randomised_response(2, R(1, 2)).apply(d)
    assert [(b.cls, int(b.count)) for b in table.blocks] == [("E1", 3), ("E2", 1), ("E2", 2)]
    levels = all_levels(table, k=2)
    assert levels["ldp"].value == sympy.log(3)
    assert levels["mult-t-closeness"].value is not None


def test_lumped_channel_rows_sum_to_one():
    n = sympy.Symbol("n", integer=True)
    lumped_randomised_response(n, p).validate()


@pytest.mark.parametrize("bad", [R(3, 2), -R(1, 10), 2, "1.5"])
def test_bad_probability(bad):
    with pytest.raises(InputError, match="outside"):
        randomised_response(2, bad)
    with pytest.raises(InputError, match="outside"):
        empirical_response([R(1, 2), R(1, 2)], bad)


def test_bad_distribution_and_domain():
    with pytest.raises(InputError, match="sum"):
        empirical_response([R(1, 2), R(2, 3)], R(1, 2))
    with pytest.raises(InputError):
        randomised_response(1, R(1, 2))
    with pytest.raises(InputError, match="larger than the data"):
        worst_case_dataset([3, 3], 7)
    with pytest.raises(InputError, match="fewer than k"):
        Dataset.from_counts({"E1": [1, 0], "E2": [2, 3]}).check_k(2)


def _monte_carlo(mech, n_per_value=40_000, seed=7):
    rng = np.random.default_rng(seed)
    exact = mech.numeric()
    for i in range(mech.n):
        out = mech.sample(np.full(n_per_value, i), rng)
        freq = np.bincount(out, minlength=mech.n) / n_per_value
        sigma = np.sqrt(exact[i] * (1 - exact[i]) / n_per_value)
        assert np.all(np.abs(freq - exact[i]) <= 5 * sigma + 1e-12), (i, freq, exact[i])


@pytest.mark.parametrize("mech", [
    randomised_response(3, R(1, 2)),
    randomised_response(4, R(1, 5)),
    empirical_response([R(1, 5), R(3, 10), R(1, 2)], R(1, 3)),
    sequential(empirical_response([R(1, 10), R(9, 10)], R(1, 2)), randomised_response(2, R(101, 289))),
])
def test_monte_carlo_matches_exact_channel(mech):
    _monte_carlo(mech)


def test_monte_carlo_sequential_is_the_composition():
    """Run Fig. 5 then Fig. 4 step by step and compare with the product matrix."""
    rng = np.random.default_rng(11)
    m5 = empirical_response([R(1, 5), R(3, 10), R(1, 2)], R(2, 5))
    m4 = randomised_response(3, R(1, 3))
    exact = sequential(m5, m4).numeric()
    n = 40_000
    for i in range(3):
        out = m4.sample(m5.sample(np.full(n, i), rng), rng)
        freq = np.bincount(out, minlength=3) / n
        assert np.all(np.abs(freq - exact[i]) <= 5 * np.sqrt(exact[i] * (1 - exact[i]) / n))
