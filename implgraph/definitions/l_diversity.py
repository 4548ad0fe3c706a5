"""Frequency and entropy l-diversity (Machanavajjhala et al. 2006, as stated by sei2019 Defs. 2-3).

Frequency l-diversity: in every equivalence class the relative frequency of each sensitive value
(bucket) is at most 1/l; the optimal l is ``min_E 1 / max_l Pr_E(B_l)``.
Entropy l-diversity: ``-sum_v p(v) log p(v) >= log l`` in every class; the optimal l is
``min_E prod_v p(v)^(-p(v))`` (exact, with 0^0 = 1). Larger l is stronger. Undefined (None) on a
table without equivalence classes. Probabilities are the classes' mean bucket probabilities, so a
one-hot table gives the usual empirical frequencies.
"""

import sympy

from .base import Definition, register


def _class_means(table):
    out = []
    for blocks in table.classes.values():
        size = sum((b.count for b in blocks), sympy.Integer(0))
        out.append([sum((b.probs[l] * b.count for b in blocks), sympy.Integer(0)) / size
                    for l in range(table.p)])
    return out


@register
class FrequencyLDiversity(Definition):
    name = "frequency-l-diversity"
    title = "frequency l-diversity"
    level_symbol = "l"
    scale = "count"
    stronger = "larger"
    needs_classes = True
    reference = "sei2019, Definition 2"

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        return ctx.min([ctx.ratio(1, ctx.max(q)) for q in _class_means(table)])


@register
class EntropyLDiversity(Definition):
    name = "entropy-l-diversity"
    title = "entropy l-diversity"
    level_symbol = "l"
    scale = "count"
    stronger = "larger"
    needs_classes = True
    reference = "sei2019, Definition 3"

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        values = [sympy.Mul(*[sympy.Pow(p, -p) for p in q if p != 0]) for q in _class_means(table)]
        return ctx.min([sympy.nsimplify(v) if v.is_Rational else v for v in values])
