"""A pairwise ratio level bounds the zero-concentrated level between records, tightly: U = ln T (T - 1)/(T + 1); on record
removal a ratio level bounds it by U at R = max(hi, 1/lo), an upper bound.

A is a two-sided ratio of averages over pairs of records (its declared :class:`RatioLevel`, family ``pairwise``,
sides ``two-sided``; never its name) at raw level T >= 1: every ratio x_i(l)/x_j(l) lies in [1/T, T] (ldp: T =
e^eps). B is the zero-concentrated level between every two records (its declared divergence of kind ``zcdp``
comparing ``pairs``): rho*(x || y) = sup_{alpha > 1} D_alpha(x || y)/alpha (Bun and Steinke, TCC 2016), the largest
over ordered pairs of distinct records.

**Upper bound.** Fix two records x, y and an order alpha > 1; the ratios r_l = x_l/y_l lie in [1/T, T] (a bucket
with y_l = 0 has x_l = 0 and counts for nothing) and sum_l y_l r_l = 1. The function r^alpha is convex, so it lies
below its chord over [1/T, T]; summing with the weights y_l (the chord argument of
:mod:`implgraph.prover.arguments.chord`, L = (1 - 1/T)/(T - 1/T) = 1/(T + 1) the y-mass at T):

    exp((alpha - 1) D_alpha(x || y)) = sum_l y_l r_l^alpha <= (T^alpha + T^(1 - alpha))/(T + 1),
    D_alpha(x || y) <= log((T^alpha + T^(1 - alpha))/(T + 1))/(alpha - 1)       (log increasing, alpha - 1 > 0),

the Renyi divergence of randomized response at T. With eps = ln T, (T^alpha + T^(1 - alpha))/(T + 1) =
cosh((alpha - 1/2) eps)/cosh(eps/2), and the library's tanh lemma (``Zcdp.tanh_bound``, behind
``Zcdp.pure_zcdp_pair``) gives log of it <= (alpha - 1) alpha eps tanh(eps/2), i.e.
D_alpha(x || y) <= alpha U with

    U = eps tanh(eps/2) = ln T (T - 1)/(T + 1).

So rho*(x || y) <= U for every ordered pair: B's raw level is at most U on every table of every N (proved once in Coq
as ``ZcdpChord.zcdp_chord_pairs``). Bun and Steinke 2016, Proposition 3.3 state eps^2/2 only; eps tanh(eps/2) <=
eps^2/2 (tanh u <= u) is the tight value on finite tables.

**Attained.** Randomized response: one record at x = (T, 1)/(T + 1), the N - 1 others at y = (1, T)/(T + 1), for every
N >= 2. Its ratios are T and 1/T (A at raw level T exactly), and KL(x || y) = T/(T + 1) ln T + 1/(T + 1) ln(1/T) =
ln T (T - 1)/(T + 1) = U (``ZcdpChord.rr_kl``; KL(y || x) the same by symmetry). As D_alpha -> KL for alpha -> 1,
rho* >= KL = U (``ZcdpChord.zcdp_rr_lower``, through ``ZcdpOrder.zcdp_kl``); with the upper bound rho* = U: the
tight f for every N >= 2 (the assumption the certificate states: two records to compare).

**On record removal** (B's divergence compares ``removal``: the table's mean P against the mean Q_i of the table
without record i, both ways), an upper bound. The pair (P, Q_i) is a pair of distributions like any other, so the
bound above holds for it wherever its ratios Q_i/P (and so P/Q_i) lie in [1/R, R]: rho* <= U(R) both ways. A confines
Q_i/P to an interval [lo, hi] (lo <= 1 <= hi; the chord argument's intervals, read from A's declared family, sides and
subset size), and R = max(hi, 1/lo):

- A pairwise: Q_i/P = N/(N - 1 + x_i/Q_i), x_i/Q_i in [1/T, T] (a mediant of records within ratio T of x_i), so
  [lo, hi] = [N/(N - 1 + T), N T/((N - 1) T + 1)] and R = 1/lo = (N - 1 + T)/N (R - hi = (N - 1)(T - 1)^2/(N ((N - 1) T
  + 1)) >= 0);
- A the subsets of N - 1 records against the table (record removal itself, as ``dp``): Q_i/P in [1/T, T], R = T;
- A each record against the table (a two-sided subset level of size 1, as ``lip``): Q_i/P = (N - x_i/P)/(N - 1) with
  x_i/P >= 1/T, and Q_i/P >= 1/T (a mean of records each >= 1/T of the table), so [1/T, (N - 1/T)/(N - 1)] and R = T
  (T - hi = ((N - 1) T - 1)(T - 1)/((N - 1) T) >= 0).

The bound U(R) is an upper bound only (tightness not derived): the worst removal pair is the two-point table of the
chord on record removal, whose zero-concentrated level is a supremum over the orders, not randomized response at R in
general (docs/sections/dp-conversions.md, "Central form").

The certificate (method ``zcdp-chord``) is re-checked by :mod:`implgraph.certify.lemmas.zcdp_chord` (the sides'
declarations, U by exact algebra, the chord's Renyi sum, the family's ratios and KL symbolically in T, the registry's
exact levels at sample points) and its Coq theorem (:mod:`implgraph.kernel_coq.gen_zcdp_chord`) instantiates
``ZcdpChord.zcdp_chord_pairs``.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover import registry
from implgraph.prover.shapes import compares, declared_subset_size

METHOD = methods.ZCDP_CHORD

__all__ = ["bound", "applies", "upper", "removal_interval", "FAMILY_ROWS", "certificate_parts", "certificate_family"]

#: the attaining family: ``(count, first bucket's value)`` of binary rows, in T and N
FAMILY_ROWS = (("1", "T/(T + 1)"), ("N - 1", "1/(T + 1)"))


def upper(T):
    """U = ln T (T - 1)/(T + 1) (= eps tanh(eps/2) at T = e^eps)."""
    return sympy.log(T) * (T - 1) / (T + 1)


def removal_interval(a, N, ja):
    """``(lo, hi, R)``: the interval A at raw level T confines Q_i/P to (B on record removal) and R = max(hi, 1/lo),
    from A's declared family, sides and subset size ``ja`` (module notes); None where A confines none of these."""
    from implgraph.prover.answer import T
    if compares(a, "pairwise"):
        return N / (N - 1 + T), N * T / ((N - 1) * T + 1), (N - 1 + T) / N
    if not compares(a, "subset") or ja is None:
        return None
    if sympy.simplify(ja - (N - 1)) == 0:
        return 1 / T, T, T
    if sympy.simplify(ja - 1) == 0:
        return 1 / T, (N - 1 / T) / (N - 1), T
    return None


