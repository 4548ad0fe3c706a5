"""The chord of a convex phi: B's bound where A confines every compared ratio r to [lo, hi] (the chord argument,
:mod:`implgraph.prover.arguments.chord`, whose module notes give the proof; docs/arguments/chord.md): ``chord_upper``
is L phi(hi) + (1 - L) phi(lo) as B's divergence, read here by the chord argument and by the removal helpers
(:mod:`implgraph.prover.removal_supremum`, :mod:`implgraph.prover.removal_record_class`).
"""

from __future__ import annotations

import functools

import sympy

__all__ = ["convex_on", "phi_at", "chord_upper"]

_R = sympy.Symbol("r", positive=True)


def convex_on(phi, lo, hi) -> bool | None:
    """Three-valued: is ``phi`` (in r) convex on [lo, hi]? A maximum of functions affine in r is; otherwise the sign
    of phi'' for r > 0 (sympy's assumptions: True, False or None)."""
    if isinstance(phi, sympy.Max) or (phi.is_Mul and any(isinstance(x, sympy.Max) for x in phi.args)):
        maxes = [x for x in ([phi] if isinstance(phi, sympy.Max) else phi.args) if isinstance(x, sympy.Max)]
        scale = sympy.simplify(phi / maxes[0])
        affine = all(sympy.Poly(arg, _R).degree() <= 1 for arg in maxes[0].args)
        return bool(affine and scale.is_nonnegative)
    return sympy.simplify(sympy.diff(phi, _R, 2)).is_nonnegative


def phi_at(phi, value):
    """phi at a point of [lo, hi], by continuity at 0 (0 log 0 = 0)."""
    return sympy.limit(phi, _R, 0, "+") if value == 0 else phi.subs(_R, value)


@functools.lru_cache(maxsize=256)
def chord_upper(div, lo, hi):
    """B's bound: the divergence of the chord's value ``L phi(hi) + (1 - L) phi(lo)``, L = (1 - lo)/(hi - lo), for
    lo <= 1 <= hi (a maximum in phi is resolved there: hi = T = 1 + u, u >= 0)."""
    from implgraph.prover.answer import T
    if div.kind == "renyi" and div.order is sympy.oo:
        return sympy.log(hi)
    phi = div.phi(_R)
    L = sympy.cancel((1 - lo) / (hi - lo))
    mean = L * phi_at(phi, hi) + (1 - L) * phi_at(phi, lo)
    if mean.has(sympy.Max):
        u = sympy.Symbol("u", nonnegative=True)
        shift = {T: 1 + u}
        n = next((x for x in mean.free_symbols if x.name == "N"), None)
        if n is not None:       # an interval in N too (N >= 2: N = 2 + v, v >= 0 an integer)
            v = sympy.Symbol("v", integer=True, nonnegative=True)
            shift[n] = 2 + v
        mean = sympy.simplify(mean.subs(shift))
        mean = mean.subs({u: T - 1, **({v: n - 2} if n is not None else {})})
    mean = sympy.factor(sympy.cancel(mean))
    return sympy.simplify(div.from_phi_mean(mean)) if div.kind != "renyi" else div.from_phi_mean(mean)
