"""Writing a drawn map: SVG, PDF, PNG, TikZ or DOT (chosen by the file suffix), at a journal's width.

:func:`render` lays the drawing graph of :func:`implgraph.map.drawing.drawing` out once with Graphviz
(:func:`implgraph.map.layout.layout`) and writes that one layout: SVG, PDF and PNG by matplotlib
(:mod:`implgraph.map.plot`), TikZ (:mod:`implgraph.map.tikz`), or the graph as DOT with its labels in
LaTeX (for dot2tex or Graphviz itself).  Every file is written atomically.
"""

from __future__ import annotations

from pathlib import Path

from implgraph.core.errors import InputError
from implgraph.io.output import write_output
from implgraph.map.labels import to_latex
from implgraph.map.typeset import TEXT_PT, widths_cm

__all__ = ["render", "write_layout", "to_dot", "check_suffix", "check_output", "width_cm", "FORMATS"]

#: the output formats, by file suffix
FORMATS = (".svg", ".pdf", ".png", ".tex", ".dot", ".gv")
#: the widths a figure may be set at (centimetres)
MIN_WIDTH_CM, MAX_WIDTH_CM = 4.0, 60.0


def width_cm(width) -> float:
    """A ``--width`` (``single``, ``double`` or centimetres) in centimetres.

    Raises
    ------
    InputError
        Not a column's name and not a number of centimetres in range.

    Examples
    --------
    >>> width_cm("single"), width_cm("double"), width_cm("12.5")
    (8.5, 17.8, 12.5)
    """
    text = str(width).strip().lower()
    if text in widths_cm:
        return widths_cm[text]
    try:
        value = float(text.removesuffix("cm"))
    except ValueError:
        value = float("nan")
    if not MIN_WIDTH_CM <= value <= MAX_WIDTH_CM:      # also NaN
        raise InputError(f"--width {width} is not a width", fix=f"give single ({widths_cm['single']} cm), double "
                         f"({widths_cm['double']} cm) or centimetres between {MIN_WIDTH_CM:g} and {MAX_WIDTH_CM:g}")
    return value


def to_dot(D) -> str:
    """The drawing graph as DOT (labels in LaTeX, colours, styles; no positions), for other tools (written with the
    ``graphviz`` package: no Graphviz binary needed)."""
    import graphviz
    from implgraph.map.order import model_fill, node_order
    g = graphviz.Digraph(name="implgraph", strict=False)
    g.attr(rankdir="TB")
    g.attr("node", shape="box", style="rounded,filled")
    for n in node_order(D):
        d = D.nodes[n]
        g.node(str(n), label=to_latex(d["label"]), texlbl=to_latex(d["label"]), fillcolor=model_fill(d.get("model")))
    for u, v, k, d in D.edges(keys=True, data=True):
        attrs = {"color": d["color"], "fontcolor": d["color"], "style": d["style"], "tooltip": d.get("claims", "")}
        if d.get("label"):
            attrs["label"] = attrs["texlbl"] = to_latex(d["label"])
        if d.get("cross") == "1":
            attrs["arrowhead"] = "tee"
        if d.get("both") == "1":
            attrs["dir"] = "both"
        g.edge(str(u), str(v), **attrs)
    return g.source


def render(D, path, width=None, inputs=()) -> dict:
    """Write a drawing graph to ``path`` (format by the suffix, see :data:`FORMATS`) at ``width``
    (``single``, ``double`` or centimetres; default a single column), atomically
    (:func:`implgraph.io.output.write_output`: a full or read-only disk is one line, nothing written).

    Parameters
    ----------
    D : networkx.MultiDiGraph
        From :func:`implgraph.map.drawing.drawing`.
    width : str or float, optional
    inputs : sequence of path
        The command's input files: ``path`` may not be one of them.

    Returns
    -------
    dict
        ``format``, ``width_cm``, ``height_cm``, ``text_pt`` (the smallest text as printed), the figure's
        :func:`implgraph.map.audit.audit` (``overlaps``, ``edges_through_nodes``, ...) and ``digest`` (of what
        it says, :meth:`implgraph.map.layout.Layout.digest`); ``shrunk`` when ``text_pt`` is below
        :data:`implgraph.map.typeset.TEXT_PT` (the drawing had to be shrunk to the width: its scripts are under
        7 pt).

    Raises
    ------
    InputError
        Unknown suffix, a width out of range, a missing output directory, an input given as the output,
        a write that fails, a label that cannot be typeset.
    """
    path = Path(path)
    check_output(path, inputs)
    cm = width_cm(width if width is not None else "single")
    suffix = path.suffix.lower()
    if suffix in (".dot", ".gv"):
        write_output(path, to_dot(D), inputs=inputs)
        return {"format": "dot", "width_cm": None, "text_pt": None}
    from implgraph.map.layout import layout
    return write_layout(layout(D, cm), path, inputs)


def write_layout(L, path, inputs=()) -> dict:
    """Write a laid-out map (:func:`implgraph.map.layout.layout`) to ``path`` (SVG, PDF, PNG or TikZ by the
    suffix), atomically; the report of :func:`render`."""
    from implgraph.map.audit import audit
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".tex":
        from implgraph.map.tikz import to_tikz
        write_output(path, to_tikz(L), inputs=inputs)
    elif suffix in (".svg", ".pdf", ".png"):
        from implgraph.map.plot import draw
        write_output(path, draw(L, suffix[1:]), inputs=inputs)
    else:
        check_suffix(path)
        raise InputError(f"a laid-out map cannot be written as {suffix}", file=str(path),
                         fix="name the file .svg, .pdf, .png or .tex")
    found = audit(L)
    return {"format": suffix[1:], "width_cm": round(L.width / 72 * 2.54, 2),
            "height_cm": round(L.height / 72 * 2.54, 2), "text_pt": round(L.text_pt, 2),
            "shrunk": L.text_pt < TEXT_PT, **found.as_dict(), "digest": L.digest()}


def check_output(path, inputs=()) -> None:
    """InputError unless ``path`` can be written: a known suffix, an existing folder, not a directory,
    not one of ``inputs`` (checked before the map is computed)."""
    from implgraph.io.output import check_output_path
    check_suffix(path)
    if not Path(path).parent.exists():
        raise InputError("the output directory does not exist", file=str(path), fix="create it first")
    check_output_path(path, "--out", inputs)


def check_suffix(path) -> None:
    """InputError unless ``path`` ends in one of :data:`FORMATS`."""
    suffix = Path(str(path)).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"unknown output format {suffix or '(no suffix)'}", file=str(path),
                         fix="name the file " + ", ".join(FORMATS[:-1]) + " or " + FORMATS[-1])
