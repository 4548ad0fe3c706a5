"""``extreme-points``: B's requirements are linear-fractional in the table's values and A's condition is a polytope
symmetric in the records, so the supremum is at a vertex of a table of two blocks (docs/proofs/extreme-points.md).

*Shapes.* A is a two-sided ratio of averages over every pair of records or every subset of j records (no slack), or
an additive slack delta_A between any two records (``x_i(E) <= T x_k(E) + delta_A`` on every event E); B compares the
table with the table without one record with an additive slack delta in (0, 1) (``P(E) <= e^eps Q_i(E) + delta`` and
the reverse, on every event). Tried where A's condition has at most ``MAX_COMPARISONS`` comparisons on the table of
two blocks: the pairwise ratio and the slack between two records (a subset level is read, but its polygon of 12 sides
is not tried yet: its enumeration takes minutes and its pieces overflow a certificate's size).

*Binary tables.* B's raw level is the largest of 1 and the requirements ``(P(E) - delta)/Q_i(E)`` and ``(Q_i(E) -
delta)/P(E)`` over the records i and events E. Merging the buckets of E and of its complement into two does not change
the requirement of E and does not raise A's level (a ratio of sums lies between the ratios of its terms; A's events
on two buckets are among its events on the table). So the supremum is over binary tables, one value x_k per record.

*Two blocks.* A requirement of record i on bucket 1 depends on x_i and the sum s of all values only
(``P = s/N``, ``Q_i = (s - x_i)/(N - 1)``). A's condition is a polytope (each comparison ``mean_S <= T mean_S'`` is
linear) that every permutation of the records maps onto itself. Averaging a table over the permutations fixing record
i keeps A's condition (convexity and symmetry), x_i and s: the other records all take their mean. So every requirement
is at most its supremum over the tables of one record at u and N - 1 records at v (bucket 1), where it is
``(m - delta)/v`` or ``(v - delta)/m``, m = (u + (N - 1) v)/N; bucket 2 is the same on ``(1 - u, 1 - v)``, in the same
polygon (A's condition is read on both buckets).

*The polygon and its vertices.* On these tables A's condition is a polygon in (u, v): ``0 <= u, v <= 1`` and each
comparison ``T q - p + delta_A >= 0`` on both buckets, p and q the means it compares (u and v for pairs; the mean of
a subset holding record 1, ``(u + (j - 1) v)/j``, or not, v, against m for subsets of size j). A requirement
``n / d`` (d >= 0 on the polygon) is at most U wherever ``U d - n >= 0``, affine in (u, v): that holds on the polygon
when ``U d - n = sum_k l_k g_k`` with every ``l_k >= 0`` (g_k >= 0 its sides). At the meeting point p of two sides
g_a, g_b, with U = n(p)/d(p), the multipliers of ``U d - n = l_a g_a + l_b g_b`` are unique; where they are >= 0 and
p lies in the polygon, U is the requirement's largest value there (LP duality), attained by the table of p.

*The pieces.* For each meeting point of each requirement the engine writes the conditions on T, N and the
parameters (polynomial inequalities) under which its multipliers are >= 0 and the point lies in the polygon; a piece
takes one requirement's point as the winner (U its value, >= 1 and >= the other requirement's value at a point whose
multipliers are >= 0), or U = 1 where both are at most 1. The pieces must cover the claim's condition (decided by
z3), else no bound. Each piece's certificate holds, for each requirement, a scale D > 0 and polynomial multipliers
``mu_k >= 0`` with ``D (P d - Q n) = sum_k mu_k g_k + mu_0`` identically in u, v (U = P/Q), and its attaining table:
one record at u, N - 1 at v (a table of equal records where U = 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.extreme_points_polygon import (U_, V_, Field, Requirement, nonnegative, options, screened, sides,
                                                    weight)
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, declared_slack, ratio_sides, slack_between
from implgraph.prover.shapes import decide as _decide
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.EXTREME_POINTS
#: three-valued decisions, screened at sample points first (most conditions here vary on the region)
decide = screened(_decide)

__all__ = ["comparisons", "requirements", "extreme_bound"]


@dataclass
class PointBound(Bound):
    """A piece: its bound, the point attaining it and each requirement's scale and multipliers."""

    point: tuple = None
    multipliers: dict = field(default_factory=dict)
    field_upper: object = None


