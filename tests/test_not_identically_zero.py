"""core.point_values.not_identically_zero: an exact screen before simplify(expr) == 0 (values by hand)."""

from __future__ import annotations

import pytest
import sympy

from implgraph.core.point_values import not_identically_zero

x = sympy.Symbol("x", real=True)
pos = sympy.Symbol("pos", positive=True)
n = sympy.Symbol("n", integer=True)
neg = sympy.Symbol("neg", integer=True, negative=True)
y = sympy.Symbol("y", real=True)

CASES = [
    (sympy.Max(x, x / (2 * (2 * x - 1))) - x, True),   # x = -5/2: Max(-5/2, 5/24) + 5/2 = 65/24
    ((x**2 - 1) / (x - 1) - x - 1, False),             # 0 wherever defined
    (sympy.Max(pos, -pos) - pos, False),                # 0 for every positive value; negative points not tried
    (n - n**2, True),                                   # an integer symbol takes integers: n = 3 gives 3 - 9 = -6
    (neg - neg**2, False),                              # the integer screen is positive: no point allowed, not shown
    (x * y - y * x, False),
    (x - y, True),                                      # 2/7 - (-5/2)
    (1 / (x - sympy.Rational(2, 7)) - 1, True),         # no value at x = 2/7; at x = -5/2: -1/(39/14) - 1
]


@pytest.mark.parametrize("expr, expected", CASES, ids=[str(c[0]) for c in CASES])
def test_not_identically_zero(expr, expected):
    assert not_identically_zero(expr) is expected
