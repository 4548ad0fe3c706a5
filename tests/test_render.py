"""Writing the drawn map: formats by suffix (SVG with text, PDF, PNG, TikZ, DOT), widths, labels typeset from
sympy, what is drawn by default and in the overlay, human claim names, bad input."""

import re
import shutil
import subprocess

import pytest
import sympy

from conftest import computed_rules
from implgraph.core.errors import InputError
from implgraph.map.drawing import COLORS, conditions, drawing, f_label
from implgraph.map.graph import definitions_map, groups_map
from implgraph.map.labels import claim_label, math, node_label, paper_name, split, to_latex
from implgraph.map.layout import edge_label, layout
from implgraph.map.render import FORMATS, render, to_dot, width_cm
from implgraph.map.tikz import to_tikz

T, EPS, N = sympy.Symbol("t", real=True), sympy.Symbol("eps", real=True), sympy.Symbol("N", integer=True)


@pytest.fixture(scope="module")
def rules():
    return computed_rules()


@pytest.fixture(scope="module")
def small(rules):
    return drawing(groups_map(rules, 4))


@pytest.fixture(scope="module")
def fig2(rules):
    return drawing(definitions_map(rules))


@pytest.mark.parametrize("suffix, magic", [(".dot", b"digraph"), (".svg", b"<svg"), (".png", b"\x89PNG"),
                                           (".pdf", b"%PDF"), (".tex", b"\\begin{tikzpicture}")])
def test_render_formats(tmp_path, small, suffix, magic):
    out = tmp_path / f"map{suffix}"
    report = render(small, out)
    assert magic in out.read_bytes()[:2000]
    assert [p.name for p in tmp_path.iterdir()] == [out.name]     # no temporary file left
    assert report["format"] == suffix.lstrip(".")


def test_svg_keeps_text_as_text(tmp_path, fig2):
    out = tmp_path / "m.svg"
    render(fig2, out)
    text = out.read_text()
    assert ">mult. <" in text.replace("&#160;", " ") or "mult." in text
    assert "<text" in text and 'id="DejaVuSans' not in text      # text, not glyph paths


@pytest.mark.parametrize("width, cm", [("single", 8.5), ("double", 17.8), ("12", 12.0)])
def test_width_is_the_page(tmp_path, fig2, width, cm):
    out = tmp_path / "m.svg"
    report = render(fig2, out, width=width)
    page = float(re.search(r'<svg[^>]*width="([0-9.]+)pt"', out.read_text()).group(1))
    assert page == pytest.approx(cm / 2.54 * 72, abs=0.01) and report["width_cm"] == cm


@pytest.mark.parametrize("bad", ["triple", "0", "-3", "1e9", "nan", "inf", "8.5in"])
def test_bad_width(bad):
    with pytest.raises(InputError, match="--width"):
        width_cm(bad)


@pytest.mark.slow
def test_reproducible(tmp_path, fig2):
    for suffix in (".svg", ".pdf", ".tex", ".png"):
        a, b = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
        render(fig2, a)
        render(fig2, b)
        assert a.read_bytes() == b.read_bytes(), suffix


