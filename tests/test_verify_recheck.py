"""``verify --recheck``: every row whose evidence is a proof (proved, or refuted by a proof of the opposite) must
carry a certificate implgraph.certify accepts; a row without one fails the run with one line naming it."""

import pytest

import implgraph.commands.verify as verify_command
from implgraph.cli import main

#: a quick claim proved with a certificate
CLAIM = "ekenstedt2022/lemma-2.4"


@pytest.fixture()
def without_certificates(monkeypatch):
    """``run_verify`` as it is, with the certificates removed from the rows' details."""
    real = verify_command.run_verify

    def stripped(*args, **kwargs):
        rows = real(*args, **kwargs)
        for v in rows:
            v.details = {k: x for k, x in (v.details or {}).items() if k not in ("certificate", "certificates")}
        return rows
    monkeypatch.setattr(verify_command, "run_verify", stripped)


def test_recheck_accepts_the_certificate(capsys):
    assert main(["verify", CLAIM, "--recheck", "--jobs", "1"]) == 0
    assert f"recheck {CLAIM}: accepted" in capsys.readouterr().out


def test_recheck_fails_on_a_proved_row_without_certificate(capsys, without_certificates):
    assert main(["verify", CLAIM, "--recheck", "--jobs", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"implgraph: recheck: {CLAIM}: certificate: proved without a certificate"]


def test_without_recheck_the_run_passes(capsys, without_certificates):
    assert main(["verify", CLAIM, "--jobs", "1"]) == 0
