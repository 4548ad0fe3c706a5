"""Exact divergence levels of large tables: the float prefilter keeps the largest, and a tie of huge exact forms ends.

The level of a class divergence is the largest over the classes; on a table of many classes only the classes whose
divergence, in floating point with a generous error bound, may be the largest get the exact form (a product of
powers). The prefilter must never drop the largest: checked here against the unfiltered exact maximum on random
tables (values derived by the exact comparison of every class, as before the prefilter).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest

from implgraph.core.concrete import Enclosed
from implgraph.definitions._divergence_values import _largest_log, _near_top, _pow_gt
from implgraph.definitions.divergences import Divergence


def _random_table(rng, n_classes, buckets):
    rows, classes = [], []
    for c in range(n_classes):
        for _ in range(rng.randint(1, 3)):
            w = [rng.randint(0, 4) for _ in range(buckets)]
            w[rng.randrange(buckets)] += 1
            rows.append([F(v, sum(w)) for v in w])
            classes.append(f"E{c}")
    return rows, classes


def _value(level):
    return float(level.lo) if isinstance(level, Enclosed) else float(level)


@pytest.mark.parametrize("kind,order", [("kl", None), ("renyi", 2), ("renyi", 3), ("renyi", "oo")])
def test_the_prefilter_keeps_the_largest_class(kind, order):
    rng = random.Random(7)
    div = Divergence(kind, order, compares="class")
    for _ in range(40):
        rows, classes = _random_table(rng, rng.randint(9, 20), rng.randint(2, 4))
        pairs = div.compared(rows, classes)
        forms = [div.log_form(x, y) for x, y in pairs]
        if any(f is None for f in forms) or any(not isinstance(f, tuple) for f in forms):
            continue
        every = _largest_log(forms)                         # every class compared exactly (no prefilter)
        kept = _near_top(kind, div.order, pairs)
        assert len(kept) < len(pairs) or len(pairs) <= 2
        got = div.level(rows, classes)
        assert _value(got) == pytest.approx(_value(every), rel=1e-25, abs=1e-25)
        assert str(got.expr if isinstance(got, Enclosed) else got) == str(every.expr if isinstance(every, Enclosed)
                                                                         else every)


def test_a_tie_of_huge_exact_forms_ends_quickly_and_keeps_both():
    # log(2^10000)/10000 and log(4^5000)/10000 are both log 2: an exact comparison would raise each to a power of
    # 10^8 bits; they are equal to 60 digits, so the level keeps both in an exact Max
    a, b = (F(2) ** 10000, F(10000)), (F(4) ** 5000, F(10000))
    assert _pow_gt(a, b) is None
    level = _largest_log([a, b])
    assert isinstance(level, Enclosed) and math.isclose(float(level.lo), math.log(2), rel_tol=1e-12)
