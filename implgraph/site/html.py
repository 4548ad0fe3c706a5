"""Small HTML helpers of the explorer: escaping, the page frame, tables, file names."""

from __future__ import annotations

import html
import re

#: the navigation bar: (page, title)
NAV = (("index.html", "Overview"), ("matrix.html", "Pair matrix"), ("hasse.html", "Hasse diagram"),
       ("groups.html", "k-expanded map"), ("open.html", "Open pairs"), ("definitions.html", "Definitions"))


def esc(value) -> str:
    """``value`` as HTML text (``None`` as an empty string)."""
    return "" if value is None else html.escape(str(value))


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
    under an assumption, such as partitions into at least 2 classes), ``open`` or ``self`` (a node with itself)."""
    if cell is None:
        return "self"
    if cell["relation"] == "implication":
        if cell.get("trivial"):
            return "trivial"
        if cell.get("vacuous"):
            return "vacuous"
        return "proved" if cell.get("proved_every_n") else "bounded"
    if cell["relation"] == "non-implication":
        return "refuted conditional" if cell.get("conditional") else "refuted"
    return "open"


def table(head, rows, cls: str = "") -> str:
    """An HTML table; ``head`` is escaped, the cells of ``rows`` are HTML already."""
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def link(href: str, text, root: str = "") -> str:
    """``<a>`` to a site-relative ``href`` from a page ``root`` levels deep (``root`` = ``"../"``...)."""
    return f'<a href="{esc(root + href)}">{esc(text)}</a>'


def page(title: str, body: str, root: str = "", script: str = "") -> str:
    """A whole page: the navigation bar, the search box, ``body`` and the site's script."""
    nav = " ".join(link(h, t, root) for h, t in NAV)
    extra = f'<script src="{root}{script}"></script>' if script else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} - implgraph explorer</title><link rel="stylesheet" href="{root}assets/site.css"></head>
<body data-root="{root}"><header><nav>{nav}</nav>
<input id="search" type="search" placeholder="search definitions, pairs, claims" aria-label="search">
<ul id="results" hidden></ul></header>
<main><h1>{esc(title)}</h1>
{body}
</main>
<script src="{root}assets/search-index.js"></script>{extra}<script src="{root}assets/site.js"></script>
</body></html>
"""


def witness_table(w) -> str:
    """A witness of a non-implication: its rows (one per record) with their classes, and both levels."""
    if not w:
        return "<p>No witness.</p>"
    rows = w.get("rows") or []
    classes = w.get("classes") or [""] * len(rows)
    buckets = w.get("buckets") or [f"a{i + 1}" for i in range(len(rows[0]) if rows else 0)]
    body = table(["record", "class"] + list(buckets),
                 [[str(i + 1), esc(c)] + [esc(x) for x in r] for i, (r, c) in enumerate(zip(rows, classes))],
                 "witness")
    facts = {k: v for k, v in w.items() if k not in ("rows", "classes", "buckets")}
    extra = "".join(f"<li>{esc(k)}: <code>{esc(v)}</code></li>" for k, v in facts.items())
    return body + (f"<ul>{extra}</ul>" if extra else "")
