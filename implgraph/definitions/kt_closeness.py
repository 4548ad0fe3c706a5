"""(k,t)-closeness (Ekenstedt et al. 2022, Definition 7).

For every subset K of k records and every bucket B_l: t^-1 <= Pr_D(B_l) / Pr_K(B_l) <= t.
The optimal t compares the mean with the means of the k smallest and k largest values.
"""

from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class KTCloseness(RatioOfAverages):
    name = "kt-closeness"
    title = "(k,t)-closeness"
    reference = "ekenstedt2022, Definition 7"
    scale, level_symbol = "ratio", "t"
    declares = (RatioLevel("subset", "two-sided"), SubsetSize("k"))
    params = {"k": "subset size, 1 <= k <= N - 1"}
    ranges = {"k": (1, "N - 1")}
    param_kinds = {"k": "integer"}
    model = "closeness"
    label_format = "({k},t)-closeness"
