"""The page of a laid-out map: the drawing moved to the origin, scaled down to a journal's width when wider
(:func:`fit`), and the legend flowed below it."""

from __future__ import annotations

from implgraph.map.drawing import COLORS
from implgraph.map.geometry import MARGIN_PT, SAMPLE_PT, LegendEntry, Layout, Text
from implgraph.map.labels import paper_name, text as plain
from implgraph.map.rules import PAPER_DASHED
from implgraph.map.typeset import CM, TEXT_PT, text_box

__all__ = ["fit"]

def fit(L: Layout, D, width_cm) -> Layout:
    """Move the drawing to the origin, scale it down to the width if it is wider, add the legend below."""
    natural = L.width + 2 * MARGIN_PT
    target = None if width_cm is None else width_cm * CM
    s = min(1.0, target / natural) if target else 1.0
    page = target if target else natural
    dx = (page - L.width * s) / 2
    legend = _legend(_legend_items(D) + [(c, "#000000", None, False) for c in L.key]
                     + [(c, color, None, False) for c, color in L.claims], page)
    legend_h = _legend_height(legend)
    dy = MARGIN_PT + legend_h

    def at(p):
        return (p[0] * s + dx, p[1] * s + dy)

    def text_at(t):
        x, y = at((t.x, t.y))
        return Text(t.label, x, y, t.w * s, t.h * s, t.size * s, t.color, t.ha)

    for n in L.nodes:
        n.x, n.y = at((n.x, n.y))
        n.w, n.h = n.w * s, n.h * s
        n.text = text_at(n.text)
    for c in L.edges:
        c.points = [at(p) for p in c.points]
        c.head = at(c.head) if c.head else None
        c.tail = at(c.tail) if c.tail else None
        if c.cross:
            x, y = at(c.cross[:2])
            c.cross = (x, y, c.cross[2])
        if c.box:
            a, b = at(c.box[:2]), at(c.box[2:])
            c.box = (a[0], a[1], b[0], b[1])
        if c.text:
            c.text = text_at(c.text)
    L.scale = s
    L.width = page
    L.height = L.height * s + 2 * MARGIN_PT + legend_h
    L.legend = legend
    return L


def _legend_items(D) -> list:
    """``[(label, colour, dashed, crossed)]`` of the legend: the kinds of arrow the figure draws."""
    ds = [d for _, _, d in D.edges(data=True)]
    items = []
    implies = [d for d in ds if d["kind"] == "implies" and d.get("layer") != "overlay"]
    if implies:
        items.append(("implies; label: the level it gives", COLORS["established"], False, False))
    if any(d["kind"] == "not-implies" and d.get("layer") != "overlay" for d in ds):
        items.append(("does not imply", COLORS["non"], False, True))
    if any(d.get("style") == "dashed" for d in ds):
        items.append(("dashed: " + ", ".join(paper_name(p) for p in PAPER_DASHED), COLORS["established"], True, False))
    if any(d.get("layer") == "overlay" and d["color"] == COLORS["refuted"] for d in ds):
        items.append(("a paper's claim the engine refutes", COLORS["refuted"], False, False))
    if any(d.get("layer") == "overlay" and d["color"] == COLORS["unknown"] for d in ds):
        items.append(("a paper's claim not decided", COLORS["unknown"], False, False))
    out = [(plain(words), color, dashed, cross) for words, color, dashed, cross in items]
    if any(not d.get("f") for d in implies):
        out.insert(1, (plain("(no f: the same level)"), COLORS["established"], None, False))
    return out


#: the space between legend entries (points)
LEGEND_GAP = 8.0


def _legend(items, page: float) -> list:
    """The legend's entries (``dashed`` None: a line of the key, no sample), flowed into lines of the
    page's width from the top line down, above the bottom margin."""
    rows, row, x = [], [], MARGIN_PT
    for label, color, dashed, cross in items:
        w, h = text_box(label)
        sample = 0.0 if dashed is None else SAMPLE_PT + 3
        need = sample + w
        if row and x + need > page - MARGIN_PT:
            rows.append(row)
            row, x = [], MARGIN_PT
        row.append((x, sample, label, w, h, color, dashed, cross))
        x += need + LEGEND_GAP
    if row:
        rows.append(row)
    line = max((e[4] for r in rows for e in r), default=0.0) + 3
    out = []
    for i, r in enumerate(rows):
        y = MARGIN_PT + (len(rows) - i - 0.5) * line
        for x, sample, label, w, h, color, dashed, cross in r:
            out.append(LegendEntry(x, x + sample - 3 if sample else x, y, color, bool(dashed), cross,
                                   Text(label, x + sample, y, w, h, TEXT_PT, ha="left"), sample=bool(sample)))
    return out


def _legend_height(legend) -> float:
    if not legend:
        return 0.0
    return max(e.text.y + e.text.h / 2 for e in legend) + 4.0
