"""``subset-pairs``: a two-sided subset level of size j bounds the total variation between any two records by
j (1 - 1/T), tight for every N (docs/arguments/subset-pairs.md).

The case: A is a two-sided subset level of size j (every set of j records has its mean within [1/T, T] of the table's,
bucket by bucket: ``kt-closeness(k)`` has j = k, ``kdp(k)`` and ``dp`` j = N - k, N - 1) with 1 <= j <= N - 1 on the
claim's condition; B the total variation between two records (its declared
:class:`~implgraph.definitions.divergences.Divergence` compares ``pairs``, kind ``tv``; never a definition's name).

**Bound.** Take records i and k and W any j - 1 of the other N - 2 records (j - 1 <= N - 2). The means
m1 = (x_i + x_W)/j and m2 = (x_k + x_W)/j are means of j records, so both lie within [P/T, T P] bucket by bucket, and
x_i - x_k = j (m1 - m2). Where m1 > m2, m1 - m2 <= m1 - P/T, and m1 - P/T >= 0 everywhere, so
TV(x_i, x_k) = j sum_l (m1 - m2)^+ <= j sum_l (m1 - P/T) = j (1 - 1/T); and TV <= 1:

    U = min(1, j (1 - 1/T))

**Attained** for every N >= 2 and T >= 1: two buckets, t = U, record i at (1 + t, 1 - t)/2, record k at
(1 - t, 1 + t)/2, the N - 2 others at (1/2, 1/2) (the table's mean is (1/2, 1/2)). A j-subset holding i and not k
has ratios 1 +- t/j to the table, within [1/T, 2 - 1/T], inside [1/T, T]; one holding k and not i likewise; the others
have ratio 1. TV(x_i, x_k) = t.

Tried before ``corners``: at size 1 (each record against the table, local information privacy) both give 1 - 1/T, and
this family attains it for every N (the corners' three-bucket family only where N >= T + 1 and N >= 2 + 2/T).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import certificate_size
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, decide
from implgraph.prover.tables import apart_rows, rows_build

METHOD = methods.SUBSET_PAIRS

__all__ = ["upper", "family_rows", "bound"]


def upper(j):
    """U = min(1, j (1 - 1/T))."""
    return sympy.Min(1, j * (1 - 1 / T))


def family_rows(N, j):
    """The attaining family: ``[(count, first bucket's value, class)]`` of binary rows (module notes)."""
    return apart_rows(N, upper(j))


def _applies(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    return (div is not None and div.compares == "pairs" and div.kind == "tv" and compares(ctx.a, "subset")
            and ctx.ja is not None)


@argument(METHOD, order=198.5, applies=_applies)
def bound(ctx):
    """B the total variation between two records, A a two-sided subset level of a size j in [1, N - 1] on the
    condition (module notes); None elsewhere."""
    j, N = ctx.ja, ctx.N
    if decide(ctx.region, sympy.Ge(j, 1)) is not True or decide(ctx.region, sympy.Le(j, N - 1)) is not True:
        return None
    text = (f"B is the total variation between two records x_i, x_k; with W any {j} - 1 of the other N - 2 records, "
            f"m1 = (x_i + x_W)/{j} and m2 = (x_k + x_W)/{j} are means of {j} records, within [P/T, T P] by A, and "
            f"x_i - x_k = {j} (m1 - m2); where m1 > m2, m1 - m2 <= m1 - P/T >= 0, so TV(x_i, x_k) <= {j} (1 - 1/T) "
            "(and <= 1); attained for every N by two buckets: x_i = (1 + t, 1 - t)/2, x_k = (1 - t, 1 + t)/2, the "
            "N - 2 others at (1/2, 1/2), t = U (every j-subset's ratios 1 +- t/j or 1, within [1/T, T])")
    return Bound(upper(j), True, METHOD.name, text, build=rows_build(family_rows(N, j)),
                 checks=[f"1 <= {j} <= N - 1 on the condition: True"])


def _upper_certificate(cert, ctx):
    """The lemma data: the divergence and A's size."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": "tv", "compares": "pairs",
                                 "size": str(certificate_size(cert, ctx))}


def _family(cert, ctx):
    """Three blocks of binary rows in T, N (and A's size): records i and k, and the N - 2 others."""
    rows = family_rows(ctx.N, certificate_size(cert, ctx))
    return {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in rows]}


certificate_parts(METHOD, family=_family)(_upper_certificate)
