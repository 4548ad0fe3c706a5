"""Information-density privacy of each record against the table: local information privacy and pointwise maximal
leakage, declared once each as ratios of averages.

In the record model the secret is which of the N records produced the output, with the uniform prior over the records
(the table's distribution P is their mean, as in every definition here); the output is a bucket l. The information
density of record i and bucket l is then log(P(l | i)/P(l)) = log(x_i(l)/P(l)), the ratio of one record's
distribution to the table's: a ``subset`` ratio of averages with subsets of one record (:class:`SubsetSize` 1).

- Local information privacy (Jiang, Sarwate and Wang) bounds the information density on both sides,
  e^-eps <= P(l | i)/P(l) <= e^eps: the level eps is the largest |log(x_i(l)/P(l))| (two-sided).
- Pointwise maximal leakage (Saeidian, Cervia, Oechtering and Skoglund) of the outcome l is
  max_i log(P(l | i)/P(l)); eps-PML privacy bounds it over every outcome: the level is the largest log(x_i(l)/P(l))
  (one-sided: a record may lie below the table by any amount). It is at most log N (x_i(l) <= N P(l)), attained by
  one record (1, 0) beside N - 1 records (0, 1): the weakest level on N records, which its scale ``log-record``
  declares.

References whose definition number was not checked against the paper say so.
"""

from __future__ import annotations

from implgraph.definitions.base import register
from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.families import RatioOfAverages

_UNIFORM = "the secret is the record, with the uniform prior over the N records (the table's mean)"


@register
class LocalInformationPrivacy(RatioOfAverages):
    name = "lip"
    title = "eps-local information privacy"
    reference = ("Jiang, Sarwate and Wang, Local information privacy and its application to privacy-preserving data "
                 "aggregation, IEEE TDSC 19(3), 2022 (eps-LIP: e^-eps <= P(y | x)/P(y) <= e^eps; definition number "
                 f"not checked); {_UNIFORM}")
    scale, level_symbol = "log", "eps"
    declares = (RatioLevel("subset", "two-sided"), SubsetSize("1"))
    params = {}
    model = "dp"
    label_format = "ε-LIP"


@register
class PointwiseMaximalLeakage(RatioOfAverages):
    name = "pml"
    title = "eps-pointwise maximal leakage"
    reference = ("Saeidian, Cervia, Oechtering and Skoglund, Pointwise maximal leakage, IEEE Trans. Inf. Theory 69(12), "
                 "2023 (l(X -> y) = log max_x P(y | x)/P(y) over x of positive prior, bounded over every outcome y; "
                 f"definition number not checked); {_UNIFORM}")
    scale, level_symbol = "log-record", "eps"       # at most log N on N records, attained: its weakest level
    declares = (RatioLevel("subset", "one-sided"), SubsetSize("1"))
    params = {}
    model = "dp"
    label_format = "ε-PML"
