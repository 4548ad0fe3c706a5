"""Small helpers of the explorer: the navigation bar, file names, a cell's class (the pages themselves are
Jinja2 templates, :mod:`implgraph.site.pages`)."""

from __future__ import annotations

import re

from implgraph.core.verdict import trivial_open

#: the navigation bar: (page, title)
NAV = (("index.html", "Overview"), ("matrix.html", "Pair matrix"), ("hasse.html", "Hasse diagram"),
       ("groups.html", "k-expanded map"), ("open.html", "Open pairs"), ("definitions.html", "Definitions"))


def slug(text: str) -> str:
    """A file-name-safe form of a node name: ``NAME(k=2)`` -> ``NAME-k-is-2`` (the builder refuses two
    names with one slug)."""
    out = re.sub(r"[^A-Za-z0-9]+", "-", text.replace("/", " over ").replace("=", " is ")).strip("-")
    return out or "x"


def definition_file(name: str) -> str:
    """The page of a definition, relative to the site root."""
    return f"definitions/{slug(name)}.html"


def edge_file(a: str, b: str) -> str:
    """The page of the ordered pair ``a ? b``, relative to the site root."""
    return f"edges/{slug(a)}--{slug(b)}.html"


def cell_class(cell) -> str:
    """The CSS class of a matrix cell: ``proved``, ``bounded``, ``trivial``, ``vacuous`` (f is B's own ceiling, which
    every table meets: not an implication), ``refuted``, ``conditional`` (a non-implication that is an implication
    under an assumption, such as partitions into at least 2 classes), ``open`` (also a trivial implication whose tight f
    is not known: whether A gives more than B's weakest level is undecided) or ``self`` (a node with itself)."""
    if cell is None:
        return "self"
    if cell["relation"] == "implication":
        if trivial_open(cell):
            return "open"       # B's weakest level holds of every table; whether A gives more is not known
        if cell.get("trivial"):
            return "trivial"
        if cell.get("vacuous"):
            return "vacuous"
        return "proved" if cell.get("proved_every_n") else "bounded"
    if cell["relation"] == "non-implication":
        return "refuted conditional" if cell.get("conditional") else "refuted"
    return "open"
