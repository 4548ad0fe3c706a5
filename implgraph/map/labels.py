"""The text of the drawn maps: claims' human names, and every label as text with typeset math.

Claims' names: ``Lemma 2.3``, ``Theorem 2a``, ``Proposition 1 (Domingo-Ferrer 2015)``.

A claim is named from its data, never from its id: the result it cites at the start of its ``source``
(``"Lemma 2, point 3, Section IV-A"`` is Lemma 2.3, ``"Theorem 2, first bullet"`` is Theorem 2a), else
the result its ``printed`` statement opens with (``"Lemma 1 ([5]): ..."``), else the place it comes
from (``"Section IV, paragraph after Theorem 1"`` is the remark after Theorem 1).  A claim of a paper
drawn in the other paper's style (:data:`implgraph.map.rules.PAPER_DASHED`) carries its authors and
year; a rule that holds by a definition's own declaration is named "by definition"; a proof's reading
of a printed statement adds "(proof)".

Labels: a label is one string in the form both renderers read, text with math between ``$`` signs
(``"$(3, t)$-closeness"``, ``"$\\epsilon = \\ln{\\left(t \\right)}$"``); matplotlib's mathtext typesets it
in SVG, PDF and PNG, and :func:`to_latex` gives LaTeX for TikZ (the math as it is, the text escaped).
A level function or a condition becomes math through :func:`math` (:func:`sympy.latex` of the sympy
expression, never through its text); a definition's human label (``(3,ε)-DP``) through
:func:`node_label`, which sets its tuple of parameters and its single-letter level as math.
"""

from __future__ import annotations

import re
import unicodedata

import sympy

from implgraph.map.rules import DEFINITION_BASES, PAPER_DASHED

__all__ = ["claim_label", "rule_label", "paper_name", "math", "node_label", "text", "to_latex", "split",
           "symbol_tex", "LEVEL_TEX"]

#: how a level symbol is typeset where sympy's default differs (``eps`` is the papers' epsilon)
LEVEL_TEX = {"eps": r"\epsilon"}

_RESULT = re.compile(r"(Lemma|Theorem|Proposition|Corollary|Definition|Remark|Example|Eq\.|Table|Fig\.|Figure)"
                     r"\s+\(?([0-9][0-9A-Za-z.]*?)\)?(?=[\s,;:(]|$)(\s*\(\[\d+\]\))?")
_POINT = re.compile(r",\s*point\s+(\d+)")
_BULLET = re.compile(r",\s*(first|second|third|fourth|fifth) bullet")
_AFTER = re.compile(r"paragraph after ((?:Lemma|Theorem|Proposition|Corollary|Definition) [0-9][0-9A-Za-z.]*)")
_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def paper_name(paper: str) -> str:
    """``Domingo-Ferrer 2015`` from a paper id ``domingo-ferrer2015`` (authors capitalised, year apart).

    Examples
    --------
    >>> paper_name("smith-jones2019")
    'Smith-Jones 2019'
    >>> paper_name("notes")
    'Notes'
    """
    m = re.fullmatch(r"(.*?)(\d{4})([a-z]?)", paper)
    if not m:
        return paper.title()
    return f"{m.group(1).strip('-_').title()} {m.group(2)}{m.group(3)}"


def _cited(text: str) -> str | None:
    """The result ``text`` opens with (``Lemma 2.3``), or None."""
    m = _RESULT.match(text.strip())
    if not m:
        return None
    name = f"{m.group(1)} {m.group(2)}"
    rest = text.strip()[m.end():]
    point, bullet = _POINT.match(rest), _BULLET.match(rest)
    if point:
        name += f".{point.group(1)}"
    elif bullet:
        name += "abcde"[_ORDINALS.index(bullet.group(1))]
    return name + (m.group(3) or "")


