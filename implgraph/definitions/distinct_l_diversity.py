"""Distinct l-diversity (A. Machanavajjhala, D. Kifer, J. Gehrke, M. Venkitasubramaniam,
l-diversity: privacy beyond k-anonymity, ACM TKDD 1(1), 2007, Section 4.1, the "distinct"
instantiation named after Definition 4.1).

Every equivalence class contains at least l distinct well-represented sensitive values; in the
record model a value (bucket) occurs in a class when its mean probability there is positive. The
optimal l is the smallest number of buckets occurring in a class (larger is stronger); undefined
(None) without classes.
"""

from fractions import Fraction

import sympy

from implgraph.definitions._classes import class_arrays, class_means
from implgraph.definitions.capabilities import ClassLevel
from implgraph.definitions.base import Definition, register


@register
class DistinctLDiversity(Definition):
    name = "distinct-l-diversity"
    title = "distinct l-diversity"
    level_symbol = "l"
    scale = "count"
    stronger = "larger"
    declares = (ClassLevel(lambda cls: cls.k),)    # a class over k values (all positive) has k of them
    reference = "Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam, l-diversity, ACM TKDD 2007, Section 4.1"

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        return sympy.Integer(min(sum(0 if ctx.is_zero(q) else 1 for q in means) for means in class_means(table)))

    def concrete(self, ct):
        arrays = class_arrays(ct)
        if arrays is None:
            return None
        return Fraction(int((arrays[1] != 0).sum(axis=1).min()))      # numerators >= 0: positive mean
