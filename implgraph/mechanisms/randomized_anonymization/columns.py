"""A data set's columns for sei2019's anonymization, read at any size with pyarrow.

:func:`read_header` reads the header of a CSV (or a compressed one: ``.gz``, ``.bz2``, ``.zst``, ... by its
suffix), :func:`read_table` its named columns only, every cell as text exactly as written (no type guessing, no
missing-value markers: ``"007"`` stays ``"007"``), in blocks on all cores. There is no limit on the file's size
but the machine's memory, and that memory is spent only on the columns named. A record longer than
:data:`MAX_RECORD_BYTES`, or a cell longer than :data:`MAX_CELL_BYTES`, is refused in one line (a guard against
a hostile file that is one enormous line: it is never read whole).

:func:`coded` turns a column into integer codes and its distinct values (Arrow's dictionary encoding), which is
what the anonymization randomizes.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from implgraph.core.errors import InputError

__all__ = ["read_header", "read_table", "coded", "require_pyarrow", "MAX_RECORD_BYTES", "MAX_CELL_BYTES"]

MAX_RECORD_BYTES = 64 * 2 ** 20
"""Longest record (line) read: pyarrow's block size, so a longer one is refused, never read whole."""

MAX_CELL_BYTES = 2 ** 17
"""Longest cell (bytes) of a column read: the same bound as Python's ``csv`` module's default field limit."""

_HEADER_BLOCK = 2 ** 16
"""The block :func:`read_header` reads first (the header, and the rows in it whose types pyarrow guesses)."""

_FIX = "give a UTF-8 CSV with a header row"


def require_pyarrow():
    """``(pyarrow, pyarrow.csv)``, or one line saying how to install them."""
    try:
        import pyarrow
        import pyarrow.csv
        import pyarrow.compute  # noqa: F401
    except ImportError:
        raise InputError("sei2019's anonymization reads and writes data with pyarrow, which is not installed",
                         fix="pip install 'implgraph[microdata]' (pandas and pyarrow)") from None
    return pyarrow, pyarrow.csv


def _error(exc, path) -> InputError:
    text = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
    if "straddl" in text:
        return InputError(f"a record is longer than {MAX_RECORD_BYTES // 2 ** 20} MiB", file=str(path),
                          fix="split the file into records of reasonable length (one record per line)")
    if "UTF8" in text or "UTF-8" in text:
        return InputError(f"not UTF-8 text ({text[:100]})", file=str(path), fix="save the data as UTF-8")
    row = re.search(r"Row #(\d+): ", text)              # pyarrow counts the header as row 1: the line, but for
    if row:                                               # records spanning lines (quoted newlines)
        return InputError(f"not a CSV ({text[row.end():][:120]})", file=str(path), line=int(row.group(1)),
                          fix=_FIX)
    return InputError(f"not a CSV ({text[:120]})", file=str(path), fix=_FIX)


def _check_file(path) -> None:
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", file=str(path), fix="check the path")
    if not p.is_file():
        raise InputError("not a regular file", file=str(path), fix="give a CSV file")
    with open(p, "rb") as fh:
        start = fh.read(6)
    kind = next((name for magic, name in _COMPRESSED if start.startswith(magic)), None)
    if kind is not None:
        raise InputError(f"a {kind} file, not a CSV", file=str(path), line=1, fix="decompress it first")


#: the first bytes of the compressed files a CSV may be mistaken for
_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"PK\x03\x04", "zip"),
               (b"\x28\xb5\x2f\xfd", "zstd"))


def read_header(path) -> list:
    """The stripped column names of the CSV at ``path``; InputError for an empty file, an empty or repeated
    name."""
    pa, csv = require_pyarrow()
    _check_file(path)
    names = None
    for block in (_HEADER_BLOCK, MAX_RECORD_BYTES):      # a small first block; a longer header gets the full one
        try:
            reader = csv.open_csv(str(path), read_options=csv.ReadOptions(block_size=block, use_threads=False),
                                  convert_options=csv.ConvertOptions(strings_can_be_null=False))
            names = list(reader.schema.names)
            reader.close()
            break
        except UnicodeDecodeError:
            # (pyarrow decodes the header's names only when they are read: a compressed or binary file whose first
            # block holds a newline gets here)
            raise InputError("not UTF-8 text (the header is not text: a compressed or binary file?)",
                             file=str(path), line=1, fix="give an uncompressed CSV saved as UTF-8") from None
        except (pa.ArrowException, OSError) as exc:
            if "Empty CSV" in str(exc):
                raise InputError("empty CSV", file=str(path), fix="add a header and rows") from None
            if "straddl" in str(exc) and block < MAX_RECORD_BYTES:
                continue
            raise _error(exc, path) from None
    header = [h.strip() for h in names]
    if any(not h for h in header):
        raise InputError("the header has an empty column name", file=str(path), line=1, fix="name every column")
    dup = next((h for k, h in enumerate(header) if h in header[:k]), None)
    if dup is not None:
        raise InputError(f"duplicate column {dup!r}", file=str(path), line=1, fix="rename the columns")
    return header


def read_table(path, header: list, names: list):
    """The columns ``names`` of the CSV at ``path`` (whose stripped header is ``header``) as a pyarrow Table of
    strings, cells exactly as written; InputError (one line) on a malformed file or one without records."""
    pa, csv = require_pyarrow()
    try:
        table = csv.read_csv(
            str(path),
            read_options=csv.ReadOptions(column_names=header, skip_rows=1, block_size=MAX_RECORD_BYTES),
            convert_options=csv.ConvertOptions(column_types={h: pa.string() for h in header},
                                               include_columns=list(names), strings_can_be_null=False,
                                               quoted_strings_can_be_null=False, null_values=[]))
    except (pa.ArrowException, OSError) as exc:
        raise _error(exc, path) from None
    if table.num_rows == 0:
        raise InputError("no records", file=str(path), fix="add rows below the header")
    import pyarrow.compute as pc
    for name in table.column_names:
        lengths = pc.binary_length(table.column(name))
        if pc.max(lengths).as_py() > MAX_CELL_BYTES:
            record = int(np.argmax(lengths.to_numpy() > MAX_CELL_BYTES)) + 1
            raise InputError(f"column {name[:60]!r}: the cell of record {record} is longer than {MAX_CELL_BYTES} bytes",
                             file=str(path), fix="give cells of reasonable length (values are categories)")
    return table


def coded(column, strip: bool = True) -> tuple:
    """``(codes, values)``: an Arrow string column as ``int32`` codes into its distinct ``values`` (list of str,
    in order of first appearance), whitespace around each cell removed when ``strip``."""
    pa, _ = require_pyarrow()
    import pyarrow.compute as pc
    if strip:
        column = pc.utf8_trim_whitespace(column)
    enc = pc.dictionary_encode(column)
    if isinstance(enc, pa.ChunkedArray):
        enc = enc.unify_dictionaries()
        values = enc.chunk(0).dictionary.to_pylist() if enc.num_chunks else []
        codes = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in enc.chunks]) \
            if enc.num_chunks else np.zeros(0, np.int32)
    else:
        values, codes = enc.dictionary.to_pylist(), enc.indices.to_numpy(zero_copy_only=False)
    return codes.astype(np.int32, copy=False), values
