"""eps-differential privacy with record removal (Ekenstedt et al. 2022, Definition 5).

The query returns the distribution of the confidential attribute (proof of Theorem 4), so
Pr(Z(Q(D)) in B) is the mean over all N records and Pr(Z(Q(D_-i)) in B) the mean over the other
N - 1; eps is the log of the largest ratio either way.
"""

from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class DP(RatioOfAverages):
    name = "dp"
    title = "eps-DP"
    reference = "ekenstedt2022, Definition 5"
    scale, level_symbol = "log", "eps"
    declares = (RatioLevel("subset", "two-sided"), SubsetSize("N - 1"))    # removing one record
    params = {}
    model = "dp"
    label_format = "ε-DP"
