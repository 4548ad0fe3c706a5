"""The Hasse diagram of the pair matrix: established implications, equivalent definitions merged.

The matrix's implication cells (proved or verified-bounded) form a directed graph on its nodes; its
strongly connected components are the classes of equivalent definitions (one node each), and the
transitive reduction of the condensation (:func:`networkx.transitive_reduction`) keeps only the
covering implications. The drawing is an inline SVG with real text: layers by longest path from the
strongest definitions, order within a layer by the barycentre of the layer above (a few sweeps).
"""

from __future__ import annotations

import html

import networkx as nx

#: pixels per character of the node labels (12 px sans-serif) and the layout's spacing
CHAR_W, NODE_H, GAP_X, GAP_Y, MARGIN = 7.2, 26, 24, 80, 20


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


def layout(H) -> dict:
    """``{node: (x, y, width)}``: layers by longest path, barycentre order, centred rows."""
    layer = {}
    for n in nx.topological_sort(H):
        layer[n] = max((layer[p] + 1 for p in H.predecessors(n)), default=0)
    rows = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for n in H.nodes:
        rows[layer[n]].append(n)
    width = {n: CHAR_W * len(_label(H, n)) + 16 for n in H.nodes}
    for _ in range(4):
        for i in range(1, len(rows)):
            pos = {n: j / max(len(r), 1) for r in rows[:i] for j, n in enumerate(r)}
            rows[i].sort(key=lambda n: sum(pos[p] for p in H.predecessors(n)) / max(H.in_degree(n), 1))
    total = max((sum(width[n] for n in r) + GAP_X * (len(r) - 1) for r in rows), default=0)
    place = {}
    for i, r in enumerate(rows):
        x = MARGIN + (total - sum(width[n] for n in r) - GAP_X * (len(r) - 1)) / 2
        for n in r:
            place[n] = (x, MARGIN + i * (NODE_H + GAP_Y), width[n])
            x += width[n] + GAP_X
    return place


def svg(H, node_href, edge_href) -> str:
    """The diagram as an SVG element: nodes link to ``node_href(n)``, edges to ``edge_href(a, b)``."""
    place = layout(H)
    W = max((x + w for x, _, w in place.values()), default=0) + MARGIN
    Hh = max((y for _, y, _ in place.values()), default=0) + NODE_H + MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="hasse" width="{W:.0f}" height="{Hh:.0f}" '
           f'viewBox="0 0 {W:.0f} {Hh:.0f}" role="img" aria-label="Hasse diagram">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>']
    for a, b, d in H.edges(data=True):
        xa, ya, wa = place[a]
        xb, yb, wb = place[b]
        f = d.get("tight") or "no closed form"
        out.append(f'<a href="{html.escape(edge_href(d["a"], d["b"]))}" class="edge"><line x1="{xa + wa / 2:.1f}" '
                   f'y1="{ya + NODE_H:.1f}" x2="{xb + wb / 2:.1f}" y2="{yb:.1f}" marker-end="url(#arrow)">'
                   f'<title>{html.escape(d["a"])} =&gt; {html.escape(d["b"])}: f = {html.escape(f)}</title>'
                   '</line></a>')
    for n, (x, y, w) in place.items():
        out.append(f'<a href="{html.escape(node_href(n))}" class="node"><rect x="{x:.1f}" y="{y:.1f}" '
                   f'width="{w:.1f}" height="{NODE_H}" rx="5"/><text x="{x + w / 2:.1f}" y="{y + NODE_H / 2 + 4:.1f}" '
                   f'text-anchor="middle">{html.escape(_label(H, n))}</text></a>')
    out.append("</svg>")
    return "\n".join(out)
