"""The command line as a user meets it (issue 16): rows streamed as claims are decided, never cut,
``-q`` / ``-v``, ``--theorems`` adding to the bundled data, shell completion, ``figure --json``, the
glossary of verdicts and the exit codes in ``--help``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from implgraph.cli import EXIT_CODES, main
from implgraph.core.verdict import VERDICTS
from implgraph.io.theorems import load_claims

FAST, SLOW = "ekenstedt2022/lemma-2.4", "ekenstedt2022/lemma-3.4"
"""A claim decided in a fraction of a second and one that takes seconds (it comes later in the data)."""

ROW = re.compile(r"^(\S+)\s+(" + "|".join(map(re.escape, VERDICTS)) + r")\s+(\d+\.\d+)s\b")


def _timed_lines(argv, env=None):
    """Run ``python -m implgraph.cli argv`` with stdout a pipe: ``[(seconds since start, line, running)]``,
    ``running`` telling whether the process had not yet ended when the line was read."""
    env = dict(os.environ, **(env or {}))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "implgraph.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    out = []
    for line in proc.stdout:
        out.append((time.perf_counter() - start, line.rstrip("\n"), proc.poll() is None))
    proc.wait(timeout=600)
    assert proc.returncode == 0, proc.stderr.read()
    return out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_piped_verify_streams_the_first_row(jobs, tmp_path):
    lines = _timed_lines(["verify", FAST, SLOW, "--jobs", jobs],
                         env={"IMPLGRAPH_CACHE_DIR": str(tmp_path)})
    rows = [(t, ROW.match(line), running) for t, line, running in lines if ROW.match(line)]
    first_t, first, first_running = rows[0]
    assert first.group(1) == FAST
    assert first_running, "the first row came only when the process ended"
    slow_t, slow, _ = next(r for r in rows if r[1].group(1) == SLOW)
    # the slow claim started when the fast one started (--jobs 2) or was decided (--jobs 1): the fast
    # claim was decided at the latest its own seconds after that moment, and its row must follow
    # within 2 s, long before the slow claim ends
    decided_by = slow_t - float(slow.group(3)) + float(first.group(3))
    assert first_t <= decided_by + 2.0, (first_t, decided_by, lines)


def test_a_closed_pipe_ends_with_status_0(tmp_path):
    """``implgraph verify | head -1``: the reader leaves after the first row; no error, status 0."""
    proc = subprocess.Popen([sys.executable, "-m", "implgraph.cli", "verify", FAST, SLOW], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, IMPLGRAPH_CACHE_DIR=str(tmp_path)))
    assert ROW.match(proc.stdout.readline())
    proc.stdout.close()
    assert proc.wait(timeout=600) == 0
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.slow   # table-VII's levels from a cold cache (~40 s)
def test_piped_rows_are_never_cut(tmp_path):
    prefix = "ekenstedt2022/table-VII"
    lines = _timed_lines(["verify", prefix], env={"IMPLGRAPH_CACHE_DIR": str(tmp_path)})
    text = "\n".join(line for _, line, _ in lines)
    assert not any(line.rstrip().endswith("...") for _, line, _ in lines)
    assert "\x1b" not in text      # plain text into a pipe: no colour codes
    printed = [" ".join(str(c.get("printed", "")).split()) for c in load_claims()
               if str(c.get("id")).startswith(prefix + "/")]
    assert printed and all(p in text for p in printed)
    # the piecewise exact level of the caption's dp claim: its conditions simplified on the table's
    # region (0 < alpha <= mu): alpha < mu and alpha = mu, never the contradictory mu >= 2*alpha & mu <= 2*alpha
    assert "(mu >= 2*alpha) & (mu <= 2*alpha)" not in text
    assert " if alpha < mu; " in text and " if alpha = mu)" in text


@pytest.mark.parametrize("argv", [["-q", "verify", FAST], ["verify", FAST, "-q"], ["verify", FAST, "--quiet"]])
def test_quiet_prints_only_the_summary(argv, capsys):
    assert main(argv) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out == ["1 verdicts: 1 proved"]


def test_verbose_prints_the_source(capsys):
    assert main(["-v", "verify", FAST]) == 0
    claim = next(c for c in load_claims() if c.get("id") == FAST)
    assert f"source: {claim['source']}" in " ".join(capsys.readouterr().out.split())


EXTRA = """paper: extra
claims:
  - id: extra/theorem-2b
    printed: "eps-LDP => (1, t)-closeness with t = (1/N)(e^eps (N-1) + 1)."
    kind: implies
    from: {definition: ldp, level: eps}
    to: {definition: kt-closeness, params: {k: "1"}, level: t}
    f: "(exp(eps)*(N - 1) + 1)/N"
    symbols: {N: integer}
    when: ["N >= 2"]
