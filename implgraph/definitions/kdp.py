"""(k,eps)-differential privacy (Ekenstedt et al. 2022, Definition 8).

Removing any k records (the query returns the distribution of the confidential attribute, as in
the proof of Theorem 4) changes every bucket probability by a factor within [e^-eps, e^eps]: the
remaining N - k records are compared with all N, so eps = ln of the optimal t of subsets of size
N - k.
"""

from implgraph.definitions.base import Definition, register
from implgraph.definitions._common import check_subset_size, subset_ratio, subset_ratio_concrete
from implgraph.definitions.kt_closeness import check_subset_size_int


@register
class KDP(Definition):
    name = "kdp"
    title = "(k,eps)-DP"
    level_symbol = "eps"
    scale = "log"
    stronger = "smaller"
    params = {"k": "number of removed records, 1 <= k <= N - 1"}
    reference = "ekenstedt2022, Definition 8"
    z3_shape = "subset-ratio"
    family = "subset"
    model = "dp"

    def subset_size(self, N, k):
        return N - k

    def param_ranges(self, N, k):
        return [1 <= k, k <= N - 1]

    def label(self, params=None, in_classes=False):
        return f"({(params or {}).get('k') or 'k'},ε)-DP" + (" (in classes)" if in_classes else "")

    def symbolic(self, ctx, table, k):
        check_subset_size(ctx, table.size, k, self.name)
        return subset_ratio(ctx, table, table.size - k)

    def concrete(self, ct, k):
        k = int(k)
        check_subset_size_int(ct.N, k, self.name)
        return subset_ratio_concrete(ct, ct.N - k)
