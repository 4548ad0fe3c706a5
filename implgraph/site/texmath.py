"""Math of the explorer: the engine's formulas (``tight`` f, levels, conditions) as LaTeX for KaTeX.

A formula is read by the project's safe reader (:func:`implgraph.core.formula.parse_expr`, never
``sympify``), its names declared as symbols, and printed by :func:`implgraph.map.labels.math` (the same
typesetting as the figures: ``ln``, ε, subscripted parameters).  The page carries the LaTeX in a
``data-tex`` attribute and the plain text inside the element; the bundled KaTeX
(``assets/katex``) sets it in the browser.
"""

from __future__ import annotations

import functools
import re

from markupsafe import Markup, escape

__all__ = ["formula", "tex", "math_html"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
#: names a formula may use that are not symbols
_RESERVED = {"Eq", "Ne", "True", "False", "And", "Or", "Not"}


#: a name that stands for a number in the engine's formulas: a letter, with digits, underscores or a
#: capitalised suffix (``k``, ``k0``, ``eps_``, ``kDP``), or a Greek letter's name (``eps``, ``delta``)
_SYMBOL = re.compile(r"[A-Za-z](?:[0-9]+|_+|[A-Z][A-Za-z]*)?_*")


def _symbol_like(name: str) -> bool:
    from implgraph.map.labels import _GREEK_NAMES
    return bool(_SYMBOL.fullmatch(name)) or name.rstrip("_") in _GREEK_NAMES + ("eps",)


@functools.lru_cache(maxsize=4096)
def formula(text):
    """A formula written as the engine prints it, as a sympy expression (every name a plain symbol), None
    when it is not one (read by :func:`implgraph.core.formula.parse_expr`: nothing is executed).

    Examples
    --------
    >>> formula("log(t)"), formula("every N"), formula(""), formula("implgraph-certificate/1"), formula("integer")
    (log(t), None, None, None, None)
    >>> formula("(N - kClo)*exp(eps_)/delta")
    (N - kClo)*exp(eps_)/delta
    """
    import sympy
    from implgraph.core.errors import InputError
    from implgraph.core.formula import CONSTANTS, FUNCTIONS, parse_expr
    text = str(text or "").strip()
    if not text or len(text) > 2000:
        return None
    names = set(_NAME.findall(text)) - set(FUNCTIONS) - set(CONSTANTS) - _RESERVED
    if not all(_symbol_like(n) for n in names):
        return None         # words ("integer", "alpha-k-anonymity"), not a formula
    try:
        return parse_expr(text, {n: sympy.Symbol(n) for n in names})
    except (InputError, TypeError, ValueError):
        return None


@functools.lru_cache(maxsize=4096)
def tex(text) -> str | None:
    r"""The LaTeX of a formula (:func:`formula`), typeset as the figures are
    (:func:`implgraph.map.labels.math`); None when it is not one.

    Examples
    --------
    >>> tex("log(t)"), tex("((N - 1)*exp(eps) + 1)/N")
    ('\\ln{\\left(t \\right)}', '\\left(\\left(N - 1\\right) e^{\\epsilon} + 1\\right) / N')
    >>> tex("every N") is None
    True
    """
    from implgraph.map.labels import math
    expr = formula(text)
    return None if expr is None else math(expr)[1:-1]


def formula_and_note(text: str) -> tuple:
    """``(formula, note)``: a formula followed by a note in words, as the engine writes an f it proved as an upper
    bound (``"... (an upper bound; tightness not derived)"``), split; ``(text, "")`` for anything else."""
    noted = re.fullmatch(r"(.+?)( \([a-z][^()]*\))", text, re.S) if tex(text) is None else None
    if noted and tex(noted.group(1)) is not None:
        return noted.group(1), noted.group(2)
    return text, ""


def math_html(text) -> Markup:
    """``<span class="math" data-tex="...">text</span>`` for a formula (KaTeX sets it), the text
    escaped when it is not a formula; empty for None."""
    if text is None or text == "":
        return Markup("")
    latex = tex(str(text))
    if latex is None:
        formula, note = formula_and_note(str(text))     # the formula set by KaTeX, its note as text
        if note:
            return math_html(formula) + escape(note)
        if str(text) == "True":         # a piece's condition as sympy writes its last one
            return escape("otherwise")
        return escape(_plain(str(text)))
    return Markup('<span class="math" data-tex="{}">{}</span>').format(latex, str(text))


#: the formulas the engine writes inside its prose whose text a reader must not see raw (sympy prints a
#: piecewise's last condition as ``True``): each is set by KaTeX where it reads as a formula
_IN_PROSE = ("Piecewise(",)


def prose_html(text) -> Markup:
    """Prose the engine wrote (a verdict's evidence) with every piecewise formula in it set by KaTeX
    (:func:`math_html`), the rest escaped; empty for None.

    Examples
    --------
    >>> str(prose_html("tight f is Piecewise((eps, N > 2), (0, True)) here")).startswith('tight f is <span class="math"')
    True
    >>> str(prose_html("a < b"))
    'a &lt; b'
    """
    if text is None:
        return Markup("")
    s, out, at = str(text), [], 0
    while True:
        start = min((i for i in (s.find(h, at) for h in _IN_PROSE) if i >= 0), default=-1)
        if start < 0:
            break
        depth, end = 0, None
        for j in range(start, len(s)):
            depth += {"(": 1, ")": -1}.get(s[j], 0)
            if depth == 0 and s[j] == ")":
                end = j + 1
                break
        if end is None:
            break
        out += [escape(_plain(s[at:start])), math_html(s[start:end])]
        at = end
    out.append(escape(_plain(s[at:])))
    return Markup("").join(out)


#: a mapping of names to values as Python prints it inside the engine's prose (a point, a substitution)
_MAPPING = re.compile(r"\{((?:'[^'{}]*'\s*:\s*(?:'[^'{}]*'|[^,'{}]+)(?:,\s*)?)+)\}")
_ITEM = re.compile(r"'([^'{}]*)'\s*:\s*(?:'([^'{}]*)'|([^,'{}]+))")


def _plain(text: str) -> str:
    """The engine's prose as a reader reads it: a mapping ``{'N': '4', 'k': '2'}`` as ``N = 4, k = 2``, Python's
    ``True`` and ``False`` as yes and no, an empty mapping or list as none (:func:`implgraph.site.render.words` does the same for whole values).

    >>> _plain("at {'N': '4', 'k': 2} the optimum; checked: True; symbols: {}")
    'at N = 4, k = 2 the optimum; checked: yes; symbols: none'
    """
    text = _MAPPING.sub(lambda m: ", ".join(f"{k} = {v if v else w.strip()}" for k, v, w in _ITEM.findall(m.group(1))),
                        text)
    text = re.sub(r"\{\}|\[\]", "none", text)
    return re.sub(r"\bFalse\b", "no", re.sub(r"\bTrue\b", "yes", text))
