"""The explorer's pages as HTML strings, from the plain data of :func:`implgraph.site.model.gather`."""

from __future__ import annotations

import json

from implgraph.map.graph import family_of
from implgraph.site import hasse as hasse_mod
from implgraph.site.html import (cell_class, definition_file, edge_file, esc, link, page, table,
                                 witness_table)
from implgraph.site.model import node_definition

LEGEND = (("proved", "implication, proved for every N"), ("bounded", "implication, checked for N up to the bound"),
          ("trivial", "trivial implication (f is the weakest level)"),
          ("vacuous", "vacuous: f is b's own ceiling, met by every table (not counted as an implication)"),
          ("refuted", "non-implication (witness)"),
          ("refuted conditional", "non-implication, an implication under an assumption (the pair's page names it)"),
          ("open", "open"))


def _legend() -> str:
    return '<p class="legend">' + " ".join(f'<span class="cell {c}">&nbsp;</span> {esc(t)}' for c, t in LEGEND) + "</p>"


def _f_text(c) -> str:
    if c["relation"] != "implication":
        return ""
    f = c.get("tight") or c.get("proved_f") or "no closed form"     # proved_f: an f proved, tight only where it says
    at = f" at {c['tight_at']}" if c.get("tight_at") else ""
    upto = f" for level <= {c['tight_upto']}" if c.get("tight_upto") else ""
    inn = f"; in N: {c['tight_in_N']}" if c.get("tight_in_N") else ""
    proved = f"; proved for every N: {c['proved_f']}" if c.get("tight") and c.get("proved_f") else ""
    return f"{f}{upto}{at}{inn}{proved}"


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
    """The data of one cell the matrix page's script shows on a click."""
    return {"a": c["a"], "b": c["b"], "relation": _relation_text(c), "verdict": c["verdict"], "f": _f_text(c),
            "bound": c.get("bound") or "", "witness": c.get("witness"), "reason": c.get("reason") or "",
            "href": edge_file(c["a"], c["b"])}


def index_page(data) -> str:
    m = data["matrix"]
    counts = m.get("counts") or {}
    items = "".join(f"<li>{esc(k.replace('_', ' '))}: {esc(v)}</li>" for k, v in counts.items())
    settings = "".join(f"<li>{esc(k)}: {esc(v)}</li>" for k, v in (m.get("settings") or {}).items())
    body = (f"<p>{len(m['nodes'])} definitions, {len(data['claims'])} claims of the papers. Every ordered pair of "
            "definitions is decided by implgraph's check-edge (implication with its tight f, non-implication "
            "with a witness table) or listed open with the reason. Verdicts are computed, never typed in.</p>"
            f"<ul>{items}</ul><h2>Settings of the matrix</h2><ul>{settings}</ul>"
            f"<p>{link('matrix.html', 'The pair matrix')}, {link('hasse.html', 'the Hasse diagram')}, "
            f"{link('open.html', 'the open pairs')}, {link('definitions.html', 'the definitions')}.</p>")
    return page("implgraph explorer", body)


def matrix_page(data) -> str:
    m = data["matrix"]
    nodes = m["nodes"]
    cells = {(c["a"], c["b"]): c for c in m["cells"]}
    head = '<tr><th>a \\ b</th>' + "".join(f'<th class="col"><span>{esc(n)}</span></th>' for n in nodes) + "</tr>"
    rows = []
    for a in nodes:
        tds = []
        for b in nodes:
            c = cells.get((a, b))
            cls = cell_class(c) if a != b or c else "self"
            if c is None:
                tds.append(f'<td class="cell {cls}"></td>')
                continue
            mark = {"implication": "&rArr;", "non-implication": "&#8655;"}.get(c["relation"], "?")
            tds.append(f'<td class="cell {cls}"><a class="pair" href="{esc(edge_file(a, b))}" data-a="{esc(a)}" '
                       f'data-b="{esc(b)}" title="{esc(a)} ? {esc(b)}: {esc(c["verdict"])}">{mark}</a></td>')
        rows.append(f'<tr><th class="row">{link(definition_file(node_definition(a)), a)}</th>{"".join(tds)}</tr>')
    payload = json.dumps({f"{c['a']}\t{c['b']}": cell_summary(c) for c in m["cells"]}).replace("</", "<\\/")
    body = (f"<p>Row a, column b: does a imply b? Click a cell for its f and witness; its page has the rest.</p>"
            f"{_legend()}<div class=\"matrix-wrap\"><table class=\"matrix\"><thead>{head}</thead><tbody>"
            f"{''.join(rows)}</tbody></table></div>"
            '<aside id="detail" hidden><h2 id="detail-title"></h2><p id="detail-f"></p><div id="detail-witness">'
            '</div><p><a id="detail-link" href="#">the pair\'s page</a></p></aside>'
            f'<script type="application/json" id="cells">{payload}</script>')
    return page("Pair matrix", body, script="assets/matrix.js")


