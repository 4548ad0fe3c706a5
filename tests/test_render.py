"""Writing the drawn map: formats by suffix (SVG with text, PDF, PNG, TikZ, DOT), human labels, bad input."""

import re

import pytest

from conftest import computed_rules
from implgraph.core.errors import InputError
from implgraph.map.drawing import drawing
from implgraph.map.graph import definitions_map, groups_map
from implgraph.map.labels import claim_label, paper_name
from implgraph.map.placement import bezier, control, overlaps, place, sub_curve
from implgraph.map.plot import scene
from implgraph.map.render import FORMATS, render, to_dot
from implgraph.map.tikz import tex_text, to_tikz


@pytest.fixture(scope="module")
def rules():
    return computed_rules()


@pytest.fixture(scope="module")
def small(rules):
    return drawing(groups_map(rules, 4))


@pytest.mark.parametrize("suffix, magic", [(".dot", b"digraph"), (".svg", b"<svg"), (".png", b"\x89PNG"),
                                           (".pdf", b"%PDF"), (".tex", b"\\begin{tikzpicture}")])
def test_render_formats(tmp_path, small, suffix, magic):
    out = tmp_path / f"map{suffix}"
    render(small, out)
    data = out.read_bytes()
    assert magic in data[:2000]
    assert [p.name for p in tmp_path.iterdir()] == [out.name]     # no temporary file left


def test_svg_keeps_text_as_text(tmp_path, small):
    out = tmp_path / "m.svg"
    render(small, out)
    text = out.read_text()
    # every node label is a <text> element (searchable), not glyph paths
    for n, d in small.nodes(data=True):
        first = d["label"].split("\n")[0]
        assert f">{first}<" in text.replace("&#160;", " ") or first in text
    assert "<text" in text and 'id="DejaVuSans' not in text


def test_pdf_and_svg_reproducible(tmp_path, small):
    for suffix in (".svg", ".pdf"):
        a, b = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
        render(small, a)
        render(small, b)
        assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("name", ["map.jpg", "map", "map.eps"])
def test_render_bad_suffix(tmp_path, small, name):
    with pytest.raises(InputError):
        render(small, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_formats_listed():
    assert {".svg", ".pdf", ".png", ".tex", ".dot"} <= set(FORMATS)


def test_dot_text_marks(small):
    text = to_dot(small)
    assert "arrowhead" in text and "tee" in text            # non-implications
    assert "#d62728" in text                                # refuted claims


@pytest.mark.parametrize("level", ["groups", "definitions"])
def test_latex_labels_render(tmp_path, rules, level):
    G = groups_map(rules, 4) if level == "groups" else definitions_map(rules)
    D = drawing(G, labels="latex")
    assert any(d["label"].startswith("$") or ": $" in d["label"] for _, _, d in D.edges(data=True))
    out = tmp_path / "m.png"
    render(D, out, labels="latex")
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_conventions(rules):
    """Non-implications are crossed out; only the other paper's results are dashed."""
    D = drawing(definitions_map(rules))
    for _, _, d in D.edges(data=True):
        assert (d["cross"] == "1") == (d["kind"] == "not-implies")
        dashed = d["style"] == "dashed"
        assert dashed == all(k.split("/")[0] == "domingo-ferrer2015" for k in d["claims"].split("; "))


def test_human_labels(rules):
    D = drawing(definitions_map(rules))
    labels = [d["label"] for _, _, d in D.edges(data=True)]
    text = "\n".join(labels)
    assert "Lemma 2.3" in text and "Theorem 4.1" in text and "Theorem 2b" in text
    assert "ekenstedt2022" not in text and "ldp-mult-t" not in text and "L. " not in text
    assert "Proposition 1 (Domingo-Ferrer 2015)" in text


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


def test_curve_geometry():
    # arc3: control point = midpoint + rad * (dy, -dx); by hand for (0,0) -> (4,0), rad 0.25: (2, -1)
    assert control((0, 0), (4, 0), 0.25) == (2.0, -1.0)
    c = control((0, 0), (4, 0), 0.25)
    assert bezier((0, 0), c, (4, 0), 0.5) == (2.0, -0.5)
    # the part t in [0.25, 0.75] passes through the same middle point, ends on the curve
    p1, c2, p2 = sub_curve((0, 0), c, (4, 0), 0.25, 0.75)
    assert p1 == pytest.approx(bezier((0, 0), c, (4, 0), 0.25))
    assert p2 == pytest.approx(bezier((0, 0), c, (4, 0), 0.75))
    assert bezier(p1, c2, p2, 0.5) == pytest.approx((2.0, -0.5))


def test_place_avoids_taken_boxes():
    taken = [(-10, -10, 110, 10)]          # a box over the whole straight curve
    (cx, cy), anchor = place((0, 0), (50, 0), (100, 0), 30, 12, taken)
    assert not overlaps((cx - 15, cy - 6, cx + 15, cy + 6), taken[0])
    assert anchor is None                  # moved sideways along the curve, not by the ring search


def test_tex_text():
    assert tex_text("a_b & c") == r"a\_b \& c"
    assert tex_text("$x^2$ ε") == r"$x^2$ $\varepsilon$"


def test_tikz_same_positions(rules):
    D = drawing(definitions_map(rules))
    fig, sc = scene(D, "title")
    __import__("matplotlib.pyplot").pyplot.close(fig)
    tex = to_tikz(sc)
    k = sc.scale * 2.54
    coords = {m.group(1): (float(m.group(2)), float(m.group(3)))
              for m in re.finditer(r"\(n(\d+)\) at \(([-0-9.]+),([-0-9.]+)\)", tex)}
    assert len(coords) == len(sc.nodes)
    for i, n in enumerate(sc.nodes):
        assert coords[str(i)] == pytest.approx((n["x"] * k, n["y"] * k), abs=1e-3)
    assert tex.count("{") == tex.count("}")
    assert len(sc.labels) == len(re.findall(r"fill=white", tex))
