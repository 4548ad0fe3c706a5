"""Fig. 1 and Fig. 2 of ekenstedt2022 as drawn by `implgraph map`: one layout whatever is installed, no
overlapping text.

The layout is computed in Python, so the picture must not change when Graphviz's ``dot`` is on the
PATH: each figure is rendered twice in a subprocess, once with a ``dot`` on the PATH (a stand-in that
records any call) and once with no ``dot`` at all, and the node positions (read from the SVG's text
elements) and the files must agree.  The text boxes are measured by matplotlib's renderer on the
figure itself: node boxes, edge labels, the title and the legend must not overlap, and no edge label
may cover a cross mark.
"""

import itertools
import json
import os
import re
import stat
import subprocess
import sys

import pytest

from conftest import computed_rules
from implgraph.commands.map import verify_edges
from implgraph.map.deduce import analyse
from implgraph.map.drawing import drawing
from implgraph.map.graph import definitions_map, groups_map
from implgraph.map.placement import overlaps
from implgraph.map.plot import scene

FIGURES = {"fig1": ["--N", "10"], "fig2": ["--level", "definitions"]}
RUN = "import sys; from implgraph.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture(scope="module")
def verdicts_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("verdicts") / "verdicts.json"
    path.write_text(json.dumps(verify_edges()))
    return path


def _path_without_dot() -> str:
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.access(os.path.join(d, "dot"), os.X_OK)]
    return os.pathsep.join(keep)


def _fake_dot(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    marker = tmp_path / "dot-was-called"
    dot = bindir / "dot"
    dot.write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 1\n")
    dot.chmod(dot.stat().st_mode | stat.S_IEXEC)
    return bindir, marker


def _svg_texts(svg: str) -> list:
    """``[(text, x, y)]`` of the SVG's text elements (matplotlib writes ``svg.fonttype = none`` text)."""
    out = []
    for m in re.finditer(r"<text\b([^>]*)>(.*?)</text>", svg, re.S):
        attrs, body = m.group(1), re.sub(r"<[^>]+>", "", m.group(2))
        x = re.search(r'\bx="([-0-9.e]+)"', attrs)
        y = re.search(r'\by="([-0-9.e]+)"', attrs)
        tr = re.search(r'translate\(([-0-9.e]+)[ ,]+([-0-9.e]+)\)', attrs)
        if tr:
            out.append((body, float(tr.group(1)), float(tr.group(2))))
        elif x and y:
            out.append((body, float(x.group(1)), float(y.group(1))))
    return sorted(out)


@pytest.mark.slow
@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_same_layout_with_and_without_dot(tmp_path, verdicts_file, fig):
    bindir, marker = _fake_dot(tmp_path)
    without = _path_without_dot()
    runs = {}
    for name, path in (("with-dot", str(bindir) + os.pathsep + without), ("without-dot", without)):
        out = tmp_path / f"{fig}-{name}.svg"
        env = dict(os.environ, PATH=path)
        proc = subprocess.run([sys.executable, "-c", RUN, "map", *FIGURES[fig], "--verdicts", str(verdicts_file),
                               "--out", str(out)], env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        runs[name] = out.read_text()
    assert not marker.exists(), "the map called `dot`"
    a, b = _svg_texts(runs["with-dot"]), _svg_texts(runs["without-dot"])
    assert len(a) > 10 and a == b
    assert runs["with-dot"] == runs["without-dot"]


def _figure(rules, fig):
    if fig == "fig1":
        G = groups_map(rules, 10)
        D = drawing(G, analyse(G))
    else:
        D = drawing(definitions_map(rules))
    return scene(D, "Implication map at N = 10: each definition at each group size k (cf. Fig. 1)")


@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_no_overlapping_text(fig):
    import matplotlib.pyplot as plt
    figure, sc = _figure(computed_rules(), fig)
    try:
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        ax = figure.axes[0]
        boxes = []
        for t in ax.texts + [ax.title]:
            if not t.get_text().strip():
                continue
            patch = t.get_bbox_patch()
            b = (patch or t).get_window_extent(renderer)
            boxes.append((t.get_text(), (b.x0, b.y0, b.x1, b.y1)))
        legend = ax.get_legend().get_window_extent(renderer)
        boxes.append(("legend", (legend.x0, legend.y0, legend.x1, legend.y1)))
    finally:
        plt.close(figure)
    assert len(boxes) == len(sc.nodes) + len(sc.labels) + 2
    clashes = [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if overlaps(ba, bb)]
    assert clashes == []
    # no edge label covers a cross mark
    for lab in sc.labels:
        assert not any(overlaps(lab["box"], m["box"]) for m in sc.marks), lab["text"]


@pytest.mark.parametrize("fig", sorted(FIGURES))
def test_figure_conventions(fig):
    import matplotlib.pyplot as plt
    figure, sc = _figure(computed_rules(), fig)
    plt.close(figure)
    crossed = [e for e in sc.edges if e["cross"]]
    assert crossed and len(sc.marks) == len(crossed)            # every non-implication crossed out
    assert any(e["dashed"] for e in sc.edges)                    # the other paper's results
    texts = [lab["text"] for lab in sc.labels]
    assert not any("ekenstedt2022" in t or re.search(r"[a-z]/[a-z]|[a-z]-\d", t) for t in texts)
    assert any(e["text"].startswith("dashed: result of") for e in sc.legend)
