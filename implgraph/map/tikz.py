"""The drawn map as TikZ: the same scene as the matplotlib figure (:func:`implgraph.map.plot.scene`).

Node and label positions, curves, cross marks and the legend are those of the scene, in centimetres, so
the ``.tex`` shows the layout of the SVG/PDF/PNG.  The output is one ``tikzpicture`` for ``\\input`` in
a paper (it needs ``\\usepackage{tikz}`` and ``\\usetikzlibrary{arrows.meta}``); the text is typeset by
LaTeX, so its extents differ a little from the measured ones.
"""

from __future__ import annotations

import re

__all__ = ["to_tikz", "tex_text"]

CM_PER_INCH = 2.54

_MATH = {"ε": r"\varepsilon", "δ": r"\delta", "α": r"\alpha", "β": r"\beta", "·": r"\cdot", "×": r"\times",
         "→": r"\to", "≥": r"\geq", "≤": r"\leq", "−": "-", "∞": r"\infty"}
_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
            "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def tex_text(text: str) -> str:
    """``text`` for LaTeX: ``$...$`` kept, special characters escaped, Greek letters in math mode.

    Examples
    --------
    >>> tex_text("ε-LDP: 50% of $x_1$")
    '$\\\\varepsilon$-LDP: 50\\\\% of $x_1$'
    >>> tex_text("e^ε")
    'e$^{\\\\varepsilon}$'
    """
    out = []
    for i, part in enumerate(re.split(r"(\$[^$]*\$)", text)):
        if i % 2:
            out.append(part)
            continue
        part = re.sub(r"\^([εδαβ0-9a-z()]+)", lambda m: "\0" + m.group(1) + "\1", part)
        buf = []
        for ch in part:
            if ch == "\0":
                buf.append("$^{")
            elif ch == "\1":
                buf.append("}$")
            elif ch in _MATH:
                inner = _MATH[ch]
                buf.append(inner + " " if buf and buf[-1] == "$^{" or _in_sup(buf) else f"${inner}$")
            elif ch in _SPECIAL:
                buf.append(_SPECIAL[ch])
            else:
                buf.append(ch)
        out.append("".join(buf).replace(" }$", "}$"))
    return "".join(out).replace("\n", r"\\")


def _in_sup(buf) -> bool:
    for piece in reversed(buf):
        if piece == "$^{":
            return True
        if piece == "}$":
            return False
    return False


def _color_name(color: str, colors: dict) -> str:
    return colors.setdefault(color.lstrip("#").upper(), f"ig{len(colors)}")


def to_tikz(sc) -> str:
    """TikZ source of a :class:`implgraph.map.plot.Scene`."""
    k = sc.scale * CM_PER_INCH
    colors: dict = {}

    def pt(p):
        return f"({p[0] * k:.3f},{p[1] * k:.3f})"

    body = []
    names = {}
    fs = {True: r"\small", False: r"\normalsize"}[sc.fonts[0] <= 11]
    for i, n in enumerate(sc.nodes):
        names[n["id"]] = f"n{i}"
        fill = _color_name(n["fill"], colors)
        body.append(f"  \\node[draw=black!65, rounded corners=2pt, fill={fill}, align=center, font={fs}, "
                    f"inner sep=3pt] (n{i}) at {pt((n['x'], n['y']))} {{{tex_text(n['text'])}}};")
    for e in sc.edges:
        c = _color_name(e["color"], colors)
        opts = [c, "dashed" if e["dashed"] else None, "{Stealth}-{Stealth}" if e["both"] else "-{Stealth}", "thick"]
        opts = ", ".join(o for o in opts if o)
        (x1, y1), (x2, y2), (cx, cy) = e["p1"], e["p2"], e["c"]
        c1 = (x1 + 2 / 3 * (cx - x1), y1 + 2 / 3 * (cy - y1))
        c2 = (x2 + 2 / 3 * (cx - x2), y2 + 2 / 3 * (cy - y2))
        body.append(f"  \\draw[{opts}] {pt(e['p1'])} .. controls {pt(c1)} and {pt(c2)} .. {pt(e['p2'])};")
    for m in sc.marks:
        c = _color_name(m["color"], colors)
        for p, q in m["arms"]:
            body.append(f"  \\draw[{c}, line width=1.6pt] {pt(p)} -- {pt(q)};")
    efs = r"\footnotesize" if sc.fonts[1] >= 9.5 else r"\scriptsize"
    for lab in sc.labels:
        c = _color_name(lab["color"], colors)
        if lab["leader"]:
            body.append(f"  \\draw[{c}, densely dotted, thin] {pt((lab['x'], lab['y']))} -- {pt(lab['leader'])};")
        body.append(f"  \\node[font={efs}, text={c}, fill=white, fill opacity=0.9, text opacity=1, inner sep=1pt, "
                    f"align=center] at {pt((lab['x'], lab['y']))} {{{tex_text(lab['text'])}}};")
    x0, _, y0, _ = sc.limits
    for i, entry in enumerate(sc.legend):
        c = _color_name(entry["color"], colors)
        y = y0 - 0.4 - 0.4 * i
        style = f"{c}, thick" + (", dashed" if entry["dashed"] else "")
        body.append(f"  \\draw[{style}] {pt((x0 + 0.2, y))} -- {pt((x0 + 1.2, y))};")
        if entry["cross"]:
            body.append(f"  \\node[{c}, font=\\bfseries] at {pt((x0 + 0.7, y))} {{$\\times$}};")
        body.append(f"  \\node[anchor=west, font=\\small] at {pt((x0 + 1.3, y))} {{{tex_text(entry['text'])}}};")
    head = ["% implgraph map: needs \\usepackage{tikz} and \\usetikzlibrary{arrows.meta};",
            "% to fit a column: \\resizebox{\\linewidth}{!}{\\input{this file}}",
            "\\begin{tikzpicture}"]
    head += [f"  \\definecolor{{{name}}}{{HTML}}{{{hexa}}}" for hexa, name in colors.items()]
    if sc.title:
        x0, x1, _, y1 = sc.limits
        head.append(f"  \\node[font=\\large] at {pt(((x0 + x1) / 2, y1))} {{{tex_text(sc.title)}}};")
    return "\n".join(head + body + ["\\end{tikzpicture}", ""])
