"""Multiplicative t-closeness (Ekenstedt et al. 2022, Definition 4; stochastic t-closeness of
Domingo-Ferrer and Soria-Comas 2015, Definition 3, with the distance of their Definition 4).

For every equivalence class E and bucket B_l: t^-1 <= Pr_D(B_l) / Pr_E(B_l) <= t.
Undefined (None) on a table without equivalence classes.
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.base import register
from implgraph.definitions.families import RatioOfAverages


@register
class MultTCloseness(RatioOfAverages):
    name = "mult-t-closeness"
    title = "multiplicative t-closeness"
    reference = "ekenstedt2022, Definition 4; domingo-ferrer2015, Definitions 3-4"
    scale, level_symbol = "ratio", "t"
    declares = (RatioLevel("class", "two-sided"),)
    params = {}
    model = "closeness"

    def label(self, params=None, in_classes=False):
        params = params or {}
        k, top = params.get("k"), params.get("max")
        if top is not None:
            return "mult. t-closeness\n(singleton classes)" if top == k == 1 else \
                f"mult. t-closeness\n(classes {k}..{top})"
        return f"mult. t-closeness\n({k}-anonymous)" if k is not None else "mult. t-closeness"
