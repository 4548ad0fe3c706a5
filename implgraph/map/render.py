"""Drawing the implication map: DOT, SVG and PNG (chosen by the file suffix).

:func:`drawing` turns a map (definitions or groups level) into the graph that is drawn:

- established implications, transitively reduced for readability (:func:`networkx.transitive_reduction`
  on the condensation of the implication graph; edges inside a cycle of equivalent nodes are kept),
  labelled with the level function ``f`` (plain text or LaTeX);
- established non-implications, reduced to those not derivable from another one, drawn dashed and
  crossed (``✗``);
- edges of domingo-ferrer2015 dashed (Fig. 1/2 of ekenstedt2022: "findings by [5]");
- refuted claims in red, unknown ones in grey (on the groups level one representative instance per
  claim, labelled with the number of instances).

:func:`render` writes the file atomically: DOT text is written by :mod:`networkx.drawing.nx_pydot`
when pydot is installed, otherwise by a small writer here; SVG/PNG use Graphviz ``dot`` when it is on
the PATH and a matplotlib renderer (layered, hand-placed layout) otherwise, so a pip-only install
works.
"""

from __future__ import annotations

import io
import math
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import sympy

from implgraph.core.errors import InputError
from implgraph.map.graph import ESTABLISHED, STRUCTURAL_KEY, edge_f, family_of
from implgraph.io.output import atomic_write

__all__ = ["drawing", "render", "to_dot", "format_f", "layout"]

FORMATS = (".dot", ".gv", ".svg", ".png")
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


