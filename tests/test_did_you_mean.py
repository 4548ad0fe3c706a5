"""Misspelt definitions, parameters, options and commands are answered with the closest right one (one line, exit 2),
and ``NAME(k:2)`` with the ``NAME(k=2)`` form."""

from __future__ import annotations

import pytest

from implgraph.cli import main


@pytest.mark.parametrize("argv, expected", [
    (["check-edge", "ldpp", "dp"], "unknown definition 'ldpp'; fix: did you mean 'ldp'?"),
    (["check-edge", "kdp(kk=2)", "dp"], "kdp has no parameter 'kk'; fix: did you mean 'k'?"),
    (["check-edge", "kdp(k:2)", "dp"], "'kdp(k:2)': a parameter is written k=2, not k:2; fix: write kdp(k=2)"),
    (["check-edge", "ldp", "dp", "--NN", "3"], "unrecognized arguments: --NN 3; fix: did you mean '--N'?"),
    (["verfy"], "invalid choice: 'verfy'"),
    (["verfy"], "fix: did you mean 'verify'?"),
])
def test_a_misspelling_is_answered_with_the_closest_word(argv, expected, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:       # (argparse's errors exit)
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert expected in err, err


def test_nothing_close_suggests_nothing(capsys):
    assert main(["check-edge", "zzzzzz", "dp"]) == 2
    assert "did you mean" not in capsys.readouterr().err

