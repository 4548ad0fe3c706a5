"""``one-sided-removal``: each record at most T times the table (a one-sided subset level of size 1, pointwise
maximal leakage) bounds the total variation between the table and the table without one record by
min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N), tight for every N, and the hockey-stick there at a number gamma >= 2 by
min(1/N, max(0, (gamma T - gamma N + N - 1)/(T (N - 1)))), tight where N >= 3 (docs/proofs/pml-tv.md).

The case: A is a one-sided subset level whose declared size is 1 (every record's value at most T times the table's,
bucket by bucket, nothing below); B the total variation on record removal (its declared
:class:`~implgraph.definitions.divergences.Divergence` compares ``removal``, kind ``tv``, or ``hockey-stick`` at a
number gamma >= 2; never a definition's name).

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

**The hockey-stick** at gamma >= 2 (so gamma (N - 1) >= N): P(S) - gamma Q_i(S) = (gamma a - c p)/(N - 1) with
c = gamma N - N + 1 > 0, and a <= T p gives gamma a - c p <= a (gamma - c/T) <= max(0, gamma - c/T) (0 <= a <= 1);
Q_i(S) - gamma P(S) = ((N - gamma (N - 1)) p - a)/(N - 1) <= 0; and the hockey-stick is at most the total variation,
at most 1/N. So U = min(1/N, max(0, (gamma T - gamma N + N - 1)/(T (N - 1)))). **Attained** where N >= 3 by the
second family above (one record (1, 0), N - 1 at (r, 1 - r)) where U > 0 (there T > N - (N - 1)/gamma >= (N + 1)/2
>= N/(N - 1) for N >= 3, so the family is a pml table at T), its hockey-stick 1/T - gamma r = U; where U = 0 by N
records at (1/2, 1/2). At N = 2 the supremum is smaller where 0 < U < 1/2 (gamma = 2, T = 5/3: 1/6 against 1/5):
tightness is claimed where N >= 3 only.
"""

from __future__ import annotations

import sympy

from implgraph.definitions.divergence_gamma import gamma_of as declared_gamma
from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_subset_size, one_sided
from implgraph.prover.tables import rows_build

METHOD = methods.ONE_SIDED_REMOVAL

__all__ = ["upper", "family_rows", "gamma_of", "bound"]


def upper(N, g=1):
    """U: min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N) for the total variation (g = 1), min(1/N, max(0,
    (g T - g N + N - 1)/(T (N - 1)))) for the hockey-stick at g >= 2."""
    if g == 1:
        return sympy.Min((T - 1) / N, (T - 1) / (T * (N - 1)), 1 / N)
    return sympy.Min(1 / N, sympy.Max(0, (g * T - g * N + N - 1) / (T * (N - 1))))


def family_rows(N, g=1):
    """The attaining family: ``[(count, first bucket's value, class)]`` of binary rows, one piece on each side of
    T = N/(N - 1) (the total variation) or of U = 0 (the hockey-stick) (module notes)."""
    far = (sympy.Integer(1), sympy.Max(0, (N - T) / (T * (N - 1))))
    near = (T * (N - 1) / N, 1 - T / N) if g == 1 else (sympy.Rational(1, 2), sympy.Rational(1, 2))
    low = T <= N / (N - 1) if g == 1 else g * T <= g * N - N + 1
    first, rest = (sympy.Piecewise((x, low), (y, True)) for x, y in zip(near, far))
    return [(sympy.Integer(1), first, "E1"), (N - 1, rest, "E2")]


def gamma_of(div):
    """B's ratio on record removal: 1 for the total variation, a hockey-stick's number gamma >= 2; else None."""
    return declared_gamma(div, "removal", 2)


def _applies(ctx):
    if gamma_of(divergence_of(ctx.b, ctx.b_params)) is None or not one_sided(ctx.a, "subset"):
        return False
    j = declared_subset_size(ctx.a, ctx.N, ctx.a_params)
    return j is not None and sympy.simplify(j - 1) == 0


@argument(METHOD, order=198.7, applies=_applies)
def bound(ctx):
    """B the total variation, or a hockey-stick at gamma >= 2, on record removal, A each record at most T times the
    table (module notes)."""
    g = gamma_of(divergence_of(ctx.b, ctx.b_params))
    text = ("B is the total variation between the table P and the table without one record Q_i: on an event S, "
            "P(S) - Q_i(S) = (a - p)/(N - 1) with a = x_i(S), p = P(S); A gives a <= T p, a <= 1 and, summed over the "
            "N - 1 others (each x_k(S) >= 1 - T (1 - p)), a - p <= (N - 1)(T - 1)(1 - p); their combinations give "
            "a - p <= (N - 1)(T - 1)/N and a - p <= (T - 1)/T; attained for every N by two buckets: one record at "
            "(T (N - 1)/N, 1 - T (N - 1)/N) and N - 1 at (1 - T/N, T/N) where T <= N/(N - 1), else one at (1, 0) and "
            "N - 1 at (r, 1 - r), r = max(0, (N - T)/(T (N - 1))); and B <= 1/N on every table") if g == 1 else (
            f"B is the hockey-stick at gamma = {g} between the table P and the table without one record Q_i: on an "
            f"event S, P(S) - {g} Q_i(S) = ({g} a - c p)/(N - 1), c = {g} N - N + 1 (a = x_i(S), p = P(S)), at most "
            f"max(0, {g} - c/T)/(N - 1) as a <= T p and 0 <= a <= 1; Q_i(S) - {g} P(S) <= 0 as {g} (N - 1) >= N; and "
            "B <= the total variation <= 1/N; attained where N >= 3 by one record at (1, 0) and N - 1 at (r, 1 - r), "
            "r = max(0, (N - T)/(T (N - 1))) where U > 0, by N records at (1/2, 1/2) where U = 0")
    where = sympy.true if g == 1 else sympy.Ge(ctx.N, 3)
    return Bound(upper(ctx.N, g), True, METHOD.name, text, build=rows_build(family_rows(ctx.N, g)),
                 attained_where=where, checks=["A's declared subset size is 1: True"])


def _b_gamma(cert):
    """B's ratio read off the certificate's B side (its registered declaration)."""
    from implgraph.definitions import get
    return gamma_of(divergence_of(get(cert["B"]["definition"]), cert["B"].get("params")))


def _upper_certificate(cert, ctx):
    """The lemma data: B's kind, ratio gamma and what it compares."""
    g = _b_gamma(cert)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": "tv" if g == 1 else "hockey-stick",
                                 "compares": "removal", "gamma": str(g)}


def _family(cert, ctx):
    """Two blocks of binary rows in T and N: the record removed (E1) and the N - 1 others (E2); for a hockey-stick,
    the domain N >= 3."""
    g = _b_gamma(cert)
    out = {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in family_rows(ctx.N, g)]}
    if g != 1:
        out["domain"] = ["N >= 3"]
    return out


certificate_parts(METHOD, family=_family)(_upper_certificate)
