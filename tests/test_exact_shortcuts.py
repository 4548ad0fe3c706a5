"""The exact shortcuts of the symbolic level code: factoring a product factor by factor, the
irreducibility test for polynomials linear in a symbol, rational evaluation of conditions at a point,
and the reuse of solver answers (values derived by hand)."""

import pytest
import sympy

from implgraph.core.at_point import _exact_truth, _NotPlain
from implgraph.core.factoring import _linear_irreducible, product_factors
from implgraph.core.region import Region
from implgraph.solvers import region_backend_name

x, y, z = sympy.symbols("x y z")


@pytest.mark.parametrize("p, expected", [
    # 2*(x - y)*(y - x)**2*(x - y)*(x + y) = 2*(x - y)**4*(x + y)
    (2 * (x - y) * (y - x) ** 2 * (x**2 - y**2), (2, {x - y: 4, x + y: 1})),
    # -3*(y - x)*x**2 = 3*x**2*(x - y)
    (-3 * (y - x) * x**2, (3, {x: 2, x - y: 1})),
    # (2x + 4)*(x*y - 1): content 2 pulled out of the first factor
    ((2 * x + 4) * (x * y - 1), (2, {x + 2: 1, x * y - 1: 1})),
    (sympy.Integer(0) * x, (0, {})),
])
def test_product_factors(p, expected):
    c, fs = product_factors(p)
    assert c == expected[0]
    assert dict(fs) == expected[1]


@pytest.mark.parametrize("p, expected", [
    # linear in x: a = -2y, b = -4y**2 + 6, content 2, leading coefficient made positive
    (-2 * x * y - 4 * y**2 + 6, (-2, x * y + 2 * y**2 - 3)),
    # linear in z with a = x, b = y**2 + 1: gcd 1
    (x * z + y**2 + 1, (1, x * z + y**2 + 1)),
    (3 * x + 6, (3, x + 2)),
    # y*(x + y): linear in x but gcd(a, b) = gcd(y, y**2) = y
    (x * y + y**2, None),
    # x**2 - y**2 = (x - y)(x + y): no symbol of degree 1
    (x**2 - y**2, None),
    # not a sum
    (x * y, None),
])
def test_linear_irreducible(p, expected):
    got = _linear_irreducible(p)
    if expected is None:
        assert got is None
    else:
        assert got == (expected[0], ((expected[1], 1),))


half, third = sympy.Rational(1, 2), sympy.Rational(1, 3)


@pytest.mark.parametrize("cond, expected", [
    (sympy.Gt(x * y, sympy.Rational(1, 7)), True),            # 1/6 > 1/7
    (sympy.Le(x + y, sympy.Rational(5, 6)), True),            # 5/6 <= 5/6
    (sympy.Lt(x + y, sympy.Rational(5, 6)), False),
    (sympy.Eq(x / y, sympy.Rational(3, 2)), True),            # (1/2)/(1/3) = 3/2
    (sympy.Ne(x**2, sympy.Rational(1, 4)), False),
    (sympy.And(sympy.Gt(x, y), sympy.Lt(x, 1)), True),
    (sympy.Or(sympy.Gt(x, 1), sympy.Lt(y, 0)), False),
    (sympy.Not(sympy.Gt(x, 1)), True),
])
def test_exact_truth(cond, expected):
    assert _exact_truth(cond, {x: half, y: third}) is expected


@pytest.mark.parametrize("cond", [
    sympy.Gt(sympy.exp(x), 1),          # a function
    sympy.Gt(1 / (x - half), 0),        # a zero denominator at the point
    sympy.Gt(z, 0),                     # a symbol without a value
])
def test_exact_truth_declines(cond):
    with pytest.raises(_NotPlain):
        _exact_truth(cond, {x: half, y: third})


def test_unsat_on_a_larger_region_is_reused():
    backend = region_backend_name()
    region = Region({x: "real"}, (sympy.Gt(x, 1),))
    assert region.decide(sympy.Gt(x, 0)) is True          # x > 1 and x <= 0 is unsat
    child = region.add(sympy.Lt(x, 5))
    # found without the solver: the child's constraints extend the parent's
    assert child._known_answer(sympy.Not(sympy.Gt(x, 0)), backend) == ("unsat", None)
    assert child.decide(sympy.Gt(x, 0)) is True
    # a sat answer of the parent says nothing about the child
    assert region.decide(sympy.Gt(x, 6)) is None
    assert child._known_answer(sympy.Gt(x, 6), backend) is None


def test_strict_inequality_unsat_where_the_weak_one_is():
    backend = region_backend_name()
    region = Region({x: "real"}, (sympy.Lt(x, 1),))
    assert region.decide(sympy.Lt(x, 2)) is True          # x < 1 and x >= 2 is unsat
    # x > 2 is unsat because x >= 2 is (on this region and on a sub-region), found without the solver
    assert region._known_answer(sympy.Gt(x, 2), backend) == ("unsat", None)
    assert region.add(sympy.Gt(x, 0))._known_answer(sympy.Gt(x, 2), backend) == ("unsat", None)
    # the converse does not hold: x > 5 unsat says nothing about x >= 5
    assert region.decide(sympy.Le(x, 5)) is True           # x > 5 is unsat
    assert region._known_answer(sympy.Ge(x, 5), backend) is None
