"""delta-disclosure privacy (J. Brickell, V. Shmatikov, The cost of privacy: destruction of
data-mining utility in anonymized data publishing, KDD 2008, Definition 4).

For every equivalence class E and every sensitive value (bucket) B with ``Pr_D(B) > 0``:
``|ln(Pr_E(B) / Pr_D(B))| < delta``. The optimal (infimum) delta is ``ln`` of the largest of
``Pr_E(B) / Pr_D(B)`` and ``Pr_D(B) / Pr_E(B)``: a two-sided class comparison on the log scale,
infinite when a class lacks a value of the table. Undefined (None) without classes.

Registered as ``delta-disclosure-privacy``: the tutorial's example plugin
(``examples/implgraph-delta-disclosure``) keeps the name ``delta-disclosure``.
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class DeltaDisclosurePrivacy(RatioOfAverages):
    name = "delta-disclosure-privacy"
    title = "delta-disclosure privacy"
    reference = ("J. Brickell, V. Shmatikov, The cost of privacy: destruction of data-mining utility in "
                 "anonymized data publishing, KDD 2008, Definition 4")
    scale, level_symbol = "log", "delta"
    declares = (RatioLevel("class", "two-sided"),)
    params = {}
    model = "closeness"
    label_format = "δ-disclosure"
