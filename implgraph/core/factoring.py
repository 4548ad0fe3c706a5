"""Exact factored forms of the symbolic level code: numerator and denominator in lowest terms
(:func:`num_den`), irreducible factors over the integers (:func:`factors`, :func:`product_factors`) and
the tidy factored form the level values are written in.

All memoised in the process: a level computation is re-run on every piece of its region and asks for
the same forms again. Two exact shortcuts avoid sympy's multivariate factoring (Wang's algorithm) where
the answer is known without it: a product is factored factor by factor (unique factorisation), and a
sum that is linear in one symbol is irreducible when its two coefficients have no common factor.
"""

from __future__ import annotations

import functools

import sympy

from implgraph.core.plain_factor import plain_factor_list
from implgraph.core.plain_poly import NotPlain, monomial_sum_gens, plain_poly

__all__ = ["num_den", "factors", "product_factors"]


@functools.lru_cache(maxsize=100_000)
def num_den(e):
    """(numerator, denominator) of ``e`` in lowest terms (polynomial gcd; sympy fallback)."""
    num, den = sympy.sympify(e).as_numer_denom()
    gens = sorted(num.free_symbols | den.free_symbols, key=lambda s: s.name)
    if gens:
        try:
            try:
                p, q = plain_poly(num, gens), plain_poly(den, gens)
            except NotPlain:
                p, q = sympy.Poly(num, *gens), sympy.Poly(den, *gens)
            if p.domain.is_Numerical and q.domain.is_Numerical:
                g = p.gcd(q)
                if g.is_one:        # already in lowest terms (most are): dividing by 1 changes no term
                    return p.as_expr(), q.as_expr()
                return p.quo(g).as_expr(), q.quo(g).as_expr()
        except (sympy.PolynomialError, sympy.GeneratorsNeeded, sympy.CoercionFailed):
            pass
    return sympy.fraction(sympy.cancel(sympy.together(e)))


@functools.lru_cache(maxsize=100_000)
def factors(p):
    """(constant, [(factor, multiplicity)]) of a polynomial expression.

    ``p`` and ``-p`` are factored once: sympy factors the primitive part with a positive leading
    coefficient and sorts the factors, so ``factor_list(-p)`` is ``factor_list(p)`` with the constant
    negated.
    """
    known = _linear_irreducible(p)
    if known is not None:
        return known
    if isinstance(p, sympy.Add) and p.could_extract_minus_sign():
        hit = _factor_list(-p)
        if hit is not None:
            return -hit[0], hit[1]
    hit = _factor_list(p)
    return hit if hit is not None else (sympy.Integer(1), ((p, 1),))


@functools.lru_cache(maxsize=100_000)
def _factor_list(p):
    """``sympy.factor_list(p)`` (factors as a tuple), None where sympy cannot factor ``p``; a sum of monomials with
    integer coefficients by :func:`~implgraph.core.plain_factor.plain_factor_list` (the same answer)."""
    fast = plain_factor_list(p)
    if fast is not None:
        return fast
    try:
        c, fs = sympy.factor_list(p)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded, NotImplementedError):
        return None
    return c, tuple(fs)


def _linear_irreducible(p):
    """``sympy.factor_list(p)`` when the sum ``p`` is a constant times one irreducible polynomial that
    is linear in some symbol, else None (then ``p`` must be factored).

    ``P = a*x + b`` with ``a``, ``b`` free of ``x`` and primitive (content 1): any factorisation of ``P``
    has a factor free of ``x``, which divides both ``a`` and ``b``; so ``P`` is irreducible over the
    integers when ``gcd(a, b)`` is a constant (a polynomial gcd, far cheaper than factoring). The
    constant and the sign follow sympy's convention: the factor's leading coefficient is positive.

    Examples
    --------
    >>> x, y = sympy.symbols("x y")
    >>> _linear_irreducible(-2*x*y - 4*y**2 + 6)
    (-2, ((x*y + 2*y**2 - 3, 1),))
    >>> _linear_irreducible(x*y + y**2) is None   # y*(x + y)
    True
    """
    if not isinstance(p, sympy.Add):
        return None
    try:
        gens = monomial_sum_gens(p)
        poly = sympy.Poly(p) if gens is None else plain_poly(p, gens)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded, sympy.CoercionFailed):
        return None
    if not poly.domain.is_ZZ or not all(g.is_Symbol for g in poly.gens):
        return None
    c, prim = poly.primitive()
    if prim.LC() < 0:
        c, prim = -c, -prim
    for x in prim.gens:
        if prim.degree(x) != 1:
            continue
        a = prim.diff(x)
        if a.gcd(prim - a * plain_poly(x, prim.gens)).is_ground:
            return sympy.Integer(c), ((prim.as_expr(), 1),)
    return None


def _plain_polynomial(p) -> bool:
    """Is ``p`` a polynomial in its symbols with rational coefficients (no functions, no irrationals)?"""
    return all(a.is_Symbol or a.is_Rational for a in p.atoms()) and p.is_polynomial()


@functools.lru_cache(maxsize=100_000)
def product_factors(p):
    """:func:`factors` of ``expand(p)``, found factor by factor of the product ``p``.

    Factorisation into irreducible polynomials over the integers is unique up to sign and sympy
    gives every factor a positive leading coefficient, so factoring each factor of a product (most
    of them already irreducible and seen before) gives the same constant and the same factors with
    the same multiplicities as factoring the expanded product, at a fraction of the cost. Anything
    but a product of plain polynomials (functions, irrational numbers, negative powers) is expanded
    and factored as a whole.

    Examples
    --------
    >>> x, y = sympy.symbols("x y")
    >>> product_factors(2 * (x - y) * (y - x) ** 2 * (x**2 - y**2))
    (2, ((x - y, 4), (x + y, 1)))
    """
    p = sympy.sympify(p)
    if not _plain_polynomial(p):
        return factors(sympy.expand(p))
    const, acc = sympy.Integer(1), {}
    for arg in sympy.Mul.make_args(p):
        base, m = arg.as_base_exp()
        if base.is_Rational:
            const *= arg
            continue
        if not (m.is_Integer and m > 0):
            return factors(sympy.expand(p))
        c, fs = factors(sympy.expand(base))
        const *= c ** m
        for f, k in fs:
            acc[f] = acc.get(f, 0) + k * m
    if const == 0:
        return const, ()
    return const, tuple(acc.items())


def _tidy(p):
    """A factored polynomial with every factor's leading coefficient positive (sign pulled out)."""
    c, fs = factors(p)
    out = c
    for f, m in fs:
        if f.could_extract_minus_sign():
            f = -f
            out = out * (-1) ** m
        out = out * f ** m
    return out


@functools.lru_cache(maxsize=100_000)
def _clean(e):
    e = sympy.sympify(e)
    if e.is_number:
        return sympy.nsimplify(e) if e.is_Float else e
    if e.has(sympy.exp, sympy.log, sympy.Min, sympy.Max, sympy.Abs, sympy.Piecewise):
        return sympy.factor(sympy.cancel(sympy.together(e)))
    num, den = num_den(e)
    return _tidy(num) / _tidy(den)
