"""The Hasse diagram of the pair matrix: established implications, equivalent definitions merged.

The matrix's implication cells (proved or verified-bounded) form a directed graph on its nodes; its
strongly connected components are the classes of equivalent definitions (one node each), and the
transitive reduction of the condensation (:func:`networkx.transitive_reduction`) keeps only the
covering implications. The drawing is laid out by Graphviz and drawn as the papers' maps are
(:mod:`implgraph.map.layout`, :mod:`implgraph.map.plot`): edges routed around the nodes, no text over
another or over an edge (the layout's audit), f typeset on every arrow as the level it gives; an f too long
for an arrow is a number there, set in full below the diagram (:func:`drawing_graph`).
"""

from __future__ import annotations

import networkx as nx

#: the widest f written on an arrow (points); a wider one is numbered and set below the diagram
MAX_LABEL_PT = 110.0


def implication_graph(cells) -> nx.DiGraph:
    """Every matrix node, and an edge ``a -> b`` for each established implication cell ``a => b``.

    A trivial implication (f is the weakest level: every table satisfies b at f) and a vacuous one (f is b's own
    ceiling on every table of N records) say nothing of a and are left out: they are never drawn, and never merge two
    definitions into one class of equivalent ones.
    """
    G = nx.DiGraph()
    for c in cells:
        G.add_node(c["a"])
        G.add_node(c["b"])
        if c["relation"] == "implication" and not c.get("trivial") and not c.get("vacuous"):
            G.add_edge(c["a"], c["b"], tight=c.get("tight"), verdict=c["verdict"])
    return G


def hasse(cells) -> nx.DiGraph:
    """The covering relation between classes of equivalent nodes.

    Returns
    -------
    networkx.DiGraph
        One node per class (its id is the first member in matrix order), with the attribute
        ``members`` (the equivalent matrix nodes); an edge per covering implication, with ``a`` and
        ``b`` (a matrix cell it stands for) and that cell's ``tight`` f.
    """
    G = implication_graph(cells)
    order = {n: i for i, n in enumerate(G.nodes)}
    C = nx.condensation(G)
    rep = {}
    H = nx.DiGraph()
    for comp, data in C.nodes(data=True):
        members = sorted(data["members"], key=order.get)
        rep[comp] = members[0]
        H.add_node(members[0], members=members)
    R = nx.transitive_reduction(C)
    for u, v in R.edges:
        # the cell the covering edge stands for: the first members joined by an implication cell
        a, b = next((x, y) for x in H.nodes[rep[u]]["members"] for y in H.nodes[rep[v]]["members"]
                    if G.has_edge(x, y))
        H.add_edge(rep[u], rep[v], a=a, b=b, tight=G.edges[a, b].get("tight"))
    return H


def why_path(H, a: str, b: str) -> list:
    """The covering implications from ``a`` to ``b`` (a shortest chain of the Hasse diagram ``H``).

    Returns the matrix cells ``[(x, y), ...]`` of the chain's edges (x in the class of a, the last y
    in the class of b), ``[]`` when a and b are equivalent, ``None`` when no chain of established
    implications joins them.
    """
    cls = {m: n for n, d in H.nodes(data=True) for m in d["members"]}
    if a not in cls or b not in cls:
        return None
    if cls[a] == cls[b]:
        return []
    try:
        path = nx.shortest_path(H, cls[a], cls[b])
    except nx.NetworkXNoPath:
        return None
    return [(H.edges[u, v]["a"], H.edges[u, v]["b"]) for u, v in zip(path, path[1:])]


def _label(H, n) -> str:
    return " = ".join(H.nodes[n]["members"])


def _f_label(f, a: str, b: str) -> str | None:
    """The arrow's label for f from ``a`` to ``b`` (the level it gives, typeset; ``""`` for the same level),
    None when it cannot go on an arrow (not a formula, not typeset by mathtext, or too wide)."""
    from implgraph.map.drawing import _level, f_label
    from implgraph.map.typeset import check_label, text_box
    from implgraph.site.model import node_definition
    from implgraph.site.texmath import formula
    expr = formula(f)
    if expr is None:
        return None
    label = f_label(expr, _level(node_definition(a)), _level(node_definition(b)))
    if check_label(label) or text_box(label)[0] > MAX_LABEL_PT:
        return None
    return label


def drawing_graph(H, models=None):
    """``(D, notes)``: the Hasse diagram ``H`` as a drawing graph of :mod:`implgraph.map.drawing` (every
    arrow labelled with its f: typeset, ``""`` when the level carries over, else a number ``[i]``) and
    ``notes`` ``[(i, a, b, f)]``, the f numbered on the arrows (set in full below the diagram).
    ``models``: ``{definition: model}`` (the node's fill)."""
    from implgraph.map.drawing import _edge
    from implgraph.map.labels import node_label, text
    from implgraph.site.model import node_definition
    models = models or {}
    D = nx.MultiDiGraph(level="definitions", labels="f", overlay="")
    for n in H.nodes:
        D.add_node(n, label=node_label(_label(H, n)), model=str(models.get(node_definition(n)) or "other"),
                   family=n)
    notes = []
    for u, v, d in H.edges(data=True):
        f = d.get("tight")
        label = _f_label(f, d["a"], d["b"]) if f else None
        if label is None:
            notes.append((len(notes) + 1, d["a"], d["b"], f))
            label = text(f"[{len(notes)}]")
        _edge(D, u, v, f=label)
    return D, notes


def svg(H, node_href, edge_href, models=None) -> tuple:
    """``(svg element, notes)``: the diagram laid out by Graphviz (:func:`implgraph.map.layout.layout`, natural
    size) and drawn by :mod:`implgraph.map.plot`; nodes link to ``node_href(n)``, edges and their labels to
    ``edge_href(a, b)``; ``notes``: see :func:`drawing_graph`."""
    from implgraph.map.layout import layout
    from implgraph.map.plot import draw
    if not len(H):
        return "", []
    D, notes = drawing_graph(H, models)
    L = layout(D)
    urls = {n: node_href(n) for n in H.nodes}
    urls.update({(u, v): edge_href(d["a"], d["b"]) for u, v, d in H.edges(data=True)})
    text = draw(L, "svg", urls).decode()
    text = text[text.index("<svg"):]
    return text.replace("<svg ", '<svg class="hasse" role="img" aria-label="Hasse diagram" ', 1), notes
