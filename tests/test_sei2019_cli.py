"""`implgraph anonymize` and `implgraph reconstruct` end to end, and their one-line input errors."""

import json
from fractions import Fraction

import pytest

from implgraph.cli import main
from implgraph.mechanisms.randomized_anonymization import privacy
from implgraph.mechanisms.randomized_anonymization.release import Release


@pytest.fixture
def data(tmp_path):
    rows = ["age,job,disease"]
    vals = [("20s", "artist", "flu"), ("30s", "nurse", "hiv"), ("40s", "writer", "cold"), ("20s", "nurse", "flu"),
            ("30s", "artist", "cold"), ("40s", "nurse", "flu")]
    rows += [",".join(v) for v in vals * 5]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_anonymize_l_then_reconstruct(data, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["anonymize", str(data), "--qid", "age,job,disease", "--l", "2", "--out", str(out),
                 "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [(a["p"], a["eta"]) for a in summary["attributes"]] == [("1", 2)] * 3
    rel = Release.load(out)
    assert rel.N == 30 and (rel.member[0].sum(axis=1) == 2).all()
    for j in range(3):                                   # Theorem 2 on this release
        assert privacy.frequency_level(rel, j) >= 2
    assert main(["reconstruct", str(out), "--attributes", "job,disease", "--truth", str(data), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert len(rec["cells"]) == 9
    assert abs(sum(c["estimate"] for c in rec["cells"]) - 30) < 1e-6
    assert sum(c["true"] for c in rec["cells"]) == 30


def test_anonymize_t(data, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["anonymize", str(data), "--qid", "disease", "--t", "1/5", "--keep", "age,job", "--out", str(out),
                 "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert "disease: d = 3, t = 1/5" in text
    rel = Release.load(out)
    assert rel.names == ["age", "job", "disease"] and rel.params[0] == (1, 1)
    j = rel.index("disease")                     # every record's posterior within t (Algorithm 1, text reading)
    prior = [Fraction(c, 30) for c in (10, 15, 5)]   # cold, flu, hiv in the fixture
    assert privacy.record_closeness_level(rel, j, prior) <= Fraction(1, 5)
    assert main(["reconstruct", str(out), "--attributes", "disease", "--method", "value-adding"]) == 0


@pytest.mark.parametrize("argv,needle", [
    (["anonymize", "{data}", "--qid", "nope", "--l", "2", "--out", "{out}"], "d.csv:1: --qid names 'nope', not a column"),
    (["anonymize", "{data}", "--qid", "job", "--drop", "age,disease", "--l", "4", "--out", "{out}"],
     "l = 4 needs 1 <= l <= d = 3"),
    (["anonymize", "{data}", "--qid", "job,age", "--drop", "disease", "--l", "2,2,2", "--out", "{out}"],
     "--l has 3 values"),
    (["anonymize", "{data}", "--qid", "job", "--drop", "age,disease", "--t", "x", "--out", "{out}"],
     "--t value 'x'"),
    (["anonymize", "{data}", "--qid", "job", "--drop", "age,disease", "--t", "-1", "--out", "{out}"], "negative"),
    (["reconstruct", "{data}", "--attributes", "job"], "d.csv:1: not a JSON release"),
])
def test_bad_input_is_one_line(data, tmp_path, capsys, argv, needle):
    argv = [a.format(data=data, out=tmp_path / "o.json") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "fix:" in err and len(err.strip().splitlines()) == 1


def test_reconstruct_unknown_attribute(data, tmp_path, capsys):
    out = tmp_path / "r.json"
    main(["anonymize", str(data), "--qid", "job", "--keep", "age,disease", "--l", "2", "--out", str(out)])
    capsys.readouterr()
    assert main(["reconstruct", str(out), "--attributes", "foo"]) == 2
    assert "no attribute 'foo'" in capsys.readouterr().err


def test_class_csv_through_levels(data, tmp_path, capsys):
    """--class-csv writes the classes for S_j; `implgraph levels` reads it (frequency level >= l, Theorem 2)."""
    out, classes = tmp_path / "r.json", tmp_path / "c.csv"
    assert main(["anonymize", str(data), "--qid", "job,disease", "--keep", "age", "--l", "2", "--out", str(out),
                 "--seed", "3",
                 "--class-csv", f"disease={classes}"]) == 0
    capsys.readouterr()
    assert main(["levels", str(classes), "--json"]) == 0
    levels = json.loads(capsys.readouterr().out)["definitions"]
    rel = Release.load(out)
    j = rel.index("disease")
    assert privacy.frequency_level(rel, j) >= 2                  # Theorem 2
    assert levels["frequency-l-diversity"]["level"] == str(privacy.frequency_level(rel, j))
    assert levels["k-anonymity"]["level"] == str(privacy.anonymity_level(rel, j))
