"""Certificates of the prover's "proved": the data an independent checker needs (issue 12).

:func:`certificate` turns an argument of :mod:`implgraph.engines.bounds` into JSON that
:mod:`implgraph.certify` re-checks without the prover: the two sides described by their
declarations (family, sides, subset size or class sizes), the domain (the claim's condition in
terms of A's raw level T), the upper bound U (raw), the method's own data (multipliers of the
``product`` argument) and, when U is tight, a table family of blocks of equal binary rows,
parametric in N, T and the parameters, whose exact levels are A <= T and B = U.
"""

from __future__ import annotations

import sympy

from implgraph.engines.bounds import T, subset_size_expr
from implgraph.core.simplified import simplified

__all__ = ["certificate", "FORMAT"]

FORMAT = "implgraph-certificate/1"


def _side(d, params, classes, N):
    out = {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "family": d.family,
           "sides": getattr(d, "sides", "two-sided")}
    j = subset_size_expr(d, N, params) if d.family == "subset" else None
    if j is not None:
        out["size"] = str(j)
    if d.family == "class":
        spec = classes or {}
        out["min_class"] = str(spec.get("min_size", 1))
        if spec.get("max_size") is not None:
            out["max_class"] = str(spec["max_size"])
    return out


def _level_T_family(side, N):
    """Blocks whose A level is exactly T: the bucket-1 values of a subset level of size j (j records
    at c, N - j at c r with mean c T) or of a pairwise level (one record at 1/(T+1), the rest at
    T/(T+1))."""
    if side["family"] == "subset":
        j = sympy.sympify(side["size"], locals={"N": N})
        r = (N * T - j) / (N - j)
        c = (N - j) / (N * (T + 1) - j)
        return [{"count": str(j), "value": str(simplified(c)), "class": "E1"},
                {"count": str(N - j), "value": str(simplified(c * r)), "class": "E2"}]
    return [{"count": "1", "value": str(1 / (T + 1)), "class": "E1"},
            {"count": str(N - 1), "value": str(T / (T + 1)), "class": "E2"}]


def _vertex_family(B, N):
    size = sympy.sympify(B.get("size") or B.get("min_class"), locals={"N": N})
    return [{"count": str(size), "value": str(1 / (T + 1)), "class": "E1"},
            {"count": str(N - size), "value": str(T / (T + 1)), "class": "E2"}]


def _product_family(N):
    """The table of the ``product`` argument: one record at the minimum, one at the maximum r times
    larger, N - 2 at a middle value y (scaled by sc)."""
    r = sympy.Min(T ** 2, N * (T - 1) + 1)
    mean = sympy.Max(r / T, (r + N - 1) / N)
    sc = (T - 1) / (T * r + T * mean)
    y = (N * mean - 1 - r) / (N - 2)
    return [{"count": "1", "value": str(sc)}, {"count": str(N - 2), "value": str(sc * y)},
            {"count": "1", "value": str(sc * r)}]


def _vertex_multipliers(B, N):
    """``U den - num`` of each vertex ratio as a nonnegative combination of the vertex facts
    (:mod:`implgraph.certify.kernel`), d = T - 1: e.g. for ``mean_S/mean_D`` with subset size j,
    d N j (m - u) + d N (N - j)(j - u) + d^2 j (N - j) m, and m = (m - u) + u."""
    d = T - 1
    if B["family"] == "subset":
        j = sympy.sympify(B["size"], locals={"N": N})
        out = {"mean_S/mean_D": {"m-u>=0": d * N * j + d ** 2 * j * (N - j), "j-u>=0": d * N * (N - j),
                                 "u>=0": d ** 2 * j * (N - j)},
               "mean_D/mean_S": {"u>=0": N * (N - j) * d + N * (N - j) * d ** 2, "N-j-(m-u)>=0": N * j * d}}
    else:
        k = sympy.sympify(B["min_class"], locals={"N": N})
        e = sympy.Symbol("e_", real=True)
        out = {"mean_S/mean_D": {"v>=0": d * N * e + d ** 2 * e * (N - k), "e-u>=0": d * N * (N - e),
                                 "e-k>=0": d * N * e, "u>=0": d ** 2 * e * (N - k)},
               "mean_D/mean_S": {"u>=0": N * d * (N - e) + N * (N - k) * d ** 2, "N-e-v>=0": N * d * e,
                                 "e-k>=0": N * d * e}}
    return {r: {f: str(sympy.expand(x)) for f, x in m.items()} for r, m in out.items()}


