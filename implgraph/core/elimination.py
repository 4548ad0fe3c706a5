"""Fourier-Motzkin elimination over exact rational rows (:func:`_eliminate`), the last step of the linear
screen :func:`implgraph.core.intervals.linear_unsat`.

A row ``(coefs, const, strict)`` stands for ``sum coefs[x]*x + const > 0`` (strict) or ``>= 0``; the unknowns
are symbols or monomials. The rows have no common real point exactly when elimination reaches a row
``0 > 0``, ``0 >= c`` with ``c > 0``, ...; past :data:`MAX_ROWS` rows the elimination gives up (the solver
is asked instead).
"""

from __future__ import annotations

import functools
import math

__all__ = ["MAX_ROWS"]

MAX_ROWS = 120   # rows the elimination may hold; past it the screen gives up (the solver is asked)


@functools.lru_cache(maxsize=20_000)
def _text(x) -> str:
    """``str(x)``, memoised: the elimination orders its unknowns (symbols, monomials) by their text again and
    again, and printing a sympy object is slow."""
    return str(x)


def _eliminate(rows):
    """Fourier-Motzkin: True when the rows have no common real point, False when they do or the rows
    grow past :data:`MAX_ROWS`.

    Each row is held as integers (:func:`_integer_row`): the numerators of its rational coefficients and
    constant over their least common denominator, so a row is the same rational row as in Fraction
    arithmetic, written one way only (equal rows are found equal), at a fraction of the cost.
    """
    rows = [_integer_row(c, k, s) for c, k, s in rows]
    while True:
        for c, k, _, s in rows:
            if not c and (k < 0 or (k == 0 and s)):
                return True
        rows = [r for r in rows if r[0]]
        if not rows:
            return False
        xs = {x for c, _, _, _ in rows for x in c}
        counts = {x: (sum(1 for c, _, _, _ in rows if c.get(x, 0) > 0),
                      sum(1 for c, _, _, _ in rows if c.get(x, 0) < 0)) for x in xs}
        x = min(xs, key=lambda v: (counts[v][0] * counts[v][1] - sum(counts[v]), _text(v)))
        pos = [r for r in rows if r[0].get(x, 0) > 0]
        neg = [r for r in rows if r[0].get(x, 0) < 0]
        rest = [r for r in rows if x not in r[0]]
        if len(rest) + len(pos) * len(neg) > MAX_ROWS:
            return False
        seen = set()
        for p_row in pos:
            for n_row in neg:
                row = _combine(p_row, n_row, x)
                key = (tuple(sorted((_text(v), w) for v, w in row[0].items())),) + row[1:]
                if key not in seen:
                    seen.add(key)
                    rest.append(row)
        rows = rest


def _integer_row(coefs, const, strict):
    """``(numerators, constant's numerator, denominator, strict)`` of the rational row ``sum coefs*x + const``:
    the least common denominator of its entries and their numerators over it (the one such form of a
    rational row: the numerators and the denominator have no common factor)."""
    coefs = dict(coefs)
    den = math.lcm(const.denominator, *(v.denominator for v in coefs.values()))
    return ({x: int(v * den) for x, v in coefs.items()}, int(const * den), den, strict)


def _combine(p_row, n_row, x):
    """``a*p_row + b*n_row`` with ``a = -(n_row's coefficient of x)``, ``b = p_row's`` (both > 0): the row
    without ``x``, in :func:`_integer_row`'s form."""
    cp, kp, dp, sp = p_row
    cn, kn, dn, sn = n_row
    a, b = -cn[x], cp[x]               # a/dn and b/dp: the rational multipliers, over dn*dp together
    c = {}
    for v in cp.keys() | cn.keys():
        if v != x:
            w = a * cp.get(v, 0) + b * cn.get(v, 0)
            if w:
                c[v] = w
    k = a * kp + b * kn
    g = math.gcd(dn * dp, k, *c.values())
    return ({v: w // g for v, w in c.items()}, k // g, dn * dp // g, sp or sn)
