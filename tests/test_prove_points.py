"""The parameters of the bounded search at a point (:func:`implgraph.engines.prove_points.params_at`)."""

import sympy

from implgraph.core.formula import Word
from implgraph.engines.prove_points import params_at

k = sympy.Symbol("k", integer=True)


def test_integer_expressions_become_ints():
    out = params_at({"k": k + 1}, {k: sympy.Integer(2)})
    assert out == {"k": 3} and type(out["k"]) is int


def test_rational_and_irrational_values_are_kept_exact():
    # a delta of 1/10 is not 0 (int() truncated it), an eps of log(2) is not 0
    out = params_at({"delta": sympy.Rational(1, 10), "eps": sympy.log(2), "half": k / 2}, {k: sympy.Integer(3)})
    assert out == {"delta": sympy.Rational(1, 10), "eps": sympy.log(2), "half": sympy.Rational(3, 2)}


def test_words_and_infinite_orders_as_they_are():
    out = params_at({"ground": Word("equal"), "alpha": sympy.oo}, {})
    assert out["ground"] == Word("equal") and out["alpha"] is sympy.oo
