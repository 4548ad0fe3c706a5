"""``same-distance``: A and B declare the same class distance, on the same partition
(docs/arguments/same-distance.md).

Both declare the total variation distance of a class from the table (EMD and hierarchical EMD with the equal ground
distance) at their parameters, on classes of >= s records (no maximum): B's raw level is A's on every table, and no
class is farther than (N - s)/N from the table (its mass x on the buckets S where it lies above the table, less the
table's P >= e x/N). ``U = Min(T, (N - s)/N)``, tight: s records at (1, 0) in one class, the rest at (v, 1 - v) with
v = 1 - N U/(N - s).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import distance_mass_multipliers, two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import smaller_alone
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.SAME_DISTANCE


def _applies(ctx):
    return ctx.a_distance == "total-variation" and ctx.a_distance == ctx.b_distance \
        and (ctx.a_classes or {"min_size": sympy.Integer(1)}) == ctx.b_classes and not (ctx.b_classes or {}).get("max_size")


@argument(METHOD, order=40, applies=_applies)
def bound(ctx):
    return final(same_distance_bound(sympy.sympify(ctx.b_classes["min_size"]), ctx.region, ctx.N, ctx.a_distance))


def same_distance_bound(s, region, N, distance):
    """The bound (module notes); None where the identity fails."""
    # the identity of the argument: E's mass x and the table's P on S, e records in E
    x_, P_, e_ = sympy.symbols("x_ P_ e_")
    ok = sympy.expand((N - s) - N * (x_ - P_) - ((N * P_ - e_ * x_) + (N - e_) * (1 - x_) + (e_ - s))) == 0
    checks = [f"N (x - P) <= N - s from the other records' mass >= 0, x <= 1 and e >= s (identity): {ok}"]
    if not ok:
        return None
    U = smaller_alone(sympy.Min(T, (N - s) / N), region)

    def build(point):
        Tv, Nv, sv = at(point, N, s)
        Uv = min(Tv, sympy.Rational(Nv - sv, Nv))
        v = 1 - Nv * Uv / (Nv - sv)
        return binary_column_table([frac(1)] * sv + [frac(v)] * (Nv - sv),
                                   labels=["E1"] * sv + ["E2"] * (Nv - sv))

    arg = (f"A and B declare the same class distance ({distance}) at their parameters, on the same partition "
           f"(classes of >= {s} records): on every table B's raw level is A's, so U <= T; and for a class E of e "
           "records and the buckets S where E lies above the table (E's mass x on S, the table's P), the other "
           "records hold N P - e x >= 0 on S, so N (x - P) <= (N - e) x <= N - s (multipliers 1, N - e, 1): "
           f"U = {U}, attained by s records at (1, 0) in one class and the rest at (v, 1 - v), "
           "v = 1 - N U/(N - s), in another")
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _same_distance_family(B):
    """s records at (1, 0) in class E1, N - s at (v, 1 - v) in E2 with v = 1 - N U/(N - s), U = Min(T, (N - s)/N)."""
    s_ = f"({B.get('min_class', '1')})"
    return [{"count": s_, "value": "1", "class": "E1"},
            {"count": f"N - {s_}", "value": f"1 - N*Min(T, (N - {s_})/N)/(N - {s_})", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _same_distance_family(cert["B"])})
def upper_certificate(cert, ctx):
    s_ = cert["B"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {"mass": distance_mass_multipliers()}}
