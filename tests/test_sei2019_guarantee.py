"""The exact re-check of a release's guarantee (guarantee.py) against hand values and the brute-force channel."""

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

import sei2019_brute
from implgraph.core.errors import InputError
from implgraph.mechanisms.randomized_anonymization import guarantee
from implgraph.mechanisms.randomized_anonymization.guarantee import achievable_sums, check_attribute, closeness_achieved

F = Fraction


@pytest.mark.parametrize("counts, p, eta, ground, level", [
    ([1, 1], 1, 1, "equal", F(1, 2)),            # {v} reveals v: B is a point mass, EMD 1 - 1/2
    ([1, 1], F(1, 2), 1, "equal", F(1, 4)),      # kappa_c = 3/4, kappa_d = 1/4: B = (3/4, 1/4)
    ([1, 3], 1, 1, "equal", F(3, 4)),            # releasing the rare value: B = (1, 0), A = (1/4, 3/4)
    ([1, 1, 2], 1, 1, "ordered", F(5, 8)),       # {0} reveals 0: cumulative differences 3/4, 1/2, 0 over d - 1 = 2
    ([2, 0, 2], 1, 1, "equal", F(1, 2)),         # {1} has probability 0 at p = 1 and is not counted
    ([3, 1, 1], 0, 2, "equal", F(0)),            # p = 0: the set does not depend on the value
    ([3, 1, 1], F(1, 3), 3, "ordered", F(0)),    # eta = d: the whole domain, B = A
])
def test_hand_values(counts, p, eta, ground, level):
    got, exact, _ = closeness_achieved(counts, p, eta, ground)
    assert got == level and exact


def test_against_the_brute_force_channel():
    rng = random.Random(7)
    for _ in range(60):
        d = rng.randint(2, 5)
        counts = [rng.randint(0, 6) for _ in range(d)]
        if not sum(counts):
            continue
        for p in (F(0), F(2, 7), F(1)):
            for eta in range(1, d + 1):
                for ground in ("equal", "ordered"):
                    assert closeness_achieved(counts, p, eta, ground)[0] == sei2019_brute.worst_emd(
                        counts, p, eta, ground), (counts, p, eta, ground)


@pytest.mark.parametrize("seed", range(4))
def test_the_count_sum_route_equals_enumeration(monkeypatch, seed):
    """Beyond ENUM_LIMIT the equal ground distance's level comes from the achievable count sums: the same value."""
    rng = random.Random(seed)
    cases = []
    for _ in range(25):
        d = rng.randint(2, 7)
        counts = [rng.randint(0, 9) for _ in range(d)]
        if sum(counts):
            cases.append((counts, rng.choice([F(0), F(1, 5), F(3, 4), F(1)]), rng.randint(1, d - 1)))
    expected = [sei2019_brute.worst_emd(c, p, eta) for c, p, eta in cases]
    monkeypatch.setattr(guarantee, "ENUM_LIMIT", 0)
    for (counts, p, eta), want in zip(cases, expected):
        level, exact, how = closeness_achieved(counts, p, eta, "equal")
        assert level == want and exact and "count sums" in how, (counts, p, eta)


def test_ordered_beyond_the_limit_is_a_bound(monkeypatch):
    monkeypatch.setattr(guarantee, "ENUM_LIMIT", 0)
    counts, p, eta = [4, 1, 2, 3], F(1, 2), 2
    level, exact, how = closeness_achieved(counts, p, eta, "ordered")
    assert not exact and "bounded" in how
    assert level >= sei2019_brute.worst_emd(counts, p, eta, "ordered")
    assert level == sei2019_brute.worst_emd(counts, p, eta, "equal")


def test_achievable_sums_by_hand():
    assert achievable_sums([2, 3, 3], 2).tolist() == [5, 6]
    assert achievable_sums([2, 3, 3], 3).tolist() == [8]
    assert achievable_sums([0, 4], 1).tolist() == [0, 4]
    counts = [5, 1, 7, 7, 2]
    for k in range(1, 6):
        assert achievable_sums(counts, k).tolist() == sorted({sum(z) for z in itertools.combinations(counts, k)})


def test_a_large_domain_is_quick():
    """41 values (Adult's native-country), sets of 20: C(41, 20) ~ 2.7 * 10^11 sets, by their count sums."""
    rng = random.Random(3)
    counts = [rng.randint(0, 3000) for _ in range(41)]
    level, exact, how = closeness_achieved(counts, F(1, 3), 20)
    assert exact and "count sums" in how and 0 < level < 1


def test_bits_limit(monkeypatch):
    monkeypatch.setattr(guarantee, "ENUM_LIMIT", 0)
    monkeypatch.setattr(guarantee, "BITS_LIMIT", 10)
    with pytest.raises(InputError, match="bit operations"):
        closeness_achieved([3, 4, 5], F(1, 2), 1)


def test_check_attribute():
    counts = [1, 1]
    member = np.array([[True, False], [False, True]])
    g = check_attribute("x", counts, 1, 1, member, l=1, t=F(1, 2))
    assert g.met and g.achieved_t == F(1, 2) and g.achieved_l == 1
    g = check_attribute("x", counts, 1, 1, member, t=F(1, 3))
    assert not g.met and "t = 1/2 > 1/3" in g.shortfall()
    g = check_attribute("x", counts, 1, 1, member, l=2)
    assert not g.met and "l = 1 < 2" in g.shortfall()
    with pytest.raises(InputError, match="do not fit"):
        check_attribute("x", [1, 2], 1, 1, member, l=1)
