"""The neighbourhood of a definition in the Hasse diagram: the definitions one arrow away, into it and out of
it, each arrow with its f (the level it gives) and a link to its pair; drawn on the definition's page as a
small diagram (:func:`neighbourhoods`)."""

from __future__ import annotations

from implgraph.site.html import definition_file, edge_file

__all__ = ["neighbourhood", "neighbourhoods"]


def _f(cells, a: str, b: str):
    c = cells.get((a, b)) or {}
    return c.get("tight") or c.get("proved_f")


def _arrow(H, cells, other: str, a: str, b: str) -> dict:
    """One arrow of the diagram: the class at its other end (its first member's page), the pair it stands for
    and that pair's f (None: no closed form)."""
    from implgraph.site.model import node_definition
    return {"name": " = ".join(H.nodes[other]["members"]), "href": definition_file(node_definition(other)),
            "pair": f"{a} \u21d2 {b}", "pair_href": edge_file(a, b), "f": _f(cells, a, b)}


def neighbourhood(H, cells, node: str) -> dict | None:
    """The arrows of the Hasse diagram ``H`` (:func:`implgraph.site.hasse.hasse`) into and out of the class of
    the matrix node ``node``: ``{"node", "members", "into": [arrow], "out": [arrow]}``, each arrow
    ``{"name", "href", "pair", "pair_href", "f"}``; None when ``node`` is not in the diagram. ``cells``:
    ``{(a, b): matrix cell}`` (an arrow's f is its pair's tight f, else the f proved)."""
    cls = next((n for n, d in H.nodes(data=True) if node in d["members"]), None)
    if cls is None:
        return None
    into = [_arrow(H, cells, u, d["a"], d["b"]) for u, _, d in H.in_edges(cls, data=True)]
    out = [_arrow(H, cells, v, d["a"], d["b"]) for _, v, d in H.out_edges(cls, data=True)]
    return {"node": node, "members": H.nodes[cls]["members"], "into": sorted(into, key=lambda x: x["name"]),
            "out": sorted(out, key=lambda x: x["name"])}


def neighbourhoods(data, name: str) -> list:
    """The neighbourhood of each matrix node of the definition ``name`` (in the matrix's order)."""
    from implgraph.site.model import node_definition
    H = data["hasse"]
    cells = {(c["a"], c["b"]): c for c in data["matrix"]["cells"]}
    out = [neighbourhood(H, cells, n) for n in data["matrix"]["nodes"] if node_definition(n) == name]
    return [x for x in out if x is not None]