def hasse_page(data) -> str:
    H = data["hasse"]
    merged = [d["members"] for _, d in H.nodes(data=True) if len(d["members"]) > 1]
    svg = hasse_mod.svg(H, lambda n: definition_file(node_definition(n)), edge_file)
    eq = "".join(f"<li>{esc(' = '.join(g))}</li>" for g in merged) or "<li>none</li>"
    body = ("<p>Transitive reduction of the established, non-trivial implications of the pair matrix (an arrow "
            "from the stronger definition to the weaker); definitions implying each other are merged into one "
            "node. Click a node for its definition, an arrow for its pair (hover: its tight f). Equivalences and "
            "implications hold at the matrix's settings; the pair page tells whether they are proved for every "
            f"N.</p><div class=\"hasse-wrap\">{svg}</div><h2>Merged (equivalent) definitions</h2><ul>{eq}</ul>")
    return page("Hasse diagram", body)


def groups_page(data) -> str:
    if not data.get("groups_svg"):
        return page("k-expanded map", "<p>Not drawn in this build (implgraph site --groups-n N draws it).</p>")
    body = (f"<p>The implication map of the papers' theorems at N = {esc(data['groups_n'])} records, one node per "
            "definition and group size k, as in ekenstedt2022's Fig. 1: the claims' established implications and "
            "non-implications (their verdicts from the verdict file), drawn by <code>implgraph map --N "
            f"{esc(data['groups_n'])}</code>. Unlike the pair matrix, its arrows are the papers' statements."
            f"</p><div class=\"hasse-wrap\">{data['groups_svg']}</div>")
    return page("k-expanded map", body)


def open_page(data) -> str:
    rows = [[link(edge_file(c["a"], c["b"]), f"{c['a']} ? {c['b']}"), esc(c["verdict"]), esc(c.get("reason"))]
            for c in data["matrix"]["cells"] if c["relation"] not in ("implication", "non-implication")]
    body = f"<p>{len(rows)} ordered pairs are open.</p>" + table(["pair", "verdict", "reason"], rows)
    return page("Open pairs", body)


def definitions_page(data) -> str:
    rows = [[link(definition_file(d["name"]), d["name"]), esc(d["title"]), esc(d.get("reference"))]
            for d in data["definitions"]]
    return page("Definitions", table(["name", "title", "reference"], rows))


def _claims_table(claims) -> str:
    if not claims:
        return "<p>None.</p>"
    rows = [[esc(c["id"]), esc(c.get("kind")), esc(c.get("printed")), f'<span class="v">{esc(c.get("verdict"))}</span>',
             esc(c.get("evidence"))] for c in claims]
    return table(["claim", "kind", "statement", "verdict", "evidence"], rows, "claims")


