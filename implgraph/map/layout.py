"""Laying out a drawing graph with Graphviz's ``dot`` (through the ``graphviz`` package), for every picture format.

Every label is measured as it will be drawn (:func:`implgraph.map.typeset.measure`) and handed to
``dot`` as a box of that size: a node is a box of its text's size plus padding (``fixedsize``), an edge's
label an empty HTML table of its text's size plus padding, which ``dot`` ranks and places like a node,
beside its edge.  A crossed-out arrow (a non-implication) gets such a box too, and its cross is drawn on
the curve where the box touches it, in the space the box keeps free.  ``dot`` ranks the nodes (the
stronger definition above: :func:`_oriented`), routes the splines around the nodes and labels, and
returns the positions (``-Tjson``); :func:`layout` reads them into a :class:`Layout` in points, which
:mod:`implgraph.map.plot` (SVG, PDF, PNG) and :mod:`implgraph.map.tikz` draw alike.

Graphviz does not promise that no spline crosses a label, so :func:`layout` runs it on a few inputs
(node orders, the non-implications in or out of the ranking, the conditions written out or numbered)
and keeps the first layout that :func:`implgraph.map.audit.audit` finds clean and that fits the width.
The same graph gives the same layout: the inputs are tried in a fixed order, nodes and edges are handed
over in a fixed order (the definitions' registration order, then the parameters in numeric order), and
``dot`` is deterministic.

The figure is set at a journal's width (:data:`implgraph.map.typeset.widths_cm`): when the drawing is
narrower it is centred at its own size (text at :data:`implgraph.map.typeset.TEXT_PT`); when it is
wider it is scaled down, and :attr:`Layout.text_pt` says the size its text is printed at.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.map.drawing import COLORS
from implgraph.map.labels import paper_name, text as plain
from implgraph.map.rules import PAPER_DASHED
from implgraph.map.typeset import CM, PAD_PT, TEXT_PT, check_label, text_box

__all__ = ["layout", "Layout", "Node", "Curve", "Text", "LegendEntry", "model_fill", "dot_source", "node_order",
           "edge_label", "condition_numbers", "merged_arrows", "bezier_points", "ORDERS", "CROSS_PT", "ARROW_PT"]

#: fill colours of the models, in registration order; a node of no declared model is grey
MODEL_FILLS = ("#e8f0fb", "#fdf0e0", "#e9f5e9", "#f3e8f7")
OTHER_FILL = "#f2f2f2"
OTHER_MODEL = "other"
#: a cross mark's arms (points): the mark is CROSS_PT wide and high
CROSS_PT = 7.0
#: an arrowhead's length (points)
ARROW_PT = 6.0
#: Graphviz's spacing (points): between nodes of a rank, between ranks
NODESEP_PT, RANKSEP_PT = 6.0, 18.0
#: how strongly a family's members are pulled into one column (dot's edge weight; a drawn edge has 1)
COLUMN_WEIGHT = 8
#: the white margin around the drawing (points)
MARGIN_PT = 3.0
#: a legend's sample line (points)
SAMPLE_PT = 18.0
POINTS_PER_INCH = 72.0


def _registry_order() -> tuple[dict, dict]:
    """``({definition name: index}, {model: index})`` in registration order (``other`` excluded)."""
    names, models = {}, {}
    for d in definitions.all_definitions():
        names.setdefault(d.name, len(names))
        if d.model != OTHER_MODEL:
            models.setdefault(d.model, len(models))
    return names, models


def model_fill(model) -> str:
    """The fill colour of a node of ``model``.

    Examples
    --------
    >>> model_fill("no such model") == OTHER_FILL
    True
    """
    index = _registry_order()[1].get(model)
    return OTHER_FILL if index is None else MODEL_FILLS[index % len(MODEL_FILLS)]


# ------------------------------------------------------------------------------------------------
# the layout
# ------------------------------------------------------------------------------------------------

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


# ------------------------------------------------------------------------------------------------
# Graphviz input
# ------------------------------------------------------------------------------------------------

def _order_key(D, n, names, models):
    d = D.nodes[n]
    family = str(d.get("family", n))
    definition = family.replace("@class", "")
    natural = tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", n))
    return (models.get(d.get("model"), len(models)), names.get(definition, len(names)),
            family.endswith("@class"), family, natural)


#: the orders nodes are handed to dot in, tried in turn (dot's crossing minimisation starts from it):
#: the definitions' registration order, the same with the models' order reversed, all reversed
ORDERS = ("registry", "models reversed", "reversed")


def node_order(D, variant: str = "registry") -> list:
    """The nodes in the order ``variant`` of :data:`ORDERS`."""
    names, models = _registry_order()
    key = (lambda n: _order_key(D, n, names, models))
    if variant == "models reversed":
        key = (lambda n: (-_order_key(D, n, names, models)[0],) + _order_key(D, n, names, models)[1:])
    order = sorted(D, key=key)
    return order[::-1] if variant == "reversed" else order


def _label_box(label: str, crossed: bool) -> tuple:
    """``(w, h)`` of the box dot reserves for an edge's label (text plus padding; room for a cross)."""
    w, h = text_box(label) if label else (0.0, 0.0)
    pad = PAD_PT + (CROSS_PT / 2 if crossed else 0.0)
    if not label:
        return (CROSS_PT + 2 * PAD_PT, CROSS_PT + 2 * PAD_PT) if crossed else (0.0, 0.0)
    return (w + 2 * pad, h + 2 * pad)


