"""The factoring shortcut (:mod:`implgraph.core.plain_factor`) gives sympy's ``factor_list`` answer, and declines
where it cannot be sure of sympy's order (the caller then asks sympy).

Expected factorisations are derived by hand in the comment beside each case.
"""

from __future__ import annotations

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
