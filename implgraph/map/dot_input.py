"""A drawing graph as Graphviz input: every node a fixed box of its measured text, every edge's label an
empty HTML table of its text's size, the edges oriented so that dot's cycle breaking turns no implication
over (:func:`dot_source`)."""

from __future__ import annotations

import math

from implgraph.core.errors import InputError
from implgraph.map.edge_labels import HOLDS, edge_label
from implgraph.map.geometry import ARROW_PT, CROSS_PT, POINTS_PER_INCH
from implgraph.map.order import edge_order as _edge_order, node_order
from implgraph.map.typeset import PAD_PT, check_label, text_box

__all__ = ["dot_source", "label_box"]

#: Graphviz's spacing (points): between nodes of a rank, between ranks
NODESEP_PT, RANKSEP_PT = 3.0, 18.0
#: the room a node box is given beyond its text and padding, across (points)
NODE_EXTRA_PT = 0.0
#: how strongly a family's members are pulled into one column (dot's edge weight; a drawn edge has 1)
COLUMN_WEIGHT = 8


def label_box(label: str, crossed: bool) -> tuple:
    """``(w, h)`` of the box dot reserves for an edge's label (text plus padding; room for a cross)."""
    w, h = text_box(label) if label else (0.0, 0.0)
    pad = PAD_PT + (CROSS_PT / 2 if crossed else 0.0)
    if not label:
        return (CROSS_PT + 2 * PAD_PT, CROSS_PT + 2 * PAD_PT) if crossed else (0.0, 0.0)
    return (w + 2 * pad, h + 2 * pad)


def _table(w: float, h: float) -> str:
    """An empty HTML table of ``w`` x ``h`` points: a box dot places like a node."""
    return (f'<<TABLE FIXEDSIZE="TRUE" WIDTH="{math.ceil(w)}" HEIGHT="{math.ceil(h)}" BORDER="0" '
            f'CELLBORDER="0" CELLPADDING="0" CELLSPACING="0"><TR><TD></TD></TR></TABLE>>')


def _checked(label: str, what: str) -> str:
    problem = check_label(label)
    if problem:
        raise InputError(f"the label of {what} cannot be typeset ({problem}): {label!r}",
                         fix="write the definition's label or the claim's f in plain terms")
    return label



def _oriented(D, edges, tight: bool = False) -> list:
    """``[(a, b, k, d, ranks)]``: each edge as handed to dot, in a direction that closes no cycle, so that
    dot's cycle breaking turns no implication over.

    The established implications come first, the most general first (:data:`HOLDS`; equivalences before
    one-way implications that hold as generally), each ranking the stronger definition above
    (``ranks`` True).  An implication that would close a cycle (a special case, as singleton classes'
    mult. t-closeness => ε-LDP), a non-implication and a claim of the overlay follow without pulling
    their ends together (``ranks`` False): between two nodes the ranks already order, ranked the way
    they go (an arrow drawn upwards is handed over backwards), so dot routes it through the ranks it
    crosses clear of their labels; to a node nothing ranks yet, ranked below its source; between two
    nodes in no order, left out of the ranking (``ranks`` None: ``constraint=false``), so it moves
    nothing, or with ``tight`` ranked below its source all the same."""
    import networkx as nx
    H = nx.DiGraph()
    H.add_nodes_from(D)

    def later(e):
        d = e[3]
        first = d.get("layer") != "overlay" and d["kind"] == "implies"
        return (not first, HOLDS.index(d.get("holds", "always")) if first else 0, d.get("both") != "1")

    out = {}
    placed = None
    for i in sorted(range(len(edges)), key=lambda i: later(edges[i])):
        u, v, k, d = edges[i]
        if u == v:
            out[i] = (u, v, k, d, False)
            continue
        if not later(edges[i])[0]:
            if nx.has_path(H, v, u):
                out[i] = (v, u, k, d, False)
                continue
            H.add_edge(u, v)
            out[i] = (u, v, k, d, True)
            continue
        if placed is None:
            placed = {n for e in H.edges for n in e}
        if nx.has_path(H, v, u):
            out[i] = (v, u, k, d, False)
        elif nx.has_path(H, u, v) or v not in placed or tight:
            H.add_edge(u, v)
            out[i] = (u, v, k, d, False)
        else:
            out[i] = (u, v, k, d, None)
    return [out[i] for i in range(len(edges))]

def dot_source(D, numbers=None, variant: str = "registry", tight: bool = False, spread: float = 1.0):
    """``(graphviz.Digraph, {edge id: (u, v, key, data, label)})``: the drawing graph as Graphviz input
    (sizes, no positions); ``numbers``: the conditions as numbers (:func:`edge_label`); ``variant``: the
    order the nodes are handed over in (:data:`implgraph.map.order.ORDERS`); ``tight``: see :func:`_oriented`;
    ``spread``: the factor on the space between nodes and between ranks (more room for the labels of a large map)."""
    import graphviz
    order = node_order(D, variant)
    key = {n: f"n{i}" for i, n in enumerate(order)}     # dot's names (a node's own may hold ':', a port)
    A = graphviz.Digraph("implgraph")
    A.attr(rankdir="TB", nodesep=f"{spread * NODESEP_PT / POINTS_PER_INCH:.4f}",
           ranksep=f"{spread * RANKSEP_PT / POINTS_PER_INCH:.4f}",
           splines="true", margin="0", pad="0")
    A.attr("node", shape="box", fixedsize="true", label="", style="rounded")
    A.attr("edge", arrowsize=f"{ARROW_PT / 10:.2f}", arrowhead="normal")
    for n in order:
        d = D.nodes[n]
        w, h = text_box(_checked(d["label"], f"node {n}"))
        A.node(key[n], width=f"{(w + 2 * PAD_PT + NODE_EXTRA_PT) / POINTS_PER_INCH:.4f}", id=n,
                   height=f"{(h + 2 * PAD_PT + 2) / POINTS_PER_INCH:.4f}", group=d.get("family", n))
    edges = _edge_order(D, order)
    ids = {}
    for i, (a, b, k, d, ranks) in enumerate(_oriented(D, edges, tight)):
        eid = f"e{i}"
        u, v = edges[i][:2]
        crossed = d.get("cross") == "1"
        label = _checked(edge_label(d, numbers), f"edge {u} -> {v}")
        ids[eid] = (u, v, k, d, label)
        attrs = {"id": eid}
        w, h = label_box(label, crossed)
        if w:
            attrs["label"] = _table(w, h)
        if ranks is None:
            attrs["constraint"] = "false"
        elif not ranks:
            attrs["weight"] = "0"
        if d.get("both") == "1":
            attrs["dir"] = "both"
        elif (a, b) != (u, v):
            attrs["dir"] = "back"       # handed over from b to a: its arrowhead at dot's tail
        A.edge(key[a], key[b], **attrs)
    for a, b in _columns(D, order):
        A.edge(key[a], key[b], style="invis", weight=str(COLUMN_WEIGHT), dir="none", constraint="false")
    return A, ids


def _columns(D, order) -> list:
    """``[(a, b)]``: consecutive members of a family (in the order of their parameters), handed to dot as
    invisible edges that rank nothing but pull the members towards one column, so that a family drawn at
    several group sizes reads as a column."""
    families: dict = {}
    for n in order:
        families.setdefault(D.nodes[n].get("family", n), []).append(n)
    return [(a, b) for members in families.values() for a, b in zip(members, members[1:])]