def _table(w: float, h: float) -> str:
    """An empty HTML table of ``w`` x ``h`` points: a box dot places like a node."""
    return (f'<<TABLE FIXEDSIZE="TRUE" WIDTH="{math.ceil(w)}" HEIGHT="{math.ceil(h)}" BORDER="0" '
            f'CELLBORDER="0" CELLPADDING="0" CELLSPACING="0"><TR><TD></TD></TR></TABLE>>')


def _checked(label: str, what: str) -> str:
    problem = check_label(label)
    if problem:
        raise InputError(f"the label of {what} cannot be typeset ({problem}): {label!r}",
                         fix="write the definition's label or the claim's f in plain terms")
    return label


#: how generally an edge holds (implgraph.map.drawing.holds), the most general first
HOLDS = ("always", "range", "point")


def _oriented(D, edges, tight: bool = False) -> list:
    """``[(a, b, k, d, ranks)]``: each edge as handed to dot, in a direction that closes no cycle, so that
    dot's cycle breaking turns no implication over.

    The established implications come first, the most general first (:data:`HOLDS`; equivalences before
    one-way implications that hold as generally), each ranking the stronger definition above
    (``ranks`` True).  An implication that would close a cycle (a special case, as singleton classes'
    mult. t-closeness => ε-LDP), a non-implication and a claim of the overlay follow without pulling
    their ends together (``ranks`` False): between two nodes the ranks already order, ranked the way
    they go (an arrow drawn upwards is handed over backwards), so dot routes it through the ranks it
    crosses clear of their labels; to a node nothing ranks yet, ranked below its source; between two
    nodes in no order, left out of the ranking (``ranks`` None: ``constraint=false``), so it moves
    nothing, or with ``tight`` ranked below its source all the same."""
    import networkx as nx
    H = nx.DiGraph()
    H.add_nodes_from(D)

    def later(e):
        d = e[3]
        first = d.get("layer") != "overlay" and d["kind"] == "implies"
        return (not first, HOLDS.index(d.get("holds", "always")) if first else 0, d.get("both") != "1")

    out = {}
    placed = None
    for i in sorted(range(len(edges)), key=lambda i: later(edges[i])):
        u, v, k, d = edges[i]
        if u == v:
            out[i] = (u, v, k, d, False)
            continue
        if not later(edges[i])[0]:
            if nx.has_path(H, v, u):
                out[i] = (v, u, k, d, False)
                continue
            H.add_edge(u, v)
            out[i] = (u, v, k, d, True)
            continue
        if placed is None:
            placed = {n for e in H.edges for n in e}
        if nx.has_path(H, v, u):
            out[i] = (v, u, k, d, False)
        elif nx.has_path(H, u, v) or v not in placed or tight:
            H.add_edge(u, v)
            out[i] = (u, v, k, d, False)
        else:
            out[i] = (u, v, k, d, None)
    return [out[i] for i in range(len(edges))]


def condition_numbers(D) -> dict:
    """``{conditions: number}``: the edges' distinct conditions numbered in the drawing's order."""
    out: dict = {}
    for _, _, _, d in _edge_order(D):
        if d.get("cond") and not d.get("letter"):
            out.setdefault(d["cond"], len(out) + 1)
    return out


