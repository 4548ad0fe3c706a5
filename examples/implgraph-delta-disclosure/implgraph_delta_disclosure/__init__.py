"""delta-disclosure privacy (Brickell and Shmatikov, KDD 2008) as an implgraph plugin: a declaration.

For every equivalence class E and bucket B: |ln(Pr_E(B) / Pr_D(B))| < delta, i.e. the log of the
largest class-to-table ratio either way; the exact levels and the z3 encoding follow from it.
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.families import RatioOfAverages


class DeltaDisclosure(RatioOfAverages):
    name = "delta-disclosure"
    title = "delta-disclosure privacy"
    level_symbol = "delta"
    scale = "log"            # delta = ln(ratio)
    # every equivalence class against the whole table; Pr_E / Pr_D and Pr_D / Pr_E both count
    declares = (RatioLevel("class", "two-sided"),)
    reference = ("J. Brickell, V. Shmatikov, The cost of privacy: destruction of data-mining utility "
                 "in anonymized data publishing, KDD 2008, Definition 4")
