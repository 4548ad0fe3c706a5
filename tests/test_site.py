"""The static explorer (``implgraph site``): files, links, the Hasse diagram and the pages' facts.

The small matrix below is written by hand (its cells are not engine output); the Hasse diagram, the
why-trace and the open pairs expected of it are derived by hand in the comments.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from implgraph.core.errors import InputError
from implgraph.site.build import build_site
from implgraph.site.hasse import hasse, why_path
from implgraph.site.html import definition_file, edge_file, slug

# three registered definitions without parameters; a => b proved, c => b bounded with f, b =/=> a with a
# witness, a ? c open, the other two pairs refuted
A, B, C = "ldp", "dp", "k-anonymity"
WITNESS = {"rows": [["1", "0"], ["1/2", "1/2"]], "classes": ["E1", "E2"], "level_a": "oo", "level_b": "log(2)",
           "point": {"N": 2}}


def cell(a, b, relation, verdict, tight=None, witness=None, proved=False, reason="", trivial=False):
    return {"a": a, "b": b, "relation": relation, "verdict": verdict, "kind": "generalisation", "tight": tight,
            "tight_at": "every N" if proved else "N = 4", "tight_upto": None, "tight_in_N": None,
            "proved_every_n": proved, "bound": "every N" if proved else "2 <= N <= 4", "trivial": trivial,
            "equivalent": False, "witness": witness, "reason": reason}


CELLS = [
    cell(A, B, "implication", "proved", tight="eps", proved=True),
    cell(B, A, "non-implication", "refuted", witness=WITNESS),
    cell(A, C, "open", "unknown", reason="no witness on the grid"),
    cell(C, A, "non-implication", "refuted", witness=WITNESS),
    cell(C, B, "implication", "verified-bounded", tight="log(3)"),
    cell(B, C, "non-implication", "refuted", witness=WITNESS),
]


@pytest.fixture
def inputs(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"settings": {"N": 4}, "nodes": [A, B, C], "counts": {"pairs": 6}, "cells": CELLS}))
    from implgraph.commands.claims import all_rows
    claim = next(r for r in all_rows() if r.get("from", "").startswith(A + "[") or r.get("from") == A)
    verdicts = tmp_path / "verify.json"
    verdicts.write_text(json.dumps({"claims": [{"id": claim["id"], "verdict": "holds-not-tight",
                                                "evidence": "written by the test"}]}))
    return matrix, verdicts, claim


@pytest.fixture
def site(tmp_path, inputs):
    matrix, verdicts, claim = inputs
    out = tmp_path / "site"
    counts = build_site(out, matrix=matrix, verdicts=verdicts, tables=["sei2019/table-I"], with_certificates=False,
                        groups_n=None)
    return out, counts, claim


def _text(html: str) -> str:
    """The text of some HTML, tags dropped, each cell and item on its own line."""
    import re
    return re.sub(r"[ \t]*\n[ \t\n]*", "\n", re.sub(r"<[^>]+>", lambda m: "\n" if m.group(0).startswith(("<td", "<th", "<li", "</tr")) else "", html))


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        self.refs += [v for k, v in attrs if k in ("href", "src", "xlink:href") and v]


def test_files(site):
    out, counts, _ = site
    # 6 top pages, one page per registered definition, one per cell
    assert counts["edges"] == 6 and counts["pages"] == 6
    for name in ("index.html", "matrix.html", "hasse.html", "groups.html", "open.html", "definitions.html",
                 "assets/site.css", "assets/site.js", "assets/matrix.js", "assets/search-index.js"):
        assert (out / name).is_file(), name
    for c in CELLS:
        assert (out / edge_file(c["a"], c["b"])).is_file()
    assert len(list((out / "definitions").glob("*.html"))) == counts["definitions"]


def test_every_link_resolves(site):
    out, _, _ = site
    pages = list(out.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for ref in parser.refs:
            target, _ = urldefrag(ref)
            assert "://" not in ref, f"{page}: external reference {ref}"   # offline: no CDN
            if target:
                assert (page.parent / target).resolve().is_file(), f"{page.relative_to(out)}: {ref}"


def test_search_index_links_resolve(site):
    out, _, claim = site
    text = (out / "assets" / "search-index.js").read_text()
    index = json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))
    assert {e["k"] for e in index} == {"definition", "pair", "claim"}
    assert any(e["t"].startswith(claim["id"] + ": holds-not-tight") for e in index)
    for e in index:
        assert (out / e["h"]).is_file(), e


def test_matrix_page(site):
    out, _, _ = site
    text = (out / "matrix.html").read_text()
    # 6 cells: 2 implications (one proved, one bounded), 3 refuted, 1 open
    assert text.count('<td class="cell proved"') == 1 and text.count('<td class="cell bounded"') == 1
    assert text.count('<td class="cell refuted"') == 3 and text.count('<td class="cell open"') == 1
    cells = json.loads(text.split('<script type="application/json" id="cells">')[1].split("</script>")[0])
    assert cells[f"{A}\t{B}"]["f"].startswith("eps") and cells[f"{B}\t{A}"]["witness"]["rows"] == WITNESS["rows"]


def test_edge_pages(site):
    out, _, _ = site
    text = (out / edge_file(A, B)).read_text()
    # f typeset by KaTeX (its LaTeX in data-tex, the plain text inside), then where it is tight
    assert '<td id="f"><span class="math" data-tex="\\epsilon">eps</span>; at every N</td>' in text
    # the witness table: 2 records in classes E1, E2
    text = (out / edge_file(B, A)).read_text()
    assert 'id="witness"' in text and "\nE1\n1\n0\n" in _text(text) and "\nE2\n1/2\n1/2\n" in _text(text)
    # a implies b directly: the chain is the one covering edge a => b
    assert f"{A} =&gt; {B}" in (out / edge_file(A, B)).read_text()


def test_claims_on_edge_page(tmp_path):
    # a paper's claim relating two definitions appears, with its verdict from the verdict file, on the page
    # of the pair of their definitions
    from implgraph.commands.claims import all_rows
    from implgraph.map.graph import family_of
    claim = next(r for r in all_rows() if r.get("from") and r.get("to") and r["kind"] == "implies")
    a, b = family_of(claim["from"]), family_of(claim["to"])
    (tmp_path / "m.json").write_text(json.dumps({"nodes": [a, b], "cells": [cell(a, b, "open", "unknown")]}))
    (tmp_path / "v.json").write_text(json.dumps([{"id": claim["id"], "verdict": "holds-not-tight"}]))
    build_site(tmp_path / "s", matrix=tmp_path / "m.json", verdicts=tmp_path / "v.json", tables=[],
               with_certificates=False, groups_n=None)
    row = (tmp_path / "s" / edge_file(a, b)).read_text().split(f"<td>{claim['id']}</td>")[1].split("</tr>")[0]
    assert "holds-not-tight" in row


def test_open_page(site):
    out, _, _ = site
    text = (out / "open.html").read_text()
    assert "1 ordered pairs are open" in text and "no witness on the grid" in text


def test_definition_page_levels(site):
    out, _, claim = site
    text = (out / definition_file(C)).read_text()
    # sei2019 Table I: Alex, Becky, Carl and Diana are alone in their classes: the smallest class has 1 record
    row = text.split("sei2019/table-I</td>")[1].split("</tr>")[0]
    assert row.endswith('<td><span class="math" data-tex="1">1</span></td>')
    page = (out / definition_file(A)).read_text()       # the claim whose from is a, with the file's verdict
    assert "holds-not-tight" in page and "written by the test" in page


def test_hasse_by_hand():
    # a => b, c => b; b =/=> a, b =/=> c: b is below a and c, no other covering edge
    H = hasse(CELLS)
    assert set(H.edges) == {(A, B), (C, B)}
    assert why_path(H, A, B) == [(A, B)] and why_path(H, B, A) is None
    # d <=> a (both ways) and a => b, d => b: d and a merged, one covering edge to b
    D = "x"
    more = CELLS + [cell(A, D, "implication", "proved", proved=True), cell(D, A, "implication", "proved", proved=True),
                    cell(D, B, "implication", "proved", proved=True)]
    H = hasse(more)
    merged = [d["members"] for _, d in H.nodes(data=True) if len(d["members"]) > 1]
    assert merged == [[A, D]] and why_path(H, D, A) == [] and why_path(H, D, B) == [(A, B)]
    # a trivial implication is left out: a ? c trivial adds no edge
    H = hasse(CELLS + [cell(A, C, "implication", "verified-bounded", trivial=True)])
    assert set(H.edges) == {(A, B), (C, B)}


def test_hasse_svg_laid_out_with_f_and_links(site):
    """The Hasse diagram of CELLS (a => b with f = eps: the level carries over, no label; c => b with
    f = log(3): the arrow says eps = ln(3)) drawn by the map's renderer: two arrows, one label, every node
    and arrow a link to its page."""
    out, _, _ = site
    page = (out / "hasse.html").read_text()
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert svg.count('id="edge-') == 2 and svg.count('id="node-') == 3
    labels = re.findall(r'<g id="label-\d+">(.*?)</g>', svg, re.S)
    assert len(labels) == 1 and "ln" in labels[0] and "3" in labels[0]
    assert "the same level" in svg                       # the legend says what an unlabelled arrow means
    for ref in (edge_file(A, B), edge_file(C, B), definition_file(A), definition_file(B), definition_file(C)):
        assert f'xlink:href="{ref}"' in svg, ref


def test_hasse_long_f_numbered_below():
    """An f mathtext cannot set on an arrow (a Piecewise: cases) is a number on the arrow and written in
    full below the diagram."""
    from implgraph.site.hasse import drawing_graph
    cells = [cell(A, B, "implication", "proved", tight="Piecewise((eps, Eq(N, 2)), (2*eps, True))", proved=True),
             cell(C, B, "implication", "verified-bounded", tight="log(3)")]
    D, notes = drawing_graph(hasse(cells))
    assert notes == [(1, A, B, "Piecewise((eps, Eq(N, 2)), (2*eps, True))")]
    assert D.edges[A, B, 0]["label"] == "[1]" and D.edges[C, B, 0]["label"] == r"$\epsilon = \ln{\left(3 \right)}$"


#: what Python's reprs look like in a page's text (a dict, a list, a bool, None, a sympy object, an address)
REPR = re.compile(r"\{'|'\}|\[\]|\{\}|\bTrue\b|\bFalse\b|\bNone\b|object at 0x|\b(?:Symbol|Rational|Integer|Float)\(|"
                  r"\bdict_\w+\(")


def _visible(html: str) -> str:
    return _text(re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S))


def test_no_python_repr_on_any_page(site):
    out, _, _ = site
    for page in sorted(out.rglob("*.html")):
        text = _visible(page.read_text())
        assert not REPR.search(text), f"{page.relative_to(out)}: {REPR.search(text).group(0)!r} in the text"


def test_no_external_url(site):
    """Nothing a page loads or links to is outside the site: no http(s) in an href/src or a style sheet."""
    out, _, _ = site
    for path in sorted(out.rglob("*")):
        if path.suffix in (".html", ".css"):
            text = path.read_text()
            refs = re.findall(r'(?:href|src)="([^"]*)"', text) + re.findall(r"url\(([^)]*)\)", text)
            assert not [r for r in refs if "//" in r], path
    css = (out / "assets" / "katex" / "katex.min.css").read_text()
    fonts = re.findall(r"url\(([^)]*)\)", css)
    assert fonts and all((out / "assets" / "katex" / f).is_file() for f in fonts)


def test_math_marked_for_katex(site):
    out, _, _ = site
    page = (out / edge_file(C, B)).read_text()
    assert '<span class="math" data-tex="\\ln{\\left(3 \\right)}">log(3)</span>' in page
    assert 'src="../assets/katex/katex.min.js"' in page and 'href="../assets/katex/katex.min.css"' in page


def test_definition_lists(site):
    """dp (b): implied by ldp (f = eps, proved) and k-anonymity (f = log(3), checked up to the bound), implies
    nothing, does not imply ldp nor k-anonymity; ldp (a): implies dp, one open pair with k-anonymity."""
    out, _, _ = site

    dp = _text((out / definition_file(B)).read_text())
    implies = dp.split("\nImplies\n")[1].split("\nImplied by\n")[0]
    implied_by = dp.split("\nImplied by\n")[1].split("\nDoes not imply\n")[0]
    not_implies = dp.split("\nDoes not imply\n")[1].split("\nOpen\n")[0]
    assert "No established implication from it" in implies
    assert "ldp: f = eps" in implied_by and "k-anonymity: f = log(3) (checked for N up to the bound)" in implied_by
    assert "ldp" in not_implies and "k-anonymity" in not_implies
    ldp = _text((out / definition_file(A)).read_text())
    assert "dp: f = eps" in ldp.split("\nImplies\n")[1].split("\nImplied by\n")[0]
    assert "ldp ? k-anonymity (no witness on the grid)" in ldp.split("\nOpen\n")[1].split("\nLevels on")[0]


def test_neighbourhood(site):
    """dp (b) is covered by ldp (f = eps) and by k-anonymity (f = log(3)) and covers nothing: two arrows in, each
    linking its pair, none out; ldp has one arrow out (to dp), none in."""
    out, _, _ = site
    dp = (out / definition_file(B)).read_text()
    block = dp.split('<div class="neighbourhood" data-node="dp">')[1].split('<h2 id="implies">')[0]
    into = block.split('<ul class="into">')[1].split("</ul>")[0]
    assert re.findall(r'<li data-node="([^"]+)">', into) == [C, A]        # in order of their names
    assert f'href="../{edge_file(A, B)}"' in into and f'href="../{edge_file(C, B)}"' in into
    assert 'data-tex="\\epsilon"' in into and "log(3)" in into
    assert '<li class="none">it implies nothing directly</li>' in block
    ldp = (out / definition_file(A)).read_text()
    assert re.findall(r'<ul class="out"><li data-node="([^"]+)">', ldp) == [B]
    assert '<li class="none">nothing implies it directly</li>' in ldp


def test_matrix_pair_list_and_orders(site):
    """The list below the grid: one row per cell (6), each with its class; the orders' data: ldp and k-anonymity
    imply one definition each, dp is implied by two."""
    out, _, _ = site
    text = (out / "matrix.html").read_text()
    rows = re.findall(r'<tr class="([^"]+)" data-a="([^"]+)" data-b="([^"]+)" data-cls="[^"]+">', text)
    assert sorted((a, b) for _, a, b in rows) == sorted((c["a"], c["b"]) for c in CELLS)
    assert sorted(cls for cls, _, _ in rows) == ["bounded", "open", "proved", "refuted", "refuted", "refuted"]
    order = json.loads(text.split('<script type="application/json" id="order">')[1].split("</script>")[0])
    assert order["strength"] == {A: [1, 0], B: [0, 2], C: [1, 0]}


def test_slug_distinct():
    names = ["a(k=2)", "a(k=3)", "a(delta=1/10)", "a", "b(l=2)"]
    assert len({slug(n) for n in names}) == len(names)


@pytest.mark.parametrize("content, what", [("{}", "no cells"), ("[1", "not a pair matrix")])
def test_bad_matrix(tmp_path, content, what):
    bad = tmp_path / "m.json"
    bad.write_text(content)
    with pytest.raises(InputError, match=what):
        build_site(tmp_path / "s", matrix=bad, verdicts=bad, tables=[], with_certificates=False, groups_n=None)


def test_cli_bad_verdicts(tmp_path, inputs):
    matrix, _, _ = inputs
    bad = tmp_path / "v.json"
    bad.write_text('{"claims": 3}')
    r = subprocess.run([sys.executable, "-m", "implgraph.cli", "site", "--out", str(tmp_path / "s"), "--matrix",
                        str(matrix), "--verdicts", str(bad), "--no-levels", "--no-certificates", "--groups-n", "0"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "fix:" in r.stderr


def test_cli_json(tmp_path, inputs):
    matrix, verdicts, _ = inputs
    r = subprocess.run([sys.executable, "-m", "implgraph.cli", "site", "--out", str(tmp_path / "s"), "--matrix",
                        str(matrix), "--verdicts", str(verdicts), "--no-levels", "--no-certificates", "--json",
                        "--groups-n", "0"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["edges"] == 6 and (tmp_path / "s" / "index.html").is_file()


def test_certificate_of_a_proved_cell(tmp_path, inputs):
    _, verdicts, _ = inputs
    published = json.loads((Path(__file__).parents[1] / "implgraph" / "data" / "matrix.json").read_text())
    c = next(c for c in published["cells"] if c["proved_every_n"])
    one = {"nodes": [c["a"], c["b"]], "cells": [c], "counts": {}, "settings": {}}
    (tmp_path / "m.json").write_text(json.dumps(one))
    build_site(tmp_path / "s", matrix=tmp_path / "m.json", verdicts=verdicts, tables=[], groups_n=None)
    text = (tmp_path / "s" / edge_file(c["a"], c["b"])).read_text()
    assert "Certificate (proved for every N)" in text and "implgraph-certificate/" in text
    # read as facts (a list of terms), not as JSON or Python's reprs
    assert not REPR.search(_visible(text)) and '{"' not in _visible(text) and "<dl>" in text
    assert "<dd>implgraph-certificate/" in text          # words stay words (not read as a formula)


def test_groups_page(tmp_path, inputs):
    # the k-expanded map of the papers' theorems at N = 3: an inline SVG (no XML prologue inside the page)
    matrix, verdicts, _ = inputs
    build_site(tmp_path / "s", matrix=matrix, verdicts=verdicts, tables=[], with_certificates=False, groups_n=3)
    text = (tmp_path / "s" / "groups.html").read_text()
    assert "N = 3 records" in text and "<svg" in text and "<?xml" not in text and "<!DOCTYPE svg" not in text


def test_unregistered_node_and_out_file(tmp_path, inputs):
    _, verdicts, _ = inputs
    m = tmp_path / "m.json"
    unknown = "no-such-definition"
    m.write_text(json.dumps({"nodes": [unknown, A], "cells": [cell(unknown, A, "open", "unknown")]}))
    with pytest.raises(InputError):
        build_site(tmp_path / "s", matrix=m, verdicts=verdicts, tables=[], with_certificates=False, groups_n=None)
    (tmp_path / "file").write_text("")
    m.write_text(json.dumps({"nodes": [A, B], "cells": CELLS[:2]}))
    with pytest.raises(InputError, match="not a directory"):
        build_site(tmp_path / "file", matrix=m, verdicts=verdicts, tables=[], with_certificates=False, groups_n=None)


def test_vacuous_and_conditional_cells_are_said_so(tmp_path, inputs):
    """A vacuous implication (f is b's own ceiling) is not drawn as proved, and a non-implication that holds only
    under an assumption names it on the matrix and on its page (both cells written by hand)."""
    vac = cell(A, B, "implication", "proved", tight="N - 1", proved=True)
    vac["vacuous"] = True
    cond = cell(B, A, "non-implication", "refuted", witness=WITNESS)
    cond["conditional"] = {"assumption": "partitions into at least 2 classes", "relation": "implication",
                           "verdict": "proved", "tight": "log(t*(N - 1))", "tight_at": "every N"}
    cells = [vac, cond] + [c for c in CELLS if (c["a"], c["b"]) not in ((A, B), (B, A))]
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"settings": {"N": 4}, "nodes": [A, B, C], "counts": {"pairs": 6}, "cells": cells}))
    out = tmp_path / "site"
    build_site(out, matrix=matrix, verdicts=inputs[1], tables=[], with_certificates=False, groups_n=None)
    text = (out / "matrix.html").read_text()
    assert text.count('<td class="cell vacuous"') == 1 and '<td class="cell proved"' not in text
    assert text.count('<td class="cell refuted conditional"') == 1
    page = (out / edge_file(B, A)).read_text()
    assert 'id="conditional"' in page and "partitions into at least 2 classes" in page
    assert "log(t*(N - 1)); at every N" in _text(page)
    assert "every table meets it" in (out / edge_file(A, B)).read_text()
    # the Hasse diagram draws no vacuous arrow: a and b are not merged nor ordered
    assert why_path(hasse(cells), A, B) is None


def test_a_formula_with_a_note_in_words_is_set_by_katex_and_the_note_kept():
    """An f the engine proved as an upper bound carries its note: the formula is typeset, never shown raw (a
    piecewise's last condition would read 'True'), and the note stays as text."""
    from implgraph.site.texmath import math_html
    out = str(math_html("Piecewise((0, d <= 1/50), (log(d), True)) (an upper bound; tightness not derived)"))
    assert out.startswith('<span class="math" data-tex="') and "otherwise" in out
    assert out.endswith("</span> (an upper bound; tightness not derived)")
    assert str(math_html("every N (x)")) == "every N (x)"
