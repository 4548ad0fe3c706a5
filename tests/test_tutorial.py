"""The tutorial (docs/tutorial.md): every block runs from an empty directory and prints what the page
shows (``tests/doc_blocks.py`` says how blocks are marked and compared).

The fast test runs the page's blocks in this process; the slow ones run all of them, and, with a wheel
installed in a fresh virtual environment, every command in a real shell: the page's promise that each
command runs from any directory after ``pip install .``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from doc_blocks import ROOT, blocks, console_steps, matches, page_tests, run_page, unmarked_console_blocks

from _plugin_fixtures import EXAMPLE

TUTORIAL = ROOT / "docs" / "tutorial.md"


@pytest.mark.parametrize("name,items", page_tests(TUTORIAL))
def test_tutorial(name, items, tmp_path, monkeypatch, capsys):
    run_page(name, items, tmp_path, monkeypatch, capsys)


def test_every_console_block_is_run():
    assert unmarked_console_blocks(TUTORIAL.read_text(encoding="utf-8")) == []


def test_the_plugin_files_are_the_example_package():
    """The files the tutorial asks a reader to create are the repository's example plugin, which the
    other tests register (tests/_plugin_fixtures.py)."""
    files = {path: body for _, kind, _, body, _, path in blocks(TUTORIAL.read_text(encoding="utf-8"))
             if kind == "file" and path.startswith(EXAMPLE.name + "/")}
    assert sorted(files) == [f"{EXAMPLE.name}/implgraph_delta_disclosure/__init__.py",
                             f"{EXAMPLE.name}/pyproject.toml"]
    for path, body in files.items():
        assert (EXAMPLE.parent / path).read_text(encoding="utf-8") == body, path


def test_the_tutorial_covers_each_use():
    """Verify the papers, check an edge, add a definition as a plugin, levels of a dataset, the map, the
    explorer: each has its step, and each step runs a command of that use."""
    text = TUTORIAL.read_text(encoding="utf-8")
    commands = " ".join(c for _, kind, lang, body, _, _ in blocks(text) if kind == "run" and lang == "console"
                        for c, _ in console_steps(body))
    for use in ("implgraph verify ", "implgraph check-edge ", "pip install ./implgraph-delta-disclosure",
                "implgraph discover ", "--qi ", "implgraph map ", "implgraph path ", "implgraph site "):
        assert use in commands, use


def _shell_steps(text: str):
    """``[(kind, payload)]`` in page order: ``("file", (path, body))`` and ``("run", (command, expected))``."""
    out = []
    for _, kind, lang, body, _, path in blocks(text):
        if kind == "file":
            out.append(("file", (path, body)))
        elif lang == "console":
            out += [("run", step) for step in console_steps(body)]
    return out


@pytest.mark.slow
def test_the_tutorial_in_a_shell_after_installing_the_wheel(tmp_path):
    """Build a wheel of the checkout, install it in a fresh venv (its dependencies shared with this
    interpreter), and run every command of the tutorial in a real shell from an empty folder."""
    from test_table import _share_site_packages
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    _share_site_packages(venv)
    py = venv / "bin" / "python"
    wheels = tmp_path / "wheels"
    subprocess.run([str(py), "-m", "pip", "wheel", "--no-deps", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True)
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", str(next(wheels.glob("implgraph-*.whl")))],
                   check=True, capture_output=True)
    work = tmp_path / "work"
    work.mkdir()
    # the plugin's dependency, implgraph, is the wheel just installed (its build backend comes from the index)
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", VIRTUAL_ENV=str(venv))
    for kind, payload in _shell_steps(TUTORIAL.read_text(encoding="utf-8")):
        if kind == "file":
            path, body = payload
            (work / path).parent.mkdir(parents=True, exist_ok=True)
            (work / path).write_text(body, encoding="utf-8")
            continue
        command, expected = payload
        proc = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True,
                              timeout=1200)
        assert proc.returncode == 0, f"`{command}`: {proc.stderr[-1500:]}"
        if not re.match(r"pip install ", command):
            assert matches(expected, proc.stdout), f"`{command}` printed\n{proc.stdout}"
    found = subprocess.run([str(py), "-c", "import implgraph, implgraph_delta_disclosure as p; "
                            "print(implgraph.__file__, p.__file__)"], cwd=work, capture_output=True, text=True)
    assert "site-packages" in found.stdout and str(ROOT) not in found.stdout, found.stdout + found.stderr


def test_the_dataset_is_the_tests_patients():
    """The ten records the tutorial and the README ask a reader to save are tests/data/microdata/patients.csv,
    whose levels tests/test_microdata.py derives by hand."""
    want = (ROOT / "tests" / "data" / "microdata" / "patients.csv").read_text(encoding="utf-8")
    for page in (TUTORIAL, ROOT / "README.md"):
        [body] = [b for _, kind, _, b, _, path in blocks(page.read_text(encoding="utf-8"))
                  if kind == "file" and path == "patients.csv"]
        assert body == want, page
