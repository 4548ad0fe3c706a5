"""Ordering facts between declared divergences of the same distributions: Renyi monotone in its order, Pinsker.

A and B declare divergences (:class:`implgraph.definitions.divergences.Divergence`) between the same distributions
(``compares`` equal), so B's level is at most a function of A's on every compared pair, hence on the table:

- **monotone order** (van Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 3; KL the order 1,
  Theorem 5; the largest log ratio the order oo, Theorem 6): D_alpha <= D_beta for 1 <= alpha <= beta <= oo, so
  B of order alpha <= A of order beta: U = T (A's level; an upper bound, tightness not derived);
- **joint convexity**: where A compares pairs of records and B a class, or a removal, with the table, B's two
  distributions are averages of records, (avg_i x_i, avg_j x_j) the uniform average of the pairs (x_i, x_j); every
  divergence here is jointly convex (quasi-convex at order oo; van Erven and Harremoes 2014, Theorem 11), so B's is at
  most the largest over the pairs (0 for i = j), then either fact above;
- **zero-concentrated order** (``zcdp-order``; Bun and Steinke, Concentrated differential privacy, TCC 2016,
  Definition 1.1 with xi = 0; coq ZcdpOrder.v): A's level rho is the least with D_alpha <= rho alpha
  at every order alpha > 1, so B Renyi of a finite order beta: U = beta T; B KL: KL <= D_beta <= beta T for every
  beta > 1 (Jensen), so KL <= T, the limit beta -> 1 (upper bounds; KL's between records is tight: randomized
  response at the root R of log(R) (R - 1)/(R + 1) = T has KL = T and zero-concentrated level at most T, coq
  ZcdpChord.zcdp_chord_pairs and zcdp_rr_lower; the family of :func:`certificate_family`, re-checked by
  :mod:`implgraph.certify.zcdp_rr_family`);
- **Pinsker's inequality** (Tsybakov, Introduction to nonparametric estimation, 2009, Lemma 2.5): TV <= sqrt(KL/2), and
  KL <= D_beta for beta >= 1, KL <= rho: B total variation, A KL, Renyi or zero-concentrated: U = sqrt(T/2) (an upper
  bound);
- **the hockey-stick below total variation**: E_gamma(x || y) = sum_l max(x_l - gamma y_l, 0) <= sum_l max(x_l - y_l, 0)
  = TV(x, y) for gamma >= 1 (bucket by bucket, x_l - gamma y_l <= x_l - y_l as y_l >= 0; the second equality as
  sum_l x_l = sum_l y_l): B the hockey-stick at gamma >= 1 (``delta-ldp(eps)``, gamma = e^eps), A total variation:
  U = T, tight between records for every N: one record at (t, 1 - t) and N - 1 at (0, 1) have E_gamma = t one way
  and max(1 - gamma (1 - t), 0) <= t the other (docs/sections/dp-conversions.md); the checker re-checks the family.

Which Renyi orders A bounds, and how, is A's kind's declaration (:meth:`Divergence.renyi_bound`, the fact it names
:attr:`Divergence.renyi_fact`); no kind is named here but the total variation and the hockey-stick of the last fact.
The orders are read from the definitions' parameters where they declare them (``renyi-ldp(alpha)``,
``delta-ldp(eps)``).

Both are cited lemmas: the checker (:mod:`implgraph.certify.lemmas.divergence_order`) re-checks that the sides are
the registered divergences, compare the same distributions and stand in the lemma's order, and that U is the lemma's.

**Zero-concentrated A (fact `zcdp-order`), by hand.**
`zcdp-ldp` at level rho says, for every two records x, y (both ways), D_alpha(x || y) <= rho alpha at every order
alpha > 1 (Bun and Steinke, *Concentrated differential privacy*, TCC 2016, Definition 1.1 with xi = 0). The kind
declares what that bounds (`Divergence.renyi_bound`, `implgraph/definitions/_renyi_bounds.py`); nothing here reads a
definition's name.

- **Renyi of a finite order beta > 1**: the definition at alpha = beta, D_beta <= beta rho. `renyi-ldp(alpha=2)`:
  U = 2 rho.
- **KL**: with r_l = x_l/y_l and S = sum_l y_l r_l^beta = sum_l x_l r_l^(beta - 1), the inequality log u <= u - 1 at
  u_l = r_l^(beta - 1)/S, weighted by x_l and summed, gives
  (beta - 1) KL - log S = sum_l x_l log(r_l^(beta - 1)/S) <= sum_l x_l r_l^(beta - 1)/S - 1 = 0, so
  KL <= D_beta <= beta rho for every beta > 1. Were KL > rho > 0, the order beta = 1 + (KL - rho)/(2 rho) > 1 would
  give beta rho = (rho + KL)/2 < KL; so KL <= rho (the limit beta -> 1). `kl-ldp`: U = rho.
- **Pinsker**: TV <= sqrt(KL/2) <= sqrt(rho/2). `tv-ldp`: U = sqrt(rho/2).
- **joint convexity** (prefix `joint-convexity+`): a class against the table, or the table against the table without
  one record, compares two averages of records, and every D_beta is jointly quasi-convex, so the same U holds for
  `kl-closeness`, `kl-dp`, `renyi-closeness(2)`, `renyi-dp(2)`, `tv-dp`.

**Tight for KL between records.** Randomized response at ratio R > 1, one record at p = (R, 1)/(R + 1) and N - 1 at
q = (1, R)/(R + 1), has KL(p || q) = KL(q || p) = (R/(R + 1)) log R - (1/(R + 1)) log R = g(R) = log(R) (R - 1)/(R + 1),
and its zero-concentrated level is at most g(R): every ratio lies in [1/R, R], a pure level eps = log R, and such a
pair is zero-concentrated at eps tanh(eps/2) (the chord of r^alpha over [1/R, R] and the tanh lemma; Coq
`ZcdpChord.zcdp_chord_pairs`), which is g(R) since tanh(log(R)/2) = (R - 1)/(R + 1). g(1) = 0, g'(R) =
(R - 1)/(R (R + 1)) + 2 log(R)/(R + 1)^2 > 0 and g -> oo, so for every T > 0 the root R of g(R) = T gives a table with
A <= T and B = T: f = rho is attained. At R = 3: rho = KL = log(3)/2 = 0.549. The other bounds are upper bounds only
(at R = 3, D_2 = log(7/3) = 0.847 < 2 rho = 1.099 and TV = 1/2 < sqrt(rho/2) = 0.524: not attained there).

The checker states KL <= rho and D_n <= n rho on its own (`implgraph/certify/zcdp_facts.py`: Jensen's identities and
the limit, exact) and re-checks the randomized-response family (`implgraph/certify/zcdp_rr_family.py`); the Coq
library lifts `ZcdpOrder.zcdp_kl` and `zcdp_renyi` to tables (`ZcdpPairs.zcdp_kl_pairs`, `zcdp_renyi_pairs`), and the
generated proofs of zcdp-ldp => kl-ldp, renyi-ldp(2), kl-dp, renyi-dp(2), kl-closeness, renyi-closeness(2), tv-ldp and
tv-dp check with coqc (the kernel states the upper bound; the attaining family is the Python checker's).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover import registry

METHOD = methods.DIVERGENCE_ORDER

__all__ = ["bound", "order_of", "lemma_of"]


def order_of(div):
    """KL as the order 1, Renyi its order (oo included); None for another kind."""
    if div.kind == "kl":
        return sympy.Integer(1)
    return div.order if div.kind == "renyi" else None


def lemma_of(a_div, b_div):
    """``(fact, U in T)`` where A's divergence bounds B's, else None. ``fact`` is ``monotone-order``, ``zcdp-order``
    (the fact A's kind declares for its bound on B's Renyi order, :meth:`Divergence.renyi_bound`), ``pinsker`` (A's
    bound on KL, then TV <= sqrt(KL/2)) or ``hockey-below-tv``, prefixed ``joint-convexity+`` where A compares pairs
    of records and B a class or a removal with the table."""
    from implgraph.engines.bounds import T
    if a_div is None or b_div is None:
        return None
    mixing = a_div.compares == "pairs" and b_div.compares in ("class", "removal")
    if a_div.compares != b_div.compares and not mixing:
        return None
    prefix = "joint-convexity+" if mixing else ""
    if (a_div.kind, a_div.order) == (b_div.kind, b_div.order):
        return prefix + "monotone-order", T
    ob = order_of(b_div)
    upper = a_div.renyi_bound(ob, T) if ob is not None else None
    if upper is not None:
        return prefix + a_div.renyi_fact, upper
    kl = a_div.renyi_bound(1, T)
    if kl is not None and b_div.kind == "tv":
        return prefix + "pinsker", sympy.sqrt(kl / 2)
    if a_div.kind == "tv" and b_div.kind == "hockey-stick" and bool(b_div.order >= 1):
        return prefix + "hockey-below-tv", T
    return None


_TEXT = {"monotone-order": "the Renyi divergence is nondecreasing in its order (KL the order 1, the largest log ratio "
                            "the order oo; van Erven and Harremoes 2014, Theorems 3, 5, 6)",
         "zcdp-order": "a zero-concentrated level rho bounds D_beta <= beta rho at every finite order beta > 1 (Bun and "
                       "Steinke, TCC 2016, Definition 1.1), and KL = lim_{beta -> 1} D_beta <= rho (KL <= D_beta <= beta "
                       "rho for every beta > 1; van Erven and Harremoes 2014, Theorem 5; Bun and Steinke 2016)",
         "pinsker": "Pinsker's inequality TV <= sqrt(KL/2), and KL <= D_beta (Tsybakov 2009, Lemma 2.5; van Erven and "
                    "Harremoes 2014), KL <= rho for a zero-concentrated level rho (the limit beta -> 1 of D_beta <= "
                    "beta rho; Bun and Steinke 2016)",
         "hockey-below-tv": "the hockey-stick at gamma >= 1 is at most the total variation: sum_l max(x_l - gamma y_l, "
                            "0) <= sum_l max(x_l - y_l, 0) = TV (y_l >= 0, sum_l x_l = sum_l y_l)"}


def bound(a, b, a_params=None, b_params=None):
    """The :class:`Bound` of B's divergence given A's, or None (not its case)."""
    from implgraph.prover.answer import Bound
    a_div, b_div = divergence_of(a, a_params), divergence_of(b, b_params)
    found = lemma_of(a_div, b_div)
    if found is None:
        return None
    which, upper = found
    text = _TEXT[which.removeprefix("joint-convexity+")]
    pairs = (f"A and B are divergences between the same distributions ({a_div.compares})" if a_div.compares ==
             b_div.compares else
             f"A bounds the divergence of every pair of records; B's distributions ({b_div.compares}) are two averages "
             "of records, (avg_i x_i, avg_j x_j) = the uniform average of the pairs (x_i, x_j), and the divergence is "
             "jointly convex (an f-divergence; Renyi through exp((alpha - 1) D); quasi-convex at order oo), so B's "
             "divergence of the averages is at most the largest over pairs (0 for i = j; van Erven and Harremoes 2014, "
             "Theorem 11)")
    if which == "hockey-below-tv" and a_div.compares == "pairs":
        return Bound(upper, True, methods.DIVERGENCE_ORDER.name,
                     f"{pairs}: {text}, on every compared pair, hence on their maxima; attained for every N by one "
                     "record at (t, 1 - t) and N - 1 at (0, 1): E_gamma = t one way (1 - t - gamma < 0), "
                     "max(1 - gamma (1 - t), 0) <= t the other ((gamma - 1)(1 - t) >= 0), TV = t")
    if which == "zcdp-order" and a_div.compares == b_div.compares == "pairs" and order_of(b_div) == 1:
        return Bound(upper, True, methods.DIVERGENCE_ORDER.name,
                     f"{pairs}: {text}, on every compared pair, hence on their maxima; attained for every N and T > 0 "
                     f"by randomized response: {RR_TEXT}")
    return Bound(upper, False, methods.DIVERGENCE_ORDER.name,
                 f"{pairs}: {text}, on every compared pair, hence on their maxima (an upper bound; tightness not "
                 "derived)")


#: the attaining family of zcdp-order into KL between records (randomized response)
RR_TEXT = ("one record at (R/(R + 1), 1/(R + 1)) and N - 1 at (1/(R + 1), R/(R + 1)), R > 1 the root of "
           "g(R) = log(R) (R - 1)/(R + 1) = T (g(1) = 0, g increasing and unbounded on R >= 1): KL = g(R) = T both "
           "ways, and the zero-concentrated level of a pair within ratio R is at most g(R) = eps tanh(eps/2), "
           "eps = log R (the chord of r^alpha over [1/R, R] and the tanh bound; coq ZcdpChord.zcdp_chord_pairs)")
RR_ROWS = [{"count": "1", "value": "R/(R + 1)"}, {"count": "N - 1", "value": "1/(R + 1)"}]
RR_ROOT = {"symbol": "R", "range": "R > 1", "equation": "log(R)*(R - 1)/(R + 1) = T"}


def certificate_parts(cert, ctx):
    from implgraph.definitions import get
    which, _ = lemma_of(*(divergence_of(get(cert[k]["definition"]), cert[k].get("params")) for k in ("A", "B")))
    cert["upper_certificate"] = {"lemma": methods.DIVERGENCE_ORDER.lemma, "fact": which}


def certificate_family(cert, ctx):
    """The attaining table of hockey-below-tv between records: one record at (T, 1 - T), N - 1 at (0, 1); of
    zcdp-order into KL between records: randomized response at the root R of log(R) (R - 1)/(R + 1) = T."""
    fact = (cert.get("upper_certificate") or {}).get("fact")
    if fact == "zcdp-order":
        return {"rows": list(RR_ROWS), "root": dict(RR_ROOT)}
    if fact != "hockey-below-tv":
        return None
    return {"rows": [{"count": "1", "value": "T"}, {"count": "N - 1", "value": "0"}]}


registry.certificate_parts(methods.DIVERGENCE_ORDER, family=certificate_family)(certificate_parts)


@registry.argument(methods.DIVERGENCE_ORDER, order=201,
                   applies=lambda ctx: divergence_of(ctx.a, ctx.a_params) is not None
                   and divergence_of(ctx.b, ctx.b_params) is not None)
def handler(ctx):
    """A and B declared divergences ordered by a checked fact (module notes); an upper bound that a family read from
    the sides' declarations attains is said to be tight (:mod:`implgraph.prover.arguments.attained_family`)."""
    from implgraph.prover.arguments.attained_family import attach
    return attach(bound(ctx.a, ctx.b, ctx.a_params, ctx.b_params), ctx.a, ctx.b, ctx.a_params, ctx.b_params,
                  ctx.a_classes, ctx.b_classes, ctx.region, ctx.N)
