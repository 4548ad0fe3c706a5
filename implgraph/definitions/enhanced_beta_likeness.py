"""Enhanced beta-likeness (J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee,
VLDB 2012, Definition 3).

With P the table's distribution and Q a class's, a class has enhanced beta-likeness if
``D(p_i, q_i) = (q_i - p_i) / p_i <= min(beta, -ln p_i)`` for every value with ``p_i < q_i``. The
smallest beta is therefore basic beta-likeness's level when every such value meets the fixed bound
``q_i / p_i - 1 <= -ln p_i``, and infinite (no beta) when one does not. Smaller is stronger (affine
scale, beta = ratio - 1); undefined (None) without classes.

The bound compares a rational with a logarithm: ``q / p - 1 = -ln p`` holds only at ``p = q = 1``
(Lindemann: ``e^r`` is irrational for a rational ``r != 0``), so interval arithmetic at growing
precision decides it exactly (:func:`exceeds_log_bound`). On a parametric table the bound is
decided where the probabilities are numbers; otherwise the level is Undecidable.

Only each value's largest class probability matters (:func:`_level`): for a fixed ``p`` both the
bound's violation ``q > p (1 - ln p)`` and ``q / p`` grow with ``q``, so if the class with the
largest ``q`` meets the bound every class does, and it alone attains the value's largest ratio.
The concrete view finds that class per value from the class sums (one comparison of integer
fractions per class and value, and ``p`` logarithm tests in all).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.core.symbolic import Undecidable
from implgraph.definitions._classes import argmax_fraction, class_arrays, class_means, table_means
from implgraph.definitions.capabilities import FiniteLevelOf, OnClasses
from implgraph.definitions.base import Definition, register
from implgraph.definitions.l_diversity import _iv_prec


def exceeds_log_bound(p: Fraction, q: Fraction) -> bool:
    """True if ``q / p - 1 > -ln p`` (exact; ``0 < p < q <= 1``), i.e. ``ln p > 1 - q / p``."""
    from mpmath import iv
    r = 1 - q / p
    prec = 64
    while True:
        with _iv_prec(prec):
            d = iv.log(iv.mpf(p.numerator) / p.denominator) - iv.mpf(r.numerator) / r.denominator
        if d.a > 0:
            return True
        if d.b < 0:
            return False
        prec *= 2


def _level(P, tops):
    """The raw level ``beta + 1`` from the table's distribution ``P`` and, per value, the largest
    class probability ``tops[l]`` (Fractions); INF when one breaks the log bound.

    The same as taking every class and value: for ``p < q`` the test ``q / p - 1 > -ln p`` is
    ``q > p (1 - ln p)`` and ``q / p - 1`` increases with ``q``, so on each value the class with
    the largest ``q`` breaks the bound if any class does and has the largest ratio.
    """
    beta = Fraction(0)
    for p, q in zip(P, tops):
        if p < q:
            if exceeds_log_bound(p, q):
                return INF
            beta = max(beta, q / p - 1)
    return beta + 1


@register
class EnhancedBetaLikeness(Definition):
    name = "enhanced-beta-likeness"
    title = "enhanced beta-likeness"
    level_symbol = "beta"
    scale = "affine"
    stronger = "smaller"
    #: _level: basic's beta + 1 unless a value breaks -ln p (D(p_i, q_i) = q_i/p_i - 1 <= -ln p_i where p_i < q_i)
    declares = (OnClasses(), FiniteLevelOf("basic-beta-likeness", increase_cap="-log(p)"))
    reference = "J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee, VLDB 2012, Definition 3"
    model = "closeness"
    label_format = "enhanced β-likeness"

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        P, classes = table_means(table), class_means(table)
        if not all(sympy.sympify(v).is_Rational for v in P + [x for Q in classes for x in Q]):
            raise Undecidable(f"{self.name} compares with ln p: decided only where the probabilities are numbers")
        frac = lambda v: Fraction(int(v.p), int(v.q))   # noqa: E731
        raw = _level([frac(v) for v in P], [max(frac(Q[l]) for Q in classes) for l in range(table.p)])
        return sympy.oo if raw == INF else sympy.Rational(raw.numerator, raw.denominator)

    def concrete(self, ct):
        arrays = class_arrays(ct)
        if arrays is None:
            return None
        sizes, sums = arrays
        P, tops = [], []
        for l in range(ct.p):
            c = argmax_fraction(sums[:, l], sizes)            # the class with the largest q_l
            P.append(Fraction(ct.total(l), ct.N * ct.denom))
            tops.append(Fraction(int(sums[c, l]), int(sizes[c]) * ct.denom))
        return _level(P, tops)
