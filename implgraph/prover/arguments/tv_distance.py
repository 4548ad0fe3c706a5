"""``tv-distance``: a declared divergence bounds a class's total variation distance from the table
(the proofs in docs/proofs/tv-distance.md and docs/proofs/pinsker.md).

A declares a divergence (:class:`implgraph.definitions.divergences.Divergence`); B is a class's total variation
distance from the table (:class:`~implgraph.definitions.capabilities.ClassDistance` ``"total-variation"``: t-closeness
with the EMD of the equal ground distance), over classes of >= s records, no maximum.

**A pair's total variation, g(T).** For two distributions x, y with A's divergence <= T, TV(x, y) = max_E x(E) - y(E)
over events E; with a = x(E), b = y(E):

- *total variation*: g = T, tight;
- *hockey-stick* at gamma >= 1, bounded both ways: a - gamma b <= T (on E) and (1 - b) - gamma (1 - a) <= T (on E's
  complement, the other way); their sum is (gamma + 1)(a - b) - (gamma - 1) <= 2 T, so
  g = (2 T + gamma - 1)/(gamma + 1), tight: the pair (1/2 + m, 1/2 - m), (1/2 - m, 1/2 + m), 2 m = g, has
  E_gamma = T both ways;
- *Renyi of order 2*, both ways (chi^2 <= c = e^T - 1): merging E's buckets and its complement's does not raise chi^2,
  and on two buckets c - (4 + c)(a - b)^2 = 2 (c a (1 - a) - (a - b)^2) + 2 (c b (1 - b) - (a - b)^2) +
  c (1 - a - b)^2 >= 0, so g = sqrt(c/(4 + c)) = sqrt((e^T - 1)/(e^T + 3)), tight by the symmetric pair with
  2 m = g; an order > 2 (oo included) through D_2 <= D_alpha (an upper bound);
- *KL*, a Renyi order in (1, 2), any of them one way only (closeness), or the zero-concentrated level: Pinsker's
  inequality TV <= sqrt(KL/2) with A's bound on KL (the divergence's declaration,
  :meth:`~implgraph.definitions.divergences.Divergence.renyi_bound` at the order 1: KL <= D_alpha <= T; KL <= rho for
  zero-concentrated privacy, the limit beta -> 1 of D_beta <= beta rho): g = sqrt(T/2), an upper bound (the tight
  KL/TV relation, Vajda's curve, has no closed form; not derived).

**From the pair to the class.** For a class E of e >= s records with mean P_E, the others' mean P_O and the table's
P = (e P_E + (N - e) P_O)/N, P_E - P = (N - e)(P_E - P_O)/N, so TV(P_E, P) = (N - e) TV(P_E, P_O)/N <= (N - s)/N.

- A between every two records (``compares="pairs"``): TV(P_E, P_O) <= max_{i, j} TV(x_i, x_j) <= g (TV is a norm of
  the difference, P_E - P_O the mean of the x_i - x_j): U = (N - s) min(1, g)/N, tight where g is (s records at x in
  one class, N - s at y in another; 2 s <= N);
- A a class against the table (``"class"``): TV(P_E, P) <= g directly: U = min((N - s)/N, g) (an upper bound);
- A the table against the table without record i (``"removal"``, both ways): P = (x_i + (N - 1) Q_i)/N gives
  x_i - P = (N - 1)(P - Q_i), so TV(x_i, P) = (N - 1) TV(P, Q_i) <= (N - 1) g, and P_E - P is the mean of the
  x_i - P, i in E: U = min((N - s)/N, (N - 1) g) (an upper bound; where a family read from the sides' declarations
  attains it, e.g. A the total variation itself, :mod:`implgraph.prover.arguments.attained_family` says so).

**Zero-concentrated A, by hand.**
A pair fact `pinsker` needs only A's bound on KL, which A's kind declares (`Divergence.renyi_bound` at the order 1).
`zcdp-ldp` at rho bounds D_beta <= beta rho at every order beta > 1, hence KL <= D_beta <= beta rho for every beta > 1
(Jensen: log u <= u - 1 at u_l = r_l^(beta - 1)/S), and KL <= rho in the limit beta -> 1
(docs/arguments/divergence-order.md). Pinsker then gives g = sqrt(rho/2) for every two records, and the composition
between records U = (N - s) min(1, sqrt(rho/2))/N: `zcdp-ldp => emd-t-closeness(ground=equal)` (and the hierarchical
one) at (N - 1) min(1, sqrt(rho/2))/N for classes of >= 1 record, an upper bound. The generated Coq proof reads A's KL
from `ZcdpPairs.zcdp_kl_pairs`, then `Pinsker.pinsker_pairs_slack` as for a KL A.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.arguments.attained_family import attach
from implgraph.prover.registry import argument, certificate_parts

METHOD = methods.TV_DISTANCE

__all__ = ["pair_tv", "upper_of", "family_values", "bound"]

#: the chi^2 level of a Renyi-2 level T
_C = sympy.exp(T) - 1


def _numeric_order(div) -> bool:
    return div.order is sympy.oo or (div.order is not None and div.order.is_number and div.order.is_real)


def pair_tv(div):
    """``(fact, g, tight)``: the largest total variation distance of a pair of distributions whose divergence ``div``
    is <= T (both ways where ``div`` compares pairs or a removal), or an upper bound of it; None where no fact
    applies (a symbolic order, the hockey-stick one way)."""
    both = div.compares in ("pairs", "removal")
    if div.kind == "tv":
        return ("tv", T, True)
    if div.kind == "hockey-stick":
        if not both or not _numeric_order(div) or not bool(div.order >= 1):
            return None
        g = div.order
        return ("hockey-stick", (2 * T + g - 1) / (g + 1), True)
    if div.kind == "renyi" and not _numeric_order(div):
        return None
    if div.kind == "renyi" and both and (div.order is sympy.oo or div.order >= 2):
        return ("chi-square", sympy.sqrt(_C / (_C + 4)), div.order == 2)
    kl = div.renyi_bound(1, T)
    if kl is not None:
        return ("pinsker", sympy.sqrt(kl / 2), False)
    return None


def upper_of(compares, g, N, s, tight=True):
    """U of B's class total variation distance from A's pair bound g (module notes); between pairs an upper bound g
    (not ``tight``) is capped at 1 (TV <= 1)."""
    ceiling = (N - s) / N
    if compares == "pairs":
        return ceiling * (g if tight else sympy.Min(1, g))
    if compares == "class":
        return sympy.Min(ceiling, g)
    return sympy.Min(ceiling, (N - 1) * g)


def family_values(fact, div):
    """The attaining pair's first-bucket values (x, y) in T (binary rows), for a tight pair fact."""
    if fact == "tv":
        return T, sympy.Integer(0)
    if fact == "hockey-stick":
        m = (2 * T + div.order - 1) / (2 * (div.order + 1))
    else:
        m = sympy.sqrt(_C / (_C + 4)) / 2
    return sympy.Rational(1, 2) + m, sympy.Rational(1, 2) - m


