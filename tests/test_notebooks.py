"""The example notebooks (examples/notebooks/*.ipynb) run from top to bottom in a fresh kernel and
print what they show: every text output (verdicts, levels, edges, witnesses) equals the stored one,
timings aside. HTML, LaTeX and SVG displays are not compared (layout).

Needs nbclient, nbformat and ipykernel (the ``test`` extra); skipped with a message without them.
After changing a notebook, store it executed (from the repository root)::

    python -c "import sys, nbformat, nbclient; nb = nbformat.read(sys.argv[1], 4); \
    nbclient.NotebookClient(nb, kernel_name='python3').execute(); nbformat.write(nb, sys.argv[1])" NOTEBOOK
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "examples" / "notebooks").glob("*.ipynb"))


def _missing() -> str | None:
    for module in ("nbclient", "nbformat", "ipykernel"):
        try:
            __import__(module)
        except ImportError:
            return module
    return None


def _texts(nb) -> list:
    """Per code cell: its text outputs (stdout and the plain-text results), normalised."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        texts = []
        for o in cell.get("outputs", []):
            if o.output_type == "error":
                texts.append(f"ERROR {o.ename}: {o.evalue}")
            elif o.output_type == "stream" and o.name == "stdout":
                texts.append(o.text)
            elif "data" in o and "text/plain" in o.data:
                texts.append(o.data["text/plain"])
        out.append([_normal(t) for t in texts])
    return out


def _normal(text: str) -> str:
    text = re.sub(r"\d+(\.\d+)? ?s\b", "T s", text)          # timings
    return " ".join(text.split())


def test_there_are_notebooks():
    assert {p.stem for p in NOTEBOOKS} >= {"verify_a_claim", "add_a_definition"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_shows_the_stored_results(path, tmp_path, monkeypatch):
    missing = _missing()
    if missing:
        pytest.skip(f"{missing} is not installed (pip install '.[test]')")
    import nbformat
    from nbclient import NotebookClient
    stored = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    NotebookClient(fresh, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    got, want = _texts(fresh), _texts(stored)
    assert not any(t.startswith("ERROR") for cell in got for t in cell), got
    assert any(want), f"{path.name}: store the notebook with its outputs (executed)"
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"{path.name}, code cell {i + 1}"
