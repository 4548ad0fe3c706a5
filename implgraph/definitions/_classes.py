"""Per-class distributions shared by the class-based definitions of the literature (symbolic and concrete).

The concrete helpers read a table's class sums once (``ct.class_sums()``: class sizes ``z`` and
integer numerator sums ``s``, so class ``c``'s probability of bucket ``l`` is ``s[c, l] / (z[c] D)``)
and work on whole arrays, never one Fraction per class: a level is the largest (or smallest) of
fractions of integers, found by :func:`argmax_fraction` (a float screen, then exact comparison of
the few candidates). No float ever reaches a level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy

__all__ = ["class_means", "table_means", "class_arrays", "argmax_fraction", "largest_class_distance",
           "GenericClass"]

#: relative margin of the float screen of :func:`argmax_fraction`; float64 division of two
#: integers (each rounded once) is off by at most 3 * 2^-53 relative, far inside it
_SCREEN = 2.0 ** -40


def class_means(table):
    """Each class's mean bucket probabilities on a parametric table (a list per class, sympy)."""
    out = []
    for blocks in table.classes.values():
        size = sum((b.count for b in blocks), sympy.Integer(0))
        out.append([sum((b.probs[l] * b.count for b in blocks), sympy.Integer(0)) / size for l in range(table.p)])
    return out


def table_means(table):
    """The table's mean bucket probabilities (sympy)."""
    n = table.size
    return [sum((b.probs[l] * b.count for b in table.blocks), sympy.Integer(0)) / n for l in range(table.p)]


def class_arrays(ct):
    """(sizes, sums) of a concrete table's classes, None without classes.

    Reads only the class sums, so a grouped table never writes out its records (``ct.classes``
    would). ``sizes`` is (C,) int64 and ``sums`` (C, p), int64 or object (Python ints).
    """
    sizes, sums = ct.class_sums()
    if not len(sizes):
        return None
    return sizes, sums


def argmax_fraction(num, den) -> int:
    """Index of the largest ``num[i] / den[i]`` (integers, ``num >= 0``, ``den > 0``), the first on a tie.

    Exact: float64 quotients keep every index within a relative :data:`_SCREEN` of the float
    maximum (the exact maximum is among them, as each quotient is within 3 * 2^-53 relative of its
    value); those are compared exactly in a knockout by cross-multiplication of Python integers
    (many classes may tie, e.g. every class holding one value only).

    Examples
    --------
    >>> argmax_fraction(np.array([1, 2, 3]), np.array([3, 6, 11]))   # 1/3 = 2/6 > 3/11
    0
    """
    import numpy as np
    num, den = np.asarray(num), np.asarray(den)
    try:
        f = num.astype(np.float64) / den.astype(np.float64)
        top = float(f.max())
        alive = np.flatnonzero(f >= top * (1 - _SCREEN)) if top > 0 else np.zeros(1, dtype=np.int64)
    except OverflowError:                                      # integers past float64's range
        alive = np.arange(len(num))
    a, b = num[alive].astype(object), den[alive].astype(object)
    while len(alive) > 1:                                      # pairs in order: the first of a tie wins
        m = len(alive) // 2 * 2
        later = a[1:m:2] * b[0:m:2] > a[0:m:2] * b[1:m:2]
        pick = np.arange(0, m, 2) + later
        if m < len(alive):
            pick = np.append(pick, m)
        alive, a, b = alive[pick], a[pick], b[pick]
    return int(alive[0])



def largest_class_distance(ct, sets, scale):
    """``max_E sum_{S in sets} |sum_{l in S} (Q_E(l) - P(l))| / scale`` (the EMDs), None without classes.

    With class sums ``s``, class size ``z``, bucket totals ``T`` and ``N`` records over the
    denominator ``D``, ``Q_E(l) - P(l) = d_l / (z N D)`` with the integer ``d_l = s_l N - T_l z``:
    every class's sum of ``|d(S)|`` at once (one integer matrix product), the largest over ``z`` by
    :func:`argmax_fraction`.

    Examples
    --------
    Classes (1, 0) and (0, 1) of one record each, P = (1/2, 1/2), ``equal`` ground distance
    (singletons, scale 2): the EMD is 1/2.

    >>> from implgraph.core.concrete import ConcreteTable
    >>> largest_class_distance(ConcreteTable.from_fractions([[1, 0], [0, 1]], classes="AB"), [(0,), (1,)], 2)
    Fraction(1, 2)
    """
    import numpy as np
    arrays = class_arrays(ct)
    if arrays is None:
        return None
    sizes, sums = arrays
    n, p = ct.N, ct.p
    totals = [ct.total(l) for l in range(p)]
    exact = 2 * n * n * ct.denom * p * max(1, len(sets)) < 2 ** 62      # |every integer below| fits int64
    dtype = np.int64 if exact else object
    d = np.asarray(sums, dtype=dtype) * n - np.asarray(sizes, dtype=dtype)[:, None] * np.asarray(totals, dtype=dtype)
    member = np.zeros((p, len(sets)), dtype=dtype)
    for j, S in enumerate(sets):
        member[list(S), j] = 1
    x = np.abs(d @ member).sum(axis=1) if len(sets) else np.zeros(len(sizes), dtype=dtype)
    c = argmax_fraction(x, sizes)
    return Fraction(int(x[c]), scale * int(sizes[c]) * n * ct.denom)


@dataclass(frozen=True)
class GenericClass:
    """One equivalence class over a symbolic number ``k`` of values, for levels declared for every ``k``.

    ``q[i]`` (``i = 1..k``, positive) is the relative frequency of the class's ``i``-th value, ``sum_i q[i] = 1``,
    and ``top`` stands for ``max_i q[i]``. A class-based definition may declare
    ``class_level_formula(cls)``: its level of such a class as a sympy expression in ``q[i]`` (inside sums over
    ``(i, 1, k)``), ``k`` and ``top``, valid for every ``k >= 1``; the tests compare it with the definition's
    computed level on classes over a few values.
    """

    k: sympy.Symbol = field(default_factory=lambda: sympy.Symbol("k", integer=True, positive=True))
    i: sympy.Symbol = field(default_factory=lambda: sympy.Symbol("i", integer=True, positive=True))
    q: sympy.IndexedBase = field(default_factory=lambda: sympy.IndexedBase("q", positive=True))
    top: sympy.Symbol = field(default_factory=lambda: sympy.Symbol("q_max", positive=True))

    def evaluate(self, formula, probs):
        """A declared formula at one class whose positive frequencies are ``probs`` (numbers; exact)."""
        probs = [sympy.sympify(x) for x in probs]
        expr = sympy.sympify(formula).subs({self.k: len(probs), self.top: max(probs)}).doit()
        return expr.subs({self.q[n + 1]: x for n, x in enumerate(probs)})
