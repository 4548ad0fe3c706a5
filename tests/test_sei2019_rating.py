"""The Rating method as sei2019 states it (:mod:`implgraph.mechanisms.randomized_anonymization.rating`): groups by
hand, the reconstruction against a direct sum over the records."""

import itertools

import numpy as np
import pytest

from implgraph.mechanisms.randomized_anonymization.rating import (fewest_values, rating_anonymize, rating_groups,
                                                                  rating_reconstruct)


def test_groups_by_hand():
    # values a a b c (codes 0 0 1 2), l = 2: G = 2 groups; sorted a, a, b, c -> groups 0, 1, 0, 1
    group, table = rating_groups([0, 0, 1, 2], 3, 2, np.random.default_rng(0))
    assert sorted(map(tuple, table.tolist())) == [(1, 0, 1), (1, 1, 0)]       # {a, c} and {a, b}
    assert group[2] != group[3] and group[0] != group[1]
    # a a a b, l = 2: a is held by 3 > N / l = 2 records (not 2-eligible): one group holds a twice
    _, table = rating_groups([0, 0, 0, 1], 2, 2, np.random.default_rng(0))
    assert sorted(map(tuple, table.tolist())) == [(1, 1), (2, 0)]


@pytest.mark.parametrize("seed", range(5))
def test_eligible_groups_hold_l_distinct_values(seed):
    rng = np.random.default_rng(seed)
    d, level = 6, 3
    codes = rng.integers(0, d, 200)
    while np.bincount(codes, minlength=d).max() > 200 // level:              # keep the data l-eligible
        codes = rng.integers(0, d, 200)
    group, table = rating_groups(codes, d, level, rng)
    assert table.sum() == 200 and table.max() == 1                           # every value at most once per group
    assert set(table.sum(axis=1).tolist()) <= {level, level + 1}             # l or l + 1 records per group
    for g in range(table.shape[0]):                                          # the tables agree with the ID table
        assert np.array_equal(np.bincount(codes[group == g], minlength=d), table[g])


def _direct(release, attrs):
    """The reconstruction summed record by record: prod_j count_{g_j}(c_j) / |g_j| for every cell c."""
    idx = [release.index(a) for a in attrs]
    shape = tuple(len(release.domains[j]) for j in idx)
    out = np.zeros(shape)
    for r in range(release.N):
        for cell in itertools.product(*(range(s) for s in shape)):
            w = 1.0
            for j, c in zip(idx, cell):
                row = release.table[j][release.groups[j][r]]
                w *= row[c] / row.sum()
            out[cell] += w
    return out


def test_reconstruction_equals_the_direct_sum():
    rng = np.random.default_rng(3)
    cols = {"a": rng.choice(list("xyzw"), 60).tolist(), "b": rng.choice(list("pq"), 60).tolist(),
            "c": rng.choice(list("rstuv"), 60).tolist()}
    rel = rating_anonymize(cols, {"a": 2, "b": 1, "c": 3}, rng)
    for attrs in (["a"], ["a", "c"], ["c", "b", "a"]):
        assert np.allclose(rating_reconstruct(rel, attrs), _direct(rel, attrs))


def test_one_attribute_is_reconstructed_exactly_and_sums_keep_n():
    rng = np.random.default_rng(4)
    vals = rng.choice(list("abcdef"), 500).tolist()
    rel = rating_anonymize({"s": vals, "t": rng.choice(list("xy"), 500).tolist()}, {"s": 4, "t": 1}, rng)
    truth = [vals.count(v) for v in "abcdef"]                  # each group's records return its counts
    assert np.allclose(rating_reconstruct(rel, ["s"]), truth)
    assert np.isclose(rating_reconstruct(rel, ["s", "t"]).sum(), 500)
    assert fewest_values(rel, "s") >= 4 or max(truth) > 500 // 4