def applies(a, b, b_params=None, ja=None, N=None) -> bool:
    """B declares the zero-concentrated level between pairs of records and A a two-sided pairwise ratio level, or B
    on record removal and A a ratio level confining Q_i/P (:func:`removal_interval`)."""
    div = divergence_of(b, b_params)
    if div is None or div.kind != "zcdp":
        return False
    if div.compares == "removal":
        return N is not None and removal_interval(a, N, ja) is not None
    return div.compares == "pairs" and compares(a, "pairwise")


def _removal_bound(a, N, ja):
    """The upper :class:`Bound` U(R) on record removal (module notes)."""
    from implgraph.prover.answer import Bound
    lo, hi, R = removal_interval(a, N, ja)
    argument = (f"A ({a.name}) confines every ratio Q_i/P of the table's mean P and the mean Q_i without record i to "
                f"[{lo}, {hi}], within [1/R, R] for R = {R} (both ways: P/Q_i in [1/hi, 1/lo]); for every order "
                "alpha > 1 the Renyi sum of the pair is at most the chord of r^alpha over [1/R, R] at mean 1, "
                "(R^alpha + R^(1 - alpha))/(R + 1), and the tanh lemma gives D_alpha <= alpha ln R (R - 1)/(R + 1) "
                "both ways (ZcdpChord.zcdp_chord_pairs at R), so B's zero-concentrated level on record removal is at "
                f"most U = ln R (R - 1)/(R + 1) (an upper bound; tightness not derived)")
    return Bound(sympy.simplify(upper(R)), False, METHOD.name, argument,
                 checks=[f"Q_i/P in [{lo}, {hi}] within [1/R, R], R = {R}",
                         "the chord of r^alpha over [1/R, R] at mean 1: (R^alpha + R^(1 - alpha))/(R + 1)"])


