"""The README's runnable blocks give what the README shows.

README.md is read at test time. A fenced block is runnable when one of the comment lines right above
its fence is ``<!-- runnable -->``, optionally with words: ``<!-- runnable slow -->`` runs the block in
a test marked ``slow`` (it takes more than 20 s), ``<!-- runnable session=NAME -->`` runs the blocks of
one session in their README order in one shared directory (a block reads the files an earlier one
wrote), in one test:

- a ``console`` block: each ``$ COMMAND`` line runs in a fresh directory that links the repository's
  ``tests/``, ``examples/``, ``theorems/`` and ``counterexamples/`` (``implgraph ...`` in this
  process with its ``*`` patterns expanded as a shell does, any other command in a shell; ``pip
  install`` lines are skipped, the test environment has the package, except ``pip install
  examples/PLUGIN``, which registers the plugin's entry points in this process for the rest of the
  block or session), and what matters in the output printed under it must be in the actual output:
  every claim's verdict (and a path's chain verdict), every ``tight f``, every witness, every level
  (``NAME  SYMBOL = VALUE``), every relation of check-edge and discover (``KIND  A => B``, ``A => B:
  KIND (VERDICT``), a conjectured f's verdict, a path's composed levels, the counts (verdicts,
  pairs checked, the map's implications, non-implications, conflicts and open pairs). Timings,
  evidence wording, widths and wrapping are not compared; a line shortened with ``...`` is compared
  up to the dots;
- a ``bash`` block: every command runs (``implgraph ...`` in this process), each must exit 0;
- a ``python`` block: runs as a doctest when it has ``>>>`` prompts, else as a script.

The blocks marked ``<!-- tutorial-test: ... -->`` are compared verbatim by ``tests/test_tutorial.py``.
"""

from __future__ import annotations

import contextlib
import doctest
import glob
import importlib
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from implgraph.cli import main
from implgraph.core.verdict import VERDICTS

from _plugin_fixtures import registered

README = Path(__file__).resolve().parents[1] / "README.md"
MARK = "<!-- runnable -->"
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
_MARK = re.compile(r"^<!-- runnable((?: [\w=-]+)*) -->$")


def _mark_of(text: str, start: int):
    """The words of the ``<!-- runnable ... -->`` mark among the comment lines right above ``start``, or None."""
    for line in reversed(text[:start].rstrip("\n").split("\n")):
        line = line.strip()
        if not (line.startswith("<!--") and line.endswith("-->")):
            return None
        m = _MARK.match(line)
        if m:
            return m.group(1).split()
    return None


def runnable_blocks(text: str) -> list:
    """``[(line, language, body, session, slow)]`` of the blocks marked runnable in ``text``."""
    out = []
    for m in _FENCE.finditer(text):
        words = _mark_of(text, m.start())
        if words is not None:
            session = next((w.split("=", 1)[1] for w in words if w.startswith("session=")), None)
            out.append((text[: m.start()].count("\n") + 1, m.group(1), m.group(2), session, "slow" in words))
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
_KINDS = "equivalence|reciprocal|generalisation|non-implication|implication|unknown"
_ARROW = r"(\S+) (=>|<=>|=/=>) ([^\s:]+)"
_RELATION = re.compile(rf"^({_KINDS}) +{_ARROW}")                   # discover: KIND  A => B ...
_EDGE = re.compile(rf"^{_ARROW}: ({_KINDS}) \(({_WORD})\b")        # check-edge: A => B: KIND (VERDICT, ...
_PAIR = re.compile(rf"^(\S+) \? (\S+): ({_KINDS})$")                # check-edge: A ? B: KIND
_CONJECTURE = re.compile(rf"^conjectured f = (.+): ({_WORD})$")
_CHAIN = re.compile(rf"^why: (.+?) \(({_WORD})\)$")                 # path: why: CLAIM -> CLAIM (VERDICT)
_COMPOSED = re.compile(r"^\d+\. (\*? ?.+ at level .+ => .+ at level .+)$")
_TALLY = re.compile(r"^(implications \(closure\): .*|conflicts among .*: \d+|"
                    r"discover at N = [\d.]+: \d+ ordered pairs checked)")


