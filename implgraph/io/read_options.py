"""How a microdata file is read: its kind, separator, header and missing-value markers (typed readers only).

A file is read by pandas (text) or pyarrow (Parquet, Arrow): every cell is a typed value or a label, never
an expression; nothing a file holds reaches a formula reader or anything that runs code.

- **Kinds**, by extension: text (``.csv``, ``.tsv``, ``.data``, ``.txt``), Parquet (``.parquet``, ``.pq``),
  Arrow IPC (``.arrow``, ``.feather``, ``.ipc``); a text file may be compressed (``.gz``, ``.bz2``, ``.xz``,
  ``.zip`` with one member), e.g. ``adult.data.gz``.
- **Separator** (text): ``sep`` given, or a tab for ``.tsv``, or sniffed from the first 64 KiB among
  ``, ; tab |`` (:class:`csv.Sniffer`); a separator followed by spaces (UCI Adult's ``", "``) drops the
  spaces after it.
- **Header**: the first line names the columns (default); ``names`` renames them (with ``header``) or
  names a file without one; a file without a header and without names has columns ``1``, ``2``, ...
- **Missing values**: a cell is missing when pandas sees none, or it is one of
  :data:`implgraph.io.microdata.MISSING` (``''``, ``NA``, ``nan``, ...) or of ``na_values`` (e.g. ``?``);
  what then happens is the policy ``na`` (:func:`implgraph.io.microdata.apply_missing`).

Examples
--------
>>> ReadOptions.from_text(sep=None, names="a,b", header=True, na="drop", na_values="?")
ReadOptions(sep=None, header=True, names=('a', 'b'), na='drop', na_values=('?',))
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from implgraph.core.errors import InputError, printable

__all__ = ["ReadOptions", "file_kind", "TEXT", "PARQUET", "ARROW", "COMPRESSED", "read_records", "record_line",
           "NA_POLICIES", "need_pandas"]

TEXT = (".csv", ".tsv", ".data", ".txt")
PARQUET = (".parquet", ".pq")
ARROW = (".arrow", ".feather", ".ipc")
COMPRESSED = (".gz", ".bz2", ".xz", ".zip")
#: the policies for a missing value besides a label of its own
NA_POLICIES = ("refuse", "drop")
SNIFF_BYTES = 1 << 16
SNIFFED = ",;\t|"


@dataclass(frozen=True)
class ReadOptions:
    """How to read a microdata file (the defaults read a CSV with a header and refuse missing values).

    Parameters
    ----------
    sep : str or None
        The separator of a text file (one character, optionally followed by spaces); None: sniffed.
    header : bool
        Whether the first line names the columns.
    names : tuple of str or None
        Column names (replacing the header's, or naming a file without one).
    na : str
        ``refuse`` (the default), ``drop`` (the records with a missing value in a used column), or any other
        text: the label a missing value gets.
    na_values : tuple of str
        More cells read as missing (e.g. ``?``), besides pandas' markers.
    """

    sep: str | None = None
    header: bool = True
    names: tuple | None = None
    na: str = "refuse"
    na_values: tuple = ()

    @classmethod
    def from_text(cls, sep=None, names=None, header=True, na=None, na_values=None) -> "ReadOptions":
        """Options from the command line's texts (``--sep``, ``--names a,b``, ``--no-header``, ``--na``,
        ``--na-values '?'``), checked (InputError naming the option)."""
        if sep is not None:
            sep = {"\\t": "\t", "tab": "\t", "TAB": "\t"}.get(sep, sep)
            if not sep.strip() or len(sep.strip()) != 1 or sep.strip() in "\"\r\n":
                raise InputError(f"--sep {printable(repr(sep))[:20]} is not one character (optionally followed by "
                                 "spaces)", fix="give e.g. --sep ';' or --sep ', ' or --sep '\\t'")
            if sep != sep.strip() and not sep.startswith(sep.strip()):
                raise InputError(f"--sep {printable(repr(sep))[:20]} starts with spaces",
                                 fix="give the separator then the spaces after it, e.g. --sep ', '")
        cols = None
        if names is not None:
            cols = tuple(c.strip() for c in str(names).split(","))
            if not all(cols):
                raise InputError(f"--names {printable(repr(names))[:80]} has an empty column name",
                                 fix="give column names separated by commas, e.g. --names age,zip,disease")
            twice = [c for i, c in enumerate(cols) if c in cols[:i]]
            if twice:
                raise InputError(f"--names names the column {printable(repr(twice[0]))[:80]} twice",
                                 fix="give every column its own name")
        na = "refuse" if na is None else str(na)
        if not na.strip():
            raise InputError("--na '' is empty", fix="give --na refuse, --na drop, or a label such as --na unknown")
        extra = ()
        if na_values is not None:
            extra = tuple(v.strip() for v in str(na_values).split(","))
            if not all(extra):
                raise InputError(f"--na-values {printable(repr(na_values))[:40]} has an empty marker",
                                 fix="give markers separated by commas, e.g. --na-values '?,-'")
        return cls(sep=sep, header=bool(header), names=cols, na=na, na_values=extra)


def need_pandas():
    """pandas, imported on first use (InputError naming the extra to install when it is missing)."""
    try:
        import pandas
    except ImportError:
        raise InputError("reading microdata needs pandas", fix="pip install 'implgraph[microdata]'") from None
    return pandas


def file_kind(path) -> tuple:
    """``(kind, compression)`` of a file name: kind ``text``, ``parquet`` or ``arrow``, compression the
    compressed suffix or None; None for an unknown kind.

    >>> file_kind("adult.data.gz"), file_kind("x.parquet"), file_kind("adult")
    (('text', '.gz'), ('parquet', None), None)
    """
    suffixes = [s.lower() for s in Path(path).suffixes]
    comp = suffixes[-1] if suffixes and suffixes[-1] in COMPRESSED else None
    inner = suffixes[-2] if comp and len(suffixes) >= 2 else (suffixes[-1] if suffixes and not comp else "")
    if inner in TEXT:
        return "text", comp
    if inner in PARQUET and not comp:
        return "parquet", None
    if inner in ARROW and not comp:
        return "arrow", None
    return None


def existing_kind(path, options) -> tuple:
    """``(kind, compression)`` of an existing file (:func:`file_kind`) for a backend that reads it itself:
    InputError (one line, naming the file) for an unknown kind or a missing file."""
    kind = file_kind(path)
    if kind is None:
        read_records(path, options)                     # its error names the file and the kinds
    if not Path(path).is_file():
        raise InputError("no such file", file=str(path), fix="check the path")
    return kind


def _open_text(path, comp):
    """A text stream of a (possibly compressed) file, UTF-8 with a leading BOM dropped."""
    if comp is None:
        return open(path, newline="", encoding="utf-8-sig")
    if comp == ".zip":
        import zipfile
        zf = zipfile.ZipFile(path)
        members = [m for m in zf.namelist() if not m.endswith("/")]
        if len(members) != 1:
            raise InputError(f"the zip archive holds {len(members)} files", file=str(path),
                             fix="give an archive holding one data file, or the file itself")
        return io.TextIOWrapper(zf.open(members[0]), newline="", encoding="utf-8-sig")
    import bz2
    import gzip
    import lzma
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}[comp]
    return opener(path, "rt", newline="", encoding="utf-8-sig")


def _dialect(path, comp, options: ReadOptions) -> tuple:
    """``(separator, skip spaces after it)``: given, a tab for ``.tsv``, or sniffed."""
    if options.sep is not None:
        return options.sep.strip(), options.sep != options.sep.strip()
    inner = Path(str(path)[: -len(comp)] if comp else str(path)).suffix.lower()
    if inner == ".tsv":
        return "\t", False
    with _open_text(path, comp) as fh:
        sample = fh.read(SNIFF_BYTES)
    lines = [line for line in sample.splitlines() if line.strip()]
    if len(sample) >= SNIFF_BYTES and len(lines) > 1:
        lines = lines[:-1]                               # the last line may be cut
    try:
        found = csv.Sniffer().sniff("\n".join(lines[:200]), delimiters=SNIFFED)
    except csv.Error:
        if lines and not any(c in lines[0] for c in SNIFFED):
            return ",", False                            # one column
        raise InputError("cannot tell the separator", file=str(path),
                         fix="give it with --sep (e.g. --sep ',' or --sep ';')") from None
    return found.delimiter, bool(found.skipinitialspace)


def _first_row(path, comp, sep, skip) -> list:
    """The cells of the first non-blank line, as the csv module reads them (pandas renames a repeated header
    name, e.g. ``a`` and ``a.1``, which would hide it)."""
    with _open_text(path, comp) as fh:
        for row in csv.reader(fh, delimiter=sep, skipinitialspace=skip):
            if any(cell.strip() for cell in row):
                return row
    return []


def read_records(path, options: ReadOptions | None = None):
    """The records of a microdata file as a pandas DataFrame (typed readers; nothing is evaluated).

    The DataFrame's ``attrs["implgraph_source"]`` remembers how it was read, so that an error names the line
    of a record (:func:`record_line`).
    """
    import pandas as pd
    options = options or ReadOptions()
    name = str(path)
    kind = file_kind(path)
    if kind is None:
        raise InputError(f"unknown microdata file type {''.join(Path(name).suffixes) or '(none)'}", file=name,
                         fix="give a .csv, .tsv, .data or .txt file (optionally .gz, .bz2, .xz or .zip), a .parquet "
                             "or an .arrow/.feather file")
    if not Path(path).is_file():
        raise InputError("no such file", file=name, fix="check the path")
    kind, comp = kind
    source = {"path": name, "kind": kind, "comp": comp, "header": options.header}
    try:
        df = _read_text(path, comp, options, source) if kind == "text" else _read_columnar(path, kind, options)
        _rename(df, options, name)
        if kind != "text" and options.na_values:
            _mark_missing(df, options.na_values)
    except InputError:
        raise
    except (ValueError, OSError, UnicodeDecodeError, EOFError, pd.errors.ParserError, csv.Error) as exc:
        raise _unreadable(exc, name) from None
    except Exception as exc:                          # pyarrow's own errors (ArrowInvalid, ...)
        if type(exc).__module__.startswith("pyarrow"):
            raise _unreadable(exc, name) from None
        raise
    check_header([str(c) for c in df.columns], name)
    df.columns = [str(c) for c in df.columns]
    df.attrs["implgraph_source"] = source
    return df


def _unreadable(exc, name) -> InputError:
    return InputError(f"cannot read the file ({' '.join(str(exc).split())[:200]})", file=name,
                      fix="check --sep, --names / --no-header, or give a Parquet or Arrow file")


def _read_text(path, comp, options: ReadOptions, source: dict):
    """A text file through ``pandas.read_csv`` (pyarrow's parser, or pandas' C parser when spaces follow the
    separator or markers are given); ``source`` gets the separator read."""
    import pandas as pd
    name = str(path)
    sep, skip = _dialect(path, comp, options)
    source.update(sep=sep, skip=skip)
    first = _first_row(path, comp, sep, skip)
    if options.header and options.names is None:
        check_header(first, name)
    if options.names is not None and first and len(options.names) != len(first):
        raise InputError(f"--names gives {len(options.names)} column(s), the file has {len(first)}",
                         file=name, line=1, fix=f"name all {len(first)} columns")
    names = list(options.names) if options.names is not None else \
        (None if options.header else [str(i + 1) for i in range(len(first))])
    kwargs = dict(sep=sep, header=0 if options.header else None, names=names, keep_default_na=False,
                  na_values=list(options.na_values) or None, compression="infer" if comp else None,
                  encoding="utf-8-sig", dtype_backend="pyarrow", skip_blank_lines=True)
    # (pandas' pyarrow engine ignores na_values beside keep_default_na=False: the C engine reads markers)
    engine = "c" if skip or options.na_values else _fast_engine()
    if skip:
        kwargs["skipinitialspace"] = True
    return pd.read_csv(path, engine=engine, **kwargs)


def _read_columnar(path, kind: str, options: ReadOptions):
    """A Parquet or Arrow file (pyarrow); the text-only options are refused."""
    import pandas as pd
    if options.sep is not None or not options.header:
        raise InputError(f"{'--sep' if options.sep is not None else '--no-header'} reads a text file, not a "
                         f"{kind.capitalize()} file (its columns are named in the file)", file=str(path),
                         fix="leave the option out (rename the columns with --names)")
    # Arrow-backed columns, as the text reader's: no Python object per cell, and pandas.factorize is pyarrow's
    return pd.read_parquet(path, dtype_backend="pyarrow") if kind == "parquet" else \
        pd.read_feather(path, dtype_backend="pyarrow")


def _rename(df, options: ReadOptions, name: str) -> None:
    """``--names`` on the columns read (pandas' pyarrow engine ignores names beside a header)."""
    if options.names is None:
        return
    if len(options.names) != len(df.columns):
        raise InputError(f"--names gives {len(options.names)} column(s), the file has {len(df.columns)}",
                         file=name, fix=f"name all {len(df.columns)} columns")
    df.columns = list(options.names)


def _mark_missing(df, markers) -> None:
    """The cells equal to a ``--na-values`` marker read as missing (Parquet, Arrow: the text reader does it)."""
    for col in df.columns:
        marked = df[col].astype(object).isin(list(markers)).to_numpy(dtype=bool)
        if marked.any():
            column = df[col].astype(object)
            column[marked] = None
            df[col] = column


def _fast_engine() -> str:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return "c"
    return "pyarrow"


def check_header(columns, file) -> None:
    """Refuse a header that names a column twice."""
    seen = set()
    for c in columns:
        if c in seen:
            raise InputError(f"the header names the column {printable(repr(c))[:80]} twice", file=file, line=1,
                             fix="give every column its own name (or --names a,b,...)")
        seen.add(c)


def record_line(df, index: int) -> int | None:
    """The line of the file holding record ``index`` (0-based) of a DataFrame read by :func:`read_records`, as
    the csv module counts lines (blank lines skipped, a quoted line break counted); None for a DataFrame not
    read from a text file."""
    source = df.attrs.get("implgraph_source") if hasattr(df, "attrs") else None
    if not source or source.get("kind") != "text":
        return None
    seen = -1 if source["header"] else 0
    with _open_text(source["path"], source["comp"]) as fh:
        reader = csv.reader(fh, delimiter=source["sep"], skipinitialspace=source["skip"])
        for row in reader:
            if not any(cell.strip() for cell in row) and len(row) <= 1:
                continue
            if seen == index:
                return reader.line_num
            seen += 1
    return None
