"""Test plugins for researcher lemmas and check-definition: inverse-Simpson l-diversity and broken variants.

Inverse-Simpson l-diversity: every equivalence class E has Hill's diversity number of order 2,
``D_2(E) = 1 / sum_v q_v^2`` (q_v the class's mean frequency of value v), at least l (M. O. Hill, Diversity and
evenness: a unifying notation and its consequences, Ecology 54(2), 1973; ``log D_2`` is the collision (Renyi-2)
entropy). The optimal l is the smallest ``D_2`` over the classes; larger is stronger. No built-in argument knows it.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.definitions import Definition
from implgraph.definitions._classes import class_means
from implgraph.definitions.capabilities import ClassLevel


def class_freqs(rows, classes):
    """Each class's mean frequencies (Fractions), by hand."""
    groups = {}
    for row, c in zip(rows, classes):
        groups.setdefault(c, []).append(row)
    return [[sum(col, Fraction(0)) / len(m) for col in zip(*m)] for m in groups.values()]


class InverseSimpson(Definition):
    name = "inverse-simpson-l-diversity"
    title = "inverse-Simpson l-diversity (Hill number of order 2)"
    level_symbol = "l"
    scale = "count"
    stronger = "larger"
    reference = "M. O. Hill, Diversity and evenness, Ecology 54(2), 1973 (order 2)"
    declares = (ClassLevel(lambda cls: 1 / sympy.Sum(cls.q[cls.i] ** 2, (cls.i, 1, cls.k))),)

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        return ctx.min([1 / sum((x ** 2 for x in q), sympy.Integer(0)) for q in class_means(table)])

    def concrete(self, ct):
        if ct.classes is None:
            return None
        rows = [[Fraction(int(ct.numer[i, j]), ct.denom) for j in range(ct.p)] for i in range(ct.N)]
        return min(1 / sum(x * x for x in q) for q in class_freqs(rows, list(ct.classes)))


class OutOfRange(InverseSimpson):
    """Broken: its level is D_2 - 1, below the declared weakest level 1 on a class of one value."""

    name = "broken-out-of-range"

    def symbolic(self, ctx, table):
        v = InverseSimpson.symbolic(self, ctx, table)
        return None if v is None else v - 1

    def concrete(self, ct):
        v = InverseSimpson.concrete(self, ct)
        return None if v is None else v - 1


class SymbolicDiffers(InverseSimpson):
    """Broken: its concrete path adds 1/100 on tables of 4 records or more; the symbolic path does not."""

    name = "broken-symbolic-differs"

    def concrete(self, ct):
        v = InverseSimpson.concrete(self, ct)
        return None if v is None else v + (Fraction(1, 100) if ct.N >= 4 else 0)
