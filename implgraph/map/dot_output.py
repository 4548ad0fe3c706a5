"""Graphviz's answer read: ``dot`` run on a :func:`implgraph.map.dot_input.dot_source` graph (``-Tjson``) and
its positions and splines read into a :class:`implgraph.map.geometry.Layout` at the drawing's natural size
(:func:`laid_out`)."""

from __future__ import annotations

import math

from implgraph.core.errors import InputError
from implgraph.map.dot_input import dot_source, label_box
from implgraph.map.geometry import POINTS_PER_INCH, Curve, Layout, Node, Text
from implgraph.map.order import model_fill
from implgraph.map.typeset import TEXT_PT, text_box

__all__ = ["laid_out", "bezier_points"]

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


def laid_out(D, numbers, variant="registry", tight=False, spread=1.0) -> Layout:
    """One run of ``dot``: the layout at its natural size (Graphviz's coordinates)."""
    A, ids = dot_source(D, numbers, variant, tight, spread)
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
            bw, bh = label_box(label, crossed)
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
