"""Composition of two proved bounds: A => C with h, C => B with g, hence A => B with g(h).

The first part says that every table whose A raw level is at most T has C's raw level at most h(T); the
second, for every threshold t >= C's most private raw level (and the claim's conditions on N and the
parameters, nothing else on t), that every table whose C raw level is at most t has B's raw level at most
g(t). A table with A <= T has C <= h(T), so (taking t = h(T), which is at least C's own level, hence at
least C's most private level) B <= g(h(T)). No monotonicity of g is needed: the second part holds at every
threshold. The composed bound is an upper bound only; its tightness is not derived.

The intermediate C is any registered definition without parameters or classes whose raw levels are
bounded from above (smaller is stronger), other than A and B, tried in the registry's order; the first
whose two parts are both proved by a direct argument (:func:`implgraph.engines.bounds.tight_bound`, each
part a single certificate) gives the bound. Nothing is composed further (one intermediate).
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.core import methods
from implgraph.core.region import Region
from implgraph.core.simplified import simplified
from implgraph.engines.bounds import T, Bound, decide, lowest_raw, tight_bound

__all__ = ["composed_bound", "part_region"]


def part_region(region, c):
    """The second part's region: the claim's conditions that do not mention T, and T >= C's most private level."""
    kept = [x for x in region.constraints if T not in sympy.sympify(x).free_symbols]
    return Region(region.kinds, tuple(kept)).add(sympy.Ge(T, lowest_raw(c)))


def _single(bound):
    """The part's bound as one certificate: the bound itself (no pieces), else None."""
    if bound is None or bound.parts or bound.method in (methods.MIN.name, methods.CHAIN.name):
        return None
    return bound


def _candidates(a, b):
    for name in definitions.names():
        c = definitions.get(name)
        if c.name in (a.name, b.name) or c.params or c.needs_classes or c.stronger != "smaller":
            continue
        yield c


def composed_bound(a, b, a_params, b_params, region, N, a_classes=None, b_classes=None):
    """A :class:`Bound` of method ``composition`` (parts: A => C and C => B; ``via`` C), or None."""
    for c in _candidates(a, b):
        first = _single(tight_bound(a, c, a_params, {}, region, N, a_classes, None))
        if first is None:
            continue
        inner = part_region(region, c)
        second = _single(tight_bound(c, b, {}, b_params, inner, N, None, b_classes))
        if second is None:
            continue
        if decide(region, sympy.Ge(first.upper, lowest_raw(c))) is not True:
            continue
        upper = simplified(second.upper.subs(T, first.upper))
        arg = (f"A => {c.name} ({first.method}): {first.argument}; then {c.name} => B ({second.method}), at every "
               f"threshold of {c.name}'s raw level: {second.argument}; a table with A's raw level <= T has {c.name}'s "
               f"<= h(T) = {first.upper}, so B's raw level <= g(h(T)) = {upper} (an upper bound; tightness not "
               "derived)")
        return Bound(upper, False, methods.COMPOSITION.name, arg, checks=first.checks + second.checks,
                     parts=[(sympy.true, first), (sympy.true, second)], via=c)
    return None
