"""The zero-concentrated level of a table: the largest rho*(x || y) over the pairs of distributions it compares.

rho* of one pair is :func:`implgraph.definitions._zcdp_values.zcdp_between`'s; here only the pairs whose rho* may be the
largest are computed (rho* lies between KL(x || y) and max(KL, R^2/8), R the range of log(x_l/y_l): Hoeffding's lemma).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core.concrete import INF, Enclosed
from implgraph.definitions._zcdp_values import _DIGITS, ZcdpSup, _as_tuple, _support, _supremum, zcdp_kl

__all__ = ["zcdp_level"]


def zcdp_level(pairs):
    """The largest rho*(x || y) over the pairs ``(x, y)`` of distributions of Fractions: INF (a pair with x_l > 0 = y_l),
    Fraction(0) (every pair equal on x's support), exact sympy KL, or an :class:`Enclosed` level (the largest
    :class:`ZcdpSup`, or the ``Max`` of the values whose enclosures overlap the largest: exact whatever the tie).

    Only the pairs that may be the largest are computed: rho* lies between KL(x || y) (the limit alpha -> 1) and
    max(KL, R^2/8) (Hoeffding's lemma, module notes), so a pair whose upper bound, in floating point with a margin far
    above its rounding error, is below another pair's KL is dropped.
    """
    pairs = [(tuple(map(Fraction, x)), tuple(map(Fraction, y))) for x, y in pairs]
    if any(a > 0 and b == 0 for x, y in pairs for a, b in zip(x, y)):
        return INF
    pairs = [(x, y) for x, y in dict.fromkeys(pairs) if not all(a == b for a, b in zip(x, y) if a > 0)]
    if not pairs:
        return Fraction(0)
    if len(pairs) > 2:
        pairs = _may_be_largest(pairs)
    found = []
    for x, y in pairs:
        lo, hi, at_limit = _supremum(_support(x, y))
        expr = zcdp_kl(x, y) if at_limit else ZcdpSup(_as_tuple(x), _as_tuple(y))
        found.append((expr, lo, hi))
    top = max(lo for _, lo, _ in found)
    near = [(e, lo, hi) for e, lo, hi in found if hi >= top]
    exprs = list(dict.fromkeys(e for e, _, _ in near))
    expr = exprs[0] if len(exprs) == 1 else sympy.Max(*exprs, evaluate=False)
    return Enclosed(expr, top, max(hi for _, _, hi in near), _DIGITS)


def _may_be_largest(pairs):
    """The pairs whose rho* may be the largest (:func:`zcdp_level`): floating point, each bound widened by 1e-9 of the
    sizes of its terms (far above a double's rounding error), an infinite or undefined float kept."""
    import math
    bounds = []
    for x, y in pairs:
        try:
            z = [(float(a), math.log(a.numerator) - math.log(a.denominator)
                  - math.log(b.numerator) + math.log(b.denominator)) for a, b in zip(x, y) if a > 0]
        except (ValueError, OverflowError):
            return pairs
        parts = [a * v for a, v in z]
        kl, size = sum(parts), sum(abs(p) for p in parts)
        top, bottom = max(v for _, v in z), min(v for _, v in z)
        err = 1e-9 * (size + abs(top) + abs(bottom)) ** 2 + 1e-9 * size + 1e-300
        bounds.append((kl - err, max(kl, (top - bottom) ** 2 / 8) + err))
    best = max(lo for lo, _ in bounds)
    return [p for p, (_, hi) in zip(pairs, bounds) if hi >= best]
