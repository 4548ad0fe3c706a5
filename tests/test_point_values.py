"""implgraph.core.point_values: exact values at a point (values worked out by hand)."""

import pytest
import sympy

from implgraph.core.point_values import NoValue, differ_at_point, screen_point, value_at

a, b, c = sympy.symbols("a b c", real=True)


@pytest.mark.parametrize("expr, point, expected", [
    (a / b + c, {a: 1, b: 4, c: sympy.Rational(1, 2)}, sympy.Rational(3, 4)),
    # Max(1/3, 3) = 3 <= 2 is false; Max(2/3, 3/2) = 3/2 <= 2 is true
    (sympy.Max(a / b, b / a) <= 2, {a: 1, b: 3}, sympy.false),
    (sympy.Max(a / b, b / a) <= 2, {a: 2, b: 3}, sympy.true),
    # (1 + 2 + 3) / (2 + 4 + 6 - 6) = 1; (1 + 2 + 3) / (2 + 4 + 6 - 7) = 6/5
    (sympy.Eq((a + b + c) / (2 * a + 2 * b + 2 * c - 6), 1), {a: 1, b: 2, c: 3}, sympy.true),
    (sympy.Eq((a + b + c) / (2 * a + 2 * b + 2 * c - 7), 1), {a: 1, b: 2, c: 3}, sympy.false),
    (sympy.sqrt(a) + 1, {a: 4}, sympy.Integer(3)),
])
def test_value_at(expr, point, expected):
    assert value_at(expr, point) == expected


@pytest.mark.parametrize("expr, point", [
    (sympy.Eq(a / b, 1), {a: 1, b: 0}),             # 1/0
    (sympy.Eq((a - 1) / (a * b - b), 0), {a: 1, b: 0}),   # 0/0
    (sympy.Max(a, sympy.sqrt(b)) <= 2, {a: 1, b: -1}),  # sqrt(-1)
])
def test_value_at_without_value(expr, point):
    with pytest.raises(NoValue):
        value_at(expr, point)


def test_value_at_needs_every_symbol():
    assert value_at(a + b, {a: 1}) is None


def test_screen_point():
    assert [screen_point(i) for i in range(3)] == [sympy.Rational(2, 7), sympy.Rational(1, 3), sympy.Rational(4, 11)]


@pytest.mark.parametrize("x, y, expected", [
    ((a ** 2 - b ** 2) / (a - b), a + b, False),    # the same rational function
    (a / b, b / a, True),                          # 2/7 / (1/3) = 6/7 and 7/6
    (a + b, a + c, True),                          # 2/7 + 1/3 and 2/7 + 4/11 (b < c by name)
    (sympy.sqrt(a), a, False),                     # not a rational function: not screened
    (a / (a - sympy.Rational(2, 7)), b, False),    # x has a denominator 0 at the point
])
def test_differ_at_point(x, y, expected):
    assert differ_at_point(x, y) is expected