def claim_label(source: str = "", printed: str = "", paper: str = "", basis: str = "printed") -> str:
    """The human name of a claim (see the module docstring).

    Examples
    --------
    >>> claim_label("Lemma 2, point 3, Section IV-A; proof in Appendix B")
    'Lemma 2.3'
    >>> claim_label("Theorem 2, second bullet, Section IV-A", basis="reading")
    'Theorem 2b (proof)'
    >>> claim_label("a figure", "Lemma 1 ([5]): A => B")
    'Lemma 1 ([5])'
    >>> claim_label("Section IV, paragraph after Theorem 1")
    'remark after Theorem 1'
    >>> claim_label("Section 6.1, Optimal bucketization")
    'Section 6.1'
    """
    if basis in DEFINITION_BASES:
        return "by definition"
    name = _cited(source or "") or _cited(printed or "")
    if name is None:
        after = _AFTER.search(source or "")
        first = re.split(r"[,;(]", source or printed or "claim")[0].strip()
        name = f"remark after {after.group(1)}" if after else first
    if paper in PAPER_DASHED and "[" not in name:
        name += f" ({paper_name(paper)})"
    if basis.startswith("reading"):
        name += " (proof)"
    return name


def rule_label(rule) -> str:
    """:func:`claim_label` of a :class:`implgraph.map.rules.Rule`."""
    return claim_label(rule.source, rule.printed, rule.paper, rule.basis)


# ------------------------------------------------------------------------------------------------
# labels with math
# ------------------------------------------------------------------------------------------------

