"""``binary-program``: a divergence between records bounds an (eps, delta) slack through binary pairs
(docs/arguments/binary-program.md, the proofs in docs/proofs/binary-program.md).

A declares a divergence (:class:`implgraph.definitions.divergences.Divergence`) between every ordered pair of records,
so bounded both ways on each pair; B declares an additive slack delta in (0, 1/2) (its raw level the least
e^eps >= 1 with x(E) <= e^eps y(E) + delta on every event E), between two records or on record removal.

**Reduction (R2).** The divergence obeys data processing: merging the buckets of B's event E, and of its complement,
maps x and y to binary pairs x' = (a, 1 - a), y' = (b, 1 - b) with a = x(E), b = y(E) and a divergence no larger,
both ways (for chi^2, (x1 + x2)^2/(y1 + y2) <= x1^2/y1 + x2^2/y2, which the checker re-derives); B's requirement on E
is a - delta <= e^eps b, unchanged. So B's raw level is at most max(1, sup (a - delta)/b) over the binary pairs with
both divergences <= A's level, and the supremum is approached by two records of two buckets.

**Renyi of order 2** (D_2 = log(1 + chi^2), chi^2(x' || y') = (a - b)^2/(b (1 - b))), A's level T, c = e^T - 1,
d = delta, c0 = 4 d^2/(1 - d^2), c1 = 4 d^2/(1 - 2 d): the program's value (B's raw level) is

- 1 for c <= c0: adding the two constraints, c - (4 + c)(a - b)^2 = 2 (c a (1 - a) - (a - b)^2)
  + 2 (c b (1 - b) - (a - b)^2) + c (1 - a - b)^2 >= 0, so a - b <= sqrt(c/(4 + c)) <= d;
- (1/2 + m - d)/(1/2 - m), m = sqrt(c/(4 + c))/2, for c0 <= c <= c1: the symmetric pair (1/2 + m, 1/2 - m),
  (1/2 - m, 1/2 + m), where both constraints bind; a linear objective a - V b over a convex set (chi^2 is jointly
  convex) is largest where the KKT conditions hold with multipliers >= 0, and here they are (lambda_1, lambda_2)
  >= 0 exactly for d/2 <= m <= d/(2 (1 - d)), i.e. c0 <= c <= c1;
- 1 - d + c/(4 d) for c >= c1, and an upper bound for every c: with s = a - b and M = d (1 - b) + c b/(4 d) >= 0,
  M^2 - c b (1 - b) = (d (1 - b) - c b/(4 d))^2 >= 0 and s^2 <= c b (1 - b), so s <= M, which is
  a - d <= (1 - d + c/(4 d)) b; attained by b = 4 d^2/(4 d^2 + c), a = (4 d^2 + 2 d c)/(4 d^2 + c), whose reverse
  chi^2 is <= c exactly where a + b <= 1, c >= c1.

Between pairs of records each supremum is attained, for every N >= 2, by one record at the pair's x and N - 1 at its
y (every pair of records of that table is (x, y), (y, x) or equal): the tight f. On record removal (P against Q_i,
the table without record i): P - Q_i = (x_i - Q_i)/N gives chi^2(P || Q_i) = chi^2(x_i || Q_i)/N^2 and
chi^2(Q_i || P) <= chi^2(x_i || Q_i)/(N (N - 1)) (P >= (N - 1) Q_i/N), and chi^2(x_i || Q_i) <= c (x^2/y is convex in
y): the same program at c/(N (N - 1)) is an upper bound, and U = 1 where N d >= 1 (|P(E) - Q_i(E)| <= 1/N);
tightness there is not derived.

**KL** (between pairs of records): the program's optimum has no closed form; the argument proves the upper bound
U = 1 where T <= 2 d^2 (Pinsker: a - b <= sqrt(T/2) <= d), and U = (d/T)(e^(T/d) - 1) everywhere: the log-sum
inequality merges the buckets; (1 - a) log((1 - a)/(1 - b)) >= b - a (log u >= 1 - 1/u), so with u = a/b,
KL >= b phi(u), phi(u) = u log u - u + 1 >= 0, hence 1/b >= phi(u)/T and (a - d)/b <= u - d phi(u)/T, concave in u
(second derivative -d/(T u)) with its maximum (d/T)(e^(T/d) - 1) at u = e^(T/d). Tightness is not derived (at
d = 1/10 a grid of binary pairs reaches 1.18, 1.57, 27.6 and 2079 against U = 1.30, 1.72, 29.5 and 2203 at T = 0.05,
0.1, 0.5 and 1, floats: an observation, not a claim). Between pairs and on record removal (KL is jointly convex).

**Another numeric order alpha** between records: D_alpha >= D_2 for alpha >= 2 (oo included) and D_alpha >= KL for
alpha in (1, 2) (van Erven and Harremoes 2014, Theorems 3 and 5), so the order-2 program's or the KL bound holds, an
upper bound (tightness not derived). A symbolic order is not answered.

**Which program, from A's declaration.**
The program is chosen from what A's kind declares about the Renyi divergences (`Divergence.renyi_bound`): the
chi-square program where A's level T bounds D_2 by T (Renyi of an order >= 2, oo included), the KL program where it
bounds KL by T (KL, Renyi of an order in (1, 2), and the zero-concentrated level: KL <= rho, the limit beta -> 1 of
D_beta <= beta rho, docs/arguments/divergence-order.md). So `zcdp-ldp => eps-delta-ldp(delta=1/10)` is the KL
program's bound at T = rho, U = 1 for rho <= 2 delta^2 = 1/50 and (delta/rho)(e^(rho/delta) - 1) above, an upper
bound (the checker re-checks KL <= rho by `implgraph/certify/zcdp_facts.py`; the Coq proof reads KL <= rho from
`ZcdpPairs.zcdp_kl_pairs`, then the KL program's table theorems).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import slack_between

METHOD = methods.BINARY_PROGRAM

__all__ = ["program", "pieces", "bound", "family"]

#: the chi^2 level c of A's Renyi-2 level T
C_OF_T = sympy.exp(T) - 1


def program(div) -> str | None:
    """The binary program whose bound this argument proves for A's divergence between pairs of records:
    ``"chi-square"`` for Renyi of an order >= 2 (the order 2 itself tight; a higher order, oo included, through
    D_2 <= D_alpha), ``"kl"`` for KL or Renyi of an order in (1, 2) (through KL <= D_alpha); None otherwise (another
    kind or comparison, or an order that is no number)."""
    if div is None or div.compares not in ("pairs", "removal"):
        return None
    if div.renyi_bound(2, T) == T:          # A's declaration: D_2 <= T (Renyi of an order >= 2, oo included)
        return "chi-square"
    return "kl" if div.renyi_bound(1, T) == T else None     # KL <= T (KL, Renyi in (1, 2), zero-concentrated)


def _exact(div) -> bool:
    """Is the program's bound A's own (KL, Renyi 2), not one A's declaration implies (a higher Renyi order, or the
    zero-concentrated level's KL <= rho)?"""
    return div.kind == "kl" or div.order == 2