"""


def _extra_file(tmp_path) -> Path:
    path = tmp_path / "theorems" / "extra.yaml"
    path.parent.mkdir()
    path.write_text(EXTRA)
    return path


def test_theorems_adds_to_the_bundled_data(tmp_path, capsys):
    extra = _extra_file(tmp_path)
    assert main(["verify", "extra/theorem-2b", FAST, "--theorems", str(extra)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^extra/theorem-2b\s+proved", out, re.M)
    assert re.search(r"^" + re.escape(FAST) + r"\s+proved", out, re.M)


def test_only_replaces_the_bundled_data(tmp_path, capsys):
    extra = _extra_file(tmp_path)
    assert main(["verify", FAST, "--theorems", str(extra), "--only"]) == 2
    assert f"no claim with id {FAST!r}" in capsys.readouterr().err
    assert main(["verify", "--only"]) == 2
    assert "--only without --theorems" in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script(shell, capsys):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert len(script.strip()) > 100 and "implgraph" in script


def test_completion_answers_from_the_parser(monkeypatch):
    """What the shell gets when it asks for ``implgraph ve<TAB>`` and ``implgraph verify --ma<TAB>``."""
    import io

    import argcomplete

    from implgraph.cli import build_parser

    class Finder(argcomplete.CompletionFinder):
        def _init_debug_stream(self):    # argcomplete would open file descriptor 9 (pytest's own here)
            argcomplete.io.debug_stream = io.StringIO()

    def complete(line):
        monkeypatch.setenv("_ARGCOMPLETE", "1")
        monkeypatch.setenv("COMP_LINE", line)
        monkeypatch.setenv("COMP_POINT", str(len(line)))
        monkeypatch.setenv("_ARGCOMPLETE_IFS", "\n")
        out = io.StringIO()
        Finder()(build_parser(), exit_method=lambda code=0: None, output_stream=out)
        return out.getvalue().split()

    assert complete("implgraph ve") == ["verify"]
    assert "--max-n" in complete("implgraph verify --ma")
    # the names of the registered definitions, for the option that chooses definitions
    assert complete("implgraph discover --definitions entropy-l") == ["entropy-l-diversity"]
    assert "--definitions" in complete("implgraph matrix --def")


@pytest.mark.parametrize("command", ["discover", "matrix"])
def test_definitions_option_is_not_the_data_flag(command, capsys):
    """``--definitions`` chooses definitions; ``--only`` (use only the given files) is not an option there."""
    from implgraph.cli import build_parser
    args = build_parser().parse_args([command, "--definitions", "a", "b", "--definitions", "c"])
    assert args.definitions == ["a", "b", "c"]
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args([command, "--only", "a"])
    assert exc.value.code == 2


def test_figure_json(tmp_path, capsys):
    out = tmp_path / "fig6.svg"
    assert main(["figure", "fig-6", "--out", str(out), "--points", "5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["figure"] == "fig-6" and doc["format"] == "svg" and doc["out"] == str(out)
    assert doc["bytes"] == out.stat().st_size > 0


def test_help_lists_the_verdicts_and_exit_codes(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for word in VERDICTS:
        assert re.search(r"^  " + re.escape(word) + r"\s", text, re.M)
    for code, _ in EXIT_CODES:
        assert re.search(rf"^  {code}  \S", text, re.M)


NO_JSON_FLAG = {"completion": "prints a shell script", "certificate": "prints JSON always"}


def test_every_command_has_json():
    from implgraph.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    without = [name for name, p in sub.choices.items()
               if name not in NO_JSON_FLAG and "--json" not in p._option_string_actions]
    assert without == []


def test_a_delayed_bar_draws_nothing_for_a_quick_task(capsys):
    from implgraph.io.console import Progress
    with Progress(2, "quick task", enabled=True, delay=60) as bar:
        bar.step("one")
    assert bar._timer is not None and not bar._timer.is_alive()      # cancelled, never drawn
    assert "quick task" not in capsys.readouterr().err
    with Progress(2, "drawn at once", enabled=True) as bar:
        bar.step("one")
    assert "drawn at once" in capsys.readouterr().err


def test_check_edge_shows_a_bar_with_one_step_per_direction(monkeypatch, capsys):
    """check-edge's bar has a total (hence an estimate of the time left): one step per direction."""
    import implgraph.commands.check_edge as command
    from implgraph.io.console import Progress
    seen = []

    class Recording(Progress):
        def __init__(self, total, label="", enabled=None, delay=0.0):
            super().__init__(total, label, enabled=False, delay=delay)
            seen.append(("bar", total, delay))

        def step(self, what=""):
            super().step(what)
            seen.append(("step", what))

    monkeypatch.setattr(command, "Progress", Recording)
    assert main(["check-edge", "ldp", "dp", "--N", "2"]) == 0
    assert seen == [("bar", 2, 1.0), ("step", "ldp => dp"), ("step", "dp => ldp")]


def test_one_command_imports_only_its_module():
    """Given a command, the parser imports that command's module alone (a faster start); the full parser
    (no argv: --help, completion) has every command."""
    import subprocess
    code = ("import sys; from implgraph.cli import build_parser; p = build_parser(['-q', 'check-edge', 'a', 'b']); "
            "print(sorted(m for m in sys.modules if m.startswith('implgraph.commands.') and "
            "not m.split('.')[-1].startswith('_')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['implgraph.commands.check_edge']"
    from implgraph.cli import build_parser
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert {"check-edge", "verify", "matrix", "certificate"} <= set(sub.choices)


def test_python_m_implgraph_is_the_program():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "implgraph", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "implgraph" in (out.stdout + out.stderr)


def test_the_summary_never_shows_a_bounded_f_as_if_for_every_n():
    """delta-dp(eps=log(2)) => delta-ldp(eps=log(2)) is proved for every N only as an upper bound; the summary's f is
    that bound, and the bounded check's exact f is said to be at the largest N checked, never the "f = ..." of a
    proved tight f. By hand at N = 3: x = (1, 0), y = (0, 1), z = (1/2, 1/2) has the table P = (1/2, 1/2), each table
    without one record within a factor 2 of it both ways (hockey-stick at 2 zero: delta-dp level 0), and the
    hockey-stick at 2 between x and y is 1, delta-ldp's weakest level: the tight f there is 1 at every level."""
    from implgraph.engines.checkedge import check_edge
    summary = check_edge("delta-dp(eps=log(2))", "delta-ldp(eps=log(2))", N=3).summary
    assert "f <= " in summary and " for every N" in summary
    assert "tight f at the largest N checked: 1)" in summary