@pytest.mark.parametrize("name", ["map.jpg", "map", "map.eps"])
def test_render_bad_suffix(tmp_path, small, name):
    with pytest.raises(InputError):
        render(small, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_formats_listed():
    assert {".svg", ".pdf", ".png", ".tex", ".dot"} <= set(FORMATS)


def test_dot_text(small):
    text = to_dot(small)
    assert "arrowhead=tee" in text and "texlbl=" in text          # non-implications; LaTeX labels for dot2tex


# ------------------------------------------------------------------------------------------------
# what is drawn
# ------------------------------------------------------------------------------------------------

def test_established_by_default_overlay_on_request(rules):
    G = definitions_map(rules)
    plain = drawing(G)
    assert {d["layer"] for _, _, d in plain.edges(data=True)} == {"established"}
    assert not [d for _, _, d in plain.edges(data=True) if d["color"] in (COLORS["refuted"], COLORS["unknown"])]
    over = drawing(G, overlay="claims")
    red = [d for _, _, d in over.edges(data=True) if d["layer"] == "overlay"]
    # Lemma 1 and Proposition 1 are refuted by the engine (README): drawn in red, named as the papers name them
    assert red and all(d["color"] == COLORS["refuted"] for d in red if d["status"] == "refuted")
    names = "\n".join(d["label"] for d in red)
    assert "Lemma 1: refuted" in names and "Proposition 1 (Domingo-Ferrer 2015)" in names
    L = layout(over, 17.8)
    assert any("refutes" in e.text.label for e in L.legend)
    assert not any("refutes" in e.text.label for e in layout(plain, 17.8).legend)


def test_conventions(fig2):
    """Non-implications are crossed out; only the other paper's results are dashed."""
    for _, _, d in fig2.edges(data=True):
        assert (d["cross"] == "1") == (d["kind"] == "not-implies")
        dashed = d["style"] == "dashed"
        assert dashed == all(k.split("/")[0] == "domingo-ferrer2015" for k in d["claims"].split("; "))


def test_f_typeset_by_sympy(rules):
    # f as the paper prints it: Theorem 2a eps = ln(t^2), Theorem 4.1 eps = ln t and t = e^eps
    assert f_label(sympy.log(T ** 2), T, EPS) == r"$\epsilon = \ln{\left(t^{2} \right)}$"
    assert f_label(sympy.exp(EPS), EPS, T) == r"$t = e^{\epsilon}$"
    assert f_label(T, T, T) == ""                                  # the level carries over: no label
    labels = [d["label"] for _, _, d in drawing(definitions_map(rules)).edges(data=True)]
    text = "\n".join(labels)
    assert r"\epsilon = \ln{\left(t^{2} \right)}" in text and r"t = e^{\epsilon}" in text
    for label in labels:        # no caret, exp or eps outside math
        for is_math, part in split(label.replace("\n", " ")):
            assert is_math or not re.search(r"\^|exp|eps|\*\*", part), label


def test_conditions(rules):
    by = {r.key: r for r in rules}
    assert conditions(by["ekenstedt2022/theorem-4.1"]) == [r"$k_{\mathrm{DP}} = N - k_{\mathrm{Clo}}$"]
    assert conditions(by["ekenstedt2022/lemma-2.3#reading"]) == [r"$\left|{E}\right| \geq k$", r"$2 k \leq N$"]
    assert conditions(by["ekenstedt2022/theorem-2b"]) == ["$k = 1$"]            # N >= 2: the map's own
    assert conditions(by["ekenstedt2022/theorem-3b"]) == [r"$k \geq 2$"]       # 1 <= k <= N - 1: declared


def test_numbered_conditions():
    d = {"name": "", "f": r"$t^{2}$", "cond": "$k = 1$", "label": "$t^{2}$\n$k = 1$"}
    assert edge_label(d) == "$t^{2}$\n$k = 1$" and edge_label(d, {"$k = 1$": 3}) == "$t^{2}$\n(3)"


def test_math_and_latex():
    assert math(((N - 1) * sympy.exp(EPS) + 1) / N) == r"$\left(\left(N - 1\right) e^{\epsilon} + 1\right) / N$"
    assert node_label("(3,ε)-DP") == r"$(3, \epsilon)$-DP" and node_label("mult. t-closeness") == "mult. $t$-closeness"
    assert node_label("(ε,delta)-LDP") == r"$(\epsilon , \delta)$-LDP"
    assert to_latex("a_b & 50% $x_1$") == r"a\_b \& 50\% $x_1$"
    assert split(r"costs \$5 $x$") == [(False, "costs $5 "), (True, "x")]


def test_human_labels(rules):
    D = drawing(definitions_map(rules), labels="claims", overlay="claims")
    text = "\n".join(d["label"] for _, _, d in D.edges(data=True))
    assert "Lemma 2.3" in text and "Theorem 4.1" in text and "Theorem 2b" in text
    assert "ekenstedt2022" not in text and "ldp-mult-t" not in text and "L. " not in text
    assert "Proposition 1 (Domingo-Ferrer 2015)" in text


def test_no_labels(rules):
    D = drawing(definitions_map(rules), labels="none")
    assert all(d["label"] == "" for _, _, d in D.edges(data=True))


@pytest.mark.parametrize("source, printed, paper, basis, expected", [
    ("Lemma 2, point 3, Section IV-A; proof in Appendix B (Table V)", "", "p2022", "printed", "Lemma 2.3"),
    ("Theorem 2, first bullet, Section IV-A", "", "p2022", "printed", "Theorem 2a"),
    ("Theorem 4, point 3, Section IV-C", "", "p2022", "reading", "Theorem 4.3 (proof)"),
    ("Proposition 1 and its proof, Section 4", "", "domingo-ferrer2015", "printed",
     "Proposition 1 (Domingo-Ferrer 2015)"),
    ("p2022 Fig. 1 ('dashed lines')", "Lemma 1 ([5]): A => B", "domingo-ferrer2015", "printed", "Lemma 1 ([5])"),
    ("Section IV-C, paragraph after Theorem 4", "It follows", "p2022", "printed", "remark after Theorem 4"),
    ("anything", "", "p2022", "min-class-size", "by definition"),
])
def test_claim_label(source, printed, paper, basis, expected):
    assert claim_label(source, printed, paper, basis) == expected


def test_paper_name():
    assert paper_name("domingo-ferrer2015") == "Domingo-Ferrer 2015"


# ------------------------------------------------------------------------------------------------
# TikZ
# ------------------------------------------------------------------------------------------------

def test_tikz_same_geometry(fig2):
    L = layout(fig2, 8.5)
    tex = to_tikz(L)
    texts = re.findall(r"\\node\[[^\]]*\] at \(([-0-9.]+)bp,([-0-9.]+)bp\)", tex)
    expected = [(n.text.x, n.text.y) for n in L.nodes] + [(c.text.x, c.text.y) for c in L.edges if c.text]
    assert sorted((round(float(x), 2), round(float(y), 2)) for x, y in texts) == \
        sorted((round(x, 2), round(y, 2)) for x, y in expected + [(e.text.x, e.text.y) for e in L.legend])
    assert tex.count("{") == tex.count("}") and "content sha256" in tex
    assert r"\ln{\left(t^{2} \right)}" in tex and "^" not in re.sub(r"\$[^$]*\$", "", tex)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed (texlive-latex-base, "
                                                                "texlive-pictures)")
def test_tikz_compiles(tmp_path, fig2):
    (tmp_path / "fig.tex").write_text(to_tikz(layout(fig2, 8.5)))
    (tmp_path / "paper.tex").write_text("\\documentclass{article}\\usepackage{tikz}\\begin{document}"
                                        "\\input{fig.tex}\\end{document}\n")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:]
