"""Writing a drawn map: DOT, SVG and PNG (chosen by the file suffix).

:func:`render` writes the drawing graph of :func:`implgraph.map.drawing.drawing` atomically: DOT text
is written by :mod:`networkx.drawing.nx_pydot` when pydot is installed, otherwise by a small writer
here; SVG/PNG use Graphviz ``dot`` when it is on the PATH and the matplotlib renderer of
:mod:`implgraph.map.plot` (layered layout, :mod:`implgraph.map.layout`) otherwise, so a pip-only
install works.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import networkx as nx

from implgraph.core.errors import InputError
from implgraph.io.output import atomic_write
from implgraph.map.layout import model_fill
from implgraph.map.plot import draw_matplotlib

__all__ = ["render", "to_dot", "FORMATS"]

FORMATS = (".dot", ".gv", ".svg", ".png")


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
    lines = ["strict digraph {" if False else "digraph implgraph {"]
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


def render(D, path, title: str | None = None, labels: str = "plain", engine: str = "auto") -> str:
    """Write a drawing graph to ``path`` (``.dot``/``.gv``, ``.svg`` or ``.png``), atomically.

    Parameters
    ----------
    D : networkx.MultiDiGraph
        From :func:`implgraph.map.drawing.drawing`.
    engine : {"auto", "graphviz", "matplotlib"}
        ``auto`` uses Graphviz ``dot`` when it is on the PATH, otherwise matplotlib.

    Returns
    -------
    str
        The engine used (``dot-text``, ``graphviz`` or ``matplotlib``).

    Raises
    ------
    InputError
        Unknown suffix, or ``engine="graphviz"`` without Graphviz.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"unknown output format {suffix or '(no suffix)'}", file=str(path),
                         fix="name the file .dot, .svg or .png")
    if not path.parent.exists():
        raise InputError("the output directory does not exist", file=str(path), fix="create it first")
    if suffix in (".dot", ".gv"):
        atomic_write(path, to_dot(D))
        return "dot-text"
    dot = shutil.which("dot")
    if engine == "graphviz" and not dot:
        raise InputError("Graphviz `dot` is not on the PATH", fix="install Graphviz or use --engine matplotlib")
    if dot and engine in ("auto", "graphviz"):
        proc = subprocess.run([dot, f"-T{suffix[1:]}"], input=to_dot(D).encode("utf-8"), capture_output=True,
                              timeout=120)
        if proc.returncode == 0:
            atomic_write(path, proc.stdout)
            return "graphviz"
        if engine == "graphviz":
            raise InputError(f"Graphviz failed: {proc.stderr.decode(errors='replace').strip()[:200]}",
                             fix="use --engine matplotlib")
    atomic_write(path, draw_matplotlib(D, suffix[1:], title, labels))
    return "matplotlib"
