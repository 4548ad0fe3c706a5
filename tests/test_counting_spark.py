"""Counting in Spark (``--backend spark``, implgraph/io/counting_spark.py): a local session gives the pandas path's
tables and levels (classes compared by label, as in tests/test_counting.py), and DuckDB's where it is installed.

Slow (a Spark session starts a JVM); skipped without pyspark or a Java runtime.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("no Java runtime (apt-get install default-jre)", allow_module_level=True)

import numpy as np  # noqa: E402

from implgraph.io.counting import count_tables  # noqa: E402
from implgraph.io.microdata import apply_missing, default_ground, microdata_tables, read_microdata, \
    table_levels  # noqa: E402
from implgraph.io.read_options import ReadOptions  # noqa: E402

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data" / "microdata"
ADULT_NAMES = "age,workclass,education,sex,salary"


def _by_label(ct) -> dict:
    _, sums = ct.class_sums()
    return {label: tuple(int(x) for x in row) for label, row in zip(ct.class_labels or ["-"], sums.tolist())}


def _levels(ct, ground):
    return {k: str(v.value) for k, v in table_levels(ct, {}, ground=ground).items()}


def _synthetic_csv_gz(tmp_path):
    rng = np.random.default_rng(3)
    n = 2000
    df = pd.DataFrame({"age": rng.integers(17, 30, n), "zip": rng.choice(["130**", "131**"], n),
                       "income": rng.integers(0, 5, n) * 1000})
    path = tmp_path / "s.csv.gz"
    with gzip.open(path, "wt") as fh:
        df.to_csv(fh, index=False)
    return path


CASES = [
    ("patients.csv", ["age", "zip"], ["disease"], ReadOptions()),
    ("adult_like.data", ["sex", "education"], ["salary"],
     ReadOptions.from_text(names=ADULT_NAMES, header=False, na="drop", na_values="?")),
    ("pycanon_hospital_anonymized.csv", ["age", "gender", "city"], ["disease"], ReadOptions()),
    ("pycanon_StudentsMath_Score.csv", ["Teacher", "Gender"], ["Score"], ReadOptions()),
    ("synthetic", ["age", "zip"], ["income"], ReadOptions()),
]


@pytest.mark.parametrize("name, qi, sensitive, options", CASES, ids=[c[0] for c in CASES])
def test_spark_counts_as_pandas_and_duckdb_do(tmp_path, name, qi, sensitive, options):
    path = _synthetic_csv_gz(tmp_path) if name == "synthetic" else DATA / name
    df = read_microdata(str(path), options=options)
    df, dropped = apply_missing(df, qi + sensitive, options.na, str(path))
    ours = microdata_tables(df, qi, sensitive, file=str(path))
    tables, n, dropped_spark, numeric = count_tables(path, qi, sensitive, options, engine="spark")
    assert (n, dropped_spark) == (len(df), dropped)
    try:
        import duckdb  # noqa: F401
        duck = count_tables(path, qi, sensitive, options, engine="duckdb")[0]
    except ImportError:
        duck = None
    for col in sensitive:
        assert ours[col].buckets == tables[col].buckets
        assert _by_label(ours[col]) == _by_label(tables[col])
        ground = default_ground(df, col)
        assert numeric[col] == (ground == "ordered")
        assert _levels(ours[col], ground) == _levels(tables[col], ground)
        if duck is not None:
            assert _levels(duck[col], ground) == _levels(tables[col], ground)
