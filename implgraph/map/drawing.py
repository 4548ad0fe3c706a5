"""The graph that is drawn: a map (definitions or groups level) reduced and labelled for a diagram.

:func:`drawing` turns a map into a MultiDiGraph with string attributes only:

- established implications, transitively reduced for readability (:func:`networkx.transitive_reduction`
  on the condensation of the implication graph; edges inside a cycle of equivalent nodes are kept),
  labelled with the level function ``f`` (plain text or LaTeX);
- established non-implications, reduced to those not derivable from another one, crossed out
  (``cross="1"``, as the paper's "crossed-out arrows");
- edges of the papers in :data:`implgraph.map.rules.PAPER_DASHED` dashed, and only those (Fig. 1/2 of
  [1]_: "findings by [5]");
- refuted claims in red, unknown ones in grey (on the groups level one representative instance per
  claim, labelled with the number of instances); claims are named as the papers name them
  (:func:`implgraph.map.labels.rule_label`: "Lemma 2.3", not the claim id).

:mod:`implgraph.map.render` writes it as SVG, PDF, PNG, TikZ or DOT text.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

import networkx as nx
import sympy

from implgraph.map.deduce import analyse, reduced_non_implications
from implgraph.map.graph import family_of
from implgraph.map.instantiate import edge_f
from implgraph.map.labels import rule_label
from implgraph.map.verdicts import ESTABLISHED

__all__ = ["drawing", "format_f", "COLORS"]

COLORS = {"established": "#222222", "refuted": "#d62728", "unknown": "#8c8c8c", "non": "#1f5fa8"}


def format_f(f, style: str = "plain") -> str:
    """A level function for a label: ``(9 e^ε + 1)/10`` (plain) or LaTeX."""
    if f is None:
        return ""
    f = sympy.sympify(f)
    syms = {s: sympy.Symbol({"eps": "varepsilon"}.get(s.name, s.name)) for s in f.free_symbols}
    if style == "latex":
        return "$" + sympy.latex(f.xreplace(syms), ln_notation=True) + "$"
    text = sympy.sstr(f)
    for a, b in (("exp(eps)", "e^ε"), ("**", "^"), ("eps", "ε"), ("log(", "ln("), ("*", "·")):
        text = text.replace(a, b)
    return text


def drawing(G, an=None, reduce: bool = True, labels: str = "plain") -> nx.MultiDiGraph:
    """The graph to draw (string attributes only), see the module docstring.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        A map from :mod:`implgraph.map.graph`.
    an : implgraph.map.deduce.Analysis, optional
        Its analysis (computed when omitted).
    reduce : bool
        Transitive reduction of implications and reduction of non-implications.
    labels : {"plain", "latex", "none"}
    """
    groups = G.graph.get("level") == "groups"
    D = nx.MultiDiGraph(level=G.graph.get("level", ""), N=str(G.graph.get("N", "")))
    for n, d in G.nodes(data=True):
        D.add_node(n, label=str(d.get("label", n)), model=str(d.get("model", "other")),
                   family=str(d.get("family", family_of(n))))
    if not groups:
        _definitions_edges(G, D, labels)
        return _merge_parallel(D)
    if an is None:
        an = analyse(G)
    # -- established implications -------------------------------------------------------------
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
        label = "" if labels == "none" else format_f(edge_f(data), labels)
        if both:
            back_claim = H.edges[v, u]["claim"]
            back = format_f(edge_f(G.get_edge_data(v, u)[back_claim]), labels) if labels != "none" else ""
            label = f"{label} / {back}" if back and back != label else label
            claim = f"{claim}; {back_claim}" if back_claim != claim else claim
        if label in ("t", "ε", "t / t", "ε / ε", "$t$", "$\\varepsilon$", "$t$ / $t$"):
            label = ""          # identity: the level carries over
        D.add_edge(u, v, kind="implies", label=label, claims=claim, status=H.edges[u, v]["status"],
                   color=COLORS["established"], style="dashed" if data.get("dashed") else "solid",
                   cross="0", both="1" if both else "0")
    # -- established non-implications ---------------------------------------------------------
    pairs = reduced_non_implications(an) if reduce else list(an.pairs(an.M))
    fans: dict = {}
    for a, c in pairs:
        fans.setdefault((a, G.nodes[c].get("family")), []).append(c)
    for (a, fam), targets in fans.items():
        ks = sorted(G.nodes[c].get("params", {}).get("k", 0) for c in targets)
        if reduce and len(targets) >= 4 and ks == list(range(ks[0], ks[0] + len(ks))):
            # a fan to consecutive group sizes of one family: one arrow, labelled with the range
            first = min(targets, key=lambda c: G.nodes[c]["params"]["k"])
            claims = sorted({k for c in targets for k, _, _ in an.non_edges[(a, c)]})
            D.add_edge(a, first, kind="not-implies", label=f"to every k = {ks[0]}..{ks[-1]}",
                       claims="; ".join(claims), status="established", color=COLORS["non"], style="solid",
                       cross="1", both="0")
            continue
        for c in targets:
            claims = [k for k, _, _ in an.non_edges[(a, c)]]
            D.add_edge(a, c, kind="not-implies", label="", claims="; ".join(claims), status="established",
                       color=COLORS["non"], style="solid", cross="1", both="0")
    # -- claims that are not established: one representative instance per claim ----------------
    seen: dict = {}
    for u, v, key, d in G.edges(keys=True, data=True):
        if d.get("verdict") in ESTABLISHED or u == v:
            continue
        if key in seen:
            seen[key][1] += 1
            continue
        seen[key] = [(u, v), 1]
        _claim_edge(D, u, v, key, d, labels)
    for key, ((u, v), count) in seen.items():
        if count > 1:
            d = D.edges[u, v, key]
            d["label"] = d["label"].split(":")[0] + f" (×{count})"
    return _merge_parallel(D)


def _merge_parallel(D):
    """One drawn edge per (u, v, kind, colour, style): labels stacked, claims joined."""
    out = nx.MultiDiGraph(**D.graph)
    out.add_nodes_from(D.nodes(data=True))
    groups: dict = {}
    for u, v, k, d in D.edges(keys=True, data=True):
        sig = (u, v, d["kind"], d["color"], d["style"], d.get("both", "0"))
        groups.setdefault(sig, []).append(d)
    for (u, v, *_), ds in groups.items():
        d = dict(ds[0])
        if len(ds) > 1:
            d["label"] = "\n".join(x["label"] for x in ds if x.get("label"))
            d["claims"] = "; ".join(x["claims"] for x in ds)
        out.add_edge(u, v, **d)
    return out


def _claim_edge(D, u, v, key, d, labels, with_f=True):
    color = COLORS["refuted"] if d["verdict"] == "refuted" else COLORS["unknown"]
    f = format_f(edge_f(d), labels) if d["kind"] == "implies" and labels != "none" and with_f else ""
    D.add_edge(u, v, key=key, kind=d["kind"], label=f"{rule_label(d['rule'])} {d['verdict']}" + (f": {f}" if f else ""),
               claims=key, status=d["verdict"], color=color, style="dashed" if d.get("dashed") else "solid",
               cross="1" if d["kind"] == "not-implies" else "0", both="0")


def _params_text(rule) -> str:
    parts = []
    for ep in (rule.a, rule.b):
        ps = ",".join(f"{k}={v}" if str(v) != k else k for k, v in ep.params)
        if ps and ps not in parts:
            parts.append(ps)
    if rule.a.family == rule.b.family:
        return " → ".join(parts)
    return "; ".join(p for p in parts if "=" in p)


def _definitions_edges(G, D, labels):
    """Every rule of a definitions-level map, parameters in the labels; equivalences merged."""
    done = set()
    for u, v, key, d in G.edges(keys=True, data=True):
        base, sep, tail = key.partition("#")
        if tail.endswith("converse") and d.get("verdict") in ESTABLISHED:
            first = base if tail == "converse" else f"{base}#{tail[:-len('-converse')]}"
            d1 = (G.get_edge_data(v, u) or {}).get(first)
            if d1 is not None and d1.get("verdict") in ESTABLISHED:
                done.add(key)   # drawn with its first direction, double-headed
    for u, v, key, d in G.edges(keys=True, data=True):
        if key in done:
            continue
        r = d["rule"]
        if u == v and r.a.params == r.b.params:
            continue            # monotonicity of the level (Lemma 2.4 / 3.5)
        if d.get("verdict") not in ESTABLISHED:
            _claim_edge(D, u, v, key, d, labels, with_f=False)
            params = _params_text(r)
            if params:
                D.edges[u, v, key]["label"] += f" [{params}]"
            continue
        short = rule_label(r)
        params = _params_text(r)
        if d["kind"] == "not-implies":
            D.add_edge(u, v, key=key, kind="not-implies", label=f"{short}" + (f" [{params}]" if params else ""),
                       claims=key, status=d["verdict"], color=COLORS["non"], style="dashed" if d.get("dashed") else "solid",
                       cross="1", both="0")
            continue
        f = format_f(d.get("f"), labels) if labels != "none" else ""
        both = "0"
        back = None
        if r.basis in ("printed", "reading"):
            for k2, d2 in (G.get_edge_data(v, u) or {}).items():
                if k2 in (f"{key}#converse", f"{key}-converse") and d2.get("verdict") in ESTABLISHED:
                    back = (k2, format_f(d2.get("f"), labels))
        if back:
            both = "1"
            f = f"{f} / {back[1]}" if back[1] != f else f
        text = f"{short}: {f}" if f else short
        if params:
            text += f" [{params}]"
        D.add_edge(u, v, key=key, kind="implies", label=text, claims=key + (f"; {back[0]}" if back else ""),
                   status=d["verdict"], color=COLORS["established"],
                   style="dashed" if d.get("dashed") else "solid", cross="0", both=both)
