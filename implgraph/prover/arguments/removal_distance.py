"""``removal-distance``: a class's distance under record removal (docs/arguments/removal-distance.md).

A a two-sided subset level of size N - 1 (record removal: eps-DP), or of any size j <= N - 1 (a set of >= j records
has its mean between the means of the j smallest and the j largest values, so A bounds the N - 1 records as well), B a
class's total variation distance from the table over any classes. A class's mass x on the buckets S where it lies
above the table is at most the largest record's, M; removing that record leaves N - 1 records whose means on S and on
its complement are within ratio T of the table's (a mediant): T (N P - M) >= (N - 1) P and
(N - 1) T (1 - P) >= N (1 - P) - (1 - M). Their sum is (N - 1)(T - 1) - (T + 1)(M - P) >= 0, and the first plus
(N - 1)(T - 1) (1 - M) >= 0 is (N - 1)(T - 1) - (N T - N + 1)(M - P) >= 0:
``U = Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))``, attained for every N >= 3 by one record at
x = Min(1, (N T - N + 1)/(T + 1)) in a class of its own and N - 1 at x/(N T - N + 1); at N = 2 the supremum is
``removal-distance-pair``'s, proved piece by piece (``exact``). For j < N - 1 ``subset-distance`` is tried first.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.arguments.removal_distance_pair import removal_pair_bound
from implgraph.prover.arguments.subset_distance import subset_distance_bound
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import decide
from implgraph.prover.tables import at, binary_column_table, frac, pair_piece_supremum

METHOD = methods.REMOVAL_DISTANCE


def _applies(ctx):
    ja = ctx.ja
    return ja is not None and ctx.b_distance == "total-variation" \
        and sympy.sympify((ctx.b_classes or {}).get("min_size", 1)) == 1 and not (ctx.b_classes or {}).get("max_size") \
        and decide(ctx.region, sympy.And(ja >= 1, ja <= ctx.N - 1)) is True


@argument(METHOD, order=160, applies=_applies)
def bound(ctx):
    """Record removal (j_A = N - 1); for j_A < N - 1 ``subset-distance``, this argument where that one fails."""
    ja, N, region = ctx.ja, ctx.N, ctx.region
    if simplified(ja - (N - 1)) == 0 or decide(region, sympy.Eq(ja, N - 1)) is True:
        return final(removal_distance_bound(N, region, ja))
    return final(subset_distance_bound(ja, N, region) or removal_distance_bound(N, region, ja))


def _identities(N):
    M_, P_ = sympy.symbols("M_ P_")
    f1 = T * (N * P_ - M_) - (N - 1) * P_
    f2 = (N - 1) * T * (1 - P_) - N * (1 - P_) + (1 - M_)
    near = sympy.expand((N - 1) * (T - 1) - (T + 1) * (M_ - P_) - (f1 + f2)) == 0
    far = sympy.expand((N - 1) * (T - 1) - (N * T - N + 1) * (M_ - P_) - (f1 + (N - 1) * (T - 1) * (1 - M_))) == 0
    return near, far


def removal_distance_bound(N, region, j=None):
    """The bound (module notes); None where an identity fails."""
    near, far = _identities(N)
    checks = [f"(T + 1)(M - P) <= (N - 1)(T - 1) (identity): {near}",
              f"(N T - N + 1)(M - P) <= (N - 1)(T - 1) (identity): {far}"]
    if not (near and far):
        return None
    U = sympy.Min((N - 1) * (T - 1) / (T + 1), (N - 1) * (T - 1) / (N * T - N + 1))
    # A of subset size j <= N - 1 bounds the N - 1 other records as well (a set of >= j records has its mean
    # between the j smallest's and the j largest's); the family is A's extreme only for j = N - 1, and it
    # satisfies A only where N >= 3 (at N = 2 the sets of N - 1 records are single records, and the other
    # record's ratio on the complement exceeds T): tight where the condition gives j = N - 1 and N >= 3
    j = N - 1 if j is None else j
    removal = simplified(j - (N - 1)) == 0 or decide(region, sympy.Eq(j, N - 1)) is True
    checks.append(f"1 <= j <= N - 1 on the condition (j = {j}): {decide(region, sympy.And(j >= 1, j <= N - 1))}")
    tight = removal and decide(region, N >= 3) is True
    checks.append(f"j = N - 1 and N >= 3 on the condition (the family attains U there): {tight}")

    def build(point):
        Tv, Nv, _ = at(point, N)
        if Nv < 3 or not removal:
            return None
        x = min(sympy.Integer(1), (Nv * Tv - Nv + 1) / (Tv + 1))
        vals = [x] + [x / (Nv * Tv - Nv + 1)] * (Nv - 1)
        return binary_column_table([frac(v) for v in vals], labels=["E1"] + ["E2"] * (Nv - 1))

    common, attained, arg = _texts(U, j, removal, tight)
    exact = None
    if removal and not tight:       # the region has N = 2, where U is not attained
        exact = pair_piece_supremum(METHOD.name, U, build, N, common + attained, checks, region, removal_pair_bound())
    return Bound(U, tight, METHOD.name, arg, build=build, checks=checks, exact=exact)


def _texts(U, j, removal, tight):
    """``(common, attained, argument)``: the argument's text, its attaining family's, and the whole."""
    common = (("A is a two-sided subset level of size N - 1 (record removal)" if removal else
              f"A is a two-sided subset level of size j = {j} <= N - 1, so it bounds every set of >= j records (a set's "
              "mean lies between the means of the j smallest and the j largest values), the N - 1 records left after "
              "removing one among them") + ", B a class's total variation distance from "
              "the table (any classes): a class's mass on the buckets S where it lies above the table is at most the "
              "largest record's, M; without that record the other N - 1 have means on S and on its complement within "
              "ratio T of the table's (a mediant), T (N P - M) >= (N - 1) P and (N - 1) T (1 - P) >= N (1 - P) - "
              "(1 - M); their sum gives (T + 1)(M - P) <= (N - 1)(T - 1), the first with (N - 1)(T - 1)(1 - M) >= 0 "
              f"gives (N T - N + 1)(M - P) <= (N - 1)(T - 1): U = {U}")
    attained = (", attained for every N >= 3 by one record at x = Min(1, (N T - N + 1)/(T + 1)) in a class of its own "
                "and N - 1 at x/(N T - N + 1)")
    arg = common + ((attained + ("" if tight else " (at N = 2 the family breaks A and the supremum is smaller: an "
                                                  "upper bound there)"))
                    if removal else " (an upper bound: with sets of j < N - 1 records that table need not satisfy A, "
                                    "and whether U is attained is not argued)")
    return common, attained, arg


def _removal_distance_family():
    """One record at x = Min(1, (N T - N + 1)/(T + 1)) in class E1, N - 1 at x/(N T - N + 1) in E2."""
    x = "Min(1, (N*T - N + 1)/(T + 1))"
    return [{"count": "1", "value": x, "class": "E1"},
            {"count": "N - 1", "value": f"{x}/(N*T - N + 1)", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _removal_distance_family()})
def upper_certificate(cert, ctx):
    j_ = cert["A"]["size"]
    cert["domain"] += [f"({j_}) >= 1", f"({j_}) <= N - 1"]      # A bounds the N - 1 records: j <= N - 1
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "near": {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": "1",
                 "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) >= 0": "1"},
        "far": {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": "1", "1 - M >= 0": "(N - 1)*(T - 1)"}}}
