"""The explorer and the committed figures in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by selenium. Every page loads with no console error and nothing from outside the
site, every link of a page resolves, KaTeX sets the math, a click on a cell of the matrix shows its f and
witness, the search box finds a pair; in the Hasse diagram of the published matrix and in docs/fig1.svg and
docs/fig2.svg no two texts intersect, no edge passes through a node other than its ends, no edge passes
through a label (the boxes and paths as the browser renders them: getBoundingClientRect, getPointAtLength).

Skipped with a message when selenium, chromium or chromedriver is missing (`.ci/run` installs them).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from implgraph.site.build import build_site

from _browser import chromium

ROOT = Path(__file__).resolve().parents[1]


# two registered definitions, written by hand: a => b with f, b =/=> a with a witness of two records
A, B = "ldp", "dp"
WITNESS = {"rows": [["1", "0"], ["1/3", "2/3"]], "classes": ["E1", "E2"], "level_a": "oo", "level_b": "log(3)"}
CELLS = [
    {"a": A, "b": B, "relation": "implication", "verdict": "proved", "tight": "eps", "tight_at": "every N",
     "proved_every_n": True, "bound": "every N", "trivial": False, "witness": None, "reason": ""},
    {"a": B, "b": A, "relation": "non-implication", "verdict": "refuted", "tight": None, "proved_every_n": False,
     "bound": "N = 2", "trivial": False, "witness": WITNESS, "reason": ""},
]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tmp_path_factory)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    (root / "m.json").write_text(json.dumps({"nodes": [A, B], "cells": CELLS, "counts": {"pairs": 2}}))
    (root / "v.json").write_text(json.dumps({"claims": []}))
    out = root / "site"
    build_site(out, matrix=root / "m.json", verdicts=root / "v.json", tables=[], with_certificates=False,
               groups_n=3)
    return out


def _errors(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def test_pages_load_without_console_errors_and_links_resolve(browser, site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        browser.get(page.as_uri())
        assert browser.find_element("css selector", "h1").text, page
        assert _errors(browser) == [], page
        hrefs = browser.execute_script("return Array.from(document.querySelectorAll('a[href]'), "
                                         "a => new URL(a.getAttribute('href'), document.baseURI).href)")
        for href in hrefs:
            assert href.startswith("file://"), f"{page}: {href}"
            target = Path(href[len("file://"):].split("#")[0])
            assert target.is_file(), f"{page}: {href}"


def test_click_on_a_cell_shows_f_and_witness(browser, site):
    from selenium.webdriver.common.by import By
    browser.get((site / "matrix.html").as_uri())
    assert not browser.find_element(By.ID, "detail").is_displayed()
    browser.find_element(By.CSS_SELECTOR, f'a.pair[data-a="{A}"][data-b="{B}"]').click()
    assert browser.find_element(By.ID, "detail").is_displayed()
    assert browser.find_element(By.ID, "detail-f").text.startswith("f =")
    browser.find_element(By.CSS_SELECTOR, f'a.pair[data-a="{B}"][data-b="{A}"]').click()
    # the witness's two records: (1, 0) in E1 and (1/3, 2/3) in E2, each value set by KaTeX (its LaTeX kept in
    # the MathML annotation)
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#detail-witness table tr'), tr => Array.from(tr.children, "
        "td => { const a = td.querySelector('annotation'); return a ? 'tex:' + a.textContent : td.textContent; }))")
    assert [[x.replace(" ", "") for x in r] for r in rows] == [["1", "E1", "tex:1", "tex:0"],
                                                               ["2", "E2", "tex:1/3", "tex:2/3"]]
    assert _errors(browser) == []


def test_search_finds_a_pair(browser, site):
    from selenium.webdriver.common.by import By
    browser.get((site / "index.html").as_uri())
    browser.find_element(By.ID, "search").send_keys(f"{B} ? {A}: non")   # every word must occur
    links = browser.find_elements(By.CSS_SELECTOR, "#results a")
    assert [a.text for a in links] == [f"{B} ? {A}: non-implication"]
    links[0].click()
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == f"{B} ? {A}"
    assert _errors(browser) == []


def test_search_finds_a_definition_by_its_description(browser, site):
    """"differential privacy" is in dp's description (eps-differential privacy with record removal), not
    in its name or title: the search finds it."""
    from selenium.webdriver.common.by import By
    browser.get((site / "index.html").as_uri())
    browser.find_element(By.ID, "search").send_keys("differential privacy")
    texts = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#results a")]
    assert "dp: eps-DP" in texts


def _requests(driver) -> list:
    """The URLs the browser requested since the last call (Chrome's performance log: Network events)."""
    out = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            out.append(message["params"]["request"]["url"])
    return out


def test_no_external_resource_and_katex_sets_the_math(browser, site):
    """Every resource a page loads is a file of the site; every formula is set by KaTeX (no error)."""
    from selenium.webdriver.common.by import By
    pages = sorted(site.rglob("*.html"))
    for page in pages:
        _requests(browser)                  # what came before
        browser.get(page.as_uri())
        loaded = _requests(browser)
        assert any(u.endswith("katex.min.js") for u in loaded), (page, loaded)
        assert not [u for u in loaded if u.split(":")[0] in ("http", "https", "ws", "wss", "ftp")], (page, loaded)
        refs = browser.execute_script("return Array.from(document.querySelectorAll('[href], [src]'), "
                                      "e => e.href && e.href.baseVal !== undefined ? e.href.baseVal : "
                                      "(e.href || e.src))")
        assert not [r for r in refs if r and not r.startswith(("file://", "#"))], page
        formulas = browser.find_elements(By.CSS_SELECTOR, ".math[data-tex]")
        assert len(browser.find_elements(By.CSS_SELECTOR, ".math[data-tex] .katex")) == len(formulas), page
        if formulas:       # KaTeX's fonts are loaded (from the site: nothing else was requested)
            loaded_fonts = browser.execute_script(
                "await document.fonts.ready; return Array.from(document.fonts).filter(f => "
                "f.family.includes('KaTeX') && f.status === 'loaded').length")
            assert loaded_fonts > 0, page
        assert browser.find_elements(By.CSS_SELECTOR, ".katex-error") == [], page
    # the pair a => b: f = eps set as an epsilon by KaTeX (its MathML annotation keeps the LaTeX)
    from implgraph.site.html import edge_file
    browser.get((site / edge_file(A, B)).as_uri())
    f = browser.find_element(By.CSS_SELECTOR, "#f .katex")
    assert "\u03f5" in f.text or "\u03b5" in f.text
    assert _errors(browser) == []


#: the geometry of a drawn SVG as the browser renders it: the box of every text group's glyphs (node texts, edge
#: labels, legend), of every node frame, and points along every edge (screen pixels)
GEOMETRY = """
const svg = arguments[0] ? document.querySelector(arguments[0]) : document.documentElement;
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
// a text's glyphs: its tspans' boxes (the box of a <text> holding tspans also covers the white space between
// them, set at the text's own origin), or the text's box when it has none
const glyphs = g => {
  const parts = [];
  for (const t of g.querySelectorAll("text")) {
    const spans = t.querySelectorAll("tspan");
    for (const e of (spans.length ? spans : [t])) { if (e.textContent.trim()) { parts.push(box(e)); } }
  }
  return parts.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]),
                                 Math.max(a[3], b[3])]);
};
const out = {texts: {}, nodes: {}, edges: {}};
for (const g of svg.querySelectorAll("g[id]")) {
  const id = g.id;
  if (/^(text|label|legend)-[0-9]+$/.test(id)) { out.texts[id] = glyphs(g); }
  else if (/^node-[0-9]+$/.test(id)) { out.nodes[id] = box(g); }
  else if (/^edge-[0-9]+$/.test(id)) {
    const p = g.querySelector("path"), m = p.getScreenCTM(), n = p.getTotalLength(), pts = [];
    for (let i = 0; i <= 200; i++) {
      const q = p.getPointAtLength(n * i / 200);
      pts.push([m.a * q.x + m.c * q.y + m.e, m.b * q.x + m.d * q.y + m.f]);
    }
    out.edges[id] = pts;
  }
}
return out;
"""
#: how far (pixels) a line may enter a box before it counts as crossing it: its width, an arrow's tip on a frame
TOLERANCE_PX = 1.0


def _inside(p, b, margin=TOLERANCE_PX):
    return b[0] + margin < p[0] < b[2] - margin and b[1] + margin < p[1] < b[3] - margin


def _overlap(a, b, margin=0.5):
    return a[0] + margin < b[2] - margin and b[0] + margin < a[2] - margin and \
        a[1] + margin < b[3] - margin and b[1] + margin < a[3] - margin


def _defects(geo) -> dict:
    """``{"texts": [...], "through_nodes": [...], "through_labels": [...]}`` found in a rendered SVG."""
    texts = geo["texts"]
    out = {"texts": [(a, b) for a, b in itertools.combinations(sorted(texts), 2) if _overlap(texts[a], texts[b])]}
    out["through_nodes"], out["through_labels"] = [], []

    def dist(p, b):
        return math.hypot(max(b[0] - p[0], 0, p[0] - b[2]), max(b[1] - p[1], 0, p[1] - b[3]))

    for eid, pts in sorted(geo["edges"].items()):
        ends = {min(geo["nodes"], key=lambda n: dist(p, geo["nodes"][n])) for p in (pts[0], pts[-1])}
        out["through_nodes"] += [(eid, n) for n, b in geo["nodes"].items()
                                 if n not in ends and any(_inside(p, b) for p in pts)]
        out["through_labels"] += [(eid, t) for t, b in texts.items()
                                  if t.startswith("label-") and any(_inside(p, b) for p in pts)]
    return out


def _clean(geo, what):
    assert len(geo["texts"]) > 5 and len(geo["edges"]) > 5 and len(geo["nodes"]) > 5, what
    assert _defects(geo) == {"texts": [], "through_nodes": [], "through_labels": []}, what


def test_defects_are_found():
    """The checks find what they look for: two texts that overlap, an edge across a third node, an edge
    through a label (boxes written by hand)."""
    geo = {"texts": {"text-0": [0, 0, 10, 10], "text-1": [5, 5, 15, 15], "label-2": [40, 0, 50, 10]},
           "nodes": {"node-0": [0, 0, 10, 10], "node-1": [100, 0, 110, 10], "node-2": [60, -5, 70, 15]},
           "edges": {"edge-0": [[10 + i, 5] for i in range(91)]}}
    found = _defects(geo)
    assert found["texts"] == [("text-0", "text-1")]
    assert found["through_nodes"] == [("edge-0", "node-2")] and found["through_labels"] == [("edge-0", "label-2")]


@pytest.mark.parametrize("fig", ["fig1", "fig2"])
def test_committed_figures_in_the_browser(browser, fig):
    browser.get((ROOT / "docs" / f"{fig}.svg").as_uri())
    _clean(browser.execute_script(GEOMETRY, None), fig)


@pytest.fixture(scope="module")
def published_site(tmp_path_factory):
    """The explorer of the published pair matrix (implgraph/data/matrix.json), without claims, levels, certificates."""
    root = tmp_path_factory.mktemp("published")
    (root / "v.json").write_text(json.dumps({"claims": []}))
    out = root / "site"
    build_site(out, matrix=ROOT / "implgraph" / "data" / "matrix.json", verdicts=root / "v.json", tables=[],
               with_certificates=False, groups_n=None)
    return out


def test_hasse_diagram_in_the_browser(browser, published_site):
    """The Hasse diagram of the published matrix: every arrow a link, no text over another, no edge through a
    node or a label, every numbered f below it set by KaTeX."""
    from selenium.webdriver.common.by import By
    browser.get((published_site / "hasse.html").as_uri())
    geo = browser.execute_script(GEOMETRY, "svg.hasse")
    _clean(geo, "hasse")
    notes = browser.find_elements(By.CSS_SELECTOR, "ol.notes li")
    assert all(li.find_elements(By.CSS_SELECTOR, ".katex") or "no closed form" in li.text for li in notes)
    assert _errors(browser) == []


# ------------------------------------------------------------------------------------------------
# the matrix's controls, the click detail's math, the neighbourhood view
# ------------------------------------------------------------------------------------------------

#: the grid and the list of pairs as the browser shows them: the rows' and columns' nodes in order, each row's
#: cells (column, classes, dimmed), the list's rows (a, b, classes, verdict, shown) and the count shown
READ_MATRIX = """
const rows = Array.from(document.querySelectorAll("table.matrix tbody tr"), tr => ({
  node: tr.getAttribute("data-node"),
  cells: Array.from(tr.querySelectorAll("td"), td => ({b: td.getAttribute("data-b"), cls: td.className,
                                                       a: (td.querySelector("a.pair") || {dataset: {}}).dataset.a}))}));
const cols = Array.from(document.querySelectorAll("table.matrix thead th.col"), th => th.getAttribute("data-node"));
const pairs = Array.from(document.querySelectorAll("#pairs tbody tr"), tr => ({
  a: tr.dataset.a, b: tr.dataset.b, cls: tr.dataset.cls, verdict: tr.children[3].textContent,
  shown: tr.offsetParent !== null}));
return {rows, cols, pairs, shown: document.getElementById("shown").textContent};
"""


def _matrix(browser):
    return browser.execute_script(READ_MATRIX)


def _select(browser, element_id, value):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element(By.ID, element_id)).select_by_value(value)


