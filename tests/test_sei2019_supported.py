"""The exhaustive check's enumeration: supported releases as records' sets, and classes from them (by hand)."""

import sympy

from implgraph.mechanisms.randomized_anonymization import facts, privacy


def test_supported_records_by_hand():
    # p = 1/2, eta = 1, d = 2: both singletons have positive probability (kappa_d = 1/4);
    # S2 released as is (p = 1, eta = 1)
    cols = {"S1": [0], "S2": [1]}
    params = {"S1": ([0, 1], sympy.Rational(1, 2), 1), "S2": ([0, 1], 1, 1)}
    assert list(facts.supported_records(cols, params)) == [[((0,), (1,))], [((1,), (1,))]]


def test_supported_records_p_one_keeps_the_value():
    # p = 1, eta = 2, d = 3: the set always holds the input 0, so {1, 2} has probability 0
    cols = {"S1": [0], "S2": [0]}
    params = {"S1": ([0, 1, 2], 1, 2), "S2": ([0, 1], 1, 1)}
    assert [r[0][0] for r in facts.supported_records(cols, params)] == [(0, 1), (0, 2)]


def test_release_of_and_supported_releases_agree():
    cols = {"S1": [0, 2], "S2": [1, 0]}
    params = {"S1": ([0, 1, 2], sympy.Rational(1, 2), 2), "S2": ([0, 1], 1, 1)}
    records = list(facts.supported_records(cols, params))
    releases = list(facts.supported_releases(cols, params))
    assert len(records) == len(releases) == 9          # 3 two-subsets of 3 values for each of 2 records
    for sets, rel in zip(records, releases):
        assert [rel.sets(i) for i in range(rel.N)] == [list(s) for s in sets]
        assert rel.params == [(sympy.Rational(1, 2), 2), (1, 1)]


def test_classes_of_records_by_hand():
    # record 0: S1 {0, 1}, S2 {0}; record 1: S1 {1}, S2 {0, 1}. Classes for S1 keyed by the S2 value:
    # (0,): counts [1, 2] from records 0 and 1; (1,): counts [0, 1] from record 1
    records = [[(0, 1), (0,)], [(1,), (0, 1)]]
    assert privacy.classes_of_records(records, 0, 2) == {(0,): ([1, 2], [0, 1]), (1,): ([0, 1], [1])}
    # classes for S2 keyed by the S1 value: (0,): [1, 0]; (1,): [1, 0] + [1, 1] = [2, 1]
    assert privacy.classes_of_records(records, 1, 2) == {(0,): ([1, 0], [0]), (1,): ([2, 1], [0, 1])}
