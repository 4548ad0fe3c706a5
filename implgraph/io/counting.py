"""Counting records per class and sensitive value: in pandas (in memory) or in DuckDB (embedded, out of core).

The heavy part of a dataset's levels is counting its records per (class, sensitive value); every exact level then
comes from that count table (:class:`~implgraph.io.weighted.WeightedConcreteTable`). Two backends count:

- ``pandas``: the records are read into memory (:func:`implgraph.io.read_options.read_records`) and grouped
  (:func:`implgraph.io.microdata.microdata_tables`); classes numbered in order of first appearance;
- ``duckdb``: DuckDB reads the file itself (``read_csv`` / ``read_parquet``; an Arrow file memory-mapped) and
  returns one row per distinct (quasi-identifiers, value) with its count, spilling to disk when the data outgrow
  memory; the few grouped rows are then handled as the pandas path handles records (the same labels, the same
  missing-value policy, the same bucket order); classes numbered in sorted order.

Both give the same tables up to the numbering of the classes, hence the same levels
(``tests/test_counting.py`` checks it on several datasets). ``auto`` (the default) is DuckDB for a file larger
than a quarter of the memory available (when DuckDB is installed), pandas otherwise.

The DuckDB path reads the file with the same options (separator sniffed as the pandas path sniffs it, header,
names); a compressed text file other than ``.gz`` goes through pandas. A missing value under ``--na refuse``
is reported with its column, its count and the line of the first (the file read again by the csv module, on
that error only: DuckDB does not number the lines it reads).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from implgraph.core.errors import InputError, printable

__all__ = ["BACKENDS", "choose_backend", "count_tables", "duckdb_counts"]

BACKENDS = ("auto", "pandas", "duckdb", "spark")


def _available_memory() -> int:
    """Bytes of memory available (``MemAvailable`` of /proc/meminfo, else the physical pages free)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def _has_duckdb() -> bool:
    import importlib.util
    return importlib.util.find_spec("duckdb") is not None


def choose_backend(backend, path) -> str:
    """``pandas`` or ``duckdb`` for ``backend`` (``auto``: DuckDB for a file over a quarter of the memory available,
    when installed); a DataFrame is always counted by pandas."""
    backend = backend or "auto"
    if backend not in BACKENDS:
        raise InputError(f"--backend {printable(str(backend))[:20]} is not one of {', '.join(BACKENDS)}",
                         fix="give --backend pandas or --backend duckdb (or auto)")
    if not isinstance(path, (str, Path)):
        if backend == "duckdb":
            raise InputError("--backend duckdb reads a file", fix="give the path of a file, or --backend pandas")
        return "pandas"
    if backend == "duckdb" and not _has_duckdb():
        raise InputError("--backend duckdb needs the package duckdb", fix="pip install duckdb")
    if backend == "spark":
        import importlib.util
        if importlib.util.find_spec("pyspark") is None:
            raise InputError("--backend spark needs the package pyspark (and a Java runtime)",
                             fix="pip install pyspark (and apt-get install default-jre)")
        return "spark"
    from implgraph.io.read_options import file_kind
    kind = file_kind(path)
    if kind is not None and kind[1] not in (None, ".gz"):      # DuckDB reads gzip only: pandas decompresses
        return "pandas"
    if backend == "auto":
        big = Path(path).is_file() and Path(path).stat().st_size * 4 > _available_memory()
        return "duckdb" if big and _has_duckdb() else "pandas"
    return backend


def _source_sql(con, path, options):
    """``(relation, skip spaces)``: DuckDB's reader of the file with the reading options."""
    from implgraph.io.read_options import _dialect, existing_kind
    kind, comp = existing_kind(path, options)
    if kind == "parquet":
        return con.read_parquet(str(path)), False
    if kind == "arrow":
        import pyarrow as pa
        table = pa.ipc.open_file(pa.memory_map(str(path))).read_all()
        return con.from_arrow(table), False
    sep, skip = _dialect(path, comp, options)
    kwargs = {"delimiter": sep, "header": options.header, "all_varchar": False, "quotechar": '"'}
    if options.names is not None:
        kwargs["names"] = list(options.names)
    elif not options.header:
        first = _count_columns(path, comp, sep, skip)
        kwargs["names"] = [str(i + 1) for i in range(first)]
    return con.read_csv(str(path), **kwargs), skip


def _count_columns(path, comp, sep, skip) -> int:
    from implgraph.io.read_options import _first_row
    return len(_first_row(path, comp, sep, skip))