def comparisons(ctx):
    """A's condition on the table of two blocks as ``[(label, p, q, s)]`` (``p <= T q + s``, p and q means scaled by
    one positive factor so that the sides are polynomials), or None."""
    N, u, v = ctx.N, U_, V_
    da = declared_slack(ctx.a, ctx.a_params, "pairs")
    if da is not None and ratio_sides(ctx.a) is None:
        return [("x_1 <= T x_k + delta_A", u, v, da), ("x_k <= T x_1 + delta_A", v, u, da)]
    if slack_between(ctx.a):
        return None
    if compares(ctx.a, "pairwise"):
        return [("x_1 <= T x_k", u, v, 0), ("x_k <= T x_1", v, u, 0)]
    j = ctx.ja
    if compares(ctx.a, "subset") and j is not None and decide(ctx.region, sympy.And(j >= 1, j <= N - 1)) is True:
        # (times N j: the mean of a subset of j records holding record 1, of one without it, of the table)
        w, w0, m = N * (u + (j - 1) * v), N * j * v, j * (u + (N - 1) * v)
        return [("mean_S (record 1 in S) <= T mean_D", w, m, 0), ("mean_D <= T mean_S (record 1 in S)", m, w, 0),
                ("mean_S (record 1 not in S) <= T mean_D", w0, m, 0),
                ("mean_D <= T mean_S (record 1 not in S)", m, w0, 0)]
    return None


def requirements(ctx):
    """B's requirements on the table of two blocks (record 1 removed, bucket 1; numerator and denominator times N),
    or None."""
    d = declared_slack(ctx.b, ctx.b_params, "removal")
    if d is None or d <= 0 or ratio_sides(ctx.b) is not None:
        return None
    N = ctx.N
    s = U_ + (N - 1) * V_
    return [Requirement("(P - delta)/Q_1", s - N * d, N * V_), Requirement("(Q_1 - delta)/P", N * (V_ - d), s)]


#: the most comparisons of A tried (each two sides of the polygon): a pairwise ratio or slack has 2; a subset level's 4
#: (a polygon of 12 sides) take minutes of CPU to enumerate and their pieces overflow a certificate's size, so they are
#: not tried yet (docs/proofs/extreme-points.md)
MAX_COMPARISONS = 2


def _applies(ctx):
    if requirements(ctx) is None:
        return False
    comps = comparisons(ctx)
    return comps is not None and len(comps) <= MAX_COMPARISONS


@argument(METHOD, order=171, applies=_applies)
def bound(ctx):
    return extreme_bound(ctx)


def _identity_ok(U, req, F, affine, scale, mults):
    """``scale (P d - Q n) = sum_k mu_k g_k`` in u, v (each side an affine triple over ``F``)."""
    P, Q = U.numer, U.denom
    n, d = F.affine(req.n), F.affine(req.d)
    target = [scale * (P * x - Q * y) for x, y in zip(d, n)]
    total = [F.K.zero] * 3
    for k, mu in mults.items():
        g = affine[k] if k != "1 >= 0" else (F.K.zero, F.K.zero, F.K.one)
        total = [t + mu * x for t, x in zip(total, g)]
    return all(a == b for a, b in zip(target, total))


def _certificate_of(U, req, option, F, affine, region):
    """``(scale, multipliers, conditions)`` of ``U d - n >= 0`` from ``option`` (module notes), or None."""
    extra = U - option.value
    mu = dict(option.lam)
    for label, coeff in zip(("u >= 0", "v >= 0", "1 >= 0"), F.affine(req.d)):
        if coeff != 0:
            mu[label] = mu.get(label, F.K.zero) + coeff * extra
    mu = {k: F.K(U.denom) * x for k, x in mu.items()}
    scale = F.K.ring.one
    for x in mu.values():
        scale = scale.lcm(x.denom)
    scale = F.K(scale)
    conds = nonnegative(scale, region, decide, strict=True)
    if conds is None:
        scale, conds = -scale, nonnegative(-scale, region, decide, strict=True)
    if conds is None:
        return None
    polys = {k: scale * x for k, x in mu.items()}
    for x in polys.values():
        more = nonnegative(x, region, decide)
        if more is None:
            return None
        conds += more
    return scale, polys, conds


