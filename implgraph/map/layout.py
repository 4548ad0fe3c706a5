"""Laying out a drawing graph with Graphviz's ``dot`` (through the ``graphviz`` package), for every picture format.

Every label is measured as it will be drawn (:func:`implgraph.map.typeset.measure`) and handed to
``dot`` as a box of that size: a node is a box of its text's size plus padding (``fixedsize``), an edge's
label an empty HTML table of its text's size plus padding, which ``dot`` ranks and places like a node,
beside its edge.  A crossed-out arrow (a non-implication) gets such a box too, and its cross is drawn on
the curve where the box touches it, in the space the box keeps free (:mod:`implgraph.map.dot_input`).
``dot`` ranks the nodes (the stronger definition above), routes the splines around the nodes and labels,
and returns the positions (``-Tjson``), read into a :class:`implgraph.map.geometry.Layout` in points
(:mod:`implgraph.map.dot_output`), which :mod:`implgraph.map.plot` (SVG, PDF, PNG) and
:mod:`implgraph.map.tikz` draw alike; :mod:`implgraph.map.page` sets it on the page with its legend.

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

from implgraph.map.dot_input import dot_source
from implgraph.map.dot_output import bezier_points, laid_out
from implgraph.map.edge_labels import condition_numbers, edge_label, lettered, merged_arrows
from implgraph.map.geometry import ARROW_PT, CROSS_PT, MARGIN_PT, Curve, Layout, LegendEntry, Node, Text
from implgraph.map.order import ORDERS, model_fill, node_order
from implgraph.map.page import fit
from implgraph.map.typeset import CM, NODE_LINE_PT, wrap

__all__ = ["layout", "Layout", "Node", "Curve", "Text", "LegendEntry", "model_fill", "dot_source", "node_order",
           "edge_label", "condition_numbers", "merged_arrows", "bezier_points", "ORDERS", "CROSS_PT", "ARROW_PT"]


def layout(D, width_cm: float | None = None) -> Layout:
    """The figure of the drawing graph ``D`` laid out by Graphviz, at ``width_cm`` (None: its own size).

    The overlay's claims are lettered (:func:`lettered`) and a node's text wider than
    :data:`implgraph.map.typeset.NODE_LINE_PT` is broken into lines.  Graphviz is run on the node orders of
    :data:`ORDERS`, the non-implications between unordered nodes first left out of the ranking then ranked
    (:mod:`implgraph.map.dot_input`), first with the conditions written on the arrows, then numbered and listed in the
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
    for n in D:
        D.nodes[n]["label"] = wrap(D.nodes[n]["label"], NODE_LINE_PT)
    numbers = condition_numbers(D)
    tried = []
    for keyed in ((False, True) if numbers else (False,)):
        G = merged_arrows(D, numbers) if keyed else D
        # more room between nodes and ranks only where no layout of the usual spacing is clean (a large map)
        for spread, tight, variant in itertools.product((1.0, 2.0), (False, True), ORDERS):
            L = laid_out(G, numbers if keyed else None, variant, tight, spread)
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
    return fit(L, D, width_cm)