def duckdb_counts(path, qi, sensitive, options):
    """A pandas DataFrame of the distinct values of the columns ``qi + sensitive`` with their count ``n`` (a NULL
    kept as a value), sorted by the columns, counted by DuckDB from the file (the names checked as the pandas path
    checks them)."""
    import duckdb
    import pandas as pd
    from implgraph.io.microdata import check_names
    import shutil
    import tempfile
    columns = list(qi) + list(sensitive)
    spill = tempfile.mkdtemp(prefix="implgraph-duckdb-")      # where DuckDB spills (never the user's folder)
    con = duckdb.connect(config={"temp_directory": spill, "preserve_insertion_order": False})
    try:
        rel, skip = _source_sql(con, path, options)
        have = [str(c) for c in rel.columns]
        from implgraph.io.read_options import check_header
        check_header(have, str(path))
        check_names(pd.DataFrame(columns=have), qi, sensitive, str(path))
        types = dict(zip(have, [str(t) for t in rel.types]))
        picks = []
        for i, c in enumerate(columns):
            q = '"' + c.replace('"', '""') + '"'
            expr = f"ltrim({q}, ' ')" if skip and types[c] == "VARCHAR" else q
            picks.append(f"{expr} AS c{i}")
        keys = ", ".join(f"c{i}" for i in range(len(columns)))
        query = f"SELECT {keys}, count(*) AS n FROM (SELECT {', '.join(picks)} FROM src) GROUP BY {keys} " \
                f"ORDER BY {keys} NULLS LAST"
        con.register("src", rel)
        result = con.sql(query)
        table = result.to_arrow_table() if hasattr(result, "to_arrow_table") else result.fetch_arrow_table()
        df = table.to_pandas(types_mapper=pd.ArrowDtype)
    except duckdb.Error as exc:
        raise InputError(f"cannot read the file ({' '.join(str(exc).split())[:200]})", file=str(path),
                         fix="check --sep, --names / --no-header, or use --backend pandas") from None
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)
    df.columns = list(columns) + ["n"]
    return df


def _first_missing_line(path, options, column) -> int | None:
    """The line of the first record of a text file whose cell in ``column`` is missing (read again with the csv
    module, as :func:`implgraph.io.read_options.record_line` counts lines); None for Parquet or Arrow."""
    import csv
    from implgraph.io.microdata_missing import _is_missing
    from implgraph.io.read_options import _dialect, _open_text, file_kind
    kind, comp = file_kind(path)
    if kind != "text":
        return None
    sep, skip = _dialect(path, comp, options)
    markers = set(options.na_values)
    with _open_text(path, comp) as fh:
        reader = csv.reader(fh, delimiter=sep, skipinitialspace=skip)
        names = None if options.header else (list(options.names) if options.names else None)
        for row in reader:
            if not any(cell.strip() for cell in row) and len(row) <= 1:
                continue
            if names is None:
                names = list(options.names) if options.names and options.header else \
                    (row if options.header else [str(i + 1) for i in range(len(row))])
                if options.header:
                    continue
            cell = row[names.index(column)] if column in names and names.index(column) < len(row) else ""
            if _is_missing(cell) or cell.strip() in markers:
                return reader.line_num
    return None


def _weighted_missing(grouped, columns, na, markers, file, path=None, options=None):
    """The missing-value policy on grouped rows (each standing for ``n`` records): ``(grouped, dropped)``."""
    from implgraph.io.microdata import apply_missing, missing_mask
    if markers:
        for col in columns:
            column = grouped[col].astype(object)
            marked = column.map(lambda v: isinstance(v, str) and v.strip() in markers).to_numpy(dtype=bool)
            if marked.any():
                column[marked] = None
                grouped[col] = column
    mask, first = missing_mask(grouped, columns, file)
    if first is None:
        return grouped, 0
    records = int(grouped["n"][mask].sum())
    if na == "refuse":
        line = _first_missing_line(path, options, first[1]) if path is not None else None
        raise InputError(f"column {printable(repr(first[1]))[:80]} has a missing value ({records} record(s) with one "
                         "in a used column)", file=file, line=line,
                         fix="fill them first, drop their records (--na drop) or give them a label of their own "
                             "(--na LABEL): implgraph does not guess what a missing value is")
    out, _ = apply_missing(grouped, columns, na, file)
    return out, records if na == "drop" else 0


def count_tables(path, qi, sensitive, options, file=None, engine: str = "duckdb"):
    """``(tables, N, dropped, numeric)`` counted by ``engine`` (``duckdb``, or ``spark``:
    :mod:`implgraph.io.counting_spark`): one grouped table per sensitive column (as
    :func:`implgraph.io.microdata.microdata_tables` builds it), the records counted, the records dropped by
    ``--na drop``, and whether each sensitive column is numeric."""
    import pandas as pd
    from implgraph.io.microdata import _codes, _sortable, class_codes
    from implgraph.io.weighted import WeightedConcreteTable
    file = file or str(path)
    columns = list(qi) + list(sensitive)
    if engine == "spark":
        from implgraph.io.counting_spark import spark_counts
        grouped = spark_counts(path, qi, sensitive, options)
    else:
        grouped = duckdb_counts(path, qi, sensitive, options)
    grouped, dropped = _weighted_missing(grouped, columns, options.na, set(options.na_values), file, path, options)
    n = int(grouped["n"].sum())
    if n < 2:
        raise InputError(f"the data has {n} record(s)" + (f" once {dropped} with a missing value are dropped"
                                                           if dropped else ""), file=file,
                         fix="give at least 2 records")
    weights = grouped["n"].to_numpy(dtype=np.int64)
    if qi:
        key, labels = class_codes(grouped, qi)
    else:
        key, labels = np.zeros(len(grouped), dtype=np.int64), None
    n_classes = 1 if labels is None else len(labels)
    tables, numeric = {}, {}
    for col in sensitive:
        values, buckets = _codes(grouped[col], sort=_sortable(grouped[col]))
        p = len(buckets)
        counts = np.zeros(n_classes * p, dtype=np.int64)
        np.add.at(counts, key * p + values, weights)                # exact integers (never float weights)
        counts = counts.reshape(n_classes, p)
        tables[col] = WeightedConcreteTable.from_class_counts(counts, labels, [printable(b) for b in buckets],
                                                              id=printable(col))
        numeric[col] = bool(pd.api.types.is_numeric_dtype(grouped[col]))
    return tables, n, dropped, numeric
