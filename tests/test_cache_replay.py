"""The caches cannot change what implgraph says: a verdict's text is the same cold and warm, and a cached row
that was edited (even with its plain checksum recomputed) is never replayed.

Each run is a process of its own (``python -m implgraph.cli``) with its own cache folder, so that only the disk
carries anything from one run to the next.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from _hostile import USER_CLAIM


def _verify(cache, *args, cwd=None, check_json=True):
    env = {**os.environ, "IMPLGRAPH_CACHE_DIR": str(cache)}
    env.pop("IMPLGRAPH_NO_CACHE", None)
    r = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", *args, "--jobs", "1"], cwd=cwd,
                       capture_output=True, text=True, timeout=900, env=env)
    assert "Traceback" not in r.stderr, r.stderr
    if not check_json:
        return r
    doc = json.loads(r.stdout)
    for row in doc["claims"]:
        row.pop("seconds")          # the time a row took (cold or replayed) is the only field that may differ
    return doc


# -- the evidence is the same cold and warm -------------------------------------------------------------------

#: table claims whose holds-not-tight evidence gives an example point (the solver's point depended on whether
#: the table's level came from the level cache: N = 4 cold, N = 5 with the level cached, for Table VII)
TABLES = ["ekenstedt2022/table-VII", "ekenstedt2022/table-III"]


@pytest.mark.slow
def test_verify_json_is_the_same_cold_and_warm(tmp_path):
    cache = tmp_path / "cache"
    cold = _verify(cache, *TABLES, "--json")
    assert any("e.g. at" in row["evidence"] for row in cold["claims"])
    warm = _verify(cache, *TABLES, "--json")                      # rows replayed
    for entry in (cache / "claims").glob("*.json"):             # the levels cached, the rows not
        entry.unlink()
    levels_warm = _verify(cache, *TABLES, "--json")
    assert cold == warm == levels_warm


@pytest.mark.slow
def test_whole_verify_json_is_the_same_cold_and_warm(tmp_path):
    cache = tmp_path / "cache"
    cold = _verify(cache, "--json")
    warm = _verify(cache, "--json")
    for entry in (cache / "claims").glob("*.json"):
        entry.unlink()
    assert cold == warm == _verify(cache, "--json")


# -- a forged row is never replayed ------------------------------------------------------------------------------

#: USER_CLAIM (tests/_hostile.py): a claim the engine refutes, derived by hand there


def _forge(cache: Path) -> int:
    """Edit every cached row to 'proved' with evidence 'FORGED proof' and give it a recomputed plain sha256, in
    every place an entry may keep a checksum (the per-claim ``macs`` and a whole-entry ``checksum``)."""
    forged = 0
    for entry in (cache / "claims").glob("*.json"):
        data = json.loads(entry.read_text())
        for cid, rows in data["rows"].items():
            for row in rows:
                row.update(verdict="proved", evidence="FORGED proof", witness=None, tight=None, details={})
                forged += 1
            if isinstance(data.get("macs"), dict):
                data["macs"][cid] = hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()
        data["checksum"] = hashlib.sha256(json.dumps(data["rows"], sort_keys=True).encode()).hexdigest()
        entry.write_text(json.dumps(data))
    return forged


@pytest.fixture
def user_claim(tmp_path):
    (tmp_path / "theorems").mkdir()
    (tmp_path / "theorems" / "user.yaml").write_text(textwrap.dedent(USER_CLAIM))
    return tmp_path


@pytest.mark.parametrize("recheck", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["verify", "verify--recheck"])
def test_a_forged_row_is_not_replayed(user_claim, recheck):
    cache = user_claim / "cache"
    args = ["user/ldp-mt", "--theorems", "theorems/user.yaml"] + (["--recheck"] if recheck else [])
    cold = _verify(cache, *args, "--json", cwd=user_claim)
    assert [r["verdict"] for r in cold["claims"]] == ["refuted"]
    assert _forge(cache) == 1
    r = _verify(cache, *args, "-v", cwd=user_claim, check_json=False)
    assert "FORGED" not in r.stdout and "1 verdicts: 1 refuted" in r.stdout and r.returncode == 0
    assert "fail their keyed checksum: computed again" in r.stderr
    _forge(cache)
    assert _verify(cache, *args, "--json", cwd=user_claim) == cold


def test_a_cache_folder_keeps_its_secret_apart(user_claim):
    cache = user_claim / "cache"
    _verify(cache, "user/ldp-mt", "--theorems", "theorems/user.yaml", "--json", cwd=user_claim)
    key = cache / "cache.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert cache.stat().st_mode & 0o077 == 0
    secret_hex = key.read_bytes().hex()
    assert all(secret_hex not in p.read_text() for p in (cache / "claims").glob("*.json"))


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    from implgraph.io import cache_key
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("IMPLGRAPH_NO_CACHE", raising=False)
    monkeypatch.setattr(cache_key, "_SECRETS", {})
    monkeypatch.setattr(cache_key, "_REFUSED", {})
    return tmp_path / "cache"


def _stored(cache_dir):
    from implgraph.checks.verify import claim_files
    from implgraph.core.verdict import Verdict
    from implgraph.io.verdict_cache import cached_rows, claims_key, store_rows
    key = claims_key(claim_files(), 4, None)
    row = Verdict(id="p/a", verdict="refuted", evidence="a table", witness={"rows": [["1", "0"]]})
    store_rows(key, {"p/a": [row]})
    return key, cached_rows


@pytest.mark.parametrize("damage", ["mode-0644", "symlink", "short", "directory"])
def test_a_secret_file_not_to_trust_turns_the_cache_off(cache_dir, damage):
    from implgraph.io import cache_key
    cache_dir.mkdir()
    key = cache_dir / "cache.key"
    if damage == "mode-0644":
        key.write_bytes(b"k" * 32)
        key.chmod(0o644)
    elif damage == "symlink":
        (cache_dir / "elsewhere").write_bytes(b"k" * 32)
        (cache_dir / "elsewhere").chmod(0o600)
        key.symlink_to(cache_dir / "elsewhere")
    elif damage == "short":
        key.write_bytes(b"k" * 8)
        key.chmod(0o600)
    else:
        key.mkdir()
    k, cached_rows = _stored(cache_dir)
    assert cached_rows(k) == {} and not (cache_dir / "claims").exists()     # nothing stored, nothing replayed
    assert cache_key.refused()


def test_rows_under_another_secret_are_not_replayed(cache_dir, monkeypatch):
    from implgraph.io import cache_key
    k, cached_rows = _stored(cache_dir)
    assert list(cached_rows(k)) == ["p/a"]
    (cache_dir / "cache.key").unlink()           # another installation (or a copied cache): another secret
    monkeypatch.setattr(cache_key, "_SECRETS", {})
    assert cached_rows(k) == {}


def _entry_with(cache_dir, edit):
    """Run theorem-2b (proved, with a certificate) cold, apply ``edit`` to its cached rows and give them a valid
    keyed checksum (as only this installation can): ``(verify module, key)``."""
    import implgraph.checks.verify as verify_module
    from implgraph.io import verdict_cache
    verify_module.run_verify(["ekenstedt2022/theorem-2b"], max_n=4)
    [entry] = (cache_dir / "claims").glob("*.json")
    data = json.loads(entry.read_text())
    rows = data["rows"]["ekenstedt2022/theorem-2b"]
    assert rows[0]["verdict"] == "proved" and rows[0]["details"].get("certificate")
    edit(rows[0])
    data["macs"]["ekenstedt2022/theorem-2b"] = verdict_cache._row_mac(data["key"], "ekenstedt2022/theorem-2b", rows)
    entry.write_text(json.dumps(data))
    return verify_module, data["key"]


def _corrupt_certificate(row):
    row["details"]["certificate"]["upper"] = "1"          # B's level at most 1 for every table: false
    row["evidence"] = "FORGED proof"


def _drop_certificate(row):
    row["details"].pop("certificate", None)
    row["details"].pop("certificates", None)
    row["evidence"] = "FORGED proof"


def _other_claims_certificate(row):
    """theorem-2a's certificate (kt-closeness => ldp), valid on its own, put on theorem-2b's row (ldp =>
    mult-t-closeness): it proves another statement."""
    import os
    import implgraph.checks.verify as verify_module
    os.environ["IMPLGRAPH_NO_CACHE"] = "1"
    try:
        [other] = verify_module.run_verify(["ekenstedt2022/theorem-2a"], max_n=4)
    finally:
        del os.environ["IMPLGRAPH_NO_CACHE"]
    row["details"]["certificate"] = other.details["certificate"]
    row["evidence"] = "FORGED proof"


@pytest.mark.parametrize("edit", [_corrupt_certificate, _drop_certificate, _other_claims_certificate],
                         ids=["rejected", "none", "another-statement"])
def test_a_proved_row_is_replayed_only_with_an_accepted_certificate(cache_dir, monkeypatch, edit):
    from implgraph.io.verdict_cache import cached_rows
    verify_module, key = _entry_with(cache_dir, edit)
    assert cached_rows(key) == {}
    calls = []
    real = verify_module._check_one
    monkeypatch.setattr(verify_module, "_check_one", lambda c, ctx: calls.append(c.get("id")) or real(c, ctx))
    [v] = verify_module.run_verify(["ekenstedt2022/theorem-2b"], max_n=4)
    assert calls == ["ekenstedt2022/theorem-2b"] and v.verdict == "proved" and "FORGED" not in v.evidence


def test_an_untouched_proved_row_is_replayed_after_its_certificate_is_rechecked(cache_dir, monkeypatch):
    import implgraph.certify as certify
    verify_module, key = _entry_with(cache_dir, lambda row: None)
    checked = []
    real = certify.check_certificate
    monkeypatch.setattr(certify, "check_certificate", lambda c, *a, **k: checked.append(c) or real(c, *a, **k))
    monkeypatch.setattr(verify_module, "_check_one", lambda c, ctx: pytest.fail(f"{c.get('id')} computed"))
    [v] = verify_module.run_verify(["ekenstedt2022/theorem-2b"], max_n=4)
    assert v.verdict == "proved" and len(checked) >= 1


def test_a_level_entry_with_a_plain_checksum_is_not_read(cache_dir, monkeypatch):
    """The level cache's entries are keyed too: an entry given a recomputed plain sha256 is not read."""
    from implgraph.checks import level_cache
    from implgraph.checks import symbolic_level
    from implgraph.io.counterexamples import get_table
    monkeypatch.setattr(symbolic_level, "_MEMO", {})
    table = get_table("ekenstedt2022/table-III")
    symbolic_level.find_level(table, "mult-t-closeness", {})
    entries = list((cache_dir / "levels").glob("*.json"))
    assert entries
    for entry in entries:
        data = json.loads(entry.read_text())
        assert level_cache._cache_load(data["key"], table.region, table.symbols) is not None
        data["checksum"] = hashlib.sha256((data["key"] + json.dumps(data["pieces"], sort_keys=True)).encode()
                                          ).hexdigest()
        entry.write_text(json.dumps(data))
        assert level_cache._cache_load(data["key"], table.region, table.symbols) is None