def facts(lines) -> set:
    """What matters in command output: verdicts, tight f, witnesses, levels, relations, composed levels
    and counts."""
    found = set()
    for raw in lines:
        line = re.sub(r"^[^\w(]+", "", " ".join(raw.split()))      # no indent, no table borders
        found |= {("verdict", i, w) for i, w in _VERDICT.findall(raw)}
        for name, key in (("tight f", "tight f = "), ("witness", "witness ")):
            if line.startswith(key):                                # not inside an evidence sentence
                found.add((name, line[len(key):].rstrip("│| ").replace(" ", "")))
        if line.startswith("tight f ") and not line.startswith("tight f = "):   # at the largest N, fitted in N
            found.add(("tight f", line.replace(" ", "")))
        for pattern, name in ((_RELATION, "relation"), (_EDGE, "edge"), (_PAIR, "relation"),
                              (_CONJECTURE, "verdict"), (_CHAIN, "verdict")):
            m = pattern.match(line)
            if m:
                found.add((name, *m.groups()))
        for pattern, name in ((_COMPOSED, "composed"), (_TALLY, "counts")):
            m = pattern.match(line)
            if m:
                found.add((name, m.group(1).replace(" ", "")))
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


def install_example(folder: Path, stack: contextlib.ExitStack) -> None:
    """``pip install examples/PLUGIN``: register the plugin's ``implgraph.definitions`` entry points in this
    process until ``stack`` closes (the test environment is left as it is)."""
    meta = tomllib.loads((folder / "pyproject.toml").read_text())
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    for spec in meta["project"]["entry-points"]["implgraph.definitions"].values():
        module, _, attr = spec.partition(":")
        stack.enter_context(registered(getattr(importlib.import_module(module), attr)))


def _expand(words, cwd: Path) -> list:
    """The words with their ``*`` patterns expanded in ``cwd`` as a shell does (sorted; kept if none match)."""
    out = []
    for w in words:
        hits = sorted(glob.glob(w, root_dir=cwd)) if any(c in w for c in "*?[") else []
        out += hits or [w]
    return out


def run_command(command: str, cwd: Path, capsys, stack=None) -> str:
    """Run one command line of a block in ``cwd``; its stdout (the exit status must be 0)."""
    words = shlex.split(command, comments=True)
    if words[:2] == ["pip", "install"] and stack is not None and len(words) == 3 \
            and words[2].startswith("examples/"):
        install_example(README.parent / words[2], stack)
        return ""
    if not words or words[:2] == ["pip", "install"]:
        return ""
    for flag, target in zip(words, words[1:]):       # the folders the command writes into
        if flag in ("--out", "--write") and not Path(target).is_absolute():
            (cwd / target).parent.mkdir(parents=True, exist_ok=True)
    if words[0] == "implgraph" and not re.search(r"[|;&<>]", command.split("#")[0]):
        capsys.readouterr()
        assert main(_expand(words[1:], cwd)) == 0, command
        return capsys.readouterr().out
    proc = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{command}: {proc.stderr[-500:]}"
    return proc.stdout


BLOCKS = runnable_blocks(README.read_text()) if README.exists() else []


def _tests(blocks) -> list:
    """One test per block, or per session (its blocks in README order). A slow block runs in a test
    marked slow: a session with slow blocks is one test of its other blocks and one slow test of all."""
    tests: dict = {}
    for line, language, body, session, slow in blocks:
        key = f"README.md:session-{session}" if session else f"README.md:{line}"
        tests.setdefault(key, []).append((line, language, body, slow))
    out = []
    for key, steps in tests.items():
        fast = [s for s in steps if not s[-1]]
        if fast and len(fast) < len(steps):
            out.append(pytest.param(fast, id=key))
            key += "-with-slow"
        out.append(pytest.param(steps, id=key, marks=[pytest.mark.slow] if len(fast) < len(steps) else []))
    return out


def run_block(line, language, body, cwd, capsys, stack) -> None:
    """Run one block in ``cwd``; what matters in its printed output must be in the actual output."""
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
        out = run_command(command, cwd, capsys, stack)
        got = facts(out.splitlines())
        missing = [f for f in facts(expected) if not _covered(f, got)]
        assert not missing, f"README.md:{line}: `{command}` does not show {missing}"


