"""Reading tables from files: a table of a YAML data file, or a CSV of records (exact rationals).

:func:`load_table_file` builds a validated :class:`~implgraph.core.table.Table` from a YAML file;
:func:`load_csv` reads a CSV of records into a :class:`~implgraph.core.concrete.ConcreteTable`
(a vectorised exact path for plain decimals, a careful path that names the first bad line).
"""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from pathlib import Path


from implgraph.core.errors import InputError
from implgraph.core.table import Table
from implgraph.io.table_data import table_from_node
from implgraph.io.datafile import Node, read_text
from implgraph.io.validate import load_yaml

__all__ = ["load_table_file", "load_csv", "csv_records", "csv_header", "MAX_CSV_BYTES", "MAX_CSV_COLUMNS",
           "MAX_NUMBER_CHARS"]


def load_table_file(path, table_id: str | None = None) -> Table:
    """Load one table from a YAML data file (the only one, or the one named ``table_id``)."""
    data = load_yaml(path)
    if isinstance(data, Node) and "tables" in data:
        entries = data["tables"]
        if not isinstance(entries, list) or not entries:
            raise data.error("`tables:` must be a non-empty list", key="tables", fix="list the tables")
    elif isinstance(data, Node) and "rows" in data:
        entries = [data]
    else:
        raise InputError("not a table file (no `tables:` or `rows:`)", file=str(path),
                         fix="see docs/DATA_FORMAT.md")
    if table_id is None:
        if len(entries) != 1:
            ids = ", ".join(str(e.get("id")) for e in entries)
            raise InputError(f"the file holds {len(entries)} tables ({ids})", file=str(path),
                             fix="name one with `implgraph table ID`")
        return table_from_node(entries[0])
    for e in entries:
        if e.get("id") == table_id:
            return table_from_node(e)
    raise InputError(f"no table with id {table_id!r}", file=str(path), fix="check the id")


MAX_CSV_BYTES = 64 * 2 ** 20
"""Largest CSV read by :func:`load_csv` (bytes)."""
MAX_CSV_COLUMNS = 1000
"""Most columns of a CSV table (buckets, plus ``class``)."""
MAX_NUMBER_CHARS = 100
"""Longest number in a CSV cell (characters); exponents are bounded by the same figure."""
_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)")


def _fraction(text: str, file, line, col) -> Fraction:
    text = text.strip()
    exponent = _EXPONENT.search(text) if len(text) <= MAX_NUMBER_CHARS else None
    if len(text) > MAX_NUMBER_CHARS or (exponent and abs(int(exponent.group(1))) > MAX_NUMBER_CHARS):
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise InputError(f"column {col!r}: {shown!r} is too long or its exponent too large", file=file,
                         line=line, fix=f"write at most {MAX_NUMBER_CHARS} characters and an exponent "
                         f"within +-{MAX_NUMBER_CHARS} (e.g. 0.25, 1/4 or 2.5e-1)")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"column {col!r}: {text!r} is not a number", file=file, line=line,
                         fix="write a decimal like 0.25 or a fraction like 1/4") from None
    return value


_FRACTION_DIGITS = re.compile(r"\.(\d+)")
_DECIMAL_CHARS = str.maketrans("", "", "0123456789. \t\n")
_TWO_DOTS = re.compile(r"\.[^\n]*\.")
_DECIMALS = re.compile(r"[ \t]*(?:\d+\.?\d*|\.\d+)[ \t]*(?:\n[ \t]*(?:\d+\.?\d*|\.\d+)[ \t]*)*")


def _plain_header(text: str):
    """The header of a plain CSV text (no quotes, no carriage returns) and its body, or None when unusual.

    Returns
    -------
    tuple or None
        ``(header, has_class, buckets, body)``: the column names, whether the first is ``class``, the
        bucket names (distinct, none empty, at most ``MAX_CSV_COLUMNS`` columns) and the text after the
        header without its trailing newlines.
    """
    if '"' in text or "\r" in text:
        return None
    head, sep, body = text.partition("\n")
    if not sep:
        return None
    header = [h.strip() for h in head.split(",")]
    has_class = bool(header) and header[0].lower() == "class"
    buckets = header[1:] if has_class else header
    if (not buckets or len(header) > MAX_CSV_COLUMNS or any(not b for b in buckets)
            or len(set(buckets)) != len(buckets)):
        return None
    return header, has_class, buckets, body.rstrip("\n")


