"""The README: its examples print what it shows, from an empty directory; it stays short; and the
machinery that runs the documentation's blocks (``tests/doc_blocks.py``) compares what it should.

The README's marked blocks run as one page in a fresh temporary directory (see ``doc_blocks``); the
tutorial's in ``tests/test_tutorial.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from doc_blocks import MILESTONE, ROOT, blocks, console_steps, matches, page_tests, run_page, unmarked_console_blocks

README = ROOT / "README.md"
MAX_WORDS = 1500



@pytest.mark.parametrize("name,items", page_tests(README))
def test_readme_examples(name, items, tmp_path, monkeypatch, capsys):
    run_page(name, items, tmp_path, monkeypatch, capsys)


def test_readme_is_short():
    """At most 1,500 words, counted as `wc -w` counts them (code blocks and comments included)."""
    words = len(README.read_text(encoding="utf-8").split())
    assert words <= MAX_WORDS, f"README.md has {words} words (at most {MAX_WORDS}): move text to docs/"


def test_readme_quick_start_is_the_ci_job():
    """The README's two quick-start commands: one installs and runs the main job, one the tests; CI runs
    the same test command and the main job."""
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [ln for ln in quick.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert commands == [
        "python -m venv .venv && . .venv/bin/activate && pip install . && implgraph verify",
        "python -m venv .venv && . .venv/bin/activate && pip install '.[test]' && python -m pytest -q -n 2"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest -q -n 2" in ci and "implgraph verify" in ci


def test_every_console_block_is_run():
    """Every shell session the README shows is run (an excerpt that is no command is ``text``)."""
    assert unmarked_console_blocks(README.read_text(encoding="utf-8")) == []


def test_no_internal_milestones_in_the_readme():
    assert MILESTONE.findall(README.read_text(encoding="utf-8")) == []


# -- the block runner itself ----------------------------------------------------------------------

_PAGE = """
<!-- runnable -->
```console
$ implgraph verify p/claim-1 \\
    p/claim-2
p/claim-1  proved   0.61s  A => B.
           proved for every parameter value ...
...
2 verdicts: 1 proved, 1 refuted
```

<!-- file: plugin/pyproject.toml -->
```toml
[project]
```

<!-- runnable slow -->
```bash
ls
```

