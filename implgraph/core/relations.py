"""Readable relations: a split condition ``a REL b`` rewritten in an equivalent polynomial form.

Strict inequalities between integer expressions are tightened (``N - 2*k + 1 > 0`` becomes
``N >= 2*k``), rational denominators cleared, the positive content divided out, and a symbol that
occurs once linearly is solved for.
"""

from __future__ import annotations

import functools

import sympy

from implgraph.core.plain_poly import NotPlain, plain_poly

__all__ = ["nice_relation", "strict_signs", "to_zero", "integer_form"]

_OPS = {">": sympy.Gt, ">=": sympy.Ge, "<": sympy.Lt, "<=": sympy.Le, "==": sympy.Eq, "!=": sympy.Ne}
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}


def integer_form(e, kinds):
    """``L*e`` with integer coefficients if ``e`` is a polynomial in integer symbols only, else None.

    ``L > 0`` clears the denominators, so ``L*e`` is an integer at every integer point and has the
    sign of ``e``.
    """
    e = sympy.sympify(e)
    syms = e.free_symbols
    if not syms or any(kinds.get(s) != "integer" for s in syms):
        return None
    return _cleared(e)


@functools.lru_cache(maxsize=100_000)
def _cleared(e):
    """:func:`integer_form` of ``e`` once its symbols are known to be integers (memoised: the solver front end
    translates a relation again under each region's symbols, for the relaxed and for the integer encoding)."""
    gens = sorted(e.free_symbols, key=lambda s: s.name)
    try:
        poly = plain_poly(e, gens)
    except NotPlain:
        try:
            poly = sympy.Poly(e, *gens)
        except sympy.PolynomialError:
            return None
    if not poly.domain.is_QQ and not poly.domain.is_ZZ:
        return None
    den = 1
    for c in poly.coeffs():
        den = sympy.ilcm(den, sympy.Rational(c).q)
    return sympy.expand(e * den)


@functools.lru_cache(maxsize=100_000)
def strict_signs(f):
    """``(f > 0, f < 0)``, memoised and unevaluated (evaluating a relation asks sympy's assumptions about
    ``f``; the region decides both, a number's sign exactly)."""
    if f.is_number:
        return sympy.Gt(f, 0), sympy.Lt(f, 0)
    return sympy.Gt(f, 0, evaluate=False), sympy.Lt(f, 0, evaluate=False)


_TO_ZERO = {">": sympy.Gt, ">=": sympy.Ge, "<": sympy.Lt, "<=": sympy.Le}


@functools.lru_cache(maxsize=100_000)
def to_zero(f, op):
    """``f OP 0`` (``op`` one of ``>``, ``>=``, ``<``, ``<=``), memoised; unevaluated unless ``f`` is a number.

    Evaluating the relation asks sympy's assumptions for the sign of ``f`` (a polynomial over the region's
    symbols: they seldom know it, the region decides it); the unevaluated relation is the very relation the
    evaluation returns when they do not know, and a number's relation is evaluated exactly.

    Examples
    --------
    >>> x = sympy.Symbol("x")
    >>> to_zero(x - 1, ">="), to_zero(sympy.Integer(-2), "<")
    (x - 1 >= 0, True)
    """
    if f.is_number:
        return _TO_ZERO[op](f, 0)
    return _TO_ZERO[op](f, 0, evaluate=False)


@functools.lru_cache(maxsize=100_000)
def _nice(p, op, kinds_key):
    kinds = dict(kinds_key)
    p = sympy.expand(p)
    strong = integer_form(p, kinds)
    if strong is not None:
        p = strong
        if op == ">":
            p, op = p - 1, ">="
        elif op == "<":
            p, op = p + 1, "<="
    else:
        # clear rational denominators (a positive factor keeps the relation)
        den = 1
        for term in sympy.Add.make_args(p):
            c = term.as_coeff_Mul()[0]
            if c.is_Rational:
                den = sympy.ilcm(den, c.q)
        p = sympy.expand(p * den)
    # divide by the positive content when it keeps integer coefficients
    coeffs = [t.as_coeff_Mul()[0] for t in sympy.Add.make_args(p)]
    if all(c.is_Integer for c in coeffs):
        g = functools.reduce(sympy.igcd, [abs(int(c)) for c in coeffs], 0)
        if g > 1:
            p = sympy.expand(p / g)
    terms = sympy.Add.make_args(p)
    # solve for a symbol that occurs once, linearly, with coefficient +-1 (prefer integer symbols)
    candidates = []
    for t in terms:
        c, rest = t.as_coeff_Mul()
        if rest.is_Symbol and abs(c) == 1 and sum(1 for u in terms if rest in u.free_symbols) == 1:
            candidates.append((kinds.get(rest) != "integer", rest.name, rest, c))
    if candidates:
        _, _, sym, c = min(candidates)
        other = sympy.expand(-(p - c * sym) / c)
        return _OPS[op if c > 0 else _FLIP[op]](sym, other)
    left = sympy.Add(*[t for t in terms if t.as_coeff_Mul()[0] > 0])
    right = sympy.Add(*[-t for t in terms if t.as_coeff_Mul()[0] < 0])
    if left == 0:
        return _OPS[_FLIP[op]](right, 0)
    return _OPS[op](left, right)


def nice_relation(rel, kinds=None):
    """A relation ``a REL b`` rewritten in a readable equivalent form over the region's kinds.

    Examples
    --------
    >>> N, k = sympy.symbols("N k", integer=True)
    >>> nice_relation(N - 2*k + 1 > 0, {N: "integer", k: "integer"})
    N >= 2*k
    """
    rel = sympy.sympify(rel)
    if not isinstance(rel, sympy.Rel) or rel.rel_op not in _OPS:
        return rel
    kinds = kinds or {}
    key = frozenset((s, k) for s, k in kinds.items() if s in rel.free_symbols)
    try:
        return _nice(rel.lhs - rel.rhs, rel.rel_op, key)
    except (TypeError, ValueError, sympy.PolynomialError):
        return rel