def edge_label(d, numbers=None) -> str:
    """An edge's label: its name, f and conditions, one per line; with ``numbers`` the conditions are
    their number, on the last line (the figure's key lists them, as Fig. 2 of ekenstedt2022 does).

    Examples
    --------
    >>> d = {"name": "", "f": "$t^{2}$", "cond": "$k = 1$", "label": "$t^{2}$\\n$k = 1$"}
    >>> edge_label(d), edge_label(d, {"$k = 1$": 3})
    ('$t^{2}$\\n$k = 1$', '$t^{2}$\\n(3)')
    """
    if d.get("letter"):
        return d["letter"]
    if not numbers or not d.get("cond"):
        return d.get("label", "")
    lines = [x for x in (d.get("name"), d.get("f")) if x]
    return "\n".join(lines + [f"({numbers[d['cond']]})"])


def lettered(D):
    """A copy of ``D`` whose claims of the overlay are labelled with a letter (``a``, ``b``, ...), each
    claim's name, verdict and conditions going to the key below the drawing: ``a: Lemma 1: refuted, ...``
    (the names are long, the arrows many); ``(copy, key lines)``."""
    import networkx as nx
    out = nx.MultiDiGraph(D)
    key = []
    for u, v, k, d in _edge_order(D):
        if d.get("layer") != "overlay" or not d.get("label"):
            continue
        letter = _letter(len(key))
        lines = d["label"].split("\n") if d.get("name", "").count("\n") else [d["label"].replace("\n", ", ")]
        key.append((f"{letter}: " + "; ".join(lines), d["color"]))
        out.edges[u, v, k]["letter"] = letter
    return out, key


def _letter(i: int) -> str:
    """``a``, ..., ``z``, ``aa``, ``ab``, ...

    Examples
    --------
    >>> [_letter(i) for i in (0, 25, 26, 27)]
    ['a', 'z', 'aa', 'ab']
    """
    word = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        word = chr(ord("a") + r) + word
    return word


def _edge_order(D, order=None) -> list:
    rank = {n: i for i, n in enumerate(order or node_order(D))}
    return sorted(D.edges(keys=True, data=True),
                  key=lambda e: (e[3].get("layer") == "overlay", rank[e[0]], rank[e[1]], e[3]["kind"], str(e[2])))


def dot_source(D, numbers=None, variant: str = "registry", tight: bool = False):
    """``(graphviz.Digraph, {edge id: (u, v, key, data, label)})``: the drawing graph as Graphviz input
    (sizes, no positions); ``numbers``: the conditions as numbers (:func:`edge_label`); ``variant``: the
    order the nodes are handed over in (:data:`ORDERS`); ``tight``: see :func:`_oriented`."""
    import graphviz
    order = node_order(D, variant)
    key = {n: f"n{i}" for i, n in enumerate(order)}     # dot's names (a node's own may hold ':', a port)
    A = graphviz.Digraph("implgraph")
    A.attr(rankdir="TB", nodesep=f"{NODESEP_PT / POINTS_PER_INCH:.4f}", ranksep=f"{RANKSEP_PT / POINTS_PER_INCH:.4f}",
           splines="true", margin="0", pad="0")
    A.attr("node", shape="box", fixedsize="true", label="", style="rounded")
    A.attr("edge", arrowsize=f"{ARROW_PT / 10:.2f}", arrowhead="normal")
    for n in order:
        d = D.nodes[n]
        w, h = text_box(_checked(d["label"], f"node {n}"))
        A.node(key[n], width=f"{(w + 2 * PAD_PT + 4) / POINTS_PER_INCH:.4f}", id=n,
                   height=f"{(h + 2 * PAD_PT + 2) / POINTS_PER_INCH:.4f}", group=d.get("family", n))
    edges = _edge_order(D, order)
    ids = {}
    for i, (a, b, k, d, ranks) in enumerate(_oriented(D, edges, tight)):
        eid = f"e{i}"
        u, v = edges[i][:2]
        crossed = d.get("cross") == "1"
        label = _checked(edge_label(d, numbers), f"edge {u} -> {v}")
        ids[eid] = (u, v, k, d, label)
        attrs = {"id": eid}
        w, h = _label_box(label, crossed)
        if w:
            attrs["label"] = _table(w, h)
        if ranks is None:
            attrs["constraint"] = "false"
        elif not ranks:
            attrs["weight"] = "0"
        if d.get("both") == "1":
            attrs["dir"] = "both"
        elif (a, b) != (u, v):
            attrs["dir"] = "back"       # handed over from b to a: its arrowhead at dot's tail
        A.edge(key[a], key[b], **attrs)
    for a, b in _columns(D, order):
        A.edge(key[a], key[b], style="invis", weight=str(COLUMN_WEIGHT), dir="none", constraint="false")
    return A, ids


