"""Drawing a laid-out map (:class:`implgraph.map.layout.Layout`) with matplotlib: SVG, PDF, PNG.

Everything is where Graphviz put it: node boxes, the splines and their arrowheads, the labels in the
boxes reserved for them, the cross marks of the non-implications; the text is set by mathtext at the
size it was measured at (:mod:`implgraph.map.typeset`).  The figure is exactly the layout's width (a
journal's column, :data:`implgraph.map.typeset.widths_cm`), so it goes into a paper at 100 %.  Every
element carries an id (``node-3``, ``edge-7``, ``label-7``, ``cross-7``, ``legend-0``) in the SVG.  The
bytes are reproducible (no date in the metadata, a fixed hash salt) and carry the digest of what the
figure says (:meth:`implgraph.map.layout.Layout.digest`); SVG keeps its text as text (searchable) and PDF
embeds TrueType fonts.
"""

from __future__ import annotations

import io
import math

from implgraph.map.geometry import ARROW_PT, CROSS_PT
from implgraph.map.typeset import RC

__all__ = ["figure", "draw", "LINE_PT", "PNG_DPI"]

#: the width of lines (points): arrows, node frames
LINE_PT = 0.8
#: PNG resolution (dots per inch)
PNG_DPI = 300
#: the dash pattern (points on, off)
DASHES = (3.0, 2.0)


def _arrowhead(ax, base, tip, color, gid):
    from matplotlib.patches import Polygon
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    n = math.hypot(dx, dy) or 1.0
    half = 0.36 * ARROW_PT
    px, py = -dy / n * half, dx / n * half
    ax.add_patch(Polygon([tip, (base[0] + px, base[1] + py), (base[0] - px, base[1] - py)], closed=True,
                         facecolor=color, edgecolor=color, linewidth=0.4, gid=gid, zorder=3))


def _text(ax, t, gid, zorder=5, url=None):
    ax.text(t.x, t.y, t.label, fontsize=t.size, color=t.color, ha=t.ha, va="center", multialignment="center",
            gid=gid, zorder=zorder, url=url)


def _cross(ax, x, y, angle, color, gid, scale=1.0):
    from matplotlib.lines import Line2D
    arm = CROSS_PT / 2 * math.sqrt(2) * scale
    for i, da in enumerate((math.pi / 4, -math.pi / 4)):
        ex, ey = arm * math.cos(angle + da), arm * math.sin(angle + da)
        ax.add_line(Line2D([x - ex, x + ex], [y - ey, y + ey], color=color, linewidth=1.4 * scale,
                           solid_capstyle="butt", gid=f"{gid}-{i}", zorder=4))


def figure(L, urls=None):
    """The matplotlib figure of a layout (points as data units, the page exactly the layout's size);
    ``urls``: ``{node id or (u, v): href}``, the links of nodes and edges (an SVG's ``<a>``)."""
    urls = urls or {}
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, PathPatch
    from matplotlib.path import Path
    fig = Figure(figsize=(L.width / 72, L.height / 72), dpi=72)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, L.width)
    ax.set_ylim(0, L.height)
    ax.set_axis_off()
    s = L.scale
    for c in L.edges:
        n = c.id[1:]
        codes = [Path.MOVETO] + [Path.CURVE4] * (len(c.points) - 1)
        ls = (0, tuple(x * s for x in DASHES)) if c.dashed else "solid"
        url = urls.get((c.u, c.v))
        ax.add_patch(PathPatch(Path(c.points, codes), fill=False, edgecolor=c.color, linewidth=LINE_PT * s,
                               linestyle=ls, gid=f"edge-{n}", zorder=2, capstyle="butt", url=url))
        if c.head:
            _arrowhead(ax, c.points[-1], c.head, c.color, f"head-{n}")
        if c.tail:
            _arrowhead(ax, c.points[0], c.tail, c.color, f"tail-{n}")
        if c.cross:
            _cross(ax, *c.cross, c.color, f"cross-{n}", s)
        if c.text:
            _text(ax, c.text, f"label-{n}", url=url)
    for i, nd in enumerate(L.nodes):
        r = 3.0 * s
        ax.add_patch(FancyBboxPatch((nd.x - nd.w / 2 + r, nd.y - nd.h / 2 + r), nd.w - 2 * r, nd.h - 2 * r,
                                    boxstyle=f"round,pad={r},rounding_size={r}", facecolor=nd.fill,
                                    edgecolor="#444444", linewidth=LINE_PT * s, gid=f"node-{i}", zorder=3,
                                    url=urls.get(nd.id)))
        _text(ax, nd.text, f"text-{i}", url=urls.get(nd.id))
    from matplotlib.lines import Line2D
    for i, e in enumerate(L.legend):
        if not e.sample:
            _text(ax, e.text, f"legend-{i}")
            continue
        ax.add_line(Line2D([e.x0, e.x1], [e.y, e.y], color=e.color, linewidth=LINE_PT,
                           linestyle=(0, DASHES) if e.dashed else "solid", gid=f"sample-{i}"))
        if e.cross:
            _cross(ax, (e.x0 + e.x1) / 2, e.y, 0.0, e.color, f"sample-cross-{i}")
        else:
            _arrowhead(ax, (e.x1 - ARROW_PT, e.y), (e.x1, e.y), e.color, f"sample-head-{i}")
        _text(ax, e.text, f"legend-{i}")
    return fig


def draw(L, fmt: str, urls=None) -> bytes:
    """The bytes of a layout as ``fmt`` (``svg``, ``pdf`` or ``png``); ``urls``: see :func:`figure`."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    about = f"implgraph map; content sha256 {L.digest()}"
    meta = {"svg": {"Date": None, "Description": about},
            "pdf": {"CreationDate": None, "ModDate": None, "Subject": about},
            "png": {"Software": None, "Description": about}}[fmt]
    with matplotlib.rc_context(RC):
        fig = figure(L, urls)
        FigureCanvasAgg(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=PNG_DPI if fmt == "png" else 72, metadata=meta)
    return buf.getvalue()
