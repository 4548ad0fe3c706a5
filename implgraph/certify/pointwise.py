"""An expression's exact value at a point of numbers, read bottom up.

sympy's ``xreplace`` or ``subs`` of a point rebuilds every piece of a ``Piecewise`` before choosing one, so a piece
that reads 0/0 at the point (the chord's value at T = 1, where U's first piece is 0) raises or gives nan; and its
rebuild of ``Max`` and ``Min`` of long arguments is slow. :func:`value_at` chooses a piece by its condition first and
picks a maximum or a minimum of rationals by comparison; everything else is sympy's own evaluation of the arguments'
values, so the answer is exact.
"""

from __future__ import annotations

import sympy

__all__ = ["value_at", "truth", "level_number"]


def level_number(level):
    """A registered level (a Fraction, or an exact value carrying ``expr``, e.g. a logarithm) as a sympy number."""
    expr = getattr(level, "expr", None)
    return expr if expr is not None else sympy.Rational(level.numerator, level.denominator)


def truth(value) -> bool:
    """A condition's value at the point: sympy's true or false (or a bool), else ValueError (a symbol left over)."""
    if value in (sympy.true, True):
        return True
    if value in (sympy.false, False):
        return False
    raise ValueError(f"a condition is not decided at the point: {value}")


def value_at(expr, env, memo=None):
    """``expr`` at ``env`` (``{symbol: number}``), each subexpression evaluated once (``memo``: for this ``env``
    only).

    Raises
    ------
    ValueError
        No piece of a Piecewise holds at the point, or a condition is left undecided there.
    """
    memo = {} if memo is None else memo
    if expr in env:
        return env[expr]
    if not expr.args:
        return expr
    if expr in memo:
        return memo[expr]
    if isinstance(expr, sympy.Piecewise):
        out = next((value_at(piece, env, memo) for piece, cond in expr.args if truth(value_at(cond, env, memo))),
                   None)
        if out is None:
            raise ValueError(f"no piece of {expr} holds at {env}")
    else:
        args = [value_at(a, env, memo) for a in expr.args]
        if isinstance(expr, (sympy.Max, sympy.Min)) and all(a.is_Rational for a in args):
            out = (max if isinstance(expr, sympy.Max) else min)(args)
        else:
            out = expr.func(*args)
    memo[expr] = out
    return out
