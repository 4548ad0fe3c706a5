"""The data options shared by the commands that read data files: ``--theorems FILE...`` and
``--tables FILE...`` add files to the bundled data, ``--only`` uses the given files alone.

A command reads its data inside :func:`data_sources`, which makes the given tables part of the
counterexample data (:func:`implgraph.io.datafile.use_data_files`) for the time of the command.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from implgraph.core.errors import InputError
from implgraph.io.datafile import data_files, use_data_files

__all__ = ["add_data_arguments", "data_sources", "theorem_paths"]


def add_data_arguments(p) -> None:
    """Add ``--theorems FILE...``, ``--tables FILE...`` and ``--only`` to the parser ``p``."""
    p.add_argument("--theorems", nargs="+", metavar="FILE",
                   help="theorem files (.yaml in a folder named theorems/) to add to the bundled data")
    p.add_argument("--tables", nargs="+", metavar="FILE",
                   help="table files (.yaml in a folder named counterexamples/, e.g. written by "
                        "`implgraph discover --write`) to add to the bundled data")
    p.add_argument("--only", action="store_true",
                   help="use only the files given with --theorems and --tables, not the bundled data (the "
                        "bundled tables stay available as witnesses unless --tables is given)")


def theorem_paths(args, with_tables: bool = False) -> list | None:
    """The data files a command reads: None for the bundled data alone, else the files to read.

    Without ``--only`` the files given with ``--theorems`` are added to the bundled theorem files
    (and, with ``with_tables``, the counterexample files, the given ones included); a file given
    twice, or one of the bundled files given again, is read once. With ``--only``, only the given
    files.

    Raises
    ------
    InputError
        ``--only`` without ``--theorems`` or ``--tables``.
    """
    given = list(getattr(args, "theorems", None) or [])
    for f in given:
        if not Path(f).is_file():
            id_like = not Path(f).exists() and Path(f).suffix not in (".yaml", ".yml")
            raise InputError("no such file" if not Path(f).exists() else "not a file", file=str(f),
                             fix="give a theorem file (.yaml in a folder named theorems/) with --theorems" +
                                 ("; a claim id goes before --theorems (which takes every word after it), or "
                                  "after `--`" if id_like else ""))
    only = getattr(args, "only", False)
    if only and not given and not (with_tables and getattr(args, "tables", None)):
        raise InputError("--only without --theorems" + (" or --tables" if with_tables else ""),
                         fix="give the files to use with --theorems FILE ..." +
                             (" or --tables FILE ..." if with_tables else ""))
    if not given and not only:
        return None
    bundled = [] if only else list(data_files("theorems"))
    tables = list(getattr(args, "tables", None) or []) if only else list(data_files("counterexamples"))
    tables = tables if with_tables else []
    out, seen = [], set()
    for p in [str(b) for b in bundled] + given + [str(t) for t in tables]:
        key = Path(p).resolve() if Path(p).exists() else p
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _check_table_files(files) -> None:
    """Every file given with ``--tables`` is a table file whose tables load and whose ids are new
    (one line ``FILE:LINE: ...; fix: ...`` otherwise)."""
    from implgraph.io.counterexamples import load_tables_file
    from implgraph.io.validate import load_yaml
    for f in files:
        path = Path(f)
        if not path.is_file():
            id_like = not path.exists() and path.suffix not in (".yaml", ".yml")
            raise InputError("no such file", file=str(f), fix="give a table data file (.yaml) with --tables" +
                             ("; a claim id goes before --tables (which takes every word after it), or after `--`"
                              if id_like else ""))
        if path.parent.name != "counterexamples" or path.suffix not in (".yaml", ".yml"):
            raise InputError("a table file must be a .yaml file in a folder named `counterexamples`",
                             file=str(f), fix="move it to a `counterexamples/` folder")
        load_tables_file(path)
    where: dict = {}
    for path in data_files("counterexamples"):
        doc = load_yaml(path)
        for node in (doc.get("tables") or [doc]) if isinstance(doc, dict) else []:
            tid = str(node.get("id")) if isinstance(node, dict) else None
            if tid in where and where[tid] != str(path):
                raise node.error(f"table id {tid!r} is also defined in {where[tid]}", key="id",
                                 fix="give the table another id")
            where.setdefault(tid, str(path))


@contextlib.contextmanager
def data_sources(args, with_tables: bool = False):
    """Read the data the options of ``args`` name while the block runs; yields the data files
    (:func:`theorem_paths`, None for the bundled ones).

    ``--tables`` files are part of the counterexample data inside the block: the claims on their
    tables are verified, theorem claims may name their tables as witnesses, and
    :func:`implgraph.io.counterexamples.get_table` finds them. With ``--only`` the given tables are
    the only ones (without ``--tables`` the bundled tables stay available as witnesses, their claims
    are not checked). The bundled data is restored after.
    """
    tables = list(getattr(args, "tables", None) or [])
    only = bool(getattr(args, "only", False))
    use_data_files("counterexamples", tables, replace=only and bool(tables))
    try:
        if tables:
            _check_table_files(tables)
        yield theorem_paths(args, with_tables=with_tables)
    finally:
        use_data_files("counterexamples")