def _load_csv_fast(text: str, name: str):
    """Vectorised exact loader for the common case: plain decimals, no quoting.

    Every decimal is an integer numerator over ``10**D`` (``D`` the most decimals seen, at most
    15). numpy parses the decimals as float64 and ``rint(x * 10**D)`` recovers the numerator
    exactly (it is below 2**51, where a correctly rounded double is off by far less than 1/2).
    Returns None whenever anything is unusual (quotes, fractions, bad values, rows that do not
    sum to 1): the careful loader then runs and reports the first problem with its line.
    """
    import numpy as np
    from implgraph.core.concrete import ConcreteTable

    split = _plain_header(text)
    if split is None:
        return None
    header, has_class, buckets, body = split
    lines = body.split("\n")
    ncol = len(header)
    if not body or any(line.count(",") != ncol - 1 for line in lines):
        return None            # blank lines, ragged rows: the careful loader handles them
    parts = body.replace("\n", ",").split(",")
    cols = [parts[j::ncol] for j in range(ncol)]
    classes = None
    if has_class:
        classes = [c.strip() for c in cols[0]]
        if not all(classes):
            return None
        cols = cols[1:]
    digits = 0
    for col in cols:
        joined = "\n".join(col)
        # only digits, dots and blanks, at most one dot per value (cheap C-level checks; anything
        # else, e.g. 1/3, 1e-3, -0.5, nan, goes to the careful loader)
        if joined.translate(_DECIMAL_CHARS) or _TWO_DOTS.search(joined):
            return None
        digits = max([digits] + [len(f) for f in _FRACTION_DIGITS.findall(joined)])
    if digits > 15:
        return None
    scale = 10 ** digits
    try:
        floats = [np.asarray(col, dtype=np.float64) for col in cols]
    except ValueError:          # an empty or malformed value such as "." or "1 2"
        return None
    numer = np.stack([np.rint(x * scale) for x in floats], axis=1)
    numer = numer.astype(np.int64)
    if numer.min() < 0 or numer.max() > scale:
        return None
    if numer.shape[1] == 1:
        numer = np.concatenate([numer, scale - numer], axis=1)
        buckets = [buckets[0], f"not {buckets[0]}"]
    elif not (numer.sum(axis=1) == scale).all():
        return None
    return ConcreteTable.from_numerators(numer, scale, buckets=buckets, classes=classes,
                                         id=Path(name).name)


def csv_records(reader, header, name):
    """``(line number, record)`` for each non-blank record after the header of a CSV reader.

    Raises
    ------
    InputError
        A record whose number of fields differs from the header's (file and line named).
    """
    for lineno, rec in enumerate(_rows(reader, name), start=2):
        if not rec or all(not x.strip() for x in rec):
            continue
        if len(rec) != len(header):
            raise InputError(f"{len(rec)} fields, header has {len(header)}", file=name, line=lineno,
                             fix="give one value per column")
        yield lineno, rec


def _rows(reader, name):
    """The records of a CSV reader; a malformed line (NUL byte, huge field) is an InputError."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(f"malformed CSV ({exc})", file=name, line=max(reader.line_num, 1),
                             fix="save the data as plain CSV (no NUL bytes, quotes closed, fields "
                             "under 100,000 characters)") from None


def csv_header(reader, name) -> tuple[list, bool]:
    """The stripped header of a CSV reader and whether it starts with a ``class`` column.

    Raises
    ------
    InputError
        An empty file, an empty column name, a duplicate column, more than
        :data:`MAX_CSV_COLUMNS` columns (line 1 named).
    """
    header = next(_rows(reader, name), None)
    if header is None:
        raise InputError("empty CSV", file=name, fix="add a header and rows")
    if len(header) > MAX_CSV_COLUMNS:
        raise InputError(f"{len(header)} columns (at most {MAX_CSV_COLUMNS})", file=name, line=1,
                         fix="give fewer buckets")
    header = [h.strip() for h in header]
    has_class = bool(header) and header[0].lower() == "class"
    buckets = header[1:] if has_class else header
    if len(buckets) < 1 or any(not b for b in buckets):
        raise InputError("header must name the bucket columns", file=name, line=1,
                         fix="write e.g. `class,a1,a2`")
    dup = next((b for i, b in enumerate(header) if b in header[:i]), None)
    if dup is not None:
        raise InputError(f"duplicate column {dup!r}", file=name, line=1, fix="rename the columns")
    return header, has_class


def load_csv(path):
    """Load a CSV of records: optional column ``class``, then one column per bucket.

    Values are decimals (``0.25``) or fractions (``1/3``); a single bucket column ``a1`` gets its
    complement ``not a1``. Returns a :class:`~implgraph.core.concrete.ConcreteTable` (exact
    rationals).

    Raises
    ------
    InputError
        A value that is not a number or lies outside [0, 1], a row that does not sum to 1, a
        missing class label, a malformed header or row; the message names the file and the line.
    """
    from implgraph.core.concrete import ConcreteTable

    name = str(path)
    text = read_text(path, limit=MAX_CSV_BYTES, what="a UTF-8 CSV file")
    fast = _load_csv_fast(text, name)
    if fast is not None:
        return fast
    fh = io.StringIO(text, newline="")
    with fh:
        reader = csv.reader(fh)
        header, has_class = csv_header(reader, name)
        buckets = header[1:] if has_class else header
        rows, classes = [], []
        for lineno, rec in csv_records(reader, header, name):
            if has_class:
                label = rec[0].strip()
                if not label:
                    raise InputError("missing class label", file=name, line=lineno,
                                     fix="give every row a class (classes must partition the rows)")
                classes.append(label)
                rec = rec[1:]
            vals = [_fraction(x, name, lineno, buckets[j]) for j, x in enumerate(rec)]
            for j, v in enumerate(vals):
                if v < 0 or v > 1:
                    raise InputError(f"probability {rec[j].strip()} in column {buckets[j]!r} is outside [0,1]",
                                     file=name, line=lineno, fix="use a probability between 0 and 1")
            if len(vals) == 1:
                vals.append(1 - vals[0])
            elif sum(vals) != 1:
                raise InputError(f"the row's probabilities sum to {sum(vals)}, not 1", file=name, line=lineno,
                                 fix="make each row sum to 1")
            rows.append(vals)
        if not rows:
            raise InputError("no records", file=name, fix="add rows below the header")
    if len(buckets) == 1:
        buckets = [buckets[0], f"not {buckets[0]}"]
    return ConcreteTable.from_fractions(rows, buckets=buckets, classes=classes if has_class else None,
                                        id=Path(name).name)
