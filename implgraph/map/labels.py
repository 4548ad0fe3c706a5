"""Human names of claims for the drawn maps: ``Lemma 2.3``, ``Theorem 2a``, ``Proposition 1 (Domingo-Ferrer 2015)``.

A claim is named from its data, never from its id: the result it cites at the start of its ``source``
(``"Lemma 2, point 3, Section IV-A"`` is Lemma 2.3, ``"Theorem 2, first bullet"`` is Theorem 2a), else
the result its ``printed`` statement opens with (``"Lemma 1 ([5]): ..."``), else the place it comes
from (``"Section IV, paragraph after Theorem 1"`` is the remark after Theorem 1).  A claim of a paper
drawn in the other paper's style (:data:`implgraph.map.rules.PAPER_DASHED`) carries its authors and
year; a rule that holds by a definition's own declaration is named "by definition"; a proof's reading
of a printed statement adds "(proof)".
"""

from __future__ import annotations

import re

from implgraph.map.rules import DEFINITION_BASES, PAPER_DASHED

__all__ = ["claim_label", "rule_label", "paper_name"]

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
