"""The README's runnable blocks give what the README shows.

README.md is read at test time. A fenced block is runnable when the line above its fence is
``<!-- runnable -->``:

- a ``console`` block: each ``$ COMMAND`` line runs in a fresh directory that links the repository's
  ``tests/``, ``examples/``, ``theorems/`` and ``counterexamples/`` (``implgraph ...`` in this
  process, any other command in a shell; ``pip install`` lines are skipped, the test environment has
  the package), and what matters in the output printed under it must be in the actual output: every
  claim's verdict, every ``tight f``, every witness, every level (``NAME  SYMBOL = VALUE``), the
  counts of the verdicts. Timings, evidence wording, widths and wrapping are not compared; a line
  shortened with ``...`` is compared up to the dots;
- a ``bash`` block: every command runs (``implgraph ...`` in this process), each must exit 0;
- a ``python`` block: runs as a doctest when it has ``>>>`` prompts, else as a script.

The blocks marked ``<!-- tutorial-test: ... -->`` are compared verbatim by ``tests/test_tutorial.py``.
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from implgraph.cli import main
from implgraph.core.verdict import VERDICTS

README = Path(__file__).resolve().parents[1] / "README.md"
MARK = "<!-- runnable -->"
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def runnable_blocks(text: str) -> list:
    """``[(line, language, body)]`` of the blocks marked runnable in ``text``."""
    out = []
    for m in _FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if before.strip() == MARK:
            out.append((text[: m.start()].count("\n") + 1, m.group(1), m.group(2)))
    return out


def console_steps(body: str) -> list:
    """``[(command, expected output lines)]`` of a console block."""
    steps = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    return steps


_WORD = "|".join(sorted(map(re.escape, VERDICTS), key=len, reverse=True))
_VERDICT = re.compile(rf"(?<![\w/-])([\w.-]+/[\w./#-]+)[\s│|*]+({_WORD})(?![\w-])")
_LEVEL = re.compile(r"^\s*([\w.()=, -]+?)\s{2,}(\w+) = (.+?)\s*$")
_COUNTS = re.compile(r"(\d+) verdicts?: (.*)$")


def facts(lines) -> set:
    """What matters in command output: verdicts, tight f, witnesses, levels and verdict counts."""
    found = set()
    for raw in lines:
        line = re.sub(r"^[^\w(]+", "", " ".join(raw.split()))      # no indent, no table borders
        found |= {("verdict", i, w) for i, w in _VERDICT.findall(raw)}
        for name, key in (("tight f", "tight f = "), ("witness", "witness ")):
            if line.startswith(key):                                # not inside an evidence sentence
                found.add((name, line[len(key):].rstrip("│| ").replace(" ", "")))
        m = _LEVEL.match(raw)
        if m and "/" not in m.group(1):
            found.add(("level", " ".join(m.group(1).split()), m.group(2), m.group(3).replace(" ", "")))
        m = _COUNTS.search(line)
        if m:
            found.add(("counts", m.group(1), frozenset(p.strip() for p in m.group(2).split(","))))
    return found


def _covered(want, got) -> bool:
    """``want`` is among ``got``; a value shortened with ``...`` matches any value it begins."""
    if want in got:
        return True
    *head, last = want
    if isinstance(last, str) and last.endswith("..."):
        return any(len(g) == len(want) and list(g[:-1]) == head and isinstance(g[-1], str)
                   and g[-1].startswith(last[:-3]) for g in got)
    return False


def run_command(command: str, cwd: Path, capsys) -> str:
    """Run one command line of a block in ``cwd``; its stdout (the exit status must be 0)."""
    words = shlex.split(command, comments=True)
    if not words or words[:2] == ["pip", "install"]:
        return ""
    for flag, target in zip(words, words[1:]):       # the folders the command writes into
        if flag in ("--out", "--write") and not Path(target).is_absolute():
            (cwd / target).parent.mkdir(parents=True, exist_ok=True)
    if words[0] == "implgraph" and not re.search(r"[|;&<>]", command.split("#")[0]):
        capsys.readouterr()
        assert main(words[1:]) == 0, command
        return capsys.readouterr().out
    proc = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{command}: {proc.stderr[-500:]}"
    return proc.stdout


BLOCKS = runnable_blocks(README.read_text()) if README.exists() else []


@pytest.mark.parametrize("line, language, body", BLOCKS, ids=[f"README.md:{b[0]}" for b in BLOCKS])
def test_readme_block(line, language, body, tmp_path, monkeypatch, capsys):
    # a fresh directory that sees the repository's data folders (the README's commands name them)
    for name in ("tests", "examples", "theorems", "counterexamples"):
        (tmp_path / name).symlink_to(README.parent / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    if language == "python":
        if ">>>" in body:
            test = doctest.DocTestParser().get_doctest(body, {}, f"README.md:{line}", str(README), line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test)
            assert runner.failures == 0
        else:
            exec(compile(body, f"README.md:{line}", "exec"), {})
        return
    steps = console_steps(body) if language == "console" else \
        [(c, []) for c in body.splitlines() if c.strip() and not c.lstrip().startswith("#")]
    for command, expected in steps:
        out = run_command(command, tmp_path, capsys)
        got = facts(out.splitlines())
        missing = [f for f in facts(expected) if not _covered(f, got)]
        assert not missing, f"README.md:{line}: `{command}` does not show {missing}"


def test_readme_marks_runnable_blocks():
    if not BLOCKS:
        pytest.skip(f"README.md marks no block {MARK}")
    assert {lang for _, lang, _ in BLOCKS} <= {"console", "bash", "python"}


_SAMPLE = """
<!-- runnable -->
```console
$ implgraph verify p/claim-1 # two claims
p/claim-1         proved     0.61s  A => B.
                  proved for every parameter value ...
                  tight f = ((N - 1)*exp(eps) + 1)/N
p/claim-2         refuted    0.75s  C => D...
                  witness [N = 4, k = 2; eps = log(2)]: (1/3, 2/3) (2/3, 1/3)
table.csv: N = 2, buckets = a1, a2
  name(k=2)                      t = 3/2
  other                          delta = log(3/2)
2 verdicts: 1 proved, 1 refuted
```

