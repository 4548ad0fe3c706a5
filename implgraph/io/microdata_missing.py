"""Missing values in microdata: which cells are missing, and the policy (refuse, drop, or a label of their own).

A cell is missing when pandas reads none (NaN, None) or it is one of :data:`MISSING` (pandas' markers: ``''``,
``nan``, ``NA``, ...) or a marker given with ``--na-values`` (read as none by the reader). Only the used columns
are looked at, by their distinct values (one ``pandas.factorize`` per column).
"""

from __future__ import annotations

import numpy as np

from implgraph.core.errors import InputError, printable
from implgraph.io.read_options import need_pandas, record_line

__all__ = ["MISSING", "missing_mask", "check_missing", "apply_missing"]


MISSING = frozenset({"", "nan", "NaN", "NAN", "-nan", "-NaN", "NA", "N/A", "n/a", "<NA>", "#N/A", "NULL", "null",
                     "None"})
"""Cells read as a missing value (pandas' default markers): a column holding one is refused (:func:`check_missing`)."""


def missing_mask(df, columns, file=None, coded=None):
    """``(mask, first)``: a boolean array, True for the records with a missing value in one of ``columns`` (NaN,
    None, or a cell of :data:`MISSING`), and the first ``(record, column)`` holding one (None if none).
    The distinct values are looked at, not every cell (one ``pandas.factorize`` per column); a column of lists
    is refused. A dict ``coded`` receives each column's ``(codes, uniques)`` of that factorization (code -1:
    missing to pandas), so that the classes are built without factorizing the columns again."""
    mask = np.zeros(len(df), dtype=bool)
    first = None
    for col in columns:
        codes, uniques = _distinct(df[col], col, file)
        if coded is not None:
            coded[col] = (codes, uniques)
        bad = [i for i, u in enumerate(uniques) if _is_missing(u)]
        missing = codes < 0
        if bad:
            missing = missing | np.isin(codes, bad)
        if missing.any():
            at = int(np.flatnonzero(missing)[0])
            if first is None or at < first[0]:
                first = (at, col)
            mask |= missing
    return mask, first


def check_missing(df, columns, file=None) -> None:
    """Refuse a used column holding a missing value (NaN, None, or a cell of :data:`MISSING`, e.g. ``''``,
    ``nan``, ``NA``, or a marker given with ``--na-values``): counted as a value it would be one more sensitive
    value or one more class, which the data does not say. The error names the first such record (its line when
    read from a text file) and column. Also refuses a column whose cells are not single values (lists: a
    Parquet list column)."""
    mask, first = missing_mask(df, columns, file)
    if first is not None:
        _refuse(df, mask, first, file)


def _refuse(df, mask, first, file) -> None:
    """The error of :func:`check_missing` for the missing values ``mask``, the first at ``first``."""
    at, col = first
    value = df[col].iloc[at]
    if isinstance(value, str):
        shown = "empty" if not value.strip() else printable(repr(value))[:40]
    else:
        shown = "no value: empty or a --na-values marker" if _is_missing(value) and "implgraph_source" in df.attrs \
            else printable(repr(value))[:40]
    line = record_line(df, at)
    if line is None and file and str(file).lower().endswith(".csv") and "implgraph_source" not in df.attrs:
        line = at + 2
    raise InputError(f"column {printable(repr(col))[:80]} has a missing value ({shown}, record {at + 1}; "
                     f"{int(mask.sum())} in all)", file=file, line=line,
                     fix="fill them first, drop their records (--na drop) or give them a label of their own "
                         "(--na LABEL): implgraph does not guess what a missing value is")


def apply_missing(df, columns, na: str = "refuse", file=None, coded=None):
    """The records after the missing-value policy ``na`` on the used ``columns``: ``(df, dropped)``.

    ``refuse`` (the default): an error naming the first missing value (:func:`check_missing`); ``drop``: the
    records with a missing value in a used column are left out (their number is ``dropped``); any other text:
    a missing value is that label, a value of its own (refused when the column already holds it as a value).
    Columns not used are not looked at. A dict ``coded`` receives the used columns' codes of the records kept
    (:func:`missing_mask`; cleared when a label replaces missing values).
    """
    na = "refuse" if na is None else str(na)
    mask, first = missing_mask(df, columns, file, coded)
    if first is None:
        return df, 0
    if na == "refuse":
        _refuse(df, mask, first, file)
    if na == "drop":
        kept = df.loc[~mask]
        kept.attrs = dict(df.attrs)
        if coded is not None:
            for col, (codes, uniques) in list(coded.items()):
                coded[col] = (codes[~mask], uniques)
        return kept, int(mask.sum())
    if coded is not None:
        coded.clear()
    out = df.copy()
    for col in columns:
        col_mask, _ = missing_mask(df, [col], file)
        if not col_mask.any():
            continue
        column = df[col].astype(object)
        if (column[~col_mask].astype(str) == na).any():
            raise InputError(f"--na {printable(repr(na))[:40]}: column {printable(repr(col))[:80]} already holds "
                             "that value", file=file,
                             fix="choose a label the column does not hold, or --na drop")
        column[col_mask] = na
        out[col] = column
    out.attrs = dict(df.attrs)
    return out, 0


def _is_missing(value) -> bool:
    pd = need_pandas()
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float):
        return value != value                       # NaN (Arrow keeps it apart from null)
    return isinstance(value, str) and value.strip() in MISSING


def _distinct(column, name, file):
    """``pandas.factorize(column)``: a code per record (-1 where pandas sees a missing value) and the distinct
    values; a column of lists or other nested values is refused (one value per cell)."""
    pd = need_pandas()
    nested = False
    if isinstance(column.dtype, getattr(pd, "ArrowDtype", ())):
        import pyarrow as pa
        nested = pa.types.is_nested(column.dtype.pyarrow_dtype)
    if not nested:
        try:
            codes, uniques = pd.factorize(column)
        except TypeError:                             # unhashable cells: lists, dicts, arrays
            nested = True
    if nested:
        raise InputError(f"column {printable(repr(name))[:80]} holds lists or other nested values, not one value per "
                         "record", file=file, fix="give one value per cell (e.g. join a list into one label)")
    uniques = list(uniques)
    if any(isinstance(u, (list, tuple, dict, set, np.ndarray)) for u in uniques):
        raise InputError(f"column {printable(repr(name))[:80]} holds lists or other nested values, not one value per "
                         "record", file=file, fix="give one value per cell (e.g. join a list into one label)")
    return np.asarray(codes), uniques
