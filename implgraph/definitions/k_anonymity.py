"""k-anonymity (Sweeney 2002): every equivalence class has at least k records.

The optimal level is the size of the smallest class (larger is stronger). Undefined (None) on a
table without equivalence classes.
"""

from fractions import Fraction

import sympy

from implgraph.definitions.capabilities import ClassSizeLevel
from implgraph.definitions.base import Definition, register


@register
class KAnonymity(Definition):
    name = "k-anonymity"
    title = "k-anonymity"
    level_symbol = "k"
    scale = "count"
    stronger = "larger"
    params = {}
    reference = "Sweeney 2002; ekenstedt2022, Table II"
    declares = (ClassSizeLevel(),)     # the level is the smallest class's size

    def lf_terms(self, N, sizes, p):
        """The level depends on the partition only: the smallest class size."""
        from implgraph.definitions.families import LFModel
        if not sizes:
            return None
        return LFModel([], Fraction(0), structural=Fraction(min(sizes)))

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        sizes = [sum((b.count for b in blocks), sympy.Integer(0)) for blocks in table.classes.values()]
        return ctx.min(sizes)

    def concrete(self, ct):
        groups = ct.class_groups()
        if not groups:
            return None
        return Fraction(min(len(idx) for idx in groups.values()))
