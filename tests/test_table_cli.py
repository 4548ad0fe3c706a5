"""``implgraph table``: output, JSON, paths to YAML files, and bad input (one line, exit 2)."""

import json
from pathlib import Path

import pytest

from implgraph.cli import main

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path))
    import implgraph.checks.symbolic_level as c
    c._MEMO.clear()


def run(capsys, *argv):
    code = main(["table", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_table_v_text(capsys):
    code, out, err = run(capsys, "ekenstedt2022/table-V")
    assert code == 0, err
    # the rows, the exact (2,t) level and the verdicts. By hand on the region (0 < sigma <= 1, sigma <= 2 mu,
    # 2 mu - sigma <= 1): a1 mean mu, the 2 smallest a1 values are sigma, sigma -> mu/sigma (the 2 largest give
    # (2mu - sigma)/mu, smaller since (mu - sigma)^2 >= 0); a2 mean 1 - mu, the 2 smallest a2 values are
    # 1 - 2mu + sigma -> (1 - mu)/(1 - 2mu + sigma), oo where 1 - 2mu + sigma = 0.
    assert "2*mu - sigma" in out
    assert "t = Max(mu/sigma, (1 - mu)/(-2*mu + sigma + 1))" in out
    # the printed t0 = mu/sigma fails off mu <= 1/2: at mu = 2/3, sigma = 1/2 the level is (1/3)/(1/6) = 2 > 4/3;
    # the reading on mu <= 1/2 holds ((1 - mu)/(1 - 2mu + sigma) <= mu/sigma iff (sigma - mu)(1 - 2mu) <= 0)
    assert "[refuted] ekenstedt2022/table-V/proof-kt\n" in out
    assert "[holds] ekenstedt2022/table-V/proof-kt-reading" in out
    assert "[confirmed] ekenstedt2022/table-V/lemma-2.3-non-implication" in out
    assert "sigma = 1/1000: A = 1, B = 250" in out


def test_table_vi_json(capsys):
    code, out, _ = run(capsys, "ekenstedt2022/table-VI", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == "ekenstedt2022/table-VI"
    # (2,t)-closeness of Table VI is 2 (test_tables derives it); dp is ln(3/2)
    assert data["levels"]["kt-closeness"]["level"] == "2"
    assert data["levels"]["dp"]["level"] == "log(3/2)"
    verdicts = {c["id"].rsplit("/", 1)[1]: c["verdict"] for c in data["claims"]}
    assert verdicts == {"caption-kt": "holds", "proof-kt": "holds", "proof-ldp": "refuted",
                        "theorem-3b-non-implication": "confirmed"}
    ldp = next(c for c in data["claims"] if c["id"].endswith("proof-ldp"))
    assert set(ldp["witness"]["params"]) == {"mu", "sigma"}
    assert data["family"][0]["rows"][0]["value"] == "1/10"
    # ldp is piecewise on the region: each piece says where it applies
    assert len(data["levels"]["ldp"]["pieces"]) >= 2
    assert all(p["when"] for p in data["levels"]["ldp"]["pieces"])


def test_table_from_yaml_path(capsys):
    code, out, _ = run(capsys, str(DATA / "good_small.yaml"), "--json")
    assert code == 0
    data = json.loads(out)
    assert [c["verdict"] for c in data["claims"]] == ["holds", "holds-not-tight"]


def test_claims_only_skips_levels(capsys):
    code, out, _ = run(capsys, str(DATA / "good_small.yaml"), "--json", "--claims-only")
    assert code == 0 and json.loads(out)["levels"] == {}


@pytest.mark.parametrize("name,line,what", [
    ("negative_count.yaml", 10, "block count k - 3"),
    ("partial_classes.yaml", 11, "no class"),
    ("overlapping_classes.yaml", 10, "several classes"),
    ("prob_out_of_range.yaml", 10, "above 1"),
])
def test_bad_input_one_line_exit_2(capsys, name, line, what):
    code, out, err = run(capsys, str(DATA / name))
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert f"{name}:{line}:" in lines[0] and what in lines[0] and "fix:" in lines[0]


def test_unknown_id_exit_2(capsys):
    code, _, err = run(capsys, "ekenstedt2022/table-IX")
    assert code == 2 and "no bundled table" in err


def test_missing_file_exit_2(capsys):
    code, _, err = run(capsys, "does/not/exist.yaml")
    assert code == 2 and "no such file" in err
