"""``one-sided-class``: the other classes bound a class from below (docs/arguments/one-sided-class.md).

A a two-sided class level, B a one-sided class level, on the same partition (classes of >= s records, no maximum):
for a class E of e records with mean x against the table's mean p, A gives x <= T p and every other class's mean >=
p/T, so N p >= e x + (N - e) p/T and x/p <= (N T - N + e)/(e T) <= (N T - N + s)/(s T).
``U = Min(T, (N T - N + s)/(s T))``, tight: a binary table of two classes (s records at U c, N - s at
c (N - s U)/(N - s), c = (T - 1)/(T (T + 1))).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, decide, one_sided, same_partition
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.ONE_SIDED_CLASS


def _applies(ctx):
    return compares(ctx.a, "class") and one_sided(ctx.b, "class") and same_partition(ctx.a_classes, ctx.b_classes)


@argument(METHOD, order=90, applies=_applies)
def bound(ctx):
    return final(one_sided_class_bound(sympy.sympify(ctx.b_classes["min_size"]), ctx.region, ctx.N))


def one_sided_class_upper(s, N):
    """``U = Min(T, (N T - N + s)/(s T))`` of the ``one-sided-class`` argument (raw levels)."""
    return sympy.Min(T, (N * T - N + s) / (s * T))


def one_sided_class_bound(s, region, N):
    """The bound (module notes); None where the solver does not confirm its step."""
    y_, e_ = sympy.symbols("y_ e_", positive=True)
    U2 = (N * T - N + s) / (s * T)
    # p = 1 (ratios are scale free): E's mean x, the rest's mean y >= 1/T, N = e x + (N - e) y
    reg = region.with_symbols({y_: "real", e_: "real"}).add(
        e_ >= s, e_ <= N - s, T * y_ >= 1, y_ >= 0, N - (N - e_) * y_ >= 0)
    c = decide(reg, sympy.Le((N - (N - e_) * y_) / e_, U2))
    checks = [f"x/p <= (N T - N + s)/(s T) given the rest's mean >= p/T: {c}"]
    if c is not True:
        return None
    U = one_sided_class_upper(s, N)

    def build(point):
        Tv, Nv, sv = at(point, N, s)
        Uv = min(Tv, (Nv * Tv - Nv + sv) / (sv * Tv))
        cv = (Tv - 1) / (Tv * (Tv + 1))
        vals = [Uv * cv] * sv + [cv * (Nv - sv * Uv) / (Nv - sv)] * (Nv - sv)
        return binary_column_table([frac(v) for v in vals], labels=["E1"] * sv + ["E2"] * (Nv - sv))

    arg = (f"A is a two-sided class level, B a one-sided one, on the same partition (classes of >= {s} records): "
           "a class E of e records has mean x <= T p (A) and every other class a mean >= p/T (A), so "
           "N p >= e x + (N - e) p/T and x/p <= (N T - N + e)/(e T) <= (N T - N + s)/(s T) (z3); "
           f"U = {U} is attained by a binary table of two classes ({s} records at U c, the rest at "
           "c (N - s U)/(N - s), c = (T - 1)/(T (T + 1)))")
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _rest_mass_family(A, upper):
    """Two classes: s records at U c, N - s at c (N - s U)/(N - s), c = (T - 1)/(T (T + 1))."""
    s_ = A.get("min_class", "1")
    c = "(T - 1)/(T*(T + 1))"
    return [{"count": f"{s_}", "value": f"({upper})*{c}", "class": "E1"},
            {"count": f"N - ({s_})", "value": f"{c}*(N - ({s_})*({upper}))/(N - ({s_}))", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _rest_mass_family(cert["A"], cert["upper"])})
def upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "below T": {"A: T*e - e*x >= 0": "1"},
        "rest": {"e - s >= 0": "N*(T - 1)", "T*y - 1 >= 0": f"({s_})*(N - e_)"}}}
