"""Writing a remedied dataset: the named columns only, never over the input, through a temporary file renamed.

The kind is read from the name given: ``.csv`` (comma), ``.tsv`` (tab), ``.parquet`` / ``.pq``, ``.arrow`` /
``.feather``; any other name is refused before anything is computed (:func:`check_out`).
"""

from __future__ import annotations

import os
from pathlib import Path

from implgraph.core.errors import InputError, printable
from implgraph.io.output import atomic_path

__all__ = ["check_out", "write_records", "OUT_SUFFIXES"]

OUT_SUFFIXES = (".csv", ".tsv", ".parquet", ".pq", ".arrow", ".feather")


def check_out(out, inputs) -> Path:
    """The output path, checked: a known kind, its folder exists, and not one of ``inputs`` (InputError)."""
    path = Path(out)
    if path.suffix.lower() not in OUT_SUFFIXES:
        raise InputError(f"--out {printable(str(out))[:80]}: unknown kind {path.suffix or '(none)'}",
                         fix="give a .csv, .tsv, .parquet or .arrow file name")
    if not path.parent.is_dir():
        raise InputError(f"--out {printable(str(out))[:80]}: no folder {printable(str(path.parent))[:80]}",
                         fix="create the folder first, or write elsewhere")
    for given in inputs:
        if path.resolve() == Path(given).resolve() or (path.exists() and Path(given).exists()
                                                       and os.path.samefile(path, given)):
            raise InputError(f"--out {printable(str(out))[:80]} is the input file", file=str(given),
                             fix="write the remedied records to another file: the input is never overwritten")
    if path.is_dir():
        raise InputError(f"--out {printable(str(out))[:80]} is a folder", fix="give a file name")
    return path


def write_records(df, columns, out, inputs, check=None) -> Path:
    """Write the columns ``columns`` of ``df`` (and no other) to ``out``, through a temporary file in the same
    folder renamed over it once complete (never over one of ``inputs``); ``check(temporary path)``, when given,
    runs on the complete temporary file before the rename (an error there leaves nothing written)."""
    path = check_out(out, inputs)
    frame = df[list(columns)].reset_index(drop=True)
    with atomic_path(path, suffix=path.suffix) as tmp:     # (the suffix: the read-back check reads it by its kind)
        suffix = path.suffix.lower()
        if suffix in (".csv", ".tsv"):
            frame.to_csv(tmp, sep="\t" if suffix == ".tsv" else ",", index=False)
        elif suffix in (".parquet", ".pq"):
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_feather(tmp)
        if check is not None:
            check(tmp)
    return path