def _product_multipliers(U, N):
    """For each component c of U = Min(T^2, N (T - 1) + 1): c a - b as a nonnegative combination of
    the facts b <= T m, m <= T a, N m >= b + (N - 1) a (named as in :mod:`implgraph.certify.kernel`)."""
    out = []
    for c in (U.args if isinstance(U, sympy.Min) else (U,)):
        if simplified(c - T ** 2) == 0:
            out.append({"max<=T*mean": "1", "mean<=T*min": str(T)})
        elif simplified(c - (N * (T - 1) + 1)) == 0:
            out.append({"mean>=extremes": "1", "mean<=T*min": str(N)})
        else:
            out.append({})
    return out


def _assumptions(kinds):
    """The symbols' sign assumptions as domain conditions (the certificate's symbols carry only a kind)."""
    out = []
    for s in sorted(kinds, key=str):
        if s.is_positive:
            out.append(f"{s} >= 1" if s.is_integer else f"{s} > 0")
        elif s.is_nonnegative:
            out.append(f"{s} >= 0")
    return out


def certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The JSON certificate of ``bound`` (a :class:`implgraph.engines.bounds.Bound`) for A => B.

    ``region`` is the claim's condition in terms of T with the parameter ranges; its symbols' kinds
    become the certificate's ``symbols``.
    """
    syms = dict(region.kinds)
    for e in [*a_params.values(), *b_params.values(), *(a_classes or {}).values(), *(b_classes or {}).values()]:
        for s in sympy.sympify(e).free_symbols:
            syms.setdefault(s, "integer" if s.is_integer else "real")
    kinds = {str(s): k for s, k in syms.items()}
    kinds.setdefault("N", "integer")
    kinds["T"] = "real"
    A = _side(a, a_params, a_classes, N)
    B = _side(b, b_params, b_classes, N)
    if b.family == "class" and not b_classes:
        B["min_class"] = "1"
    cert = {"format": FORMAT, "method": bound.method, "symbols": kinds,
            "domain": _assumptions(syms) + [str(c) for c in region.constraints if c not in (sympy.true, True)],
            "A": A, "B": B, "upper": str(bound.upper), "tight": bool(bound.tight),
            "argument": bound.argument}
    if bound.method == "product":
        cert["upper_certificate"] = {"lemma": "extremes-and-mean",
                                     "multipliers": _product_multipliers(bound.upper, N)}
    elif bound.method == "vertex":
        cert["upper_certificate"] = {"lemma": "linear-fractional-vertex", "multipliers": _vertex_multipliers(B, N)}
    else:
        cert["upper_certificate"] = {"lemma": {"same-level": "same-level", "subset-monotone": "extreme-means-monotone",
                                               "subset-to-classes": "class-mean-between-extremes",
                                               "vertex": "linear-fractional-vertex"}.get(bound.method, bound.method)}
    if bound.tight:
        fam = None
        if bound.method in ("same-level", "subset-monotone", "subset-to-classes"):
            fam = {"blocks": _level_T_family(A, N)}
        elif bound.method == "vertex":
            fam = {"blocks": _vertex_family(B, N)}
        elif bound.method == "product":
            fam = {"blocks": _product_family(N), "singleton_classes": a.family == "class"}
        cert["tightness"] = fam
    else:
        cert["tightness"] = None
        cert["tightness_note"] = "U is an upper bound only; the prover does not claim it is attained"
    return cert
