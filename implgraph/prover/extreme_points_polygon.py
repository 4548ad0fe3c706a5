"""The polygon of the ``extreme-points`` argument: A's condition on a table of two blocks, its vertices, B's
linear-fractional requirements there and their dual multipliers (docs/arguments/extreme-points.md).

The table has one record at ``u`` and N - 1 records at ``v`` (binary rows ``(u, 1 - u)``, ``(v, 1 - v)``). A's condition
is read from its declaration as comparisons ``p <= T q + s`` between two means of record sets (``p``, ``q`` affine in
``u, v``), on both buckets; with the box ``0 <= u, v <= 1`` they are the sides of a polygon (``g >= 0``, each ``g``
affine in ``u, v``). B's requirements are linear-fractional ``n / d`` in ``u, v``.

An :class:`Option` of a requirement is the meeting point ``p`` of two sides ``g_a, g_b`` with the multipliers of
``f(p) d - n = l_a g_a + l_b g_b`` (an identity in u, v, f(p) = n(p)/d(p)): where ``l_a, l_b >= 0`` the requirement is
at most f(p) on the whole polygon (LP duality), and where p also lies in the polygon f(p) is its largest value.
Conditions are lists of polynomial relations in T, N and the parameters, those decided on the whole region left out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy
from sympy.polys.fields import field

from implgraph.core.at_point import holds_at
from implgraph.prover.answer import T

__all__ = ["U_", "V_", "Side", "Requirement", "Option", "Field", "sides", "options", "nonnegative", "coefficients",
           "at_point", "screened", "weight"]

#: the value of the block of one record, and of the N - 1 others (bucket 1)
U_, V_ = sympy.symbols("u_ v_", real=True)


@dataclass(frozen=True)
class Side:
    """One side of the polygon: ``g >= 0``, ``g`` affine in u, v."""

    label: str
    g: sympy.Expr


@dataclass(frozen=True)
class Requirement:
    """One of B's requirements ``n / d`` (affine n and d in u, v, d >= 0 on the polygon)."""

    label: str
    n: sympy.Expr
    d: sympy.Expr


@dataclass(frozen=True)
class Option:
    """A requirement's value ``value`` at the meeting point ``point`` of the sides ``pair``, its multipliers ``lam``
    (``{side label: l}``), where they are >= 0 (``dual``) and where the point lies in the polygon (``primal``)."""

    requirement: Requirement
    pair: tuple
    point: tuple
    value: sympy.Expr
    lam: dict
    dual: tuple
    primal: tuple


def coefficients(g):
    """``(a, b, c)`` of ``g = a u + b v + c`` (sympy)."""
    poly = sympy.Poly(sympy.expand(g), U_, V_)
    if poly.total_degree() > 1:
        raise ValueError(f"not affine in u, v: {g}")
    return poly.coeff_monomial(U_), poly.coeff_monomial(V_), poly.coeff_monomial(1)


def sides(comparisons):
    """The box and A's comparisons ``[(label, p, q, s)]`` (``p <= T q + s`` on bucket 1, and on bucket 2 with 1 - p,
    1 - q) as :class:`Side` s."""
    out = [Side("u >= 0", U_), Side("1 - u >= 0", 1 - U_), Side("v >= 0", V_), Side("1 - v >= 0", 1 - V_)]
    for label, p, q, s in comparisons:
        # p, q are means times c = p(1, 1) (both means are 1 on a table of ones): bucket 2 compares c - p and c - q
        c = sympy.expand(p.subs({U_: 1, V_: 1}))
        out.append(Side(f"{label}, bucket 1", sympy.expand(T * q - p + c * s)))
        out.append(Side(f"{label}, bucket 2", sympy.expand(T * (c - q) - (c - p) + c * s)))
    return out


#: sample values of A's raw level and N for :func:`screened` (a condition true at one and false at another varies)
_T_SAMPLES = (1, sympy.Rational(9, 8), sympy.Rational(3, 2), 2, 3, 10)
_N_SAMPLES = (2, 3, 4, 7, 12)


def screened(decide):
    """``decide`` that first evaluates a condition at sample points of the region in T and N: where it is true at one
    and false at another it varies (None, no solver asked); otherwise, or with other symbols, ``decide`` answers."""
    def quick(region, cond):
        cond = sympy.sympify(cond)
        syms = cond.free_symbols
        names = {x.name: x for x in syms | region.condition.free_symbols}
        if set(names) - {"T", "N"} or not syms:
            return decide(region, cond)
        seen = set()
        for point in _samples(region, names):
            seen.add(_truth(cond, point))
            if len(seen) == 2:
                return None
        return decide(region, cond)
    return quick


def _samples(region, names) -> list:
    """The sample points (T from :data:`_T_SAMPLES`, N from :data:`_N_SAMPLES`, as sympy numbers) where the region's
    condition is true, in that order."""
    cond = region.condition
    out = []
    for t in _T_SAMPLES:
        for n in _N_SAMPLES:
            point = {x: sympy.Integer(n) if x.name != "T" else sympy.sympify(t) for x in names.values()}
            if _truth(cond, point, strict=False) is True:
                out.append(point)
    return out


