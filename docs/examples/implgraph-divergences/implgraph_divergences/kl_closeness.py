"""KL closeness: every equivalence class's distribution of the sensitive value is within Kullback-Leibler
divergence d of the whole table's, D(P_E || P) <= d (the KL variant of t-closeness: Li, Li and
Venkatasubramanian, ICDE 2007, Section 4 names it as a possible distance)."""

from implgraph.definitions.divergences import Divergence, DivergenceDefinition


class KLCloseness(DivergenceDefinition):
    name = "example-kl-closeness"
    title = "KL closeness"
    level_symbol = "d"
    model = "closeness"
    reference = "Li, Li, Venkatasubramanian, t-closeness, ICDE 2007, Section 4 (KL as the distance)"
    level = Divergence("kl", compares="class")     # every class against the table
