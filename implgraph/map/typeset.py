"""Type for the drawn maps: the fonts, the sizes and the measure of a label as matplotlib sets it.

A label (:mod:`implgraph.map.labels`) is measured here with the font and size it is drawn with, so the
box Graphviz reserves for it (:mod:`implgraph.map.layout`) is the box matplotlib fills
(:mod:`implgraph.map.plot`).  The sizes are those of a journal's figures at the printed size, every
character at least 7 pt, sub- and superscripts included: mathtext and LaTeX set scripts at 0.7 of the text,
so the text is :data:`TEXT_PT` = 10 pt and its scripts 7 pt.  A node's text wider than
:data:`NODE_LINE_PT` is broken into lines (:func:`wrap`), so that the papers' maps fit a column at that size.
"""

from __future__ import annotations

import functools

__all__ = ["RC", "TEXT_PT", "wrap", "NODE_LINE_PT", "SCRIPT_RATIO", "MIN_TEXT_PT", "MIN_SCRIPT_PT", "PAD_PT", "ROOM", "measure", "check_label",
           "widths_cm", "CM", "text_box"]

#: matplotlib settings of every drawn map: text kept as text in SVG (searchable), TrueType in PDF, math in
#: DejaVu Sans like the text, reproducible bytes (a fixed hash salt, no date)
RC = {"svg.fonttype": "none", "svg.hashsalt": "implgraph", "pdf.fonttype": 42, "font.family": "DejaVu Sans",
      "mathtext.fontset": "dejavusans", "path.simplify": False, "text.usetex": False}
#: the size of all text (points): nodes, edge labels and legend
TEXT_PT = 10.0
#: scripts (sub- and superscripts, a fraction's parts) against their text, in mathtext and LaTeX
SCRIPT_RATIO = 0.7
#: the smallest sizes of text and of its scripts at the printed size: 7 pt for every character (Elsevier's
#: artwork rule asks 7 pt of normal text and 6 pt of scripts; the maps give their scripts 7 pt as well)
MIN_TEXT_PT, MIN_SCRIPT_PT = 7.0, 7.0
#: the space between a label's text and the edge of the box reserved for it (points): room for another
#: font's glyphs (an SVG viewer without DejaVu Sans, LaTeX's Computer Modern) and for a cross mark
PAD_PT = 2.5
#: the room a label is given beyond its measured width: LaTeX sets the same label (TikZ) up to 11 % wider
#: than mathtext with DejaVu Sans (its operators spaced wider, ``\\left( \\right)`` larger; measured on the
#: papers' maps), so every box Graphviz reserves and every text box the audit checks is this much wider
ROOM = 1.12
#: the height a line is given beyond its measured one (a fraction of the size): a browser's box of a text
#: line is the font's ascent plus descent (1.164 em for DejaVu Sans), matplotlib's extent 1 em, so the
#: boxes of the layout are as tall as the boxes a browser draws (tests/test_site_browser.py measures them)
LINE_ROOM = 0.17
#: the widest line of a node's text (points): a wider line is broken (:func:`wrap`), so that the drawing fits a
#: column with its text at :data:`TEXT_PT`
NODE_LINE_PT = 60.0
#: points per centimetre
CM = 72 / 2.54
#: the journal's column widths (cm): a single column and the whole page
widths_cm = {"single": 8.5, "double": 17.8}


#: text is measured at ten times 72 dpi (matplotlib rounds extents to whole pixels)
_FINE = 10


@functools.lru_cache(maxsize=4096)
def measure(label: str, size: float = TEXT_PT) -> tuple:
    """``(width, height)`` in points of ``label`` set at ``size`` points (lines centred, as drawn).

    Examples
    --------
    >>> w, h = measure("$x^2$ and text")
    >>> 40 < w < 80 and 8 < h < 16
    True
    """
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4, 4), dpi=72 * _FINE)
        FigureCanvasAgg(fig)
        art = fig.text(0.5, 0.5, label, fontsize=size, ha="center", va="center", multialignment="center")
        box = art.get_window_extent(fig.canvas.get_renderer())
    return float(box.width) / _FINE, float(box.height) / _FINE


def text_box(label: str, size: float = TEXT_PT) -> tuple:
    """``(width, height)`` a label is given (points): :func:`measure`'s width times :data:`ROOM`, its height
    plus :data:`LINE_ROOM` of the size."""
    w, h = measure(label, size)
    return (w * ROOM, h + LINE_ROOM * size)


def _breaks(line: str) -> list:
    """The indices of the spaces of ``line`` outside its math (where a line may break)."""
    out, in_math, i = [], False, 0
    while i < len(line):
        if line[i] == "\\" and line[i + 1:i + 2] == "$":
            i += 2
            continue
        if line[i] == "$":
            in_math = not in_math
        elif line[i] == " " and not in_math:
            out.append(i)
        i += 1
    return out


def wrap(label: str, width: float, size: float = TEXT_PT) -> str:
    """``label`` with every line wider than ``width`` points (set at ``size``) broken at a space outside its
    math, where the two parts are most even; again while a part is wider and has a space.

    Examples
    --------
    >>> wrap("mult. $t$-closeness (singleton classes)", 100)
    'mult. $t$-closeness\\n(singleton classes)'
    >>> wrap("$(k, t)$-closeness", 10)
    '$(k, t)$-closeness'
    """
    out = []
    for line in label.split("\n"):
        spaces = _breaks(line)
        if not spaces or measure(line, size)[0] <= width:
            out.append(line)
            continue
        at = min(spaces, key=lambda i: (max(measure(line[:i], size)[0], measure(line[i + 1:], size)[0]), i))
        out.append(wrap(line[:at], width, size) + "\n" + wrap(line[at + 1:], width, size))
    return "\n".join(out)


def check_label(label: str) -> str | None:
    """None when mathtext can set ``label``, else what it cannot read (every label is drawn by mathtext)."""
    from implgraph.map.labels import split
    parser = _parser()
    for line in label.split("\n"):
        if not any(is_math for is_math, _ in split(line)):
            continue
        try:
            parser.parse(line, dpi=72)
        except ValueError as exc:
            lines = [x.strip() for x in str(exc).splitlines() if x.strip()]
            return lines[-1] if lines else "mathtext cannot set it"
    return None


@functools.lru_cache(maxsize=1)
def _parser():
    from matplotlib.mathtext import MathTextParser
    return MathTextParser("path")
