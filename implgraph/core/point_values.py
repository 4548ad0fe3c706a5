"""Exact values of expressions at rational points, cheaper than sympy's ``subs`` and ``cancel``.

:func:`value_at` substitutes a whole point at once and evaluates bottom-up (every sub-term a number
before its parent is built, so a ``Max`` compares numbers, never half-substituted terms); a sub-term
without a value there (x/0, 0/0, the square root of a negative number) raises :class:`NoValue`.
:func:`differ_at_point` is an exact screen before ``cancel(x - y) == 0``: two rational functions
with different values at one point are not identical; :func:`not_identically_zero` is the same screen
for any expression (``Min``, ``Max``, ``log`` ...) before ``simplify(expr) == 0``. :func:`rational_zero` decides ``x - y == 0`` exactly
for rational functions in sympy's field of rational functions over QQ (no ``cancel``).

Examples
--------
>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> value_at(sympy.Max(a / b, b / a) <= 2, {a: 1, b: 3})
False
>>> try:
...     value_at(sympy.Eq(a / b, 1), {a: 1, b: 0})
... except NoValue as exc:
...     print(exc)
zoo has no real value
>>> differ_at_point((a**2 - b**2) / (a - b), a + b)
False
>>> differ_at_point(a / b, b / a)
True
>>> rational_zero((a**2 - b**2) / (a - b) - a - b), rational_zero(a / b - b / a), rational_zero(sympy.sqrt(a))
(True, False, None)
"""

from __future__ import annotations

import sympy

__all__ = ["value_at", "differ_at_point", "screen_point", "rational_zero", "not_identically_zero", "NoValue"]


class NoValue(ValueError):
    """A sub-term has no real value at the point (x/0, 0/0, the square root of a negative number)."""


def _check(v):
    if isinstance(v, sympy.Expr) and v.is_number and (v.has(sympy.zoo, sympy.nan) or v.is_extended_real is False):
        raise NoValue(f"{v} has no real value")
    return v


def value_at(expr, point):
    """``expr`` with every symbol of ``point`` replaced by its exact value, evaluated bottom-up.

    Parameters
    ----------
    expr : sympy expression or relation
    point : dict
        ``{symbol: exact number}``.

    Returns
    -------
    sympy object or None
        The value (a number, or ``true``/``false`` for a relation); None when a symbol of ``expr`` is
        not in ``point``.

    Raises
    ------
    NoValue
        Where a sub-term has no real value at the point (``oo`` is a value); sympy's own ValueError or
        TypeError where it cannot compare two values.
    """
    pt = {sympy.sympify(k): sympy.sympify(v) for k, v in point.items()}
    expr = sympy.sympify(expr)
    if not expr.free_symbols <= set(pt):
        return None

    def ev(e):
        if e in pt:
            return _check(pt[e])
        if not e.args:
            return _check(e)
        return _check(e.func(*[ev(a) for a in e.args]))

    return ev(expr)


def screen_point(i: int):
    """The value :func:`differ_at_point` gives the i-th symbol (sorted by name): distinct rationals in
    (0, 1), 2/7, 3/9, 4/11, ... (i = 0, 1, 2, ...)."""
    return sympy.Rational(i + 2, 2 * i + 7)


def differ_at_point(x, y) -> bool:
    """True when ``x - y`` is certainly not identically 0: both are rational functions of their symbols
    with different exact values at :func:`screen_point`. False means "not shown" (equal there, a
    denominator 0 there, or not rational functions)."""
    x, y = sympy.sympify(x), sympy.sympify(y)
    syms = sorted(x.free_symbols | y.free_symbols, key=str)
    if not (x.is_rational_function(*syms) and y.is_rational_function(*syms)):
        return False
    pt = {s: screen_point(i) for i, s in enumerate(syms)}
    try:
        vx, vy = value_at(x, pt), value_at(y, pt)
    except (ValueError, TypeError):   # a denominator 0 at the point: it does not tell
        return False
    return vx is not None and vy is not None and vx.is_Rational and vy.is_Rational and vx != vy


