"""``subset-chord``: a two-sided subset level of any size j bounds a class's divergence from the table by the chord
of phi over one record's ratio range (docs/arguments/subset-chord.md, docs/proofs/subset-closeness-chord.md).

The case: A is a two-sided subset level of size j (every set of j records has its mean within [1/T, T] of the
table's, bucket by bucket; ``kt-closeness(k)`` has j = k, ``kdp(k)`` j = N - k) with 1 <= j <= N - 1 on the claim's
condition; B a divergence of a class from the table over any partition (classes of one record allowed), KL or Renyi of
a finite order (its declared :class:`~implgraph.definitions.divergences.Divergence`, never a definition's name).

**The range of one record's ratio.** Fix record i and bucket l, a = x_i(l)/P_l, and b = (N - a)/(N - 1) the mean of
the others' ratios. The j-subsets avoiding record i average to b, so b lies in [1/T, T]; those holding it average to
(a + (j - 1) b)/j, which lies in [1/T, T] too; and a >= 0. Solved for a (b decreases in a, the holding mean increases,
its slope (N - j)/(j (N - 1)) > 0):

    hi = min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))
    lo = max(0, N - (N - 1) T, (j (N - 1)/T - (j - 1) N)/(N - j))

A class's mean is an average of its records, so its ratios lie in [lo, hi] too. Where T > 1, lo < 1 < hi.

**The chord.** D(m || P) = sum_l P_l phi(r_l) with sum_l P_l r_l = 1, r_l in [lo, hi] and phi convex, so
D <= L phi(hi) + (1 - L) phi(lo), L = (1 - lo)/(hi - lo): for KL log(hi) where lo = 0, else
((1 - lo) hi log hi + (hi - 1) lo log lo)/(hi - lo); for Renyi of order alpha
log(L hi^alpha + (1 - L) lo^alpha)/(alpha - 1) (order 2: log(hi + lo - hi lo)). At T = 1 every subset's mean is the
table's, every record is the table and B is 0.

**Attained** for every N and T > 1: two buckets, P = (L, 1 - L); record i at (hi L, lo (1 - L)) in a class of its
own, the N - 1 others at ((N - hi) L/(N - 1), (N - lo)(1 - L)/(N - 1)) in another. Each bucket's ratios are
(a, b, ..., b) with a an end of [lo, hi] and b = (N - a)/(N - 1): every j-subset's mean is b or (a + (j - 1) b)/j,
within [1/T, T] by the ends' construction, so A's level is at most T; record i's class has B's value the chord's.

Sizes 1 and N - 1 are the ``chord`` argument's (a narrower statement of the same interval); this argument takes every
other size, a number or a formula in N and a parameter's symbol.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import certificate_size
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, decide
from implgraph.prover.tables import rows_build

METHOD = methods.SUBSET_CHORD

__all__ = ["ends", "ends_pieces", "chord_value", "upper", "family_rows", "bound"]

_R = sympy.Symbol("r", positive=True)


def ends_pieces(N, j):
    """``(hi's arguments, lo's positive arguments)``: ``[h1, h2]`` and ``[l1, l2]`` of the module notes."""
    h = [N - (N - 1) / T, (j * T * (N - 1) - (j - 1) * N) / (N - j)]
    lo = [N - (N - 1) * T, (j * (N - 1) / T - (j - 1) * N) / (N - j)]
    return [sympy.cancel(x) for x in h], [sympy.cancel(x) for x in lo]


def ends(N, j):
    """``(lo, hi)``: one record's ratio range under A of size j at raw level T (module notes)."""
    h, lo = ends_pieces(N, j)
    return sympy.Max(0, *lo), sympy.Min(*h)


def chord_value(div, lo, hi):
    """The chord's value of B's divergence on [lo, hi] in B's level (lo > 0, or lo = 0 for Renyi)."""
    L = (1 - lo) / (hi - lo)
    if div.kind == "renyi":
        alpha = div.order
        mean = hi + lo - hi * lo if alpha == 2 else L * hi ** alpha + (1 - L) * lo ** alpha
        return sympy.log(mean) / (alpha - 1)
    return ((1 - lo) * hi * sympy.log(hi) + (hi - 1) * lo * sympy.log(lo)) / (hi - lo)


