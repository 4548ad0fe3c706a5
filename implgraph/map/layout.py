"""Positions and colours of the drawn map, computed from the graph and the definitions' declarations.

No definition is placed by name.  The rows come from the implications themselves: a node's row is its
depth in the established implication order (the longest chain of implications leading to it, cycles of
equivalent nodes collapsed by :func:`networkx.condensation`), so stronger definitions stand above the
ones they imply and equivalent nodes side by side.  The columns come from the declarations: the
privacy models (``Definition.model``) in the order the definitions are registered, and within a model
the definitions in that order.  Fill colours are per model, in the same order.
"""

from __future__ import annotations

import re

import networkx as nx

from implgraph import definitions
from implgraph.map.verdicts import ESTABLISHED

__all__ = ["layout", "model_fill", "depths"]

#: fill colours of the models, in registration order; a node of no declared model is grey
MODEL_FILLS = ("#e8f0fb", "#fdf0e0", "#e9f5e9", "#f3e8f7")
OTHER_FILL = "#f2f2f2"
OTHER_MODEL = "other"

#: spacing in data units: between the columns of the groups level; between nodes side by side and
#: between the rows of the definitions level (its columns are two of those apart)
GROUP_DX, DEFINITION_DX, DEFINITION_DY = 3.2, 4.5, 5.0


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


def depths(D) -> dict:
    """``{node: depth}``: the longest chain of established implications ending at the node.

    Equivalent nodes (a cycle of implications) have the same depth.

    Examples
    --------
    >>> D = nx.MultiDiGraph()
    >>> D.add_edge("a", "b", kind="implies", status="proved")
    0
    >>> D.add_edge("b", "a", kind="implies", status="proved")
    0
    >>> D.add_edge("b", "c", kind="implies", status="proved")
    0
    >>> sorted(depths(D).items())
    [('a', 0), ('b', 0), ('c', 1)]
    """
    H = nx.DiGraph()
    H.add_nodes_from(D)
    H.add_edges_from((u, v) for u, v, d in D.edges(data=True)
                     if u != v and d.get("kind") == "implies" and d.get("status") in ESTABLISHED)
    C = nx.condensation(H)
    level = {}
    for c in nx.topological_sort(C):
        level[c] = max((level[p] + 1 for p in C.predecessors(c)), default=0)
    return {n: level[c] for n, c in C.graph["mapping"].items()}


def _order_key(D, n, names, models):
    d = D.nodes[n]
    family = str(d.get("family", n))
    definition = family.replace("@class", "")
    natural = tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", n))
    return (models.get(d.get("model"), len(models)), names.get(definition, len(names)),
            family.endswith("@class"), family, natural)


def layout(D) -> dict:
    """``{node: (x, y)}`` for the matplotlib renderer (see the module docstring).

    Groups level: one column per family, row = depth (nodes of a family that share a depth, which no
    implication orders: one row each, in parameter order, the later ones pushed down); nodes that share a
    cell are set side by side.
    Definitions level: one column per model, row = depth among the nodes of that model (the
    families' symbolic edges make most of them equivalent across models).
    """
    names, models = _registry_order()
    order = sorted(D, key=lambda n: _order_key(D, n, names, models))
    groups = D.graph.get("level") == "groups"
    if groups:
        depth = depths(D)
        column = lambda n: D.nodes[n].get("family", n)  # noqa: E731
        for family in dict.fromkeys(column(n) for n in order):
            members = [n for n in order if column(n) == family]
            # one row each: by depth, then in parameter order; a member that shares a row with one before it
            # (no implication orders them) goes one row further down, so a column never holds two nodes in a row
            row = None
            for n in sorted(members, key=lambda n: (depth[n], members.index(n))):
                row = depth[n] if row is None else max(depth[n], row + 1)
                depth[n] = row
    else:
        column = lambda n: models.get(D.nodes[n].get("model"), len(models))  # noqa: E731
        depth = {}
        for c in dict.fromkeys(column(n) for n in order):
            depth.update(depths(D.subgraph([n for n in order if column(n) == c])))
    columns: dict = {}
    for n in order:
        columns.setdefault(column(n), len(columns))
    dx, dy, side = (GROUP_DX, 1.0, 0.9) if groups else (2 * DEFINITION_DX, DEFINITION_DY, DEFINITION_DX)
    cells: dict = {}
    pos = {}
    for n in order:
        col = columns[column(n)]
        cell = cells.setdefault((col, depth[n]), [])
        pos[n] = (col * dx + side * len(cell), -depth[n] * dy)
        cell.append(n)
    return pos