def definition_page(data, d) -> str:
    root = "../"
    name = d["name"]
    params = "".join(f"<li><code>{esc(k)}</code>: {esc(v)}</li>" for k, v in (d.get("parameters") or {}).items())
    facts = table(["", ""], [[esc(k), esc(d.get(k))] for k in
                             ("title", "reference", "level_symbol", "scale_meaning", "stronger", "family", "model",
                              "needs_classes", "module")], "facts")
    nodes = [n for n in data["matrix"]["nodes"] if node_definition(n) == name]
    pairs = []
    for c in data["matrix"]["cells"]:
        if c["a"] in nodes or c["b"] in nodes:
            pairs.append([link(edge_file(c["a"], c["b"]), f"{c['a']} ? {c['b']}", root),
                          f'<span class="cell {cell_class(c)}">{esc(c["relation"])}</span>', esc(_f_text(c))])
    levels = []
    for t in data["tables"]:
        lv = t["levels"].get(name)
        if lv:
            ps = ", ".join(f"{k}={v}" for k, v in lv["params"].items())
            levels.append([esc(t["id"]), esc(t["caption"]), esc(ps),
                           f"<code>{esc(lv['level'])}</code>" if lv["level"] is not None else esc(lv.get("note"))])
    claims = [c for c in data["claims"] if name in (family_of(c.get("from") or ""), family_of(c.get("to") or ""),
                                                    family_of(c.get("definition") or ""))]
    body = (f"<p>{esc(d.get('description'))}</p>{facts}<h2>Parameters</h2><ul>{params or '<li>none</li>'}</ul>"
            f"<h2>Levels on the bundled tables</h2>"
            + (table(["table", "caption", "parameters", f"optimal {d.get('level_symbol')}"], levels, "levels")
               if levels else "<p>No table levels in this build.</p>")
            + f"<h2>Pairs in the matrix</h2>" + (table(["pair", "relation", "f"], pairs) if pairs else
                                                 "<p>Not in the matrix.</p>")
            + "<h2>The papers' claims about it</h2>" + _claims_table(claims))
    return page(name, body, root)


def edge_page(data, c) -> str:
    root = "../"
    a, b = c["a"], c["b"]
    fa, fb = node_definition(a), node_definition(b)
    parts = [f"<p>{link(definition_file(fa), a, root)} &rArr; {link(definition_file(fb), b, root)}?</p>",
             table(["", ""], [["relation", f'<span class="cell {cell_class(c)}">{esc(_relation_text(c))}</span>'],
                              ["verdict", esc(c["verdict"])], ["kind", esc(c.get("kind"))],
                              ["tight f", f'<code id="f">{esc(_f_text(c))}</code>'],
                              ["proved for every N", esc(c.get("proved_every_n"))], ["bound", esc(c.get("bound"))],
                              ["reason", esc(c.get("reason"))]], "facts")]
    path = hasse_mod.why_path(data["hasse"], a, b)
    cells = {(x["a"], x["b"]): x for x in data["matrix"]["cells"]}
    if path:
        steps = "".join(f"<li>{link(edge_file(x, y), f'{x} => {y}', root)}: f = <code>"
                        f"{esc(_f_text(cells[x, y]))}</code></li>" for x, y in path)
        parts.append(f"<h2>Why: a chain of covering implications</h2><ol>{steps}</ol>")
    elif path == []:
        parts.append("<h2>Why</h2><p>a and b are equivalent at the matrix's settings (merged in the Hasse "
                     "diagram).</p>")
    certs = data["certificates"].get((a, b))
    if certs:
        parts.append("<h2>Certificate (proved for every N)</h2>" + "".join(
            f"<p>{esc(x.get('argument'))}</p><pre>{esc(json.dumps(x, indent=1))}</pre>" for x in certs))
    if c["relation"] == "non-implication" or c.get("witness"):
        parts.append(f'<h2>Witness</h2><div id="witness">{witness_table(c.get("witness"))}</div>')
    cond = c.get("conditional")
    if isinstance(cond, dict):
        parts.append(f'<h2 id="conditional">Under the assumption: {esc(cond.get("assumption"))}</h2>'
                     f"<p>{esc(cond.get('relation'))} ({esc(cond.get('verdict'))}), f = <code>{esc(_f_text(cond))}"
                     "</code>. The witness above lies outside the assumption; the verdict of the pair is the one "
                     "over every partition.</p>")
    claims = [x for x in data["claims"] if family_of(x.get("from") or "") == fa and family_of(x.get("to") or "") == fb]
    parts.append("<h2>The papers' claims about this pair</h2>" + _claims_table(claims))
    return page(f"{a} ? {b}", "".join(parts), root)
