"""A sound, exact and cheap screen before the solver: bounds of every symbol read off the region's
one-symbol linear constraints, and interval arithmetic over them (:func:`interval_unsat`).

``interval_unsat(constraints, kinds, extra)`` is True only when ``region and extra`` has no real point
at all: the interval of ``extra``'s left side minus its right side, computed in exact rational
arithmetic from bounds the region itself states, cannot meet the relation. The solver asked the same
question answers unsat (its real relaxation is complete for these polynomial questions), so the screen
changes no answer, only how it is found; anything else (a function, a division, a constraint that is not
a polynomial relation) makes the screen answer False, and the solver is asked as before.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import sympy

from implgraph.core.elimination import MAX_ROWS, _eliminate, _text  # noqa: F401

__all__ = ["interval_unsat", "linear_unsat"]

_OPS = {sympy.StrictGreaterThan: ">", sympy.GreaterThan: ">=", sympy.StrictLessThan: "<",
        sympy.LessThan: "<="}
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}


class _NotPlain(Exception):
    pass


def _frac(r) -> Fraction:
    return Fraction(int(r.p), int(r.q))


def _linear_one(e):
    """``(symbol, a, b)`` with ``e == a*symbol + b`` (a != 0, rational), or None."""
    sym, a, b = None, Fraction(0), Fraction(0)
    for term, c in e.as_coefficients_dict().items():
        if not c.is_Rational:
            return None
        if term is sympy.S.One:
            b += _frac(c)
        elif term.is_Symbol and (sym is None or sym == term):
            sym = term
            a += _frac(c)
        else:
            return None
    if sym is None or a == 0:
        return None
    return sym, a, b


def _relation(c):
    """``(op, lhs - rhs)`` of an inequality, or None."""
    op = _OPS.get(type(c))
    if op is None:
        return None
    return op, c.lhs - c.rhs


@functools.lru_cache(maxsize=20_000)
def _bounds(constraints, kinds_key):
    """``{symbol: (lo, lo_strict, hi, hi_strict)}`` from the one-symbol linear inequalities (None: none
    states a bound), or None when a constraint is not a plain polynomial relation (then the screen is off)."""
    ints = {name for name, kind in kinds_key if kind == "integer"}
    out: dict = {}
    for c in constraints:
        if c is sympy.true or c is True:
            continue
        rel = _relation(c) if isinstance(c, sympy.Basic) else None
        if rel is None:
            if isinstance(c, sympy.Basic) and (isinstance(c, sympy.Rel) or c.is_Boolean):
                if not _plain_condition(c):
                    return None
                continue
            return None
        op, e = rel
        if not _plain(e):
            return None
        lin = _linear_one(e)
        if lin is None:
            continue
        x, a, b = lin
        # a*x + b op 0  <=>  x op' -b/a (op flipped when a < 0)
        if a < 0:
            op = _FLIP[op]
        v = -b / a
        strict = op in (">", "<")
        if x.name in ints:
            if op in (">", ">="):
                v = Fraction(math.floor(v) + 1) if strict else Fraction(math.ceil(v))
            else:
                v = Fraction(math.ceil(v) - 1) if strict else Fraction(math.floor(v))
            strict = False
        lo, los, hi, his = out.get(x, (None, False, None, False))
        if op in (">", ">="):
            if lo is None or v > lo or (v == lo and strict):
                lo, los = v, strict
        else:
            if hi is None or v < hi or (v == hi and strict):
                hi, his = v, strict
        out[x] = (lo, los, hi, his)
    return out


def _plain(e) -> bool:
    """A polynomial with rational coefficients in plain symbols (no function, no division)."""
    if e.is_Symbol or e.is_Rational:
        return True
    if e.is_Add or e.is_Mul:
        return all(_plain(a) for a in e.args)
    if e.is_Pow:
        return e.exp.is_Integer and e.exp > 0 and _plain(e.base)
    return False


def _plain_condition(c) -> bool:
    if isinstance(c, sympy.Rel):
        return _plain(c.lhs - c.rhs)
    if isinstance(c, (sympy.And, sympy.Or, sympy.Not)):
        return all(_plain_condition(a) for a in c.args)
    return False


# an interval: (lo, lo_strict, hi, hi_strict), None for an infinite end


def _iv(e, bounds):
    if e.is_Rational:
        v = _frac(e)
        return v, False, v, False
    if e.is_Symbol:
        return bounds.get(e, (None, False, None, False))
    if e.is_Add:
        out = (Fraction(0), False, Fraction(0), False)
        for a in e.args:
            out = _add(out, _iv(a, bounds))
        return out
    if e.is_Mul:
        out = (Fraction(1), False, Fraction(1), False)
        for a in e.args:
            out = _mul(out, _iv(a, bounds))
        return out
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        base = _iv(e.base, bounds)
        out = base
        for _ in range(int(e.exp) - 1):
            out = _mul(out, base)
        if int(e.exp) % 2 == 0:
            out = _even(out)
        return out
    raise _NotPlain


def _add(x, y):
    lo = None if x[0] is None or y[0] is None else x[0] + y[0]
    hi = None if x[2] is None or y[2] is None else x[2] + y[2]
    return lo, lo is not None and (x[1] or y[1]), hi, hi is not None and (x[3] or y[3])


def _mul(x, y):
    """The product interval, closed (a superset of the exact product set: sound)."""
    if x[0] is not None and x[0] == x[2]:
        return _scale(y, x[0])
    if y[0] is not None and y[0] == y[2]:
        return _scale(x, y[0])
    if x[0] is not None and x[0] >= 0 and y[0] is not None and y[0] >= 0:
        hi = None if x[2] is None or y[2] is None else x[2] * y[2]
        return x[0] * y[0], False, hi, False
    if None in (x[0], x[2], y[0], y[2]):
        return None, False, None, False
    ps = [a * b for a in (x[0], x[2]) for b in (y[0], y[2])]
    return min(ps), False, max(ps), False


def _scale(x, c):
    if c == 0:
        return Fraction(0), False, Fraction(0), False
    lo = None if x[0] is None else x[0] * c
    hi = None if x[2] is None else x[2] * c
    if c > 0:
        return lo, x[1], hi, x[3]
    return hi, x[3], lo, x[1]


def _even(x):
    """An even power is never negative."""
    lo, los, hi, his = x
    if lo is None or lo < 0:
        return Fraction(0), False, hi, his
    return x


def interval_unsat(constraints, kinds_key, extra) -> bool:
    """True when the region (``constraints``) and the inequality ``extra`` provably have no common real
    point, by interval arithmetic over the bounds the region states; False when this screen cannot tell.

    Examples
    --------
    >>> N, mu = sympy.Symbol("N"), sympy.Symbol("mu")
    >>> interval_unsat((sympy.Ge(N, 2),), (("N", "integer"),), sympy.Le(N, 0))
    True
    >>> interval_unsat((sympy.Gt(mu, 0), sympy.Le(mu, 1)), (("mu", "real"),), sympy.Le(mu, 0))
    True
    >>> interval_unsat((sympy.Gt(mu, 0),), (("mu", "real"),), sympy.Lt(mu, 1))
    False
    """
    rel = _relation(extra) if isinstance(extra, sympy.Basic) else None
    if rel is None:
        return False
    bounds = _bounds(constraints, kinds_key)
    if bounds is None:
        return False
    op, e = rel
    try:
        lo, los, hi, his = _iv(e, bounds)
    except _NotPlain:
        return False
    if op == ">=":
        return hi is not None and (hi < 0 or (hi == 0 and his))
    if op == ">":
        return hi is not None and hi <= 0
    if op == "<=":
        return lo is not None and (lo > 0 or (lo == 0 and los))
    return lo is not None and lo >= 0


# -- linear questions: Fourier-Motzkin elimination over the region's linear constraints ------------------



@functools.lru_cache(maxsize=50_000)
def _linear_rows(c, ints):
    """The rows ``(coefs, const, strict)`` (``sum coefs*x + const > 0`` or ``>= 0``) of a linear relation
    ``c`` (two for an equation), ``()`` for anything else (left out: the rest is a relaxation of the
    region), None for a constraint the screen must not read past (not a polynomial relation)."""
    if c is sympy.true or c is True:
        return ()
    if not isinstance(c, sympy.Basic):
        return None
    if isinstance(c, sympy.Equality):
        e = c.lhs - c.rhs
        if not _plain(e):
            return None
        row = _linear_row(e, False, ints)
        neg = _linear_row(-e, False, ints)
        return () if row is None or neg is None else (row, neg)
    rel = _relation(c)
    if rel is None:
        return () if isinstance(c, sympy.Rel) and _plain(c.lhs - c.rhs) or \
            (c.is_Boolean and _plain_condition(c)) else None
    op, e = rel
    if not _plain(e):
        return None
    e = e if op in (">", ">=") else -e
    row = _linear_row(e, op in (">", "<"), ints)
    return () if row is None else (row,)


def _linear_row(e, strict, ints):
    """``e > 0`` (strict) or ``e >= 0`` as a row; None when ``e`` is not linear. Over integer symbols with
    rational coefficients the row is tightened as integers allow (``2*k - 3 > 0`` is ``k - 2 >= 0``)."""
    coefs, const = {}, Fraction(0)
    for term, c in e.as_coefficients_dict().items():
        if not c.is_Rational:
            return None
        if term is sympy.S.One:
            const += _frac(c)
        elif term.is_Symbol or _monomial(term):
            coefs[term] = coefs.get(term, Fraction(0)) + _frac(c)
        else:
            return None
    coefs = {x: v for x, v in coefs.items() if v}
    if coefs and all(s.name in ints for x in coefs for s in x.free_symbols):
        # scale to coprime integer coefficients: sum a*x is then an integer, so sum a*x + const > 0 is
        # sum a*x >= floor(-const) + 1 and sum a*x + const >= 0 is sum a*x >= ceil(-const)
        den = math.lcm(*(v.denominator for v in coefs.values()))
        ints_ = {x: int(v * den) for x, v in coefs.items()}
        g = math.gcd(*ints_.values())
        coefs = {x: Fraction(v, g) for x, v in ints_.items()}
        rhs = -const * den / g
        const = -Fraction(math.floor(rhs) + 1 if strict else math.ceil(rhs))
        strict = False
    return tuple(sorted(coefs.items(), key=lambda kv: _text(kv[0]))), const, strict


def _monomial(term) -> bool:
    """A product of two symbols or a symbol squared (an unknown of its own, bounded by :func:`_envelope`)."""
    if term.is_Pow:
        return term.base.is_Symbol and term.exp == 2
    return term.is_Mul and len(term.args) == 2 and all(a.is_Symbol for a in term.args)


def _envelope(m, bounds):
    """Rows true of the monomial ``m`` wherever its symbols lie within ``bounds`` (closed): for ``x*y`` the
    four products ``(x - xl)*(y - yl) >= 0``, ... whose bounds are finite (McCormick), for ``x**2`` that it is
    not negative, below its secant and above its tangents at the bounds."""
    def lim(x):
        lo, _, hi, _ = bounds.get(x, (None, False, None, False))
        return lo, hi
    rows = []
    if m.is_Pow:
        x = m.base
        lo, hi = lim(x)
        rows.append(({m: Fraction(1)}, Fraction(0)))
        for c in (lo, hi):
            if c is not None:          # (x - c)**2 >= 0
                rows.append(({m: Fraction(1), x: -2 * c}, c * c))
        if lo is not None and hi is not None:    # (x - lo)*(hi - x) >= 0
            rows.append(({m: Fraction(-1), x: lo + hi}, -lo * hi))
        return rows
    x, y = m.args
    (xl, xu), (yl, yu) = lim(x), lim(y)
    # (x - a)*(y - b) * sign >= 0 with a, b bounds on the sides that make the factors' signs known
    for a, b, sign in ((xl, yl, 1), (xu, yu, 1), (xl, yu, -1), (xu, yl, -1)):
        if a is None or b is None:
            continue
        # sign * (m - b*x - a*y + a*b) >= 0
        rows.append(({m: Fraction(sign), x: -sign * b, y: -sign * a}, sign * a * b))
    return rows


def linear_unsat(constraints, kinds_key, extra) -> bool:
    """True when the linear constraints of the region and the linear inequality ``extra`` have no common
    point (exact Fourier-Motzkin elimination; integer symbols' rows tightened as integers allow); False
    when this screen cannot tell (a question of degree above 2, a constraint that is no polynomial relation,
    too many rows). A product of two symbols or a square is an unknown of its own, held by the rows the
    region's bounds give it (:func:`_envelope`): a relaxation, so only "no common point" is concluded.

    Examples
    --------
    >>> N, k = sympy.Symbol("N"), sympy.Symbol("k")
    >>> kinds = (("N", "integer"), ("k", "integer"))
    >>> linear_unsat((sympy.Le(k, N - 1), sympy.Ge(k, 1)), kinds, sympy.Ge(k - N + 1, 1))
    True
    >>> linear_unsat((sympy.Le(k, N - 1), sympy.Ge(k, 1)), kinds, sympy.Ge(k, N - 1))
    False
    """
    ints = frozenset(name for name, kind in kinds_key if kind == "integer")
    question = _linear_rows(extra, ints)
    if not question or isinstance(extra, sympy.Equality):
        return False
    rows = list(question)
    for c in constraints:
        more = _linear_rows(c, ints)
        if more is None:
            return False
        rows.extend(more)
    monomials = {x for c, _, _ in rows for x, _ in c if not x.is_Symbol}
    if monomials:
        bounds = _bounds(constraints, kinds_key)
        if bounds is None:
            return False
        for m in sorted(monomials, key=_text):      # (str, memoised: the same monomials come again)
            rows.extend((tuple(c.items()), k, False) for c, k in _envelope(m, bounds))
    return _eliminate(rows)
