"""``composition``: A => C with h, C => B with g, hence A => B with g(h) (docs/arguments/composition.md).

The first part says that every table whose A raw level is at most T has C's raw level at most h(T); the
second, for every threshold t >= C's most private raw level (and the claim's conditions on N and the
parameters, nothing else on t), that every table whose C raw level is at most t has B's raw level at most
g(t). A table with A <= T has C <= h(T), so (taking t = h(T), which is at least C's own level, hence at
least C's most private level) B <= g(h(T)). No monotonicity of g is needed: the second part holds at every
threshold. The composed bound is an upper bound only; its tightness is not derived.

The intermediate C is any registered definition without parameters or classes whose raw levels are
bounded from above (smaller is stronger), other than A and B, tried in the registry's order; the first
whose two parts are both proved by a direct argument (:func:`implgraph.prover.search.tight_bound`, each part
a single certificate) gives the bound. Nothing is composed further (one intermediate).
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.core import methods
from implgraph.core.region import Region
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import certificate_parts
from implgraph.prover.shapes import decide, lowest_raw

METHOD = methods.COMPOSITION
#: where the prover tries it (it has no handler of its own)
TRIED = ("by the prover (`engines/prove.py`) where no direct argument applies and no small table refutes the claim, "
         "before the bounded check")

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
    from implgraph.prover.search import tight_bound
    for c in _candidates(a, b):
        first = _single(tight_bound(a, c, a_params, {}, region, N, a_classes, None))
        if first is None:
            continue
        second = _single(tight_bound(c, b, {}, b_params, part_region(region, c), N, None, b_classes))
        if second is None or decide(region, sympy.Ge(first.upper, lowest_raw(c))) is not True:
            continue
        upper = simplified(second.upper.subs(T, first.upper))
        arg = (f"A => {c.name} ({first.method}): {first.argument}; then {c.name} => B ({second.method}), at every "
               f"threshold of {c.name}'s raw level: {second.argument}; a table with A's raw level <= T has {c.name}'s "
               f"<= h(T) = {first.upper}, so B's raw level <= g(h(T)) = {upper} (an upper bound; tightness not "
               "derived)")
        return Bound(upper, False, METHOD.name, arg, checks=first.checks + second.checks,
                     parts=[(sympy.true, first), (sympy.true, second)], via=c)
    return None


@certificate_parts(METHOD, whole=True)
def composition_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """Its two parts' certificates (the second on C's own region: the claim's conditions without T, and T >= C's most
    private level) and U = the second's bound at T = the first's."""
    from implgraph.prover.certificate import FORMAT, certificate, symbols_and_domain
    c = bound.via
    (_, first), (_, second) = bound.parts
    parts = [certificate(a, c, a_params, {}, a_classes, None, region, N, first),
             certificate(c, b, {}, b_params, None, b_classes, part_region(region, c), N, second)]
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain, "A": parts[0]["A"],
            "B": parts[1]["B"], "via": parts[0]["B"], "upper": str(bound.upper), "tight": False,
            "argument": bound.argument, "parts": parts, "tightness": None,
            "tightness_note": "U, the second part's bound at the first part's, is an upper bound only"}