def _consistent(m):
    """Every row's cells in the columns' order, each cell's link the row's node."""
    for row in m["rows"]:
        assert [c["b"] for c in row["cells"]] == m["cols"], row["node"]
        assert all(c["a"] in (None, row["node"]) for c in row["cells"]), row["node"]
    assert [r["node"] for r in m["rows"]] == m["cols"]


def test_matrix_sorted_by_name_and_by_implications(browser, published_site):
    browser.get((published_site / "matrix.html").as_uri())
    before = _matrix(browser)
    _consistent(before)
    _select(browser, "sort", "name")
    by_name = _matrix(browser)
    _consistent(by_name)
    assert by_name["cols"] == sorted(before["cols"], key=str.lower) != before["cols"]
    # each cell moved with its row and column: the same classes at the same pair
    cls = {(r["node"], c["b"]): c["cls"] for r in before["rows"] for c in r["cells"]}
    assert {(r["node"], c["b"]): c["cls"] for r in by_name["rows"] for c in r["cells"]} == cls
    _select(browser, "sort", "implies")
    m = _matrix(browser)
    _consistent(m)
    # counted from the grid: a row's implications that are neither trivial nor vacuous (proved or bounded)
    counts = [sum(c["cls"].split()[1:2] in (["proved"], ["bounded"]) for c in r["cells"]) for r in m["rows"]]
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    _select(browser, "sort", "implied")
    m = _matrix(browser)
    _consistent(m)
    into = {b: sum(cls[a, b].split()[1:2] in (["proved"], ["bounded"]) for a in m["cols"]) for b in m["cols"]}
    assert [into[b] for b in m["cols"]] == sorted(into.values(), reverse=True)
    _select(browser, "sort", "matrix")
    assert _matrix(browser)["cols"] == before["cols"]
    assert _errors(browser) == []


