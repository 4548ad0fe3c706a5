"""utility_equation._value: a printed formula at a witness point (values by hand)."""

from __future__ import annotations

import sympy

from implgraph.checks.utility_equation import _value

a, b = sympy.symbols("a b", real=True)


def test_a_max_at_a_point():
    # Max(1/3, 3) = 3
    assert _value(sympy.Max(a / b, b / a), {a: 1, b: 3}) == 3


def test_no_value_is_written_as_sympy_writes_it():
    # 1/0: sympy's subs gives zoo, and so does _value (not an exception)
    assert _value(a / b, {a: 1, b: 0}) is sympy.zoo


def test_a_symbol_left_over():
    assert _value(a + b, {a: sympy.Rational(1, 2)}) == b + sympy.Rational(1, 2)
