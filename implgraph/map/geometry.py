"""The laid-out figure of a map: node boxes, curves, texts and legend in points (:class:`Layout`), as
:mod:`implgraph.map.layout` computes it and :mod:`implgraph.map.plot` and :mod:`implgraph.map.tikz` draw it."""

from __future__ import annotations

from dataclasses import dataclass, field

from implgraph.map.typeset import TEXT_PT

__all__ = ["Layout", "Node", "Curve", "Text", "LegendEntry", "CROSS_PT", "ARROW_PT", "MARGIN_PT", "SAMPLE_PT",
           "POINTS_PER_INCH"]

#: a cross mark's arms (points): the mark is CROSS_PT wide and high
CROSS_PT = 7.0
#: an arrowhead's length (points)
ARROW_PT = 6.0
#: the white margin around the drawing (points)
MARGIN_PT = 1.5
#: a legend's sample line (points)
SAMPLE_PT = 18.0
POINTS_PER_INCH = 72.0


@dataclass
class Text:
    """A label as drawn: its centre (or left end), the box its text is given (points) and its size."""

    label: str
    x: float
    y: float
    w: float
    h: float
    size: float
    color: str = "#000000"
    ha: str = "center"              # "left": x is the left edge (a legend's text)

    @property
    def box(self) -> tuple:
        """``(x0, y0, x1, y1)`` of the text."""
        x0 = self.x if self.ha == "left" else self.x - self.w / 2
        return (x0, self.y - self.h / 2, x0 + self.w, self.y + self.h / 2)


@dataclass
class Node:
    """A node's box (centre, size in points), fill and text."""

    id: str
    x: float
    y: float
    w: float
    h: float
    fill: str
    text: Text

    @property
    def box(self) -> tuple:
        return (self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2)


@dataclass
class Curve:
    """An edge: a cubic Bézier spline (``points`` = p0, c1, c2, p1, c1, c2, p2, ...), the tips of its
    arrowheads, its cross mark (centre, direction of the curve there) and its label."""

    id: str
    u: str
    v: str
    points: list
    head: tuple | None
    tail: tuple | None
    color: str
    dashed: bool
    layer: str
    cross: tuple | None = None
    text: Text | None = None
    box: tuple | None = None        # the box dot reserved for the label (or the cross)


@dataclass
class LegendEntry:
    """A legend line: a sample of the arrow (solid, dashed, crossed) and its text."""

    x0: float
    x1: float
    y: float
    color: str
    dashed: bool
    cross: bool
    text: Text
    sample: bool = True


@dataclass
class Layout:
    """The laid-out figure, in points (origin at the lower left, y upwards)."""

    width: float
    height: float
    nodes: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    legend: list = field(default_factory=list)
    scale: float = 1.0              # the drawing's scale against its natural size (< 1: shrunk to fit)
    key: list = field(default_factory=list)     # the numbered conditions, when the arrows carry numbers
    claims: list = field(default_factory=list)  # the overlay's claims by letter: [(line, colour)]
    source: str = ""                # the DOT handed to Graphviz (content, no positions)

    def texts(self) -> list:
        """``[(what, Text)]`` of every text drawn."""
        out = [(f"node {n.id}", n.text) for n in self.nodes]
        out += [(f"label {e.id}", e.text) for e in self.edges if e.text is not None]
        out += [(f"legend {i}", e.text) for i, e in enumerate(self.legend)]
        return out

    def content(self) -> dict:
        """What the figure says, without where: its width, the nodes' labels, the arrows (ends, label,
        colour, dashed, crossed, heads) and the legend, in a fixed order.  Two runs that draw the same
        facts give the same content whatever Graphviz placed (the committed figures are checked by it:
        ``scripts/figures.py --check``)."""
        return {"width_cm": round(self.width / 72 * 2.54, 2),
                "nodes": sorted([n.id, n.text.label] for n in self.nodes),
                "arrows": sorted([c.u, c.v, c.text.label if c.text else "", c.color, c.dashed, c.cross is not None,
                                  c.head is not None, c.tail is not None] for c in self.edges),
                "legend": [e.text.label for e in self.legend]}

    def digest(self) -> str:
        """The SHA-256 of :meth:`content` (written into every file drawn from the layout)."""
        import hashlib
        import json
        return hashlib.sha256(json.dumps(self.content(), sort_keys=True).encode()).hexdigest()

    @property
    def text_pt(self) -> float:
        """The size of the smallest text as printed (points)."""
        return min((t.size for _, t in self.texts()), default=TEXT_PT)
