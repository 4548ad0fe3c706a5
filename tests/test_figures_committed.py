"""The committed figures (docs/fig1.*, docs/fig2.*, docs/fig-6.png, docs/fig-7.png) are what a fresh run draws:
``scripts/figures.py --check`` regenerates what each says from the engine's verdicts and compares it with
docs/figures.json and with the digest each file carries.  A figure that shows a verdict the engine no longer
computes fails here (so it fails CI)."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("figures_script", ROOT / "scripts" / "figures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def now(script):
    return script.fresh()


def test_committed_figures_are_fresh(script, now):
    assert script.check(now) == []


def test_a_stale_figure_is_caught(script, now, tmp_path, monkeypatch):
    """A copy of the docs where Fig. 2 draws one arrow less (as a stale figure would) and Fig. 6 carries
    another digest: both reported."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for path in (ROOT / "docs").glob("fig*"):
        shutil.copy(path, docs / path.name)
    manifest = json.loads((docs / "figures.json").read_text())
    manifest["fig2"]["content"]["arrows"].pop()
    (docs / "figures.json").write_text(json.dumps(manifest))
    svg = docs / "fig1.svg"
    svg.write_text(svg.read_text().replace(now["figures"]["fig1"]["digest"], "0" * 64))
    monkeypatch.setattr(script, "DOCS", docs)
    monkeypatch.setattr(script, "MANIFEST", docs / "figures.json")
    monkeypatch.setattr(script, "ROOT", tmp_path)
    problems = script.check(now)
    assert any(p.startswith("fig2: what it says changed") for p in problems)
    assert any(p.startswith("docs/fig1.svg: carries 0000") for p in problems)
    assert len(problems) == 2


def test_every_committed_file_carries_its_digest(script, now):
    for name, fig in now["figures"].items():
        files = sorted((ROOT / "docs").glob(f"{name}.*"))
        assert files, name
        for path in files:
            assert script.committed_digest(path) == fig["digest"], path