@pytest.mark.parametrize("blocks", _tests(BLOCKS))
def test_readme_block(blocks, tmp_path, monkeypatch, capsys):
    # a fresh directory that sees the repository's data folders (the README's commands name them)
    for name in ("tests", "examples", "theorems", "counterexamples"):
        (tmp_path / name).symlink_to(README.parent / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    with contextlib.ExitStack() as stack:
        for line, language, body, _ in blocks:
            run_block(line, language, body, tmp_path, capsys, stack)


def test_readme_marks_runnable_blocks():
    if not BLOCKS:
        pytest.skip(f"README.md marks no block {MARK}")
    assert {b[1] for b in BLOCKS} <= {"console", "bash", "python"}


def test_every_console_block_is_runnable():
    """Every shell session the README shows is run (an output excerpt that is no command is ``text``)."""
    text = README.read_text()
    unmarked = [text[: m.start()].count("\n") + 1 for m in _FENCE.finditer(text)
                if m.group(1) == "console" and _mark_of(text, m.start()) is None]
    assert unmarked == [], f"README.md: console blocks at lines {unmarked} are not marked {MARK}"


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
    assert [(lang, body.count("\n"), session, slow) for _, lang, body, session, slow in blocks] == \
        [("console", 10, None, False)]
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


_MARKS = """
<!-- runnable session=tour -->
<!-- tutorial-test: check-edge a b -->
```console
$ implgraph check-edge a b
```

<!-- runnable slow -->
```console
$ implgraph map
```

<!-- runnable session=tour slow -->
```bash
ls
```

<!-- runnable session=tour -->
```bash
pwd
```

<!-- runnable -->
text between the mark and the fence

```console
$ implgraph not-marked
```
"""


def test_marks_sessions_and_slow_blocks():
    blocks = runnable_blocks(_MARKS)
    assert [(b[1], b[3], b[4]) for b in blocks] == [("console", "tour", False), ("console", None, True),
                                                    ("bash", "tour", True), ("bash", "tour", False)]
    tests = _tests(blocks)
    assert [(t.id, [s[2] for s in t.values[0]], [m.name for m in t.marks]) for t in tests] == \
        [("README.md:session-tour", ["$ implgraph check-edge a b\n", "pwd\n"], []),
         ("README.md:session-tour-with-slow", ["$ implgraph check-edge a b\n", "ls\n", "pwd\n"], ["slow"]),
         ("README.md:9", ["$ implgraph map\n"], ["slow"])]


def test_the_parser_reads_relations_paths_and_counts():
    check_edge = ["ldp ? delta-disclosure: generalisation",
                  "  ldp => delta-disclosure: implication (refuted, 2 <= N <= 3, 2 buckets)",
                  "    conjectured f = eps/2: refuted",
                  "    tight f at the largest N: log((2*exp(eps) + 1)/3)",
                  "  delta-disclosure => ldp: non-implication (refuted)"]
    assert facts(check_edge) == {("relation", "ldp", "delta-disclosure", "generalisation"),
                                 ("edge", "ldp", "=>", "delta-disclosure", "implication", "refuted"),
                                 ("verdict", "eps/2", "refuted"),
                                 ("tight f", "tightfatthelargestN:log((2*exp(eps)+1)/3)"),
                                 ("edge", "delta-disclosure", "=>", "ldp", "non-implication", "refuted")}
    discover = ["discover at N = 2..5: 4 ordered pairs checked in 8.39 s",
                "  equivalence      mult-t-closeness <=> delta-disclosure: f = log(t) and g = exp(delta)"]
    assert facts(discover) == {("counts", "discoveratN=2..5:4orderedpairschecked"),
                               ("relation", "equivalence", "mult-t-closeness", "<=>", "delta-disclosure")}
    path = ["1. * ldp at level eps => kt(k=3) at level 9*exp(eps)/10 + 1/10",
            "     why: p/theorem-2b -> p/lemma-2.1  (proved)",
            "  implications (closure): 37, non-implications: 12 claimed + 18 derived, conflicts: 0"]
    assert facts(path) == {("composed", "*ldpatleveleps=>kt(k=3)atlevel9*exp(eps)/10+1/10"),
                           ("verdict", "p/theorem-2b -> p/lemma-2.1", "proved"),
                           ("counts", "implications(closure):37,non-implications:12claimed+18derived,conflicts:0")}