def _delta(ctx):
    if slack_between(ctx.b) not in ("pairs", "removal") or slack_between(ctx.a):
        return None
    d = sympy.sympify(ctx.b_params.get("delta", "none"))
    return d if d.is_Rational and 0 < d < sympy.Rational(1, 2) else None


def _applies(ctx):
    div = divergence_of(ctx.a, ctx.a_params)
    return (program(div) is not None and _delta(ctx) is not None
            and (div.compares == "pairs" or slack_between(ctx.b) == "removal"))


def pieces(d, N=None, same_pair=False):
    """``[(name, condition on T, U)]`` of the chi-square program at slack d (module notes), in order; the last
    condition is True. With ``N`` (record removal): first U = 1 where N d >= 1, then the program at the removal
    pair's level c/(N (N - 1)) (A between records), or at c itself (``same_pair``: A bounds the removal pair)."""
    scale = 1 if (N is None or same_pair) else N * (N - 1)
    c = C_OF_T / scale
    c0, c1 = 4 * d ** 2 / (1 - d ** 2), 4 * d ** 2 / (1 - 2 * d)
    m = sympy.sqrt(c / (4 + c)) / 2
    head = [] if N is None else [("removal-tv", N * d >= 1, sympy.Integer(1))]
    return head + [("flat", T <= sympy.log(1 + scale * c0), sympy.Integer(1)),
                   ("middle", T <= sympy.log(1 + scale * c1), (1 + 2 * m - 2 * d) / (1 - 2 * m)),
                   ("top", sympy.true, 1 - d + c / (4 * d))]


def kl_pieces(d, N=None):
    """``[(name, condition on T, U)]`` of the KL program's upper bound at slack d (module notes): 1 where
    sqrt(T/2) <= d (Pinsker), (d/T)(e^(T/d) - 1) everywhere; with ``N`` (A and B on record removal) first U = 1
    where N d >= 1."""
    head = [] if N is None else [("removal-tv", N * d >= 1, sympy.Integer(1))]
    return head + [("pinsker", T <= 2 * d ** 2, sympy.Integer(1)), ("log-sum", sympy.true, d / T * (sympy.exp(T / d) - 1))]


