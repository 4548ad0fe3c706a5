"""Are two stated maxima the same function: each argument of either equal to one of the other's, exactly?"""

from __future__ import annotations

import sympy

__all__ = ["same_max"]


def same_max(x, y) -> bool:
    """Are ``x`` and ``y`` the same Max (each argument of either equal to one of the other's: logarithms expanded, the
    difference simplified to 0)? An expression that is not a Max is a Max of one argument."""
    xs, ys = (list(e.args) if isinstance(e, sympy.Max) else [e] for e in (x, y))

    def equal(a, b):
        return a == b or sympy.simplify(sympy.expand_log(a - b, force=True)) == 0

    def near(a, b):     # (only to pair the arguments: each pair is then shown equal)
        n = sorted((a - b).free_symbols, key=str)
        return all(abs(sympy.N((a - b).subs({v: k for v in n}), 30)) < sympy.Rational(1, 10 ** 20) for k in (3, 5, 8))
    pairs = [(a, b) for a in xs for b in ys if near(a, b)]
    return (all(any(x is a for x, _ in pairs) for a in xs) and all(any(y is b for _, y in pairs) for b in ys)
            and all(equal(a, b) for a, b in pairs))