def _short_claim(key: str) -> str:
    if key == STRUCTURAL_KEY:
        return "Def. 4"
    paper, _, rest = key.partition("/")
    rest = rest.replace("ekenstedt2022-dashed/", "").replace("#reading", " (proof)").replace("-strict", "")
    rest = rest.replace("#converse", "").replace("theorem-", "Th. ").replace("lemma-", "L. ")
    rest = rest.replace("proposition-", "Prop. ")
    return ("[5] " if paper == "domingo-ferrer2015" else "") + rest


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
    from implgraph.map.deduce import analyse, reduced_non_implications
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
                       claims="; ".join(claims), status="established", color=COLORS["non"], style="dashed",
                       cross="1", both="0")
            continue
        for c in targets:
            claims = [k for k, _, _ in an.non_edges[(a, c)]]
            D.add_edge(a, c, kind="not-implies", label="", claims="; ".join(claims), status="established",
                       color=COLORS["non"], style="dashed", cross="1", both="0")
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
    D.add_edge(u, v, key=key, kind=d["kind"], label=f"{_short_claim(key)} {d['verdict']}" + (f": {f}" if f else ""),
               claims=key, status=d["verdict"], color=color,
               style="dashed" if (d.get("dashed") or d["kind"] == "not-implies") else "solid",
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
        short = _short_claim(key)
        params = _params_text(r)
        if d["kind"] == "not-implies":
            D.add_edge(u, v, key=key, kind="not-implies", label=f"{short}" + (f" [{params}]" if params else ""),
                       claims=key, status=d["verdict"], color=COLORS["non"], style="dashed", cross="1", both="0")
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


# ------------------------------------------------------------------------------------------------
# DOT
# ------------------------------------------------------------------------------------------------

def _dot_graph(D) -> nx.MultiDiGraph:
    """Graphviz attributes for the drawing graph."""
    out = nx.MultiDiGraph()
    out.graph["graph"] = {"rankdir": "TB", "fontname": "Helvetica", "nodesep": "0.5", "ranksep": "0.7"}
    out.graph["node"] = {"shape": "box", "style": "rounded", "fontname": "Helvetica", "fontsize": "11"}
    out.graph["edge"] = {"fontname": "Helvetica", "fontsize": "9"}
    for n, d in D.nodes(data=True):
        fill = {"closeness": "#e8f0fb", "dp": "#fdf0e0"}.get(d.get("model"), "#f2f2f2")
        out.add_node(n, label=d.get("label", n).replace("\n", "\\n"), style="rounded,filled", fillcolor=fill)
    for u, v, k, d in D.edges(keys=True, data=True):
        attrs = {"label": d.get("label", "").replace("\\n", "\n").replace("\n", "\\n"), "color": d["color"], "fontcolor": d["color"], "style": d["style"],
                 "tooltip": d.get("claims", "")}
        if d.get("cross") == "1":
            attrs["arrowhead"] = "tee"
            attrs["constraint"] = "false"
        if d.get("both") == "1":
            attrs["dir"] = "both"
        out.add_edge(u, v, key=str(k), **attrs)
    return out


def _quote(s) -> str:
    s = str(s)
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\\\\n", "\\n") + '"'


def to_dot(D) -> str:
    """DOT text of a drawing graph (``networkx.nx_pydot`` when pydot is installed)."""
    G = _dot_graph(D)
    try:
        import pydot  # noqa: F401
        return nx.nx_pydot.to_pydot(G).to_string()
    except ImportError:
        pass
    lines = ["strict digraph {" if False else "digraph implgraph {"]
    for key in ("graph", "node", "edge"):
        attrs = ", ".join(f"{a}={_quote(v)}" for a, v in G.graph[key].items())
        lines.append(f"  {key} [{attrs}];")
    for n, d in G.nodes(data=True):
        attrs = ", ".join(f"{a}={_quote(v)}" for a, v in d.items())
        lines.append(f"  {_quote(n)} [{attrs}];")
    for u, v, d in G.edges(data=True):
        attrs = ", ".join(f"{a}={_quote(v_)}" for a, v_ in d.items())
        lines.append(f"  {_quote(u)} -> {_quote(v)} [{attrs}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------------
# matplotlib
# ------------------------------------------------------------------------------------------------

DEFINITION_POSITIONS = {
    "kdp@class": (-4.5, 4.0), "mult-t-closeness": (0.0, 4.0), "ldp": (6.0, 4.0),
    "kt-closeness": (0.0, 0.0), "kdp": (6.0, 0.0), "dp": (9.0, -3.5),
    "emd-t-closeness": (-4.5, 0.0), "k-anonymity": (-4.5, -4.0),
}
GROUP_COLUMNS = {"kdp@class": -4.2, "mult-t-closeness": 0.0, "kt-closeness": 4.2, "ldp": 7.4, "dp": 7.4,
                 "kdp": 10.6}


def layout(D) -> dict:
    """Positions: hand-placed for the definitions level, layered columns for the groups level.

    Groups level: one column per family (closeness on the left, DP on the right), row ``k`` for
    ``kt-closeness[k]`` and ``mult-t-closeness[k]`` and row ``N - k`` for ``kdp[k]`` so that the
    equivalences of Theorem 4.1 are horizontal; other families are placed by
    :func:`networkx.multipartite_layout`.
    """
    pos = {}
    if D.graph.get("level") != "groups":
        others = [n for n in D if n not in DEFINITION_POSITIONS]
        for n in D:
            if n in DEFINITION_POSITIONS:
                pos[n] = DEFINITION_POSITIONS[n]
        for i, n in enumerate(others):
            pos[n] = (-4.5 + 3.0 * i, -6.5)
        return pos
    N = int(D.graph.get("N") or 0)
    rest = []
    for n, d in D.nodes(data=True):
        fam = d.get("family", family_of(n))
        k = None
        if "[" in n:
            try:
                k = int(n.split("k=")[1].split(",")[0].split("]")[0])
            except (IndexError, ValueError):
                k = None
        if fam in GROUP_COLUMNS and (k is not None or fam in ("ldp", "dp")):
            x = GROUP_COLUMNS[fam]
            if fam == "ldp":
                pos[n] = (x, 0.2)
            elif fam == "dp":
                pos[n] = (x, -float(N) + 0.2)
            elif fam == "kdp":
                pos[n] = (x, -float(N - k))
            elif fam == "mult-t-closeness" and ",max=" in n:
                pos[n] = (x + 3.4, 0.9)
            else:
                pos[n] = (x, -float(k))
        else:
            rest.append(n)
    if rest:
        sub = nx.Graph()
        for n in rest:
            sub.add_node(n, layer=D.nodes[n].get("family", "other"))
        extra = nx.multipartite_layout(sub, subset_key="layer", scale=max(N, 2) / 2)
        for n, (x, y) in extra.items():
            pos[n] = (6.0 + x, y - N / 2)
    return pos


def _bezier(p1, p2, rad, t):
    """The point at ``t`` of matplotlib's ``arc3`` curve (equal aspect: data = display up to scale)."""
    (x1, y1), (x2, y2) = p1, p2
    dx, dy = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2 + rad * dy, (y1 + y2) / 2 - rad * dx
    a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t ** 2
    return a * x1 + b * cx + c * x2, a * y1 + b * cy + c * y2


def _draw_matplotlib(D, fmt: str, title: str | None, labels: str) -> bytes:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch

    groups = D.graph.get("level") == "groups"
    pos = layout(D)
    xs = [p[0] for p in pos.values()] or [0]
    ys = [p[1] for p in pos.values()] or [0]
    x0, x1_ = min(xs) - (2.0 if groups else 3.2), max(xs) + (2.0 if groups else 3.2)
    y0, y1_ = min(ys) - 1.6, max(ys) + (1.2 if groups else 2.2)
    scale = 0.95 if groups else 1.25          # inches per data unit
    fig, ax = plt.subplots(figsize=((x1_ - x0) * scale, (y1_ - y0) * scale))
    ax.set_xlim(x0, x1_)
    ax.set_ylim(y0, y1_)
    ax.set_aspect("equal")
    ax.axis("off")
    fills = {"closeness": "#e8f0fb", "dp": "#fdf0e0"}
    node_fs = 9 if groups else 13
    edge_fs = 7.5 if groups else 9.5
    for n, d in D.nodes(data=True):
        x, y = pos[n]
        ax.text(x, y, d.get("label", n), ha="center", va="center", fontsize=node_fs, zorder=5,
                bbox=dict(boxstyle="round,pad=0.4", fc=fills.get(d.get("model"), "#f2f2f2"), ec="#555555"))
    by_pair: dict = {}
    for u, v, k, d in D.edges(keys=True, data=True):
        by_pair.setdefault(frozenset((u, v)), []).append((u, v, k, d))
    shrink = 16 if groups else 30
    for pair, edges in by_pair.items():
        edges.sort(key=lambda e: (e[0] > e[1], e[3]["kind"], e[3]["color"], str(e[2])))
        loops = 0
        for i, (u, v, k, d) in enumerate(edges):
            color = d["color"]
            ls = "--" if d["style"] == "dashed" else "-"
            if u == v:
                mid = (min(xs) + max(xs)) / 2
                _self_loop(ax, pos[u], loops, d, color, ls, edge_fs, -1 if pos[u][0] <= mid else 1)
                loops += 1
                continue
            p1, p2 = pos[u], pos[v]
            n_par = len(edges)
            step = 0.3 if groups else 0.34
            rad = 0.0 if n_par == 1 else (i - (n_par - 1) / 2) * step
            if u > v:
                rad = -rad      # same side convention for both directions of a pair
            if groups and d["kind"] == "not-implies" and rad == 0:
                rad = 0.25
            arrowstyle = "<|-|>" if d.get("both") == "1" else "-|>"
            ax.add_patch(FancyArrowPatch(p1, p2, connectionstyle=f"arc3,rad={rad}", arrowstyle=arrowstyle,
                                         mutation_scale=11 if groups else 15, color=color, linestyle=ls,
                                         linewidth=1.0 if groups else 1.4, shrinkA=shrink, shrinkB=shrink,
                                         zorder=2))
            text = d.get("label", "") if labels != "none" else ""
            if d.get("cross") == "1":
                cx, cy = _bezier(p1, p2, rad, 0.3 if text else 0.5)
                ax.text(cx, cy, "✗", color=color, fontsize=13 if not groups else 10, ha="center", va="center",
                        zorder=6, fontweight="bold")
                text = text.replace("✗", "").strip()
            if text:
                mx, my = _bezier(p1, p2, rad, 0.55 if d.get("cross") == "1" else 0.5)
                ax.text(mx, my, text, color=color, fontsize=edge_fs, ha="center", va="center", zorder=4,
                        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    _legend(ax, groups)
    if title:
        ax.set_title(title, fontsize=13)
    buf = io.BytesIO()
    meta = {"Date": None} if fmt == "svg" else None       # reproducible files
    with matplotlib.rc_context({"svg.hashsalt": "implgraph"}):
        fig.savefig(buf, format=fmt, bbox_inches="tight", dpi=100, metadata=meta)
    plt.close(fig)
    return buf.getvalue()


def _self_loop(ax, p, i, d, color, ls, fs, side):
    """A loop on the outer side of a node (``side`` -1 left, +1 right), stacked up and down."""
    from matplotlib.patches import FancyArrowPatch
    x, y = p
    up = 1
    lift = 1 + i
    a = (x + side * 0.62, y + up * 0.1)
    b = (x + side * 0.62, y + up * (0.1 + 0.75 * lift))
    rad = 1.0 * side * up
    ax.add_patch(FancyArrowPatch(a, b, connectionstyle=f"arc3,rad={rad}", arrowstyle="-|>", mutation_scale=13,
                                 color=color, linestyle=ls, linewidth=1.3, zorder=2))
    text = ("✗ " if d.get("cross") == "1" else "") + d.get("label", "").replace("✗", "").strip()
    ax.text(x + side * (1.05 + 0.35 * lift), y + up * (0.1 + 0.4 * lift), text, color=color,
            fontsize=fs, ha="left" if side > 0 else "right", va="center", zorder=4,
            bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))


def _legend(ax, groups):
    from matplotlib.lines import Line2D
    handles = [Line2D([0], [0], color=COLORS["established"], lw=1.5, label="implies (label: f)"),
               Line2D([0], [0], color=COLORS["established"], lw=1.5, ls="--", label="domingo-ferrer2015 (dashed)"),
               Line2D([0], [0], color=COLORS["non"], lw=1.5, ls="--", marker="x", label="does not imply (✗)"),
               Line2D([0], [0], color=COLORS["refuted"], lw=1.5, label="claim refuted"),
               Line2D([0], [0], color=COLORS["unknown"], lw=1.5, label="claim unknown")]
    ax.legend(handles=handles, loc="lower left", fontsize=8, frameon=True)


def render(D, path, title: str | None = None, labels: str = "plain", engine: str = "auto") -> str:
    """Write a drawing graph to ``path`` (``.dot``/``.gv``, ``.svg`` or ``.png``), atomically.

    Parameters
    ----------
    D : networkx.MultiDiGraph
        From :func:`drawing`.
    engine : {"auto", "graphviz", "matplotlib"}
        ``auto`` uses Graphviz ``dot`` when it is on the PATH, otherwise matplotlib.

    Returns
    -------
    str
        The engine used (``dot-text``, ``graphviz`` or ``matplotlib``).

    Raises
    ------
    InputError
        Unknown suffix, or ``engine="graphviz"`` without Graphviz.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"unknown output format {suffix or '(no suffix)'}", file=str(path),
                         fix="name the file .dot, .svg or .png")
    if not path.parent.exists():
        raise InputError("the output directory does not exist", file=str(path), fix="create it first")
    if suffix in (".dot", ".gv"):
        atomic_write(path, to_dot(D))
        return "dot-text"
    dot = shutil.which("dot")
    if engine == "graphviz" and not dot:
        raise InputError("Graphviz `dot` is not on the PATH", fix="install Graphviz or use --engine matplotlib")
    if dot and engine in ("auto", "graphviz"):
        proc = subprocess.run([dot, f"-T{suffix[1:]}"], input=to_dot(D).encode("utf-8"), capture_output=True,
                              timeout=120)
        if proc.returncode == 0:
            atomic_write(path, proc.stdout)
            return "graphviz"
        if engine == "graphviz":
            raise InputError(f"Graphviz failed: {proc.stderr.decode(errors='replace').strip()[:200]}",
                             fix="use --engine matplotlib")
    atomic_write(path, _draw_matplotlib(D, suffix[1:], title, labels))
    return "matplotlib"