def _columns(D, order) -> list:
    """``[(a, b)]``: consecutive members of a family (in the order of their parameters), handed to dot as
    invisible edges that rank nothing but pull the members towards one column, so that a family drawn at
    several group sizes reads as a column."""
    families: dict = {}
    for n in order:
        families.setdefault(D.nodes[n].get("family", n), []).append(n)
    return [(a, b) for members in families.values() for a, b in zip(members, members[1:])]


# ------------------------------------------------------------------------------------------------
# Graphviz output
# ------------------------------------------------------------------------------------------------

def _pair(text: str) -> tuple:
    x, y = text.split(",")[:2]
    return (float(x), float(y))


def _spline(pos: str) -> tuple:
    """``(points, head, tail)`` of an edge's ``pos`` (``e,x,y s,x,y p0 c1 c2 p1 ...``)."""
    head = tail = None
    points = []
    for part in pos.split(";")[0].split():
        if part.startswith("e,"):
            head = _pair(part[2:])
        elif part.startswith("s,"):
            tail = _pair(part[2:])
        else:
            points.append(_pair(part))
    return points, head, tail


def bezier_points(points, steps: int = 24) -> list:
    """Points along a cubic Bézier spline (``p0, c1, c2, p1, ...``), ``steps`` per piece."""
    out = []
    for i in range(0, len(points) - 3, 3):
        p0, c1, c2, p1 = points[i:i + 4]
        for s in range(steps + (1 if i + 4 >= len(points) else 0)):
            t = s / steps
            a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
            out.append((a * p0[0] + b * c1[0] + c * c2[0] + d * p1[0], a * p0[1] + b * c1[1] + c * c2[1] + d * p1[1]))
    return out


def _distance_to_box(p, box) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def _cross_at(points, box) -> tuple:
    """``(x, y, angle)``: the point of the curve nearest the box reserved beside it, and the curve's
    direction there."""
    pts = bezier_points(points, 48)
    i = min(range(len(pts)), key=lambda j: (_distance_to_box(pts[j], box), abs(j - len(pts) / 2)))
    a, b = pts[max(i - 1, 0)], pts[min(i + 1, len(pts) - 1)]
    return (pts[i][0], pts[i][1], math.atan2(b[1] - a[1], b[0] - a[0]))


def _run_dot(A) -> dict:
    """``dot`` on ``A``: Graphviz's layout as JSON (``-Tjson``), read.

    Raises
    ------
    InputError
        Graphviz is not installed, or dot failed (its message in one line).
    """
    import json
    import graphviz
    try:
        return json.loads(A.pipe(format="json", quiet=True))
    except graphviz.ExecutableNotFound:
        raise InputError("Graphviz's dot is not installed (it lays the map out)",
                         fix="install Graphviz: apt-get install graphviz (Debian, Ubuntu), brew install graphviz "
                             "(macOS), or see graphviz.org") from None
    except graphviz.CalledProcessError as exc:
        message = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"Graphviz's dot failed: {message[-1] if message else exc}",
                         fix="report it with the map's theorems files") from None


def layout(D, width_cm: float | None = None) -> Layout:
    """The figure of the drawing graph ``D`` laid out by Graphviz, at ``width_cm`` (None: its own size).

    The overlay's claims are lettered (:func:`lettered`).  Graphviz is run on the node orders of
    :data:`ORDERS`, the non-implications between unordered nodes first left out of the ranking then ranked
    (:func:`_oriented`), first with the conditions written on the arrows, then numbered and listed in the
    key below the drawing (as Fig. 2 of ekenstedt2022 does; :func:`merged_arrows`); the first layout that
    fits the width and has no defect
    (:func:`implgraph.map.audit.audit`: no text over another, no edge through a node or a label) is kept,
    else the one with the fewest defects, then the narrowest.

    Raises
    ------
    InputError
        A label mathtext cannot set.
    """
    from implgraph.map.audit import audit
    target = None if width_cm is None else width_cm * CM
    D, claims = lettered(D)
    numbers = condition_numbers(D)
    tried = []
    for keyed in ((False, True) if numbers else (False,)):
        G = merged_arrows(D, numbers) if keyed else D
        for tight, variant in itertools.product((False, True), ORDERS):
            L = _laid_out(G, numbers if keyed else None, variant, tight)
            defects = audit(L).defects
            fits = target is None or L.width + 2 * MARGIN_PT <= target
            if not defects and fits:
                break
            tried.append((defects, not fits, L.width, len(tried), L))
        else:
            continue
        break
    else:
        L = min(tried, key=lambda t: t[:4])[4]
    L.claims = claims
    return _fit(L, D, width_cm)