def _truth(cond, point, strict=True):
    """The truth of ``cond`` at a sample point: exact and memoised (:func:`~implgraph.core.at_point.holds_at`), else
    what ``cond.subs(point)`` evaluates to (``bool`` of it when ``strict``; the sympy value otherwise)."""
    v = holds_at(cond, point)
    if v is not None:
        return v
    v = cond.subs(point)
    return bool(v) if strict else (v is sympy.true or None)


def weight(region, conds):
    """The number of sample points of the region in T and N where every condition holds (None with other symbols):
    the order in which the argument tries its pieces."""
    conds = [sympy.sympify(c) for c in conds]
    names = {x.name: x for c in conds for x in c.free_symbols} | {x.name: x for x in region.condition.free_symbols}
    if set(names) - {"T", "N"}:
        return None
    return sum(1 for point in _samples(region, names) if all(_truth(c, point) for c in conds))


class Field:
    """Rational functions of the symbols other than u, v (T, N, the parameters), exact and fast
    (:func:`sympy.polys.fields.field`); the sides' and requirements' coefficients read into it once."""

    def __init__(self, exprs):
        syms = sorted(set().union(*[sympy.sympify(e).free_symbols for e in exprs]) - {U_, V_}, key=str)
        self.K = field(syms or [T], sympy.QQ)[0]

    def affine(self, g):
        return tuple(self.K.from_expr(sympy.sympify(c)) for c in coefficients(g))

    def expr(self, x):
        return x.as_expr()


def _stripped(poly, region, decide):
    """The polynomial ``poly`` (a ring element) as sympy without its constant factor and the factors of odd power
    decided > 0 (< 0: the sign flipped) and of even power decided != 0 on the region (the relation's truth kept at
    every point of the region)."""
    coeff, factors = poly.factor_list()
    out = sympy.sign(sympy.Rational(str(coeff)))
    for f, k in factors:
        f = f.as_expr()
        if k % 2 == 0 and decide(region, sympy.Ne(f, 0)) is True:
            continue
        if k % 2 == 1 and decide(region, f > 0) is True:
            continue
        if k % 2 == 1 and decide(region, f < 0) is True:
            out = -out
            continue
        out *= f ** k
    return out


def nonnegative(x, region, decide, strict=False):
    """``x >= 0`` (``> 0``; x a field element) as polynomial relations not decided on ``region``: ``[]`` where it holds
    on the whole region, None where it fails on the whole region."""
    num, den = x.numer, x.denom
    rel = (lambda y: y > 0) if strict else (lambda y: y >= 0)
    conds = [rel(_stripped(num * den, region, decide))]
    if not den.is_ground:
        square = _stripped(den, region, decide) ** 2
        if square.free_symbols:
            conds.append(square > 0)
    out = []
    for c in conds:
        if c is sympy.true:
            continue
        if c is sympy.false:
            return None
        verdict = decide(region, c)
        if verdict is False:
            return None
        if verdict is not True:
            out.append(c)
    return out


def _meet(first, second):
    a1, b1, c1 = first
    a2, b2, c2 = second
    det = a1 * b2 - a2 * b1
    if det == 0:
        return None
    return (b1 * c2 - b2 * c1) / det, (a2 * c1 - a1 * c2) / det


def _multipliers(h, first, second):
    """``l_a, l_b`` with ``h = l_a g_a + l_b g_b`` in u and v (``h`` an affine triple; the constant term then agrees at
    the meeting point, where h is 0)."""
    hu, hv, _ = h
    a1, b1, _ = first
    a2, b2, _ = second
    det = a1 * b2 - a2 * b1
    return (hu * b2 - a2 * hv) / det, (a1 * hv - b1 * hu) / det


def at_point(triple, point):
    a, b, c = triple
    return a * point[0] + b * point[1] + c


def _option(req, first, second, F, affine, region, decide):
    point = _meet(affine[first.label], affine[second.label])
    if point is None:
        return None
    n, d = F.affine(req.n), F.affine(req.d)
    dp = at_point(d, point)
    if dp == 0:
        return None
    value = at_point(n, point) / dp
    h = tuple(value * x - y for x, y in zip(d, n))
    la, lb = _multipliers(h, affine[first.label], affine[second.label])
    dual = []
    for x, strict in ((la, False), (lb, False), (dp, True)):
        conds = nonnegative(x, region, decide, strict=strict)
        if conds is None:
            return None
        dual += conds
    primal = []
    for triple in affine.values():
        conds = nonnegative(at_point(triple, point), region, decide)
        if conds is None:
            return None
        primal += conds
    return Option(req, (first.label, second.label), point, value, {first.label: la, second.label: lb},
                  tuple(dict.fromkeys(dual)), tuple(dict.fromkeys(primal)))


def options(req, all_sides, F, region, decide):
    """The :class:`Option` s of ``req`` whose dual and primal conditions may hold together somewhere on ``region``
    (points, values and multipliers in ``F``)."""
    affine = {s.label: F.affine(s.g) for s in all_sides}
    out = []
    for first, second in itertools.combinations(all_sides, 2):
        opt = _option(req, first, second, F, affine, region, decide)
        if opt is not None and decide(region, sympy.Not(sympy.And(*opt.dual, *opt.primal))) is not True:
            out.append(opt)
    return out
