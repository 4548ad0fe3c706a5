"""The counting of microdata with each used column factorized once: classes, buckets and the missing-value
policy, against values derived by hand and a brute force over the records' tuples."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import implgraph.io.microdata as microdata  # noqa: E402
from implgraph.definitions._common import pairwise_ratio_concrete  # noqa: E402
from implgraph.io.microdata import bucket_codes, class_codes, count_records  # noqa: E402
from implgraph.io.weighted import WeightedConcreteTable  # noqa: E402


def _brute_classes(df, qi):
    """Class index per record in order of first appearance of the quasi-identifier tuple."""
    seen, out = {}, []
    for row in zip(*(df[c].tolist() for c in qi)):
        out.append(seen.setdefault(row, len(seen)))
    return out, list(seen)


def _records(n=60, seed=3):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"a": rng.choice(["x", "y", "z"], n), "b": rng.integers(0, 4, n),
                         "c": rng.choice(["p", "q"], n), "s": rng.choice(["flu", "hiv", "cold"], n)})


@pytest.mark.parametrize("limit", [2 ** 62, 5])
def test_class_codes_are_first_appearance_of_the_tuple(monkeypatch, limit):
    """Mixed-radix keys numbered once, or renumbered on the way when the radix product passes the limit
    (limit 5: after every column): the classes are the tuples' order of first appearance either way."""
    monkeypatch.setattr(microdata, "_KEY_LIMIT", limit)
    df = _records()
    key, labels = class_codes(df, ["a", "b", "c"])
    brute, tuples = _brute_classes(df, ["a", "b", "c"])
    assert key.tolist() == brute
    assert labels == [f"a={a}, b={b}, c={c}" for a, b, c in tuples]


def test_codes_at_hand_give_the_same_classes_and_buckets():
    df = _records()
    coded = {c: pd.factorize(df[c]) for c in ["a", "b", "s"]}
    coded = {c: (np.asarray(k), list(u)) for c, (k, u) in coded.items()}
    key, labels = class_codes(df, ["a", "b"], coded)
    assert key.tolist() == _brute_classes(df, ["a", "b"])[0]
    values, buckets = bucket_codes(df["s"], coded["s"])
    assert buckets == ["cold", "flu", "hiv"]                            # sorted as text
    assert [buckets[v] for v in values] == df["s"].tolist()


def test_drop_forgets_a_value_held_only_by_dropped_records():
    """Records 2 and 4 lack a quasi-identifier; record 4 alone holds 'zz': dropped, it is no bucket; the counts
    are those of records 1, 3 and 5 (by hand)."""
    df = pd.DataFrame({"zip": ["13", None, "13", "", "14"], "s": ["b", "a", "a", "zz", "b"]})
    tables, n, dropped = count_records(df, ["zip"], ["s"], na="drop")
    ct = tables["s"]
    assert (n, dropped) == (3, 2)
    assert ct.buckets == ["a", "b"]
    assert ct.class_labels == ["zip=13", "zip=14"]
    sizes, sums = ct.class_sums()
    assert sizes.tolist() == [2, 1] and sums.tolist() == [[1, 1], [0, 1]]


def test_numeric_buckets_sorted_by_number_after_drop():
    df = pd.DataFrame({"q": ["u", "u", None, "v"], "s": [10, 9, 100, 10]})
    tables, n, dropped = count_records(df, ["q"], ["s"], na="drop")
    assert tables["s"].buckets == ["9", "10"] and (n, dropped) == (3, 1)


def test_pairwise_ratio_of_a_grouped_table_reads_its_distinct_rows():
    """Rows (1/4, 3/4) twice and (2/4, 2/4) once: bucket 1 ranges 1..2, bucket 2 2..3, so the ratio is 2 (by
    hand); the records are never written out."""
    ct = WeightedConcreteTable([[1, 3], [2, 2]], 4, ["x", "y"], [2, 1])
    assert pairwise_ratio_concrete(ct) == Fraction(2)
    assert "_numer" not in ct.__dict__
    assert pairwise_ratio_concrete(ct.expand()) == Fraction(2)
