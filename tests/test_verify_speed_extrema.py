"""implgraph.core.extrema: Min/Max built without sympy's pairwise comparisons give sympy's own objects."""

import pytest
import sympy
from sympy.functions.elementary.miscellaneous import MinMaxBase

from implgraph.core.extrema import extremum, fast_max, fast_min, xreplaced

x, y = sympy.symbols("x y", real=True)
p, q = sympy.symbols("p q", positive=True)
n = sympy.Symbol("n", integer=True, positive=True)
a1, a2, a3, b1, b2, b3 = sympy.symbols("a1 a2 a3 b1 b2 b3", real=True)


@pytest.fixture
def no_comparisons(monkeypatch):
    """sympy's pairwise comparison made to fail: a Min/Max built through it raises."""
    def refuse(cls, a, b):
        raise AssertionError(f"compared {a} and {b}")
    monkeypatch.setattr(MinMaxBase, "_is_connected", classmethod(refuse))


def test_unordered_pairs_built_without_comparisons(no_comparisons):
    # p/q - q/p = (p - q)(p + q)/(pq): positive for p > q, negative for p < q; x and x**2 cross at 0 and 1
    assert set(fast_max(p / q, q / p).args) == {p / q, q / p}
    assert set(fast_min(x, x ** 2).args) == {x, x ** 2}
    assert set(fast_max(x, y, x * y).args) == {x, y, x * y}


def test_ordered_pair_left_to_sympy():
    # n <= n**2 for every positive integer n (no point shows n above n**2): sympy drops n
    assert fast_max(n, n ** 2) == n ** 2
    assert fast_min(n, n ** 2) == n
    assert fast_max(x, x + 1) == x + 1          # x + 1 - x = 1 > 0 everywhere
    assert fast_min(p, -p) == -p               # p > 0 > -p


def test_numbers_and_nested_extrema_left_to_sympy():
    assert fast_max(sympy.Integer(2), sympy.Rational(7, 3)) == sympy.Rational(7, 3)
    assert fast_max(x, sympy.Max(x, y)) == sympy.Max(x, y)
    assert fast_min(x, sympy.oo) == x
    assert fast_max(x) == x


@pytest.mark.parametrize("args", [
    (p / q, q / p),
    (x, x ** 2, 1 - x),
    (a1 / b1, b1 / a1, a2 / b2, b2 / a2, a3 / b3, b3 / a3, (a1 + a2) / (b1 + b2), (b1 + b2) / (a1 + a2)),
    (n, n ** 2), (x, x + 1), (p, sympy.exp(p)), (x, y, x),
])
def test_same_object_as_sympy(args):
    for cls in (sympy.Max, sympy.Min):
        mine = extremum(cls, *args)
        sympy.core.cache.clear_cache()
        theirs = cls(*args)
        assert mine == theirs and mine.args == theirs.args and type(mine) is type(theirs)


def test_function_of_symbols_falls_back(no_comparisons):
    # exp(p) is not a rational function: no exact value at a point, so sympy builds (and compares) it
    with pytest.raises(AssertionError, match="compared"):
        fast_max(p, sympy.exp(p))


def test_xreplaced_is_xreplace():
    e = sympy.Max(p / q, q / p) + sympy.Min(x, y) * x
    for rule in ({p: 2}, {p: 2, q: 3}, {x: y}, {}, {sympy.Max(p / q, q / p): 5}, {q: p}):
        assert xreplaced(e, rule) == e.xreplace(rule)
    assert xreplaced(e, {p: 2, q: 3}) == sympy.Rational(3, 2) + sympy.Min(x, y) * x
