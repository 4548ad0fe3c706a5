"""``vertex``: a maximum of linear-fractional functions is largest at a vertex (docs/arguments/vertex.md).

A is pairwise (every bucket's values lie in a box [a, T a]); B's ratio (subset or class) is a maximum of
linear-fractional functions of each value, so its maximum over the box is at a vertex: m values T a and N - m values a.
The maximum over m (checked on the reals, m in [0, N]) is the tight ``U``: ((N - j) T + j)/N for subset size j,
(k + (N - k) T)/N for classes of size >= k, attained by a binary table (a = 1/(T+1)).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import class_level, compares, decide, one_sided
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.VERTEX


def _vertex_classes(ctx):
    # (a maximum class size other than 1 may rule out the vertex table, a class of k records and the rest
    # in classes of equal values: no argument then; with singleton classes every record is its own class)
    b_classes = ctx.b_classes
    return (class_level(ctx.b) and b_classes and b_classes.get("min_size") is not None
            and (b_classes.get("max_size") is None or sympy.sympify(b_classes["max_size"]) == 1))


@argument(METHOD, order=130, applies=lambda ctx: compares(ctx.a, "pairwise") and (ctx.jb is not None or
                                                                                   _vertex_classes(ctx)))
def bound(ctx):
    return final(vertex_bound(ctx.b, ctx.jb, ctx.b_classes, ctx.region, ctx.N))


def _subset_pieces(j, N, m):
    """U, the other side's extreme and the vertex values g(m) of a subset ratio of size j (m values T a, a = 1)."""
    U = ((N - j) * T + j) / N
    other = N * T / (j * T + N - j)
    mean = (m * T + N - m) / N
    pieces = [
        ("mean/min_j, m <= N - j", mean / 1, [m >= 0, m <= N - j]),
        ("mean/min_j, m >= N - j", mean / ((N - m + (j - N + m) * T) / j), [m >= N - j, m <= N]),
        ("max_j/mean, m >= j", T / mean, [m >= j, m <= N]),
        ("max_j/mean, m <= j", ((m * T + j - m) / j) / mean, [m >= 0, m <= j]),
    ]
    return U, other, pieces


def _class_pieces(b, k, N, e):
    """The same of a class ratio over classes of >= k records (a class E of size e at a or T a, the rest the other)."""
    U = (k + (N - k) * T) / N
    other = N * T / (k * T + N - k)
    pieces = [
        ("Pr_D/Pr_E, E at a, rest at T a", (e + (N - e) * T) / N, [e >= k, e <= N - k]),
        ("Pr_E/Pr_D, E at T a, rest at a", N * T / (e * T + N - e), [e >= k, e <= N - k]),
    ]
    if one_sided(b, "class"):      # only Pr_E / Pr_D is bounded: its extreme is U
        U, other, pieces = other, other, pieces[1:]
    return U, other, pieces


def vertex_bound(b, jb, b_classes, region, N):
    """The bound (module notes); None where the solver does not confirm a vertex value."""
    m = sympy.Symbol("m", real=True)
    checks = []
    if jb is not None:
        U, other, pieces = _subset_pieces(jb, N, m)
        what = f"subset size j = {jb}"
    else:
        k = sympy.sympify(b_classes["min_size"])
        m = sympy.Symbol("e", real=True)
        U, other, pieces = _class_pieces(b, k, N, m)
        what = f"classes of size >= {k}" + (", one-sided" if one_sided(b, "class") else "")
    ok_all = True
    for label, g, dom in pieces:
        reg = region.with_symbols({m: "real"}).add(*dom)
        r = decide(reg, sympy.Le(sympy.together(g - U), 0))
        checks.append(f"{label} <= U: {r}")
        if r is not True:
            ok_all = False
    r = decide(region, sympy.Ge(U, other))
    checks.append(f"U >= the other side's extreme {other}: {r}")
    if not ok_all:
        return None
    arg = (f"A is pairwise: every bucket's values lie in [a, T a]. B's ratio ({what}) is a maximum of "
           f"linear-fractional functions of each value, so its maximum over the box is at a vertex "
           f"(m values T a, N - m values a); z3 checked that every vertex value is at most "
           f"U = {simplified(U)} (m real in [0, N]) and that U dominates the other ratio; U is attained "
           f"by a binary table with a = 1/(T + 1)")
    return Bound(simplified(U), True, METHOD.name, arg, build=_vertex_table(jb, b_classes, N), checks=checks)


def _vertex_table(jb, b_classes, N):
    def build(point):
        Tv, Nv, _ = at(point, N)
        a = sympy.Rational(1) / (Tv + 1)
        if jb is not None:
            jv = int(sympy.sympify(jb).subs(point))
            vals = [a] * jv + [Tv * a] * (Nv - jv)
            return binary_column_table([frac(v) for v in vals])
        kv = int(sympy.sympify(b_classes["min_size"]).subs(point))
        vals = [a] * kv + [Tv * a] * (Nv - kv)
        return binary_column_table([frac(v) for v in vals], labels=["E1"] * kv + ["E2"] * (Nv - kv))
    return build


def _vertex_family(B, N):
    size = sympy.sympify(B.get("size") or B.get("min_class"), locals={"N": N})
    return [{"count": str(size), "value": str(1 / (T + 1)), "class": "E1"},
            {"count": str(N - size), "value": str(T / (T + 1)), "class": "E2"}]


def _vertex_multipliers(B, N):
    """``U den - num`` of each vertex ratio as a nonnegative combination of the vertex facts (the checker's lemma),
    d = T - 1: e.g. for ``mean_S/mean_D`` with subset size j, d N j (m - u) + d N (N - j)(j - u) + d^2 j (N - j) m,
    and m = (m - u) + u."""
    d = T - 1
    if B["family"] == "subset":
        j = sympy.sympify(B["size"], locals={"N": N})
        out = {"mean_S/mean_D": {"m-u>=0": d * N * j + d ** 2 * j * (N - j), "j-u>=0": d * N * (N - j),
                                 "u>=0": d ** 2 * j * (N - j)},
               "mean_D/mean_S": {"u>=0": N * (N - j) * d + N * (N - j) * d ** 2, "N-j-(m-u)>=0": N * j * d}}
    else:
        k = sympy.sympify(B["min_class"], locals={"N": N})
        e = sympy.Symbol("e_", real=True)
        u = sympy.Symbol("u_", real=True)
        if B.get("sides") == "one-sided":
            # U = N T/(k T + N - k): N [d (N - e)(e - u) + (d e + d^2 u)(e - k) + (d e + d^2 e) v]
            out = {"mean_S/mean_D": {"e-u>=0": N * d * (N - e), "e-k>=0": N * d * e + N * d ** 2 * u,
                                     "v>=0": N * d * e + N * d ** 2 * e}}
            return {r: {f: str(sympy.expand(x)) for f, x in m.items()} for r, m in out.items()}
        out = {"mean_S/mean_D": {"v>=0": d * N * e + d ** 2 * e * (N - k), "e-u>=0": d * N * (N - e),
                                 "e-k>=0": d * N * e, "u>=0": d ** 2 * e * (N - k)},
               "mean_D/mean_S": {"u>=0": N * d * (N - e) + N * (N - k) * d ** 2, "N-e-v>=0": N * d * e,
                                 "e-k>=0": N * d * e}}
    return {r: {f: str(sympy.expand(x)) for f, x in m.items()} for r, m in out.items()}


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _vertex_family(cert["B"], ctx.N)})
def upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": _vertex_multipliers(cert["B"], ctx.N)}
