"""``kind: math`` claims that the optimum of a transportation linear program is convex in a marginal
(``linear_program:``), for every size and every ground distance.

The data describes the program (sei2019 Definition 5, the EMD)::

    linear_program:
      size: n                      # values 1..n on each side
      cost: "dist[i, j]"           # ground distance, any numbers
      rows: "a[i]"                 # sum over j of f[i, j]
      columns: "b[j]"              # sum over i of f[i, j]
      convex_in: columns           # the marginal the claim mixes

The argument (checked with sympy's symbolic sums for a symbolic ``n``): if ``f`` is feasible for ``(a, b)`` and
``g`` for ``(a, b')``, then ``h = (1 - lam) f + lam g`` is feasible for ``(a, (1 - lam) b + lam b')`` -- its row
sums are ``a``, its column sums the mixture, it is non-negative for ``0 <= lam <= 1`` (z3) -- and its cost is
``(1 - lam) cost(f) + lam cost(g)``. Taking ``f``, ``g`` optimal, the optimum at the mixture is at most the mixture
of the optima: the claim, for every ``n`` and every ground distance. The claim's ``instantiations`` (if any) are
judged as well by the generic formula checker, as a cross-check.
"""

from __future__ import annotations

import functools

import sympy

from implgraph.checks.common import claim_symbols, claim_verdict, condition_in
from implgraph.checks.math_claims import check_math
from implgraph.core.indexed import read_cost
from implgraph.core.region import Region
from implgraph.core.verdict import checker
from implgraph.engines.set_channel_certificates import transport_certificate

__all__ = ["check_lp_convexity", "lp_convex_in_marginal", "lp_certificate"]


def _is_lp(claim) -> bool:
    return isinstance(claim.get("linear_program"), dict)


def _split(expr):
    """``expr`` with every symbolic sum split over its terms and its constant factors pulled out."""
    return sympy.expand(sympy.expand(expr).replace(
        lambda x: isinstance(x, sympy.Sum),
        lambda x: sympy.factor_terms(sympy.Sum(sympy.expand(x.function), *x.limits).expand())))


def _linear(total, parts) -> bool:
    """``total - sum(c * s for c, s in parts) == 0`` by the linearity of symbolic sums."""
    return _split(total) - _split(sum(c * s for c, s in parts)) == 0


def lp_convex_in_marginal(spec) -> dict:
    """The argument's steps for a transportation program ``spec`` (True where sympy/z3 shows them)."""
    return dict(_steps(tuple(sorted((str(k), str(v)) for k, v in spec.items()))))


@functools.lru_cache(maxsize=None)
def _steps(items) -> tuple:
    spec = dict(items)
    n = sympy.Symbol(str(spec.get("size", "n")), integer=True, positive=True)
    i, j = sympy.symbols("i j", integer=True, positive=True)
    lam = sympy.Symbol("lam", real=True)
    f, g = sympy.IndexedBase("f"), sympy.IndexedBase("g")
    names = {"i": i, "j": j, "n": n}
    for base in ("dist", "a", "b"):
        names[base] = sympy.IndexedBase(base)
    cost = read_cost(str(spec.get("cost", "dist[i, j]")), names)
    h = (1 - lam) * f[i, j] + lam * g[i, j]
    # summing over fixed_axis gives the marginal both programs share, over mixed_axis the one the claim mixes
    fixed_axis, mixed_axis = (j, i) if str(spec.get("convex_in", "columns")) == "columns" else (i, j)

    def linear(expr, *axes):
        return _linear(sympy.Sum(expr * h, *axes), [(1 - lam, sympy.Sum(expr * f[i, j], *axes)),
                                                    (lam, sympy.Sum(expr * g[i, j], *axes))])

    steps = {"h's sums on the shared side are the shared marginal": linear(1, (fixed_axis, 1, n)),
             "h's sums on the mixed side are the mixture of the marginals": linear(1, (mixed_axis, 1, n)),
             "h's cost is the mixture of the costs": linear(cost, (i, 1, n), (j, 1, n))}
    x, y = sympy.symbols("x y", real=True)
    region = Region({x: "real", y: "real", lam: "real"}, (x >= 0, y >= 0, lam >= 0, lam <= 1))
    steps["h >= 0 for f, g >= 0 and lam in [0, 1]"] = region.decide((1 - lam) * x + lam * y >= 0) is True
    return tuple(steps.items())


def lp_certificate(claim):
    """The argument as a ``transport-mixture`` certificate for implgraph.certify (None where the claim's formula is not
    ``mixed <= (1 - lam) D1 + lam D2``, the mixture the argument takes)."""
    names, kinds = claim_symbols(claim)
    conds = [condition_in(claim, t, names) for t in claim.get("when") or []]
    lam = names.get("lam", sympy.Symbol("lam", real=True))
    return transport_certificate(kinds, conds, condition_in(claim, claim.get("formula"), names), lam,
                                 claim["linear_program"].get("convex_in", "columns"))


@checker("math", when=_is_lp)
def check_lp_convexity(claim, context=None):
    """Prove the convexity of a transportation program's optimum in a marginal (every size, every cost)."""
    steps = lp_convex_in_marginal(claim["linear_program"])
    summary = "; ".join(f"{k}: {'proved' if v else 'not shown'}" for k, v in steps.items())
    cross = ""
    if claim.get("instantiations"):
        inst = check_math(claim, context)
        cross = f"; the instantiations: {inst.verdict}"
        if inst.verdict == "refuted":
            return inst
    cert = lp_certificate(claim) if all(steps.values()) else None
    if cert is not None:
        return claim_verdict(claim, "proved", evidence=f"for every size n and every ground distance: {summary} "
                                                   f"(feasible h, so the optimum at the mixture is at most "
                                                   f"the mixture of the optima){cross}",
                             details={"certificate": cert})
    if all(steps.values()):     # the argument bounds D at the mixture (1 - lam, lam): not what the formula says
        summary += "; the claim's formula is not 'D at the mixture <= (1 - lam) D1 + lam D2', which the argument gives"
    return claim_verdict(claim, "unknown", evidence=f"{summary}{cross}")
