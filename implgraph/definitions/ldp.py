"""eps-local differential privacy (Ekenstedt et al. 2022, Definition 6).

Pr(Z(c_i) in B_l) <= e^eps Pr(Z(c_j) in B_l) for all records i, j and buckets l: eps is the log
of the largest ratio between the largest and the smallest value of a bucket.
"""

from fractions import Fraction

from ..concrete import INF, max_ratio, ratio
from .base import Definition, register


@register
class LDP(Definition):
    name = "ldp"
    title = "eps-LDP"
    level_symbol = "eps"
    scale = "log"
    stronger = "smaller"
    params = {}
    reference = "ekenstedt2022, Definition 6"
    z3_shape = "pairwise"

    def symbolic(self, ctx, table):
        best = 1
        for l in range(table.p):
            values = [v for v, _ in table.column(l)]
            best = ctx.max([best, ctx.ratio(ctx.max(values), ctx.min(values))])
        return best

    def concrete(self, ct):
        best = Fraction(1)
        for l in range(ct.p):
            col = ct.numer[:, l]
            best = max_ratio([best, ratio(int(col.max()), int(col.min()))])
            if best == INF:
                return INF
        return best
