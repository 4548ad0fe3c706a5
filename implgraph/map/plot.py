"""The matplotlib renderer of a drawn map (used when Graphviz ``dot`` is not on the PATH).

Nodes are placed by :func:`implgraph.map.layout.layout`; parallel edges are bent apart, self-loops
drawn on the outer side of their node, non-implications crossed.  The bytes are reproducible (no date
in SVG metadata, a fixed hash salt).
"""

from __future__ import annotations

import io

from implgraph.map.drawing import COLORS
from implgraph.map.layout import layout, model_fill

__all__ = ["draw_matplotlib"]


def _bezier(p1, p2, rad, t):
    """The point at ``t`` of matplotlib's ``arc3`` curve (equal aspect: data = display up to scale)."""
    (x1, y1), (x2, y2) = p1, p2
    dx, dy = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2 + rad * dy, (y1 + y2) / 2 - rad * dx
    a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t ** 2
    return a * x1 + b * cx + c * x2, a * y1 + b * cy + c * y2


def draw_matplotlib(D, fmt: str, title: str | None, labels: str) -> bytes:
    """The bytes of the drawing graph ``D`` as ``fmt`` (``svg`` or ``png``)."""
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
    node_fs = 9 if groups else 13
    edge_fs = 7.5 if groups else 9.5
    for n, d in D.nodes(data=True):
        x, y = pos[n]
        ax.text(x, y, d.get("label", n), ha="center", va="center", fontsize=node_fs, zorder=5,
                bbox=dict(boxstyle="round,pad=0.4", fc=model_fill(d.get("model")), ec="#555555"))
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
