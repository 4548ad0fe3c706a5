"""Renyi-2 closeness: every equivalence class's distribution is within Renyi divergence of order 2 of the
table's, D_2(P_E || P) = log(sum_l P_E(l)^2 / P(l)) <= d."""

from implgraph.definitions.divergences import Divergence, DivergenceDefinition


class Renyi2Closeness(DivergenceDefinition):
    name = "example-renyi2-closeness"
    title = "Renyi-2 closeness"
    level_symbol = "d"
    model = "closeness"
    reference = "Renyi, On measures of entropy and information, 1961 (order 2) as a closeness distance"
    level = Divergence("renyi", order=2, compares="class")