def merged_arrows(D, numbers):
    """A copy of ``D`` where the established implications between two nodes of different level symbols
    are one arrow (double-headed when they go both ways): a line per f, the target's level = f, with the
    numbers of the conditions it holds under (``ε = ln(t) (4, 5)``, ``t = e^ε (4)``); ``ε = ...`` says
    which way each line goes.  Pairs with an unlabelled (identity) implication are kept as they are."""
    import networkx as nx
    out = nx.MultiDiGraph(D)
    pairs: dict = {}
    for u, v, k, d in D.edges(keys=True, data=True):
        if d["kind"] == "implies" and d.get("layer") == "established" and u != v:
            pairs.setdefault(frozenset((u, v)), []).append((u, v, k, d))
    for group in pairs.values():
        if len(group) < 2 or any(not d.get("f") for *_, d in group):
            continue
        refs: dict = {}
        forward = backward = False
        u0, v0 = group[0][:2]
        for u, v, k, d in group:
            same = (u, v) == (u0, v0)
            forward |= same or d.get("both") == "1"
            backward |= not same or d.get("both") == "1"
            for line in d["f"].split("\n"):
                got = refs.setdefault(line, [])
                if got is not None:
                    refs[line] = None if not d.get("cond") else got + [numbers[d["cond"]]]
        lines = [x for x in dict.fromkeys(d.get("name", "") for *_, d in group) if x]
        lines += [f + (f" ({', '.join(map(str, sorted(set(r))))})" if r else "") for f, r in refs.items()]
        base = dict(group[0][3])
        for u, v, k, _ in group:
            out.remove_edge(u, v, k)
        if not forward:
            u0, v0 = v0, u0
        base.update(name="", f="\n".join(lines), cond="", label="\n".join(lines),
                    both="1" if forward and backward else "0",
                    claims="; ".join(d["claims"] for *_, d in group),
                    holds=min((d.get("holds", "always") for *_, d in group), key=HOLDS.index))
        out.add_edge(u0, v0, key=group[0][2], **base)
    return out


def _laid_out(D, numbers, variant="registry", tight=False) -> Layout:
    """One run of ``dot``: the layout at its natural size (Graphviz's coordinates)."""
    A, ids = dot_source(D, numbers, variant, tight)
    out = _run_dot(A)
    x0, y0, x1, y1 = (float(v) for v in out["bb"].split(","))
    nodes, edges = [], []
    for n in out.get("objects", []):
        x, y = _pair(n["pos"])
        w, h = float(n["width"]) * POINTS_PER_INCH, float(n["height"]) * POINTS_PER_INCH
        d = D.nodes[n["id"]]
        tw, th = text_box(d["label"])
        nodes.append(Node(n["id"], x - x0, y - y0, w, h, model_fill(d.get("model")),
                          Text(d["label"], x - x0, y - y0, tw, th, TEXT_PT)))
    for e in out.get("edges", []):
        if e.get("style") == "invis":
            continue
        u, v, k, d, label = ids[e["id"]]
        points, head, tail = _spline(e["pos"])
        shift = lambda p: (p[0] - x0, p[1] - y0)  # noqa: E731
        curve = Curve(e["id"], str(u), str(v), [shift(p) for p in points], head and shift(head),
                      tail and shift(tail), d["color"], d.get("style") == "dashed", d.get("layer", "established"))
        crossed = d.get("cross") == "1"
        if e.get("lp"):
            lx, ly = shift(_pair(e["lp"]))
            bw, bh = _label_box(label, crossed)
            curve.box = (lx - bw / 2, ly - bh / 2, lx + bw / 2, ly + bh / 2)
            if label:
                tw, th = text_box(label)
                curve.text = Text(label, lx, ly, tw, th, TEXT_PT, d["color"])
        if crossed:
            curve.cross = _cross_at(curve.points, curve.box or (curve.points[0] * 2))
        edges.append(curve)
    edges.sort(key=lambda c: int(c.id[1:]))
    return Layout(width=x1 - x0, height=y1 - y0, nodes=nodes, edges=edges, source=A.source,
                  key=[f"({n}) {cond}" for cond, n in (numbers or {}).items()])


# ------------------------------------------------------------------------------------------------
# the page: scale, margin, legend
# ------------------------------------------------------------------------------------------------

def _fit(L: Layout, D, width_cm) -> Layout:
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
