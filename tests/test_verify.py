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



WARM_IDS = ["ekenstedt2022/lemma-2.3", "ekenstedt2022/table-IV/caption-kt"]
"""Claims with a reading row and a table claim (seconds each)."""


@pytest.fixture
def claim_cache(tmp_path, monkeypatch):
    """A fresh cache folder and a key fixed for the test (other edits of the code must not move it)."""
    import implgraph.checks.verify as verify_module
    from implgraph.io.verdict_cache import claims_key
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("IMPLGRAPH_NO_CACHE", raising=False)
    key = claims_key(verify_module.claim_files(), 4, None)
    monkeypatch.setattr(verify_module, "claims_key", lambda files, max_n, timeout: key + f"-{max_n}-{timeout}")
    return verify_module


def _no_check(claim, context):
    raise AssertionError(f"{claim.get('id')} was computed, not replayed")


def test_a_warm_run_replays_the_cold_run(claim_cache, monkeypatch):
    from implgraph.io.verdict_cache import row_json
    cold = run_verify(WARM_IDS, max_n=4)
    monkeypatch.setattr(claim_cache, "_check_one", _no_check)
    warm = run_verify(WARM_IDS, max_n=4)
    assert [v.id for v in warm] == [v.id for v in cold] == [
        "ekenstedt2022/lemma-2.3", "ekenstedt2022/lemma-2.3#reading", "ekenstedt2022/table-IV/caption-kt"]
    for a, b in zip(cold, warm):
        assert (a.verdict, a.exact, a.tight, a.witness, a.bound) == (b.verdict, b.exact, b.tight, b.witness, b.bound)
        assert row_json(a) == row_json(b)          # the whole JSON row, seconds included
    with pytest.raises(AssertionError, match="computed, not replayed"):
        run_verify(WARM_IDS[:1], max_n=4, fresh=True)
    with pytest.raises(AssertionError, match="computed, not replayed"):
        run_verify(WARM_IDS[:1], max_n=5)           # another max_n is another key


def test_a_damaged_entry_is_computed_again(claim_cache, tmp_path, monkeypatch):
    [cold, _] = run_verify(WARM_IDS[:1], max_n=4)
    [entry] = (tmp_path / "claims").glob("*.json")
    data = json.loads(entry.read_text())
    data["rows"]["ekenstedt2022/lemma-2.3"][0]["verdict"] = "unknown"      # checksum no longer matches
    entry.write_text(json.dumps(data))
    calls = []
    real = claim_cache._check_one
    monkeypatch.setattr(claim_cache, "_check_one", lambda c, ctx: calls.append(c.get("id")) or real(c, ctx))
    [v, _] = run_verify(WARM_IDS[:1], max_n=4)
    assert calls == ["ekenstedt2022/lemma-2.3"] and v.verdict == cold.verdict != "unknown"


def test_rows_that_say_nothing_are_not_stored(tmp_path, monkeypatch):
    from implgraph.io.verdict_cache import cached_rows, store_rows
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("IMPLGRAPH_NO_CACHE", raising=False)
    timed_out = Verdict(id="p/a", verdict="unknown", evidence="unknown (timeout)", details={"timeout": 1.0})
    bug = Verdict(id="p/b", verdict="unknown", evidence="checker error: ZeroDivisionError: x")
    fine = Verdict(id="p/c", verdict="refuted", exact="1/2", witness={"params": {"N": "3"}, "rows": [["1", "0"]]},
                   details={"level": {"pieces": [{"when": "everywhere", "level": "1/2"}]}}, seconds=0.25)
    store_rows("k", {"p/a": [timed_out], "p/b": [bug], "p/c": [fine]})
    back = cached_rows("k")
    assert list(back) == ["p/c"] and back["p/c"] == [fine]


def test_the_key_follows_max_n_timeout_and_data(tmp_path):
    from implgraph.checks.verify import claim_files
    from implgraph.io.verdict_cache import claims_key
    files = claim_files()
    copy = tmp_path / "theorems" / "x.yaml"
    copy.parent.mkdir()
    copy.write_text(open(files[0]).read())
    keys = {claims_key(files, 8, None), claims_key(files, 7, None), claims_key(files, 8, 30.0),
            claims_key(files + [str(copy)], 8, None)}
    copy.write_text(copy.read_text() + "\n# changed\n")
    keys.add(claims_key(files + [str(copy)], 8, None))
    assert len(keys) == 5


def test_a_refutation_by_a_proof_has_strength_proved():
    """Lemma 3.4 as printed is a non-implication; the engine proves the implication for every value
    (subset-monotone: the mean of the j smallest values is nondecreasing in j): refuted, strength 'proved',
    not 'witness' (it has no witness table). A refutation by a table stays 'witness'."""
    from implgraph.checks.verify import run_verify
    by_id = {v.id: v for v in run_verify(["ekenstedt2022/lemma-3.4", "ekenstedt2022/sec-4b-remark"])}
    lemma = by_id["ekenstedt2022/lemma-3.4"]
    assert lemma.verdict == "refuted" and lemma.witness is None
    assert lemma.strength == "proved" and lemma.to_json()["strength"] == "proved"
    remark = by_id["ekenstedt2022/sec-4b-remark"]
    assert remark.verdict == "refuted" and remark.witness is not None and remark.strength == "witness"
    from implgraph.io.verdict_cache import row_json, row_verdict
    assert row_verdict(row_json(lemma)).strength == "proved"        # the cache replays it
