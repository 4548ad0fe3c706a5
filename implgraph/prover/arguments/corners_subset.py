"""``subset-corners``: a two-sided subset level of any size j bounds the hockey stick between two records by the corner
bound over one record's ratio range (docs/arguments/subset-corners.md).

The case: A is a two-sided subset level of size j (every set of j records has its mean within [1/T, T] of the
table's, bucket by bucket: ``dp`` has j = N - 1, ``kdp(k)`` j = N - k, ``kt-closeness(k)`` j = k) with
1 <= j <= N - 1 on the claim's condition, other than the size 1 itself (the ``corners`` argument's); B the hockey
stick of a number gamma >= 1 between every two records (its declared
:class:`~implgraph.definitions.divergences.Divergence` compares ``pairs``, kind ``hockey-stick``; never a definition's
name).

**The box.** Every record's ratio to the table's mean m lies in [lo, hi] (``subset-chord``'s range of one record,
:func:`implgraph.prover.arguments.subset_chord.ends`):

    hi = min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))
    lo = max(0, N - (N - 1) T, (j (N - 1)/T - (j - 1) N)/(N - j))

and where T > 1, lo < 1 < hi.

**The bound.** Bucket by bucket, with p = x_i(l), q = x_k(l) in [lo m_l, hi m_l] and G = max(hi - gamma lo, 0):

    (hi - lo) max(p - gamma q, 0) <= G (p - lo m_l)    and    <= G (hi m_l - q)

(where p > gamma q: p - gamma q <= p - gamma lo m_l, and (hi - lo)(p - gamma lo m_l) = (hi - gamma lo)(p - lo m_l) -
lo (gamma - 1)(hi m_l - p); likewise (hi - lo)(hi m_l - gamma q) = (hi - gamma lo)(hi m_l - q) - hi (gamma - 1)
(q - lo m_l)). Summed over the buckets (sum p = sum q = sum m = 1), every event E has
x_i(E) - gamma x_k(E) <= sum_l max(p - gamma q, 0), so

    U = max(hi - gamma lo, 0) min(1 - lo, hi - 1)/(hi - lo)

(0 at T = 1, where every record is the table's mean). This is the corner bound (g(hi, lo) + g(lo, hi)) min(L, 1 - L),
L = (1 - lo)/(hi - lo), of the perspective g(a, b) = b max(a/b - gamma, 0) (g(lo, hi) = 0), proved directly so that
lo = 0 is allowed. Valid for every N; an upper bound only (tightness is not derived here).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.arguments.subset_chord import ends
from implgraph.prover.parts import certificate_size
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, decide

METHOD = methods.SUBSET_CORNERS

__all__ = ["box_value", "upper", "bound"]


def box_value(gamma, lo, hi):
    """``max(hi - gamma lo, 0) min(1 - lo, hi - 1)/(hi - lo)``: the corner bound of the hockey stick on [lo, hi]."""
    return sympy.Max(0, hi - gamma * lo) * sympy.Min(1 - lo, hi - 1) / (hi - lo)


def upper(gamma, N, j):
    """U: ``Piecewise((0, T <= 1), (box_value on subset-chord's ends, True))``."""
    lo, hi = ends(N, j)
    return sympy.Piecewise((0, sympy.Le(T, 1)), (box_value(gamma, lo, hi), True))


def _divergence(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    if div is None or div.compares != "pairs" or div.kind != "hockey-stick":
        return None
    order = sympy.sympify(div.order)
    return div if order.is_Rational and bool(order >= 1) else None


def _applies(ctx):
    return _divergence(ctx) is not None and compares(ctx.a, "subset") and ctx.ja is not None


@argument(METHOD, order=199.5, applies=_applies)
def bound(ctx):
    """B a hockey stick between two records, A a two-sided subset level of a size j in [1, N - 1] on the condition
    (module notes); None where the size is 1 (the ``corners`` argument's) or j is not within [1, N - 1] on it."""
    j, N = ctx.ja, ctx.N
    if sympy.simplify(j - 1) == 0:
        return None
    if decide(ctx.region, sympy.Ge(j, 1)) is not True or decide(ctx.region, sympy.Le(j, N - 1)) is not True:
        return None
    gamma = sympy.sympify(_divergence(ctx).order)
    lo, hi = ends(N, j)
    text = (f"B is the hockey stick of order {gamma} between two records x_i, x_k; A bounds every {j} records' mean "
            f"to [1/T, T] of the table's m, so each record's ratio to m lies in [lo, hi] = [{lo}, {hi}] (the others' "
            f"mean and the subsets holding it within [1/T, T]); bucket by bucket, with G = max(hi - {gamma} lo, 0), "
            f"(hi - lo) max(x_i - {gamma} x_k, 0) is at most G (x_i - lo m) and at most G (hi m - x_k), so summed "
            f"over the buckets every event has x_i(E) - {gamma} x_k(E) <= G min(1 - lo, hi - 1)/(hi - lo) "
            "(0 at T = 1); an upper bound, tightness not derived")
    return Bound(upper(gamma, N, j), False, METHOD.name, text,
                 checks=[f"1 <= {j} <= N - 1 on the condition: True", f"gamma = {gamma} >= 1"])


def _upper_certificate(cert, ctx):
    """The lemma data: the divergence, A's size and the ends."""
    from implgraph.definitions import get
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    j = certificate_size(cert, ctx)
    lo, hi = ends(ctx.N, j)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": div.kind, "order": str(div.order),
                                 "compares": div.compares, "size": str(j), "lo": str(lo), "hi": str(hi)}


certificate_parts(METHOD)(_upper_certificate)
