"""eps-differential privacy with record removal (Ekenstedt et al. 2022, Definition 5).

The query returns the distribution of the confidential attribute (proof of Theorem 4), so
Pr(Z(Q(D)) in B) is the mean over all N records and Pr(Z(Q(D_-i)) in B) the mean over the other
N - 1; eps is the log of the largest ratio either way.
"""

from implgraph.definitions.base import Definition, register
from implgraph.definitions._common import check_subset_size, subset_ratio, subset_ratio_concrete
from implgraph.definitions.kt_closeness import check_subset_size_int


@register
class DP(Definition):
    name = "dp"
    title = "eps-DP"
    level_symbol = "eps"
    scale = "log"
    stronger = "smaller"
    params = {}
    reference = "ekenstedt2022, Definition 5"
    z3_shape = "subset-ratio"
    family = "subset"
    model = "dp"

    def subset_size(self, N):
        return N - 1

    def label(self, params=None, in_classes=False):
        return "ε-DP"

    def symbolic(self, ctx, table):
        check_subset_size(ctx, table.size, 1, self.name)
        return subset_ratio(ctx, table, table.size - 1)

    def concrete(self, ct):
        check_subset_size_int(ct.N, 1, self.name)
        return subset_ratio_concrete(ct, ct.N - 1)
