"""``Min`` and ``Max`` of expressions that no two of which sympy can order, built without asking sympy to order them.

``sympy.Max(*args)`` compares every pair of arguments through the assumptions system, to drop an argument another
one bounds (``Max(x, x + 1)`` is ``x + 1``). For rational functions of several symbols each comparison asks about
the sign of a difference of fractions; a ``Max`` of fourteen ratios takes a quarter of a second, and almost every
such pair cannot be ordered anyway. :func:`extremum` first evaluates the arguments exactly (``fractions.Fraction``)
at a few points that satisfy every assumption of their symbols: when for every pair of arguments one point has the
first above the second and another point has it below, no sound comparison can order that pair (the difference
takes both signs where the symbols may be), so sympy's comparisons would drop nothing and the result is the
unevaluated ``Max`` of the same arguments, the object sympy builds (its arguments in sympy's canonical order).
Otherwise, or for arguments that are numbers, infinities, ``Min``/``Max`` themselves, or not plain rational
functions, sympy builds it as usual. The value is the same in every case; only the time differs.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import sympy

__all__ = ["extremum", "fast_max", "fast_min", "xreplaced"]

#: candidate values of a symbol, tried in this order (each kept only where it satisfies every assumption of the
#: symbol: sign, integrality, parity, ...)
_CANDIDATES = tuple(sympy.Rational(v) for v in ("1/3", "2", "5/7", "3", "7/2", "1/5", "4", "9/4", "6", "11/3", "1",
                                                  "13/9", "5", "-1", "-3/2", "-2/5", "-4", "0"))
POINTS = 8


@functools.lru_cache(maxsize=4096)
def _values(sym) -> tuple:
    """The candidate values (Fractions) that satisfy every assumption sympy holds about ``sym``."""
    facts = sym.assumptions0
    return tuple(Fraction(int(v.p), int(v.q)) for v in _CANDIDATES
                 if all(getattr(v, "is_" + key, None) is value for key, value in facts.items()))


def _evaluate(e, point):
    """The exact value of the rational function ``e`` at ``point`` (a Fraction), or None (not a rational function
    of the point's symbols, or a division by zero)."""
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if e.is_Symbol:
        return point.get(e)
    if e.is_Add or e.is_Mul:
        parts = [_evaluate(a, point) for a in e.args]
        if any(p is None for p in parts):
            return None
        return sum(parts, Fraction(0)) if e.is_Add else functools.reduce(lambda a, b: a * b, parts, Fraction(1))
    if e.is_Pow and e.exp.is_Integer:
        base = _evaluate(e.base, point)
        if base is None or (base == 0 and e.exp < 0):
            return None
        return base ** int(e.exp)
    return None


def _points(symbols) -> list:
    """Up to :data:`POINTS` points (dicts symbol -> Fraction) satisfying every symbol's assumptions, spread over
    the candidates deterministically; empty when some symbol has no candidate value."""
    options = [_values(s) for s in symbols]
    if any(not o for o in options):
        return []
    return [{s: o[(i * (2 * j + 3) + j) % len(o)] for j, (s, o) in enumerate(zip(symbols, options))}
            for i in range(POINTS)]


def _unordered(args) -> bool:
    """True when every pair of ``args`` is seen above and below at exact points of the symbols' domain."""
    if len(args) < 2 or not all(isinstance(a, sympy.Expr) and not a.is_number
                                and not isinstance(a, (sympy.Min, sympy.Max)) for a in args):
        return False
    symbols = sorted(set().union(*(a.free_symbols for a in args)), key=sympy.default_sort_key)
    values = [[_evaluate(a, p) for a in args] for p in _points(symbols)]
    for i, j in itertools.combinations(range(len(args)), 2):
        signs = {(row[i] > row[j]) - (row[i] < row[j]) for row in values
                 if row[i] is not None and row[j] is not None}
        if not {1, -1} <= signs:
            return False
    return True


def extremum(cls, *args):
    """``cls(*args)`` (``sympy.Min`` or ``sympy.Max``), the same object, without pairwise comparisons where the
    arguments are pairwise unordered on their symbols' domain (see the module docstring)."""
    if not sympy.core.parameters.global_parameters.evaluate:
        return cls(*args)
    items = list(dict.fromkeys(sympy.sympify(a) for a in args))
    if _unordered(items):
        return cls(*items, evaluate=False)
    return cls(*args)


def fast_max(*args):
    """``sympy.Max(*args)`` by :func:`extremum`."""
    return extremum(sympy.Max, *args)


def fast_min(*args):
    """``sympy.Min(*args)`` by :func:`extremum`."""
    return extremum(sympy.Min, *args)


def xreplaced(e, rule: dict):
    """``e.xreplace(rule)``, the same object, with each rebuilt ``Min``/``Max`` made by :func:`extremum`."""
    return _xreplaced(e, rule)[0] if rule else e


def _xreplaced(e, rule):
    """(the replaced expression, whether a replacement happened below): ``Basic._xreplace``'s walk."""
    if e in rule:
        return rule[e], True
    args, changed = [], False
    for a in e.args:
        if isinstance(a, sympy.Basic):
            a, hit = _xreplaced(a, rule)
            changed = changed or hit
        args.append(a)
    if not changed:
        return e, False
    if isinstance(e, (sympy.Min, sympy.Max)):
        return extremum(e.func, *args), True
    return e.func(*args), True
