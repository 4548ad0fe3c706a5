"""``sympy.factor_list(p)`` of an expanded polynomial with integer coefficients, without sympy's expression
front end (:func:`plain_factor_list`).

``sympy.factor_list(p)`` of a sum ``p`` of monomials first writes ``p`` as ``together(p)``: the positive content
``C`` of its coefficients times the largest monomial ``M`` dividing every term times the rest ``Q`` (``gcd_terms``,
the most expensive part of the call); it then factors each of those apart: every symbol of ``M`` is a factor of its
own (a ``Poly`` in that symbol alone, its multiplicity a sympy ``Integer`` when above 1), and the factors of ``Q``
are ``Poly`` objects in ``Q``'s own symbols. The factors are finally sorted by a key of their dense form
(``_sorted_factors``: length, number of generators, multiplicity, domain, coefficients).

Here the same three parts are read off the polynomial's terms (ring arithmetic, :mod:`implgraph.core.plain_poly`)
and ``Q`` is factored by ``Poly.factor_list``, the routine sympy's own call ends in; the constant, the factors, their
multiplicities and their order are sympy's. Where the answer could depend on what is not reproduced here (two
symbols sympy's generator order cannot tell apart, or a factor of the rest with another's sorting key, whose order
is then the order sympy met them in) the function declines (None) and the caller asks sympy. The symbols of the
monomial (one generator each: equal keys where their multiplicities are equal) are met in the order of the
product's arguments, which is reproduced.
"""

from __future__ import annotations

import functools
from math import gcd

import sympy
from sympy.polys.polyutils import _re_gen

from implgraph.core.plain_poly import NotPlain, monomial_sum_gens, plain_poly

__all__ = ["plain_factor_list"]

#: the order of a product's arguments (``Mul``'s own: ``Basic.compare``)
_ARGS_KEY = functools.cmp_to_key(sympy.Basic.compare)


def _gen_key(g) -> tuple:
    """The part of sympy's generator order (``_sort_gens``) that depends on the generator alone."""
    name, index = _re_gen.match(str(g)).groups()
    return name, int(index) if index else 0


def _sort_key(poly, m) -> tuple:
    """sympy's key for sorting the factors of ``factor_list`` (``polytools._sorted_factors``, method factor)."""
    rep = poly.rep.to_list()
    return len(rep), len(poly.gens), m, str(poly.domain), rep


def plain_factor_list(p):
    """``sympy.factor_list(p)`` (factors as a tuple) for a sum ``p`` of monomials in symbols with integer
    coefficients; None where this shortcut does not apply (the caller then asks sympy).

    Examples
    --------
    >>> x, y = sympy.symbols("x y")
    >>> plain_factor_list(-2*x**2*y + 2*x*y**2)
    (-2, ((x, 1), (y, 1), (x - y, 1)))
    """
    if not isinstance(p, sympy.Add):
        return None
    gens = monomial_sum_gens(p)
    if gens is None or len({_gen_key(g) for g in gens}) < len(gens):
        return None
    try:
        poly = plain_poly(p, gens)
    except NotPlain:
        return None
    if not poly.domain.is_ZZ:
        return None
    terms = poly.terms()
    content = 0
    for _, c in terms:
        content = gcd(content, int(c))
    low = [min(monom[i] for monom, _ in terms) for i in range(len(gens))]
    rest = sympy.Poly.from_dict({tuple(e - l for e, l in zip(monom, low)): int(c) // content for monom, c in terms},
                                *gens, domain=sympy.ZZ).exclude()
    coeff, found = rest.factor_list()
    # the symbols of the monomial in the order sympy's product holds them (two of the same multiplicity have the
    # same sorting key: they stay in this order)
    monomial = sorted(((g, e) for g, e in zip(gens, low) if e), key=lambda ge: _ARGS_KEY(ge[0] ** ge[1]))
    factors = [(sympy.Poly(g, g, domain=sympy.ZZ), 1 if e == 1 else sympy.Integer(e)) for g, e in monomial]
    factors += list(found)
    keys = [_sort_key(f, m) for f, m in factors]
    texts = [repr(k) for k in keys]
    rest_texts = texts[len(monomial):]
    if len(set(rest_texts)) < len(rest_texts) or set(rest_texts) & set(texts[:len(monomial)]):
        return None     # a factor of the rest whose key is another's
    ordered = [fm for _, fm in sorted(zip(keys, factors), key=lambda kf: kf[0])]
    return sympy.Integer(content) * coeff, tuple((f.as_expr(), m) for f, m in ordered)
