"""``one-sided-pairs``: a one-sided subset level of size j bounds the total variation, and every hockey-stick at a
number gamma >= 1, between any two records by min(1, j (T - 1)) (docs/arguments/one-sided-pairs.md).

The case: A is a one-sided subset level of size j (every set of j records has its mean at most T times the table's,
bucket by bucket, and nothing below: pointwise maximal leakage ``pml`` has j = 1) with 1 <= j <= N - 1 on the claim's
condition; B a divergence between two records (its declared
:class:`~implgraph.definitions.divergences.Divergence` compares ``pairs``) of kind ``tv``, or ``hockey-stick`` at a
number gamma >= 1 (never a definition's name).

**Bound.** Take records i and k, an event S, and W any j - 1 of the other N - 2 records. The means
m1 = (x_i + x_W)/j and m2 = (x_k + x_W)/j are means of j records, so m1(S) <= T P(S) and m2(S^c) <= T P(S^c);
x_i(S) - x_k(S) = j (m1(S) - m2(S)) = j (m1(S) + m2(S^c) - 1) <= j (T - 1). And x_i(S) - x_k(S) <= 1. A hockey-stick
at gamma >= 1 is at most the total variation (x_i(S) - gamma x_k(S) <= x_i(S) - x_k(S)):

    U = min(1, j (T - 1))

**Attained** (total variation) for every N >= 2 and T >= 1: two buckets, t = U, record i at (1 + t, 1 - t)/2, record
k at (1 - t, 1 + t)/2, the N - 2 others at (1/2, 1/2) (the table's mean is (1/2, 1/2)); a j-subset's mean is
(1 +- s/j, 1 -+ s/j)/2 with s in {-t, 0, t}, ratio at most 1 + t/j <= T to the table. For a hockey-stick at
gamma > 1 the same family gives (1 + t)/2 - gamma (1 - t)/2, which is U only where t = 1, i.e. where j (T - 1) >= 1:
tightness is claimed there only (below it the supremum is smaller on small tables, see the docs page).
"""

from __future__ import annotations

import sympy

from implgraph.definitions.divergence_gamma import gamma_of as declared_gamma
from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import certificate_size
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import decide, declared_subset_size, one_sided
from implgraph.prover.tables import apart_rows, rows_build

METHOD = methods.ONE_SIDED_PAIRS

__all__ = ["upper", "family_rows", "gamma_of", "bound"]


def upper(j):
    """U = min(1, j (T - 1))."""
    return sympy.Min(1, j * (T - 1))


def family_rows(N, j):
    """The attaining family: ``[(count, first bucket's value, class)]`` of binary rows (module notes)."""
    return apart_rows(N, upper(j))


def gamma_of(div):
    """B's ratio gamma: 1 for the total variation, the hockey-stick's number gamma >= 1, else None."""
    return declared_gamma(div, "pairs", 1)


def _applies(ctx):
    return gamma_of(divergence_of(ctx.b, ctx.b_params)) is not None and one_sided(ctx.a, "subset") \
        and declared_subset_size(ctx.a, ctx.N, ctx.a_params) is not None


@argument(METHOD, order=198.6, applies=_applies)
def bound(ctx):
    """B the total variation or a hockey-stick at gamma >= 1 between two records, A a one-sided subset level of a
    size j in [1, N - 1] on the condition (module notes); None elsewhere."""
    j, N = declared_subset_size(ctx.a, ctx.N, ctx.a_params), ctx.N
    if decide(ctx.region, sympy.Ge(j, 1)) is not True or decide(ctx.region, sympy.Le(j, N - 1)) is not True:
        return None
    g = gamma_of(divergence_of(ctx.b, ctx.b_params))
    what = "the total variation" if g == 1 else f"the hockey-stick at gamma = {g} (at most the total variation)"
    text = (f"B is {what}"
            f" between two records x_i, x_k; with W any {j} - 1 of the other N - 2 records, m1 = (x_i + x_W)/{j} and "
            f"m2 = (x_k + x_W)/{j} are means of {j} records, so m1(S) <= T P(S) and m2(S^c) <= T P(S^c) by A, and "
            f"x_i(S) - x_k(S) = {j} (m1(S) + m2(S^c) - 1) <= {j} (T - 1) (and <= 1); attained for every N by two "
            "buckets: x_i = (1 + t, 1 - t)/2, x_k = (1 - t, 1 + t)/2, the N - 2 others at (1/2, 1/2), t = U (every "
            f"{j}-subset's ratio at most 1 + t/{j} <= T)" + ("" if g == 1 else f", where {j} (T - 1) >= 1 (t = 1)"))
    where = sympy.true if g == 1 else sympy.Ge(T, 1 + 1 / j)
    return Bound(upper(j), True, METHOD.name, text, build=rows_build(family_rows(N, j)), attained_where=where,
                 checks=[f"1 <= {j} <= N - 1 on the condition: True"])


def _b_gamma(cert):
    """B's ratio gamma read off the certificate's B side (its registered declaration)."""
    from implgraph.definitions import get
    return gamma_of(divergence_of(get(cert["B"]["definition"]), cert["B"].get("params")))


def _upper_certificate(cert, ctx):
    """The lemma data: B's kind and ratio gamma, and A's size."""
    g = _b_gamma(cert)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": "tv" if g == 1 else "hockey-stick",
                                 "compares": "pairs", "gamma": str(g), "size": str(certificate_size(cert, ctx))}


def _family(cert, ctx):
    """Three blocks of binary rows in T, N (and A's size): records i and k, and the N - 2 others; for a hockey-stick
    at gamma > 1, the domain j (T - 1) >= 1."""
    j = certificate_size(cert, ctx)
    out = {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in family_rows(ctx.N, j)]}
    if _b_gamma(cert) != 1:
        out["domain"] = [f"T >= {1 + 1 / sympy.sympify(j)}"]
    return out


certificate_parts(METHOD, family=_family)(_upper_certificate)