def family(name, d):
    """The attaining pair of a piece as ``[(count, first bucket's value)]`` in T and N: one record at x, N - 1 at y
    (the flat piece: every record at (1/2, 1/2))."""
    c = C_OF_T
    if name == "flat":
        return [("N", sympy.Rational(1, 2))]
    if name == "middle":
        m = sympy.sqrt(c / (4 + c)) / 2
        return [("1", sympy.Rational(1, 2) + m), ("N - 1", sympy.Rational(1, 2) - m)]
    return [("1", (4 * d ** 2 + 2 * d * c) / (4 * d ** 2 + c)), ("N - 1", 4 * d ** 2 / (4 * d ** 2 + c))]


def _text(d, compares, exact=True):
    head = (f"A bounds the Renyi divergence of order 2 between every two records both ways by T "
            "(chi^2 <= c = e^T - 1); "
            f"B's slack delta = {d} is read on one event E: merging E's buckets and its complement's does not raise "
            "chi^2 (data processing; for two buckets (x1 + x2)^2/(y1 + y2) <= x1^2/y1 + x2^2/y2), so B's raw level is "
            "at most max(1, sup (a - delta)/b) over binary pairs (a, 1 - a), (b, 1 - b) with both chi^2 <= c. "
            "Everywhere (a - b)^2 <= c b (1 - b) and M = delta (1 - b) + c b/(4 delta) has M^2 - c b (1 - b) = "
            "(delta (1 - b) - c b/(4 delta))^2 >= 0, so a - delta <= (1 - delta + c/(4 delta)) b; for c <= "
            "4 delta^2/(1 - delta^2) the two constraints summed give a - b <= sqrt(c/(4 + c)) <= delta (U = 1); for c "
            "between 4 delta^2/(1 - delta^2) and 4 delta^2/(1 - 2 delta) the symmetric pair (1/2 + m, 1/2 - m), "
            "(1/2 - m, 1/2 + m), m = sqrt(c/(4 + c))/2, meets the KKT conditions of the convex program (chi^2 is "
            "jointly convex) with multipliers >= 0: U = (1/2 + m - delta)/(1/2 - m); above, the one-sided optimum "
            "b = 4 delta^2/(4 delta^2 + c), a = (4 delta^2 + 2 delta c)/(4 delta^2 + c) has a + b <= 1, so its "
            "reverse chi^2 is <= c too")
    if compares == "pairs" and exact:
        return head + ("; each piece is attained, for every N >= 2, by one record at the pair's x and N - 1 at its y "
                       "(the flat piece by equal records)")
    if compares == "pairs":
        return head + "; an upper bound at A's order, tightness not derived"
    return head + ("; B compares the table P with Q_i, the table without record i: P - Q_i = (x_i - Q_i)/N, so "
                   "chi^2(P || Q_i) = chi^2(x_i || Q_i)/N^2 and, as P >= (N - 1) Q_i/N bucketwise, chi^2(Q_i || P) "
                   "<= chi^2(x_i || Q_i)/(N (N - 1)); chi^2(x_i || .) is convex (x^2/y is) and Q_i is the mean of the "
                   "other records, so chi^2(x_i || Q_i) <= c: the program above at c/(N (N - 1)) bounds B; and where "
                   "N delta >= 1, |P(E) - Q_i(E)| = |x_i(E) - Q_i(E)|/N <= 1/N <= delta (U = 1): an upper bound, "
                   "tightness not derived")


@argument(METHOD, order=203, applies=_applies)
def bound(ctx):
    """The program's value as a Piecewise in T: tight between pairs of records, an upper bound on record removal."""
    d = _delta(ctx)
    div = divergence_of(ctx.a, ctx.a_params)
    kl = program(div) == "kl"
    compares = slack_between(ctx.b)
    parts = parts_of(div, d, compares, ctx.N)
    upper = sympy.Piecewise(*[(u, cond) for _, cond, u in parts])
    checks = [f"{name}: where {cond}" for name, cond, _ in parts]
    text = _kl_text(d, compares) if kl else _text(d, compares, _exact(div))
    if div.compares == "removal":
        text = _same_pair_text(d, kl)
    if not _exact(div):
        why = (f"A's Renyi divergence of order {div.order} is at least its {'KL' if kl else 'order 2'} (the Renyi "
               "divergence is nondecreasing in its order; van Erven and Harremoes 2014, Theorems 3 and 5)"
               if div.renyi_fact == "monotone-order" else
               f"A's level T bounds its {'KL' if kl else 'order 2'} by T ({div.renyi_fact}: KL <= rho, the limit "
               "beta -> 1 of D_beta <= beta rho; Bun and Steinke 2016)")
        text = f"{why}, so the {'KL' if kl else 'order-2'} program's bound at T holds: {text}"
    return final(Bound(upper, div.compares == compares == "pairs" and not kl and _exact(div), METHOD.name, text,
                       build=None,
                       checks=checks, attained_where=sympy.true))