def test_matrix_filtered_by_verdict_and_by_definition(browser, published_site):
    from selenium.webdriver.common.by import By
    browser.get((published_site / "matrix.html").as_uri())
    m = _matrix(browser)
    total = len(m["pairs"])
    assert total == sum(1 for r in m["rows"] for c in r["cells"] if c["a"]) and all(p["shown"] for p in m["pairs"])
    assert m["shown"] == f"{total} of {total} pairs"
    _select(browser, "filter-verdict", "refuted")
    m = _matrix(browser)
    refuted = [c for r in m["rows"] for c in r["cells"] if "refuted" in c["cls"].split()]
    shown = [p for p in m["pairs"] if p["shown"]]
    assert 0 < len(shown) == len(refuted) < total and all("refuted" in p["cls"].split() for p in shown)
    assert m["shown"] == f"{len(shown)} of {total} pairs"
    assert all(("dim" in c["cls"].split()) == ("refuted" not in c["cls"].split()) for r in m["rows"] for c in r["cells"])
    _select(browser, "filter-verdict", "")
    box = browser.find_element(By.ID, "filter-definition")
    box.send_keys("closeness")
    m = _matrix(browser)
    shown = {(p["a"], p["b"]) for p in m["pairs"] if p["shown"]}
    want = {(p["a"], p["b"]) for p in m["pairs"] if "closeness" in p["a"] or "closeness" in p["b"]}
    assert shown == want and 0 < len(want) < total
    lit = {(r["node"], c["b"]) for r in m["rows"] for c in r["cells"] if c["a"] and "dim" not in c["cls"].split()}
    assert lit == want
    assert _errors(browser) == []


