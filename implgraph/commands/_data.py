"""The data options shared by the commands that read theorem files: ``--theorems FILE...`` adds files to
the bundled data, ``--only`` uses the given files alone."""

from __future__ import annotations

from pathlib import Path

from implgraph.core.errors import InputError
from implgraph.io.datafile import data_files

__all__ = ["add_data_arguments", "theorem_paths"]


def add_data_arguments(p) -> None:
    """Add ``--theorems FILE...`` and ``--only`` to the parser ``p``."""
    p.add_argument("--theorems", nargs="+", metavar="FILE",
                   help="theorem files (.yaml in a folder named theorems/) to add to the bundled data")
    p.add_argument("--only", action="store_true",
                   help="use only the files given with --theorems, not the bundled data")


def theorem_paths(args, with_tables: bool = False) -> list | None:
    """The data files a command reads: None for the bundled data alone, else the files to read.

    Without ``--only`` the files given with ``--theorems`` are added to the bundled theorem files
    (and, with ``with_tables``, the bundled counterexample files); a file given twice, or one of the
    bundled files given again, is read once.

    Raises
    ------
    InputError
        ``--only`` without ``--theorems``.
    """
    given = list(getattr(args, "theorems", None) or [])
    if not given:
        if getattr(args, "only", False):
            raise InputError("--only without --theorems", fix="give the files to use with --theorems FILE ...")
        return None
    if getattr(args, "only", False):
        return given
    bundled = list(data_files("theorems")) + (list(data_files("counterexamples")) if with_tables else [])
    out, seen = [], set()
    for p in [str(b) for b in bundled] + given:
        key = Path(p).resolve() if Path(p).exists() else p
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
