"""The Rating method as sei2019 states it (:mod:`implgraph.mechanisms.randomized_anonymization.rating`): sets by
hand, the weighted draw against its probabilities, the reconstruction against a sum over the records."""

import itertools

import numpy as np
import pytest

from implgraph.mechanisms.randomized_anonymization.rating import (fewest_values, rating_anonymize,
                                                                  rating_reconstruct, rating_sets)


def test_sets_by_hand():
    # values a a b c (codes 0 0 1 2), level 3: each record holds its own value and the 2 others
    sets = rating_sets([0, 0, 1, 2], 3, 3, np.random.default_rng(0))
    assert sets[:, 0].tolist() == [0, 0, 1, 2]
    assert all(sorted(row) == [0, 1, 2] for row in sets.tolist())
    # level 1: the own value alone; a value no record holds (code 3) is never drawn
    assert rating_sets([0, 1], 4, 1, np.random.default_rng(0)).tolist() == [[0], [1]]
    assert all(3 not in row for row in rating_sets([0, 1, 2, 2], 4, 3, np.random.default_rng(1)).tolist())
    with pytest.raises(ValueError):
        rating_sets([0, 1, 1], 2, 3, np.random.default_rng(0))                 # 2 values: no set of 3


def test_values_are_drawn_from_the_other_records():
    # 6,000 a, 3,000 b, 1,000 c and 10,000 d records; a d record draws another record's value: a with
    # probability 6/10, b 3/10, c 1/10; two distinct values {a, b}: 6/10 * 3/4 + 3/10 * 6/7 = 0.7071...
    codes = np.repeat([0, 1, 2, 3], [6_000, 3_000, 1_000, 10_000])
    rng = np.random.default_rng(7)
    added = rating_sets(codes, 4, 2, rng)[codes == 3, 1]
    for v, p in ((0, .6), (1, .3), (2, .1)):
        share = (added == v).mean()
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / len(added)), (v, share)
    pair = np.sort(rating_sets(codes, 4, 3, rng)[codes == 3, 1:], axis=1)
    share = ((pair[:, 0] == 0) & (pair[:, 1] == 1)).mean()
    p = .6 * .3 / .4 + .3 * .6 / .7
    assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / len(pair))


def _direct(release, attrs):
    """``w / prod l_j`` counted record by record over every cell of each record's product of sets."""
    idx = [release.index(a) for a in attrs]
    out = np.zeros(tuple(len(release.domains[j]) for j in idx))
    for r in range(release.N):
        for cell in itertools.product(*(release.sets[j][r].tolist() for j in idx)):
            out[cell] += 1
    return out / np.prod([release.levels[j] for j in idx])


def test_reconstruction_equals_the_direct_sum():
    rng = np.random.default_rng(3)
    cols = {"a": rng.choice(list("xyzw"), 60).tolist(), "b": rng.choice(list("pq"), 60).tolist(),
            "c": rng.choice(list("rstuv"), 60).tolist()}
    rel = rating_anonymize(cols, {"a": 2, "b": 1, "c": 3}, rng)
    assert [fewest_values(rel, c) for c in "abc"] == [2, 1, 3]
    for attrs in (["a"], ["a", "c"], ["c", "b", "a"]):
        est = rating_reconstruct(rel, attrs)
        assert np.allclose(est, _direct(rel, attrs)) and np.isclose(est.sum(), 60)


def test_a_frequent_value_is_underestimated_and_rare_ones_over():
    # 900 a, 60 b, 40 c at level 2: every b and c record adds a (the only other value weighing much), every a
    # record adds b or c: x_hat(a) = (900 + about 100) / 2 = about 500, far below 900; x_hat(b) and x_hat(c)
    # = (own + about 900 * their share among b, c) / 2: about (60 + 540) / 2 = 300 and (40 + 360) / 2 = 200
    codes = np.repeat([0, 1, 2], [900, 60, 40])
    rel = rating_anonymize({"s": np.array(list("abc"))[codes].tolist()}, {"s": 2}, np.random.default_rng(2))
    est = rating_reconstruct(rel, ["s"])
    assert 480 < est[0] < 520 and est[1] > 60 and est[2] > 40 and np.isclose(est.sum(), 1000)