def test_pair_list_sorted_by_a_column(browser, published_site):
    from selenium.webdriver.common.by import By
    browser.get((published_site / "matrix.html").as_uri())
    heading = browser.find_element(By.CSS_SELECTOR, '#pairs th[data-key="verdict"]')
    heading.find_element(By.TAG_NAME, "button").click()
    verdicts = [p["verdict"] for p in _matrix(browser)["pairs"]]
    assert verdicts == sorted(verdicts) and len(set(verdicts)) > 1 and heading.get_attribute("aria-sort") == "ascending"
    heading.find_element(By.TAG_NAME, "button").click()
    verdicts = [p["verdict"] for p in _matrix(browser)["pairs"]]
    assert verdicts == sorted(verdicts, reverse=True) and heading.get_attribute("aria-sort") == "descending"
    assert _errors(browser) == []


def test_click_detail_sets_f_and_levels_with_katex(browser, site):
    """a => b: f = eps, set as an epsilon (KaTeX's MathML keeps the LaTeX \\epsilon); b =/=> a: the witness's
    levels oo and log(3) set by KaTeX too."""
    from selenium.webdriver.common.by import By
    browser.get((site / "matrix.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, f'a.pair[data-a="{A}"][data-b="{B}"]').click()
    f = browser.find_elements(By.CSS_SELECTOR, "#detail-f .katex")
    assert len(f) == 1
    tex = f[0].find_element(By.CSS_SELECTOR, "annotation").get_attribute("textContent")
    assert tex == "\\epsilon"
    browser.find_element(By.CSS_SELECTOR, f'a.pair[data-a="{B}"][data-b="{A}"]').click()
    levels = browser.find_elements(By.CSS_SELECTOR, "#detail-witness p .katex annotation")
    assert [x.get_attribute("textContent") for x in levels] == ["\\infty", "\\ln{\\left(3 \\right)}"]
    assert browser.find_elements(By.CSS_SELECTOR, "#detail .katex-error") == []
    assert _errors(browser) == []


def test_neighbourhood_view(browser, site):
    """The hand-made matrix has one arrow, a => b with f = eps: b's page shows a one arrow in, f set by KaTeX,
    linking the pair; a's page shows b one arrow out; neither has another neighbour."""
    from selenium.webdriver.common.by import By
    from implgraph.site.html import definition_file, edge_file
    browser.get((site / definition_file(B)).as_uri())
    into = browser.find_elements(By.CSS_SELECTOR, ".neighbourhood ul.into li")
    assert [li.get_attribute("data-node") for li in into] == [A]
    arrow = into[0].find_element(By.CSS_SELECTOR, "a.arrow")
    assert arrow.get_attribute("href").endswith(edge_file(A, B))
    assert arrow.find_element(By.CSS_SELECTOR, ".katex annotation").get_attribute("textContent") == "\\epsilon"
    assert browser.find_elements(By.CSS_SELECTOR, ".neighbourhood ul.out li[data-node]") == []
    # the arrow points from the left (a) to the centre (b): a's box left of the arrow, the arrow left of b
    left = into[0].find_element(By.CSS_SELECTOR, "a:not(.arrow)").rect
    centre = browser.find_element(By.CSS_SELECTOR, ".neighbourhood .centre .node").rect
    assert left["x"] + left["width"] <= arrow.rect["x"] + 1 and arrow.rect["x"] + arrow.rect["width"] <= centre["x"] + 1
    browser.get((site / definition_file(A)).as_uri())
    out = browser.find_elements(By.CSS_SELECTOR, ".neighbourhood ul.out li[data-node]")
    assert [li.get_attribute("data-node") for li in out] == [B]
    assert browser.find_elements(By.CSS_SELECTOR, ".neighbourhood ul.into li[data-node]") == []
    assert _errors(browser) == []


@pytest.mark.slow
def test_the_explorer_implgraph_site_writes_is_walked_in_chromium(browser, tmp_path_factory):
    """`implgraph site --out DIR` as a user runs it (everything computed: verdicts, levels, certificates), from a
    directory of its own: every page loads without a console error and with a title, every link resolves inside the
    site, nothing is requested from outside it, KaTeX sets every formula without an error, and no page's text holds
    a Python repr."""
    import os
    import subprocess
    import sys
    from selenium.webdriver.common.by import By
    from test_site import REPR
    work = tmp_path_factory.mktemp("user")
    env = {**os.environ, "IMPLGRAPH_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    done = subprocess.run([sys.executable, "-m", "implgraph", "site", "--out", "explorer"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    site = work / "explorer"
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 300            # 6 top pages, one per definition, one per ordered pair
    for page in pages:
        _requests(browser)
        browser.get(page.as_uri())
        assert browser.find_element(By.CSS_SELECTOR, "h1").text, page
        # the text a reader sees, formulas set by KaTeX (a formula's sympy text is only the page's fallback without
        # script)
        shown = browser.find_element(By.TAG_NAME, "body").text
        assert not REPR.search(shown), (page, REPR.search(shown).group(0))
        assert _errors(browser) == [], page
        loaded = _requests(browser)
        assert not [u for u in loaded if u.split(":")[0] in ("http", "https", "ws", "wss", "ftp")], (page, loaded)
        hrefs = browser.execute_script("return Array.from(document.querySelectorAll('a[href]'), "
                                       "a => new URL(a.getAttribute('href'), document.baseURI).href)")
        for href in hrefs:
            assert href.startswith("file://") and Path(href[len("file://"):].split("#")[0]).is_file(), (page, href)
        formulas = browser.find_elements(By.CSS_SELECTOR, ".math[data-tex]")
        assert len(browser.find_elements(By.CSS_SELECTOR, ".math[data-tex] .katex")) == len(formulas), page
        assert browser.find_elements(By.CSS_SELECTOR, ".katex-error") == [], page
