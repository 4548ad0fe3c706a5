"""Exact truth of a sympy condition at a rational point (:func:`holds_at`), for the points a region
remembers.

Relations between rational expressions (and ``And`` / ``Or`` / ``Not`` of them) are evaluated in
:class:`fractions.Fraction` arithmetic, which is what ``cond.xreplace(point)`` evaluates to without
building sympy numbers; anything else (functions, a zero denominator, a symbol without a value) goes
through ``xreplace``. Answers are memoised: the same condition is asked again at the same point by
every re-run of a split.
"""

from __future__ import annotations

import functools
import math
import operator
from fractions import Fraction

import sympy

__all__ = ["holds_at", "rational_value"]


def holds_at(cond, point) -> bool | None:
    """Exact truth value of a sympy condition at a rational point (None: not decidable there)."""
    try:
        return _holds_at_items(cond, tuple(point.items()))
    except TypeError:  # pragma: no cover - an unhashable value: evaluate without the memo
        return _evaluate_at(cond, point)


@functools.lru_cache(maxsize=200_000)
def _holds_at_items(cond, items) -> bool | None:
    # memo: the same condition is asked again at the same point by every re-run of a split
    return _evaluate_at(cond, dict(items))


class _NotPlain(Exception):
    """Raised by :func:`_exact_truth` on anything but rational arithmetic at a rational point."""


_RELATIONS = {sympy.StrictLessThan: operator.lt, sympy.LessThan: operator.le, sympy.StrictGreaterThan: operator.gt,
              sympy.GreaterThan: operator.ge, sympy.Equality: operator.eq, sympy.Unequality: operator.ne}


def _exact_value(e, point) -> Fraction:
    """The exact value of a rational expression of plain symbols at a rational point."""
    p, q = _pair_value(e, point)
    return Fraction(p, q)


#: an unreduced pair whose numbers grow past this many bits is brought to lowest terms
_REDUCE_BITS = 512


def _pair_value(e, point) -> tuple:
    """The exact value of a rational expression of plain symbols at a rational point as integers ``(p, q)``,
    ``q > 0``, not necessarily in lowest terms (Python integers: the gcds of :class:`Fraction` only where the
    numbers grow long)."""
    if e.is_Rational:
        return int(e.p), int(e.q)
    if e.is_Symbol:
        v = point.get(e)
        if getattr(v, "is_Rational", False):
            return int(v.p), int(v.q)
        if type(v) is int or type(v) is Fraction:   # what xreplace makes of it: the same Rational
            return v.numerator, v.denominator
        raise _NotPlain
    if e.is_Add:
        p, q = 0, 1
        for a in e.args:
            ap, aq = _pair_value(a, point)
            p, q = _reduced(p * aq + ap * q, q * aq)
        return p, q
    if e.is_Mul:
        p, q = 1, 1
        for a in e.args:
            ap, aq = _pair_value(a, point)
            p, q = _reduced(p * ap, q * aq)
        return p, q
    if e.is_Pow and e.exp.is_Integer:
        p, q = _pair_value(e.base, point)
        k = int(e.exp)
        if not p and k < 0:
            raise _NotPlain
        if k < 0:
            p, q, k = (q, p, -k) if p > 0 else (-q, -p, -k)
        return p ** k, q ** k
    if isinstance(e, (sympy.Max, sympy.Min)):
        # what xreplace evaluates a Max / Min of rational values to (rebuilding it through the assumptions)
        values = [_exact_value(a, point) for a in e.args]
        v = max(values) if isinstance(e, sympy.Max) else min(values)
        return v.numerator, v.denominator
    raise _NotPlain


def _reduced(p, q) -> tuple:
    if q.bit_length() > _REDUCE_BITS:
        g = math.gcd(p, q)
        return p // g, q // g
    return p, q


def _compare(op, lhs, rhs) -> bool:
    """``op`` (a comparison) between two exact values ``(p, q)`` (q > 0), by cross-multiplication."""
    (p1, q1), (p2, q2) = lhs, rhs
    return op(p1 * q2, p2 * q1)


def rational_value(e, point):
    """The exact value of a rational expression of plain symbols at a rational point, as a sympy
    Rational (what ``e.xreplace(point)`` evaluates to); None for anything else (functions, a zero
    denominator, a symbol without a value).

    Examples
    --------
    >>> x, y = sympy.symbols("x y")
    >>> rational_value((x + 1) / (2 * y), {x: sympy.Rational(1, 2), y: sympy.Integer(3)})
    1/4
    >>> rational_value(1 / (x - 1), {x: sympy.Integer(1)}) is None
    True
    """
    try:
        v = _exact_value(e, point)
    except (_NotPlain, ZeroDivisionError):
        return None
    return sympy.Rational(v.numerator, v.denominator)


def _exact_truth(cond, point) -> bool:
    """The truth of a relation (or And/Or/Not of relations) between rational expressions at a rational
    point, in exact rational arithmetic (what ``cond.xreplace(point)`` evaluates to, without building
    sympy numbers); :class:`_NotPlain` for anything else (functions, a zero denominator, a symbol
    without a value)."""
    op = _RELATIONS.get(type(cond))
    if op is not None:
        return _compare(op, _pair_value(cond.lhs, point), _pair_value(cond.rhs, point))
    if isinstance(cond, sympy.And):
        return all([_exact_truth(c, point) for c in cond.args])
    if isinstance(cond, sympy.Or):
        return any([_exact_truth(c, point) for c in cond.args])
    if isinstance(cond, sympy.Not):
        return not _exact_truth(cond.args[0], point)
    if cond is sympy.true or cond is sympy.false:
        return bool(cond)
    raise _NotPlain


def _evaluate_at(cond, point) -> bool | None:
    try:
        return _exact_truth(cond, point)
    except _NotPlain:
        pass
    try:
        v = cond.xreplace(point)
    except Exception:  # pragma: no cover - defensive: odd expressions
        return None
    if v is sympy.true or v is True:
        return True
    if v is sympy.false or v is False:
        return False
    return None
