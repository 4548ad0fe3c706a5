"""``subset-to-one-sided``: a class mean is at most the bucket's largest value (docs/arguments/subset-to-one-sided.md).

A a two-sided subset level of size j (1 <= j <= N - 1), B a one-sided class level (any class sizes) or a one-sided
subset level of size 1 (one record against the table): a class mean, and one record's value, is at most the bucket's
largest value M. The N - 1 other values are the N - 1 smallest, with mean >= the j smallest's >= p/T,
so M <= N p - (N - 1) p/T; the j largest are M and the j - 1 largest of the others, whose mean H is at least the
others' mean (N p - M)/(N - 1), and M + (j - 1) H <= j T p, so (N - j) M <= (j T (N - 1) - (j - 1) N) p.
``U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))``, tight: one record at U c and N - 1 at c (N - U)/(N - 1)
(binary rows, c = (T - 1)/(N T (T + 1)); the high record its own class, or the one record B compares).

A a one-sided subset level of size j (only mean_S <= T p: pointwise maximal leakage, j = 1) bounds no mean from below:
the first component is not derived; the j largest alone give (j T (N - 1) - (j - 1) N)/(N - j) (T at j = 1), and
M <= N p (the other values are >= 0): ``U = Min((j T (N - 1) - (j - 1) N)/(N - j), N)``, attained by the same
family (its j largest have mean exactly T p where U is the first; where T >= N/j, A's own ceiling, one record at N c
and the rest 0).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import decide, declared_subset_size, one_sided, smaller_alone
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.SUBSET_TO_ONE_SIDED


def _single_record_b(ctx) -> bool:
    """Is B a one-sided class level over any classes, or a one-sided subset level of size 1? (With classes of
    >= s >= 2 records the ceiling N/s can be smaller, and a subset of m >= 2 records has a mean below M: this
    argument is tight only where B may compare one record with the table.)"""
    if one_sided(ctx.b, "class"):
        return sympy.sympify((ctx.b_classes or {}).get("min_size", 1)) == 1
    return one_sided(ctx.b, "subset") and declared_subset_size(ctx.b, ctx.N, ctx.b_params) == 1


def _a_size(ctx):
    """A's subset size, two-sided (``ctx.ja``) or one-sided; None where A is no subset level."""
    if ctx.ja is not None:
        return ctx.ja
    return declared_subset_size(ctx.a, ctx.N, ctx.a_params) if one_sided(ctx.a, "subset") else None


def _applies(ctx):
    ja = _a_size(ctx)
    return ja is not None and _single_record_b(ctx) and decide(ctx.region, sympy.And(ja >= 1, ja <= ctx.N - 1)) is True


@argument(METHOD, order=150, applies=_applies)
def bound(ctx):
    return final(subset_one_sided_bound(_a_size(ctx), ctx.N, ctx.region, one_sided_a=ctx.ja is None))


def subset_one_sided_upper(j, N, one_sided_a=False):
    """``U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))`` of the argument (raw levels); the second
    component alone where A is one-sided."""
    top = (j * T * (N - 1) - (j - 1) * N) / (N - j)
    return sympy.Min(sympy.cancel(top), N) if one_sided_a else sympy.Min(N - (N - 1) / T, top)


def subset_one_sided_bound(j, N, region=None, one_sided_a=False):
    """The bound (module notes); ``one_sided_a``: A bounds the subsets' means from above only."""
    U = subset_one_sided_upper(j, N, one_sided_a)
    U = U if region is None else smaller_alone(U, region)

    def build(point):
        Tv, Nv, _ = at(point, N)
        Uv = U.subs({T: Tv, N: Nv, **{k: v for k, v in point.items() if k not in (T, N)}})
        c = (Tv - 1) / (Nv * Tv * (Tv + 1))
        vals = [Uv * c] + [c * (Nv - Uv) / (Nv - 1)] * (Nv - 1)
        return binary_column_table([frac(v) for v in vals], labels=["E1"] + ["E2"] * (Nv - 1))

    if one_sided_a:
        arg = (f"A is a one-sided subset level of size j = {j} (every mean of j records is <= T p), B a one-sided "
               "class level or a one-sided level of one record against the table: a class mean, and one record's "
               "value, is at most the bucket's largest value M; the j largest values are M and the j - 1 largest of "
               "the others, "
               "whose mean H is at least the others' mean (N p - M)/(N - 1), and M + (j - 1) H <= j T p, so "
               "(N - j) M <= (j T (N - 1) - (j - 1) N) p; and M <= N p (the other values are >= 0): "
               f"U = {U}, tight: one record at U c (its own class) and "
               "N - 1 at c (N - U)/(N - 1), c = (T - 1)/(N T (T + 1)), satisfy A and have B's ratio U")
        return Bound(U, True, METHOD.name, arg, build=build)
    arg = (f"A is a two-sided subset level of size j = {j}, B a one-sided class level or a one-sided level of one "
           "record against the table: a class mean, and one record's value, is at most the bucket's largest value M; "
           "the other N - 1 values are the N - 1 smallest, with mean >= the j smallest's >= p/T, so "
           "M <= N p - (N - 1) p/T; the j largest values are M and the j - 1 largest of the others, "
           "whose mean H is at least the others' mean (N p - M)/(N - 1), and M + (j - 1) H <= j T p, so "
           f"(N - j) M <= (j T (N - 1) - (j - 1) N) p: U = {U}, tight: one record at U c (its own class) and N - 1 "
           "at c (N - U)/(N - 1), c = (T - 1)/(N T (T + 1)), satisfy A and have B's ratio U")
    return Bound(U, True, METHOD.name, arg, build=build)


def _max_value_family(upper, classes=True):
    """One record at U c (in a class of its own where B compares classes), N - 1 at c (N - U)/(N - 1),
    c = (T - 1)/(N T (T + 1))."""
    c = "(T - 1)/(N*T*(T + 1))"
    blocks = [{"count": "1", "value": f"({upper})*{c}", "class": "E1"},
              {"count": "N - 1", "value": f"{c}*(N - ({upper}))/(N - 1)", "class": "E2"}]
    return blocks if classes else [{k: v for k, v in b.items() if k != "class"} for b in blocks]


@certificate_parts(METHOD, family=lambda cert, ctx: {
    "blocks": _max_value_family(cert["upper"], classes=cert["B"].get("family") == "class")})
def upper_certificate(cert, ctx):
    j_ = cert["A"]["size"]
    cert["domain"] += [f"({j_}) >= 1", f"({j_}) <= N - 1"]      # the subset sizes A's ranges allow
    top = {"j*T - (j - 1)*H - M >= 0": "N - 1", "(N - 1)*H - (N - M) >= 0": f"({j_}) - 1"}
    if cert["A"].get("sides") == "one-sided":          # the j largest and the mass (A bounds no mean from below)
        cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
            "j largest": top, "mass": {"N - M >= 0": "1"}}}
        return
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "all": {"T*(N - M) - (N - 1) >= 0": "1"}, "j largest": top}}
