"""(k,t)-closeness (Ekenstedt et al. 2022, Definition 7).

For every subset K of k records and every bucket B_l: t^-1 <= Pr_D(B_l) / Pr_K(B_l) <= t.
The optimal t compares the mean with the means of the k smallest and k largest values.
"""

from implgraph.definitions.base import Definition, register
from implgraph.definitions._common import check_subset_size, subset_ratio, subset_ratio_concrete


@register
class KTCloseness(Definition):
    name = "kt-closeness"
    title = "(k,t)-closeness"
    level_symbol = "t"
    scale = "ratio"
    stronger = "smaller"
    params = {"k": "subset size, 1 <= k <= N - 1"}
    reference = "ekenstedt2022, Definition 7"
    z3_shape = "subset-ratio"
    family = "subset"
    model = "closeness"

    def subset_size(self, N, k):
        return k

    def param_ranges(self, N, k):
        return [1 <= k, k <= N - 1]

    def label(self, params=None, in_classes=False):
        return f"({(params or {}).get('k') or 'k'},t)-closeness"

    def symbolic(self, ctx, table, k):
        check_subset_size(ctx, table.size, k, self.name)
        return subset_ratio(ctx, table, k)

    def concrete(self, ct, k):
        k = int(k)
        check_subset_size_int(ct.N, k, self.name)
        return subset_ratio_concrete(ct, k)


def check_subset_size_int(n, k, name, low=1, high_offset=1):
    from implgraph.core.errors import InputError
    if not (low <= k <= n - high_offset):
        raise InputError(f"{name}: k = {k} is out of range [{low}, {n - high_offset}] for N = {n}",
                         fix=f"choose k with {low} <= k <= N - {high_offset}")