def rational_zero(expr):
    """Is ``expr`` identically 0, decided exactly when it is a rational function of its symbols with
    rational coefficients: its element of sympy's field of rational functions over QQ is zero iff the
    function is (much cheaper than ``cancel``, which normalises it; :func:`differ_at_point` screens first). None when ``expr`` is not such a
    function (a square root, ``pi``, ``Abs`` ...): the caller decides another way."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return expr == 0
    gens = sorted(expr.free_symbols, key=str)
    if not gens or not expr.is_rational_function(*gens):
        return None
    if differ_at_point(expr, 0):    # a non-zero value at one point: cheap, and usual
        return False
    try:
        return sympy.field(gens, sympy.QQ)[0].from_expr(expr) == 0
    except ValueError:      # not a rational function of gens over QQ
        return None


_SCREEN = (sympy.Rational(2, 7), sympy.Rational(-5, 2), sympy.Rational(11, 3), sympy.Rational(-3, 13),
           sympy.Rational(17, 5))
"""Exact values tried by :func:`not_identically_zero` (each symbol a different one at each try)."""
_INT_SCREEN = tuple(sympy.Integer(n) for n in (3, 5, 4, 7, 6))
"""The values an integer symbol takes instead (so that a point respects its assumptions)."""


def not_identically_zero(expr) -> bool:
    """True when ``expr`` is certainly not 0 for every value of its symbols: an exact rational value other
    than 0 at a point of :data:`_SCREEN` (:data:`_INT_SCREEN` for integer symbols) that its symbols'
    assumptions allow. False means "not shown".

    An exact screen before ``simplify(expr) == 0``, which cannot be 0 then (and may take long to say so,
    e.g. for a ``Max`` of rational functions). A value that is a number but not rational (a log at the point) is
    nonzero where its evaluation to 60 digits lies farther than 1e-40 from 0 (:func:`_clearly_nonzero`).

    Examples
    --------
    >>> x = sympy.Symbol("x", real=True)
    >>> not_identically_zero(sympy.Max(x, x / (2 * (2 * x - 1))) - x)   # x = -5/2: 5/24 - (-5/2)
    True
    >>> not_identically_zero((x**2 - 1) / (x - 1) - x - 1)
    False
    >>> n = sympy.Symbol("n", integer=True, positive=True)
    >>> not_identically_zero(sympy.Min(n, 4) - n)                          # n = 5: 4 - 5
    True
    >>> t = sympy.Symbol("t", positive=True)
    >>> not_identically_zero(sympy.log(t) - (t - 1))                      # t = 2/7: log(2/7) + 5/7, about -0.54
    True
    >>> not_identically_zero(sympy.log(t**2) - 2 * sympy.log(t))          # 0 at every t > 0: not shown
    False
    """
    syms = sorted(expr.free_symbols, key=str)
    for k in range(len(_SCREEN)):
        point = {x: (_INT_SCREEN if x.is_integer else _SCREEN)[(k + i) % len(_SCREEN)] for i, x in enumerate(syms)}
        if not all(getattr(v, "is_" + a) == want for x, v in point.items() for a, want in x.assumptions0.items()):
            continue
        try:
            value = value_at(expr, point)
        except (ValueError, TypeError):    # no value there (x/0 ...), or sympy cannot compare: next point
            continue
        if value is not None and value.is_Rational and value != 0:
            return True
        if value is not None and _clearly_nonzero(value):
            return True
    return False


#: the digits a number that is not rational (a log, a root) is evaluated to, and how far from 0 it must be there
_DIGITS, _FAR = 60, sympy.Float("1e-40")


def _clearly_nonzero(value) -> bool:
    """A real number (no symbol left) that is not rational, e.g. ``log(2/7) - 1``: evaluated to :data:`_DIGITS`
    digits by sympy's arbitrary-precision evaluation, it is not 0 where it lies farther than :data:`_FAR` from 0
    (an exact 0 evaluates to 0 or to noise far below that)."""
    if not getattr(value, "is_number", False) or value.is_real is False:
        return False
    try:
        v = value.evalf(_DIGITS)
    except (ValueError, TypeError, ArithmeticError):
        return False
    return bool(v.is_Float and abs(v) > _FAR)
