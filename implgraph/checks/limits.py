"""One-sided limits of a level for *every* value of other parameters, decided symbolically (no sampling).

A witness family "for every k" (``for_every:`` on a ``kind: unbounded`` claim) has levels that are
rational functions of the free symbol ``x`` whose coefficients depend on ``k``. Near ``x -> L`` (from
one side, ``y = |x - L| -> 0+``) a rational function ``P/Q`` behaves like its lowest terms
``c_i y^i / d_j y^j``. When the solver shows ``c_i != 0`` and ``d_j != 0`` on the whole region of
``k`` (with ``x`` near ``L``), then for every such ``k``:

* ``P/Q -> +oo`` iff ``i < j`` and ``c_i / d_j > 0``;
* ``P/Q`` has the finite limit ``c_i / d_j`` (``i = j``) or ``0`` (``i > j``).

Anything else (a coefficient that may vanish for some ``k``, a term that is not rational in ``x``, a
``Max`` that cannot be written as a max of rational terms) is undecided: ``None``, never a proof.
A ``Max`` of terms tends to ``+oo`` when one term does, and is bounded when every term is.
"""

from __future__ import annotations

import sympy

from implgraph.core.region import Region
from implgraph.core.simplified import plain_simplify

__all__ = ["max_terms", "lowest_term", "tends_to_infinity", "finite_limit"]


def _decide(region: Region, cond):
    try:
        return region.decide(cond)
    except Exception:   # an untranslatable condition: undecided, never a proof
        return None


def max_terms(expr, region: Region):
    """Terms whose maximum is ``expr`` on ``region`` (Max flattened; a factor decided >= 0 on the region
    distributed over a Max), or None when ``expr`` has a Max that cannot be written so.

    Examples
    --------
    >>> x, c = sympy.symbols("x c", positive=True)
    >>> max_terms(sympy.Max(x, 1) / c, Region({c: "real", x: "real"}, (c > 0, x > 0)))
    [1/c, x/c]
    """
    expr = sympy.sympify(expr)
    if not expr.has(sympy.Max):
        return [expr]
    if isinstance(expr, sympy.Max):
        out = []
        for a in expr.args:
            terms = max_terms(a, region)
            if terms is None:
                return None
            out += terms
        return out
    if isinstance(expr, sympy.Mul):
        with_max = [f for f in expr.args if f.has(sympy.Max)]
        if len(with_max) != 1:
            return None
        rest = sympy.Mul(*[f for f in expr.args if f is not with_max[0]])
        if not (rest.is_nonnegative or _decide(region, rest >= 0) is True):
            return None
        inner = max_terms(with_max[0], region)
        return None if inner is None else [t * rest for t in inner]
    return None


def _near(expr, x, limit, direction):
    """``expr`` with ``x = limit + y`` (``direction`` ``+``) or ``limit - y`` (``-``), y -> 0+."""
    y = sympy.Symbol("_y", positive=True)
    return sympy.together(expr.xreplace({x: limit + y if direction == "+" else limit - y})), y


def lowest_term(poly_expr, y, region: Region):
    """``(i, c_i)``: the lowest power of ``y`` whose coefficient (free of ``y``) is decided non-zero on the
    whole region, every lower coefficient being identically zero; None otherwise (or if not polynomial)."""
    try:
        poly = sympy.Poly(sympy.expand(poly_expr), y)
    except sympy.PolynomialError:
        return None
    coeffs = poly.all_coeffs()[::-1]          # constant term first
    for i, c in enumerate(coeffs):
        c = plain_simplify(c)
        if c == 0:
            continue
        if c.is_number or _decide(region, sympy.Ne(c, 0)) is True:
            return i, c
        return None                           # may vanish for some parameter values: undecided
    return None


def _lowest_ratio(expr, x, limit, direction, region: Region):
    e, y = _near(expr, x, limit, direction)
    num, den = sympy.fraction(e)
    low_n, low_d = lowest_term(num, y, region), lowest_term(den, y, region)
    if low_n is None or low_d is None:
        return None
    return low_n, low_d


def tends_to_infinity(expr, x, limit, direction, region: Region) -> bool | None:
    """True when ``expr -> +oo`` as ``x -> limit`` from ``direction``, for every point of ``region`` (whose
    other symbols are the parameters); None when undecided (never False: no claim is made then)."""
    expr = sympy.sympify(expr)
    if expr is sympy.oo:
        return True
    terms = max_terms(expr, region)
    if terms is None:
        return None
    for t in terms:
        low = _lowest_ratio(t, x, limit, direction, region)
        if low is None:
            continue
        (i, c), (j, d) = low
        if i < j and _decide(region, c / d > 0) is True:
            return True
    return None


def finite_limit(expr, x, limit, direction, region: Region):
    """The limit of ``expr`` as ``x -> limit`` from ``direction`` when it is finite for every point of
    ``region``: a bound expression (in the parameters) that every term's limit is at most (the Max of the
    terms' limits); None when undecided."""
    expr = sympy.sympify(expr)
    if expr.has(sympy.oo, sympy.zoo, sympy.nan):
        return None
    if x not in expr.free_symbols:
        return expr
    terms = max_terms(expr, region)
    if terms is None:
        return None
    lims = []
    for t in terms:
        if x not in t.free_symbols:
            lims.append(t)
            continue
        low = _lowest_ratio(t, x, limit, direction, region)
        if low is None:
            return None
        (i, c), (j, d) = low
        if i < j:
            return None
        lims.append(plain_simplify(c / d) if i == j else sympy.Integer(0))
    return sympy.Max(*lims)
