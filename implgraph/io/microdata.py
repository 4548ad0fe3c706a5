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
import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions.levels import Level, has_fast_path, optimal_level
from implgraph.core.pieces import Piece
from implgraph.definitions import all_definitions
from implgraph.definitions.base import read_shared_params
from implgraph.definitions.capabilities import FiniteLevelOf, MinClassSize, SubsetSize, family_of
from implgraph.io.weighted import WeightedConcreteTable

__all__ = ["read_microdata", "microdata_tables", "levels_of", "infinite_reason", "default_ground", "check_missing",
           "apply_missing", "missing_mask", "MISSING"]

SUFFIXES = (".csv", ".tsv", ".data", ".txt", ".parquet", ".pq", ".arrow", ".feather", ".ipc")


def _pandas():
    """pandas, imported on first use (InputError naming the extra to install when it is missing)."""
    try:
        import pandas
    except ImportError:
        raise InputError("reading microdata needs pandas", fix="pip install 'implgraph[microdata]'") from None
    return pandas


def read_microdata(data, file: str | None = None, options=None):
    """A pandas DataFrame from ``data``: a DataFrame (returned as is) or the path of a microdata file.

    A file is read by :func:`implgraph.io.read_options.read_records` with ``options``
    (:class:`~implgraph.io.read_options.ReadOptions`: separator, header, names, missing-value markers; the
    defaults read a CSV with a header): text (.csv, .tsv, .data, .txt, optionally compressed), Parquet or
    Arrow. Cells are read with pandas' type inference (a numeric column stays numeric, so its values are
    ordered by number); every other cell is a label as written. A missing value is handled where a column is
    used (:func:`apply_missing`); a header naming a column twice is refused here.
    """
    from implgraph.io.read_options import check_header
    pd = _pandas()
    if isinstance(data, pd.DataFrame):
        check_header(list(data.columns), file)
        return data
    if not isinstance(data, (str, Path)):
        raise InputError(f"microdata is a pandas DataFrame or a path, not {type(data).__name__}", file=file,
                         fix="give a DataFrame, or the path of a .csv, .parquet or .arrow file")
    from implgraph.io.read_options import read_records
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


MISSING = frozenset({"", "nan", "NaN", "NAN", "-nan", "-NaN", "NA", "N/A", "n/a", "<NA>", "#N/A", "NULL", "null",
                     "None"})
"""Cells read as a missing value (pandas' default markers): a column holding one is refused (:func:`check_missing`)."""


def missing_mask(df, columns, file=None):
    """``(mask, first)``: a boolean array, True for the records with a missing value in one of ``columns`` (NaN,
    None, or a cell of :data:`MISSING`), and the first ``(record, column)`` holding one (None if none).
    The distinct values are looked at, not every cell (one ``pandas.factorize`` per column); a column of lists
    is refused."""
    mask = np.zeros(len(df), dtype=bool)
    first = None
    for col in columns:
        codes, uniques = _distinct(df[col], col, file)
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
    if first is None:
        return
    at, col = first
    value = df[col].iloc[at]
    if isinstance(value, str):
        shown = "empty" if not value.strip() else printable(repr(value))[:40]
    else:
        shown = "no value: empty or a --na-values marker" if _is_missing(value) and "implgraph_source" in df.attrs \
            else printable(repr(value))[:40]
    from implgraph.io.read_options import record_line
    line = record_line(df, at)
    if line is None and file and str(file).lower().endswith(".csv") and "implgraph_source" not in df.attrs:
        line = at + 2
    raise InputError(f"column {printable(repr(col))[:80]} has a missing value ({shown}, record {at + 1}; "
                     f"{int(mask.sum())} in all)", file=file, line=line,
                     fix="fill them first, drop their records (--na drop) or give them a label of their own "
                         "(--na LABEL): implgraph does not guess what a missing value is")


def apply_missing(df, columns, na: str = "refuse", file=None):
    """The records after the missing-value policy ``na`` on the used ``columns``: ``(df, dropped)``.

    ``refuse`` (the default): an error naming the first missing value (:func:`check_missing`); ``drop``: the
    records with a missing value in a used column are left out (their number is ``dropped``); any other text:
    a missing value is that label, a value of its own (refused when the column already holds it as a value).
    Columns not used are not looked at.
    """
    na = "refuse" if na is None else str(na)
    if na == "refuse":
        check_missing(df, columns, file)
        return df, 0
    mask, first = missing_mask(df, columns, file)
    if first is None:
        return df, 0
    if na == "drop":
        kept = df.loc[~mask]
        kept.attrs = dict(df.attrs)
        return kept, int(mask.sum())
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
    pd = _pandas()
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float):
        return value != value                       # NaN (Arrow keeps it apart from null)
    return isinstance(value, str) and value.strip() in MISSING


