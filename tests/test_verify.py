"""``implgraph verify``: rows, JSON, exit codes, regression detection."""

import json

import pytest

from implgraph.cli import main
from implgraph.core.verdict import Verdict
from implgraph.checks.verify import collect_claims, regressions, run_verify, work_units


def test_json_rows(capsys):
    rc = main(["verify", "ekenstedt2022/theorem-2b", "ekenstedt2022/theorem-3a", "--json", "--jobs", "1"])
    out = json.loads(capsys.readouterr().out)
    rows = {r["id"]: r for r in out["claims"]}
    for key in ("id", "printed", "reading", "verdict", "bound", "witness", "tight", "seconds"):
        assert key in rows["ekenstedt2022/theorem-2b"]
    assert rows["ekenstedt2022/theorem-2b"]["verdict"] == "proved"
    r3 = rows["ekenstedt2022/theorem-3a"]
    assert r3["verdict"] == "refuted"
    # the witness: exact rational strings per row and bucket plus parameter values
    assert all("/" in x or x.isdigit() for row in r3["witness"]["rows"] for x in row)
    assert {"N", "k"} <= set(r3["witness"]["params"])
    assert rc == 0, out["regressions"]


def test_reading_rows():
    vs = run_verify(["ekenstedt2022/lemma-2.3"], max_n=4)
    ids = [v.id for v in vs]
    assert ids == ["ekenstedt2022/lemma-2.3", "ekenstedt2022/lemma-2.3#reading"]
    printed, reading = vs
    assert printed.verdict == "refuted"          # the printed non-implication: the implication is proved
    assert reading.verdict == "proved"           # generalisation: A => B and B =/=> A (Table V)


def test_unknown_id_exit_2(capsys):
    assert main(["verify", "no/such-claim"]) == 2
    err = capsys.readouterr().err
    assert "no claim with id" in err and "fix:" in err


def test_every_paper_id_is_collected():
    ids = {str(c.get("id")) for c in collect_claims()}
    required = ["lemma-1", "theorem-1", "lemma-2.1", "lemma-2.2", "lemma-2.3", "lemma-2.4", "theorem-2a",
                "theorem-2b", "theorem-3a", "theorem-3b", "lemma-3.1", "lemma-3.2", "lemma-3.3", "lemma-3.4",
                "lemma-3.5", "theorem-4.1", "theorem-4.2", "theorem-4.3", "theorem-5", "fig-1", "fig-2"]
    for r in required:
        assert f"ekenstedt2022/{r}" in ids
    for r in ["proposition-1", "proposition-2", "proposition-3"]:
        assert f"domingo-ferrer2015/{r}" in ids


def test_regressions():
    vs = [Verdict(id="a", verdict="proved", expect="proved"), Verdict(id="b", verdict="unknown", expect="proved"),
          Verdict(id="c", verdict="refuted")]
    assert [v.id for v in regressions(vs)] == ["b"]


def test_exit_1_on_regression(monkeypatch, capsys):
    import implgraph.commands.verify as cmd
    monkeypatch.setattr(cmd, "run_verify", lambda *a, **k: [Verdict(id="x", verdict="unknown", expect="proved")])
    monkeypatch.setattr(cmd, "collect_claims", lambda ids: [1])
    assert main(["verify"]) == 1
    assert "regression: x" in capsys.readouterr().err


@pytest.mark.slow
def test_whole_verify_completes(capsys):
    rc = main(["verify", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0, out["regressions"]
    assert len(out["claims"]) > 40


def test_work_units_keep_a_table_together():
    """The claims of one table go to one worker (they share its levels); other claims go alone;
    heavy claims first, then the larger groups."""
    claims = [{"id": "p/e1", "kind": "implies"},
              {"id": "p/t/a", "kind": "level", "_table": "p/t"},
              {"id": "p/u/a", "kind": "level", "_table": "p/u"},
              {"id": "p/t/b", "kind": "level", "_table": "p/t"},
              {"id": "p/fig", "kind": "math", "grid": {}}]
    units = work_units(claims)
    assert units == [["p/fig"], ["p/t/a", "p/t/b"], ["p/e1"], ["p/u/a"]]
    assert sorted(c for u in units for c in u) == sorted(c["id"] for c in claims)

