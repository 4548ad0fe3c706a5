"""``ceiling-chord``: a class's total variation distance from the table, with its ratios at most N, bounds its KL and
Renyi-2 divergence (docs/proofs/ceiling-family.md, section 4).

A bounds the total variation distance of each class from the table by c T, T A's raw level: A the total variation
between pairs of records (tv-ldp; c = (N - 1)/N: a class E of e >= 1 records has m - P = ((N - e)/N)(m - m'), m' the
other records' mean, and TV(m, m') <= T, both being mixtures of records, TV convex), or A a class's total variation
distance from the table itself (a declared class distance ``total-variation`` or a ``tv`` class divergence; c = 1).
B a class's KL or Renyi divergence of order 2 from the table, on any partition. The ratios r_l = m_l/P_l lie in
[0, N] (a class of >= 1 records holds at most the table's mass) and sum_l P_l r_l = 1, so with phi convex on [0, N],
phi(1) = 0 (r log r - r + 1 for KL, (r - 1)^2 for chi^2 = exp(D_2) - 1), phi lies below its chords on [0, 1] and
[1, N]: sum_l P_l phi(r_l) <= (phi(0) + phi(N)/(N - 1)) TV(m, P), as sum_l P_l (r_l - 1)^+ = sum_l P_l (1 - r_l)^+ =
TV(m, P). So KL <= (N log N/(N - 1)) c T and D_2 <= log(1 + N c T).

Tight wherever t = N c T/(N - 1) <= 1: one record at (t, 1 - t, 0) in a class of its own and N - 1 at (0, 1 - t, t)
in another (three buckets): TV between the records t (class distances (N - 1) t/N and t/N), A at T; the lone class's
ratios are (N, 1, 0), so its KL is t log N and its D_2 is log(1 + (N - 1) t), the bounds. Elsewhere (A's level beyond
the ceiling's reach) the bound stays an upper bound. The checker (:mod:`implgraph.certify.lemmas.ceiling_chord`)
re-derives each step symbolically.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, class_distance_of

METHOD = methods.CEILING_CHORD

__all__ = ["bound", "tv_factor"]


def tv_factor(a, a_params, N):
    """c with TV(class, table) <= c T where A's raw level is T (module notes), or None."""
    div = divergence_of(a, a_params)
    if div is not None and div.kind == "tv":
        return (N - 1) / N if div.compares == "pairs" else sympy.Integer(1) if div.compares == "class" else None
    if div is None and class_distance_of(a, a_params) == "total-variation":
        return sympy.Integer(1)
    return None


def _b_kind(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    if div is None or div.compares != "class":
        return None
    if div.kind == "kl" or (div.kind == "renyi" and sympy.sympify(div.order) == 2):
        return div.kind
    return None


def _applies(ctx):
    return (ctx.a is not None and _b_kind(ctx) is not None and tv_factor(ctx.a, ctx.a_params, ctx.N) is not None
            and any_partition(ctx.a_classes) and any_partition(ctx.b_classes))


def upper_of(kind, c, N):
    """U in T: (N log N/(N - 1)) c T (KL), log(1 + N c T) (Renyi-2)."""
    return N * sympy.log(N) * c * T / (N - 1) if kind == "kl" else sympy.log(1 + N * c * T)


@argument(METHOD, order=201.3, applies=_applies)
def bound(ctx):
    """The chord bound (module notes), tight where t = N c T/(N - 1) <= 1; None where the checker does not accept."""
    N, kind = ctx.N, _b_kind(ctx)
    c = tv_factor(ctx.a, ctx.a_params, N)
    t = sympy.simplify(N * c * T / (N - 1))
    upper = sympy.simplify(upper_of(kind, c, N))
    which = ("KL <= (phi(0) + phi(N)/(N - 1)) TV = (N log N/(N - 1)) TV, phi(r) = r log r - r + 1" if kind == "kl" else
             "chi^2 = exp(D_2) - 1 <= (phi(0) + phi(N)/(N - 1)) TV = N TV, phi(r) = (r - 1)^2")
    how = ("TV between two records <= T, and a class E of e records has m - P = ((N - e)/N)(m - m'), TV(m, m') <= T "
           "(mixtures of records, TV convex): TV(m, P) <= (N - 1) T/N" if c != 1 else
           "A is a class's total variation distance from the table: TV(m, P) <= T")
    arg = (f"{ctx.a.name} bounds each class's total variation distance from the table: {how}; a class of >= 1 records "
           f"holds at most the table's mass, so its ratios r_l = m_l/P_l lie in [0, N], sum_l P_l r_l = 1, and a convex "
           f"phi with phi(1) = 0 lies below its chords on [0, 1] and [1, N]: {which}, so {ctx.b.name} <= {upper}; "
           f"attained where t = {t} <= 1: one record at (t, 1 - t, 0) in a class of its own and N - 1 at "
           f"(0, 1 - t, t) in another (three buckets) satisfy A at T, and the lone class's ratios are (N, 1, 0)")

    def build(point):
        from implgraph.core.concrete import ConcreteTable
        Nv = int(point[N]) if N in point else int(N)
        tv = Fraction(str(sympy.nsimplify(t.subs({N: Nv, T: point[T]}))))
        if not 0 < tv <= 1:
            return None
        rows = [[tv, 1 - tv, Fraction(0)]] + [[Fraction(0), 1 - tv, tv]] * (Nv - 1)
        return ConcreteTable.from_fractions(rows, classes=["E1"] + ["E2"] * (Nv - 1))

    found = Bound(upper, True, METHOD.name, arg, build=build, buckets=sympy.Integer(3),
                  attained_where=sympy.Le(t, 1),
                  checks=[f"A bounds a class's total variation from the table by {c} T: True",
                          f"B a class's {kind} divergence, any partition: True"])
    from implgraph.certify.accepted import accepted
    from implgraph.prover.certificate import certificate
    cert = certificate(ctx.a, ctx.b, ctx.a_params, ctx.b_params, ctx.a_classes, ctx.b_classes, ctx.region, N, found)
    return found if accepted(cert) else None


def _family(cert, ctx):
    """One record at (t, 1 - t, 0) in E1, N - 1 at (0, 1 - t, t) in E2, t = N c T/(N - 1); where t <= 1."""
    c = tv_factor(ctx.a, cert["A"].get("params") or {}, ctx.N)
    t = str(sympy.simplify(ctx.N * c * T / (ctx.N - 1)))
    return {"rows": [{"count": "1", "values": [t, f"1 - ({t})", "0"], "class": "E1"},
                     {"count": "N - 1", "values": ["0", f"1 - ({t})", t], "class": "E2"}],
            "where": f"({t}) <= 1"}


@certificate_parts(METHOD, family=_family)
def upper_certificate(cert, ctx):
    from implgraph.definitions import get
    c = tv_factor(ctx.a, cert["A"].get("params") or {}, ctx.N)
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "factor": str(c), "kind": div.kind,
                                 "order": None if div.order is None else str(div.order)}
