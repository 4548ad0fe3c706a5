"""``product``: extremes and the mean of a bucket (docs/arguments/product.md).

A a subset definition of subset size 1 on the whole condition (or a class definition with singleton classes, the same
level), B pairwise: for a bucket with minimum a, maximum b and mean m, b <= T m and m <= T a give b/a <= T^2; with the
mean between (b + (N-1) a)/N and (a + (N-1) b)/N also b/a <= N(T - 1) + 1. Both are checked and
``U = Min(T^2, N (T - 1) + 1)`` is attained by an explicit table.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.definitions.capabilities import family_of
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, decide
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.PRODUCT


def _singleton_a(ctx):
    return compares(ctx.a, "class") and ctx.a_classes and sympy.sympify(ctx.a_classes.get("max_size", 0)) == 1


def _applies(ctx):
    ja = ctx.ja
    return (ja is not None and (simplified(ja - 1) == 0 or decide(ctx.region, sympy.Eq(ja, 1)) is True)
            or _singleton_a(ctx)) and compares(ctx.b, "pairwise")


@argument(METHOD, order=140, applies=_applies)
def bound(ctx):
    return final(product_bound(ctx.region, ctx.N, singleton=bool(_singleton_a(ctx))))


def product_bound(region, N, singleton=False):
    """The bound (module notes); None where the solver does not confirm b <= T^2 a."""
    a_, b_, m_ = sympy.symbols("a_ b_ m_", positive=True)
    reg = region.with_symbols({a_: "real", b_: "real", m_: "real"}).add(
        a_ > 0, a_ <= b_, b_ <= T * m_, m_ <= T * a_, b_ + (N - 1) * a_ <= N * m_, N * m_ <= a_ + (N - 1) * b_)
    c1 = decide(reg, sympy.Le(b_, T ** 2 * a_))
    c2 = decide(reg, sympy.Le(b_, (N * (T - 1) + 1) * a_))
    checks = [f"b <= T^2 a: {c1}", f"b <= (N (T - 1) + 1) a: {c2}"]
    if c1 is not True:
        return None
    U = sympy.Min(T ** 2, N * (T - 1) + 1) if c2 is True else T ** 2
    arg = ("for a bucket with minimum a, maximum b and mean m, A gives b <= T m and m <= T a, so "
           "b/a <= T^2" + ("; the mean lies between (b + (N-1) a)/N and (a + (N-1) b)/N, so also "
                           "b/a <= N (T - 1) + 1" if c2 is True else "") +
           " (both checked with z3); the bound is attained by a table with one record at a, one at b and "
           "N - 2 at a middle value" + (" (with singleton classes A's class ratio is its subset ratio of "
                                        "size 1)" if singleton else ""))
    return Bound(U, True, METHOD.name, arg, build=_product_table(N, singleton), checks=checks)


def _product_table(N, singleton):
    def build(point):
        Tv, Nv, _ = at(point, N)
        if Tv == 1:
            vals = [sympy.Rational(1, 2)] * Nv
        else:
            r = min(Tv ** 2, Nv * (Tv - 1) + 1)
            if Nv == 2:
                mean = (1 + r) / 2
                mids = []
            else:
                mean = max(r / Tv, (r + Nv - 1) / Nv)
                y = (Nv * mean - 1 - r) / (Nv - 2)
                mids = [y] * (Nv - 2)
            sc = (Tv - 1) / (Tv * r + Tv * mean)
            vals = sorted([sc] + [sc * y for y in mids] + [sc * r])
        labels = [f"E{i + 1}" for i in range(Nv)] if singleton else None
        return binary_column_table([frac(v) for v in vals], labels=labels)
    return build


def _product_family(N):
    """The table of the argument: one record at the minimum, one at the maximum r times larger, N - 2 at a middle
    value y (scaled by sc)."""
    r = sympy.Min(T ** 2, N * (T - 1) + 1)
    mean = sympy.Max(r / T, (r + N - 1) / N)
    sc = (T - 1) / (T * r + T * mean)
    y = (N * mean - 1 - r) / (N - 2)
    return [{"count": "1", "value": str(sc)}, {"count": str(N - 2), "value": str(sc * y)},
            {"count": "1", "value": str(sc * r)}]


def _product_multipliers(U, N):
    """For each component c of U = Min(T^2, N (T - 1) + 1): c a - b as a nonnegative combination of
    the facts b <= T m, m <= T a, N m >= b + (N - 1) a (named as in the checker's lemma)."""
    out = []
    for c in (U.args if isinstance(U, sympy.Min) else (U,)):
        if simplified(c - T ** 2) == 0:
            out.append({"max<=T*mean": "1", "mean<=T*min": str(T)})
        elif simplified(c - (N * (T - 1) + 1)) == 0:
            out.append({"mean>=extremes": "1", "mean<=T*min": str(N)})
        else:
            out.append({})
    return out


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _product_family(ctx.N),
                                                    "singleton_classes": family_of(ctx.a) == "class"})
def upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": _product_multipliers(ctx.bound.upper, ctx.N)}