def bound(a, b, a_params=None, b_params=None, N=None, ja=None):
    """The tight :class:`Bound` U = ln T (T - 1)/(T + 1) between records, the upper bound U(R) on record removal, or
    None (not its case)."""
    from implgraph.prover.answer import T, Bound
    from implgraph.prover.tables import two_blocks
    if not applies(a, b, b_params, ja, N):
        return None
    if divergence_of(b, b_params).compares == "removal":
        return _removal_bound(a, N, ja)
    argument = (f"A ({a.name}) bounds every ratio x_i(l)/x_j(l) of two records to [1/T, T]; for every order alpha > 1 "
                "the Renyi sum sum_l y_l r_l^alpha is at most the chord of r^alpha over [1/T, T] at mean 1, "
                "(T^alpha + T^(1 - alpha))/(T + 1) = cosh((alpha - 1/2) eps)/cosh(eps/2) (eps = ln T), and the tanh "
                "lemma gives D_alpha <= alpha eps tanh(eps/2), so B's zero-concentrated level sup_alpha D_alpha/alpha "
                "is at most U = ln T (T - 1)/(T + 1) between every two records (ZcdpChord.zcdp_chord_pairs); attained "
                "for every N >= 2 by randomized response, one record at (T, 1)/(T + 1) and N - 1 at (1, T)/(T + 1): "
                "ratios T and 1/T, KL = U both ways and rho* >= KL (D_alpha -> KL as alpha -> 1; "
                "ZcdpChord.zcdp_rr_lower)")
    build = two_blocks(N, 1, lambda t, n, s: (t / (t + 1), 1 / (t + 1)))
    return Bound(upper(T), True, METHOD.name, argument, build=build,
                 checks=["the chord of r^alpha over [1/T, T] at mean 1: (T^alpha + T^(1 - alpha))/(T + 1)",
                         "randomized response at T: KL = ln T (T - 1)/(T + 1) = U"],
                 attained_where=sympy.true)


def certificate_parts(cert, ctx):
    """The lemma data: the interval of the compared ratios (on record removal, Q_i/P's and R) and the library's
    theorems."""
    from implgraph import definitions
    b_side = cert.get("B") or {}
    div = divergence_of(definitions.get(b_side.get("definition")), b_side.get("params") or {})
    if div is not None and div.compares == "removal":
        size = (cert.get("A") or {}).get("size")
        ja = None if size is None else sympy.sympify(size, locals={"N": ctx.N})
        lo, hi, R = removal_interval(ctx.a, ctx.N, ja)
        cert["upper_certificate"] = {"lemma": METHOD.lemma, "compares": "removal", "lo": str(lo), "hi": str(hi),
                                     "R": str(R), "upper": "ZcdpChord.zcdp_chord_pairs"}
        cert.setdefault("assumptions", []).append("N >= 2: a record to remove")
        return
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "lo": "1/T", "hi": "T",
                                 "upper": "ZcdpChord.zcdp_chord_pairs", "lower": "ZcdpChord.zcdp_rr_lower"}
    cert.setdefault("assumptions", []).append("N >= 2: two records to compare (the family's N - 1 >= 1 others)")


def certificate_family(cert, ctx):
    """Randomized response at T: one record at (T, 1)/(T + 1), N - 1 at (1, T)/(T + 1)."""
    return {"rows": [{"count": c, "value": v, "class": k} for (c, v), k in zip(FAMILY_ROWS, ("E1", "E2"))],
            "domain": []}


registry.certificate_parts(METHOD, family=certificate_family)(certificate_parts)


def _ja(ctx):
    return declared_subset_size(ctx.a, ctx.N, ctx.a_params)


@registry.argument(METHOD, order=200.1, applies=lambda ctx: applies(ctx.a, ctx.b, ctx.b_params, _ja(ctx), ctx.N))
def handler(ctx):
    """B the zero-concentrated level between records, A a two-sided pairwise ratio level; or B on record removal, A a
    ratio level confining Q_i/P (module notes); answered only where the independent checker accepts its
    certificate."""
    from implgraph.prover.certificate import accepted
    found = bound(ctx.a, ctx.b, ctx.a_params, ctx.b_params, ctx.N, _ja(ctx))
    return found if found is not None and accepted(ctx, found) else None
