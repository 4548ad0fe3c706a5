"""Lazy maxima for symbolic levels: a :class:`LazyCtx` whose ``max`` never splits the region.

The definitions' own symbolic code runs on a :class:`LazyCtx`: order questions between the values of
a column split the region as usual, but the final maximum over candidate ratios is kept as an exact
``Max(...)`` where the region does not decide it (instead of splitting the region on every pair of
candidates). Candidates the region orders are dropped, asking the solver only about small factors.
"""

from __future__ import annotations

import functools

import sympy

from implgraph.core.factoring import product_factors
from implgraph.core.plain_poly import NotPlain, plain_poly
from implgraph.core.relations import strict_signs, to_zero
from implgraph.core.symbolic import Ctx

__all__ = ["max_args", "LazyCtx", "lazy_ctx", "same_value"]


def max_args(x):
    return list(x.args) if isinstance(x, sympy.Max) else [x]


def _factor_sign(region, known, f) -> int:
    """+1 / -1 when the factor is strictly positive / negative on the region, else 0 (unknown)."""
    if f.is_number:
        return int(sympy.sign(f))
    key = ("lazy-factor", f)
    if key not in known:
        positive, negative = strict_signs(f)
        if region.decide(positive) is True:
            known[key] = 1
        elif region.decide(negative) is True:
            known[key] = -1
        else:
            known[key] = 0
    return known[key]


@functools.lru_cache(maxsize=50_000)
def _fraction_factors(e):
    """The factors (:func:`~implgraph.core.factoring.product_factors`) of the numerator and of the
    denominator of ``together(e)``; memoised: every re-run of a split compares the same candidates."""
    return tuple(product_factors(part) for part in sympy.fraction(sympy.together(e)))


def _sign_no_split(region, known, e):
    """The sign of ``e`` on the whole region (1, -1, 0) or None, asking only about small factors."""
    s, rest = 1, []
    for c, fs in _fraction_factors(e):
        if c == 0:
            return 0
        s *= int(sympy.sign(c))
        for f, m in fs:
            sf = _factor_sign(region, known, f)
            if sf:
                s *= sf ** m
            elif m % 2 == 0:
                rest.append(f ** m)   # >= 0, maybe 0
            else:
                rest.append(f)
    if not rest:
        return s
    q = sympy.expand(sympy.Mul(*rest))
    if len(q.free_symbols) <= 3:
        # a small residual: ask the solver about it as a whole
        if region.decide(to_zero(q, ">=")) is True:
            return s
        if region.decide(to_zero(q, "<=")) is True:
            return -s
        return None
    if len(rest) == 1:
        q = rest[0]
        if region.decide(to_zero(q, ">=")) is True:
            return s if region.decide(to_zero(q, ">")) is True else None
        if region.decide(to_zero(q, "<=")) is True:
            return -s if region.decide(to_zero(q, "<")) is True else None
    return None


def _pair_le(region, known, x, y, local=None):
    """Three-valued ``x <= y`` on the whole region (True or None), without splitting it.

    ``local`` (the region's own memo) keeps the sign of ``y - x``: the question ``y <= x`` on the same
    region then reads it, negated, instead of factoring ``x - y`` again.
    """
    if y is sympy.oo:
        return True
    if x is sympy.oo:
        return False
    d = sympy.sympify(y) - sympy.sympify(x)
    key = ("lazy-le", d)
    if key in known:
        return known[key]
    local = {} if local is None else local
    neg = local.get(("lazy-sign", -d), _MISSING)
    if neg is _MISSING:
        s = _sign_no_split(region, known, d)
    else:
        s = None if neg is None else -neg
    local[("lazy-sign", d)] = s
    r = True if s is not None and s >= 0 else None
    known[key] = r
    return r


_MISSING = object()


class LazyCtx(Ctx):
    """A :class:`~implgraph.core.symbolic.Ctx` whose ``max`` never splits the region.

    Candidates the region orders are dropped; the others stay in an exact ``Max(...)``.
    """

    def max(self, xs):
        xs = [x for x in xs if x is not None]
        if not xs:
            return None
        flat = []
        for x in xs:
            flat.extend(max_args(sympy.sympify(x)))
        if any(x is sympy.oo for x in flat):
            return sympy.oo
        keep: list = []
        for x in flat:
            if any(_pair_le(self.region, self.known, x, y, self.local) is True for y in keep):
                continue
            keep = [y for y in keep if _pair_le(self.region, self.known, y, x, self.local) is not True] + [x]
        if len(keep) == 1:
            return keep[0]
        return sympy.Max(*keep, evaluate=False)


def lazy_ctx(ctx) -> LazyCtx:
    """The same context (shared region and decisions) with the lazy ``max``."""
    obj = LazyCtx.__new__(LazyCtx)
    obj.__dict__ = ctx.__dict__
    return obj


def same_value(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if a is sympy.oo or b is sympy.oo:
        return a == b
    if isinstance(a, sympy.Max) or isinstance(b, sympy.Max):
        xa, xb = max_args(a), max_args(b)
        return len(xa) == len(xb) and all(any(same_value(x, y) for y in xb) for x in xa)
    try:
        d = sympy.sympify(a) - sympy.sympify(b)
        zero = _rational_zero(d)
        return zero if zero is not None else sympy.cancel(sympy.together(d)) == 0
    except (TypeError, ValueError):
        return a == b


def _rational_zero(d):
    """Is the rational function ``d`` of plain symbols identically 0 (its numerator the zero polynomial)?
    None when ``d`` is not such a function (``cancel`` decides it then)."""
    num, _ = d.as_numer_denom()
    if num.is_Rational:
        return num == 0
    try:
        # the same polynomial by ring arithmetic when ``num`` is plain in its symbols (core.plain_poly)
        return plain_poly(num, sorted(num.free_symbols, key=lambda s: s.name)).is_zero
    except NotPlain:
        pass
    try:
        poly = sympy.Poly(num)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded, sympy.CoercionFailed):
        return None
    if not all(g.is_Symbol for g in poly.gens) or not poly.domain.is_Numerical:
        return None
    return poly.is_zero
