"""Frequency and entropy l-diversity (sei2019 Definitions 2-3) against hand computations."""

import pytest
import sympy

from implgraph.levels import optimal_level
from implgraph.table import table_from_rows


def one_hot(values, buckets):
    return [[1 if v == b else 0 for b in buckets] for v in values]


@pytest.mark.parametrize("values,classes,freq_l,entropy_l", [
    # two classes, each {x, y}: relative frequency 1/2 everywhere -> l = 2; entropy ln 2 -> l = 2
    (["x", "y", "x", "y"], ["E1", "E1", "E2", "E2"], sympy.Integer(2), sympy.Integer(2)),
    # class E1 = {x, x, x, y}: max frequency 3/4 -> l = 4/3; entropy l = (3/4)^(-3/4) (1/4)^(-1/4)
    # class E2 = {x, y}: l = 2 for both; the table's l is the minimum over classes
    (["x", "x", "x", "y", "x", "y"], ["E1"] * 4 + ["E2"] * 2, sympy.Rational(4, 3),
     sympy.Rational(3, 4) ** sympy.Rational(-3, 4) * sympy.Rational(1, 4) ** sympy.Rational(-1, 4)),
    # singleton classes (sei2019's "Age" view): l = 1 for both
    (["x", "y", "z"], ["A", "B", "C"], sympy.Integer(1), sympy.Integer(1)),
])
def test_l_diversity_levels(values, classes, freq_l, entropy_l):
    buckets = sorted(set(values)) if len(set(values)) > 1 else ["x", "other"]
    t = table_from_rows(one_hot(values, buckets), buckets=buckets, classes=classes)
    assert sympy.simplify(optimal_level(t, "frequency-l-diversity").value - freq_l) == 0
    assert sympy.simplify(optimal_level(t, "entropy-l-diversity").value - entropy_l) == 0


def test_l_diversity_needs_classes():
    t = table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]])
    assert not optimal_level(t, "frequency-l-diversity").defined


def test_entropy_never_exceeds_frequency_bound():
    # exp(entropy) >= 1/max p always (Renyi entropies decrease in their order): entropy l >= frequency l
    buckets = ["x", "y", "z"]
    t = table_from_rows(one_hot(["x", "x", "y", "z", "x", "y"], buckets), buckets=buckets,
                        classes=["E1"] * 4 + ["E2"] * 2)
    freq = optimal_level(t, "frequency-l-diversity").value
    ent = optimal_level(t, "entropy-l-diversity").value
    assert bool(ent >= freq)
