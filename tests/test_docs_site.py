"""The documentation site: it builds with ``mkdocs build --strict`` without the network and loads nothing
from it; the runnable blocks of its pages print what they show; and nothing a user reads (the README,
the site, the command-line help, the package's docstrings and messages, the benchmarks and examples)
speaks of the project's internal milestones.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from doc_blocks import MILESTONE, ROOT, page_tests, run_page, unmarked_console_blocks

DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if p != DOCS / "tutorial.md")   # the tutorial: test_tutorial.py

#: elements and CSS rules that make a browser load something: none may point off the site
_RESOURCE = re.compile(r"<(?:script|link|img|iframe|source|audio|video|embed|object)\b[^>]*?"
                       r"\b(?:src|href|data|srcset)\s*=\s*[\"']?\s*(?:https?:)?//", re.I)
_CSS_REMOTE = re.compile(r"(?:url\(\s*[\"']?\s*(?:https?:)?//|@import\s+[\"']?(?:url\()?\s*[\"']?(?:https?:)?//)",
                         re.I)
_KNOWN_REMOTE = re.compile(r"cdnjs|googleapis|googletagmanager|google-analytics|jsdelivr|unpkg", re.I)


@pytest.mark.parametrize("name,items", [p for page in PAGES for p in page_tests(page)])
def test_page_blocks(name, items, tmp_path, monkeypatch, capsys):
    run_page(name, items, tmp_path, monkeypatch, capsys)


def test_every_console_block_of_the_site_is_run():
    """A shell session a page shows is run and compared (an excerpt that is no command is ``text``)."""
    unmarked = {p.relative_to(ROOT).as_posix(): unmarked_console_blocks(p.read_text(encoding="utf-8"))
                for p in sorted(DOCS.rglob("*.md"))}
    assert {page: lines for page, lines in unmarked.items() if lines} == {}


def remote_loads(site: Path) -> list:
    """``[(file, excerpt)]`` of everything in a built site that a browser would fetch from the network."""
    found = []
    for path in site.rglob("*"):
        if path.suffix not in (".html", ".css", ".js") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        patterns = [_RESOURCE, _KNOWN_REMOTE] + ([_CSS_REMOTE] if path.suffix in (".css", ".html") else [])
        for pattern in patterns:
            found += [(path.relative_to(site).as_posix(), m.group(0)[:120]) for m in pattern.finditer(text)]
    return found


def test_remote_loads_are_found():
    """The scan finds what a browser would fetch, and not mere links to other sites."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        site = Path(d)
        (site / "a.html").write_text('<a href="https://github.com/x">x</a><script src="js/local.js"></script>'
                                     '<link rel="stylesheet" href="css/x.css">')
        (site / "b.css").write_text("body { background: url(img/x.png) }")
        assert remote_loads(site) == []
        (site / "c.html").write_text('<script src="https://cdnjs.cloudflare.com/x.js"></script>')
        (site / "d.css").write_text("@import url(//fonts.example.org/f.css);")
        (site / "e.html").write_text("<img src='http://example.org/i.png'>")
        assert sorted(f for f, _ in remote_loads(site)) == ["c.html", "c.html", "d.css", "e.html"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built with ``mkdocs build --strict`` in a process that cannot open a network connection."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
        pytest.skip("mkdocs is not installed (pip install '.[docs]')")
    out = tmp_path_factory.mktemp("site") / "site"
    offline = ("import socket, sys\n"
               "def deny(*a, **k):\n"
               "    raise OSError('the documentation build must not use the network')\n"
               "socket.socket.connect = socket.socket.connect_ex = deny\n"
               "socket.create_connection = socket.getaddrinfo = deny\n"
               "from mkdocs.__main__ import cli\n"
               "sys.argv = ['mkdocs', 'build', '--strict', '--quiet', '--site-dir', sys.argv[1]]\n"
               "cli()\n")
    proc = subprocess.run([sys.executable, "-c", offline, str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return out


def test_site_builds_strict_offline_and_loads_nothing_remote(site):
    assert (site / "index.html").is_file() and (site / "tutorial.html").is_file()
    assert remote_loads(site) == []


def test_site_has_the_generated_references(site):
    """The command-line reference holds every command's help; the results page its generated table."""
    from implgraph.cli import build_parser
    cli = (site / "cli.html").read_text(encoding="utf-8")
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name in sub.choices:
        assert f"usage: implgraph {name}" in cli, name
    assert "<!-- cli:help -->" not in cli


def test_no_internal_milestones_in_the_built_site(site):
    """What the site shows, the API reference's docstrings and the generated help included."""
    hits = []
    for path in site.rglob("*.html"):
        text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
        hits += [(path.name, m.group(0)) for m in MILESTONE.finditer(text)]
    assert hits == []


def _user_facing_files():
    yield ROOT / "README.md"
    yield ROOT / "mkdocs.yml"
    for folder, pattern in ((DOCS, "*.md"), (ROOT / "implgraph", "*.py"), (ROOT / "implgraph", "*.js"),
                            (ROOT / "benchmarks", "*.py"), (ROOT / "scripts", "*.py"), (ROOT / "examples", "*")):
        yield from (p for p in sorted(folder.rglob(pattern)) if p.is_file() and "__pycache__" not in p.parts)


def test_no_internal_milestones_where_a_user_reads():
    """README, docs, the package's source (docstrings, help and messages), benchmarks, scripts, examples."""
    hits = []
    for path in _user_facing_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        hits += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in MILESTONE.finditer(text)]
    assert hits == []


def test_no_internal_milestones_in_the_help():
    from implgraph.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    texts = [parser.format_help()] + [p.format_help() for p in sub.choices.values()]
    assert [m.group(0) for t in texts for m in MILESTONE.finditer(t)] == []


def test_the_milestone_pattern():
    for text in ("since stop 29", "at stop 26", "issue 12", "(issue #31)", "Stop 3", "session notes"):
        assert MILESTONE.search(text), text
    for text in ("the search stops as soon as", "stopped after 120 s", "an issue with the solver", "non-stop"):
        assert not MILESTONE.search(text), text
