"""(alpha, k)-anonymity (R. C.-W. Wong, J. Li, A. W.-C. Fu, K. Wang, (alpha, k)-anonymity: an
enhanced k-anonymity model for privacy-preserving data publishing, KDD 2006, Definitions 2-3, in
the general form of their Section 3 where every sensitive value is protected).

A table is (alpha, k)-anonymous if every equivalence class has at least k records and the relative
frequency of every sensitive value (bucket) in every class is at most alpha. For the stated k the
level is the smallest alpha, ``max_E max_B Pr_E(B)``, and infinite (no alpha) when a class has
fewer than k records. Smaller is stronger; undefined (None) without classes.

The level is declared on the affine scale: the raw quantity is ``1 + alpha`` (``alpha = raw - 1``),
so that the weakest level is oo (a class smaller than k satisfies no alpha), as the distance
scale's weakest level 1 would not say.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.definitions._classes import argmax_fraction, class_arrays, class_means
from implgraph.definitions.capabilities import ClassLevel, MinClassSize
from implgraph.definitions._params import IntegerK
from implgraph.definitions.base import Definition, register
from implgraph.definitions.families import Form, LFModel, Term


def _class_level(cls):
    """The level of one class over ``cls.k`` values (a :class:`~implgraph.definitions._classes.GenericClass`),
    for every ``k``: ``max_i q_i``, its most frequent value's relative frequency (the table's level is its
    worst class's, where every class has at least k records)."""
    return cls.top


@register
class AlphaKAnonymity(IntegerK, Definition):
    name = "alpha-k-anonymity"
    title = "(alpha,k)-anonymity"
    level_symbol = "alpha"
    scale = "affine"
    stronger = "smaller"
    params = {"k": "minimum class size, an integer 1 <= k <= N"}
    #: a class of fewer than k records makes the level infinite; a class's level is its top frequency
    declares = (MinClassSize("k"), ClassLevel(_class_level))
    ranges = {"k": (1, "N")}
    param_kinds = {"k": "integer"}
    reference = ("Wong, Li, Fu, Wang, (alpha,k)-anonymity: an enhanced k-anonymity model for privacy-preserving "
                 "data publishing, KDD 2006, Definitions 2-3")
    label_format = "(α,{k})-anonymity"

    def symbolic(self, ctx, table, k):
        if not table.has_classes:
            return None
        sizes = [sum((b.count for b in blocks), sympy.Integer(0)) for blocks in table.classes.values()]
        if not ctx.le(k, ctx.min(sizes)):
            return sympy.oo
        return 1 + ctx.max([ctx.max(q) for q in class_means(table)])

    def concrete(self, ct, k):
        arrays = class_arrays(ct)
        if arrays is None:
            return None
        sizes, sums = arrays
        if int(sizes.min()) < int(k):
            return INF
        top = sums.max(axis=1)                      # each class's most frequent value: top / (size D)
        c = argmax_fraction(top, sizes)
        return 1 + Fraction(int(top[c]), int(sizes[c]) * ct.denom)

    def lf_terms(self, N, sizes, p, k):
        if not sizes:
            return None
        if min(sizes) < int(k):
            return LFModel([Term(Form((), Fraction(1)), Form(()))], Fraction(1))   # 1/0: no alpha
        terms, start = [], 0
        for size in sizes:
            E = range(start, start + size)
            start += size
            terms += [Term(Form(Form.mean(E, b).coef, Fraction(1)), Form((), Fraction(1))) for b in range(p)]
        return LFModel(terms, Fraction(1))
