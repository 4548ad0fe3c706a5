"""The Python API: tables, exact levels, edges, verdicts and the implication map in a few calls.

Every function works from any directory: bundled tables and claims are read from the installed
data (``implgraph claims`` lists the ids), files from the paths given. The results render in
Jupyter (HTML tables, LaTeX levels, an SVG map) and have short reprs elsewhere.

The tables and levels are here; the checks of edges and claims are in :mod:`implgraph.api_checks` and the
map in :mod:`implgraph.api_map`, each name importable from here as well.

Examples
--------
>>> import implgraph
>>> t = implgraph.load_table("ekenstedt2022/table-III")
>>> t.id, t.buckets
('ekenstedt2022/table-III', ['a1', 'a2'])
>>> first = implgraph.api.definitions()[0]
>>> implgraph.levels(t, first).defined
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence, Union

from implgraph.api_checks import check_edge, claims, definitions, verify
from implgraph.api_map import implication_map
from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.table import Table
from implgraph.definitions.base import Definition
from implgraph.definitions.levels import Level, all_levels, optimal_level
from implgraph.results import ClaimList, ImplicationMap, Levels, Verdicts  # (the last three: for importers)

if TYPE_CHECKING:                   # heavy imports, for a type checker only (pandas)
    import pandas

TableSource = Union[Table, ConcreteTable, str, "os.PathLike[str]"]
"""What every function taking a table accepts: a table, a bundled table id, or a path :func:`load_table` reads."""

#: the API's names: the tables and levels are defined here; the checks (check_edge, verify, definitions, claims) in
#: :mod:`implgraph.api_checks`, the map in :mod:`implgraph.api_map`, re-exported here
__all__ = ["load_table", "levels", "level_frame", "check_edge", "verify", "implication_map", "definitions", "claims"]

_TABLE_SUFFIXES = (".yaml", ".yml", ".csv")


def load_table(source: str | os.PathLike[str], table_id: str | None = None) -> Table | ConcreteTable:
    """A table: a bundled one by id, or one read from a YAML data file or a CSV file of records.

    Parameters
    ----------
    source : str or os.PathLike
        A bundled table id such as ``"ekenstedt2022/table-III"``, or a path to a YAML data file
        (see docs/DATA_FORMAT.md) or a CSV file (optional ``class`` column, one column per bucket).
    table_id : str, optional
        Which table of a YAML file holding several.

    Returns
    -------
    Table or ConcreteTable
        Parametric (YAML, bundled) or concrete (CSV, exact rationals).

    Raises
    ------
    InputError
        An unknown id, a missing file, or a malformed table (the message names the file and line).

    Examples
    --------
    >>> t = load_table("ekenstedt2022/table-III")
    >>> sorted(str(s) for s in t.free_symbols)
    ['mu', 'sigma']
    >>> import pathlib, tempfile
    >>> csv = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> _ = csv.write_text("class,a1,a2\\nE1,1/2,1/2\\nE2,1/4,3/4\\n")
    >>> load_table(csv).N
    2
    """
    from implgraph.io.counterexamples import get_table
    from implgraph.io.tablefile import load_csv, load_table_file
    if not isinstance(source, (str, Path)):
        raise InputError(f"a table source is a bundled id or a path, not {type(source).__name__}",
                         fix='give e.g. load_table("ekenstedt2022/table-III") or load_table("t.csv")')
    if table_id is not None and not isinstance(table_id, str):
        raise InputError(f"table_id must be text, not {type(table_id).__name__}",
                         fix='give the id of one table of the file, e.g. table_id="paper/table-1"')
    path = Path(source)
    if path.suffix.lower() in _TABLE_SUFFIXES or path.exists():
        if not path.exists():
            raise InputError("no such file", file=str(path), fix="check the path")
        if path.suffix.lower() == ".csv":
            return load_csv(path)
        return load_table_file(path, table_id)
    return get_table(str(source))


def levels(table: TableSource, definition: str | Definition | None = None, **params) -> Level | Levels:
    """The exact optimal level of one definition on a table, or of every registered definition.

    Parameters
    ----------
    table : Table, ConcreteTable, str or os.PathLike
        A table, or anything :func:`load_table` reads.
    definition : str or Definition, optional
        The definition (:func:`definitions` lists them); omitted: every registered one.
    **params
        The definition's own parameters, e.g. ``k=2`` (with no ``definition``: ``k`` is used by
        every definition that takes it, default 2, or 1 on tables of 2 records).

    Returns
    -------
    Level or Levels
        A :class:`~implgraph.definitions.levels.Level` (``.value``: a sympy expression, piecewise on a
        parametric table's region), or :class:`Levels` (every definition's name to its level).

    Examples
    --------
    Two records in two classes; bucket a1 holds 1/2 and 1/4, so the largest ratio of two records
    there is 2 (a ratio-scale definition on single records has level 2, a log-scale one ln 2):

    >>> import implgraph
    >>> t = implgraph.table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])
    >>> every = levels(t)
    >>> from implgraph.definitions.capabilities import RatioLevel
    >>> d = next(d for d in implgraph.api.definitions() if d.declared(RatioLevel) == RatioLevel("pairwise"))
    >>> str(every[d.name].value) in ("2", "log(2)")
    True
    >>> levels(t, d).value == every[d.name].value
    True
    """
    table = table if isinstance(table, (Table, ConcreteTable)) else load_table(table)
    if isinstance(table, Table) and table.file is None:
        table.validate()        # a table built in Python (not read from a file, which is validated when read)
    if definition is not None:
        return optimal_level(table, definition, **params)
    if set(params) - {"k"}:
        raise InputError(f"parameter(s) {', '.join(sorted(set(params) - {'k'}))} need a definition",
                         fix="name the definition, e.g. levels(table, NAME, **params)")
    return Levels(all_levels(table, k=params.get("k")), table)


def level_frame(data: TableSource | pandas.DataFrame, qi: str | Sequence[str] | None = None,
                sensitive: str | Sequence[str] | None = None, k: int | None = None,
                params: Mapping[str, object] | None = None) -> pandas.DataFrame:
    """Every definition's exact level on a table or a dataset, as a :class:`pandas.DataFrame`.

    Parameters
    ----------
    data : Table, ConcreteTable, str, os.PathLike or pandas.DataFrame
        A table (anything :func:`load_table` reads), or microdata (a CSV or Parquet file of records, or a
        DataFrame) read with ``qi`` and ``sensitive``.
    qi, sensitive : str or sequence of str, optional
        Microdata: the quasi-identifier columns (records with equal values form a class) and the sensitive
        column(s); one block of rows per sensitive column (column ``sensitive``).
    k : int, optional
        Group size of the definitions with a parameter ``k``.
    params : dict, optional
        Microdata: other parameters by name (e.g. ``{"delta": "1/100", "l": 2}``).

    Returns
    -------
    pandas.DataFrame
        One row per definition (index: its name); columns ``params``, ``symbol``, ``level`` (a sympy
        expression), ``exact`` (its text), ``decimal`` (a float beside the exact value; NaN where it depends on a
        symbol or is undefined, ``inf`` for an infinite level), ``defined``, ``note``.

    Examples
    --------
    >>> import implgraph
    >>> t = implgraph.table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])
    >>> df = level_frame(t)
    >>> list(df.columns)
    ['params', 'symbol', 'level', 'exact', 'decimal', 'defined', 'note']
    >>> from implgraph.definitions.capabilities import RatioLevel
    >>> d = next(d for d in implgraph.api.definitions() if d.declared(RatioLevel) == RatioLevel("pairwise"))
    >>> df.loc[d.name, "exact"] in ("2", "log(2)"), round(df.loc[d.name, "decimal"], 3) in (2.0, 0.693)
    (True, True)
    >>> import pandas as pd
    >>> records = pd.DataFrame({"zip": ["1", "1", "2", "2"], "disease": ["flu", "cold", "flu", "flu"]})
    >>> level_frame(records, qi="zip", sensitive="disease").loc[d.name, "sensitive"]
    'disease'
    """
    from implgraph.results import level_frame_of
    if (qi is None) != (sensitive is None):
        raise InputError("microdata needs both qi and sensitive", fix='give e.g. qi="zip", sensitive="disease"')
    if qi is None:
        if params:
            raise InputError("params are read for microdata only", fix="give the definition's parameters with k, or "
                             "call levels(table, NAME, **params)")
        return levels(data, **({"k": k} if k is not None else {})).to_frame()
    import pandas as pd

    from implgraph.io.microdata import levels_of
    columns = lambda x: [x] if isinstance(x, str) else list(x)  # noqa: E731
    found = levels_of(data, columns(qi), columns(sensitive), k=k, params=params,
                      file=str(data) if isinstance(data, (str, Path)) else None)
    return pd.concat([level_frame_of(lv, {"sensitive": col}) for col, lv in found.items()])