def _distinct(column, name, file):
    """``pandas.factorize(column)``: a code per record (-1 where pandas sees a missing value) and the distinct
    values; a column of lists or other nested values is refused (one value per cell)."""
    pd = _pandas()
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


def _codes(column, sort: bool):
    """(integer code per record, distinct values) of one column (pandas.factorize, labels as written)."""
    pd = _pandas()
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


def class_codes(df, qi):
    """(class index per record, class labels): equal quasi-identifier tuples share a class.

    Classes are numbered in order of first appearance; a label reads ``age=[40-59], zip=13*``.
    """
    key = np.zeros(len(df), dtype=np.int64)
    columns = []
    for col in qi:
        codes, uniques = _codes(df[col], sort=False)
        columns.append((codes, np.asarray([printable(f"{col}={u}") for u in uniques], dtype=object)))
        key = key * max(len(uniques), 1) + codes
        key, _ = _codes(key, sort=False)               # renumber: the key stays below N
    # codes are numbered in order of first appearance: the running maximum rises at each new class
    firsts = np.flatnonzero(np.diff(np.maximum.accumulate(key), prepend=-1))
    parts = [names[codes[firsts]] for codes, names in columns]
    labels = [", ".join(t) for t in zip(*parts)]
    if len(set(labels)) < len(labels):                  # values with ", " or "=" in them: number them
        labels = [f"E{i + 1}: {lab}" for i, lab in enumerate(labels)]
    return key, labels


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
    qi, sensitive = check_names(df, qi, sensitive, file)
    df, dropped = apply_missing(df, qi + sensitive, na, file)
    if len(df) < 2:
        raise InputError(f"the data has {len(df)} record(s)" + (f" once {dropped} with a missing value are dropped"
                                                                 if dropped else ""),
                         file=file, fix="give at least 2 records")
    if qi:
        key, labels = class_codes(df, qi)
    else:
        key, labels = np.zeros(len(df), dtype=np.int64), None
    n_classes = 1 if labels is None else len(labels)
    out = {}
    for col in sensitive:
        values, buckets = _codes(df[col], sort=_sortable(df[col]))
        p = len(buckets)
        counts = np.bincount(key * p + values, minlength=n_classes * p).reshape(n_classes, p)
        out[col] = WeightedConcreteTable.from_class_counts(counts, labels, [printable(b) for b in buckets],
                                                           id=printable(col))
    return out


def _sortable(column) -> bool:
    pd = _pandas()
    return pd.api.types.is_numeric_dtype(column) or pd.api.types.is_string_dtype(column)


def default_ground(data, column) -> str:
    """The EMD ground distance for a sensitive column: ``ordered`` (by value) for a numeric column,
    ``equal`` otherwise (Li et al. 2007's choice for numerical and categorical attributes)."""
    pd = _pandas()
    return "ordered" if pd.api.types.is_numeric_dtype(read_microdata(data)[column]) else "equal"


def _params(d, n, params) -> dict:
    """The values of ``params`` for the parameters ``d`` declares (k defaults to 2, or 1 when N <= 2)."""
    out = {name: params[name] for name in d.params if params.get(name) is not None}
    if "k" in d.params and "k" not in out:
        out["k"] = 2 if n > 2 else 1
    return out


def table_levels(ct: WeightedConcreteTable, params: dict | None = None, ground=None) -> dict:
    """``{definition name: Level}`` for every registered definition on one grouped table.

    ``params`` maps a parameter name (``k``, ``delta``, ``l``, ``ground``...) to the value every
    definition declaring that parameter gets; a definition missing a value it needs is reported
    undefined with the reason. ``ground`` is a default ground distance, used where the definition
    accepts it (an explicit ``params["ground"]`` always wins). A definition with an exact concrete
    view reads the grouped table; one without (a plugin with a symbolic view only) reads the same
    records as blocks with counts.
    """
    params = read_shared_params(params, ct.N)
    out = {}
    blocks = None
    for d in all_definitions():
        mine = _params(d, ct.N, params)
        tries = [{**mine, "ground": ground}, mine] if "ground" in d.params and "ground" not in mine and ground \
            else [mine]
        for i, attempt in enumerate(tries):
            try:
                if has_fast_path(d):
                    out[d.name] = optimal_level(ct, d, **attempt)
                else:
                    blocks = blocks or _blocks_table(ct)
                    out[d.name] = optimal_level(blocks, d, **attempt)
                break
            except InputError as exc:
                if i == len(tries) - 1:
                    out[d.name] = Level(d, attempt, [Piece(sympy.true, None)], note=exc.reason)
    return out


