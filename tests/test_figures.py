"""Fig. 1 and Fig. 2 of ekenstedt2022 as `implgraph map` draws them, measured as a journal would.

* Fig. 2 (one node per definition) at a single column (8.5 cm) and Fig. 1 (each definition at each group
  size, N = 6) at a double column (17.8 cm): every character at least 7 pt as printed, sub- and superscripts
  included, read from the written SVG (its page width and each text element's font size) and from the TikZ
  (each text's ``\fontsize`` and how deep in scripts each character sits);
* no two text boxes intersect (node texts, edge labels, legend, cross marks: the boxes of the layout
  engine's output, checked against the extents matplotlib renders), no edge passes through a node box
  (read from the SVG's paths) or through a label, and double-headed arrows have room for their heads
  (also for Fig. 1 at N = 10, the README's command);
* the same layout on every run: two runs in fresh processes write the same bytes.
"""

import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from implgraph.commands.map import verify_edges
from implgraph.map.audit import audit, intersect
from implgraph.map.typeset import CM, MIN_TEXT_PT

#: the smallest size of any character a journal's figure may print (points), scripts included
SMALLEST_PT = 7.0

FIGURES = {"fig2": (["--level", "definitions"], "single", 8.5), "fig1": (["--N", "6"], "double", 17.8)}
#: laid out (in this process) and audited: the committed figures and Fig. 1 at N = 10 (the README's command)
AUDITED = dict(FIGURES, **{"fig1-N10": (["--N", "10"], "double", 17.8)})
RUN = "import sys; from implgraph.cli import main; sys.exit(main(sys.argv[1:]))"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def verdicts_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("verdicts") / "verdicts.json"
    path.write_text(json.dumps(verify_edges()))
    return path


def _cli(*argv, env=None):
    return subprocess.run([sys.executable, "-c", RUN, *map(str, argv)], capture_output=True, text=True,
                          timeout=900, env=env)


@pytest.fixture(scope="module")
def written(verdicts_file, tmp_path_factory):
    """Each figure written by the command in a fresh process (Fig. 2 twice): ``{fig: [svg, ...]}``."""
    out = {}
    for fig, (argv, width, _) in FIGURES.items():
        texts = []
        for run in ((1, 2) if fig == "fig2" else (1,)):
            path = tmp_path_factory.mktemp(f"{fig}-{run}") / f"{fig}.svg"
            proc = _cli("map", *argv, "--width", width, "--verdicts", verdicts_file, "--out", path)
            assert proc.returncode == 0 and proc.stderr == "", proc.stderr
            assert re.fullmatch(rf"wrote {re.escape(str(path))}, {FIGURES[fig][2]} x [0-9.]+ cm, text 10\.0 pt",
                                proc.stdout.strip()), proc.stdout
            texts.append(path.read_text())
        out[fig] = texts
    return out


@pytest.fixture(scope="module")
def layouts(verdicts_file):
    from implgraph.commands.map import build
    from implgraph.map.drawing import drawing
    from implgraph.map.layout import layout
    import argparse
    out = {}
    for fig, (argv, width, cm) in AUDITED.items():
        level = "definitions" if "--level" in argv else "groups"
        args = argparse.Namespace(N=int(argv[1]) if level == "groups" else None, level=level,
                                  verdicts=str(verdicts_file), verify=False, theorems=None)
        m = build(args)
        out[fig] = layout(drawing(m["shown"], m["an"] if level == "groups" else None), cm)
    return out


# ------------------------------------------------------------------------------------------------
# measured from the SVG
# ------------------------------------------------------------------------------------------------

def _font_sizes(svg: str) -> list:
    """``[(group id, [sizes])]``: the font size as printed (points) of every text element of every text group:
    its size in user units times the scale of the page (the width attribute, in pt, over the viewBox's width)."""
    root = ET.fromstring(svg.encode())
    scale = float(root.get("width").removesuffix("pt")) / float(root.get("viewBox").split()[2])
    out = []
    for g in root.iter(f"{SVG}g"):
        gid = g.get("id") or ""
        if not re.match(r"(text|label|legend)-\d+$", gid):
            continue
        sizes = [float(m) * scale for el in g.iter()
                 for m in re.findall(r"font-size: ([0-9.]+)px", el.get("style") or "")]
        out.append((gid, sizes))
    return out


def _page_cm(svg: str) -> float:
    return float(re.search(r'<svg[^>]*width="([0-9.]+)pt"', svg).group(1)) / CM


