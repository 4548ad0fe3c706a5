"""``min``: the smaller of two proved bounds (docs/arguments/min.md).

A composite: its certificate holds each part's. :func:`capped_finite_level` is the ``min`` of ``finite-level-of``
(U = T) and B's ceiling N (a one-sided class level over any classes), tight where A's finite condition is a cap on
each increase (``FiniteLevelOf`` with ``increase_cap="-log(p)"``): at R = Min(T, N), one record at 1/2 in a class of
its own and N - 1 at (N - R)/(2 R (N - 1)) have B's level R, and with each bucket split into m = 3^ceiling(T) equal
ones every increase q/p - 1 <= R - 1 < ln m <= -ln(p/m), so A's level is R too.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.definitions.capabilities import FiniteLevelOf
from implgraph.prover.answer import Bound
from implgraph.prover.registry import certificate_parts
from implgraph.prover.tables import CAP_SPLIT, split, two_blocks

METHOD = methods.MIN
#: where the prover tries it (it has no handler of its own)
TRIED = "by the prover (`engines/prove.py`): a declared finite level capped by B's ceiling"


def _increase_cap(a):
    finite = a.declared(FiniteLevelOf)
    return None if finite is None else finite.increase_cap


def capped_finite_level(a, bound, cap, N):
    """The tight ``min`` of module notes; None otherwise."""
    if not (bound.method == methods.FINITE_LEVEL_OF.name and cap.method == methods.ONE_SIDED_CEILING.name
            and simplified(cap.upper - N) == 0 and _increase_cap(a) == "-log(p)"):
        return None

    def values(Tv, Nv, sv):
        Rv = min(Tv, sympy.Integer(Nv))
        return sympy.Rational(1, 2), (Nv - Rv) / (2 * Rv * (Nv - 1))

    arg = (f"the smaller of two upper bounds: ({bound.method}) {bound.argument}; and ({cap.method}) {cap.argument}; "
           "attained: at R = Min(T, N) one record at 1/2 alone and N - 1 at (N - R)/(2 R (N - 1)) have B's level R (the "
           "other class's ratio on the second bucket is 1 + P (R - 1)/((N - 1)(1 - P)) <= R with P = 1/(2 R)), and with "
           "each bucket split into m = 3^ceiling(T) equal buckets every increase q/p - 1 <= R - 1 < ln m <= -ln(p/m), "
           f"so {a.name}'s cap holds and its level is R <= T")
    return Bound(sympy.Min(bound.upper, cap.upper), True, METHOD.name, arg, build=split(two_blocks(N, 1, values)),
                 checks=bound.checks + cap.checks, parts=[(sympy.true, bound), (sympy.true, cap)], buckets=2 * CAP_SPLIT)


@certificate_parts(METHOD, whole=True)
def min_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The smaller of the parts' bounds: each part's certificate, inside one."""
    from implgraph.prover.certificate import FORMAT, certificate
    parts = [certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, part) for _, part in bound.parts]
    out = {"format": FORMAT, "method": METHOD.name, "symbols": parts[0]["symbols"],
           "domain": list(dict.fromkeys(c for p in parts for c in p["domain"])), "A": parts[0]["A"],
           "B": parts[0]["B"], "upper": str(bound.upper), "tight": False, "argument": bound.argument,
           "parts": parts, "tightness": None,
           "tightness_note": "U, the smaller of the parts' bounds, is an upper bound only"}
    if bound.tight:     # capped_finite_level: a record at 1/2 alone, each bucket split
        R = "Min(T, N)"
        out.update(tight=True, tightness={"blocks": [
            {"count": "1", "value": "1/2", "class": "E1"},
            {"count": "N - 1", "value": f"(N - {R})/(2*{R}*(N - 1))", "class": "E2"}], "split": str(CAP_SPLIT)})
        del out["tightness_note"]
    return out
