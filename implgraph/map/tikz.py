"""A laid-out map (:class:`implgraph.map.layout.Layout`) as TikZ, for ``\\input`` in a paper.

The same geometry as the SVG/PDF/PNG (:mod:`implgraph.map.plot`): node boxes, the splines as Bézier
curves, arrowheads and cross marks as the same polygons and lines, the labels at the centres Graphviz
gave them, in PostScript points (``bp``, as Graphviz and matplotlib count).  The text is LaTeX: every
label's math as :func:`sympy.latex` wrote it, its text
escaped (:func:`implgraph.map.labels.to_latex`), set at the size it was measured at (``\\fontsize``), so
the figure is printed at 100 % (its width is the column's); the paper's own fonts are used.  It needs
only ``\\usepackage{tikz}``.
"""

from __future__ import annotations

import math

from implgraph.map.labels import to_latex
from implgraph.map.geometry import ARROW_PT, CROSS_PT

__all__ = ["to_tikz"]


def _pt(p) -> str:
    return f"({p[0]:.2f}bp,{p[1]:.2f}bp)"


class _Colors:
    def __init__(self):
        self.names: dict = {}

    def __call__(self, hexa: str) -> str:
        return self.names.setdefault(hexa.lstrip("#").upper(), f"ig{len(self.names)}")


def _font(size: float) -> str:
    return f"\\fontsize{{{size:.2f}bp}}{{{size * 1.2:.2f}bp}}\\selectfont"


def _text(t, color: str) -> str:
    anchor = ", anchor=west" if t.ha == "left" else ""
    return (f"  \\node[inner sep=0bp, align=center{anchor}, text={color}, font={{{_font(t.size)}}}] "
            f"at {_pt((t.x, t.y))} {{{to_latex(t.label)}}};")


def _arrowhead(base, tip, color: str) -> str:
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    n = math.hypot(dx, dy) or 1.0
    half = 0.36 * ARROW_PT
    px, py = -dy / n * half, dx / n * half
    return (f"  \\fill[{color}] {_pt(tip)} -- {_pt((base[0] + px, base[1] + py))} -- "
            f"{_pt((base[0] - px, base[1] - py))} -- cycle;")


def _cross(x, y, angle, color: str, scale: float) -> list:
    arm = CROSS_PT / 2 * math.sqrt(2) * scale
    out = []
    for da in (math.pi / 4, -math.pi / 4):
        ex, ey = arm * math.cos(angle + da), arm * math.sin(angle + da)
        out.append(f"  \\draw[{color}, line width={1.4 * scale:.2f}bp] {_pt((x - ex, y - ey))} -- "
                   f"{_pt((x + ex, y + ey))};")
    return out


def to_tikz(L) -> str:
    """TikZ source of a layout (one ``tikzpicture``, its bounding box the layout's page)."""
    from implgraph.map.plot import DASHES, LINE_PT
    color = _Colors()
    s = L.scale
    body = [f"  \\useasboundingbox (0bp,0bp) rectangle {_pt((L.width, L.height))};"]
    for c in L.edges:
        col = color(c.color)
        dash = f", dash pattern=on {DASHES[0] * s:.2f}bp off {DASHES[1] * s:.2f}bp" if c.dashed else ""
        path = _pt(c.points[0])
        for i in range(1, len(c.points) - 2, 3):
            path += f" .. controls {_pt(c.points[i])} and {_pt(c.points[i + 1])} .. {_pt(c.points[i + 2])}"
        body.append(f"  \\draw[{col}, line width={LINE_PT * s:.2f}bp{dash}] {path};")
        if c.head:
            body.append(_arrowhead(c.points[-1], c.head, col))
        if c.tail:
            body.append(_arrowhead(c.points[0], c.tail, col))
        if c.cross:
            body += _cross(*c.cross, col, s)
        if c.text:
            body.append(_text(c.text, col))
    for n in L.nodes:
        fill = color(n.fill)
        body.append(f"  \\draw[draw=black!73, fill={fill}, line width={LINE_PT * s:.2f}bp, "
                    f"rounded corners={3 * s:.2f}bp] {_pt((n.x - n.w / 2, n.y - n.h / 2))} rectangle "
                    f"{_pt((n.x + n.w / 2, n.y + n.h / 2))};")
        body.append(_text(n.text, "black"))
    for e in L.legend:
        col = color(e.color)
        if e.sample:
            dash = f", dash pattern=on {DASHES[0]:.2f}bp off {DASHES[1]:.2f}bp" if e.dashed else ""
            body.append(f"  \\draw[{col}, line width={LINE_PT:.2f}bp{dash}] {_pt((e.x0, e.y))} -- {_pt((e.x1, e.y))};")
            if e.cross:
                body += _cross((e.x0 + e.x1) / 2, e.y, 0.0, col, 1.0)
            else:
                body.append(_arrowhead((e.x1 - ARROW_PT, e.y), (e.x1, e.y), col))
        body.append(_text(e.text, "black"))
    head = [f"% implgraph map, {L.width / 72 * 2.54:.1f} cm wide: \\input it at 100 % (needs \\usepackage{{tikz}})",
            f"% content sha256 {L.digest()}", "\\begin{tikzpicture}"]
    head += [f"  \\definecolor{{{name}}}{{HTML}}{{{hexa}}}" for hexa, name in color.names.items()]
    return "\n".join(head + body + ["\\end{tikzpicture}", ""])
