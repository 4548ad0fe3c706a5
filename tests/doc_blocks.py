"""Run the code blocks of a Markdown page (the README, the tutorial) and compare what they print.

A page is run as one session, in its order, in a fresh temporary directory that holds nothing of the
repository: what a page shows must work from any directory once the package is installed. Marks are
HTML comments on the line(s) right above a fence:

- ``<!-- runnable -->`` runs the block; ``<!-- runnable slow -->`` runs it only in the page's slow test
  (a page with slow blocks gives a fast test of its other blocks and a slow test of all of them);
- ``<!-- file: PATH -->`` writes the block's text to PATH (relative to the session's directory): the
  files a reader is asked to create.

A ``console`` block is ``$ COMMAND`` lines (a line ending in `` \\`` continues on the next), each
followed by what it prints on stdout. ``implgraph ...`` runs in this process (``*`` patterns expanded as
a shell does, ``> FILE`` written), any other command in a shell; ``pip install DIR`` of a folder that
holds a plugin (a ``pyproject.toml`` with ``implgraph.definitions`` entry points) registers the plugin's
definitions in this process until the page ends, and every other ``pip install`` is skipped (the test
environment has the packages). The printed output must be the shown one, line by line, with:

- timings (``0.61s``, ``(1.277 s)``, ``in 6.2 s``) and runs of spaces not compared;
- a line ``...`` (alone, indented or not) standing for any number of lines, none included;
- a line ending in ``...`` standing for any line that begins with the text before the dots.

A ``python`` block with ``>>>`` prompts runs as a doctest (``...`` in an expected output matches
anything; whitespace normalised); one without prompts runs as a script. A ``bash`` block runs each line
in a shell (exit status 0). Definitions a block registers are removed when the page ends.
"""

from __future__ import annotations

import contextlib
import doctest
import glob
import importlib
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from implgraph.cli import main
from implgraph.definitions import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
_RUNNABLE = re.compile(r"^<!-- runnable((?: [\w=-]+)*) -->$")
_FILE = re.compile(r"^<!-- file: (\S+) -->$")
#: words a reader must never meet: the project's internal milestones and notes
MILESTONE = re.compile(r"\b(?:stop|issue)s? #?\d+\b|\b(?:this|last|previous|earlier|next) stop\b|\bstops ago\b"
                       r"|\bsession notes?\b", re.I)
_TIMING = re.compile(r"(?<![\w./=^*-])\d+(?:\.\d+)?\s?s(?![\w(])")


def _marks(text: str, start: int) -> list:
    """The mark comments on the lines right above ``start`` (nearest last)."""
    out = []
    for line in reversed(text[:start].rstrip("\n").split("\n")):
        line = line.strip()
        if not (line.startswith("<!--") and line.endswith("-->")):
            break
        out.append(line)
    return out[::-1]


def blocks(text: str) -> list:
    """``[(line, kind, language, body, slow, path)]`` of the marked blocks: kind ``run`` or ``file``."""
    out = []
    for m in _FENCE.finditer(text):
        line = text[: m.start()].count("\n") + 1
        for mark in _marks(text, m.start()):
            run, file = _RUNNABLE.match(mark), _FILE.match(mark)
            if run:
                out.append((line, "run", m.group(1), m.group(2), "slow" in run.group(1).split(), None))
            elif file:
                out.append((line, "file", m.group(1), m.group(2), False, file.group(1)))
    return out


def unmarked_console_blocks(text: str) -> list:
    """Lines of the ``console`` blocks that are not marked runnable."""
    return [text[: m.start()].count("\n") + 1 for m in _FENCE.finditer(text)
            if m.group(1) == "console" and not any(_RUNNABLE.match(k) for k in _marks(text, m.start()))]


def console_steps(body: str) -> list:
    """``[(command, [expected output lines])]`` of a console block."""
    steps: list = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        i += 1
    return steps


def _normal(line: str) -> str:
    return " ".join(_TIMING.sub("<T>", line).split())


def output_pattern(expected: list):
    """The regular expression the printed lines must match in full (see the module's docstring)."""
    parts = []
    for line in expected:
        norm = _normal(line)
        if norm == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        elif norm.endswith("...") and len(norm) > 3:
            parts.append(re.escape(norm[:-3].rstrip()) + r"[^\n]*\n")
        else:
            parts.append(re.escape(norm) + r"\n")
    return re.compile("".join(parts))


