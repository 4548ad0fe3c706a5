"""The chord lemma's sampled family (a helper of :mod:`implgraph.certify.lemmas.chord`): at a point (T, N) the
family's rows are a table of N records satisfying A at raw level <= T (A's registered exact level) with B's declared
divergence equal to U (U read at 0 log 0 by its limit)."""

from __future__ import annotations

import sympy

from implgraph.certify.pointwise import level_number
from implgraph.core.formula import parse_expr

__all__ = ["family_at"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def _expr(text):
    return parse_expr(str(text), {"T": _T, "N": _N})


def _rows(fam, T, N):
    """The family's rows at (T, N): [(count, [x, 1 - x], class)] in exact numbers."""
    out = []
    for row in fam.get("rows") or []:
        count = _expr(row["count"]).subs({_T: T, _N: N})
        x = _expr(row["value"]).subs({_T: T, _N: N})
        out.append((count, x, str(row.get("class"))))
    return out


def _at(expr, T, N):
    """``expr`` at (T, N); at a point where it reads 0 log 0 (an end of the interval at 0), its limit in T from a
    side where it is real."""
    value = expr.subs({_T: T, _N: N})
    if not value.has(sympy.nan, sympy.zoo):
        return value
    for side in ("-", "+"):
        value = sympy.limit(expr.subs(_N, N), _T, T, side)
        if value.is_real and value.is_finite:
            return value
    return value


def family_at(cert, fam, T, N, div):
    """``(ok, how)``: at (T, N), the family is a table satisfying A at raw level <= T with B's level equal to U."""
    from fractions import Fraction

    from implgraph.certify.kernel import registered
    from implgraph.core.concrete import INF, ConcreteTable
    rows, classes = [], []
    for count, x, label in _rows(fam, T, N):
        if not (count.is_Integer and count >= 0 and x.is_Rational and 0 <= x <= 1):
            return False, f"at T = {T}, N = {N}: a row is no record ({count} x {x})"
        rows += [[Fraction(int(x.p), int(x.q)), 1 - Fraction(int(x.p), int(x.q))]] * int(count)
        classes += [label] * int(count)
    if len(rows) != N:
        return False, f"at T = {T}, N = {N}: {len(rows)} records"
    ct = ConcreteTable.from_fractions(rows, classes=classes)
    a = registered(cert["A"]["definition"])
    params = {k: parse_expr(str(v), {}) for k, v in ((cert["A"].get("params") or {}).items())}
    ra = a.concrete(ct, **params)           # A's registered exact level (a ratio of averages: a Fraction or INF)
    rb = div.level([list(r) for r in rows], classes)      # B's declared divergence, exactly
    upper = _at(_expr(cert["upper"]), T, N)
    if ra is None or ra == INF or rb is None or rb == INF:
        return False, f"at T = {T}, N = {N}: a level is undefined or infinite ({ra}, {rb})"
    ra_ok = sympy.Rational(ra.numerator, ra.denominator) <= T
    rb_s = level_number(rb)
    same = sympy.simplify(sympy.expand_log(rb_s - upper, force=True)) == 0 or abs(sympy.N(rb_s - upper, 50)) < 1e-40
    return bool(ra_ok and same), f"at T = {T}, N = {N}: A's raw level {ra}, B's {rb_s} against U = {upper}"