def _applies(ctx):
    div = divergence_of(ctx.a, ctx.a_params)
    s = sympy.sympify((ctx.b_classes or {}).get("min_size", 1))
    return (div is not None and ctx.b_distance == "total-variation" and not (ctx.b_classes or {}).get("max_size")
            and s.is_Integer and s >= 1 and pair_tv(div) is not None)


_FACT_TEXT = {
    "tv": "A is the total variation itself: g = T",
    "hockey-stick": ("A bounds the hockey-stick E_gamma both ways: on an event E with a = x(E), b = y(E), "
                     "a - gamma b <= T and (1 - b) - gamma (1 - a) <= T (E's complement, the other way); summed, "
                     "(gamma + 1)(a - b) <= 2 T + gamma - 1: g = (2 T + gamma - 1)/(gamma + 1), attained by the pair "
                     "(1/2 + m, 1/2 - m), (1/2 - m, 1/2 + m) with 2 m = g (E_gamma = T both ways)"),
    "chi-square": ("A bounds the Renyi divergence of order 2 both ways, chi^2 <= c = e^T - 1: merging E's buckets and "
                   "its complement's does not raise chi^2 (data processing), and on two buckets c - (4 + c)(a - b)^2 "
                   "= 2 (c a (1 - a) - (a - b)^2) + 2 (c b (1 - b) - (a - b)^2) + c (1 - a - b)^2 >= 0: g = "
                   "sqrt(c/(4 + c)), attained by the pair (1/2 + m, 1/2 - m), (1/2 - m, 1/2 + m) with 2 m = g"),
    "pinsker": ("Pinsker's inequality TV <= sqrt(KL/2) (Tsybakov 2009, Lemma 2.5; KL <= D_alpha, van Erven and "
                "Harremoes 2014; KL <= rho for a zero-concentrated level rho, the limit beta -> 1 of D_beta <= beta "
                "rho, Bun and Steinke 2016): g = sqrt(T/2), an upper bound (the tight KL/TV relation is Vajda's "
                "curve, no closed form; not derived)"),
}