```console
$ implgraph not-marked
```
"""


def test_the_parser_reads_what_matters():
    blocks = runnable_blocks(_SAMPLE)
    assert [(lang, body.count("\n")) for _, lang, body in blocks] == [("console", 10)]
    [(command, expected)] = console_steps(blocks[0][2])
    assert command == "implgraph verify p/claim-1 # two claims"
    found = facts(expected)
    assert found == {("verdict", "p/claim-1", "proved"), ("verdict", "p/claim-2", "refuted"),
                     ("tight f", "((N-1)*exp(eps)+1)/N"),
                     ("witness", "[N=4,k=2;eps=log(2)]:(1/3,2/3)(2/3,1/3)"),
                     ("level", "name(k=2)", "t", "3/2"), ("level", "other", "delta", "log(3/2)"),
                     ("counts", "2", frozenset({"1 proved", "1 refuted"}))}
    # another layout of the same results (a wrapped table, no timings) covers them
    other = ["│ p/claim-2 │ refuted │", "│ p/claim-1 │ proved  │", "tight f = ((N - 1)*exp(eps) + 1)/N",
             "witness [N = 4, k = 2; eps = log(2)]: (1/3, 2/3) (2/3, 1/3)", "  name(k=2)  t = 3/2",
             "  other  delta = log(3/2)", "2 verdicts: 1 refuted, 1 proved"]
    assert all(_covered(f, facts(other)) for f in found)
    assert not _covered(("verdict", "p/claim-1", "proved"), facts(["p/claim-1  refuted"]))
    assert _covered(("tight f", "log(Min(t**2..."), {("tight f", "log(Min(t**2,N*(t-1)+1))")})
