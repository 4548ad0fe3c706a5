"""The pair matrix page: the grid of every ordered pair coloured by verdict, the list of pairs below it, and the
data its script (``assets/matrix.js``) sorts, filters and shows on a click.

The page works offline: the grid and the list are written in full by the template, and the script only
reorders, hides and fills in what is there (sort the rows and columns, filter by verdict and by definition,
sort the list by a column, show a cell's f and witness with its math set by the bundled KaTeX).
"""

from __future__ import annotations

import json

from implgraph.site.html import cell_class, definition_file, edge_file

__all__ = ["matrix_page", "cell_summary", "LEGEND", "SORTS"]

LEGEND = (("proved", "implication, proved for every N"), ("bounded", "implication, checked for N up to the bound"),
          ("trivial", "trivial implication (f is the weakest level)"),
          ("vacuous", "vacuous: f is b's own ceiling, met by every table (not counted as an implication)"),
          ("refuted", "non-implication (witness)"),
          ("refuted conditional", "non-implication, an implication under an assumption (the pair's page names it)"),
          ("open", "open"))
#: the orders of the grid's rows and columns the page offers: (value, words)
SORTS = (("matrix", "the matrix's order"), ("name", "name"), ("implies", "implies the most first"),
         ("implied", "implied by the most first"))
#: the relation's sign in a cell
MARKS = {"implication": "\u21d2", "non-implication": "\u21cf"}


def _part(prefix: str, value) -> dict:
    """One piece of a cell's f as the script shows it: ``prefix`` in words, then ``value`` as math when it is
    a formula (``tex``: its LaTeX for KaTeX) or as text."""
    from implgraph.site.texmath import formula_and_note, tex
    value = "" if value is None else str(value)
    formula, note = formula_and_note(value) if value else ("", "")     # the note in words after the math
    return {"pre": prefix, "text": formula, "tex": tex(formula) if formula else None, "post": note}


def f_parts(c) -> list:
    """``[{"pre", "text", "tex"}]``: the cell's f and what qualifies it (where it is tight, for which levels,
    in N, the f proved for every N); empty for a cell that is no implication."""
    if c["relation"] != "implication":
        return []
    f = c.get("tight") or c.get("proved_f")         # proved_f: an f proved, tight only where it says
    out = [_part("", f) if f else {"pre": "no closed form", "text": "", "tex": None}]
    for key, words in (("tight_upto", "for level \u2264 "), ("tight_at", "at "), ("tight_in_N", "in N: ")):
        if c.get(key):
            out.append(_part(words, c[key]))
    if c.get("tight") and c.get("proved_f"):
        out.append(_part("proved for every N: ", c["proved_f"]))
    return out


def _f_text(c) -> str:
    return "; ".join(p["pre"] + p["text"] for p in f_parts(c))


def _witness(w):
    """The witness of a cell for the script: its records, classes and both levels, each value with its LaTeX."""
    from implgraph.site.texmath import tex
    if not w:
        return None
    rows = w.get("rows") or []
    return {"rows": rows, "classes": w.get("classes") or [], "tex": [[tex(str(x)) for x in r] for r in rows],
            "level_a": _part("", w.get("level_a")), "level_b": _part("", w.get("level_b"))}


def _relation_text(c) -> str:
    """The cell's relation in words, vacuous and conditional cells said so."""
    if c["relation"] == "implication" and c.get("vacuous"):
        return "vacuous implication (f is b's own ceiling: every table meets it; not counted)"
    cond = c.get("conditional")
    if c["relation"] == "non-implication" and cond:
        what = cond.get("assumption", "an assumption") if isinstance(cond, dict) else str(cond)
        return f"non-implication; an implication under the assumption: {what}"
    return c["relation"]


def cell_summary(c) -> dict:
    """The data of one cell the matrix page's script shows on a click: ``f`` in words and ``f_parts`` with
    their LaTeX, the witness with its values' LaTeX."""
    return {"a": c["a"], "b": c["b"], "relation": _relation_text(c), "verdict": c["verdict"], "f": _f_text(c),
            "f_parts": f_parts(c), "bound": c.get("bound") or "", "witness": c.get("witness"),
            "witness_tex": _witness(c.get("witness")), "reason": c.get("reason") or "",
            "href": edge_file(c["a"], c["b"])}


def _grid(nodes, cells, kernel=frozenset()) -> list:
    from implgraph.site.model import node_definition
    rows = []
    for a in nodes:
        row = []
        for b in nodes:
            c = cells.get((a, b))
            if c is None:
                row.append({"cls": "self" if a == b else cell_class(c), "href": "", "b": b})
                continue
            row.append({"cls": cell_class(c) + (" kernel" if (a, b) in kernel else ""), "href": edge_file(a, b),
                        "a": a, "b": b, "verdict": c["verdict"] + (", kernel-checked by Coq" if (a, b) in kernel else ""),
                        "mark": MARKS.get(c["relation"], "?")})
        rows.append({"name": a, "href": definition_file(node_definition(a)), "cells": row})
    return rows


def _strength(nodes, cells) -> dict:
    """``{node: [implications out, implications in]}`` (established, trivial and vacuous ones left out): the
    keys of the grid's orders "implies the most" and "implied by the most"."""
    out = {n: [0, 0] for n in nodes}
    for (a, b), c in cells.items():
        if c["relation"] == "implication" and not c.get("trivial") and not c.get("vacuous") and a in out and b in out:
            out[a][0] += 1
            out[b][1] += 1
    return out


def _pairs(m, kernel=frozenset()) -> list:
    return [{"a": c["a"], "b": c["b"], "href": edge_file(c["a"], c["b"]), "cls": cell_class(c),
             "relation": _relation_text(c),
             "verdict": c["verdict"] + (" (kernel-checked by Coq)" if (c["a"], c["b"]) in kernel else ""),
             "f": f_parts(c), "f_text": _f_text(c)}
            for c in m["cells"]]


def kernel_checked(data) -> frozenset:
    """The pairs whose Coq file was kernel-checked in this build (:mod:`implgraph.site.kernel`)."""
    return frozenset(k for k, e in (data.get("coq") or {}).items() if e.get("status") == "kernel-checked")


def matrix_page(data) -> str:
    """The page ``matrix.html``."""
    from markupsafe import Markup
    from implgraph.site.render import render
    m = data["matrix"]
    nodes = m["nodes"]
    cells = {(c["a"], c["b"]): c for c in m["cells"]}
    payload = json.dumps({f"{c['a']}\t{c['b']}": cell_summary(c) for c in m["cells"]}).replace("</", "<\\/")
    order = json.dumps({"nodes": nodes, "strength": _strength(nodes, cells)}).replace("</", "<\\/")
    return render("matrix.html", "Pair matrix", script="assets/matrix.js", legend=LEGEND, sorts=SORTS, nodes=nodes,
                  rows=_grid(nodes, cells, kernel_checked(data)), pairs=_pairs(m, kernel_checked(data)),
                  payload=Markup(payload), order=Markup(order), kernel_count=len(kernel_checked(data)))