_COMPOSE_TEXT = {
    "pairs": ("A compares every two records; for a class E of e >= s records, P_E - P = (N - e)(P_E - P_O)/N (P_O the "
              "others' mean), and P_E - P_O is the mean of the differences x_i - x_j (i in E, j not), so "
              "TV(P_E, P) <= (N - s) g/N"),
    "class": "A compares each class with the table; TV(P_E, P) <= g, and TV(P_E, P) = (N - e) TV(P_E, P_O)/N <= "
             "(N - s)/N",
    "removal": ("A compares the table P with Q_i, the table without record i, both ways; P = (x_i + (N - 1) Q_i)/N, so "
                "x_i - P = (N - 1)(P - Q_i) and TV(x_i, P) <= (N - 1) g; P_E - P is the mean of x_i - P over the "
                "class's records: TV(P_E, P) <= min((N - s)/N, (N - 1) g)"),
}


@argument(METHOD, order=204.7, applies=_applies)
def bound(ctx):
    """U of B's class total variation from A's divergence (module notes)."""
    div = divergence_of(ctx.a, ctx.a_params)
    fact, g, pair_tight = pair_tv(div)
    s = sympy.sympify((ctx.b_classes or {}).get("min_size", 1))
    U = upper_of(div.compares, g, ctx.N, s, pair_tight)
    tight = pair_tight and div.compares == "pairs"
    text = f"{_FACT_TEXT[fact]}. {_COMPOSE_TEXT[div.compares]}"
    if tight:
        text += (f": U = {U}, attained by {s} record(s) at the pair's x in one class and N - {s} at its y in another "
                 f"(2 s <= N)")
    else:
        text += f": U = {U} (an upper bound; tightness not derived)"
    checks = [f"pair fact: {fact}", f"compares: {div.compares}"]
    found = Bound(U, tight, METHOD.name, text, build=None, checks=checks)
    return final(attach(found, ctx.a, ctx.b, ctx.a_params, ctx.b_params, ctx.a_classes, ctx.b_classes, ctx.region,
                        ctx.N))


def _family(cert, ctx):
    from implgraph.definitions import get
    div = divergence_of(get(cert["A"]["definition"]), cert["A"].get("params"))
    fact = (cert.get("upper_certificate") or {}).get("fact")
    if div is None or div.compares != "pairs" or fact not in ("tv", "hockey-stick", "chi-square"):
        return None
    x, y = family_values(fact, div)
    s_ = f"({cert['B'].get('min_class', '1')})"
    return {"rows": [{"count": s_, "value": str(x), "class": "E1"},
                     {"count": f"N - {s_}", "value": str(y), "class": "E2"}]}


@certificate_parts(METHOD, family=_family)
def upper_certificate(cert, ctx):
    """The lemma data: the pair fact and what A compares."""
    from implgraph.definitions import get
    div = divergence_of(get(cert["A"]["definition"]), cert["A"].get("params"))
    fact, _, _ = pair_tv(div)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "fact": fact, "compares": div.compares}
    if div.compares == "pairs" and cert.get("tight"):
        s_ = cert["B"].get("min_class", "1")
        cert["domain"] = list(cert.get("domain") or []) + [f"({s_}) >= 1", f"2*({s_}) <= N"]