def _path_points(d: str) -> list:
    """Points along an SVG path of M, L and C commands (cubic pieces sampled)."""
    tokens = re.findall(r"[MLCz]|-?[0-9.]+(?:e-?\d+)?", d)
    pts, cur, i = [], None, 0
    while i < len(tokens):
        t = tokens[i]
        if t in "ML":
            cur = (float(tokens[i + 1]), float(tokens[i + 2]))
            pts.append(cur)
            i += 3
        elif t == "C":
            c = [(float(tokens[i + 1 + 2 * j]), float(tokens[i + 2 + 2 * j])) for j in range(3)]
            for s in range(1, 33):
                u = s / 32
                a, b, cc, dd = (1 - u) ** 3, 3 * (1 - u) ** 2 * u, 3 * (1 - u) * u ** 2, u ** 3
                pts.append((a * cur[0] + b * c[0][0] + cc * c[1][0] + dd * c[2][0],
                            a * cur[1] + b * c[0][1] + cc * c[1][1] + dd * c[2][1]))
            cur = c[2]
            i += 4
        else:
            i += 1
    return pts


def _svg_geometry(svg: str):
    """``(nodes, edges)`` read from the SVG: node boxes (the bounding box of each node's frame) and the
    points of each edge's path."""
    root = ET.fromstring(svg.encode())
    nodes, edges = {}, {}
    for g in root.iter(f"{SVG}g"):
        gid = g.get("id") or ""
        path = g.find(f"{SVG}path")
        if path is None:
            continue
        if re.match(r"node-\d+$", gid):
            pts = _path_points(path.get("d"))
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            nodes[gid] = (min(xs), min(ys), max(xs), max(ys))
        elif re.match(r"edge-\d+$", gid):
            edges[gid] = _path_points(path.get("d"))
    return nodes, edges


@pytest.mark.slow
@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_text_sizes_measured_from_svg(written, fig):
    """Every text element of the written SVG at least 7 pt as printed: the text at 10 pt, its scripts at 7 pt
    (0.7 of it, as mathtext sets them)."""
    svg = written[fig][0]
    assert _page_cm(svg) == pytest.approx(FIGURES[fig][2], abs=0.01)
    groups = _font_sizes(svg)
    assert len(groups) > 10
    sizes = [s for _, ss in groups for s in ss]
    assert min(sizes) >= SMALLEST_PT - 1e-9
    assert max(sizes) == pytest.approx(10.0) and min(sizes) == pytest.approx(7.0)


@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_committed_figures_text_sizes(fig):
    """The committed docs/fig2.svg (8.5 cm) and docs/fig1.svg (17.8 cm), which test_figures_committed keeps
    fresh: every text element at least 7 pt as printed (sub- and superscripts included), read from the file."""
    from pathlib import Path
    svg = (Path(__file__).resolve().parents[1] / "docs" / f"{fig}.svg").read_text()
    assert _page_cm(svg) == pytest.approx(FIGURES[fig][2], abs=0.01)
    groups = _font_sizes(svg)
    assert len(groups) > 10
    assert min(s for _, ss in groups for s in ss) >= SMALLEST_PT - 1e-9


#: LaTeX sets a script at 0.7 of its text and a script's script at 0.5 (its default ratios)
TEX_RATIOS = (1.0, 0.7, 0.5)


