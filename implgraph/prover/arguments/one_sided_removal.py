"""``one-sided-removal``: each record at most T times the table (a one-sided subset level of size 1, pointwise
maximal leakage) bounds the total variation between the table and the table without one record by
min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N), tight for every N (docs/proofs/pml-tv.md).

The case: A is a one-sided subset level whose declared size is 1 (every record's value at most T times the table's,
bucket by bucket, nothing below); B the total variation on record removal (its declared
:class:`~implgraph.definitions.divergences.Divergence` compares ``removal``, kind ``tv``; never a definition's name).

**Bound.** On an event S, with a = x_i(S) and p = P(S), the table without record i has Q_i(S) = (N p - a)/(N - 1),
so P(S) - Q_i(S) = (a - p)/(N - 1) (the other direction is this one on S^c). A gives a <= T p and a <= 1, and on S^c
every other record's 1 - x_k(S) <= T (1 - p); summed over the N - 1 others, N p - a >= (N - 1)(1 - T (1 - p)), i.e.
a - p <= (N - 1)(T - 1)(1 - p). Weights (N - 1)/N and 1/N on the first and third give a - p <= (N - 1)(T - 1)/N;
weights 1/T and (T - 1)/T on the first and a - p <= 1 - p give a - p <= (T - 1)/T:

    U = min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N)     (the first where T <= N/(N - 1), the last where T >= N)

(1/N, the weakest level, holds on every table: a - p = ((N - 1) a - the others' sum)/N <= (N - 1)/N; A at T >= N is
met by every table.)

**Attained** for every N >= 2 by two buckets: where T <= N/(N - 1), one record at (T (N - 1)/N, 1 - T (N - 1)/N) and
N - 1 at (1 - T/N, T/N) (table ((N - 1)/N, 1/N): ratios T (N - 1)/N/((N - 1)/N) = T, T/N/(1/N) = T, the rest at most
T as T >= 1); beyond, one record at (1, 0) and N - 1 at (r, 1 - r), r = (N - T)/(T (N - 1)) (table (1/T, 1 - 1/T):
ratio T; the others' (1 - r)/(1 - 1/T) <= T exactly when ((N - 1) T - N)(T - 1) >= 0), r = 0 where T >= N (one
record (1, 0) beside N - 1 at (0, 1), pml level N). Removing the first record moves
the table by (x_1 - x_2)/N in total variation: U in both cases.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_subset_size, one_sided
from implgraph.prover.tables import rows_build

METHOD = methods.ONE_SIDED_REMOVAL

__all__ = ["upper", "family_rows", "bound"]


def upper(N):
    """U = min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N)."""
    return sympy.Min((T - 1) / N, (T - 1) / (T * (N - 1)), 1 / N)


def family_rows(N):
    """The attaining family: ``[(count, first bucket's value, class)]`` of binary rows, one piece on each side of
    T = N/(N - 1) (module notes)."""
    low = T <= N / (N - 1)
    first = sympy.Piecewise((T * (N - 1) / N, low), (sympy.Integer(1), True))
    rest = sympy.Piecewise((1 - T / N, low), (sympy.Max(0, (N - T) / (T * (N - 1))), True))
    return [(sympy.Integer(1), first, "E1"), (N - 1, rest, "E2")]


def _applies(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    if div is None or div.compares != "removal" or div.kind != "tv" or not one_sided(ctx.a, "subset"):
        return False
    j = declared_subset_size(ctx.a, ctx.N, ctx.a_params)
    return j is not None and sympy.simplify(j - 1) == 0


@argument(METHOD, order=198.7, applies=_applies)
def bound(ctx):
    """B the total variation on record removal, A each record at most T times the table (module notes)."""
    text = ("B is the total variation between the table P and the table without one record Q_i: on an event S, "
            "P(S) - Q_i(S) = (a - p)/(N - 1) with a = x_i(S), p = P(S); A gives a <= T p, a <= 1 and, summed over the "
            "N - 1 others (each x_k(S) >= 1 - T (1 - p)), a - p <= (N - 1)(T - 1)(1 - p); their combinations give "
            "a - p <= (N - 1)(T - 1)/N and a - p <= (T - 1)/T; attained for every N by two buckets: one record at "
            "(T (N - 1)/N, 1 - T (N - 1)/N) and N - 1 at (1 - T/N, T/N) where T <= N/(N - 1), else one at (1, 0) and "
            "N - 1 at (r, 1 - r), r = max(0, (N - T)/(T (N - 1))); and B <= 1/N on every table")
    return Bound(upper(ctx.N), True, METHOD.name, text, build=rows_build(family_rows(ctx.N)),
                 checks=["A's declared subset size is 1: True"])


def _upper_certificate(cert, ctx):
    """The lemma data: B's kind and what it compares."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": "tv", "compares": "removal"}


def _family(cert, ctx):
    """Two blocks of binary rows in T and N: the record removed (E1) and the N - 1 others (E2)."""
    return {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in family_rows(ctx.N)]}


certificate_parts(METHOD, family=_family)(_upper_certificate)
