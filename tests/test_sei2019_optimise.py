"""sei2019 Section V-C: E_L2 (eq. 9), the closed-form solve of Algorithm 1 and its parameter choice."""

import itertools
from fractions import Fraction

import pytest
import sympy

from implgraph.core.errors import InputError
from implgraph.mechanisms.randomized_anonymization import optimise
from implgraph.mechanisms.randomized_anonymization.channel import posterior
from implgraph.mechanisms.randomized_anonymization.optimise import (closeness_parameters, diversity_parameters,
                                                                    expected_l2, expected_l2_squared, solve_p)
from implgraph.mechanisms.randomized_anonymization.privacy import emd


def worst_emd(prior, p, eta, ground):
    """The largest EMD between A and the posterior of any released eta-subset (brute force)."""
    return max(emd(prior, posterior(prior, z, p, eta), ground)
               for z in itertools.combinations(range(len(prior)), eta))


PRIORS = [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)],
          [Fraction(2, 5), Fraction(1, 5), Fraction(1, 5), Fraction(1, 10), Fraction(1, 10)]]


def test_expected_l2_hand_values():
    # eq. (9) at N = 10, d = 4, p = 1/2, eta = 2, by hand:
    # (1 - 4)(1/4 * 4 + 2 - (1/4 + 4) * 2) / (1/4 * 4 * 10 * (4 - 2)) = (-3)(-11/2)/20 = 33/40
    assert expected_l2(10, 4, sympy.Rational(1, 2), 2) ** 2 == sympy.Rational(33, 40)
    assert expected_l2_squared(10, 4, Fraction(1, 2), 2) == Fraction(33, 40)
    assert expected_l2(10, 4, 1, 1) == 0


@pytest.mark.parametrize("ground", ["equal", "ordered"])
@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("t", [Fraction(1, 20), Fraction(1, 5)])
def test_solve_p_is_the_root(prior, ground, t):
    """At the closed-form p the EMD is exactly t (or p = 1 is within t); a bit more p exceeds t."""
    d = len(prior)
    for eta in range(1, d):
        for z in itertools.combinations(range(d), eta):
            p = solve_p(prior, z, t, eta, ground)
            at = emd(prior, posterior(prior, z, p, eta), ground)
            if p < 1:
                assert at == t
                assert emd(prior, posterior(prior, z, p + (1 - p) / 100, eta), ground) > t
            else:
                assert at <= t


def test_solve_p_agrees_with_sympy_solve():
    prior, z, eta, t = PRIORS[0], (0,), 1, Fraction(1, 10)
    p = sympy.Symbol("p", positive=True)
    b = posterior(prior, z, p, eta)
    # equal ground distance: EMD = sum over Z of (B - A) where B > A on Z (one-sided, as the direction is fixed)
    roots = sympy.solve(sympy.Eq(b[0] - prior[0], t), p)
    assert [r for r in roots if 0 <= r <= 1] == [sympy.Rational(*solve_p(prior, z, t, eta).as_integer_ratio())]


@pytest.mark.parametrize("ground", ["equal", "ordered"])
@pytest.mark.parametrize("prior", PRIORS)
def test_algorithm1_text_reading_is_safe(prior, ground):
    t = Fraction(1, 10)
    counts = [int(a * 40) for a in prior]
    choice = closeness_parameters(counts, t, ground=ground)
    assert choice.p > 0
    assert worst_emd(prior, choice.p, choice.eta, ground) <= t


def test_algorithm1_as_printed_can_violate():
    """Lines 6-13 as printed keep the least E_L2 over subsets, i.e. the largest p: a witness above t."""
    counts, t = [4, 2, 1, 1], Fraction(1, 10)
    prior = [Fraction(c, 8) for c in counts]
    printed = closeness_parameters(counts, t, reading="printed")
    assert worst_emd(prior, printed.p, printed.eta, "equal") > t