def matches(expected: list, printed: str) -> bool:
    """Whether ``printed`` is what ``expected`` shows (timings, spacing and marked ellipses aside)."""
    text = "".join(_normal(ln) + "\n" for ln in printed.rstrip("\n").split("\n")) if printed.strip() else ""
    while expected and not expected[-1].strip():
        expected = expected[:-1]
    return output_pattern(expected).fullmatch(text) is not None


def _plugin(folder: Path) -> list:
    """The ``implgraph.definitions`` entry points of a plugin folder, or [] when it is not one."""
    meta = folder / "pyproject.toml"
    if not meta.is_file():
        return []
    groups = tomllib.loads(meta.read_text()).get("project", {}).get("entry-points", {})
    return list(groups.get("implgraph.definitions", {}).values())


def _register_plugin(folder: Path, stack: contextlib.ExitStack) -> None:
    """Import a plugin folder's entry points and register them until ``stack`` closes."""
    sys.path.insert(0, str(folder))
    stack.callback(lambda: sys.path.remove(str(folder)))
    from implgraph.definitions import register
    for spec in _plugin(folder):
        module, _, attr = spec.partition(":")
        sys.modules.pop(module, None)
        stack.callback(sys.modules.pop, module, None)
        register(getattr(importlib.import_module(module), attr))


def _expand(words, cwd: Path) -> list:
    out = []
    for w in words:
        hits = sorted(glob.glob(w, root_dir=cwd)) if any(c in w for c in "*?[") else []
        out += hits or [w]
    return out


def run_command(command: str, cwd: Path, capsys, stack: contextlib.ExitStack) -> str:
    """Run one command line in ``cwd``; what it prints on stdout (its exit status must be 0)."""
    words = shlex.split(command, comments=True)
    if not words:
        return ""
    if words[:2] == ["pip", "install"]:
        targets = [w for w in words[2:] if not w.startswith("-")]
        for t in targets:
            if _plugin(cwd / t):
                _register_plugin((cwd / t).resolve(), stack)
        return ""
    redirect = None
    if len(words) >= 3 and words[-2] == ">":
        words, redirect = words[:-2], words[-1]
    for flag, target in zip(words, words[1:]):       # the folders a command writes into
        if flag in ("--out", "--write") and not Path(target).is_absolute():
            (cwd / target).parent.mkdir(parents=True, exist_ok=True)
    if words[0] == "implgraph" and not any(w in ("|", ";", "&&", "||", "<", ">>") for w in words):
        capsys.readouterr()
        status = main(_expand(words[1:], cwd))
        out = capsys.readouterr().out
        assert status == 0, f"`{command}` exited {status}"
        if redirect:
            (cwd / redirect).write_text(out)
            return ""
        return out
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    proc = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, f"`{command}`: {proc.stderr[-800:]}"
    return proc.stdout


def run_block(where: str, language: str, body: str, cwd: Path, capsys, stack) -> None:
    """Run one block; what it prints must be what the block shows."""
    if language in ("python", "pycon"):
        if ">>>" in body:
            test = doctest.DocTestParser().get_doctest(body, {}, where, where, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, out=lambda s: sys.stderr.write(s))
            assert runner.failures == 0, f"{where}: the doctest fails (its report is on stderr)"
        else:
            exec(compile(body, where, "exec"), {"__name__": "__doc_block__"})
        return
    if language == "console":
        for command, expected in console_steps(body):
            printed = run_command(command, cwd, capsys, stack)
            assert matches(expected, printed), (
                f"{where}: `{command}` printed\n{printed}\ninstead of\n" + "\n".join(expected))
        return
    for command in body.splitlines():
        if command.strip() and not command.lstrip().startswith("#"):
            run_command(command, cwd, capsys, stack)


def page_tests(path: Path) -> list:
    """pytest params for one page: its fast blocks, and (if it has slow ones) all of them, marked slow."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    items = blocks(text)
    fast = [b for b in items if not b[4]]
    name = path.relative_to(ROOT).as_posix()
    out = [pytest.param(name, fast, id=name)] if items else []
    if len(fast) < len(items):
        out.append(pytest.param(name, items, id=f"{name}-with-slow", marks=pytest.mark.slow))
    return out


def run_page(name: str, items: list, tmp_path: Path, monkeypatch, capsys) -> None:
    """Run a page's blocks in order in ``tmp_path`` (its working directory)."""
    monkeypatch.chdir(tmp_path)
    before = set(REGISTRY)
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: [REGISTRY.pop(n) for n in set(REGISTRY) - before])
        for line, kind, language, body, _slow, path in items:
            if kind == "file":
                target = tmp_path / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(body, encoding="utf-8")
            else:
                run_block(f"{name}:{line}", language, body, tmp_path, capsys, stack)
