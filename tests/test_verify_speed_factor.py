"""The shortcuts of cold verify's speed give the answers of the paths they replace: the factoring shortcut
(:mod:`implgraph.core.plain_factor`) gives sympy's ``factor_list`` answer and declines where it cannot be sure of
sympy's order (the caller then asks sympy); a level claim's canonical grid visits its points in its fixed order.

Expected factorisations and points are derived by hand in the comment beside each case.
"""

from __future__ import annotations

import itertools

import sympy

from implgraph.core import factoring
from implgraph.core.plain_factor import plain_factor_list

x, y, k, N = sympy.symbols("x y k N")


def test_a_sum_is_split_into_content_monomial_and_irreducible_factors():
    # -2*x**2*y + 2*x*y**2 = -2 * x * y * (x - y): content 2, monomial x*y, rest -(x - y) (leading coefficient
    # made positive, the sign into the constant); sorted: x and y (one generator each, the same key: the product's
    # order, x before y), then x - y (two generators)
    c, fs = plain_factor_list(-2 * x**2 * y + 2 * x * y**2)
    assert c == -2 and dict(fs) == {y: 1, x: 1, x - y: 1}
    assert [f for f, _ in fs] == [x, y, x - y]


def test_factors_of_the_rest_are_sorted_by_their_form_in_its_generators():
    # x*y + x + y + 1 = (x + 1)*(y + 1); in the generators (x, y) y + 1 is [[1, 1]] (one row) and x + 1 is
    # [[1], [1]] (two rows): y + 1 first
    assert plain_factor_list(x * y + x + y + 1) == (1, ((y + 1, 1), (x + 1, 1)))


def test_a_monomial_power_is_a_sympy_integer_multiplicity_as_sympy_gives_it():
    # 3*x**3*k + 3*x**3 = 3 * x**3 * (k + 1): x with multiplicity 3 (written x**3 in the sum)
    c, fs = plain_factor_list(sympy.expand(3 * x**3 * (k + 1)))
    assert c == 3 and dict(fs) == {x: 3, k + 1: 1}
    assert isinstance(dict(fs)[x], sympy.Integer)


def test_a_square_factor_of_the_rest():
    # N**2*k**2 - 2*N*k + 1 = (N*k - 1)**2
    assert plain_factor_list(N**2 * k**2 - 2 * N * k + 1) == (1, ((N * k - 1, 2),))


def test_the_answers_are_sympys_on_assorted_sums():
    for p in [sympy.expand(e) for e in (x * (x + 1) * (y - 2) ** 2, -6 * k * N**2 * (N - k) * (N + k + 1),
                                        (N * k - x) * (x**2 + 1), 4 * x + 6 * y, -x - y)]:
        want = sympy.factor_list(p)
        assert plain_factor_list(p) == (want[0], tuple(want[1]))
        assert factoring._factor_list(p) == (want[0], tuple(want[1]))


def test_it_declines_and_sympy_answers_where_the_order_is_not_its_to_know():
    k0 = sympy.Symbol("k0")
    # k and k0: sympy's generator order does not tell them apart
    assert plain_factor_list(k * k0 + k) is None
    assert factoring._factor_list(k * k0 + k) == (1, ((k, 1), (k0 + 1, 1)))
    # rational coefficients, and anything but a sum, are sympy's
    assert plain_factor_list(x / 2 + y) is None
    assert factoring._factor_list(x / 2 + y) == (sympy.Rational(1, 2), ((x + 2 * y, 1),))
    assert plain_factor_list(x * y) is None
    assert plain_factor_list(sympy.sqrt(2) * x + y) is None
    # N as an integer and N as a plain symbol: the same name, one generator key
    n_int = sympy.Symbol("N", integer=True)
    assert plain_factor_list(n_int * x + N * x) is None
    assert factoring._factor_list(n_int * x + N * x)[0] == 1


def test_the_canonical_grid_visits_its_points_stage_by_stage_each_once():
    from implgraph.checks.level_points import _grid_points
    from implgraph.core.region import Region
    s = sympy.Symbol("s", real=True)
    # 0 < s < 1: stage 1 (0..4) has no point inside; stage 2 adds 1/2; stage 3 adds 1/3 and 2/3 (1/2 seen);
    # stage 4 adds 1/4 and 3/4
    points = [p[s] for p in itertools.islice(_grid_points(Region({s: "real"}, (s > 0, s < 1)), [s]), 5)]
    assert points == [sympy.Rational(1, 2), sympy.Rational(1, 3), sympy.Rational(2, 3), sympy.Rational(1, 4),
                      sympy.Rational(3, 4)]
    assert all(isinstance(v, sympy.Rational) for v in points)
