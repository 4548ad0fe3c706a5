"""`implgraph anonymize` publishes nothing that breaks what it reports: the exact re-check before writing, the
columns named, the input never overwritten, the ordered domain in numeric or the user's order, --l with --t
(Section VII-D), a seed a non-negative integer, outputs written together or not at all.

Levels are checked with the brute-force channel (tests/sei2019_brute.py) or derived by hand in the comments."""

import json
import os
import tempfile
from fractions import Fraction

import pytest

import sei2019_brute
from implgraph.cli import main
from implgraph.commands import anonymize as anonymize_cmd
from implgraph.mechanisms.randomized_anonymization import privacy
from implgraph.mechanisms.randomized_anonymization.release import Release


def write_csv(path, header, rows):
    path.write_text("\n".join([",".join(header)] + [",".join(map(str, r)) for r in rows]) + "\n")
    return path


@pytest.fixture
def data(tmp_path):
    vals = [("20s", "artist", "flu", "id1"), ("30s", "nurse", "hiv", "id2"), ("40s", "writer", "cold", "id3"),
            ("20s", "nurse", "flu", "id4"), ("30s", "artist", "cold", "id5"), ("40s", "nurse", "flu", "id6")]
    return write_csv(tmp_path / "d.csv", ["age", "job", "disease", "name"],
                     [(a, j, d, f"{n}-{k}") for k in range(5) for a, j, d, n in vals])


@pytest.fixture
def single(tmp_path):
    """disease alone, counts (cold, flu, hiv) = (10, 15, 5): no other column to name."""
    return write_csv(tmp_path / "d.csv", ["disease"], [(v,) for v in ["flu", "hiv", "cold", "flu", "cold", "flu"] * 5])


def files(folder):
    return sorted(p.name for p in folder.iterdir())


def counts_in(release, name, column):
    dom = release.domains[release.index(name)]
    return [column.count(v) for v in dom]


# -- columns: every column named; identifiers never published unasked --------------------------------------------

