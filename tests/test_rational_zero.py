"""core.point_values.rational_zero: exact identity tests of rational functions (values by hand)."""

import pytest
import sympy

from implgraph.core.point_values import rational_zero

a, b, c = sympy.symbols("a b c", real=True)


@pytest.mark.parametrize("expr, expected", [
    ((a**2 - b**2) / (a - b) - (a + b), True),        # (a - b)(a + b) / (a - b)
    (1 / a + 1 / b - (a + b) / (a * b), True),         # common denominator a b
    ((a + b)**2 - a**2 - 2*a*b - b**2, True),
    (a / b - b / a, False),                            # 1 at a = b, but 2/7 / (1/3) - (1/3) / (2/7) != 0
    ((a - b)**2 * c - c * (a**2 + b**2), False),       # -2 a b c
    (sympy.Integer(0), True),
    (sympy.Rational(1, 3), False),
])
def test_rational_functions(expr, expected):
    assert rational_zero(expr) is expected


@pytest.mark.parametrize("expr", [sympy.sqrt(a) - sympy.sqrt(a) * 1 + sympy.sqrt(b), sympy.pi * a, sympy.Abs(a) - a])
def test_not_rational_functions_are_left_to_the_caller(expr):
    assert rational_zero(expr) is None
