"""WeightedConcreteTable sums counts exactly, beyond int64."""

from implgraph.io.weighted import WeightedConcreteTable


def test_weighted_table_counts_beyond_int64():
    """Counts whose sum leaves int64 (4 rows of 2^62 records: N = 2^64) are summed exactly."""
    t = WeightedConcreteTable([[1, 0], [0, 1], [1, 0], [1, 0]], 1, ["x", "y"], [2 ** 62] * 4)
    assert t.N == 2 ** 64
    assert t.total(0) == 3 * 2 ** 62 and t.total(1) == 2 ** 62
