"""Pieces several arguments' certificate parts share: the domain of two classes, the mass identities' multipliers,
the family of blocks whose A level is exactly T, a lemma without data."""

from __future__ import annotations

import sympy

from implgraph.core.simplified import simplified
from implgraph.prover.answer import T

__all__ = ["tail_param", "said", "lemma_only", "level_T", "level_T_family", "set_mass_multipliers", "distance_mass_multipliers",
           "two_classes", "certificate_size"]


def lemma_only(lemma):
    """``upper(cert, ctx)`` citing ``lemma`` without data."""
    def upper(cert, ctx):
        cert["upper_certificate"] = {"lemma": lemma}
    return upper


def certificate_size(cert, ctx):
    """A's subset size as the certificate states it, read with N and the bound's own symbols (a parameter's, e.g. the
    matrix's k1)."""
    from implgraph.core.formula import parse_expr
    names = {s.name: s for s in ctx.bound.upper.free_symbols}
    return parse_expr(cert["A"]["size"], {**names, "N": ctx.N})


def level_T_family(side, N):
    """Blocks whose A level is exactly T: the bucket-1 values of a subset level of size j (j records
    at c, N - j at c r with mean c T), of a class level with classes of >= s records (the same two
    blocks with j = s, each block a class: 2 s <= N, so the class of N - s records has the mean of
    the s largest) or of a pairwise level (one record at 1/(T+1), the rest at T/(T+1))."""
    if side["family"] in ("subset", "class"):
        j = sympy.sympify(side["size"] if side["family"] == "subset" else side.get("min_class", "1"),
                          locals={"N": N})
        r = (N * T - j) / (N - j)
        c = (N - j) / (N * (T + 1) - j)
        return [{"count": str(j), "value": str(simplified(c)), "class": "E1"},
                {"count": str(N - j), "value": str(simplified(c * r)), "class": "E2"}]
    return [{"count": "1", "value": str(1 / (T + 1)), "class": "E1"},
            {"count": str(N - 1), "value": str(T / (T + 1)), "class": "E2"}]


def level_T(cert, ctx):
    """The tightness family of an argument with U = T: :func:`level_T_family` of A's side."""
    return {"blocks": level_T_family(cert["A"], ctx.N)}


def set_mass_multipliers(s_):
    """The kernel's ``set-mass`` identity ``N e - s L = N (e - s) + s (N - L)`` (also ``class-size``'s, s = T)."""
    return {"e - s >= 0": "N", "N - L >= 0": f"({s_})"}


def distance_mass_multipliers():
    """The distance lemmas' *mass* identity ``(N - s) - N (x - P) = (N P - e x) + (N - e)(1 - x) + (e - s)``
    (``same-distance``, ``one-sided-distance``, ``class-size``)."""
    return {"other records on S: N*P - e*x >= 0": "1", "1 - x >= 0": "N - e_", "e - s >= 0": "1"}


def two_classes(cert, s_):
    """The domain of a partition into >= 2 classes of >= s records: s >= 1 and 2 s <= N."""
    cert["domain"] += [f"({s_}) >= 1", f"2*({s_}) <= N"]


def uniform_family(A, ctx):
    """s records uniform over m values in class E1, N - s uniform over m other values in E2 (2 m buckets; s A's
    smallest class; :mod:`implgraph.prover.attained`): m the fewest values meeting T where A's level is a uniform
    class's (:func:`implgraph.definitions.class_bounds.uniform_values`; the family's ``domain`` adds where that
    number exists), m = l where A's level is a tail ratio with parameter l (level 1 there)."""
    from implgraph.definitions.class_bounds import uniform_values
    s_ = sympy.sympify(A.get("min_class", "1"), locals={"N": ctx.N})
    if A.get("tail_ratio"):
        m, where = f"({A['tail_ratio']})", sympy.true
    else:
        m, where = uniform_values(ctx.a, T)
    if s_ != 1:     # two classes of >= s records
        where = sympy.And(where, 2 * s_ <= ctx.N)
    fam = {"uniform_blocks": [{"count": str(s_), "values": str(m), "class": "E1"},
                              {"count": str(ctx.N - s_), "values": str(m), "class": "E2"}]}
    if where is not sympy.true:
        # (in sympy's canonical order: the order of an And's arguments may differ from one process to the next)
        fam["domain"] = [str(c) for c in sorted(sympy.And.make_args(where), key=sympy.default_sort_key)]
    return fam


def tail_param(ctx):
    """A's declared tail ratio's parameter l (``TailRatio``: recursive (c,l)-diversity's l) where it is an integer
    >= 1 at A's parameters, else None."""
    from implgraph.definitions.capabilities import TailRatio
    declared = ctx.a.declared(TailRatio)
    if declared is None or declared.param not in (ctx.a_params or {}):
        return None
    value = sympy.sympify(ctx.a_params[declared.param])
    return value if value.is_Integer and value >= 1 else None


def said(expr) -> str:
    """An expression as an argument's text says it: a Piecewise piece by piece ("e1 where c1; e2 elsewhere"), so that no
    Python-looking ``(e, True)`` reaches a reader."""
    if not isinstance(expr, sympy.Piecewise):
        return str(expr)
    pieces = [f"{e} where {c}" if c is not sympy.true else (f"{e} elsewhere" if k else str(e))
              for k, (e, c) in enumerate(expr.args)]
    return "; ".join(pieces)