```console
$ implgraph not-marked
```
"""


def test_blocks_marks_and_continued_commands():
    found = blocks(_PAGE)
    assert [(kind, lang, slow, path) for _, kind, lang, _, slow, path in found] == [
        ("run", "console", False, None), ("file", "toml", False, "plugin/pyproject.toml"),
        ("run", "bash", True, None)]
    [(command, expected)] = console_steps(found[0][3])
    assert command == "implgraph verify p/claim-1 p/claim-2"
    assert expected[0] == "p/claim-1  proved   0.61s  A => B."
    assert unmarked_console_blocks(_PAGE) == [22]


def test_the_output_must_be_the_shown_one():
    shown = ["p/claim-1  proved   0.61s  A => B.", "           proved for every parameter value ...",
             "...", "2 verdicts: 1 proved, 1 refuted"]
    good = ("p/claim-1 proved 12.5s A => B.\n   proved for every parameter value (vertex): long text\n"
            "p/claim-2 refuted 0.1s C\n   witness\n2 verdicts: 1 proved, 1 refuted\n")
    assert matches(shown, good)
    assert matches(shown, good.replace("p/claim-2 refuted 0.1s C\n   witness\n", ""))   # ... may be no line
    # each of these differs in what matters: a verdict, a count, a line the shown one does not begin,
    # a line missing, a line too many at the end
    for bad in (good.replace("A => B. ", "A => B.").replace("proved 12.5s", "refuted 12.5s"),
                good.replace("1 refuted", "2 refuted"),
                good.replace("proved for every", "proved for some"),
                "p/claim-1 proved 1s A => B.\n2 verdicts: 1 proved, 1 refuted\n",
                good + "regression: p/claim-1\n"):
        assert not matches(shown, bad), bad
    # timings in their usual forms are not compared; other numbers are
    assert matches(["  (1.277 s)", "checked in 6.2 s"], "  (0.5 s)\nchecked in 12 s\n")
    assert not matches(["level 3/2"], "level 5/2\n")
    assert not matches(["k = 3"], "k = 2\n")


def test_the_runner_fails_on_a_wrong_output(tmp_path, monkeypatch, capsys):
    page = ("<!-- runnable -->\n```console\n$ implgraph claims ekenstedt2022/theorem-3a --json\n"
            "not what it prints\n```\n")
    with pytest.raises(AssertionError, match="printed"):
        run_page("sample", blocks(page), tmp_path, monkeypatch, capsys)


def test_the_runner_writes_files_and_runs_shell_lines_in_an_empty_directory(tmp_path, monkeypatch, capsys):
    page = ("<!-- file: data/t.csv -->\n```text\nclass,a1,a2\nE1,1/2,1/2\nE2,1/4,3/4\n```\n\n"
            "<!-- runnable -->\n```console\n$ ls\ndata\n$ implgraph levels data/t.csv > out.txt\n$ cat out.txt\n"
            "data/t.csv: N = 2, buckets = a1, a2\n  mult-t-closeness  t = 3/2 ≈ 1.5\n...\n```\n")
    run_page("sample", blocks(page), tmp_path, monkeypatch, capsys)
    assert (tmp_path / "out.txt").read_text().startswith("data/t.csv: N = 2")


def test_results_script_checks_the_readme_and_the_results_page(tmp_path):
    """scripts/readme_results.py writes both generated blocks and --check fails when either is stale."""
    rows = [{"id": "p/a", "verdict": "proved", "tight": "t"},
            {"id": "p/b", "verdict": "refuted", "witness": {"params": {"N": 3}}},
            {"id": "q/c", "verdict": "holds"},
            {"id": "p/d", "verdict": "confirmed", "witness": {"params": {"N": "2"}, "classes": ["E1", "E1"]},
             "details": {"conditional": {"assumption": "partitions into at least 2 classes", "verdict": "refuted",
                                         "tight": "log(t*(N - 1))"}}}]
    (tmp_path / "v.json").write_text(json.dumps({"claims": rows}))
    for name in ("README.md", "results.md"):
        (tmp_path / name).write_text("head\n<!-- results:begin -->\nold\n<!-- results:end -->\ntail\n")
    script = [sys.executable, str(ROOT / "scripts" / "readme_results.py"), str(tmp_path / "v.json"),
              "--readme", str(tmp_path / "README.md"), "--results-page", str(tmp_path / "results.md")]

    def run(*extra):
        return subprocess.run(script + list(extra), capture_output=True, text=True).returncode

    assert run("--check") == 1
    assert run() == 0 and run("--check") == 0
    readme, page = (tmp_path / "README.md").read_text(), (tmp_path / "results.md").read_text()
    assert "4 verdicts" in readme and "1 proved, 1 confirmed, 1 holds, 1 refuted" in readme and "| p/" not in readme
    assert "| a | **proved** | tight f = `t` |" in page and "| b | **refuted** | witness at N = 3 |" in page
    # a verdict decided by a table of one class shows the verdict under the assumption beside it
    assert ('| d | **confirmed** | witness at N = 2 (one class); under the assumption "partitions into at least 2 '
            'classes": **refuted**, tight f = `log(t*(N - 1))` |') in page
    assert readme.startswith("head\n") and page.endswith("tail\n")
    (tmp_path / "results.md").write_text(page.replace("**holds**", "**proved**"))
    assert run("--check") == 1                       # the results page alone out of date fails too


def test_readme_links_resolve():
    """Every relative link of the README names a file of the repository (its docs pages above all)."""
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local and all((ROOT / link).is_file() for link in local), \
        [link for link in local if not (ROOT / link).is_file()]