def parts_of(div, d, compares, N):
    """The pieces of the bound for A's divergence ``div`` and B's slack d between ``compares`` at N records."""
    kl = program(div) == "kl"
    if div.compares == "removal":        # A and B on the same removal pair (P, Q_i), both ways
        return kl_pieces(d, N) if kl else pieces(d, N, same_pair=True)
    return kl_pieces(d) if kl else pieces(d, N if compares == "removal" else None)


def _same_pair_text(d, kl):
    program_text = (
        "the KL program: merging E's buckets and its complement's does not raise KL (log-sum inequality); where "
        "T <= 2 delta^2, Pinsker gives a - b <= sqrt(T/2) <= delta (U = 1); everywhere, with u = a/b, "
        "b (u log u - u + 1) <= T, so (a - delta)/b <= (delta/T)(e^(T/delta) - 1)" if kl else
        "the chi-square program (D_2 = log(1 + chi^2), c = e^T - 1): merging E's buckets and its complement's does "
        "not raise chi^2; U = 1 for c <= 4 delta^2/(1 - delta^2) (the two constraints summed give a - b <= "
        "sqrt(c/(4 + c)) <= delta), (1/2 + m - delta)/(1/2 - m) with m = sqrt(c/(4 + c))/2 up to c = "
        "4 delta^2/(1 - 2 delta) (KKT at the symmetric pair), 1 - delta + c/(4 delta) above (M^2 - c b (1 - b) a "
        "square)")
    return ("A bounds the divergence between the table's distribution P and Q_i, the table's without record i, both "
            f"ways; B's slack delta = {d} compares the same pair (P, Q_i) on every event E. P(E) - Q_i(E) = "
            "(x_i(E) - Q_i(E))/N lies in [-1/N, 1/N], so U = 1 (eps = 0) where N delta >= 1, whatever A is (every "
            "table meets B there; tight). Elsewhere the binary program applies to the pair (P, Q_i) itself: "
            + program_text + "; an upper bound, tightness not derived (the removal pair is no arbitrary pair: "
            "|P(E) - Q_i(E)| <= 1/N)")


def _kl_text(d, compares):
    where = ("" if compares == "pairs" else "; B compares the table with the table without one record, two averages "
             "of records: KL is jointly convex, so at most the largest over pairs (van Erven and Harremoes 2014, "
             "Theorem 11)")
    return (f"A bounds KL between every two records both ways by T; B's slack delta = {d} is read on one event E, and "
            "merging E's buckets and its complement's does not raise KL (the log-sum inequality): a binary pair "
            "(a, 1 - a), (b, 1 - b) with KL <= T. Where T <= 2 delta^2, Pinsker gives a - b <= sqrt(T/2) <= delta "
            "(U = 1). Everywhere, (1 - a) log((1 - a)/(1 - b)) >= b - a (log u >= 1 - 1/u), so with u = a/b, "
            "b phi(u) <= T for phi(u) = u log u - u + 1 >= 0, and (a - delta)/b = u - delta/b <= u - delta phi(u)/T, "
            "a concave function of u largest at u = e^(T/delta): U = (delta/T)(e^(T/delta) - 1)" + where
            + "; an upper bound: the tight f (the program's optimum) has no closed form here, tightness not derived")


def _family_of(cert, ctx):
    d = sympy.Rational(str(cert["B"]["slack"]["delta"]))
    return {"pieces": [{"piece": name, "where": str(cond),
                        "rows": [{"count": n, "value": str(v)} for n, v in family(name, d)]}
                       for name, cond, _ in pieces(d)]}


@certificate_parts(METHOD, family=_family_of)
def upper_certificate(cert, ctx):
    """The lemma data: the program solved, and each piece's name and condition in T."""
    from implgraph.definitions import get
    d = sympy.Rational(str(cert["B"]["slack"]["delta"]))
    div = divergence_of(get(cert["A"]["definition"]), cert["A"].get("params"))
    kind = program(div)
    parts = parts_of(div, d, cert["B"]["slack"].get("compares"), ctx.N)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "program": kind,
                                 "pieces": [{"piece": name, "where": str(cond), "U": str(u)}
                                            for name, cond, u in parts]}
