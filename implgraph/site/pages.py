"""The explorer's pages, from the plain data of :func:`implgraph.site.model.gather` through the Jinja2
templates (:mod:`implgraph.site.render`: autoescaped, math set by the bundled KaTeX, values shown as words); the
pair matrix page is :mod:`implgraph.site.matrix_view`'s."""

from __future__ import annotations

from implgraph.core.verdict import trivial_open
from implgraph.map.graph import family_of
from implgraph.site import hasse as hasse_mod
from implgraph.site.html import cell_class, definition_file, edge_file
from implgraph.site.matrix_view import _relation_text
from implgraph.site.model import node_definition
from implgraph.site.neighbourhood import neighbourhoods
from implgraph.site.render import render, words


def _f_parts(c) -> list:
    """The cell's f and what qualifies it: ``[f, "for level <= ...", ...]`` (formulas set as math)."""
    if c["relation"] != "implication":
        return []
    f = c.get("tight") or c.get("proved_f") or "no closed form"     # proved_f: an f proved, tight only where it says
    out = [f]
    if c.get("tight_upto"):
        out.append(f"for level <= {c['tight_upto']}")
    if c.get("tight_at"):
        out.append(f"at {c['tight_at']}")
    if c.get("tight_in_N"):
        out.append(f"in N: {c['tight_in_N']}")
    if c.get("tight") and c.get("proved_f"):
        out.append(f"proved for every N: {c['proved_f']}")
    return out


def index_page(data) -> str:
    m = data["matrix"]
    counts = [(k.replace("_", " "), v) for k, v in (m.get("counts") or {}).items()]
    return render("index.html", "implgraph explorer", n_nodes=len(m["nodes"]), n_claims=len(data["claims"]),
                  counts=counts, settings=list((m.get("settings") or {}).items()))


def hasse_page(data) -> str:
    from markupsafe import Markup
    H = data["hasse"]
    merged = [d["members"] for _, d in H.nodes(data=True) if len(d["members"]) > 1]
    models = {d["name"]: d.get("model") for d in data["definitions"]}
    svg, notes = hasse_mod.svg(H, lambda n: definition_file(node_definition(n)), edge_file, models)
    notes = [(i, a, b, f, edge_file(a, b)) for i, a, b, f in notes]
    return render("hasse.html", "Hasse diagram", svg=Markup(svg), notes=notes, merged=merged)


def groups_page(data) -> str:
    from markupsafe import Markup
    return render("groups.html", "k-expanded map", svg=Markup(data.get("groups_svg") or ""), n=data.get("groups_n"))


def open_page(data) -> str:
    rows = [(edge_file(c["a"], c["b"]), f"{c['a']} ? {c['b']}", c["verdict"], c.get("reason"))
            for c in data["matrix"]["cells"] if c["relation"] not in ("implication", "non-implication")]
    return render("open.html", "Open pairs", rows=rows)


def definitions_page(data) -> str:
    rows = [{**d, "href": definition_file(d["name"])} for d in data["definitions"]]
    return render("definitions.html", "Definitions", definitions=rows)


def _pair_item(c, other: str) -> dict:
    implication = c["relation"] == "implication"
    f = (c.get("tight") or c.get("proved_f")) if implication else None
    notes = ["no closed form of f"] if implication and not f else []
    if implication and not c.get("proved_every_n"):
        notes.append("checked for N up to the bound")
    return {"href": edge_file(c["a"], c["b"]), "name": other, "f": f, "note": "; ".join(notes)}


