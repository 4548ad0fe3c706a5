"""Recursive (c, l)-diversity (A. Machanavajjhala, D. Kifer, J. Gehrke, M. Venkitasubramaniam,
l-diversity: privacy beyond k-anonymity, ACM TKDD 1(1), 2007, Definition 4.3).

In a class let ``r_1 >= r_2 >= ... >= r_m`` be the frequencies of the sensitive values (buckets; a
value absent from the class has frequency 0). The class is recursive (c, l)-diverse if
``r_1 < c (r_l + r_{l+1} + ... + r_m)``. For the stated l the level is the constant c: the
(infimum) smallest c, taken in [1, oo) (the ratio scale, as the paper's choices of c), is
``max(1, max_E r_1 / (r_l + ... + r_m))``; infinite when a class has fewer than l values. Smaller c
is stronger; undefined (None) without classes.

``r_l + ... + r_m`` is the sum of the ``m - l + 1`` smallest frequencies, the least sum over the
sets of ``m - l + 1`` buckets, so the level is a maximum of linear-fractional forms
``Pr_E(b) / sum_{s in S} Pr_E(s)`` over buckets b and sets S of ``m - l + 1`` buckets (``lf_terms``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.core.errors import InputError
from implgraph.definitions._classes import argmax_fraction, class_arrays, class_means
from implgraph.definitions.capabilities import TailRatio
from implgraph.definitions.base import Definition, register
from implgraph.definitions.families import Form, LFModel, Term


@register
class RecursiveCLDiversity(Definition):
    name = "recursive-cl-diversity"
    title = "recursive (c,l)-diversity"
    level_symbol = "c"
    scale = "ratio"
    stronger = "smaller"
    params = {"l": "the number of values l, an integer >= 1 (the tail r_l + ... + r_m)"}
    reference = ("Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam, l-diversity, ACM TKDD 2007, Definition 4.3")
    label_format = "recursive (c,{l})-diversity"
    declares = (TailRatio("l"),)     # max(1, max_E r_1 / (r_l + ... + r_m))
    param_kinds = {"l": "integer"}

    def check_params(self, table, params):
        params = super().check_params(table, params)
        l = params["l"]
        if not (l.is_Integer and l >= 1):
            raise InputError(f"{self.name}: l = {l} is not an integer >= 1", fix="give e.g. l=2")
        return params

    def param_values(self, N):
        return [{"l": 2}]

    def symbolic(self, ctx, table, l):
        if not table.has_classes:
            return None
        tail = table.p - int(l) + 1
        best = sympy.Integer(1)
        for q in class_means(table):
            low = ctx.extreme_sum([(v, 1) for v in q], tail, largest=False) if tail > 0 else sympy.Integer(0)
            best = ctx.max([best, ctx.ratio(ctx.max(q), low)])
        return best

    def concrete(self, ct, l):
        """``max(1, max_E r_1 / (r_l + ... + r_m))`` over the class sums (0/0 no constraint, r/0 infinite)."""
        import numpy as np
        arrays = class_arrays(ct)
        if arrays is None:
            return None
        tail = ct.p - int(l) + 1
        ranked = np.sort(arrays[1], axis=1)                 # increasing: the tail is the first ``tail`` columns
        top = ranked[:, -1]
        low = ranked[:, :tail].sum(axis=1) if tail > 0 else np.zeros_like(top)
        if bool(((low == 0) & (top > 0)).any()):
            return INF
        kept = np.flatnonzero(low > 0)
        if not len(kept):
            return Fraction(1)
        c = kept[argmax_fraction(top[kept], low[kept])]
        return max(Fraction(1), Fraction(int(top[c]), int(low[c])))

    def lf_terms(self, N, sizes, p, l):
        if not sizes:
            return None
        tail = p - int(l) + 1
        terms, start = [], 0
        for size in sizes:
            E = range(start, start + size)
            start += size
            mean = {b: Form.mean(E, b) for b in range(p)}
            sets = list(itertools.combinations(range(p), tail)) if tail > 0 else [()]
            for S in sets:
                den = Form(tuple(sorted(c for s in S for c in mean[s].coef)))
                terms += [Term(mean[b], den) for b in range(p)]
        return LFModel(terms, Fraction(1))
