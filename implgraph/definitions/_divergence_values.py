"""Exact values of divergence levels (:mod:`implgraph.definitions.divergences`): the largest of log(R)/d compared
exactly, the largest of exact reals with a rational enclosure, the hockey-stick at an irrational gamma, means."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import sympy

from implgraph.core.concrete import Enclosed

_DIGITS = 30


def _hockey_stick_irrational(g, x, y):
    """sum_l max(x_l - g y_l, 0) for an irrational gamma (e^eps): each term's sign decided by sympy's certified
    numerical evaluation (x_l - g y_l is never 0 for y_l > 0, g being irrational; y_l = 0 gives x_l); exact sympy."""
    terms = []
    for a, b in zip(x, y):
        if b == 0:
            terms.append(sympy.Rational(a.numerator, a.denominator))
            continue
        t = sympy.Rational(a.numerator, a.denominator) - g * sympy.Rational(b.numerator, b.denominator)
        sign = t.is_positive
        if sign is None:
            raise ArithmeticError(f"the sign of {t} is undecided")
        if sign:
            terms.append(t)
    total = sympy.Add(*terms)
    return Fraction(int(total.p), int(total.q)) if total.is_Rational else total


def _gcd(a, b):
    return math.gcd(a, b)


def _log_float(R: Fraction) -> float:
    return math.log(R.numerator) - math.log(R.denominator)


def _largest_log(forms, expr_of=None):
    """The largest of log(R)/d over ``forms`` [(R, d)], exact: candidates within 1e-9 of the largest in floating point
    are compared exactly (R1^(d2) against R2^(d1), integer powers of rationals); the level is log(R)/d as sympy (or
    ``expr_of((R, d))``, the same number in a compact form) with a
    rational enclosure."""
    forms = list(dict.fromkeys(forms))
    approx = [(_log_float(R) / float(d), R, d) for R, d in forms]
    top = max(v for v, _, _ in approx)
    near = _separated([(R, d) for v, R, d in approx if v >= top - 1e-9 * max(1.0, abs(top))])
    best, tied = near[0], []
    for R, d in near[1:]:       # log(R)/d > log(B)/e  <=>  R^(e) > B^(d) (d, e > 0 rationals: use their numerators)
        order = _pow_gt((R, d), best)
        if order is None:       # too large to compare exactly, and equal to 60 digits: the level keeps both in a Max
            tied.append((R, d))
        elif order:
            best = (R, d)
    if tied:
        return _enclosed_max([_log_expr(f, expr_of) for f in [best, *tied]])
    R, d = best
    if R == 1:
        return Fraction(0)
    expr = expr_of(best) if expr_of is not None else None   # a compact form of the same number (KL: sum x log(x/y))
    if expr is None:
        return _log_enclosed(R, d)
    return _enclosed_log_of(expr, R, d)


@functools.lru_cache(maxsize=50_000)
def _log_enclosed(R: Fraction, d: Fraction) -> Enclosed:
    """log(R)/d as sympy with its rational enclosure; memoised (the grids of check-edge meet the same R and d on many
    tables, and under several definitions)."""
    return _enclosed_log_of(_log_expr((R, d), None), R, d)


def _enclosed_log_of(expr, R: Fraction, d: Fraction) -> Enclosed:
    """``expr`` (the number log(R)/d) with a rational enclosure of :data:`_DIGITS` digits."""
    with mpmath.workdps(_DIGITS + 20):
        value = (mpmath.log(mpmath.mpf(R.numerator)) - mpmath.log(mpmath.mpf(R.denominator))) / \
            (mpmath.mpf(d.numerator) / d.denominator)
        eps = mpmath.mpf(10) ** (-(_DIGITS + 5)) * max(1, abs(value))
        lo, hi = Fraction(mpmath.nstr(value - eps, _DIGITS + 15)), Fraction(mpmath.nstr(value + eps, _DIGITS + 15))
    return Enclosed(expr, min(lo, hi), max(lo, hi), _DIGITS)


#: the largest exact power compared (bits of the numerator and denominator times the exponent): beyond it two values
#: equal to 60 digits stay in a Max, exact whatever their order (a power of that size would exhaust time and memory)
_POWER_BITS = 1 << 22


def _log_expr(form, expr_of):
    """log(R)/d as sympy, or ``expr_of(form)`` (the same number in a compact form) where it gives one."""
    expr = expr_of(form) if expr_of is not None else None
    if expr is None:
        R, d = form
        expr = sympy.log(sympy.Rational(R.numerator, R.denominator)) / sympy.Rational(d.numerator, d.denominator)
    return expr


def _separated(forms):
    """The forms whose log(R)/d is within 60 digits of the largest (mpmath: a candidate below by more than the error
    is below exactly); the largest first."""
    if len(forms) == 1:
        return forms
    with mpmath.workdps(60):
        vals = [(mpmath.log(mpmath.mpf(R.numerator)) - mpmath.log(mpmath.mpf(R.denominator)))
                / (mpmath.mpf(d.numerator) / d.denominator) for R, d in forms]
        top = max(vals)
        eps = mpmath.mpf(10) ** -50 * max(1, abs(top))
        kept = [(v, f) for v, f in zip(vals, forms) if v >= top - eps]
    kept.sort(key=lambda vf: vf[0], reverse=True)
    return [f for _, f in kept]


def _pow_gt(a, b):
    """log(Ra)/da > log(Rb)/db exactly, for positive rationals da, db: Ra^(db) > Rb^(da), with the exponents scaled to
    integers; None where the powers would exceed :data:`_POWER_BITS` bits."""
    (Ra, da), (Rb, db) = a, b
    m = da.denominator * db.denominator
    ea, eb = int(db * m), int(da * m)       # Ra^(db m) against Rb^(da m)
    size = max(ea * (Ra.numerator.bit_length() + Ra.denominator.bit_length()),
               eb * (Rb.numerator.bit_length() + Rb.denominator.bit_length()))
    if size > _POWER_BITS:
        return None
    return Ra ** ea > Rb ** eb


def _mean(rows, counts=None):
    """The mean of ``rows`` (tuples of Fractions), row r weighted by ``counts[r]`` (default 1 each): exact, summed as
    integers over the common denominator of the values (a Fraction sum per value was most of a large table's time)."""
    counts = [1] * len(rows) if counts is None else counts
    n = sum(counts)
    common = 1
    for d in {v.denominator for r in rows for v in r}:
        common = common * d // math.gcd(common, d)
    return tuple(Fraction(sum(w * v.numerator * (common // v.denominator) for v, w in zip(col, counts)), common * n)
                 for col in zip(*rows))


def _enclosed_max(exprs):
    """The largest of exact real numbers, with a rational enclosure: candidates within the working precision of the
    numerical largest stay in a ``Max`` (exact whatever the tie), the others are below it by more than the error."""
    with mpmath.workdps(_DIGITS + 20):
        approx = [(mpmath.mpf(sympy.N(e, _DIGITS + 20)), e) for e in dict.fromkeys(exprs)]
        top = max(a for a, _ in approx)
        eps = mpmath.mpf(10) ** (-(_DIGITS + 5)) * max(1, abs(top))
        near = [e for a, e in approx if a >= top - eps]
        expr = near[0] if len(near) == 1 else sympy.Max(*near)
        lo = Fraction(mpmath.nstr(top - eps, _DIGITS + 15)) if top != 0 else Fraction(0)
        hi = Fraction(mpmath.nstr(top + eps, _DIGITS + 15)) if top != 0 else Fraction(0)
    if expr == 0:
        return Fraction(0)
    return Enclosed(expr, min(lo, hi), max(lo, hi), _DIGITS)


def _merged_rows(rows, counts) -> tuple:
    """``(distinct rows, their counts)`` of a grouped table's rows (the same row in several classes merged), exact
    (Python integers)."""
    merged: dict = {}
    for r, c in zip(map(tuple, rows.tolist()), counts.tolist()):
        merged[r] = merged.get(r, 0) + int(c)
    return list(merged), list(merged.values())


def _near_top(kind, order, pairs):
    """The pairs whose KL or Renyi divergence may be the largest: each in floating point with a bound on its rounding
    error (1e-9 of the sum of its terms' sizes, far above a double's), kept unless it is below the largest by more
    than both errors; every pair where x_l > 0 = y_l somewhere (an infinite divergence) is kept. The exact forms
    (products of powers of the values) are then computed for a few pairs, not for every class of a large table."""
    import math as m
    scored, kept = [], []
    for x, y in pairs:
        if any(a > 0 and b == 0 for a, b in zip(x, y)):
            kept.append((x, y))
            continue
        terms = [(float(a), float(b)) for a, b in zip(x, y) if a > 0]
        if kind == "kl":
            parts = [a * (m.log(a) - m.log(b)) for a, b in terms]
            value, size = sum(parts), sum(abs(t) for t in parts)
        elif order == sympy.oo:
            value = max(m.log(a) - m.log(b) for a, b in terms)
            size = abs(value)
        else:
            k = float(order)
            logs = [k * m.log(a) - (k - 1) * m.log(b) for a, b in terms]
            top_log = max(logs)         # log-sum-exp: no overflow at a large order
            value = (top_log + m.log(sum(m.exp(t - top_log) for t in logs))) / (k - 1)
            size = abs(value) + max(abs(t) for t in logs) + 1.0
        scored.append((value, 1e-9 * (size + 1e-300) + 1e-12, (x, y)))
    if scored:
        top = max(v for v, _, _ in scored)
        top_err = next(e for v, e, _ in scored if v == top)
        kept += [p for v, e, p in scored if v + e >= top - top_err]
    return kept


def _long(R: Fraction) -> bool:
    """Is the rational R too long to print as log(R) (sympy refuses integers of more than 4300 digits)?"""
    return R.numerator.bit_length() + R.denominator.bit_length() > 8000


def _rows_of(ct):
    return [[Fraction(int(ct.numer[i, l]), ct.denom) for l in range(ct.p)] for i in range(ct.N)]
