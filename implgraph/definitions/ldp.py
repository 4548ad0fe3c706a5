"""eps-local differential privacy (Ekenstedt et al. 2022, Definition 6).

Pr(Z(c_i) in B_l) <= e^eps Pr(Z(c_j) in B_l) for all records i, j and buckets l: eps is the log
of the largest ratio between the largest and the smallest value of a bucket.
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class LDP(RatioOfAverages):
    name = "ldp"
    title = "eps-LDP"
    reference = "ekenstedt2022, Definition 6"
    scale, level_symbol = "log", "eps"
    declares = (RatioLevel("pairwise", "two-sided"),)
    params = {}
    model = "dp"
    label_format = "ε-LDP"