def upper(div, N, j):
    """U: ``Piecewise((0, T <= 1), ...)`` of the chord's value on [lo, hi] (for KL the piece lo = 0 apart: 0 log 0)."""
    (lo, hi), (_, lows) = ends(N, j), ends_pieces(N, j)
    if div.kind == "renyi":
        return sympy.Piecewise((0, sympy.Le(T, 1)), (chord_value(div, lo, hi), True))
    low = sympy.Max(*lows)
    return sympy.Piecewise((0, sympy.Le(T, 1)), (sympy.log(hi), sympy.And(*(sympy.Le(x, 0) for x in lows))),
                           (chord_value(div, low, hi), True))


def family_rows(N, j):
    """The attaining family: ``[(count, first bucket's value, class)]`` of binary rows (module notes)."""
    lo, hi = ends(N, j)
    L = (1 - lo) / (hi - lo)
    return [(sympy.Integer(1), hi * L, "E1"), (N - 1, (N - hi) * L / (N - 1), "E2")]


def _build(N, j):
    """The family's table at a point where T > 1 (at T = 1 its rows read 0/0; U is 0 there)."""
    build = rows_build(family_rows(N, j))
    return lambda point: build(point) if sympy.Rational(point[T]) > 1 else None


def _divergence(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    if div is None or div.compares != "class" or div.phi(_R) is None:
        return None
    if div.kind == "kl" or (div.kind == "renyi" and div.order.is_number and div.order.is_finite
                            and bool(div.order > 1)):
        return div
    return None


def _applies(ctx):
    classes = ctx.b_classes or {}
    return (_divergence(ctx) is not None and compares(ctx.a, "subset") and ctx.ja is not None
            and str(classes.get("min_size", 1)) == "1" and not classes.get("max_size"))


@argument(METHOD, order=200.2, applies=_applies)
def bound(ctx):
    """B a class divergence, A a two-sided subset level of a size j in [1, N - 1] other than 1 and N - 1 (module
    notes); None where the size is 1 or N - 1 (the chord argument's) or not within [1, N - 1] on the condition."""
    j, N = ctx.ja, ctx.N
    if sympy.simplify(j - 1) == 0 or sympy.simplify(j - (N - 1)) == 0:
        return None
    if decide(ctx.region, sympy.Ge(j, 1)) is not True or decide(ctx.region, sympy.Le(j, N - 1)) is not True:
        return None
    div = _divergence(ctx)
    lo, hi = ends(N, j)
    text = (f"B is the {div.kind} divergence{'' if div.order is None else f' of order {div.order}'} of a class from "
            f"the table; A bounds every {j} records' mean to [1/T, T] of the table's, so a record's ratio a = x_i/P "
            f"(the others' mean b = (N - a)/(N - 1) within [1/T, T], the subsets holding it at (a + ({j} - 1) b)/{j} "
            f"within [1/T, T], a >= 0) lies in [lo, hi] = [{lo}, {hi}], and a class's mean too; phi(r) = "
            f"{div.phi(_R)} is convex and sum P r = 1, so B <= L phi(hi) + (1 - L) phi(lo), L = (1 - lo)/(hi - lo) "
            "(0 at T = 1); attained for every N and T > 1 by two buckets P = (L, 1 - L), one record at "
            "(hi L, lo (1 - L)) in a class of its own and the N - 1 others at ((N - hi) L, (N - lo)(1 - L))/(N - 1)")
    # the family needs a record outside each j-subset, N >= j + 1: the condition's j <= N - 1 (decided above) says so
    return Bound(upper(div, N, j), True, METHOD.name, text, build=_build(N, j),
                 checks=[f"1 <= {j} <= N - 1 on the condition: True", f"phi(r) = {div.phi(_R)} convex for r > 0"],
                 attained_where=sympy.true if decide(ctx.region, sympy.Ge(N, j + 1)) is True else sympy.Ge(N, j + 1))


def _upper_certificate(cert, ctx):
    """The lemma data: the divergence, its generator, A's size and the ends."""
    from implgraph.definitions import get
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    j = certificate_size(cert, ctx)
    lo, hi = ends(ctx.N, j)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": div.kind,
                                 "order": None if div.order is None else str(div.order), "compares": div.compares,
                                 "phi": str(div.phi(_R)), "size": str(j), "lo": str(lo), "hi": str(hi)}


def _family(cert, ctx):
    """Two blocks of binary rows in T, N (and A's size), where T > 1 (at T = 1 U is 0: every table with equal
    records)."""
    return {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in family_rows(ctx.N, certificate_size(cert, ctx))],
            "domain": ["T > 1"]}


certificate_parts(METHOD, family=_family)(_upper_certificate)
