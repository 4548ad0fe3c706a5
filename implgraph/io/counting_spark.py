"""Counting records per class and sensitive value in Spark (``--backend spark``), for data beyond one machine.

The same plan as DuckDB's (:mod:`implgraph.io.counting`): Spark reads the file (CSV with the separator sniffed as
the pandas path sniffs it, the header and names given; Parquet) and returns one row per distinct
(quasi-identifiers, value) with its count; those few rows then go through the same labels, missing-value policy
and bucket order. A local session (``local[*]``, no web UI) unless one is already running (``getOrCreate``: a
session configured for a cluster is used as it is). Needs pyspark and a Java runtime.
"""

from __future__ import annotations

from pathlib import Path

from implgraph.core.errors import InputError

__all__ = ["spark_counts"]


def _arrow_type(spark_type: str):
    """The Arrow type of a Spark column type (None: kept as Python objects)."""
    import pyarrow as pa
    return {"int": pa.int64, "bigint": pa.int64, "smallint": pa.int64, "tinyint": pa.int64, "double": pa.float64,
            "float": pa.float64, "string": pa.string, "boolean": pa.bool_}.get(spark_type, lambda: None)()


def _session():
    from pyspark.sql import SparkSession
    return (SparkSession.builder.appName("implgraph-levels").master("local[*]")
            .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8").getOrCreate())


def _read(spark, path, options):
    from implgraph.io.read_options import _dialect, _first_row, existing_kind
    kind, comp = existing_kind(path, options)
    if kind == "parquet":
        return spark.read.parquet(str(path))
    if kind != "text" or comp not in (None, ".gz", ".bz2"):
        raise InputError(f"--backend spark reads text (plain, .gz or .bz2) and Parquet files, not "
                         f"{''.join(Path(str(path)).suffixes)}", file=str(path),
                         fix="use --backend duckdb or pandas, or convert the file to Parquet")
    sep, skip = _dialect(path, comp, options)
    df = spark.read.csv(str(path), sep=sep, header=options.header, inferSchema=True, quote='"', escape='"',
                        ignoreLeadingWhiteSpace=skip, ignoreTrailingWhiteSpace=False, mode="FAILFAST")
    if options.names is not None:
        df = df.toDF(*options.names)
    elif not options.header:
        df = df.toDF(*[str(i + 1) for i in range(len(_first_row(path, comp, sep, skip)))])
    return df


def spark_counts(path, qi, sensitive, options):
    """A pandas DataFrame of the distinct values of the columns ``qi + sensitive`` with their count ``n`` (a null
    kept as a value), sorted by the columns, counted by Spark from the file."""
    import pandas as pd
    from implgraph.io.microdata import check_names
    from implgraph.io.read_options import check_header
    columns = list(qi) + list(sensitive)
    spark = _session()
    try:
        df = _read(spark, path, options)
        have = [str(c) for c in df.columns]
        check_header(have, str(path))
        check_names(pd.DataFrame(columns=have), qi, sensitive, str(path))
        types = dict(df.dtypes)
        rows = df.groupBy(*columns).count().collect()
    except InputError:
        raise
    except Exception as exc:                          # Spark's own errors (AnalysisException, Py4JJavaError, ...)
        if not type(exc).__module__.startswith(("pyspark", "py4j")):
            raise
        raise InputError(f"cannot read the file ({' '.join(str(exc).split())[:200]})", file=str(path),
                         fix="check --sep, --names / --no-header, or use --backend pandas") from None
    grouped = pd.DataFrame([list(r) for r in rows], columns=columns + ["n"])
    for col in columns:                               # Spark's types as the pandas path's (Arrow), nulls kept
        arrow = _arrow_type(types[col])
        if arrow is not None:
            import pyarrow as pa
            grouped[col] = pd.Series(pa.array(grouped[col].tolist(), type=arrow), dtype=pd.ArrowDtype(arrow))
    grouped = grouped.sort_values(columns, na_position="last", kind="stable").reset_index(drop=True)
    grouped["n"] = grouped["n"].astype("int64")
    return grouped
