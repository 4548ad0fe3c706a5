"""Basic beta-likeness (J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee,
VLDB 2012, Definition 2).

With P the table's distribution of the sensitive values and Q a class's, a class has basic
beta-likeness if ``(q_i - p_i) / p_i <= beta`` for every value with ``p_i < q_i``. Only a class
*above* the table counts (one-sided); beta is the largest ``q_i / p_i`` minus 1 (affine scale), 0
when every class has the table's distribution. Undefined (None) without classes.
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class BasicBetaLikeness(RatioOfAverages):
    name = "basic-beta-likeness"
    title = "basic beta-likeness"
    reference = "J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee, VLDB 2012, Definition 2"
    scale, level_symbol = "affine", "beta"
    declares = (RatioLevel("class", "one-sided"),)
    params = {}
    model = "closeness"
    label_format = "basic β-likeness"
