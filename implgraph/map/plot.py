"""The drawn map as a matplotlib figure and as a scene (what :mod:`implgraph.map.tikz` writes).

Nodes are placed by :func:`implgraph.map.layout.layout` (computed in Python from the graph and the
declarations, so the picture is the same whatever is installed); edges are ``arc3`` curves clipped at
the node boxes, parallel edges bent apart, self-loops on the outer side of their node.  The paper's
conventions: an implication is a solid arrow labelled with its f; a non-implication is an arrow crossed
out (a cross mark on it); the results of the other paper (:data:`implgraph.map.rules.PAPER_DASHED`) are
dashed.  Edge labels are placed by :func:`implgraph.map.placement.place` from the text extents that
the renderer measures, so that no two label boxes (nodes, edge labels, cross marks, title, legend)
overlap.  The bytes are reproducible (no date in the metadata, a fixed hash salt); SVG keeps its text
as text (``svg.fonttype = "none"``) and PDF embeds TrueType fonts (searchable).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from implgraph.map.drawing import COLORS
from implgraph.map.labels import paper_name
from implgraph.map.layout import layout, model_fill
from implgraph.map.placement import bezier, control, place, sub_curve, tangent
from implgraph.map.rules import PAPER_DASHED

__all__ = ["Scene", "scene", "draw_matplotlib", "RC"]

#: matplotlib settings of every drawn map
RC = {"svg.fonttype": "none", "svg.hashsalt": "implgraph", "pdf.fonttype": 42,
      "font.family": "DejaVu Sans", "path.simplify": False}
#: sizes (points) of node text, edge labels, legend, title; groups level first, then definitions level
FONT = {"groups": (10, 8.5, 10, 13), "definitions": (13, 10, 11, 14)}
CROSS_ARM_PT = 6.0         # half length of a cross mark, points
SHRINK_PX = 3.0            # gap between an arrow's end and its node's box, pixels


@dataclass
class Scene:
    """Everything that is drawn, in data units (``scale`` inches each); boxes in display pixels."""

    scale: float
    dpi: float
    limits: tuple
    nodes: list = field(default_factory=list)     # {id, x, y, text, fill, box}
    edges: list = field(default_factory=list)     # {u, v, p1, p2, rad, color, dashed, both, cross, loop}
    labels: list = field(default_factory=list)    # {text, x, y, color, leader, box, edge}
    marks: list = field(default_factory=list)     # cross marks: {x, y, angle, color, box}
    legend: list = field(default_factory=list)    # {text, color, dashed, cross}
    legend_box: tuple | None = None
    title: str | None = None
    title_box: tuple | None = None
    fonts: tuple = ()

    def boxes(self) -> list:
        """``[(what, box)]`` of every text box drawn (nodes, edge labels, title, legend)."""
        out = [(f"node {n['id']}", n["box"]) for n in self.nodes]
        out += [(f"label {lab['text']!r}", lab["box"]) for lab in self.labels]
        out += [(f"cross mark {i}", m["box"]) for i, m in enumerate(self.marks)]
        if self.title_box:
            out.append(("title", self.title_box))
        if self.legend_box:
            out.append(("legend", self.legend_box))
        return out


def _legend_entries(D) -> list:
    kinds = {(d["kind"], d["color"], d["style"], d.get("cross") == "1") for _, _, d in D.edges(data=True)}
    out = [{"text": "implies (label: f)", "color": COLORS["established"], "dashed": False, "cross": False},
           {"text": "does not imply (crossed out)", "color": COLORS["non"], "dashed": False, "cross": True}]
    if any(style == "dashed" for _, _, style, _ in kinds):
        names = ", ".join(paper_name(p) for p in PAPER_DASHED)
        out.append({"text": f"dashed: result of {names}", "color": COLORS["established"], "dashed": True,
                    "cross": False})
    if any(color == COLORS["refuted"] for _, color, _, _ in kinds):
        out.append({"text": "claim refuted by the engine", "color": COLORS["refuted"], "dashed": False, "cross": False})
    if any(color == COLORS["unknown"] for _, color, _, _ in kinds):
        out.append({"text": "claim not decided (unknown)", "color": COLORS["unknown"], "dashed": False, "cross": False})
    return out


def _edges(D, pos, groups):
    """The curves: ``[(u, v, key, data, rad, loop index or None)]``, parallel edges bent apart."""
    by_pair: dict = {}
    for u, v, k, d in D.edges(keys=True, data=True):
        by_pair.setdefault(frozenset((u, v)), []).append((u, v, k, d))
    out, loops = [], {}
    for pair in sorted(by_pair, key=lambda p: sorted(p)):
        edges = sorted(by_pair[pair], key=lambda e: (e[0] > e[1], e[3]["kind"], e[3]["color"], str(e[2])))
        for i, (u, v, k, d) in enumerate(edges):
            if u == v:
                out.append((u, v, k, d, 0.0, loops.setdefault(u, 0)))
                loops[u] += 1
                continue
            n_par = len(edges)
            step = 0.3 if groups else 0.34
            rad = 0.0 if n_par == 1 else (i - (n_par - 1) / 2) * step
            if u > v:
                rad = -rad      # same side convention for both directions of a pair
            if groups and d["kind"] == "not-implies" and rad == 0:
                rad = 0.25
            out.append((u, v, k, d, rad, None))
    return out


def _display_box(artist, renderer):
    b = artist.get_window_extent(renderer)
    return (float(b.x0), float(b.y0), float(b.x1), float(b.y1))


def scene(D, title: str | None = None, labels: str = "plain"):
    """The figure and the :class:`Scene` of the drawing graph ``D`` (labels placed, nothing overlapping)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path

    groups = D.graph.get("level") == "groups"
    node_fs, edge_fs, legend_fs, title_fs = FONT["groups" if groups else "definitions"]
    pos = layout(D)
    xs = [p[0] for p in pos.values()] or [0]
    ys = [p[1] for p in pos.values()] or [0]
    curves = _edges(D, pos, groups)
    for u, v, k, d, rad, loop in curves:       # room for the bent curves
        if loop is None and rad:
            pts = [bezier(pos[u], control(pos[u], pos[v], rad), pos[v], t / 10) for t in range(11)]
            xs += [p[0] for p in pts]
            ys += [p[1] for p in pts]
    margin_x = 2.0 if groups else 3.2
    limits = (min(xs) - margin_x, max(xs) + margin_x, min(ys) - 1.0, max(ys) + (1.0 if groups else 1.4))
    scale = 0.95 if groups else 0.9           # inches per data unit
    dpi = 100.0
    with matplotlib.rc_context(RC):
        fig, ax = plt.subplots(figsize=((limits[1] - limits[0]) * scale, (limits[3] - limits[2]) * scale), dpi=dpi)
        fig.subplots_adjust(0, 0, 1, 1)
        ax.set_xlim(limits[0], limits[1])
        ax.set_ylim(limits[2], limits[3])
        ax.set_aspect("equal")
        ax.axis("off")
        sc = Scene(scale=scale, dpi=dpi, limits=limits, title=title, fonts=(node_fs, edge_fs, legend_fs, title_fs))
        texts = {}
        for n in sorted(D, key=lambda n: (pos[n][1], pos[n][0])):
            d = D.nodes[n]
            x, y = pos[n]
            texts[n] = ax.text(x, y, d.get("label", n), ha="center", va="center", fontsize=node_fs, zorder=5,
                               bbox=dict(boxstyle="round,pad=0.4", fc=model_fill(d.get("model")), ec="#555555"))
            sc.nodes.append({"id": n, "x": x, "y": y, "text": d.get("label", n), "fill": model_fill(d.get("model"))})
        if title:
            ax.set_title(title, fontsize=title_fs)
        sc.legend = _legend_entries(D)
        handles = [Line2D([0], [0], color=e["color"], lw=1.5, ls="--" if e["dashed"] else "-",
                          marker="x" if e["cross"] else None, markersize=9, mew=2, label=e["text"])
                   for e in sc.legend]
        leg = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, 0.0), fontsize=legend_fs,
                        frameon=True, numpoints=1, ncol=min(3, len(handles)))
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for nd in sc.nodes:
            nd["box"] = _display_box(texts[nd["id"]].get_bbox_patch(), renderer)
        if title:
            sc.title_box = _display_box(ax.title, renderer)
        sc.legend_box = _display_box(leg, renderer)
        taken = [nd["box"] for nd in sc.nodes] + [b for b in (sc.title_box, sc.legend_box) if b]
        to_px = ax.transData.transform
        from_px = ax.transData.inverted().transform
        arm = CROSS_ARM_PT * dpi / 72          # pixels
        boxes = {nd["id"]: nd["box"] for nd in sc.nodes}
        for u, v, k, d, rad, loop in curves:
            color, ls = d["color"], ("--" if d["style"] == "dashed" else "-")
            if loop is not None:
                bx = boxes[u]
                side = -1 if pos[u][0] <= (min(xs) + max(xs)) / 2 else 1
                edge_x = from_px((bx[2] if side > 0 else bx[0], 0))[0]
                p1, p2 = (edge_x, pos[u][1] + 0.18), (edge_x, pos[u][1] - 0.18)
                c = control(p1, p2, -side * (2.2 + 1.4 * loop))
            else:
                q1, q2 = tuple(to_px(pos[u])), tuple(to_px(pos[v]))
                ta, tb = _visible(q1, control(q1, q2, rad), q2, boxes[u], boxes[v], SHRINK_PX)
                p1, c, p2 = sub_curve(pos[u], control(pos[u], pos[v], rad), pos[v], ta, tb)
            both = d.get("both") == "1" and loop is None
            path = Path([p1, c, p2], [Path.MOVETO, Path.CURVE3, Path.CURVE3])
            ax.add_patch(FancyArrowPatch(path=path, arrowstyle="<|-|>" if both else "-|>",
                                         mutation_scale=11 if groups else 15, color=color, linestyle=ls,
                                         linewidth=1.1 if groups else 1.4, zorder=2, clip_on=False))
            edge = {"u": u, "v": v, "key": str(k), "p1": tuple(map(float, p1)), "c": tuple(map(float, c)),
                    "p2": tuple(map(float, p2)), "color": color, "dashed": ls == "--", "both": both,
                    "loop": loop is not None, "cross": None}
            sc.edges.append(edge)
            if d.get("cross") == "1":
                mark = _cross(ax, edge, to_px, from_px, arm, 1.6 if groups else 2.0)
                sc.marks.append(mark)
                taken.append(mark["box"])
        for (u, v, k, d, rad, loop), edge in zip(curves, sc.edges):
            text = d.get("label", "") if labels != "none" else ""
            text = text.replace("✗", "").strip()
            if not text:
                continue
            art = ax.text(0, 0, text, color=edge["color"], fontsize=edge_fs, ha="center", va="center", zorder=4,
                          bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="none", alpha=0.9))
            b0 = _display_box(art, renderer)
            pad = 0.2 * edge_fs * dpi / 72
            w, h = b0[2] - b0[0] + 2 * pad, b0[3] - b0[1] + 2 * pad
            kwargs = {"t_order": (0.5, 0.35, 0.65, 0.25, 0.75)} if loop is not None else {}
            q = [tuple(to_px(edge[key])) for key in ("p1", "c", "p2")]
            (cx, cy), anchor = place(*q, w, h, taken, **kwargs)
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            taken.append(box)
            x, y = from_px((cx, cy))
            art.set_position((x, y))
            leader = None
            if anchor is not None:
                leader = tuple(map(float, from_px(anchor)))
                ax.plot([x, leader[0]], [y, leader[1]], color=edge["color"], lw=0.6, ls=":", zorder=3, clip_on=False)
            sc.labels.append({"text": text, "x": float(x), "y": float(y), "color": edge["color"], "leader": leader,
                              "box": box, "edge": (u, v, str(k))})
    return fig, sc


