"""``one-sided-distance``: a class's distance under a one-sided class ratio (docs/arguments/one-sided-distance.md).

A a one-sided class level (basic beta-likeness: every class at most T times the table in each bucket), B a class's
total variation distance from the table, on the same partition (classes of >= s records, no maximum). For a class E of
e records, the buckets S where E lies above the table, E's mass x and the table's P on S: x <= T P (a mediant of
one-sided ratios), the other classes hold at most T (1 - P) each on the complement, so
(T - 1)(N - e)(1 - P) >= e (x - P), and x <= 1, N P >= e x. ``U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N)``, tight:
s records at x = Min(1, T (N - s)/N) in one class, the rest at (N (x - U) - s x)/(N - s) in another.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import distance_mass_multipliers, two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import one_sided, same_partition
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.ONE_SIDED_DISTANCE


def _applies(ctx):
    return one_sided(ctx.a, "class") and ctx.b_distance == "total-variation" \
        and same_partition(ctx.a_classes, ctx.b_classes)


@argument(METHOD, order=110, applies=_applies)
def bound(ctx):
    return final(one_sided_distance_bound(sympy.sympify(ctx.b_classes["min_size"]), ctx.N))


def one_sided_distance_bound(s, N):
    """The bound (module notes); None where an identity fails."""
    x_, P_, e_ = sympy.symbols("x_ P_ e_")
    h1, h3, h4, h5 = T * P_ - x_, 1 - x_, N * P_ - e_ * x_, e_ - s
    h2 = (T - 1) * (N - e_) * (1 - P_) - e_ * (x_ - P_)
    near = sympy.expand((T - 1) - T * (x_ - P_) - (h1 + (T - 1) * h3)) == 0
    spread = sympy.expand((N - s) * (T - 1) - N * (x_ - P_) - ((N - e_) * h1 + h2 + (T - 1) * h5)) == 0
    mass = sympy.expand((N - s) - N * (x_ - P_) - (h4 + (N - e_) * h3 + h5)) == 0
    checks = [f"T (x - P) <= T - 1 from x <= T P and x <= 1 (identity): {near}",
              f"N (x - P) <= (N - s)(T - 1) from x <= T P and the other classes on the complement (identity): {spread}",
              f"N (x - P) <= N - s from the other records' mass >= 0 and x <= 1 (identity): {mass}"]
    if not (near and spread and mass):
        return None
    U = sympy.Min((N - s) * (T - 1) / N, (T - 1) / T, (N - s) / N)

    def build(point):
        Tv, Nv, sv = at(point, N, s)
        Uv = min(sympy.Rational((Nv - sv), Nv) * (Tv - 1), (Tv - 1) / Tv, sympy.Rational(Nv - sv, Nv))
        x = min(sympy.Integer(1), Tv * (Nv - sv) / Nv)
        y = (Nv * (x - Uv) - sv * x) / (Nv - sv)
        return binary_column_table([frac(x)] * sv + [frac(y)] * (Nv - sv), labels=["E1"] * sv + ["E2"] * (Nv - sv))

    arg = (f"A is a one-sided class level, B a class's total variation distance from the table, on the same partition "
           f"(classes of >= {s} records): for a class E of e records and the buckets S where E lies above the table "
           "(E's mass x on S, the table's P), merging buckets keeps A's one-sided ratios <= T (a mediant), so x <= T P, "
           "and every other class's mass on the complement is <= T times the table's, whence "
           "(T - 1)(N - e)(1 - P) >= e (x - P); with x <= 1 and the other records' mass N P - e x >= 0: "
           "T (x - P) <= T - 1, N (x - P) <= (N - s)(T - 1) and N (x - P) <= N - s (multipliers 1, T - 1; N - e, 1, "
           f"T - 1; 1, N - e, 1): U = {U}, attained by s records at x = Min(1, T (N - s)/N) in one class and the rest "
           "at (N (x - U) - s x)/(N - s) in another")
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _one_sided_distance_family(B):
    """s records at x = Min(1, T (N - s)/N) in class E1, N - s at (N (x - U) - s x)/(N - s) in E2, with
    U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N)."""
    s_ = f"({B.get('min_class', '1')})"
    x = f"Min(1, T*(N - {s_})/N)"
    u = f"Min((N - {s_})*(T - 1)/N, (T - 1)/T, (N - {s_})/N)"
    return [{"count": s_, "value": x, "class": "E1"},
            {"count": f"N - {s_}", "value": f"(N*({x} - {u}) - {s_}*{x})/(N - {s_})", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _one_sided_distance_family(cert["B"])})
def upper_certificate(cert, ctx):
    two_classes(cert, cert["B"].get("min_class", "1"))
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "near": {"A on S: T*P - x >= 0": "1", "1 - x >= 0": "T - 1"},
        "spread": {"A on S: T*P - x >= 0": "N - e_",
                   "other classes on the rest: (T - 1)*(N - e)*(1 - P) - e*(x - P) >= 0": "1",
                   "e - s >= 0": "T - 1"},
        "mass": distance_mass_multipliers()}}
