"""Facts about the logarithm that the checker's lemmas use, each re-checked here once (exact, no solver).

:func:`log_below_chord`: log u <= u - 1 for every u > 0, the step of KL <= chi^2 (divergence-family, ceiling-family),
of log r <= n (r^(1/n) - 1) (divergence-growth) and of KL <= D_2 (divergence-order).

Examples
--------
>>> log_below_chord()
True
"""

from __future__ import annotations

import functools

import sympy

__all__ = ["log_below_chord"]


@functools.lru_cache(maxsize=None)
def log_below_chord() -> bool:
    """log u <= u - 1 for u > 0: g(u) = u - 1 - log u has g(1) = 0 and g'(u) = (u - 1)/u, of the sign of u - 1, so
    g decreases to its minimum 0 at u = 1 and increases after it."""
    u = sympy.Symbol("u", positive=True)
    g = u - 1 - sympy.log(u)
    return g.subs(u, 1) == 0 and sympy.simplify(sympy.diff(g, u) - (u - 1) / u) == 0