def relations(data, name: str) -> dict:
    """The lists of a definition's page: the matrix's pairs with one of its nodes, as ``implies``,
    ``implied_by`` (established implications, trivial and vacuous ones left out), ``not_implies`` (either
    direction refuted) and ``open``."""
    nodes = {n for n in data["matrix"]["nodes"] if node_definition(n) == name}
    out = {"implies": [], "implied_by": [], "not_implies": [], "open": []}
    for c in data["matrix"]["cells"]:
        a_in, b_in = c["a"] in nodes, c["b"] in nodes
        if a_in == b_in:
            continue
        other = c["b"] if a_in else c["a"]
        if trivial_open(c):
            item = _pair_item(c, f"{c['a']} ? {c['b']}")
            item["note"] = words(c.get("not_proved"))       # B's weakest level holds; more is not known
            out["open"].append(item)
        elif c["relation"] == "implication":
            if c.get("trivial") or c.get("vacuous"):
                continue
            out["implies" if a_in else "implied_by"].append(_pair_item(c, other))
        elif c["relation"] == "non-implication":
            if a_in:
                out["not_implies"].append(_pair_item(c, other))
        else:
            item = _pair_item(c, f"{c['a']} ? {c['b']}")
            item["note"] = words(c.get("reason"))
            out["open"].append(item)
    return out


def definition_page(data, d) -> str:
    name = d["name"]
    facts = [(k.replace("_", " "), d.get(k)) for k in ("title", "reference", "level_symbol", "scale_meaning",
                                                     "stronger", "family", "model", "needs_classes", "module")]
    levels = []
    for t in data["tables"]:
        lv = t["levels"].get(name)
        if lv:
            levels.append({"id": t["id"], "caption": t["caption"], "params": words(lv["params"]),
                           "level": lv["level"], "note": lv.get("note")})
    claims = [c for c in data["claims"] if name in (family_of(c.get("from") or ""), family_of(c.get("to") or ""),
                                                    family_of(c.get("definition") or ""))]
    return render("definition.html", name, root="../", d=d, facts=facts, params=list((d.get("parameters") or {}).items()),
                  levels=levels, claims=claims, neighbourhoods=neighbourhoods(data, name), **relations(data, name))


def edge_page(data, c) -> str:
    a, b = c["a"], c["b"]
    path = hasse_mod.why_path(data["hasse"], a, b)
    cells = {(x["a"], x["b"]): x for x in data["matrix"]["cells"]}
    if path:
        path = [(edge_file(x, y), x, y, cells[x, y].get("tight") or cells[x, y].get("proved_f") or "no closed form")
                for x, y in path]
    fa, fb = node_definition(a), node_definition(b)
    cond = c.get("conditional") if isinstance(c.get("conditional"), dict) else None
    claims = [x for x in data["claims"] if family_of(x.get("from") or "") == fa and family_of(x.get("to") or "") == fb]
    return render("edge.html", f"{a} ? {b}", root="../", c=c, a=a, b=b, href_a=definition_file(fa),
                  href_b=definition_file(fb), cls=cell_class(c), relation=_relation_text(c), f_parts=_f_parts(c),
                  path=path, certs=data["certificates"].get((a, b)), show_witness=c["relation"] == "non-implication"
                  or bool(c.get("witness")), w=witness_data(c.get("witness")), cond=cond,
                  cond_parts=_f_parts(cond) if cond else [], claims=claims, coq=_coq(data, a, b))


def _coq(data, a, b):
    """The pair's Coq file for the template: its name beside the page, its status and axioms; None without one."""
    from implgraph.site.kernel import coq_file
    entry = data.get("coq", {}).get((a, b))
    if not entry or entry["text"] is None:
        return None
    check = entry.get("check") or {}
    return {"href": coq_file(edge_file(a, b)).split("/", 1)[1], "status": entry["status"],
            "axioms": ", ".join(check.get("axioms") or []) or "none", "theorems": len(entry["theorems"]),
            "generated": sum(1 for t in entry["theorems"] if t["generated"])}


def witness_data(w):
    """A witness of a non-implication for the template: its records (class, values), bucket names and the
    other facts (both levels, ...); None when there is none."""
    if not w:
        return None
    rows = w.get("rows") or []
    classes = w.get("classes") or [""] * len(rows)
    buckets = w.get("buckets") or [f"a{i + 1}" for i in range(len(rows[0]) if rows else 0)]
    facts = [(k.replace("_", " "), v) for k, v in w.items() if k not in ("rows", "classes", "buckets")]
    return {"buckets": buckets, "records": [{"cls": cl, "cells": r} for r, cl in zip(rows, classes)],
            "facts": facts}
