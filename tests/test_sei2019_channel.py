"""sei2019 Section V-B: the set channel, exact, against a brute force of the algorithm and Monte Carlo."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from implgraph.core.errors import InputError
from implgraph.mechanisms.randomized_anonymization.channel import (SetChannel, inclusion_probabilities,
                                                                   posterior, set_probabilities)
from implgraph.mechanisms.randomized_anonymization.release import anonymize


def brute_channel(d, eta, p, v):
    """Pr(R = Z | v) by enumerating the algorithm's draws: the coin, then a uniform choice of subset."""
    out = {}
    others = [u for u in range(d) if u != v]
    heads = list(itertools.combinations(others, eta - 1))
    for extra in heads:                      # head: v plus eta - 1 distinct others, uniformly
        z = tuple(sorted((v, *extra)))
        out[z] = out.get(z, 0) + p / len(heads)
    tails = list(itertools.combinations(range(d), eta))
    for z in tails:                          # tail: eta distinct values, uniformly
        out[z] = out.get(z, 0) + (1 - p) / len(tails)
    return out


@pytest.mark.parametrize("d,eta", [(d, e) for d in range(1, 6) for e in range(1, d + 1)])
@pytest.mark.parametrize("p", [Fraction(0), Fraction(1, 3), Fraction(1)])
def test_channel_equals_brute_force(d, eta, p):
    ch = SetChannel(list(range(d)), p, eta)
    for v in range(d):
        brute = brute_channel(d, eta, p, v)
        for z in ch.outputs():
            assert ch.prob(z, v) == brute.get(z, 0)
        assert sum(ch.prob(z, v) for z in ch.outputs()) == 1


def test_kappas_are_the_papers_forms_symbolically():
    # kappa_c = (p + (1 - p) eta/d) / C(d-1, eta-1), kappa_d = (1 - (p + (1 - p) eta/d)) / C(d-1, eta)
    p, d, eta = sympy.symbols("p d eta", positive=True)
    kc, kd = set_probabilities(p, eta, d)
    paper_c = (p + (1 - p) * eta / d) / sympy.binomial(d - 1, eta - 1)
    paper_d = (1 - (p + (1 - p) * eta / d)) / sympy.binomial(d - 1, eta)
    assert sympy.simplify(sympy.combsimp(kc - paper_c)) == 0
    assert sympy.simplify(sympy.combsimp(kd - paper_d)) == 0


def test_inclusion_probabilities_are_eq_19():
    for d, eta in [(4, 2), (5, 3), (3, 1)]:
        p = Fraction(2, 7)
        ch = SetChannel(list(range(d)), p, eta)
        own, other = inclusion_probabilities(p, eta, d)
        assert own == sum(ch.prob(z, 0) for z in ch.outputs() if 0 in z)
        assert other == sum(ch.prob(z, 0) for z in ch.outputs() if 1 in z)


def test_output_distribution_of_a_dataset():
    ch = SetChannel(["a", "b", "c"], Fraction(1, 2), 2)
    counts = [3, 1, 0]
    brute = {}
    for v, c in enumerate(counts):
        for z, pr in brute_channel(3, 2, Fraction(1, 2), v).items():
            brute[z] = brute.get(z, 0) + Fraction(c, 4) * pr
    got = ch.output_distribution(counts)
    assert {tuple("abc".index(x) for x in z): Fraction(str(pr)) for z, pr in got.items()} == brute


def test_posterior_is_bayes_of_the_brute_channel():
    prior = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6), Fraction(0)]
    p, eta, z = Fraction(3, 5), 2, (0, 2)
    joint = [a * brute_channel(4, eta, p, v).get(z, 0) for v, a in enumerate(prior)]
    want = [x / sum(joint) for x in joint]
    assert [Fraction(str(b)) for b in posterior(prior, z, p, eta)] == want


def test_monte_carlo_matches_the_exact_channel():
    """200,000 draws from one input value; every set's frequency within 4 standard deviations."""
    d, eta, p, n = 4, 2, Fraction(1, 3), 200_000
    rng = np.random.default_rng(7)
    rel = anonymize({"s": ["1"] * n + ["0", "2", "3"]}, {"s": (p, eta)}, rng)
    m = rel.member[0][:n]
    assert (m.sum(axis=1) == eta).all()
    ch = SetChannel(["0", "1", "2", "3"], p, eta)
    for z in itertools.combinations(range(d), eta):
        freq = np.all(m[:, list(z)], axis=1).mean()
        exact = float(ch.prob(tuple(str(v) for v in z), "1"))
        assert abs(freq - exact) <= 4 * math.sqrt(exact * (1 - exact) / n)


def test_bad_parameters():
    with pytest.raises(InputError, match="eta"):
        SetChannel(["a", "b"], 1, 3)
    with pytest.raises(InputError, match="outside"):
        SetChannel(["a", "b"], Fraction(3, 2), 1)
