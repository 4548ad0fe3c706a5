"""What a journal checks in a drawn map, measured on the laid-out geometry.

:func:`audit` takes a :class:`implgraph.map.layout.Layout` (the boxes Graphviz reserved, the splines it
routed, the text boxes as measured) and reports every defect: two texts that intersect (node texts, edge
labels, legend, cross marks, and a text over a node box), an edge through a node box other than its own
ends, an edge through a label, a double-headed arrow too short for its two heads, a text past the
page's edge, and the smallest text and script size as printed.  The layout uses it to
choose among Graphviz's candidate layouts; the tests (``tests/test_figures.py``) assert it is clean for the
papers' maps and measure the written SVG too.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from implgraph.map.dot_output import bezier_points
from implgraph.map.geometry import CROSS_PT
from implgraph.map.typeset import SCRIPT_RATIO

__all__ = ["Audit", "audit", "intersect", "has_scripts"]

#: how far (points) a spline may enter a box before it counts as passing through it (its line width, and
#: the arrowhead's tip on its target's frame)
TOLERANCE_PT = 0.6


def intersect(a, b, margin: float = 0.0) -> bool:
    """True when the boxes ``(x0, y0, x1, y1)`` share an interior point (each shrunk by ``margin``).

    Examples
    --------
    >>> intersect((0, 0, 2, 2), (1, 1, 3, 3)), intersect((0, 0, 1, 1), (1, 0, 2, 1))
    (True, False)
    """
    return (a[0] + margin < b[2] - margin and b[0] + margin < a[2] - margin
            and a[1] + margin < b[3] - margin and b[1] + margin < a[3] - margin)


def _inside(p, box, margin) -> bool:
    return box[0] + margin < p[0] < box[2] - margin and box[1] + margin < p[1] < box[3] - margin


#: the shortest line between the two arrowheads of a double-headed arrow (points)
MIN_SHAFT_PT = 3.0


def _length(points) -> float:
    pts = bezier_points(points, 16)
    return sum(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip(pts, pts[1:]))


def has_scripts(label: str) -> bool:
    """True when a label's math has sub- or superscripts or a fraction (set at :data:`SCRIPT_RATIO`)."""
    from implgraph.map.labels import split
    return any(is_math and any(c in part for c in ("^", "_", "\\frac")) for line in label.split("\n")
               for is_math, part in split(line))


@dataclass
class Audit:
    """Defects of a laid-out figure (empty lists: none) and the sizes of its text as printed."""

    overlaps: list = field(default_factory=list)            # [(what, what)]
    edges_through_nodes: list = field(default_factory=list)  # [(edge, node)]
    edges_through_labels: list = field(default_factory=list)  # [(edge, label)]
    short_arrows: list = field(default_factory=list)         # [edge]: its two arrowheads meet
    outside: list = field(default_factory=list)              # [what]: a text past the page's edge
    text_pt: float = 0.0
    script_pt: float = 0.0

    @property
    def defects(self) -> int:
        return (len(self.overlaps) + len(self.edges_through_nodes) + len(self.edges_through_labels)
                + len(self.short_arrows) + len(self.outside))

    def as_dict(self) -> dict:
        return {"overlaps": len(self.overlaps), "edges_through_nodes": len(self.edges_through_nodes),
                "edges_through_labels": len(self.edges_through_labels), "short_arrows": len(self.short_arrows),
                "outside": len(self.outside), "text_pt": round(self.text_pt, 2),
                "script_pt": round(self.script_pt, 2)}


def _boxes(L) -> list:
    """``[(what, box)]``: every text's box, each node's frame, each cross mark's box."""
    out = [(f"node {n.id}", n.box) for n in L.nodes]
    out += [(f"label {c.id} ({c.u} -> {c.v})", c.text.box) for c in L.edges if c.text is not None]
    out += [(f"legend {i}", e.text.box) for i, e in enumerate(L.legend)]
    half = CROSS_PT / 2 * L.scale
    out += [(f"cross {c.id} ({c.u} -> {c.v})", (c.cross[0] - half, c.cross[1] - half, c.cross[0] + half,
                                                 c.cross[1] + half)) for c in L.edges if c.cross]
    return out


def audit(L) -> Audit:
    """The defects of the layout ``L`` (see the module docstring)."""
    out = Audit()
    boxes = _boxes(L)
    for (a, ba), (b, bb) in itertools.combinations(boxes, 2):
        if a.startswith("cross") and b.startswith("cross"):
            continue
        if intersect(ba, bb):
            out.overlaps.append((a, b))
    labels = [(c, c.text.box) for c in L.edges if c.text is not None]
    for c in L.edges:
        pts = bezier_points(c.points, 128)      # dense enough for a graze of a corner (the browser samples 200)
        for n in L.nodes:
            if n.id in (c.u, c.v):
                continue
            if any(_inside(p, n.box, TOLERANCE_PT) for p in pts):
                out.edges_through_nodes.append((f"{c.id} ({c.u} -> {c.v})", n.id))
        for other, box in labels:
            if any(_inside(p, box, TOLERANCE_PT) for p in pts):
                out.edges_through_labels.append((f"{c.id} ({c.u} -> {c.v})", f"label {other.id}"))
        if c.head and c.tail and _length(c.points) < MIN_SHAFT_PT * L.scale:
            out.short_arrows.append(f"{c.id} ({c.u} -> {c.v})")
    for what, t in L.texts():
        x0, y0, x1, y1 = t.box
        if x0 < 0 or y0 < 0 or x1 > L.width or y1 > L.height:
            out.outside.append(what)
    texts = [t for _, t in L.texts()]
    out.text_pt = min((t.size for t in texts), default=0.0)
    scripted = [t.size * SCRIPT_RATIO for t in texts if has_scripts(t.label)]
    out.script_pt = min(scripted, default=out.text_pt)
    return out
