"""Regenerate the committed figures, or check that they are what a fresh run draws.

    python scripts/figures.py            # rewrite docs/fig1.*, docs/fig2.*, docs/fig-6.png, docs/fig-7.png
    python scripts/figures.py --check    # exit 1 if a committed figure is not what a fresh run draws

The maps are drawn from the verdicts the engine computes (``implgraph verify``, cached by content), never
from the data's ``expect:``.  Each figure is written by the same code as ``implgraph map`` / ``implgraph
figure``, and ``docs/figures.json`` records what each says: a map's content (its nodes, arrows with their
labels and styles, legend: :meth:`implgraph.map.layout.Layout.content`, without positions) and a curve
figure's digest of its points.  ``--check`` recomputes them and compares with ``docs/figures.json`` (a
readable difference when they differ) and with the digest every committed file carries in its metadata,
so a figure that shows a stale verdict fails CI (``tests/test_figures_committed.py``) whatever Graphviz
version placed its boxes.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MANIFEST = DOCS / "figures.json"

#: the maps: name, the `implgraph map` level and N, the journal width, the formats written (Fig. 1 at N = 6
#: records: 18 cm high, within a journal page; at N = 10 it is 30 cm)
MAPS = (
    {"name": "fig2", "level": "definitions", "N": None, "width": "single", "formats": (".svg", ".pdf", ".tex"),
     "command": "implgraph map --level definitions --width single --out docs/fig2.svg"},
    {"name": "fig1", "level": "groups", "N": 6, "width": "double", "formats": (".svg", ".pdf", ".tex"),
     "command": "implgraph map --N 6 --width double --out docs/fig1.svg"},
)
#: the curve figures: name, points, format
CURVES = ({"name": "fig-6", "points": 201, "command": "implgraph figure fig-6 --out docs/fig-6.png"},
          {"name": "fig-7", "points": 201, "command": "implgraph figure fig-7 --out docs/fig-7.png"})


def _map_layout(spec):
    """The layout of one map, as ``implgraph map`` computes it."""
    from implgraph.commands.map import build
    from implgraph.map.drawing import drawing
    from implgraph.map.layout import layout
    from implgraph.map.render import width_cm
    args = argparse.Namespace(N=spec["N"], level=spec["level"], verdicts=None, verify=False, theorems=None)
    m = build(args)
    D = drawing(m["shown"], m["an"] if m["level"] == "groups" else None)
    return layout(D, width_cm(spec["width"]))


def fresh() -> dict:
    """What each figure says when computed now: ``{name: {...}}`` (maps' content, curves' digest), and the
    layouts and bytes to write."""
    from implgraph.commands.figure import draw as draw_curves
    out, files = {}, {}
    for spec in MAPS:
        L = _map_layout(spec)
        out[spec["name"]] = {"command": spec["command"], "digest": L.digest(), "content": L.content()}
        files[spec["name"]] = L
    for spec in CURVES:
        data, digest = draw_curves(spec["name"], spec["points"], "png")
        out[spec["name"]] = {"command": spec["command"], "digest": digest}
        files[spec["name"]] = data
    return {"figures": out, "files": files}


def write(now) -> list:
    """Write every figure and the manifest; the paths written."""
    from implgraph.io.output import write_output
    from implgraph.map.render import write_layout
    written = []
    for spec in MAPS:
        for suffix in spec["formats"]:
            path = DOCS / f"{spec['name']}{suffix}"
            write_layout(now["files"][spec["name"]], path)
            written.append(path)
    for spec in CURVES:
        path = DOCS / f"{spec['name']}.png"
        write_output(path, now["files"][spec["name"]])
        written.append(path)
    write_output(MANIFEST, json.dumps(now["figures"], indent=1, sort_keys=True) + "\n")
    return written + [MANIFEST]


#: where each format keeps the digest of what it draws
_DIGEST = re.compile(rb"(?:content|curves) sha256 ([0-9a-f]{64})")


def committed_digest(path: Path) -> str | None:
    """The digest a committed figure carries (SVG/PNG description, PDF subject, TikZ comment), or None."""
    if not path.exists():
        return None
    data = path.read_bytes()
    if path.suffix == ".png":
        from PIL import Image
        with Image.open(path) as im:
            data = str(im.info.get("Description", "")).encode()
    found = _DIGEST.search(data)
    return found.group(1).decode() if found else None


def check(now) -> list:
    """The differences between the committed figures and ``now`` (empty: up to date)."""
    problems = []
    try:
        recorded = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        recorded = {}
    for name, fig in now["figures"].items():
        old = recorded.get(name)
        if old != fig:
            a = json.dumps(old, indent=1, sort_keys=True).splitlines()
            b = json.dumps(fig, indent=1, sort_keys=True).splitlines()
            diff = "\n".join(difflib.unified_diff(a, b, "docs/figures.json", "fresh run", lineterm="", n=1))
            problems.append(f"{name}: what it says changed\n{diff}")
        formats = next((s["formats"] for s in MAPS if s["name"] == name), (".png",))
        for suffix in formats:
            path = DOCS / f"{name}{suffix}"
            got = committed_digest(path)
            if got != fig["digest"]:
                problems.append(f"{path.relative_to(ROOT)}: carries {got or 'no digest'}, a fresh run draws "
                                f"{fig['digest']}")
    return problems


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="compare with the committed figures; exit 1 if they differ")
    args = p.parse_args(argv)
    now = fresh()
    if args.check:
        problems = check(now)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print("the committed figures are stale; fix: run python scripts/figures.py", file=sys.stderr)
            return 1
        print(f"{len(now['figures'])} figures up to date")
        return 0
    for path in write(now):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
