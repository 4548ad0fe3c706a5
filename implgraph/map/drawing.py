"""The graph that is drawn: a map (definitions or groups level) reduced and labelled for a figure.

:func:`drawing` turns a map into a MultiDiGraph with string attributes only.  By default it holds what
the engine established:

- implications, transitively reduced for readability (:func:`networkx.transitive_reduction` on the
  condensation of the implication graph; edges inside a cycle of equivalent nodes are kept), each
  labelled with its level function as an equation, the target's level = f of the source's level
  (``ε = ln(t)``; an identity carries no label), the two directions of an equivalence on one
  double-headed arrow;
- non-implications, reduced to those no other one gives, crossed out (``cross="1"``: the papers'
  crossed-out arrows);
- on the definitions level, the conditions under which an edge holds (``k = 1``, ``k_DP = N - k_Clo``),
  from the rule's parameters and ``when`` (the definitions' declared parameter ranges left out); the
  edges within one family (between its group sizes) are left to the groups level, as Fig. 2 of [1]_
  leaves them to its Fig. 1;
- the results of the papers in :data:`implgraph.map.rules.PAPER_DASHED` dashed, and only those
  (Fig. 1/2 of [1]_: "findings by [5]").

``overlay="claims"`` adds the papers' claims that the engine did not establish (``layer="overlay"``):
refuted ones in red, undecided ones in grey, named as the papers name them
(:func:`implgraph.map.labels.rule_label`), on the groups level one representative instance per claim.

Every label is text with math (:mod:`implgraph.map.labels`): f and conditions through
:func:`sympy.latex`.  :mod:`implgraph.map.render` lays the graph out and writes it.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

import networkx as nx
import sympy

from implgraph.core.errors import InputError
from implgraph.map.deduce import analyse, reduced_non_implications
from implgraph.map.graph import family_of
from implgraph.map.instantiate import edge_f
from implgraph.map.edge_conditions import _definition, condition_relations, conditions, holds  # noqa: F401
from implgraph.map.labels import math, node_label, rule_label, text
from implgraph.map.verdicts import ESTABLISHED

__all__ = ["drawing", "f_label", "conditions", "COLORS", "LABELS", "OVERLAYS"]

COLORS = {"established": "#222222", "non": "#1f5fa8", "refuted": "#d62728", "unknown": "#8c8c8c"}
#: what an edge's label says: f and conditions; the claims' names too; nothing
LABELS = ("f", "claims", "none")
#: what can be drawn over the established map
OVERLAYS = ("claims",)


def _level(family: str):
    d = _definition(family)
    return sympy.Symbol(d.level_symbol, real=True) if d is not None and d.level_symbol else None


def f_label(f, source_level=None, target_level=None) -> str:
    """The label of an implication: ``target level = f`` (:func:`implgraph.map.labels.math`), only f when
    the target's level is unknown or is the source's symbol; ``""`` for an identity (the level carries over).

    Examples
    --------
    >>> t, e = sympy.Symbol("t", real=True), sympy.Symbol("eps", real=True)
    >>> f_label(sympy.log(t), t, e), f_label(t, t, t), f_label(t ** 2, t, t)
    ('$\\\\epsilon = \\\\ln{\\\\left(t \\\\right)}$', '', '$t^{2}$')
    """
    if f is None:
        return ""
    f = sympy.sympify(f)
    source = source_level.name if source_level is not None else None
    target = target_level.name if target_level is not None else None
    if f.is_Symbol and f.name == source and target in (None, source):
        return ""
    if target is None or target == source or target in {s.name for s in f.free_symbols}:
        return math(f)
    return math(sympy.Eq(sympy.Symbol(target), f, evaluate=False))


# ------------------------------------------------------------------------------------------------
# the drawing graph
# ------------------------------------------------------------------------------------------------

def _edge(D, u, v, key=None, name="", f="", cond="", **attrs):
    """Add a drawn edge; its label's parts: the claim's name, the f lines, the conditions (``label`` is
    them in that order, one per line; :mod:`implgraph.map.layout` may number the conditions instead)."""
    base = dict(kind="implies", claims="", status="", color=COLORS["established"], style="solid", cross="0",
                both="0", layer="established", name=name, f=f, cond=cond, holds="always",
                label="\n".join(x for x in (name, f, cond) if x))
    base.update(attrs)
    D.add_edge(u, v, key=key, **base)


def drawing(G, an=None, reduce: bool = True, labels: str = "f", overlay: str | None = None) -> nx.MultiDiGraph:
    """The graph to draw (string attributes only), see the module docstring.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A map from :mod:`implgraph.map.graph`.
    an : implgraph.map.deduce.Analysis, optional
        Its analysis (computed when omitted; groups level only).
    reduce : bool
        Transitive reduction of implications and reduction of non-implications.
    labels : {"f", "claims", "none"}
        What an edge's label says (:data:`LABELS`).
    overlay : {None, "claims"}
        ``"claims"``: add the claims the engine did not establish (refuted in red, undecided in grey).
    """
    if labels not in LABELS:
        raise InputError(f"labels {labels!r}", fix="use " + ", ".join(LABELS))
    if overlay not in (None,) + OVERLAYS:
        raise InputError(f"overlay {overlay!r}", fix="use " + ", ".join(OVERLAYS))
    groups = G.graph.get("level") == "groups"
    D = nx.MultiDiGraph(level=G.graph.get("level", ""), N=str(G.graph.get("N", "")), labels=labels,
                        overlay=overlay or "")
    for n, d in G.nodes(data=True):
        D.add_node(n, label=node_label(str(d.get("label", n))), model=str(d.get("model", "other")),
                   family=str(d.get("family", family_of(n))))
    if groups:
        _groups_edges(G, D, an if an is not None else analyse(G), reduce, labels)
    else:
        _definitions_edges(G, D, labels)
        _pair_opposites(D)
    if overlay == "claims":
        _overlay(G, D, labels, groups)
    return _merge_parallel(D)


def _groups_edges(G, D, an, reduce, labels):
    """The established edges of a groups-level map (implications reduced, non-implications reduced)."""
    H = an.H
    if reduce and H.number_of_edges():
        C = nx.condensation(H)
        comp = C.graph["mapping"]
        TR = nx.transitive_reduction(C)
        keep, used = [], set()
        for u, v in H.edges:
            cu, cv = comp[u], comp[v]
            if cu == cv:
                keep.append((u, v))
            elif TR.has_edge(cu, cv) and (cu, cv) not in used:
                used.add((cu, cv))
                keep.append((u, v))
    else:
        keep = list(H.edges)
    keep_set = set(keep)
    for u, v in keep:
        claim = H.edges[u, v]["claim"]
        data = G.get_edge_data(u, v)[claim]
        both = (v, u) in keep_set
        if both:
            back_is_first = "converse" in claim and "converse" not in H.edges[v, u]["claim"]
            if back_is_first or ("converse" in claim) == ("converse" in H.edges[v, u]["claim"]) and (v, u) < (u, v):
                continue        # drawn once, double-headed, from the claim's own direction
        name = text(rule_label(data["rule"])) if labels == "claims" else ""
        fs = [_group_f(G, u, v, data)] if labels != "none" else []
        if both:
            back_claim = H.edges[v, u]["claim"]
            if labels != "none":
                fs.append(_group_f(G, v, u, G.get_edge_data(v, u)[back_claim]))
            claim = f"{claim}; {back_claim}" if back_claim != claim else claim
        _edge(D, u, v, name=name, f="\n".join(x for x in fs if x), claims=claim, status=H.edges[u, v]["status"],
              style="dashed" if data.get("dashed") else "solid", both="1" if both else "0")
    pairs = reduced_non_implications(an) if reduce else list(an.pairs(an.M))
    fans: dict = {}
    for a, c in pairs:
        fans.setdefault((a, G.nodes[c].get("family")), []).append(c)
    for (a, fam), targets in fans.items():
        ks = sorted(G.nodes[c].get("params", {}).get("k", 0) for c in targets)
        claims = sorted({k for c in targets for k, _, _ in an.non_edges[(a, c)]})
        if reduce and len(targets) >= 4 and ks == list(range(ks[0], ks[0] + len(ks))):
            # a fan to consecutive group sizes of one family: one arrow, labelled with the range
            first = min(targets, key=lambda c: G.nodes[c]["params"]["k"])
            rng = f"${ks[0]} \\leq k \\leq {ks[-1]}$"
            _edge(D, a, first, kind="not-implies", cond=rng if labels != "none" else "", claims="; ".join(claims),
                  status="established", color=COLORS["non"], cross="1", fan=f"{ks[0]}:{ks[-1]}")
            continue
        for c in targets:
            claims = [k for k, _, _ in an.non_edges[(a, c)]]
            _edge(D, a, c, kind="not-implies", claims="; ".join(claims), status="established", color=COLORS["non"],
                  cross="1")
    _collapse_fans(G, D)


def _group_f(G, u, v, data) -> str:
    return f_label(edge_f(data), _level(G.nodes[u].get("family", u)), _level(G.nodes[v].get("family", v)))


def _collapse_fans(G, D):
    """A family whose nodes have no edge but fans covering all of them is drawn as one node (k symbolic)."""
    fans: dict = {}
    for _, v, d in D.edges(data=True):
        if d.get("fan"):
            fans.setdefault(D.nodes[v]["family"], set()).add((v, d["fan"]))
    for family, targets in fans.items():
        if len(targets) != 1:
            continue
        (rep, span), = targets
        low, high = (int(x) for x in span.split(":"))
        members = [n for n in D if D.nodes[n]["family"] == family]
        others = [n for n in members if n != rep]
        if len(members) != high - low + 1 or any(D.degree(n) for n in others) or D.out_degree(rep) \
                or any(not d.get("fan") for _, _, d in D.in_edges(rep, data=True)):
            continue
        D.remove_nodes_from(others)
        d = _definition(family)
        if d is not None:
            D.nodes[rep]["label"] = node_label(d.label({}, in_classes=family.endswith("@class")))


def _definitions_edges(G, D, labels):
    """The established rules of a definitions-level map, with their conditions; equivalences merged."""
    done = set()
    for u, v, key, d in G.edges(keys=True, data=True):
        base, _, tail = key.partition("#")
        if tail.endswith("converse") and d.get("verdict") in ESTABLISHED:
            first = base if tail == "converse" else f"{base}#{tail[:-len('-converse')]}"
            d1 = (G.get_edge_data(v, u) or {}).get(first)
            if d1 is not None and d1.get("verdict") in ESTABLISHED:
                done.add(key)   # drawn with its first direction, double-headed
    for u, v, key, d in G.edges(keys=True, data=True):
        r = d["rule"]
        if key in done or d.get("verdict") not in ESTABLISHED or u == v:
            continue            # the other direction of an equivalence; a claim not established; within a family
        name = text(rule_label(r)) if labels == "claims" else ""
        cond = ", ".join(conditions(r)) if labels != "none" else ""
        if d["kind"] == "not-implies":
            _edge(D, u, v, key=key, kind="not-implies", name=name, cond=cond, claims=key, status=d["verdict"],
                  color=COLORS["non"], style="dashed" if d.get("dashed") else "solid", cross="1", holds=holds(r))
            continue
        back = None
        if r.basis in ("printed", "reading"):
            for k2, d2 in (G.get_edge_data(v, u) or {}).items():
                if k2 in (f"{key}#converse", f"{key}-converse") and d2.get("verdict") in ESTABLISHED:
                    back = (k2, d2["rule"])
        fs = []
        if labels != "none":
            fs.append(f_label(r.f, r.a.level, r.b.level))
            if back:
                fs.append(f_label(back[1].f, back[1].a.level, back[1].b.level))
        _edge(D, u, v, key=key, name=name, f="\n".join(x for x in fs if x), cond=cond,
              claims=key + (f"; {back[0]}" if back else ""), status=d["verdict"],
              style="dashed" if d.get("dashed") else "solid", both="1" if back else "0", holds=holds(r))


def _pair_opposites(D):
    """Two established implications in opposite directions under the same conditions (Theorem 2a and 2b:
    both at k = 1) drawn as one double-headed arrow, each f on its own line (``ε = ...`` says which way)."""
    denied = {(u, v) for u, v, d in D.edges(data=True) if d["kind"] == "not-implies"}
    # the arrow points the way that holds for every parameter (Theorem 2b: eps-LDP => (k,t)-closeness,
    # where (k,t)-closeness =/=> eps-LDP for k >= 2), so that it ranks the nodes (implgraph.map.layout)
    edges = sorted((e for e in D.edges(keys=True, data=True) if e[3]["kind"] == "implies"
                    and e[3]["both"] == "0" and e[3]["layer"] == "established" and e[0] != e[1]),
                   key=lambda e: ((e[0], e[1]) in denied, str(e[2])))
    used = set()
    for u, v, k, d in edges:
        if k in used:
            continue
        for u2, v2, k2, d2 in edges:
            if (u2, v2) == (v, u) and k2 not in used and d2["cond"] == d["cond"] and d2["style"] == d["style"]:
                used.update((k, k2))
                name = "; ".join(x for x in (d["name"], d2["name"]) if x)
                f = "\n".join(x for x in (d["f"], d2["f"]) if x)
                D.remove_edge(u, v, k)
                D.remove_edge(v, u, k2)
                _edge(D, u, v, key=k, name=name, f=f, cond=d["cond"], claims=f"{d['claims']}; {d2['claims']}",
                      status=d["status"], style=d["style"], both="1", holds=d["holds"])
                break


def _overlay(G, D, labels, groups):
    """The claims the engine did not establish: refuted in red, undecided in grey (one instance per claim
    on the groups level, labelled with the number of instances)."""
    seen: dict = {}
    for u, v, key, d in G.edges(keys=True, data=True):
        if d.get("verdict") in ESTABLISHED or u == v:
            continue
        if key in seen:
            seen[key][1] += 1
            continue
        seen[key] = [(u, v, d), 1]
    for key, ((u, v, d), count) in seen.items():
        verdict = d["verdict"]
        name = f"{rule_label(d['rule'])}: {verdict}" + (f" (×{count})" if groups and count > 1 else "")
        cond = ", ".join(conditions(d["rule"])) if labels != "none" and not groups else ""
        _edge(D, u, v, key=key, kind=d["kind"], name=text(name) if labels != "none" else "", cond=cond, claims=key,
              status=verdict, color=COLORS["refuted"] if verdict == "refuted" else COLORS["unknown"],
              style="dashed" if d.get("dashed") else "solid", cross="1" if d["kind"] == "not-implies" else "0",
              layer="overlay")


def _merge_parallel(D):
    """One drawn arrow per (u, v, kind, colour, style) of the overlay: labels (each claim's name) stacked,
    claims joined; the established edges each keep their arrow (a label is one edge's f and conditions)."""
    out = nx.MultiDiGraph(**D.graph)
    out.add_nodes_from(D.nodes(data=True))
    groups: dict = {}
    for u, v, k, d in D.edges(keys=True, data=True):
        sig = (u, v, d["kind"], d["color"], d["style"], d.get("both", "0"), d.get("layer"))
        if d.get("layer") != "overlay":
            sig += (k,)
        groups.setdefault(sig, []).append(d)
    for (u, v, *_), ds in groups.items():
        d = dict(ds[0])
        if len(ds) > 1:     # overlay claims on one pair: one line each (name, and its conditions inline)
            d["name"] = "\n".join(", ".join(p for p in (x["name"], x["cond"]) if p) for x in ds)
            d["f"] = d["cond"] = ""
            d["label"] = d["name"]
            d["claims"] = "; ".join(x["claims"] for x in ds)
        out.add_edge(u, v, **d)
    return out