def _piece(U, chosen, primal, point, F, affine, region):
    """The piece of bound U (``chosen``: each requirement's option) on the conditions under which its certificate
    holds, or None where they fail everywhere."""
    conds = nonnegative(U - 1, region, decide)
    den = nonnegative(F.K(U.denom), region, decide, strict=True)
    if conds is None or den is None:
        return None
    conds += den + list(primal)
    mults = {}
    for req, option in chosen:
        found = _certificate_of(U, req, option, F, affine, region)
        if found is None:
            return None
        scale, polys, more = found
        conds += more
        mults[req.label] = (req, scale, polys)
    conds = list(dict.fromkeys(conds))
    if decide(region, sympy.Not(sympy.And(*conds))) is True:
        return None
    where = None if point is None else tuple(sympy.factor(x.as_expr()) for x in point)
    return conds, PointBound(simplified(U.as_expr()), True, METHOD.name, "", point=where, multipliers=mults,
                             field_upper=U)


def _high(option, region):
    """May ``option`` be its requirement's largest value above 1 (its conditions and value > 1 together)?"""
    return decide(region.add(*option.dual, *option.primal), sympy.Le(option.value.as_expr(), 1)) is not True


def _empty(region, *conds):
    return decide(region, sympy.Not(sympy.And(*conds))) is True


def _tidy(region, conds):
    """``conds`` without those the others give on the region."""
    kept = list(conds)
    for c in list(conds):
        rest = [x for x in kept if x is not c]
        if decide(region.add(*rest), c) is True:
            kept = rest
    return kept


def _covered(region, pieces):
    return bool(pieces) and decide(region, sympy.Or(*[sympy.And(*c) for c, _ in pieces])) is True


#: the most pieces tried for one claim (past it, no bound: the search goes on to the next argument)
MAX_TRIES = 200


def _tries(reqs, opts, region, one):
    """``(U, chosen, primal, point)`` in the order tried: each requirement's options that may exceed 1 as the winner
    against each option of the other, then U = 1 on each pair of options; within each kind, those whose conditions
    hold at more sample points first (a deterministic order)."""
    winners, ones = [], []
    for k, (req, mine) in enumerate(zip(reqs, opts)):
        for w in (w for w in mine if _high(w, region)):
            for o in opts[1 - k]:
                conds = [*w.dual, *w.primal, *o.dual, sympy.Ge(w.value.as_expr(), o.value.as_expr())]
                chosen = [(req, w), (reqs[1 - k], o)][::1 - 2 * k]
                winners.append((conds, (w.value, chosen, w.primal, w.point)))
    for w1 in opts[0]:
        for w2 in opts[1]:
            conds = [*w1.dual, *w2.dual, sympy.Le(w1.value.as_expr(), 1), sympy.Le(w2.value.as_expr(), 1)]
            ones.append((conds, (one, list(zip(reqs, (w1, w2))), (), None)))
    for group in (winners, ones):
        ranked = sorted(((weight(region, c) or 0, i, c, x) for i, (c, x) in enumerate(group)), key=lambda y: (-y[0], y[1]))
        for _, _, conds, x in ranked:
            if not _empty(region, *conds):
                yield x


def _pieces(reqs, opts, F, affine, region):
    """Pieces (module notes) in the order of :func:`_tries` until they cover the region; None where they never do."""
    out = []
    for tried, (U, chosen, primal, point) in enumerate(_tries(reqs, opts, region, F.K.one)):
        if tried >= MAX_TRIES:
            return None
        piece = _piece(U, chosen, primal, point, F, affine, region)
        if piece is not None:
            out.append(piece)
            if _covered(region, out):
                return out
    return None


def _kept(region, pieces):
    """``pieces`` without those the others cover (greedy, from the last)."""
    kept = list(pieces)
    for piece in list(reversed(pieces)):
        rest = [p for p in kept if p is not piece]
        if rest and decide(region.add(*piece[0]), sympy.Or(*[sympy.And(*c) for c, _ in rest])) is True:
            kept = rest
    return kept


def _build(point, N):
    def build(at_point):
        Tv, Nv, _ = at(at_point, N)
        if point is None:
            return binary_column_table([frac(sympy.Rational(1, 2))] * Nv)
        u, v = (sympy.sympify(x).subs({T: Tv, N: Nv}) for x in point)
        return binary_column_table([frac(u)] + [frac(v)] * (Nv - 1))
    return build


