"""Lazy maxima (:mod:`implgraph.checks.lazy_max`): equal values are recognised exactly."""

import pytest
import sympy

from implgraph.checks.lazy_max import same_value

x, y = sympy.symbols("x y", positive=True)
N, k = sympy.symbols("N k", integer=True)


@pytest.mark.parametrize("a, b, equal", [
    (x / (x + 1), 1 - 1 / (x + 1), True),                                  # by hand: (x + 1 - 1)/(x + 1)
    ((N - k) * (N + k) / (N * k), N / k - k / N, True),                    # (N^2 - k^2)/(N k)
    (-(N - 1) * (N - k) / (N * (k - N + 1)), (N - 1) * (N - k) / (N * (N - k - 1)), True),
    (x / (x + 1), x / (x + 2), False),
    (sympy.log(x * y), sympy.log(x) + sympy.log(y), True),   # not rational in symbols: cancel decides (x, y > 0)
    (sympy.exp(x) * (x - 1) / (x ** 2 - 1), sympy.exp(x) / (x + 1), True),
    (sympy.Max(x, y, evaluate=False), sympy.Max(y, x, evaluate=False), True),
    (sympy.oo, x, False),
    (None, None, True),
])
def test_same_value(a, b, equal):
    assert same_value(a, b) is equal
    if a is not None and b is not None and sympy.oo not in (a, b) and not isinstance(a, sympy.Max):
        # the fast path agrees with the general one (cancel over a common denominator)
        assert (sympy.cancel(sympy.together(a - b)) == 0) is equal
