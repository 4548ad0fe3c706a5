"""``class-distance``: a class's total variation distance under a two-sided class ratio
(docs/arguments/class-distance.md).

A a two-sided class level, B the total variation distance of a class's distribution from the table's (``ClassDistance``
declares it: EMD with the equal ground distance), on the same partition (classes of >= s records, no maximum). For a
class E of e records let S be the buckets where E lies above the table, x and P E's and the table's mass on S: B's
distance for E is x - P. Merging the buckets of S, and of its complement, keeps every ratio of A within [1/T, T] (a
mediant), so x <= T P, 1 - x >= (1 - P)/T and every other class's mass on S is >= P/T, whence
N P >= e x + (N - e) P/T. Then (T - 1) - (T + 1)(x - P) = (T P - x) + (T (1 - x) - (1 - P)) >= 0 and
(N - s)(T - 1) - N T (x - P) = T (N P - e x - (N - e) P/T) + (N - e)(T (1 - x) - (1 - P)) + (T - 1)(e - s) >= 0:
``U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))``, tight: s records at x = U' P and N - s at P (N - s U')/(N - s),
with U' = Min(T, (N T - N + s)/(s T)) and P = Max(1/(T + 1), s/N) (binary rows, two classes).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, same_partition, smaller_alone
from implgraph.prover.tables import two_blocks

METHOD = methods.CLASS_DISTANCE


def _applies(ctx):
    return compares(ctx.a, "class") and ctx.b_distance == "total-variation" \
        and same_partition(ctx.a_classes, ctx.b_classes)


@argument(METHOD, order=100, applies=_applies)
def bound(ctx):
    return final(class_distance_bound(sympy.sympify(ctx.b_classes["min_size"]), ctx.region, ctx.N))


def class_distance_upper(s, N):
    """``U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))`` of the ``class-distance`` argument (B's raw level:
    the distance itself)."""
    return sympy.Min((T - 1) / (T + 1), (N - s) * (T - 1) / (N * T))


def class_distance_bound(s, region, N):
    """The bound (module notes); None where an identity fails."""
    x_, P_, e_ = sympy.symbols("x_ P_ e_")
    h1, h2 = T * P_ - x_, T * (1 - x_) - (1 - P_)
    h3, h4 = T * N * P_ - T * e_ * x_ - (N - e_) * P_, e_ - s
    first = sympy.expand((T - 1) - (T + 1) * (x_ - P_) - (h1 + h2)) == 0
    second = sympy.expand((N - s) * (T - 1) - N * T * (x_ - P_) - (h3 + (N - e_) * h2 + (T - 1) * h4)) == 0
    checks = [f"(T + 1)(x - P) <= T - 1 from A on S and on its complement (identity): {first}",
              f"N T (x - P) <= (N - s)(T - 1) from A on the other classes (identity): {second}"]
    if not (first and second):
        return None
    U = smaller_alone(class_distance_upper(s, N), region)

    def values(Tv, Nv, sv):
        Uc = min(Tv, (Nv * Tv - Nv + sv) / (sv * Tv))
        Pv = max(1 / (Tv + 1), sympy.Rational(sv, Nv))
        return Uc * Pv, Pv * (Nv - sv * Uc) / (Nv - sv)
    build = two_blocks(N, s, values)

    arg = (f"A is a two-sided class level, B a class's total variation distance from the table, on the same "
           f"partition (classes of >= {s} records): for a class E of e records and the buckets S where E lies above "
           "the table (E's mass x on S, the table's P), merging S and its complement keeps A's ratios within "
           "[1/T, T], so x <= T P, 1 - x >= (1 - P)/T and the other classes' mass on S is >= P/T "
           "(N P >= e x + (N - e) P/T); hence (T + 1)(x - P) <= T - 1 and N T (x - P) <= (N - s)(T - 1) "
           f"(multipliers 1, N - e, T - 1; e >= s): U = {U}, attained by a binary table of two classes "
           "(s records at x = U' P, the rest at P (N - s U')/(N - s), U' = Min(T, (N T - N + s)/(s T)), "
           "P = Max(1/(T + 1), s/N))")
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _class_distance_family(A):
    """Two classes: s records at x = U' P, N - s at P (N - s U')/(N - s), with U' = Min(T, (N T - N + s)/(s T)),
    P = Max(1/(T + 1), s/N)."""
    s_ = f"({A.get('min_class', '1')})"
    u = f"Min(T, (N*T - N + {s_})/({s_}*T))"
    p = f"Max(1/(T + 1), {s_}/N)"
    return [{"count": s_, "value": f"{u}*{p}", "class": "E1"},
            {"count": f"N - {s_}", "value": f"{p}*(N - {s_}*{u})/(N - {s_})", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _class_distance_family(cert["A"])})
def upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "near": {"A on S: T*P - x >= 0": "1", "A on the rest: T*(1 - x) - (1 - P) >= 0": "1"},
        "far": {"other classes: T*N*P - T*e*x - (N - e)*P >= 0": "1",
                "A on the rest: T*(1 - x) - (1 - P) >= 0": "N - e_", "e - s >= 0": "T - 1"}}}