def _blocks_table(ct: WeightedConcreteTable):
    """The grouped table as a :class:`~implgraph.core.table.Table` of blocks with counts."""
    from implgraph.core.table import Block, Table
    blocks = []
    for r in range(len(ct.counts)):
        probs = tuple(sympy.Rational(int(x), ct.denom) for x in ct.rows[r])
        cls = None if ct.row_class is None else ct.class_labels[int(ct.row_class[r])]
        blocks.append(Block(probs=probs, count=sympy.Integer(int(ct.counts[r])), cls=cls, line=r + 2))
    return Table(blocks=blocks, buckets=list(ct.buckets), id=ct.id)


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
    df = read_microdata(data, file, options)
    tables = microdata_tables(df, qi, sensitive, file=file or (str(data) if isinstance(data, (str, Path)) else None),
                              na=na)
    if params is not None and not isinstance(params, dict):
        raise InputError(f"params must be a dict of name: value, not {type(params).__name__}",
                         fix='give e.g. params={"delta": "1/100"}')
    params = {**(params or {}), **({"k": k} if k is not None else {}), **({"ground": ground} if ground else {})}
    return {col: table_levels(ct, params, ground=default_ground(df, col)) for col, ct in tables.items()}


def infinite_reason(level, ct) -> str:
    """Why ``level`` is infinite on the deterministic table ``ct`` ('' if it is finite).

    The cause is read from what the definition declares: a minimum class size (:class:`MinClassSize`) that a
    class is below; a cap on a class's increase (:class:`FiniteLevelOf`) that a class exceeds; otherwise, every
    probability of a deterministic table being 0 or 1, a level that compares probabilities by their ratio is
    infinite as soon as a 0 meets a positive probability, and the record sets the definition compares (its
    declared ``family``) say which (a class lacking a value is named).
    """
    if level.value is not sympy.oo:
        return ""
    d = level.definition
    floor = d.declared(MinClassSize)
    if floor is not None and ct.class_labels is not None and level.params.get(floor.param) is not None:
        k = int(level.params[floor.param])
        sizes, _ = ct.class_sums()
        small = [i for i, s in enumerate(sizes.tolist()) if s < k]
        if small:
            i = min(small, key=lambda j: (int(sizes[j]), j))
            return (f"infinite because {len(small)} class(es) have fewer than {floor.param} = {k} records "
                    f"(the smallest, {ct.class_labels[i]}, has {int(sizes[i])})")
    finite = d.declared(FiniteLevelOf)
    if finite is not None and finite.increase_cap:
        from implgraph.definitions import get
        other = optimal_level(ct, get(finite.name), **{k: v for k, v in level.params.items()
                                                      if k in get(finite.name).params})
        if other.value is not sympy.oo:
            return (f"infinite because a class's increase q/p - 1 over the table's share p of a value exceeds the cap "
                    f"{finite.increase_cap} ({finite.name} alone is {other.value})")
    why = "a probability 0 is compared with a positive one"
    family = family_of(d)
    if family == "pairwise":
        why = "two records hold different values (probability 1 for one, 0 for the other)"
    elif family == "class":
        why = "a class lacks a value the table holds (probability 0 in the class" + _lacking(ct) + ")"
    elif family == "subset":
        j = d.declared(SubsetSize).size(ct.N, {k: int(v) for k, v in level.params.items() if k == "k"})
        why = f"some set of {j} records lacks a value the table holds (probability 0 in the set)"
    return f"infinite because the table is deterministic: {why}"


def _lacking(ct) -> str:
    """``; e.g. CLASS lacks VALUE`` for the first class lacking a value the table holds ('' if none)."""
    if ct.class_labels is None:
        return ""
    _, sums = ct.class_sums()
    totals = sums.sum(axis=0)
    for i, row in enumerate(sums.tolist()):
        for v, c in enumerate(row):
            if c == 0 and totals[v] > 0:
                return f"; e.g. {ct.class_labels[i]} lacks {ct.buckets[v]}"
    return ""
