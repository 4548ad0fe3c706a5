"""The order a map's nodes and edges are handed to Graphviz in, and the nodes' fill colours.

The same graph gives the same order: the definitions' registration order, then the parameters in numeric
order (:func:`node_order`), the edges by their ends' order (:func:`edge_order`)."""

from __future__ import annotations

import re

from implgraph import definitions

__all__ = ["model_fill", "node_order", "edge_order", "ORDERS", "MODEL_FILLS", "OTHER_FILL"]

#: fill colours of the models, in registration order; a node of no declared model is grey
MODEL_FILLS = ("#e8f0fb", "#fdf0e0", "#e9f5e9", "#f3e8f7")
OTHER_FILL = "#f2f2f2"
OTHER_MODEL = "other"


def _registry_order() -> tuple[dict, dict]:
    """``({definition name: index}, {model: index})`` in registration order (``other`` excluded)."""
    names, models = {}, {}
    for d in definitions.all_definitions():
        names.setdefault(d.name, len(names))
        if d.model != OTHER_MODEL:
            models.setdefault(d.model, len(models))
    return names, models


def model_fill(model) -> str:
    """The fill colour of a node of ``model``.

    Examples
    --------
    >>> model_fill("no such model") == OTHER_FILL
    True
    """
    index = _registry_order()[1].get(model)
    return OTHER_FILL if index is None else MODEL_FILLS[index % len(MODEL_FILLS)]
def _order_key(D, n, names, models):
    d = D.nodes[n]
    family = str(d.get("family", n))
    definition = family.replace("@class", "")
    natural = tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", n))
    return (models.get(d.get("model"), len(models)), names.get(definition, len(names)),
            family.endswith("@class"), family, natural)


#: the orders nodes are handed to dot in, tried in turn (dot's crossing minimisation starts from it):
#: the definitions' registration order, the same with the models' order reversed, all reversed
ORDERS = ("registry", "models reversed", "reversed")


def node_order(D, variant: str = "registry") -> list:
    """The nodes in the order ``variant`` of :data:`ORDERS`."""
    names, models = _registry_order()
    key = (lambda n: _order_key(D, n, names, models))
    if variant == "models reversed":
        key = (lambda n: (-_order_key(D, n, names, models)[0],) + _order_key(D, n, names, models)[1:])
    order = sorted(D, key=key)
    return order[::-1] if variant == "reversed" else order


def edge_order(D, order=None) -> list:
    rank = {n: i for i, n in enumerate(order or node_order(D))}
    return sorted(D.edges(keys=True, data=True),
                  key=lambda e: (e[3].get("layer") == "overlay", rank[e[0]], rank[e[1]], e[3]["kind"], str(e[2])))
