"""sei2019 Section V-D: w (eq. 17), ValueAdding (eq. 18), the Bayes reconstruction (eq. 26-27), Defs. 7-9."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy

from implgraph.mechanisms.randomized_anonymization import reconstruct
from implgraph.mechanisms.randomized_anonymization.distances import hellinger, l1, l2
from implgraph.mechanisms.randomized_anonymization.reconstruct import (apply_delta, bayes, bayes_counts,
                                                                       support_counts, true_counts, value_adding)
from implgraph.mechanisms.randomized_anonymization.release import anonymize, encode


def simulate(n, dists, params, seed):
    rng = np.random.default_rng(seed)
    cols = {f"s{j}": rng.choice(len(p), n, p=p).astype(str).tolist() for j, p in enumerate(dists)}
    doms = {f"s{j}": [str(v) for v in range(len(p))] for j, p in enumerate(dists)}
    rel = anonymize(cols, {f"s{j}": params[j] for j in range(len(dists))}, rng, domains=doms)
    codes = [encode(cols[name], doms[name])[0] for name in cols]
    return rel, true_counts(codes, tuple(len(p) for p in dists))


@pytest.mark.parametrize("direct", [True, False])
def test_support_counts_by_brute_force(direct, monkeypatch):
    if not direct:                                   # the matrix-product path
        monkeypatch.setattr(reconstruct, "BINCOUNT_LIMIT", 0)
    rel, _ = simulate(300, [[.5, .3, .2], [.6, .4], [.25] * 4], [(Fraction(1, 2), 2), (1, 1), (1, 2)], 3)
    w = support_counts(rel, ["s0", "s1", "s2"])
    brute = np.zeros_like(w)
    for i in range(rel.N):
        for cell in itertools.product(*rel.sets(i)):
            brute[cell] += 1
    assert (w == brute).all()
    assert w.sum() == rel.N * 2 * 1 * 2


def test_no_noise_is_exact():
    rel, x = simulate(500, [[.5, .3, .2], [.6, .4]], [(1, 1), (1, 1)], 1)
    assert np.allclose(bayes(rel, ["s0", "s1"]), x)
    assert np.allclose(value_adding(rel, ["s0", "s1"]), x)


def test_value_adding_keeps_the_total():
    rel, _ = simulate(1000, [[.5, .3, .2], [.6, .4]], [(Fraction(1, 3), 2), (1, 1)], 2)
    assert np.isclose(value_adding(rel, ["s0", "s1"]).sum(), 1000)
    assert np.isclose(bayes(rel, ["s0", "s1"]).sum(), 1000)


def test_bayes_fixed_point_is_the_truth_on_expected_counts():
    """With w = E[w] = delta x (no sampling noise) the iteration (26)-(27) returns x."""
    # attribute 1: d = 3, p = 1, eta = 2 -> own 1, other 1/2; attribute 2: d = 3, p = 1/2, eta = 2 -> 5/6, 7/12
    facs = [(1.0, 0.5, 2), (5 / 6, 7 / 12, 2)]
    x = np.array([[400., 300., 200.], [150., 100., 50.], [30., 20., 10.]])
    w = apply_delta(x, facs)
    est = bayes_counts(w, facs, tol=1e-6)                        # SQUAREM
    assert np.abs(est - x).max() < 0.01                          # 0.0016 observed
    # the plain iteration as printed converges linearly (slowly) to the same point
    plain = bayes_counts(w, facs, tol=1e-4, max_iter=100_000, accelerate=False)
    assert np.abs(plain - x).max() < 1                           # 0.48 observed


def test_bayes_recovers_a_known_distribution():
    """200,000 records, (p, eta) = (1, 2) on d = 5 and d = 3 (frequency 2-diversity): the Bayes
    reconstruction's L1 distance is below 5% of N (sampling noise: about 3.5% expected), ValueAdding's
    is above 15%."""
    n = 200_000
    rel, x = simulate(n, [[.4, .3, .15, .1, .05], [.5, .3, .2]], [(1, 2), (1, 2)], 11)
    est = bayes(rel, ["s0", "s1"])
    assert l1(x.ravel().astype(float), est.ravel()) < 0.05 * n
    assert l1(x.ravel().astype(float), value_adding(rel, ["s0", "s1"]).ravel()) > 0.15 * n


def test_distances_paper_example():
    """Section II: A1 = (10, 100), B1 = (10, 80), A2 = (10, 25), B2 = (10, 5)."""
    assert l1([10, 100], [10, 80]) == 20 and l1([10, 25], [10, 5]) == 20
    assert l2([10, 100], [10, 80]) == 20 and l2([10, 25], [10, 5]) == 20
    assert hellinger([10, 100], [10, 80]) == (10 - 4 * sympy.sqrt(5)) / sympy.sqrt(2)
    assert hellinger([10, 25], [10, 5]) == (5 - sympy.sqrt(5)) / sympy.sqrt(2)
    # the paper prints 0.74 and 1.95 (two digits, truncated)
    assert 0.74 <= float(hellinger([10, 100], [10, 80])) < 0.75
    assert 1.95 <= float(hellinger([10, 25], [10, 5])) < 1.96
    assert np.isclose(hellinger(np.array([10., 25.]), np.array([10., 5.])), float(hellinger([10, 25], [10, 5])))


def test_bayes_converges_on_a_sparse_table():
    """Most cells empty (as Adult's native-country x workclass x education) and the counts noisy: the fixed
    point has empty cells, and SQUAREM's jump at its full step length leaves the orthant. Shortened towards
    the plain double step, the iteration converges in a few hundred steps (199 observed); taking the plain
    double step at every such jump needed 8,953 here (and ran to the cap of 10,000 on that Adult query)."""
    rng = np.random.default_rng(5)
    x = np.zeros((41, 7, 16))
    x[0] = rng.integers(0, 2_000, size=(7, 16))                  # one dominant value, like United-States
    x[1:5, :2, :4] = rng.integers(0, 30, size=(4, 2, 4))          # a few small cells, the rest 0
    # (p, eta) = (1, 4) on each attribute: own 1, other (eta - 1)/(d - 1) (eq. 19)
    facs = [(1.0, 3 / 40, 4), (1.0, 3 / 6, 4), (1.0, 3 / 15, 4)]
    w = rng.poisson(apply_delta(x, facs)).astype(float)          # sampling noise
    est = bayes_counts(w, facs, max_iter=10_000)
    assert est.converged and est.iterations < 1_000
