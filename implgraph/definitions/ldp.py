"""eps-local differential privacy (Ekenstedt et al. 2022, Definition 6).

Pr(Z(c_i) in B_l) <= e^eps Pr(Z(c_j) in B_l) for all records i, j and buckets l: eps is the log
of the largest ratio between the largest and the smallest value of a bucket.
"""

from implgraph.definitions._common import pairwise_ratio, pairwise_ratio_concrete
from implgraph.definitions.base import Definition, register


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
    family = "pairwise"
    model = "dp"

    def label(self, params=None, in_classes=False):
        return "ε-LDP"

    def symbolic(self, ctx, table):
        return pairwise_ratio(ctx, table)

    def concrete(self, ct):
        return pairwise_ratio_concrete(ct)