def test_unnamed_columns_are_refused(data, tmp_path, capsys):
    before = files(tmp_path)
    assert main(["anonymize", str(data), "--qid", "disease", "--l", "2", "--out", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert "'age', 'job', 'name' are named by none of --qid, --keep, --drop" in err and "fix:" in err
    assert len(err.strip().splitlines()) == 1 and files(tmp_path) == before


def test_kept_and_dropped(data, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["anonymize", str(data), "--qid", "disease", "--l", "2", "--keep", "age", "--drop", "job,name",
                 "--out", str(out), "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rel = Release.load(out)
    assert rel.names == ["age", "disease"] and summary["kept"] == ["age"] and summary["dropped"] == ["job", "name"]
    assert "id1-0" not in out.read_text()


@pytest.mark.parametrize("extra, needle", [
    (["--keep", "disease"], "'disease' is named by --qid and --keep"),
    (["--keep", "age,job", "--drop", "job,name"], "'job' is named by --keep and --drop"),
    (["--drop", "age,job,name,zip"], "--drop names 'zip', not a column"),
])
def test_column_naming_errors(data, tmp_path, capsys, extra, needle):
    assert main(["anonymize", str(data), "--qid", "disease", "--l", "2", "--out", str(tmp_path / "r.json"),
                 *extra]) == 2
    assert needle in capsys.readouterr().err and not (tmp_path / "r.json").exists()


# -- outputs: never the input, written together ----------------------------------------------------------------------

def test_out_is_the_input(single, tmp_path, capsys):
    text = single.read_text()
    assert main(["anonymize", str(single), "--qid", "disease", "--l", "2", "--out", str(single)]) == 2
    assert "is the input file" in capsys.readouterr().err and single.read_text() == text


def test_out_is_the_input_through_another_path(single, tmp_path, capsys):
    text = single.read_text()
    other = tmp_path / "sub"
    other.mkdir()
    assert main(["anonymize", str(single), "--qid", "disease", "--l", "2", "--out", str(other / ".." / "d.csv")]) == 2
    assert single.read_text() == text


def test_class_csv_is_the_input_or_the_out(single, tmp_path, capsys):
    data, text = single, single.read_text()
    base = ["anonymize", str(data), "--qid", "disease", "--l", "2"]
    assert main(base + ["--out", str(tmp_path / "r.json"), "--class-csv", f"disease={data}"]) == 2
    assert main(base + ["--out", str(tmp_path / "r.json"), "--class-csv", f"disease={tmp_path / 'r.json'}"]) == 2
    assert data.read_text() == text and not (tmp_path / "r.json").exists()


def test_a_failed_write_leaves_nothing(single, tmp_path, monkeypatch, capsys):
    """The second output cannot be written: neither is, and no temporary file is left."""
    real = tempfile.mkstemp
    calls = []

    def mkstemp(*a, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(*a, **kw)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    before = files(tmp_path)
    assert main(["anonymize", str(single), "--qid", "disease", "--l", "2", "--out",
                 str(tmp_path / "r.json"), "--class-csv", f"disease={tmp_path / 'c.csv'}"]) == 2
    assert "No space left" in capsys.readouterr().err and files(tmp_path) == before


def test_release_save_is_atomic(single, tmp_path, monkeypatch):
    out = tmp_path / "r.json"
    assert main(["anonymize", str(single), "--qid", "disease", "--l", "2", "--out", str(out)]) == 0
    rel = Release.load(out)
    replaced = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append(b), real(a, b)))
    rel.save(tmp_path / "copy.json")
    assert [str(p) for p in replaced] == [str(tmp_path / "copy.json")] and files(tmp_path) == [
        "copy.json", "d.csv", "r.json"]


@pytest.mark.parametrize("seed", ["-1", "-100"])
def test_negative_seed(single, tmp_path, capsys, seed):
    assert main(["anonymize", str(single), "--qid", "disease", "--l", "2", "--out", str(tmp_path / "r.json"),
                 "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert f"--seed {seed} is negative" in err and "fix:" in err and not (tmp_path / "r.json").exists()


# -- the exact re-check ----------------------------------------------------------------------------------------------

def test_a_long_t_is_exact(tmp_path, capsys):
    """--t 0.10000000000000001 on 100 records (N times 10^17 > 2^63; the old int64 products overflowed and gave
    p = 1, eta = 3: the true values): every released set within t (brute force)."""
    column = ["a"] * 50 + ["b"] * 30 + ["c"] * 15 + ["d"] * 5
    data = write_csv(tmp_path / "x.csv", ["s"], [(v,) for v in column])
    out = tmp_path / "r.json"
    t = Fraction(1, 10) + Fraction(1, 10 ** 17)
    assert main(["anonymize", str(data), "--qid", "s", "--t", "0.10000000000000001", "--out", str(out)]) == 0
    rel = Release.load(out)
    p, eta = rel.params[0]
    assert (p, eta) != (1, 3)
    assert sei2019_brute.worst_emd(counts_in(rel, "s", column), Fraction(str(p)), eta) <= t
    assert Fraction(rel.meta["guarantee"][0]["achieved_t"]) <= t


def test_refused_with_the_level_reached(single, tmp_path, monkeypatch, capsys):
    """Parameters that miss t are refused before anything is written. disease's counts (cold, flu, hiv) = (10, 15, 5)
    with p = 1, eta = 1 release the true value: the worst set {hiv} has posterior (0, 0, 1), EMD 1 - 5/30 = 5/6."""
    from implgraph.mechanisms.randomized_anonymization.optimise import Choice
    monkeypatch.setattr(anonymize_cmd, "closeness_parameters", lambda *a, **kw: Choice(Fraction(1), 1, 0))
    before = files(tmp_path)
    assert main(["anonymize", str(single), "--qid", "disease", "--t", "1/5", "--out", str(tmp_path / "r.json"),
                 "--class-csv", f"disease={tmp_path / 'c.csv'}"]) == 2
    err = capsys.readouterr().err
    assert "t = 5/6 > 1/5 requested" in err and "nothing written" in err and files(tmp_path) == before


def test_diversity_refused_with_the_level_reached(single, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(anonymize_cmd, "diversity_parameters", lambda l, d, name: (Fraction(1), 1))
    assert main(["anonymize", str(single), "--qid", "disease", "--l", "2", "--out", str(tmp_path / "r.json")]) == 2
    assert "l = 1 < 2 requested" in capsys.readouterr().err and not (tmp_path / "r.json").exists()


def test_l_and_t_together(tmp_path, capsys):
    """Section VII-D: eta from l; both guarantees hold (frequency level of the release's classes, brute-force t)."""
    column = {"disease": ["flu", "hiv", "cold", "flu", "cold", "flu"] * 5,
              "job": ["artist", "nurse", "writer", "nurse", "artist", "nurse"] * 5}
    data = write_csv(tmp_path / "x.csv", ["disease", "job"], list(zip(column["disease"], column["job"])))
    out = tmp_path / "r.json"
    assert main(["anonymize", str(data), "--qid", "disease,job", "--l", "2", "--t", "1/5", "--out", str(out),
                 "--seed", "4", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rel = Release.load(out)
    for name in ("disease", "job"):
        j = rel.index(name)
        p, eta = rel.params[j]
        assert eta >= 2 and privacy.frequency_level(rel, j) >= 2
        assert sei2019_brute.worst_emd(counts_in(rel, name, column[name]), Fraction(str(p)), eta) <= Fraction(1, 5)
    assert all(a["achieved_l"] >= 2 and Fraction(a["achieved_t"]) <= Fraction(1, 5) for a in summary["attributes"])


# -- the ordered ground distance: numbers by value, or the user's order -------------------------------------------

NUMERIC = [1, 4, 5, 3, 3, 1, 1, 2, 2, 4]     # counts of the values 1..10 (the text order is 1, 10, 2, 3, ...)


def test_numbers_are_ordered_by_value(tmp_path):
    """In the text order ('1', '10', '2', ...) Algorithm 1's (p, eta) puts a released set at ordered EMD ~0.156 > 1/10
    under the values' order; ordered by value, every set is within 1/10 (brute force)."""
    column = [str(v) for v, c in zip(range(1, 11), NUMERIC) for _ in range(c)]
    data = write_csv(tmp_path / "x.csv", ["s"], [(v,) for v in column])
    out = tmp_path / "r.json"
    assert main(["anonymize", str(data), "--qid", "s", "--t", "1/10", "--ground", "ordered", "--out", str(out)]) == 0
    rel = Release.load(out)
    assert rel.domains[0] == [str(v) for v in range(1, 11)]
    p, eta = rel.params[0]
    assert sei2019_brute.worst_emd(NUMERIC, Fraction(str(p)), eta, "ordered") <= Fraction(1, 10)


def test_ordered_text_needs_an_order(tmp_path, capsys):
    column = ["low"] * 3 + ["mid"] * 5 + ["high"] * 2
    data = write_csv(tmp_path / "x.csv", ["s"], [(v,) for v in column])
    out = tmp_path / "r.json"
    argv = ["anonymize", str(data), "--qid", "s", "--t", "1/10", "--ground", "ordered", "--out", str(out)]
    assert main(argv) == 2
    assert "needs the order of its values" in capsys.readouterr().err and not out.exists()
    assert main(argv + ["--order", "s=low,mid,high"]) == 0
    rel = Release.load(out)
    assert rel.domains[0] == ["low", "mid", "high"]
    p, eta = rel.params[0]
    assert sei2019_brute.worst_emd([3, 5, 2], Fraction(str(p)), eta, "ordered") <= Fraction(1, 10)


@pytest.mark.parametrize("order, needle", [
    ("s=low,mid", "lacks the value 'high'"),
    ("s=low,mid,high,mid", "'mid' is given twice"),
    ("t=low,mid,high", "not a --qid column"),
    ("s", "is not COL=V1,V2"),
])
def test_order_errors(tmp_path, capsys, order, needle):
    data = write_csv(tmp_path / "x.csv", ["s"], [(v,) for v in ["low", "mid", "high"]])
    assert main(["anonymize", str(data), "--qid", "s", "--t", "1/10", "--ground", "ordered", "--order", order,
                 "--out", str(tmp_path / "r.json")]) == 2
    assert needle in capsys.readouterr().err


def test_a_column_too_wide_to_sample_is_refused(tmp_path, monkeypatch, capsys):
    """N x d cells of sets per attribute are bounded (a kept identifier column: N x N)."""
    from implgraph.mechanisms.randomized_anonymization import release_json
    monkeypatch.setattr(release_json, "SAMPLE_LIMIT", 100)
    data = write_csv(tmp_path / "x.csv", ["s", "id"], [("ab"[k % 2], f"id{k}") for k in range(20)])
    assert main(["anonymize", str(data), "--qid", "s", "--keep", "id", "--l", "2", "--out",
                 str(tmp_path / "r.json")]) == 2
    assert "id: 20 records x 20 values" in capsys.readouterr().err and not (tmp_path / "r.json").exists()


# -- a release file is read checked (reconstruct) ----------------------------------------------------------------------

_A = {"name": "a", "domain": ["x", "y"], "p": "1", "eta": 1}


@pytest.mark.parametrize("doc, needle", [
    ({}, "'attributes' is not a non-empty list"),
    ({"N": 1, "attributes": [{"name": "a"}], "records": [[[0]]]}, "'domain' is not a list of distinct strings"),
    ({"N": 1, "attributes": [dict(_A, p="1e999999999")], "records": [[[0]]]}, "is not a fraction"),
    ({"N": 1, "attributes": [dict(_A, p="__import__('os')")], "records": [[[0]]]}, "is not a fraction"),
    ({"N": 1, "attributes": [dict(_A, eta=True)], "records": [[[0]]]}, "'eta' = 'True' is not an integer"),
    ({"N": 1, "attributes": [_A], "records": [[[5]]]}, "is not 1 distinct value indices below 2"),
    ({"N": 1, "attributes": [dict(_A, eta=2)], "records": [[[0]]]}, "is not 2 distinct value indices"),
    ({"N": 2, "attributes": [_A], "records": [[[0]]]}, "'N' is not the number of 'records'"),
    ({"N": 1, "attributes": [_A, _A], "records": [[[0], [1]]]}, "is not a string or is repeated"),
])
def test_a_malformed_release_is_one_line(tmp_path, capsys, doc, needle):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "implgraph-randomized-anonymization/1", **doc}))
    assert main(["reconstruct", str(path), "--attributes", "a"]) == 2
    err = capsys.readouterr().err
    assert needle in err and "bad.json:1:" in err and len(err.strip().splitlines()) == 1