#: characters that LaTeX reads as commands in text
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{",
                  "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "$": r"\$"}


def text(words: str) -> str:
    """Plain ``words`` as a label (a ``$`` escaped so that no math starts).

    Examples
    --------
    >>> text("costs $5")
    'costs \\\\$5'
    """
    return str(words).replace("$", r"\$")


def symbol_tex(sym) -> str:
    """How a symbol is typeset: a level (:data:`LEVEL_TEX`), a parameter with a suffix as a subscript
    (``kClo`` as ``k_{\\mathrm{Clo}}``, ``k0`` as ``k_{0}``), else as :func:`sympy.latex` prints it.

    Examples
    --------
    >>> symbol_tex(sympy.Symbol("eps")), symbol_tex(sympy.Symbol("kDP")), symbol_tex(sympy.Symbol("k1"))
    ('\\\\epsilon', 'k_{\\\\mathrm{DP}}', 'k_{1}')
    """
    name = str(sym)
    if name in LEVEL_TEX:
        return LEVEL_TEX[name]
    m = re.fullmatch(r"([a-z])([A-Z][A-Za-z]*)", name)
    if m:
        return f"{m.group(1)}_{{\\mathrm{{{m.group(2)}}}}}"
    return sympy.latex(sympy.Symbol(name))


def _renamed(sym, taken):
    """The symbol a variable renamed by the engine stands for (``eps_`` is ``eps``: the engine adds
    underscores to keep a bound variable apart), unless the expression has that symbol too.

    Examples
    --------
    >>> _renamed(sympy.Symbol("eps_"), {"eps_"}), _renamed(sympy.Symbol("eps_"), {"eps_", "eps"})
    (eps, eps_)
    """
    base = sym.name.rstrip("_")
    if base and base != sym.name and base not in taken:
        return sympy.Symbol(base)
    return sym


def math(expr) -> str:
    """A sympy expression or relation as a label: ``$`` + :func:`sympy.latex` + ``$``.

    ``ln`` for the natural logarithm, short fractions written with a slash (scripts stay readable),
    symbols by :func:`symbol_tex`.

    Examples
    --------
    >>> e, N = sympy.Symbol("eps"), sympy.Symbol("N")
    >>> math(((N - 1) * sympy.exp(e) + 1) / N)
    '$\\\\left(\\\\left(N - 1\\\\right) e^{\\\\epsilon} + 1\\\\right) / N$'
    >>> math(sympy.Eq(sympy.Symbol("kDP"), N - sympy.Symbol("kClo")))
    '$k_{\\\\mathrm{DP}} = N - k_{\\\\mathrm{Clo}}$'
    >>> math(sympy.exp(sympy.Symbol("eps_")))        # a variable the engine renamed
    '$e^{\\\\epsilon}$'
    """
    expr = sympy.sympify(expr)
    taken = {s.name for s in expr.free_symbols}
    names = {s: symbol_tex(_renamed(s, taken)) for s in expr.free_symbols}
    return "$" + sympy.latex(expr, ln_notation=True, fold_short_frac=True, symbol_names=names) + "$"


#: the small Greek letters' names (``delta``), as a parameter's name may stand in a label
_GREEK_NAMES = tuple(unicodedata.name(chr(c)).split()[-1].lower() for c in range(0x3B1, 0x3CA) if c != 0x3C2)
_TOKEN = rf"(?:[0-9]+|[A-Za-z]|[\u0370-\u03ff]|(?:{'|'.join(_GREEK_NAMES)})\b)"
#: the parts of a definition's label set as math: a tuple of parameters and levels, a single letter before a
#: hyphen, a Greek letter
_NODE_MATH = re.compile(rf"\(\s*{_TOKEN}\s*(?:,\s*{_TOKEN}\s*)+\)|(?<![\w.])[A-Za-z\u0370-\u03ff](?=-)|[\u0370-\u03ff]")


def _greek(ch: str) -> str:
    """``ε`` -> ``\\epsilon`` (a small Greek letter by its Unicode name), other characters unchanged."""
    name = unicodedata.name(ch, "").split()
    if len(name) >= 4 and name[:3] == ["GREEK", "SMALL", "LETTER"]:
        return "\\" + name[-1].lower() + " "
    return ch


def _as_math(inner: str) -> str:
    body = "".join(_greek(ch) for ch in inner).replace(",", ", ")
    body = re.sub(rf"(?<![\\\\])\b({'|'.join(_GREEK_NAMES)})\b", r"\\\1 ", body)
    return "$" + re.sub(r"\s+", " ", body).replace(" )", ")").strip() + "$"


def node_label(words: str) -> str:
    """A definition's human label (:meth:`Definition.label`) as a label with math: its tuple of
    parameters and levels (``(3,t)``, ``(k,ε)``), a single letter before a hyphen (``t-closeness``) and
    a Greek letter are math; the rest is text.

    Examples
    --------
    >>> node_label("(3,t)-closeness"), node_label("ε-LDP"), node_label("mult. t-closeness\\n(2-anonymous)")
    ('$(3, t)$-closeness', '$\\\\epsilon$-LDP', 'mult. $t$-closeness\\n(2-anonymous)')
    """
    lines = []
    for line in str(words).split("\n"):
        out, pos = [], 0
        for m in _NODE_MATH.finditer(line):
            out += [text(line[pos:m.start()]), _as_math(m.group(0))]
            pos = m.end()
        lines.append("".join(out) + text(line[pos:]))
    return "\n".join(lines)


def split(label: str) -> list:
    """``[(is_math, part)]`` of a label: math between unescaped ``$`` signs, the rest text (``\\$`` a dollar).

    Examples
    --------
    >>> split(r"a \\$ $x^2$ b")
    [(False, 'a $ '), (True, 'x^2'), (False, ' b')]
    """
    parts, buf, in_math, i = [], "", False, 0
    while i < len(label):
        ch = label[i]
        if ch == "\\" and label[i + 1:i + 2] == "$" and not in_math:
            buf += "$"
            i += 2
            continue
        if ch == "$":
            if buf:
                parts.append((in_math, buf))
            buf, in_math = "", not in_math
        else:
            buf += ch
        i += 1
    if buf:
        parts.append((in_math, buf))
    return parts


def to_latex(label: str) -> str:
    """The label in LaTeX: math as it is, text with LaTeX's special characters escaped, lines by ``\\\\``.

    Examples
    --------
    >>> to_latex("$(3, t)$-closeness"), to_latex("50% of a_b")
    ('$(3, t)$-closeness', '50\\\\% of a\\\\_b')
    """
    lines = []
    for line in label.split("\n"):
        out = []
        for is_math, part in split(line):
            out.append(f"${part}$" if is_math else "".join(_LATEX_SPECIAL.get(ch, ch) for ch in part))
        lines.append("".join(out))
    return r"\\".join(lines)
