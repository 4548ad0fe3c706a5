"""A pairwise ratio level bounds the zero-concentrated level between records, tightly: U = ln T (T - 1)/(T + 1).

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
from implgraph.prover.shapes import compares

METHOD = methods.ZCDP_CHORD

__all__ = ["bound", "applies", "upper", "FAMILY_ROWS", "certificate_parts", "certificate_family"]

#: the attaining family: ``(count, first bucket's value)`` of binary rows, in T and N
FAMILY_ROWS = (("1", "T/(T + 1)"), ("N - 1", "1/(T + 1)"))


def upper(T):
    """U = ln T (T - 1)/(T + 1) (= eps tanh(eps/2) at T = e^eps)."""
    return sympy.log(T) * (T - 1) / (T + 1)


def applies(a, b, b_params=None) -> bool:
    """B declares the zero-concentrated level between pairs of records and A a two-sided pairwise ratio level."""
    div = divergence_of(b, b_params)
    return div is not None and div.kind == "zcdp" and div.compares == "pairs" and compares(a, "pairwise")


def bound(a, b, a_params=None, b_params=None, N=None):
    """The tight :class:`Bound` U = ln T (T - 1)/(T + 1), or None (not its case)."""
    from implgraph.prover.answer import T, Bound
    from implgraph.prover.tables import two_blocks
    if not applies(a, b, b_params):
        return None
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
    """The lemma data: the interval of the compared ratios and the library's theorems."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "lo": "1/T", "hi": "T",
                                 "upper": "ZcdpChord.zcdp_chord_pairs", "lower": "ZcdpChord.zcdp_rr_lower"}
    cert.setdefault("assumptions", []).append("N >= 2: two records to compare (the family's N - 1 >= 1 others)")


def certificate_family(cert, ctx):
    """Randomized response at T: one record at (T, 1)/(T + 1), N - 1 at (1, T)/(T + 1)."""
    return {"rows": [{"count": c, "value": v, "class": k} for (c, v), k in zip(FAMILY_ROWS, ("E1", "E2"))],
            "domain": []}


registry.certificate_parts(METHOD, family=certificate_family)(certificate_parts)


@registry.argument(METHOD, order=200.1, applies=lambda ctx: applies(ctx.a, ctx.b, ctx.b_params))
def handler(ctx):
    """B the zero-concentrated level between records, A a two-sided pairwise ratio level (module notes); answered only
    where the independent checker accepts its certificate."""
    from implgraph.prover.certificate import accepted
    found = bound(ctx.a, ctx.b, ctx.a_params, ctx.b_params, ctx.N)
    return found if found is not None and accepted(ctx, found) else None
