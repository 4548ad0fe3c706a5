"""Ekenstedt et al. 2022 [1]_: the curves of Fig. 6 and Fig. 7 and the level of the Fig. 4 channel.

Everything is read from the paper's claims in the data (``ekenstedt2022/fig-6``, ``fig-7``, ``eq-1``)
and computed by the generic code (:func:`implgraph.checks.figure_curves.figure_curves`, the core's exact
levels); the figure command and the tests use these helpers.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import theorem_claim
from implgraph.checks.figure_curves import figure_curves
from implgraph.mechanisms.calibrate import exact_level
from implgraph.mechanisms.channels import lumped_randomised_response
from implgraph.core.simplified import simplified

__all__ = ["utilities", "fig6_exprs", "fig7_exprs", "fig6_curves", "fig7_curves", "fig4_level"]

def utilities(cid):
    """The utilities figure claim ``cid`` plots: the names of its ``channels: utilities``, in order."""
    return list((theorem_claim(cid).get("channels") or {}).get("utilities") or {})


def fig6_exprs(which="engine"):
    """Fig. 6's exact curves, symbolic in py1: ``engine`` (exact channels) or ``printed``."""
    return figure_curves("ekenstedt2022/fig-6", which)


def fig7_exprs(n, which="engine"):
    """Fig. 7's exact curves for ``n`` values, symbolic in t0: ``engine`` (exact channels) or ``printed``."""
    return figure_curves("ekenstedt2022/fig-7", which, {"n": n})


def fig6_curves(points, which="engine"):
    """Exact utilities of Fig. 6 at each p_y(a1) in ``points``."""
    py1 = sympy.Symbol("py1", real=True)
    ex = fig6_exprs(which)
    return [{k: simplified(ex[k].subs(py1, x)) for k in utilities("ekenstedt2022/fig-6")} for x in points]


def fig7_curves(points, n, which="engine"):
    """Exact utilities of Fig. 7 at each t0 in ``points`` for ``n`` values (uniform p_y)."""
    t0 = sympy.Symbol("t0", real=True)
    ex = fig7_exprs(n, which)
    return [{k: simplified(ex[k].subs(t0, x)) for k in utilities("ekenstedt2022/fig-7")} for x in points]


def fig4_level(n=None, p=None):
    """The core's level of the Fig. 4 channel for the definition of eq. (1) (symbolic ``n`` and ``p`` by
    default).

    Returns (raw ratio on 0 < p < 1, the level).
    """
    n = sympy.Symbol("n", integer=True) if n is None else n
    p = sympy.Symbol("p_LDP", real=True) if p is None else p
    definition = str(theorem_claim("ekenstedt2022/eq-1").get("definition"))
    lv = exact_level(lumped_randomised_response(n, p), None, definition)
    inside = [pc.value for pc in lv.pieces if pc.value is not sympy.oo and pc.value is not None]
    return (sympy.factor(inside[0]) if len(inside) == 1 else None), lv
