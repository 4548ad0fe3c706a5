"""The text on a map's arrows: a label per edge (its name, f and conditions), the conditions numbered for the
key below the drawing, the overlay's claims lettered, and the implications between two nodes merged into one
arrow."""

from __future__ import annotations

from implgraph.map.order import edge_order as _edge_order

__all__ = ["condition_numbers", "edge_label", "lettered", "merged_arrows", "HOLDS"]

#: how generally an edge holds (implgraph.map.drawing.holds), the most general first
HOLDS = ("always", "range", "point")

def condition_numbers(D) -> dict:
    """``{conditions: number}``: the edges' distinct conditions numbered in the drawing's order."""
    out: dict = {}
    for _, _, _, d in _edge_order(D):
        if d.get("cond") and not d.get("letter"):
            out.setdefault(d["cond"], len(out) + 1)
    return out


def edge_label(d, numbers=None) -> str:
    """An edge's label: its name, f and conditions, one per line; with ``numbers`` the conditions are
    their number, on the last line (the figure's key lists them, as Fig. 2 of ekenstedt2022 does).

    Examples
    --------
    >>> d = {"name": "", "f": "$t^{2}$", "cond": "$k = 1$", "label": "$t^{2}$\\n$k = 1$"}
    >>> edge_label(d), edge_label(d, {"$k = 1$": 3})
    ('$t^{2}$\\n$k = 1$', '$t^{2}$\\n(3)')
    """
    if d.get("letter"):
        return d["letter"]
    if not numbers or not d.get("cond"):
        return d.get("label", "")
    lines = [x for x in (d.get("name"), d.get("f")) if x]
    return "\n".join(lines + [f"({numbers[d['cond']]})"])


def lettered(D):
    """A copy of ``D`` whose claims of the overlay are labelled with a letter (``a``, ``b``, ...), each
    claim's name, verdict and conditions going to the key below the drawing: ``a: Lemma 1: refuted, ...``
    (the names are long, the arrows many); ``(copy, key lines)``."""
    import networkx as nx
    out = nx.MultiDiGraph(D)
    key = []
    for u, v, k, d in _edge_order(D):
        if d.get("layer") != "overlay" or not d.get("label"):
            continue
        letter = _letter(len(key))
        lines = d["label"].split("\n") if d.get("name", "").count("\n") else [d["label"].replace("\n", ", ")]
        key.append((f"{letter}: " + "; ".join(lines), d["color"]))
        out.edges[u, v, k]["letter"] = letter
    return out, key


def _letter(i: int) -> str:
    """``a``, ..., ``z``, ``aa``, ``ab``, ...

    Examples
    --------
    >>> [_letter(i) for i in (0, 25, 26, 27)]
    ['a', 'z', 'aa', 'ab']
    """
    word = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        word = chr(ord("a") + r) + word
    return word


def merged_arrows(D, numbers):
    """A copy of ``D`` where the established implications between two nodes of different level symbols
    are one arrow (double-headed when they go both ways): a line per f, the target's level = f, with the
    numbers of the conditions it holds under (``ε = ln(t) (4, 5)``, ``t = e^ε (4)``); ``ε = ...`` says
    which way each line goes.  Pairs with an unlabelled (identity) implication are kept as they are."""
    import networkx as nx
    out = nx.MultiDiGraph(D)
    pairs: dict = {}
    for u, v, k, d in D.edges(keys=True, data=True):
        if d["kind"] == "implies" and d.get("layer") == "established" and u != v:
            pairs.setdefault(frozenset((u, v)), []).append((u, v, k, d))
    for group in pairs.values():
        if len(group) < 2 or any(not d.get("f") for *_, d in group):
            continue
        refs: dict = {}
        forward = backward = False
        u0, v0 = group[0][:2]
        for u, v, k, d in group:
            same = (u, v) == (u0, v0)
            forward |= same or d.get("both") == "1"
            backward |= not same or d.get("both") == "1"
            for line in d["f"].split("\n"):
                got = refs.setdefault(line, [])
                if got is not None:
                    refs[line] = None if not d.get("cond") else got + [numbers[d["cond"]]]
        lines = [x for x in dict.fromkeys(d.get("name", "") for *_, d in group) if x]
        lines += [f + (f" ({', '.join(map(str, sorted(set(r))))})" if r else "") for f, r in refs.items()]
        base = dict(group[0][3])
        for u, v, k, _ in group:
            out.remove_edge(u, v, k)
        if not forward:
            u0, v0 = v0, u0
        base.update(name="", f="\n".join(lines), cond="", label="\n".join(lines),
                    both="1" if forward and backward else "0",
                    claims="; ".join(d["claims"] for *_, d in group),
                    holds=min((d.get("holds", "always") for *_, d in group), key=HOLDS.index))
        out.add_edge(u0, v0, key=group[0][2], **base)
    return out
