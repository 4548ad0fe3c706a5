"""Writing a drawn map: SVG, PDF, PNG, TikZ or DOT text (chosen by the file suffix).

:func:`render` writes the drawing graph of :func:`implgraph.map.drawing.drawing` atomically.  The
pictures (SVG, PDF, PNG by :mod:`implgraph.map.plot`, TikZ by :mod:`implgraph.map.tikz`) all come from
the one layout of :mod:`implgraph.map.layout`, computed in Python: Graphviz is never called, so the
layout is the same whether or not it is installed.  DOT text (for other tools) is written by
:mod:`networkx.drawing.nx_pydot` when pydot is installed, otherwise by a small writer here.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from implgraph.core.errors import InputError
from implgraph.io.output import write_output
from implgraph.map.layout import model_fill
from implgraph.map.plot import draw_matplotlib, scene
from implgraph.map.tikz import to_tikz

__all__ = ["render", "to_dot", "check_suffix", "check_output", "FORMATS"]

#: the output formats, by file suffix
FORMATS = (".svg", ".pdf", ".png", ".tex", ".dot", ".gv")


# ------------------------------------------------------------------------------------------------
# DOT
# ------------------------------------------------------------------------------------------------

def _dot_graph(D) -> nx.MultiDiGraph:
    """Graphviz attributes for the drawing graph."""
    out = nx.MultiDiGraph()
    out.graph["graph"] = {"rankdir": "TB", "fontname": "Helvetica", "nodesep": "0.5", "ranksep": "0.7"}
    out.graph["node"] = {"shape": "box", "style": "rounded", "fontname": "Helvetica", "fontsize": "11"}
    out.graph["edge"] = {"fontname": "Helvetica", "fontsize": "9"}
    for n, d in D.nodes(data=True):
        fill = model_fill(d.get("model"))
        out.add_node(n, label=d.get("label", n).replace("\n", "\\n"), style="rounded,filled", fillcolor=fill)
    for u, v, k, d in D.edges(keys=True, data=True):
        attrs = {"label": d.get("label", "").replace("\\n", "\n").replace("\n", "\\n"), "color": d["color"], "fontcolor": d["color"], "style": d["style"],
                 "tooltip": d.get("claims", "")}
        if d.get("cross") == "1":
            attrs["arrowhead"] = "tee"
            attrs["constraint"] = "false"
        if d.get("both") == "1":
            attrs["dir"] = "both"
        out.add_edge(u, v, key=str(k), **attrs)
    return out


def _quote(s) -> str:
    s = str(s)
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\\\\n", "\\n") + '"'


def to_dot(D) -> str:
    """DOT text of a drawing graph (``networkx.nx_pydot`` when pydot is installed)."""
    G = _dot_graph(D)
    try:
        import pydot  # noqa: F401
        return nx.nx_pydot.to_pydot(G).to_string()
    except ImportError:
        pass
    lines = ["digraph implgraph {"]
    for key in ("graph", "node", "edge"):
        attrs = ", ".join(f"{a}={_quote(v)}" for a, v in G.graph[key].items())
        lines.append(f"  {key} [{attrs}];")
    for n, d in G.nodes(data=True):
        attrs = ", ".join(f"{a}={_quote(v)}" for a, v in d.items())
        lines.append(f"  {_quote(n)} [{attrs}];")
    for u, v, d in G.edges(data=True):
        attrs = ", ".join(f"{a}={_quote(v_)}" for a, v_ in d.items())
        lines.append(f"  {_quote(u)} -> {_quote(v)} [{attrs}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(D, path, title: str | None = None, labels: str = "plain", inputs=()) -> str:
    """Write a drawing graph to ``path`` (format by the suffix, see :data:`FORMATS`), atomically
    (:func:`implgraph.io.output.write_output`: a full or read-only disk is one line, nothing written).

    Every picture comes from one layout computed in Python (:mod:`implgraph.map.layout`): SVG (text
    kept as text), PDF and PNG drawn by matplotlib, TikZ (``.tex``) written from the same scene; DOT
    text is written for other tools.  Graphviz is never called, so the picture does not depend on
    what is installed.

    Parameters
    ----------
    D : networkx.MultiDiGraph
        From :func:`implgraph.map.drawing.drawing`.
    labels : {"plain", "latex", "none"}
    inputs : sequence of path
        The command's input files: ``path`` may not be one of them.

    Returns
    -------
    str
        What wrote the file: ``dot-text``, ``tikz`` or ``matplotlib``.

    Raises
    ------
    InputError
        Unknown suffix, a missing output directory, an input given as the output, a write that fails.
    """
    path = Path(path)
    check_suffix(path)
    check_output(path, inputs)
    suffix = path.suffix.lower()
    if suffix in (".dot", ".gv"):
        write_output(path, to_dot(D), inputs=inputs)
        return "dot-text"
    if suffix == ".tex":
        import matplotlib.pyplot as plt
        fig, sc = scene(D, title, labels)
        plt.close(fig)
        write_output(path, to_tikz(sc), inputs=inputs)
        return "tikz"
    write_output(path, draw_matplotlib(D, suffix[1:], title, labels), inputs=inputs)
    return "matplotlib"


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
