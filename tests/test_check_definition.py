"""``implgraph check-definition NAME``: a good plugin passes (exit 0), a broken one fails (exit 1, with the table).

The broken plugins (tests/_researcher_plugins.py) are wrong by construction: ``broken-out-of-range`` reports
D_2 - 1, which is 0 on a class of one value (below the declared weakest level 1 of a count); ``broken-symbolic-
differs`` adds 1/100 on its concrete path only, from 4 records on. The good one's level is checked by hand on one
table: classes (1/2, 1/4, 1/4) and (1, 0, 0) give D_2 = 8/3 and 1, so l = 1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from _plugin_fixtures import registered
from _researcher_plugins import InverseSimpson, OutOfRange, SymbolicDiffers
from implgraph.cli import main


def test_good_plugin_passes(capsys):
    from implgraph.checks.definition_check import check_definition, raw_level
    rows = [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1), Fraction(0), Fraction(0)]]
    with registered(InverseSimpson):
        assert raw_level(InverseSimpson(), rows, ["E1", "E2"], {}) == 1
        assert raw_level(InverseSimpson(), rows[:1], ["E1"], {}) == Fraction(8, 3)
        assert main(["check-definition", "inverse-simpson-l-diversity", "--tables", "12"]) == 0
        report = check_definition("inverse-simpson-l-diversity", tables=12)
    out = capsys.readouterr().out
    assert out.startswith("inverse-simpson-l-diversity: every check passes")
    assert [c.name for c in report.checks] == ["levels computable", "symbolic level = concrete level",
                                               "levels within the declared range",
                                               "declared shape agrees with the computed levels",
                                               "weakest and strongest levels as declared"]
    assert "the weakest class's declared class level" in out


@pytest.mark.parametrize("cls,failing", [(OutOfRange, "FAIL levels within the declared range"),
                                         (SymbolicDiffers, "FAIL symbolic level = concrete level")])
def test_broken_plugin_fails_with_the_table(capsys, cls, failing):
    with registered(cls):
        assert main(["check-definition", cls.name, "--tables", "12"]) == 1
    out = capsys.readouterr().out
    assert f"{cls.name}: a check fails" in out and failing in out
    assert "table (class: probabilities per record): E" in out


def test_built_in_passes():
    assert main(["check-definition", "distinct-l-diversity", "--tables", "8"]) == 0


@pytest.mark.parametrize("argv,reason", [(["nope"], "unknown definition 'nope'"),
                                         (["kdp"], "kdp needs parameter(s) k"),
                                         (["kdp", "--param", "k"], "is not NAME=VALUE"),
                                         (["ldp", "--tables", "0"], "--tables 0 is out of range")])
def test_bad_input_one_line_exit_2(capsys, argv, reason):
    assert main(["check-definition", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert reason in err and "; fix: " in err and "\n" not in err