@pytest.mark.parametrize("counts", [[5, 3, 3, 2, 2, 1], [4, 2, 1, 1], [7, 0, 2, 1, 1], [1, 1, 1]])
@pytest.mark.parametrize("t", [Fraction(1, 20), Fraction(1, 8), Fraction(2, 5)])
@pytest.mark.parametrize("pick", [min, max])
def test_subset_sum_table_equals_enumeration(counts, t, pick):
    """Equal ground distance: the subset-sum shortcut gives the same p as enumerating every subset."""
    n = sum(counts)
    prior = [Fraction(c, n) for c in counts]
    for eta in range(1, len(counts)):
        fast = optimise.worst_p(prior, t, eta, "equal", pick, counts=counts)
        assert fast == optimise.worst_p(prior, t, eta, "equal", pick)


def test_subset_sums_by_hand():
    reach = optimise.subset_sums([2, 3, 3])
    assert set(map(int, reach[2].nonzero()[0])) == {5, 6}
    assert set(map(int, reach[3].nonzero()[0])) == {8}


def test_diversity_parameters():
    assert diversity_parameters(3, 5) == (1, 3)
    with pytest.raises(InputError, match="d_j >= l_j"):
        diversity_parameters(6, 5)


def test_zero_t_releases_nothing():
    assert closeness_parameters([3, 1], 0).p == 0


# -- exact integers: t's denominator times N beyond int64 (a t written with many digits, Fraction(0.1)) --------------

import sei2019_brute  # noqa: E402  (tests/ is on sys.path: conftest)

LONG_T = [Fraction(1, 10) + Fraction(1, 10 ** 17),      # --t 0.10000000000000001: N * 10^17 > 2^63 for N >= 93
          Fraction(0.1),                                 # the binary float 0.1 (denominator 2^55)
          Fraction(1, 10) + Fraction(1, 10 ** 40)]


@pytest.mark.parametrize("counts", [[50, 30, 15, 5], [60, 30, 10], [500, 300, 200], [40, 25, 20, 10, 5]])
@pytest.mark.parametrize("t", LONG_T)
def test_long_denominators_stay_within_t(counts, t):
    """Every released set's posterior is within t, by the brute-force channel (the old int64 products overflowed:
    [50, 30, 15, 5] at t = 1/10 + 10^-17 gave p = 1, eta = 3, the true values)."""
    choice = closeness_parameters(counts, t)
    assert choice.p > 0
    assert sei2019_brute.worst_emd(counts, choice.p, choice.eta) <= t


@pytest.mark.parametrize("counts", [[50, 30, 15, 5], [7, 0, 2, 1, 1]])
def test_long_denominator_agrees_with_its_short_neighbour(counts):
    """t = 1/10 + 10^-40 differs from 1/10 by less than any p step here: the same eta, p within 10^-30."""
    near, exact = closeness_parameters(counts, Fraction(1, 10) + Fraction(1, 10 ** 40)), closeness_parameters(
        counts, Fraction(1, 10))
    assert near.eta == exact.eta and 0 <= near.p - exact.p < Fraction(1, 10 ** 30)


@pytest.mark.parametrize("counts", [[5, 3, 3, 2, 2, 1], [4, 2, 1, 1], [3, 3, 3]])
@pytest.mark.parametrize("l", [2, 3])
def test_eta_from_l_section_VII_D(counts, l):
    """Sec. VII-D: eta from l gives eta >= l and (brute force) every released set within t."""
    t = Fraction(1, 10)
    choice = closeness_parameters(counts, t, eta_min=l)
    assert choice.eta >= l
    assert sei2019_brute.worst_emd(counts, choice.p, choice.eta) <= t


def test_eta_from_d_releases_the_whole_domain():
    """l = d: the only sets of >= d values are the domain itself (Algorithm 1 tries no eta = d): p = 0, eta = d."""
    choice = closeness_parameters([3, 1, 1], Fraction(1, 10), eta_min=3)
    assert (choice.p, choice.eta) == (0, 3)


def test_table_limit_refuses_before_allocating(monkeypatch):
    """(d + 1)(N + 1) cells beyond TABLE_LIMIT: one-line refusal, no table built."""
    monkeypatch.setattr(optimise, "subset_sums", lambda counts: pytest.fail("table built"))
    with pytest.raises(InputError, match="subset-sum table"):
        closeness_parameters([1] * 15_000, Fraction(1, 10))
