"""Counting in DuckDB (``--backend duckdb``, implgraph/io/counting.py) gives the pandas path's tables and levels.

On several datasets (the tutorial's patients, an Adult-like file as shipped with its ``?`` cells, pyCANON's three
example files, synthetic records with a numeric sensitive column written as Parquet, Arrow, gzip'd CSV and TSV),
the DuckDB count tables hold the same classes (labels) with the same counts per value as the pandas path's, in the
same bucket order, and every registered definition's exact level is the same. The two paths number classes
differently (sorted / first appearance), so classes are compared by label. Skipped without duckdb.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("duckdb")

import numpy as np  # noqa: E402

from implgraph.cli import main  # noqa: E402
from implgraph.io.counting import count_tables  # noqa: E402
from implgraph.io.microdata import apply_missing, default_ground, microdata_tables, read_microdata, \
    table_levels  # noqa: E402
from implgraph.io.read_options import ReadOptions  # noqa: E402

DATA = Path(__file__).parent / "data" / "microdata"
ADULT_NAMES = "age,workclass,education,sex,salary"


def _by_label(ct) -> dict:
    _, sums = ct.class_sums()
    return {label: tuple(int(x) for x in row) for label, row in zip(ct.class_labels or ["-"], sums.tolist())}


def _compare(path, qi, sensitive, options):
    df = read_microdata(str(path), options=options)
    df, dropped = apply_missing(df, qi + sensitive, options.na, str(path))
    ours = microdata_tables(df, qi, sensitive, file=str(path))
    tables, n, dropped_db, numeric = count_tables(path, qi, sensitive, options)
    assert (n, dropped_db) == (len(df), dropped)
    for col in sensitive:
        a, b = ours[col], tables[col]
        assert a.buckets == b.buckets
        assert _by_label(a) == _by_label(b)
        assert numeric[col] == (default_ground(df, col) == "ordered")
        la = table_levels(a, {}, ground=default_ground(df, col))
        lb = table_levels(b, {}, ground="ordered" if numeric[col] else "equal")
        assert {k: str(v.value) for k, v in la.items()} == {k: str(v.value) for k, v in lb.items()}
    return tables


CASES = [
    ("patients.csv", ["age", "zip"], ["disease"], ReadOptions()),
    ("adult_like.data", ["sex", "education"], ["salary"],
     ReadOptions.from_text(names=ADULT_NAMES, header=False, na="drop", na_values="?")),
    ("adult_like.data", ["sex", "workclass"], ["salary"],
     ReadOptions.from_text(names=ADULT_NAMES, header=False, na="unknown", na_values="?")),
    ("adult_like.data", ["age"], ["education", "salary"], ReadOptions.from_text(names=ADULT_NAMES, header=False)),
    ("pycanon_hospital_anonymized.csv", ["age", "gender", "city"], ["disease"], ReadOptions()),
    ("pycanon_drugs_k5.csv", ["Age", "Sex", "BP", "Cholesterol", "Na_to_K"], ["Drug"], ReadOptions()),
    ("pycanon_StudentsMath_Score.csv", ["Teacher", "Gender", "Ethnic"], ["Score", "Freeredu"], ReadOptions()),
]


@pytest.mark.parametrize("name, qi, sensitive, options", CASES, ids=[f"{c[0]}-{'-'.join(c[1])}" for c in CASES])
def test_duckdb_counts_as_pandas_does(name, qi, sensitive, options):
    _compare(DATA / name, qi, sensitive, options)


def _synthetic(n=3000, seed=5):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.integers(17, 30, n), "zip": rng.choice(["130**", "131**", "140**"], n),
                         "income": rng.integers(0, 7, n) * 1000, "disease": rng.choice(["flu", "hiv", "cold"], n)})


@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".csv.gz", ".tsv"])
def test_duckdb_on_every_file_kind(tmp_path, suffix):
    df = _synthetic()
    path = tmp_path / f"d{suffix}"
    if suffix == ".parquet":
        df.to_parquet(path)
    elif suffix == ".arrow":
        df.to_feather(path)
    elif suffix == ".csv.gz":
        with gzip.open(path, "wt") as fh:
            df.to_csv(fh, index=False)
    else:
        df.to_csv(path, sep="\t", index=False)
    tables = _compare(path, ["age", "zip"], ["income", "disease"], ReadOptions())
    # by hand from the frame: 13 ages x 3 zips at most, every record counted once
    assert sum(sum(row) for row in _by_label(tables["income"]).values()) == len(df)
    assert tables["income"].buckets == [str(v) for v in sorted(df["income"].unique())]


def test_cli_backends_agree_and_refuse_as_pandas_does(tmp_path, capsys):
    args = ["levels", str(DATA / "adult_like.data"), "--no-header", "--names", ADULT_NAMES, "--qi", "sex,education",
            "--sensitive", "salary", "--na-values", "?", "--na", "drop", "--require", "k=2", "--json"]
    out = {}
    for backend in ("pandas", "duckdb"):
        assert main(args + ["--backend", backend]) == 1
        doc = json.loads(capsys.readouterr().out)
        out[backend] = ({k: v["level"] for k, v in doc["sensitive"]["salary"]["definitions"].items()},
                        doc["N"], doc["classes"], doc["dropped"],
                        [(r["holds"], r["violating"]["classes"], r["violating"]["records"])
                         for r in doc["sensitive"]["salary"]["requirements"]])
    assert out["pandas"] == out["duckdb"]
    # refused under --na refuse (the default): a missing value in a used column, exit 2, one line
    refuse = [("sex,workclass" if a == "sex,education" else a) for a in args[:-5]]
    assert main(refuse + ["--backend", "duckdb"]) == 2
    err = capsys.readouterr().err.strip()
    assert "has a missing value" in err and "; fix: " in err and len(err.splitlines()) == 1
    assert "adult_like.data:13: column 'workclass'" in err          # the 13th line holds '?' (see the file)
    assert main(["levels", str(DATA / "patients.csv"), "--qi", "age,nope", "--sensitive", "disease",
                 "--backend", "duckdb"]) == 2
    assert "not in the data" in capsys.readouterr().err