def _argument(U, point):
    where = "a table of equal records" if point is None else f"one record at {point[0]}, N - 1 at {point[1]}"
    return (f"extreme points: B's requirements (P - delta)/Q_i and (Q_i - delta)/P are linear-fractional in the "
            "values of a binary table and A's condition is a polytope symmetric in the records, so each is largest at "
            "a table of one record and N - 1 equal others, at a vertex of A's polygon; here U = "
            f"{U}, with the multipliers of U d - n over the polygon's sides >= 0, attained by {where}")


def extreme_bound(ctx):
    """The piecewise supremum (module notes), or None where the pieces do not cover the claim's condition."""
    reqs, comps = requirements(ctx), comparisons(ctx)
    all_sides = sides(comps)
    region = ctx.region
    F = Field([s.g for s in all_sides] + [x for r in reqs for x in (r.n, r.d)])
    affine = {s.label: F.affine(s.g) for s in all_sides}
    opts = [options(r, all_sides, F, region, decide) for r in reqs]
    pieces = _pieces(reqs, opts, F, affine, region)
    if pieces is None:
        return None
    pieces = [(_tidy(region, c), p) for c, p in _kept(region, pieces)]
    for _, piece in pieces:
        if not all(_identity_ok(piece.field_upper, req, F, affine, scale, polys)
                   for req, scale, polys in piece.multipliers.values()):
            return None
        piece.multipliers = {label: {"scale": sympy.factor(scale.as_expr()),
                                     "multipliers": {k: sympy.factor(x.as_expr()) for k, x in polys.items()}}
                             for label, (_, scale, polys) in piece.multipliers.items()}
    for conds, piece in pieces:
        piece.argument, piece.build = _argument(piece.upper, piece.point), _build(piece.point, ctx.N)
    if len(pieces) == 1:
        return pieces[0][1]
    # U = 1 pieces last, written as the otherwise (the pieces cover the region: the others' conditions fail there)
    pieces.sort(key=lambda p: p[1].point is None)
    shown = [(p.upper, sympy.And(*c)) for c, p in pieces if p.point is not None]
    upper = sympy.Piecewise(*shown, (sympy.Integer(1), True)) if pieces[-1][1].point is None else \
        sympy.Piecewise(*shown[:-1], (shown[-1][0], True))

    def build(point):
        return next(p for c, p in pieces if sympy.And(*c).subs(point) is sympy.true).build(point)
    return Bound(upper, True, methods.EXTREME_POINTS_PIECES.name, "; ".join(f"where {sympy.And(*c)}: {p.argument}" for c, p in pieces),
                 build=build, checks=[c for _, p in pieces for c in p.checks],
                 parts=[(sympy.And(*c), p) for c, p in pieces])


def _family(cert, ctx):
    point = ctx.bound.point
    if point is None:
        return {"blocks": [{"count": "N", "value": "1/2"}]}
    return {"blocks": [{"count": "1", "value": str(point[0])}, {"count": "N - 1", "value": str(point[1])}]}


@certificate_parts(METHOD, family=_family)
def upper_certificate(cert, ctx):
    """Each requirement's scale D and multipliers (``D (P d - Q n) = sum_k mu_k g_k``, by the sides' labels)."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "requirements": {
        label: {"scale": str(x["scale"]), "multipliers": {k: str(mu) for k, mu in x["multipliers"].items()}}
        for label, x in ctx.bound.multipliers.items()}}


@certificate_parts(methods.EXTREME_POINTS_PIECES, whole=True)
def pieces_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """Each piece's certificate on the claim's condition and the piece's, inside one."""
    from implgraph.prover.certificate import FORMAT, certificate, symbols_and_domain
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    parts = [certificate(a, b, a_params, b_params, a_classes, b_classes, region.add(*sympy.And.make_args(where)), N,
                         piece) for where, piece in bound.parts]
    return {"format": FORMAT, "method": methods.EXTREME_POINTS_PIECES.name, "symbols": kinds, "domain": domain,
            "A": parts[0]["A"], "B": parts[0]["B"], "upper": str(bound.upper), "tight": True,
            "argument": bound.argument, "parts": parts, "tightness": None,
            "tightness_note": "each part's family attains its bound on its own condition"}
