"""The utility metrics of sei2019 Definitions 7-9 between true counts ``x`` and reconstructed ``x_hat``.

Exact (sympy) when every entry is an ``int``, a ``Fraction`` or a sympy rational; floats (numpy) otherwise.

Examples
--------
The paper's example (Section II): ``A_1 = (10, 100)``, ``B_1 = (10, 80)``, ``A_2 = (10, 25)``,
``B_2 = (10, 5)``:

>>> l1([10, 100], [10, 80]), l2([10, 25], [10, 5])
(20, 20)
>>> round(float(hellinger([10, 100], [10, 80])), 2), round(float(hellinger([10, 25], [10, 5])), 2)
(0.75, 1.95)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy

__all__ = ["l1", "l2", "hellinger"]


def _exact(*seqs) -> bool:
    return all(isinstance(v, (int, Fraction, sympy.Rational)) and not isinstance(v, bool)
               for s in seqs for v in s)


def _pairs(x, xhat):
    if isinstance(x, np.ndarray) or isinstance(xhat, np.ndarray):
        return None
    x, xhat = list(x), list(xhat)
    if len(x) != len(xhat):
        raise ValueError(f"{len(x)} true counts and {len(xhat)} reconstructed counts")
    return [(sympy.nsimplify(a), sympy.nsimplify(b)) for a, b in zip(x, xhat)] if _exact(x, xhat) else None


def l1(x, xhat):
    """L1 distance (eq. 4): ``sum |x_m - x_hat_m|``."""
    pairs = _pairs(x, xhat)
    if pairs is not None:
        return sum((abs(a - b) for a, b in pairs), sympy.Integer(0))
    return float(np.abs(np.asarray(x, float) - np.asarray(xhat, float)).sum())


def l2(x, xhat):
    """L2 distance (eq. 5): ``sqrt(sum (x_m - x_hat_m)^2)``."""
    pairs = _pairs(x, xhat)
    if pairs is not None:
        return sympy.sqrt(sum(((a - b) ** 2 for a, b in pairs), sympy.Integer(0)))
    return float(np.sqrt(((np.asarray(x, float) - np.asarray(xhat, float)) ** 2).sum()))


def hellinger(x, xhat):
    """Hellinger distance (eq. 6): ``(1/sqrt 2) sqrt(sum (sqrt x_m - sqrt x_hat_m)^2)`` (counts >= 0)."""
    pairs = _pairs(x, xhat)
    if pairs is not None:
        return sympy.sqrt(sum(((sympy.sqrt(a) - sympy.sqrt(b)) ** 2 for a, b in pairs), sympy.Integer(0)) / 2)
    a = np.sqrt(np.clip(np.asarray(x, float), 0, None))
    b = np.sqrt(np.clip(np.asarray(xhat, float), 0, None))
    return float(np.sqrt(((a - b) ** 2).sum() / 2))
