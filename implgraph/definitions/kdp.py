"""(k,eps)-differential privacy (Ekenstedt et al. 2022, Definition 8).

Removing any k records (the query returns the distribution of the confidential attribute, as in
the proof of Theorem 4) changes every bucket probability by a factor within [e^-eps, e^eps]: the
remaining N - k records are compared with all N, so eps = ln of the optimal t of subsets of size
N - k.
"""

from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class KDP(RatioOfAverages):
    name = "kdp"
    title = "(k,eps)-DP"
    reference = "ekenstedt2022, Definition 8"
    scale, level_symbol = "log", "eps"
    declares = (RatioLevel("subset", "two-sided"), SubsetSize("N - k"))    # removing k records
    params = {"k": "number of removed records, 1 <= k <= N - 1"}
    ranges = {"k": (1, "N - 1")}
    param_kinds = {"k": "integer"}
    model = "dp"
    label_format = "({k},ε)-DP"
