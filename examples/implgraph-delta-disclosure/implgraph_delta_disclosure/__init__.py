"""delta-disclosure privacy (Brickell and Shmatikov, KDD 2008) as an implgraph plugin.

For every equivalence class E and bucket B: |ln(Pr_E(B) / Pr_D(B))| < delta. The optimal delta is
the natural log of the largest ratio between a class's and the table's bucket probabilities, either
way: a max of ratios of averages, so the helper class gives the exact levels and the z3 encoding.
"""

from implgraph.definitions.families import RatioOfAverages


class DeltaDisclosure(RatioOfAverages):
    name = "delta-disclosure"
    title = "delta-disclosure privacy"
    level_symbol = "delta"
    scale = "log"            # delta = ln(ratio)
    family = "class"         # every equivalence class against the whole table
    reference = ("J. Brickell, V. Shmatikov, The cost of privacy: destruction of data-mining utility "
                 "in anonymized data publishing, KDD 2008, Definition 4")
