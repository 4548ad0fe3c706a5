"""Microdata in, exact levels out: a CSV, Parquet file or pandas DataFrame of records.

Each row is one record. The quasi-identifier columns (``qi``) define the equivalence classes
(records with equal quasi-identifier tuples); each sensitive column defines the buckets (its
distinct values). Every value is read as a label: generalised values such as ``[40-59]`` or
``13*`` and categorical values are compared as they are written. A record holds its own
sensitive value with probability 1 and every other value with probability 0, so the data set is a
deterministic table and every registered definition applies to it; the table is stored grouped
(one row per class and value, with its count: :class:`~implgraph.io.weighted.WeightedConcreteTable`),
never one row per record, and every level is computed by the definition's exact ``concrete`` view.

pandas (and pyarrow, for Parquet) are imported here only, when microdata is read.

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"zip": ["13*", "13*", "14*", "14*"], "disease": ["flu", "hiv", "flu", "flu"]})
>>> levels = levels_of(df, qi=["zip"], sensitive=["disease"])
>>> from implgraph.definitions import all_definitions
>>> count = [d for d in all_definitions() if d.needs_classes and d.level_scale.name == "count"][0]
>>> str(levels["disease"][count.name].value) in ("1", "2")
True
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from implgraph.core.errors import InputError, printable
from implgraph.io.microdata_missing import MISSING, apply_missing, check_missing, missing_mask
from implgraph.io.read_options import check_header, need_pandas, read_records
from implgraph.io.weighted import WeightedConcreteTable

__all__ = ["read_microdata", "microdata_tables", "levels_of", "infinite_reason", "default_ground", "check_missing",
           "apply_missing", "missing_mask", "MISSING", "table_levels", "class_codes", "check_names", "count_records", "bucket_codes"]

def __getattr__(name):
    """:func:`table_levels` and :func:`infinite_reason` (:mod:`implgraph.io.microdata_levels`), imported on first
    use: they import sympy and the registry of definitions, which reading and counting records do not need."""
    if name in ("table_levels", "infinite_reason"):
        from implgraph.io import microdata_levels
        return getattr(microdata_levels, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


SUFFIXES = (".csv", ".tsv", ".data", ".txt", ".parquet", ".pq", ".arrow", ".feather", ".ipc")


def read_microdata(data, file: str | None = None, options=None):
    """A pandas DataFrame from ``data``: a DataFrame (returned as is) or the path of a microdata file.

    A file is read by :func:`implgraph.io.read_options.read_records` with ``options``
    (:class:`~implgraph.io.read_options.ReadOptions`: separator, header, names, missing-value markers; the
    defaults read a CSV with a header): text (.csv, .tsv, .data, .txt, optionally compressed), Parquet or
    Arrow. Cells are read with pandas' type inference (a numeric column stays numeric, so its values are
    ordered by number); every other cell is a label as written. A missing value is handled where a column is
    used (:func:`apply_missing`); a header naming a column twice is refused here.
    """
    pd = need_pandas()
    if isinstance(data, pd.DataFrame):
        check_header(list(data.columns), file)
        return data
    if not isinstance(data, (str, Path)):
        raise InputError(f"microdata is a pandas DataFrame or a path, not {type(data).__name__}", file=file,
                         fix="give a DataFrame, or the path of a .csv, .parquet or .arrow file")
    return read_records(data, options)


def _check_columns(df, names, what, file):
    missing = [c for c in names if c not in df.columns]
    if missing:
        shown = ", ".join(printable(repr(c))[:80] for c in missing[:5]) + (", ..." if len(missing) > 5 else "")
        choices = ", ".join(printable(c)[:80] for c in list(df.columns)[:50]) + (", ..." if len(df.columns) > 50 else "")
        source = df.attrs.get("implgraph_source") or {}
        hint = "; if the first line is a record, give --no-header (and --names a,b,...)" \
            if source.get("kind") == "text" and source.get("header") else ""
        raise InputError(f"{what} column(s) {shown} not in the data", file=file, line=1,
                         fix="choose among " + choices + hint)


def _codes(column, sort: bool):
    """(integer code per record, distinct values) of one column (pandas.factorize, labels as written)."""
    pd = need_pandas()
    try:
        codes, uniques = pd.factorize(column, sort=sort)
    except TypeError:                               # values of several types: order of appearance
        codes, uniques = pd.factorize(column, sort=False)
    codes, uniques = codes.astype(np.int64, copy=False), list(uniques)
    missing = codes < 0
    if missing.any():                               # a missing value (NaN, None) is one more label
        codes[missing] = len(uniques)
        uniques.append(column[missing].iloc[0] if hasattr(column, "iloc") else None)
    return codes, uniques


def _coded(df, col, coded):
    """``(codes, uniques)`` of one column: those of ``coded`` (the missing-value check's factorization) when it
    holds the column and no record lacks a value, else :func:`_codes` in order of first appearance."""
    if coded is not None and col in coded:
        codes, uniques = coded[col]
        if not len(codes) or codes.min() >= 0:
            return codes.astype(np.int64, copy=False), uniques
    return _codes(df[col], sort=False)


_KEY_LIMIT = 2 ** 62


def class_codes(df, qi, coded=None):
    """(class index per record, class labels): equal quasi-identifier tuples share a class.

    Classes are numbered in order of first appearance; a label reads ``age=[40-59], zip=13*``. The columns'
    codes are combined in mixed radix and numbered once (renumbered on the way only when the product of the
    columns' numbers of values would pass 2^62). ``coded``: the columns' codes already at hand
    (:func:`~implgraph.io.microdata_missing.missing_mask`).
    """
    key = np.zeros(len(df), dtype=np.int64)
    span, columns = 1, []
    for col in qi:
        codes, uniques = _coded(df, col, coded)
        columns.append((codes, np.asarray([printable(f"{col}={u}") for u in uniques], dtype=object)))
        radix = max(len(uniques), 1)
        if span * radix >= _KEY_LIMIT:
            key, _ = _codes(key, sort=False)            # renumber: the key stays below N
            span = int(key.max()) + 1 if len(key) else 1
        key = key * radix + codes
        span *= radix
    key, _ = _codes(key, sort=False)
    # codes are numbered in order of first appearance: the running maximum rises at each new class
    firsts = np.flatnonzero(np.diff(np.maximum.accumulate(key), prepend=-1))
    parts = [names[codes[firsts]] for codes, names in columns]
    labels = [", ".join(t) for t in zip(*parts)]
    if len(set(labels)) < len(labels):                  # values with ", " or "=" in them: number them
        labels = [f"E{i + 1}: {lab}" for i, lab in enumerate(labels)]
    return key, labels


def bucket_codes(column, coded_column=None):
    """``(code per record, buckets)`` of a sensitive column: its distinct values, sorted when
    :func:`_sortable` (as ``pandas.factorize(sort=True)``), else in order of first appearance.
    ``coded_column``: its ``(codes, uniques)`` in order of first appearance, already at hand; only the values
    present are then sorted (the first record of each), not the whole column again."""
    sort = _sortable(column)
    if coded_column is None or (len(coded_column[0]) and coded_column[0].min() < 0) or not len(column):
        return _codes(column, sort=sort)
    codes = coded_column[0].astype(np.int64, copy=False)
    firsts = np.flatnonzero(np.diff(np.maximum.accumulate(codes), prepend=-1))
    present = column.iloc[firsts]
    order, uniques = _codes(present, sort=sort)
    remap = np.zeros(int(codes.max()) + 1, dtype=np.int64)
    remap[codes[firsts]] = order
    return remap[codes], uniques


def check_names(df, qi, sensitive, file=None) -> tuple:
    """``(qi, sensitive)`` as lists, checked: lists of distinct names of columns of ``df``, at least one sensitive
    column, no column both (InputError otherwise)."""
    for names, what in ((qi, "qi"), (sensitive, "sensitive")):
        if isinstance(names, str):
            raise InputError(f"{what} must be a list of column names, not the text {printable(repr(names))[:60]}",
                             file=file, fix=f"give e.g. {what}=[{names!r}]")
    qi, sensitive = list(qi or []), list(sensitive or [])
    if not sensitive:
        raise InputError("no sensitive column given", file=file, fix="give --sensitive COLUMN[,COLUMN...]")
    for names, what in ((qi, "quasi-identifier"), (sensitive, "sensitive")):
        twice = [c for i, c in enumerate(names) if c in names[:i]]
        if twice:
            raise InputError(f"the {what} column {printable(repr(twice[0]))[:80]} is named twice",
                             file=file, fix="name each column once")
    both = [c for c in sensitive if c in qi]
    if both:
        raise InputError(f"column {printable(repr(both[0]))[:80]} is both a quasi-identifier and sensitive",
                         file=file, fix="name it in --qi or in --sensitive, not both")
    _check_columns(df, qi, "quasi-identifier", file)
    _check_columns(df, sensitive, "sensitive", file)
    return qi, sensitive


def microdata_tables(data, qi, sensitive, file: str | None = None, na: str = "refuse") -> dict:
    """One grouped deterministic table per sensitive column: ``{column: WeightedConcreteTable}``.

    Parameters
    ----------
    data : pandas.DataFrame or str or Path
    qi : list of str
        Quasi-identifier columns; empty: a table without equivalence classes.
    sensitive : list of str
        Sensitive columns, one table each. Buckets are the column's distinct values, sorted
        (by number for a numeric column, as text otherwise).
    na : str
        The missing-value policy on the used columns (:func:`apply_missing`): ``refuse``, ``drop`` or a label.
    """
    df = read_microdata(data, file)
    file = file or (None if not isinstance(data, (str, Path)) else str(data))
    return count_records(df, qi, sensitive, file, na)[0]


def count_records(df, qi, sensitive, file=None, na: str = "refuse") -> tuple:
    """``(tables, N, dropped)``: :func:`microdata_tables` of the DataFrame ``df``, with the records counted
    and the records dropped by ``na = "drop"``. Each used column is factorized once, for the missing-value
    check, the classes and the buckets together."""
    qi, sensitive = check_names(df, qi, sensitive, file)
    coded = {}
    df, dropped = apply_missing(df, qi + sensitive, na, file, coded)
    if len(df) < 2:
        raise InputError(f"the data has {len(df)} record(s)" + (f" once {dropped} with a missing value are dropped"
                                                                 if dropped else ""),
                         file=file, fix="give at least 2 records")
    if qi:
        key, labels = class_codes(df, qi, coded)
    else:
        key, labels = np.zeros(len(df), dtype=np.int64), None
    n_classes = 1 if labels is None else len(labels)
    out = {}
    for col in sensitive:
        values, buckets = bucket_codes(df[col], coded.get(col))
        p = len(buckets)
        counts = np.bincount(key * p + values, minlength=n_classes * p).reshape(n_classes, p)
        out[col] = WeightedConcreteTable.from_class_counts(counts, labels, [printable(b) for b in buckets],
                                                           id=printable(col))
    return out, len(df), dropped


def _sortable(column) -> bool:
    pd = need_pandas()
    return pd.api.types.is_numeric_dtype(column) or pd.api.types.is_string_dtype(column)


def default_ground(data, column) -> str:
    """The EMD ground distance for a sensitive column: ``ordered`` (by value) for a numeric column,
    ``equal`` otherwise (Li et al. 2007's choice for numerical and categorical attributes)."""
    pd = need_pandas()
    return "ordered" if pd.api.types.is_numeric_dtype(read_microdata(data)[column]) else "equal"


def levels_of(data, qi, sensitive, k=None, ground=None, params=None, file=None, na="refuse", options=None) -> dict:
    """Every registered definition's exact level on microdata, one result per sensitive column.

    Parameters
    ----------
    data : pandas.DataFrame or str or Path
        The records (a CSV or Parquet path, or a DataFrame).
    qi, sensitive : list of str
        Quasi-identifier and sensitive columns.
    k : int, optional
        Group size of the definitions with a parameter ``k`` (default 2).
    ground : {"equal", "ordered"}, optional
        EMD ground distance; default :func:`default_ground` per sensitive column.
    params : dict, optional
        Other parameters by name (e.g. ``{"delta": "1/100", "l": 2}``), given to every definition
        that declares them.
    na : str
        The missing-value policy (:func:`apply_missing`): ``refuse`` (default), ``drop`` or a label.
    options : implgraph.io.read_options.ReadOptions, optional
        How a file is read (separator, header, names, missing-value markers).

    Returns
    -------
    dict
        ``{sensitive column: {definition name: Level}}``.
    """
    from implgraph.io.microdata_levels import table_levels
    df = read_microdata(data, file, options)
    tables = microdata_tables(df, qi, sensitive, file=file or (str(data) if isinstance(data, (str, Path)) else None),
                              na=na)
    if params is not None and not isinstance(params, dict):
        raise InputError(f"params must be a dict of name: value, not {type(params).__name__}",
                         fix='give e.g. params={"delta": "1/100"}')
    params = {**(params or {}), **({"k": k} if k is not None else {}), **({"ground": ground} if ground else {})}
    return {col: table_levels(ct, params, ground=default_ground(df, col)) for col, ct in tables.items()}
