"""p-sensitive k-anonymity (T. M. Truta and B. Vinay, Privacy protection: p-sensitive k-anonymity property, Proc.
22nd International Conference on Data Engineering Workshops (ICDE Workshops / PDM 2006), p. 94; cited as [30] by
domingo-ferrer2015; the definition's number in the paper not checked).

A table is p-sensitive k-anonymous if it is k-anonymous (every equivalence class has at least k records) and every
class holds at least p distinct values of the confidential attribute. In the record model a value (bucket) occurs in
a class when its mean probability there is positive, as for distinct l-diversity. For the stated k the level is the
largest such p: the fewest values in a class, and 0 (no p >= 1 holds) when a class has fewer than k records. Larger
is stronger; the scale is ``count-from-0`` (weakest 0); undefined (None) without classes.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.definitions._classes import class_arrays, class_means
from implgraph.definitions._params import IntegerK
from implgraph.definitions.base import Definition, register
from implgraph.definitions.capabilities import MinClassSizeAboveWeakest


@register
class PSensitiveKAnonymity(IntegerK, Definition):
    name = "p-sensitive-k-anonymity"
    title = "p-sensitive k-anonymity"
    level_symbol = "p"
    scale = "count-from-0"
    stronger = "larger"
    params = {"k": "minimum class size, an integer 1 <= k <= N"}
    ranges = {"k": (1, "N")}
    param_kinds = {"k": "integer"}
    # a class of < k records: p = 0, the weakest level; classes of >= k records: the fewest values in a class
    declares = (MinClassSizeAboveWeakest("k", level_of="distinct-l-diversity"),)
    reference = ("Truta and Vinay, Privacy protection: p-sensitive k-anonymity property, ICDE Workshops 2006, p. 94 "
                 "(definition number not checked)")
    label_format = "p-sensitive {k}-anonymity"

    def symbolic(self, ctx, table, k):
        if not table.has_classes:
            return None
        sizes = [sum((b.count for b in blocks), sympy.Integer(0)) for blocks in table.classes.values()]
        if not ctx.le(k, ctx.min(sizes)):
            return sympy.Integer(0)
        return sympy.Integer(min(sum(0 if ctx.is_zero(q) else 1 for q in means) for means in class_means(table)))

    def concrete(self, ct, k):
        arrays = class_arrays(ct)
        if arrays is None:
            return None
        sizes, sums = arrays
        if int(sizes.min()) < int(k):
            return Fraction(0)
        return Fraction(int((sums != 0).sum(axis=1).min()))