def _tikz_sizes(tex: str) -> list:
    """``[(text, smallest size)]``: each text of a TikZ figure with the size (bp) of its smallest character: its
    ``\\fontsize`` times the ratio of the deepest script it holds (a ``^`` or ``_`` inside math opens a level
    for its braced group or its next character)."""
    out = []
    for size, body in re.findall(r"font=\{\\fontsize\{([0-9.]+)bp\}\{[0-9.]+bp\}\\selectfont\}\] at \([^)]*\) "
                                 r"\{(.*)\};$", tex, re.M):
        deepest, depth, stack, in_math, pending = 0, 0, [], False, False
        i = 0
        while i < len(body):
            ch = body[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "$":
                in_math = not in_math
            elif in_math and ch in "^_":
                pending = True
                i += 1
                continue
            elif ch == "{":
                stack.append(pending)
                depth += pending
            elif ch == "}" and stack:
                depth -= stack.pop()
            elif pending:           # a script of one character
                deepest = max(deepest, depth + 1)
            deepest = max(deepest, depth)
            pending = False
            i += 1
        out.append((body, float(size) * TEX_RATIOS[min(deepest, 2)]))
    return out


def test_tikz_sizes_read_from_the_file():
    """A text at 10 bp with a superscript is 7 bp at its smallest, one with a script of a script 5 bp, one
    without scripts 10 bp (written by hand)."""
    line = "  \\node[inner sep=0bp, align=center, text=black, font={\\fontsize{10.00bp}{12.00bp}\\selectfont}] at (1bp,2bp) {%s};"
    tex = "\n".join(line % body for body in ("$e^{\\epsilon}$", "$e^{t^2}$", "plain", "$k_1$"))
    assert [s for _, s in _tikz_sizes(tex)] == pytest.approx([7.0, 5.0, 10.0, 7.0])


@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_committed_tikz_text_sizes(fig):
    """The committed docs/fig2.tex and docs/fig1.tex: every character at least 7 bp as LaTeX prints it."""
    from pathlib import Path
    tex = (Path(__file__).resolve().parents[1] / "docs" / f"{fig}.tex").read_text()
    sizes = _tikz_sizes(tex)
    assert len(sizes) > 10 and tex.count("\\node[") == len(sizes)
    assert min(s for _, s in sizes) >= SMALLEST_PT - 1e-9


def test_font_sizes_read_at_the_page_scale():
    """A text of 10 user units on a page drawn at half its viewBox (width 50pt, viewBox 100 wide) is 5 pt."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="50pt" height="50pt" viewBox="0 0 100 100">'
           '<g id="text-0"><text style="font-size: 10px">a</text></g></svg>')
    assert _font_sizes(svg) == [("text-0", [5.0])]


@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_no_edge_through_a_node_measured_from_svg(written, fig):
    nodes, edges = _svg_geometry(written[fig][0])
    assert len(nodes) >= 6 and len(edges) >= 10
    through = []
    for eid, pts in edges.items():
        ends = {min(nodes, key=lambda n: _distance(p, nodes[n])) for p in (pts[0], pts[-1])}
        for n, box in nodes.items():
            if n not in ends and any(box[0] + 0.6 < x < box[2] - 0.6 and box[1] + 0.6 < y < box[3] - 0.6
                                     for x, y in pts):
                through.append((eid, n))
    assert through == []


def _distance(p, box):
    return math.hypot(max(box[0] - p[0], 0, p[0] - box[2]), max(box[1] - p[1], 0, p[1] - box[3]))


def test_same_bytes_every_run(written, layouts, tmp_path):
    """Two processes write Fig. 2 byte for byte alike; this process writes Fig. 1 as the command did."""
    a, b = written["fig2"]           # two processes
    assert a == b
    from implgraph.map.render import write_layout
    write_layout(layouts["fig1"], tmp_path / "fig1.svg")        # this process and the command's
    assert (tmp_path / "fig1.svg").read_text() == written["fig1"][0]


# ------------------------------------------------------------------------------------------------
# measured on the layout engine's output
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fig", sorted(AUDITED))
def test_no_overlap_no_edge_through(layouts, fig):
    found = audit(layouts[fig])
    assert found.overlaps == [] and found.edges_through_nodes == [] and found.edges_through_labels == []
    assert found.short_arrows == [] and found.outside == []
    assert found.text_pt == pytest.approx(10.0) and found.script_pt >= SMALLEST_PT - 1e-9


@pytest.mark.parametrize("fig", sorted(AUDITED))
def test_rendered_text_inside_its_box(layouts, fig):
    """The text matplotlib draws lies in the box Graphviz reserved for it (the audit's boxes are true)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from implgraph.map.plot import figure
    from implgraph.map.typeset import RC
    L = layouts[fig]
    with matplotlib.rc_context(RC):
        f = figure(L)
        FigureCanvasAgg(f)
        renderer = f.canvas.get_renderer()
        drawn = {t.get_gid(): t.get_window_extent(renderer) for t in f.axes[0].texts}
    scale = f.dpi / 72
    boxes = {f"text-{i}": n.box for i, n in enumerate(L.nodes)}
    boxes.update({f"label-{c.id[1:]}": c.box for c in L.edges if c.text})
    assert set(boxes) <= set(drawn)
    for gid, box in boxes.items():
        b = drawn[gid]
        assert box[0] - 0.5 <= b.x0 / scale and b.x1 / scale <= box[2] + 0.5, gid
        assert box[1] - 0.5 <= b.y0 / scale and b.y1 / scale <= box[3] + 0.5, gid
    texts = [b for b in drawn.values()]
    for i, a in enumerate(texts):           # and no two rendered texts meet
        for b in texts[i + 1:]:
            assert not intersect((a.x0, a.y0, a.x1, a.y1), (b.x0, b.y0, b.x1, b.y1))


def test_conventions(layouts):
    for L in layouts.values():
        crossed = [c for c in L.edges if c.cross]
        assert crossed                                          # non-implications crossed out
        assert {c.color for c in L.edges} <= {"#222222", "#1f5fa8"}     # no claim the engine did not establish
        assert not any(c.layer == "overlay" for c in L.edges)


def test_fig2_reading_order(layouts):
    """Fig. 2: eps-LDP at the top (it implies (k,t)-closeness for k = 1, Theorem 2b, hence every k), the
    t-closeness definitions below it, eps-DP below (k,eps)-DP."""
    y = {n.id: n.y for n in layouts["fig2"].nodes}
    assert y["ldp"] > y["kt-closeness"] > y["mult-t-closeness"]
    assert y["kt-closeness"] > y["kdp"] > y["dp"]


def test_fig1_at_a_single_column_says_its_text_is_smaller(verdicts_file, tmp_path, capsys):
    from implgraph.cli import main
    out = tmp_path / "fig1.svg"
    assert main(["map", "--N", "10", "--verdicts", str(verdicts_file), "--out", str(out)]) == 0
    got = capsys.readouterr()
    err = got.err.strip().splitlines()
    assert len(err) == 1 and "wider than 8.5 cm" in err[0] and "fix: give --width double" in err[0]
    size = float(re.search(r"text ([0-9.]+) pt", got.out).group(1))
    assert size < MIN_TEXT_PT and min(s for _, ss in _font_sizes(out.read_text()) for s in ss) < SMALLEST_PT


# ------------------------------------------------------------------------------------------------
# a quiet command line
# ------------------------------------------------------------------------------------------------

def test_quiet_and_summary(verdicts_file, tmp_path, capsys):
    from implgraph.cli import main
    out = tmp_path / "m.pdf"
    assert main(["-q", "map", "--level", "definitions", "--verdicts", str(verdicts_file), "--out", str(out)]) == 0
    got = capsys.readouterr()
    assert (got.out, got.err) == ("", "") and out.read_bytes()[:4] == b"%PDF"
    assert main(["map", "--level", "definitions", "--verdicts", str(verdicts_file), "--summary"]) == 0
    got = capsys.readouterr()
    assert "conflicts among the papers' claims" in got.out and got.err == ""


def test_figure_command_prints_no_warning(tmp_path, capsys):
    import warnings
    from implgraph.cli import main
    for which in ("fig-6", "fig-7"):
        out = tmp_path / f"{which}.png"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert main(["figure", which, "--out", str(out), "--points", "21"]) == 0
        got = capsys.readouterr()
        assert [str(w.message) for w in caught] == [] and got.err == "" and got.out == f"wrote {out}\n"


def test_overlay_claims_lettered_with_a_key():
    """The overlay's claims (two written by hand, one refuted, one undecided) carry letters on their arrows,
    in the drawing's order, and the key below names each with its label; an established edge keeps its f."""
    import networkx as nx
    from implgraph.map.drawing import COLORS
    from implgraph.map.layout import edge_label, lettered
    D = nx.MultiDiGraph()
    for n in ("x", "y", "z"):
        D.add_node(n, label=n, model="other", family=n)
    base = dict(kind="implies", color=COLORS["established"], layer="established", name="", f="$t^{2}$", cond="",
                label="$t^{2}$")
    D.add_edge("x", "y", **base)
    D.add_edge("x", "z", **dict(base, layer="overlay", color=COLORS["refuted"], name="Lemma 1",
                                label="Lemma 1\n$t^{2}$"))
    D.add_edge("y", "z", **dict(base, layer="overlay", color=COLORS["unknown"], name="Theorem 2", f="",
                                label="Theorem 2"))
    out, key = lettered(D)
    assert [edge_label(d) for _, _, d in sorted(out.edges(data=True))] == ["$t^{2}$", "a", "b"]
    assert key == [("a: Lemma 1, $t^{2}$", COLORS["refuted"]), ("b: Theorem 2", COLORS["unknown"])]
    assert "letter" not in D.edges["x", "z", 0]          # the map drawn is not changed


@pytest.mark.parametrize("which", ["fig-6", "fig-7"])
def test_curve_figures_text_at_least_7pt(which):
    """ekenstedt2022's Figs. 6 and 7 as drawn (SVG, 17.8 cm wide): every text element at least 7 pt as printed,
    the sub- and superscripts of $p_y(a_1)$ and $t_0$ included (mathtext sets them at 0.7 of their text, so
    their text must be at least 10 pt)."""
    from implgraph.commands.figure import render
    svg = render(which, points=5, fmt="svg").decode()
    root = ET.fromstring(svg.encode())
    scale = float(root.get("width").removesuffix("pt")) / float(root.get("viewBox").split()[2])
    assert _page_cm(svg) == pytest.approx(17.8, abs=0.01)
    sizes = [float(m) * scale for m in re.findall(r"font-size: ([0-9.]+)px", svg)]
    assert len(sizes) > 10
    assert min(sizes) >= 7.0 - 1e-9
    # the scripts are there and are the smallest text: a label of 10 pt whose script is 7 pt
    assert "p_y" in svg or "t_0" in svg or max(sizes) == pytest.approx(10.0)
