"""The figure check: the arrows of the implication-map figures against what the theorems support.

Every arrow of a figure (:mod:`implgraph.map.arrows`) is instantiated on the groups-level map at ``N``
and each instance judged by the analysis of :mod:`implgraph.map.deduce`: *supported* (the map derives
the arrow), *contradicted* (it derives the opposite) or *unsupported*; supported facts the figures do
not draw are listed as omitted.
"""

from __future__ import annotations

from implgraph.map.deduce import Analysis, analyse
from implgraph.map.graph import groups_map
from implgraph.map.verdicts import ESTABLISHED

__all__ = ["figure_check"]


def _judge(an: Analysis, u, v, kind):
    if kind == "implies":
        if an.implies(u, v):
            return "supported", an.implication_trace(u, v)["claims"]
        if an.not_implies(u, v):
            return "contradicted", an.non_implication_trace(u, v)["trace"]
        return "unsupported", []
    if an.not_implies(u, v):
        return "supported", an.non_implication_trace(u, v)["trace"]
    if an.implies(u, v):
        return "contradicted", an.implication_trace(u, v)["claims"]
    return "unsupported", []


def figure_check(an: Analysis, arrows, examples: int = 3) -> dict:
    """Check the figures' arrows against the theorems (at the map's ``N``).

    Parameters
    ----------
    an : Analysis
        The analysis of a groups-level map.
    arrows : list of :class:`implgraph.map.arrows.Arrow`
    examples : int
        How many instances to list per arrow and verdict.

    Returns
    -------
    dict
        ``{"arrows": [...], "omitted": [...]}``: per arrow (and per reading where the printed kind
        and the proof's kind differ) the instances supported / contradicted / unsupported with
        example traces; ``omitted``: established claim edges (instantiated) that the figure's
        arrows do not give, directly or through a path or the propagation rules.
    """
    G = an.G
    N = G.graph.get("N")
    by_fig: dict = {}
    for ar in arrows:
        by_fig.setdefault(ar.figure, []).append(ar)
    out_arrows, omitted = [], []
    for fig, arrs in by_fig.items():
        fig_rules = []
        for ar in arrs:
            kinds = [("printed", ar.kind)]
            if ar.reading_kind and ar.reading_kind != ar.kind:
                kinds.append(("reading", ar.reading_kind))
            for basis, kind in kinds:
                out_arrows.append(_arrow_row(an, fig, ar, basis, kind, N, examples))
            fig_rules += ar.rules(ar.reading_kind or ar.kind)
        omitted += _omitted(an, fig, fig_rules, N, examples)
    return {"N": N, "arrows": out_arrows, "omitted": omitted}


def _arrow_row(an: Analysis, fig, ar, basis, kind, N, examples) -> dict:
    """One arrow of a figure read as ``kind`` (``basis``: as printed, or under the proof's reading): its
    instances at ``N`` supported / contradicted / unsupported by the theorems' map, with examples.

    Returns
    -------
    dict
        The arrow's row of :func:`figure_check`.
    """
    G = an.G
    FG = groups_map(ar.rules(kind), N, structural=False)
    counts = {"supported": 0, "contradicted": 0, "unsupported": 0}
    ex: dict = {"supported": [], "contradicted": [], "unsupported": []}
    for u, v, key, d in FG.edges(keys=True, data=True):
        if u not in an.index or v not in an.index:
            counts["unsupported"] += 1
            if len(ex["unsupported"]) < examples:
                ex["unsupported"].append({"from": u, "to": v, "kind": d["kind"], "trace": [],
                                          "note": "node not in the theorems' map"})
            continue
        status, trace = _judge(an, u, v, d["kind"])
        counts[status] += 1
        if len(ex[status]) < examples:
            note = _direct_note(G, u, v, d["kind"]) if status != "supported" else None
            ex[status].append({"from": u, "to": v, "kind": d["kind"], "trace": trace,
                               **({"note": note} if note else {})})
    instances = sum(counts.values())
    return {"figure": fig, "index": ar.index, "label": ar.label, "claim": ar.claim,
            "from": ar.a.label(), "to": ar.b.label(), "kind": kind, "basis": basis,
            "style": ar.style, "when": [str(w) for w in ar.when], "line": ar.line,
            "instances": instances, **counts,
            "verdict": _arrow_verdict(counts, instances), "examples": ex}


def _omitted(an: Analysis, fig, fig_rules, N, examples) -> list:
    """The established claim edges (instantiated at ``N``) that a figure's arrows do not give, directly or
    through a path or the propagation rules (what the figure gives read charitably, under the readings, and
    closed like the theorems).

    Returns
    -------
    list of dict
        One per claim: its kind, how many instances are missing (with examples) and whether all lie within
        one definition.
    """
    G = an.G
    # what the figure gives (charitably, under the readings), closed like the theorems
    FG = groups_map(fig_rules, N)
    for n in G.nodes:
        if n not in FG:
            FG.add_node(n)
    fan = analyse(FG)
    missing: dict = {}
    for u, v, key, d in G.edges(keys=True, data=True):
        if d.get("verdict") not in ESTABLISHED or u == v:
            continue
        if d["kind"] == "implies":
            given = fan.implies(u, v)
        else:
            given = fan.not_implies(u, v)
        if not given:
            m = missing.setdefault(key, {"figure": fig, "claim": key, "kind": d["kind"], "instances": 0,
                                         "examples": [], "within_definition": True})
            m["instances"] += 1
            if G.nodes[u]["family"] != G.nodes[v]["family"]:
                m["within_definition"] = False
            if len(m["examples"]) < examples:
                m["examples"].append([u, v])
    return list(missing.values())


def _arrow_verdict(counts, instances):
    if instances == 0:
        return "no instance"
    if counts["contradicted"]:
        return "contradicted"
    if counts["unsupported"]:
        return "partly supported" if counts["supported"] else "unsupported"
    return "supported"


def _direct_note(G, u, v, kind):
    """Mention claims on this very pair that are not established (refuted / unknown)."""
    if not G.has_node(u) or not G.has_node(v):
        return None
    notes = []
    for key, d in (G.get_edge_data(u, v) or {}).items():
        if d.get("kind") == kind and d.get("verdict") not in ESTABLISHED:
            notes.append(f"{key} ({d.get('verdict')})")
    return ("only " + ", ".join(notes)) if notes else None
