"""Placing edge labels so that no two label boxes overlap (display coordinates, pixels).

An edge is a quadratic Bézier curve ``p1 -> p2`` with control point ``c``; matplotlib's ``arc3``
connection with bend ``rad`` has ``c = control(p1, p2, rad)``, the chord's midpoint moved by ``rad``
times the chord turned by -90 degrees, and :func:`sub_curve` gives the visible part of a curve.
:func:`place` tries, for one label of size ``w x h``, positions along its curve (middle first) at
growing distances from the curve, then rings around the curve's middle at growing radii, and takes the
first box that meets no box already taken; the search always ends (far enough out, nothing is left).
"""

from __future__ import annotations

import math

__all__ = ["bezier", "tangent", "control", "sub_curve", "overlaps", "place", "Box"]

#: a box ``(x0, y0, x1, y1)``, x0 <= x1, y0 <= y1
Box = tuple

#: positions along the curve, middle first
T_ORDER = (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.2, 0.8)
#: offsets from the curve, in half label heights (plus a gap), nearest first
OFFSETS = (0, 1, -1, 2, -2, 3, -3, 4, -4)
#: how far the ring search goes (rings of one label height each)
MAX_RINGS = 400


def control(p1, p2, rad):
    """The control point of the ``arc3,rad=rad`` curve from ``p1`` to ``p2``.

    Examples
    --------
    >>> control((0, 0), (2, 0), 0.5)
    (1.0, -1.0)
    """
    (x1, y1), (x2, y2) = p1, p2
    return (x1 + x2) / 2 + rad * (y2 - y1), (y1 + y2) / 2 - rad * (x2 - x1)


def bezier(p1, c, p2, t):
    """The point at ``t`` of the quadratic curve ``p1 -> p2`` with control point ``c``.

    Examples
    --------
    >>> bezier((0, 0), control((0, 0), (2, 0), 0.5), (2, 0), 0.5)
    (1.0, -0.5)
    """
    (x1, y1), (x2, y2) = p1, p2
    cx, cy = c
    a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t ** 2
    return a * x1 + b * cx + c * x2, a * y1 + b * cy + c * y2


def tangent(p1, c, p2, t):
    """The unit tangent of the curve at ``t``.

    Examples
    --------
    >>> tangent((0, 0), (1, 0), (2, 0), 0.3)
    (1.0, 0.0)
    """
    (x1, y1), (x2, y2) = p1, p2
    cx, cy = c
    dx = 2 * (1 - t) * (cx - x1) + 2 * t * (x2 - cx)
    dy = 2 * (1 - t) * (cy - y1) + 2 * t * (y2 - cy)
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def sub_curve(p1, c, p2, ta, tb):
    """The part ``ta <= t <= tb`` of a quadratic curve, as ``(start, control, end)``.

    Examples
    --------
    >>> sub_curve((0, 0), (1, 2), (2, 0), 0.0, 0.5)
    ((0.0, 0.0), (0.5, 1.0), (1.0, 1.0))
    """
    a, b = bezier(p1, c, p2, ta), bezier(p1, c, p2, tb)
    (x1, y1), (x2, y2), (cx, cy) = p1, p2, c
    dx = 2 * (1 - ta) * (cx - x1) + 2 * ta * (x2 - cx)
    dy = 2 * (1 - ta) * (cy - y1) + 2 * ta * (y2 - cy)
    h = (tb - ta) / 2
    return (float(a[0]), float(a[1])), (a[0] + h * dx, a[1] + h * dy), (float(b[0]), float(b[1]))


def overlaps(a: Box, b: Box, margin: float = 0.0) -> bool:
    """True when the boxes ``a`` and ``b`` (grown by ``margin``) share an interior point.

    Examples
    --------
    >>> overlaps((0, 0, 2, 2), (1, 1, 3, 3))
    True
    >>> overlaps((0, 0, 1, 1), (1, 0, 2, 1))
    False
    """
    return (a[0] < b[2] + margin and b[0] < a[2] + margin and a[1] < b[3] + margin and b[1] < a[3] + margin)


def _box(cx, cy, w, h) -> Box:
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _free(box, taken, margin):
    return not any(overlaps(box, t, margin) for t in taken)


def place(p1, c, p2, w, h, taken, margin: float = 2.0, t_order=T_ORDER):
    """Where to put a ``w x h`` label of the curve ``p1 -> p2`` (display coordinates).

    Parameters
    ----------
    p1, c, p2 : (float, float)
        The curve's ends and control point (display coordinates).
    w, h : float
        The label's size.
    taken : list of Box
        Boxes already taken (nodes, labels, marks); not modified.
    margin : float
        The smallest gap between two boxes.

    Returns
    -------
    (center, anchor)
        The label's centre, and the curve point it belongs to when it had to move away from the curve
        (draw a leader line), else None.

    Examples
    --------
    >>> place((0, 0), (50, 0), (100, 0), 20, 10, [])
    ((50.0, 0.0), None)
    >>> c, _ = place((0, 0), (50, 0), (100, 0), 20, 10, [(30, -20, 70, 20)])
    >>> overlaps((c[0] - 10, c[1] - 5, c[0] + 10, c[1] + 5), (30, -20, 70, 20))
    False
    """
    step = h / 2 + margin
    for off in OFFSETS:
        for t in t_order:
            x, y = bezier(p1, c, p2, t)
            tx, ty = tangent(p1, c, p2, t)
            nx_, ny_ = -ty, tx
            # move sideways by whole half-heights, and far enough that a steep curve clears the box
            dist = off * (step + abs(nx_) * w / 2 * (1 if off else 0))
            cx, cy = x + nx_ * dist, y + ny_ * dist
            if _free(_box(cx, cy, w, h), taken, margin):
                return (cx, cy), None
    ax_, ay_ = bezier(p1, c, p2, 0.5)
    ring = h + margin
    for r in range(1, MAX_RINGS):
        n = 8 + 4 * r
        for i in range(n):
            a = 2 * math.pi * i / n
            cx, cy = ax_ + r * ring * math.cos(a) * max(1.0, w / h / 2), ay_ + r * ring * math.sin(a)
            if _free(_box(cx, cy, w, h), taken, margin):
                return (cx, cy), (ax_, ay_)
    raise RuntimeError("no free place for a label")  # pragma: no cover - the rings grow without bound
