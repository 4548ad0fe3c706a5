"""Renyi-2 local privacy: every two records' output distributions are within Renyi divergence of order 2,
both ways: D_2(x_i || x_j) <= d for all i != j (local Renyi DP at order 2; Mironov, Renyi differential
privacy, CSF 2017, for one pair of inputs)."""

from implgraph.definitions.divergences import Divergence, DivergenceDefinition


class Renyi2LocalPrivacy(DivergenceDefinition):
    name = "example-renyi2-ldp"
    title = "Renyi-2 local privacy"
    level_symbol = "d"
    model = "dp"
    reference = "Mironov, Renyi differential privacy, CSF 2017 (order 2, between two records)"
    level = Divergence("renyi", order=2, compares="pairs")
