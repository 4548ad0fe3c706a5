"""Other tools' conventions where they differ from a definition's literal level (``levels --convention pycanon``).

pyCANON (Sainz-Pardo Díaz and López García 2022) computes two models differently from their definitions:

- **delta-disclosure** skips, in each class, the values the class lacks: its delta is the largest
  ``|ln(q / p)|`` over the classes and the values *present* in each, where the definition (Brickell and
  Shmatikov 2008) compares every value the table holds and is infinite when a class lacks one. Here: every
  definition whose level is a two-sided ratio over classes (declared ``RatioLevel("class", "two-sided")``:
  delta-disclosure, multiplicative t-closeness) gets the ratio over the present values, in its own units.
- **enhanced beta-likeness** is ``min(beta, -ln min p)`` in pyCANON, ``beta`` the basic beta-likeness and ``p``
  the table's shares of the values; the definition (Cao and Karras 2012) is beta where every class's increase
  ``(q - p) / p`` is at most ``-ln p`` and infinite otherwise. Here: every definition declaring
  ``FiniteLevelOf(NAME, increase_cap="-log(p)")`` gets ``min(level of NAME, -ln min p)``.

Every value is exact (sympy rationals and logarithms). These are not the definitions' levels: the output labels
them, and the literal level is kept beside them. pyCANON's other differences (the floor of entropy
l-diversity, its own recursive (c,l)-diversity) are not reproduced.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

__all__ = ["CONVENTIONS", "pycanon_levels"]

CONVENTIONS = ("definition", "pycanon")


def _skip_absent_ratio(ct) -> Fraction:
    """The largest ``max(q/p, p/q)`` over the classes and the values present in each (at least 1)."""
    sizes, sums = ct.class_sums()
    sizes, sums = [int(s) for s in sizes], [[int(x) for x in row] for row in sums]
    n = sum(sizes)
    totals = [sum(row[v] for row in sums) for v in range(len(ct.buckets))]
    worst = Fraction(1)
    for size, row in zip(sizes, sums):
        for c, t in zip(row, totals):
            if c:
                r = Fraction(c * n, size * t)
                worst = max(worst, r, 1 / r)
    return worst


def pycanon_levels(levels: dict, ct) -> dict:
    """``{definition name: (value, note)}``: pyCANON's value where its convention differs from the definition's
    literal level (the levels of ``levels`` on the grouped table ``ct``), read from the declared capabilities;
    definitions without such a difference are left out."""
    from implgraph.definitions.capabilities import FiniteLevelOf, RatioLevel
    out = {}
    if ct.class_labels is None:
        return out
    for name, lv in levels.items():
        d = lv.definition
        ratio, finite = d.declared(RatioLevel), d.declared(FiniteLevelOf)
        if ratio is not None and ratio.family == "class" and ratio.sides == "two-sided":
            r = _skip_absent_ratio(ct)
            value = d.level_from_raw(sympy.Rational(r.numerator, r.denominator))
            out[name] = (value, "pyCANON's convention: the values a class lacks are skipped")
        elif finite is not None and finite.increase_cap == "-log(p)" and finite.name in levels:
            beta = levels[finite.name].value
            if beta is None:
                continue
            totals = [int(t) for t in ct.class_sums()[1].sum(axis=0).tolist()]
            smallest = min(t for t in totals if t)
            cap = -sympy.log(sympy.Rational(smallest, sum(totals)))
            value = cap if bool(cap < beta) else beta
            out[name] = (value, f"pyCANON's convention: min({finite.name}, -ln min p)")
    return out
