"""KL local privacy: the output distributions of every two records are within Kullback-Leibler divergence
d of each other, both ways: D(x_i || x_j) <= d for all i != j (the KL analogue of eps-LDP; Duchi, Jordan
and Wainwright 2013 bound this divergence for eps-LDP channels)."""

from implgraph.definitions.divergences import Divergence, DivergenceDefinition


class KLLocalPrivacy(DivergenceDefinition):
    name = "example-kl-ldp"
    title = "KL local privacy"
    level_symbol = "d"
    model = "dp"
    reference = "Duchi, Jordan, Wainwright, Local privacy and statistical minimax rates, FOCS 2013"
    level = Divergence("kl", compares="pairs")      # every ordered pair of records