def _visible(q1, c, q2, box_a, box_b, gap) -> tuple:
    """``(ta, tb)``: where the curve leaves the box ``box_a`` and enters ``box_b`` (display), ``gap`` short."""
    def inside(p, box):
        return box[0] - gap <= p[0] <= box[2] + gap and box[1] - gap <= p[1] <= box[3] + gap
    ts = [i / 400 for i in range(401)]
    out = [t for t in ts if not inside(bezier(q1, c, q2, t), box_a) and not inside(bezier(q1, c, q2, t), box_b)]
    return (out[0], out[-1]) if out else (0.0, 1.0)


def _cross(ax, edge, to_px, from_px, arm, lw) -> dict:
    """A cross mark on the middle of the edge's visible curve."""
    p1, c, p2 = edge["p1"], edge["c"], edge["p2"]
    cx, cy = bezier(p1, c, p2, 0.5)
    tx, ty = tangent(p1, c, p2, 0.5)
    angle = math.atan2(ty, tx)
    px, py = to_px((cx, cy))
    size = from_px((px + arm, py))[0] - cx       # the arm in data units
    arms = []
    for da in (math.pi / 4, -math.pi / 4):
        ex, ey = size * math.cos(angle + da), size * math.sin(angle + da)
        arms.append(((cx - ex, cy - ey), (cx + ex, cy + ey)))
        ax.plot([cx - ex, cx + ex], [cy - ey, cy + ey], color=edge["color"], lw=lw, solid_capstyle="butt",
                zorder=6, clip_on=False)
    edge["cross"] = (float(cx), float(cy))
    return {"x": float(cx), "y": float(cy), "angle": angle, "color": edge["color"], "arms": arms,
            "box": (px - arm, py - arm, px + arm, py + arm)}


def draw_matplotlib(D, fmt: str, title: str | None, labels: str) -> bytes:
    """The bytes of the drawing graph ``D`` as ``fmt`` (``svg``, ``pdf`` or ``png``)."""
    import matplotlib
    import matplotlib.pyplot as plt
    fig, _ = scene(D, title, labels)
    buf = io.BytesIO()
    meta = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}.get(fmt)
    with matplotlib.rc_context(RC):
        fig.savefig(buf, format=fmt, bbox_inches="tight", pad_inches=0.1, dpi=100, metadata=meta)
    plt.close(fig)
    return buf.getvalue()
