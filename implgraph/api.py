"""The Python API: tables, exact levels, edges, verdicts and the implication map in a few calls.

Every function works from any directory: bundled tables and claims are read from the installed
data (``implgraph claims`` lists the ids), files from the paths given. The results render in
Jupyter (HTML tables, LaTeX levels, an SVG map) and have short reprs elsewhere.

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

import json
import os
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Mapping, Sequence, Union

from implgraph import definitions as _registry
from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.definitions.levels import all_levels, optimal_level
from implgraph.core.table import Table
from implgraph.results import ClaimList, ImplicationMap, Levels, Verdicts

from implgraph.definitions.base import Definition
from implgraph.definitions.levels import Level

if TYPE_CHECKING:                   # heavy imports, for a type checker only (pandas; the edge checker)
    import pandas

    from implgraph.engines.checkedge import EdgeResult

TableSource = Union[Table, ConcreteTable, str, "os.PathLike[str]"]
"""What every function taking a table accepts: a table, a bundled table id, or a path :func:`load_table` reads."""

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


def check_edge(a: str, b: str, f: str | None = None, when: str | Sequence[str] = (), N: int = 4, p: int = 2,
               g: str | None = None, jobs: int = 1) -> EdgeResult:
    """Check a conjectured implication ``a => b`` (and the reverse) with exact evidence.

    Parameters
    ----------
    a, b : str
        Definitions in the node grammar: ``NAME`` or ``NAME(k=2)`` (a class-based definition's ``k``
        is the minimum class size).
    f, g : str, optional
        Conjectured functions: b's level from a's (``f``), a's level from b's (``g``).
    when : str or sequence of str
        Conditions on ``N`` and the parameters, e.g. ``"k >= 2"``.
    N : int
        Every number of records from 2 to ``N`` is checked (exhaustively, on tables of ``p`` buckets).
    p : int
        Buckets of the tables searched.
    jobs : int
        Processes (2 checks both directions side by side).

    Returns
    -------
    EdgeResult
        ``kind`` (equivalence, generalisation, implication, non-implication, ...), and per direction
        (``forward``, ``backward``) the verdict, the tight f (``tight_f``: a sympy expression; ``tight_all_n``,
        ``tight``: its text), the witness and the bound.

    Examples
    --------
    >>> import implgraph
    >>> d = next(d for d in implgraph.api.definitions() if not d.params and not d.needs_classes)
    >>> r = check_edge(d.name, d.name, N=3)
    >>> r.kind, r.forward.status
    ('equivalence', 'established')
    >>> import sympy                          # the tight f as a sympy expression: a level implies itself, f(x) = x
    >>> r.forward.tight_f == sympy.Symbol(d.level_symbol)
    True
    """
    from implgraph.commands.check_edge import read_check
    from implgraph.engines.checkedge import check_edge as _check_edge
    a, b = read_check(a, b, f=f, g=g, when=when, N=N, p=p, jobs=jobs)
    when = [when] if isinstance(when, str) else list(when or ())
    return _check_edge(a, b, f=f, when=when, N=N, p=p, g=g, jobs=jobs)


def verify(ids: str | Sequence[str] | None = None, max_n: int | None = None, jobs: int = 1,
           timeout: float | None = None) -> Verdicts:
    """Machine-check the papers' claims (all of them, or the ids and id prefixes given).

    Parameters
    ----------
    ids : str or sequence of str, optional
        Claim ids or prefixes (``"ekenstedt2022/table-III"`` selects that table's claims); the
        ``#reading`` row of a claim follows it. Omitted: every claim (about 30 s on 2 cores).
    max_n : int, optional
        Largest N of the bounded checks (default 8).
    jobs : int
        Processes.
    timeout : float, optional
        Seconds per claim; a claim not decided by then is ``unknown``.

    Returns
    -------
    Verdicts
        A list of :class:`~implgraph.core.verdict.Verdict` with a summary and an HTML table.

    Examples
    --------
    >>> vs = verify("ekenstedt2022/theorem-2b")
    >>> [(v.id, v.verdict) for v in vs]
    [('ekenstedt2022/theorem-2b', 'proved')]
    >>> vs[0].tight              # a sympy expression (vs[0].tight_str: the text)
    ((N - 1)*exp(eps) + 1)/N
    >>> vs[0].tight.subs({"N": 3, "eps": 0})
    1
    """
    from implgraph.checks.verify import DEFAULT_MAX_N, run_verify
    from implgraph.commands.verify import MAX_MAX_N
    ids = _ids(ids)
    _check_int("max_n", max_n, 2, MAX_MAX_N, none_ok=True)
    _check_int("jobs", jobs, 1, 64)
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not 0 <= timeout <= 86400):
        raise InputError(f"timeout {str(repr(timeout))[:60]} is not a number of seconds in 0..86400",
                         fix="give timeout=None (no limit) or a number of seconds")
    return Verdicts(run_verify(ids, max_n=max_n or DEFAULT_MAX_N, jobs=jobs, timeout=timeout))


def _ids(ids) -> list:
    """Claim ids or prefixes: one text or a sequence of texts (InputError otherwise)."""
    if ids is not None and not isinstance(ids, (str, list, tuple, set, frozenset)):
        raise InputError(f"claim ids must be text or a list of texts, not {type(ids).__name__}",
                         fix='give ids such as "ekenstedt2022/theorem-2b"')
    ids = [ids] if isinstance(ids, str) else list(ids or [])
    bad = [i for i in ids if not isinstance(i, str)]
    if bad:
        raise InputError(f"a claim id must be text, not {type(bad[0]).__name__}",
                         fix='give ids such as "ekenstedt2022/theorem-2b"')
    return ids


def _check_int(name, value, low, high, none_ok=False) -> None:
    """Refuse an API argument that is not an int in ``low..high`` (None too, with ``none_ok``)."""
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{name} = {str(repr(value))[:60]} is not an integer in {low}..{high}",
                         fix=f"give {low} <= {name} <= {high}")


def implication_map(N: int | None = None, level: str | None = None,
                    theorems: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None,
                    verdicts: Verdicts | Mapping[str, object] | str | os.PathLike[str] | None = None,
                    fresh: bool = False) -> ImplicationMap:
    """The implication map of the theorems: established edges, their closure, conflicts, open pairs.

    Parameters
    ----------
    N : int, optional
        Number of records of the analysis (default 10); with ``N`` the map has one node per
        definition and group size k (Fig. 1 of ekenstedt2022), without it one per definition (Fig. 2).
    level : {"definitions", "groups"}, optional
        The nodes of the drawn map (default: ``groups`` when ``N`` is given).
    theorems : sequence of paths, optional
        Theorem files to use instead of the bundled ones.
    verdicts : Verdicts, dict or path, optional
        The verdicts of the edge claims: a :func:`verify` result, ``{claim id: verdict word}``, or a
        saved ``implgraph verify --json``. Default: the edge claims are verified now (cached by
        content; a minute or two on 2 cores when the cache is cold). A claim without a verdict is
        ``unknown``: it is drawn but supports nothing.
    fresh : bool
        Recompute the verdicts instead of reading the cache.

    Returns
    -------
    ImplicationMap
        ``graph`` (the drawn networkx multigraph), ``analysis``, ``summary()``, ``to_json()``,
        ``draw(path)``; an SVG in Jupyter.

    Examples
    --------
    >>> m = implication_map(N=3, verdicts=verify("ekenstedt2022/theorem-2b"))
    >>> m.level, m.N, m.summary()["conflicts"], m.summary()["implications"] >= 1
    ('groups', 3, 0, True)
    """
    from implgraph.commands.map import MAX_N, build
    from implgraph.map.verdicts import verdict_lookup
    if level not in (None, "definitions", "groups"):
        raise InputError(f"unknown map level {level!r}", fix="give level='definitions' or level='groups'")
    _check_int("N", N, 2, MAX_N, none_ok=True)
    if isinstance(theorems, (str, Path)):
        theorems = [theorems]
    if theorems is not None and (not isinstance(theorems, (list, tuple))
                                 or not all(isinstance(t, (str, Path)) for t in theorems)):
        raise InputError(f"theorems must be a list of theorem file paths, not {str(repr(theorems))[:40]}",
                         fix='give e.g. theorems=["theorems/mine.yaml"]')
    _check_verdicts(verdicts)
    args = SimpleNamespace(N=N, level=level, theorems=list(map(str, theorems)) if theorems else None,
                           verdicts=None, verify=fresh)
    if verdicts is None or isinstance(verdicts, (str, Path)):
        args.verdicts = None if verdicts is None else str(verdicts)
        return ImplicationMap(build(args))
    with tempfile.TemporaryDirectory() as tmp:   # the map reads verdicts as ``implgraph verify --json`` writes them
        args.verdicts = str(Path(tmp) / "verdicts.json")
        Path(args.verdicts).write_text(json.dumps(verdict_lookup(verdicts)))
        return ImplicationMap(build(args))


def _check_verdicts(verdicts) -> None:
    """InputError unless ``verdicts`` is None, a path, a :func:`verify` result (or a list of its verdicts or of
    their JSON rows), or a dict of claim id (text) to a verdict word, a verdict or its JSON row."""
    from implgraph.core.verdict import Verdict

    def row_ok(v):
        return isinstance(v, Verdict) or (isinstance(v, dict) and isinstance(v.get("id"), str)
                                          and isinstance(v.get("verdict"), str))
    if verdicts is None or isinstance(verdicts, (str, Path)):
        return
    if isinstance(verdicts, dict):
        ok = all(isinstance(k, str) and (isinstance(v, str) or row_ok(v) or (isinstance(v, dict) and
                                                                            isinstance(v.get("verdict"), str)))
                 for k, v in verdicts.items())
    else:
        ok = isinstance(verdicts, (list, tuple)) and all(row_ok(v) for v in verdicts)
    if not ok:
        raise InputError(f"verdicts {str(repr(verdicts))[:40]} is not a verify() result, a dict of claim id: verdict "
                         "word or a path", fix='give e.g. verdicts=implgraph.verify() or {"paper/claim": "proved"}')


def definitions(names: Sequence[str] | None = None) -> list[Definition]:
    """The registered privacy definitions (built-in and plugins), in registry order.

    ``implgraph.definitions`` is the registry module (``get``, ``names``, ``register``); this
    function is ``implgraph.api.definitions``.

    Parameters
    ----------
    names : sequence of str, optional
        Only these (an unknown name raises :class:`~implgraph.core.errors.InputError`).

    Returns
    -------
    list of Definition
        Each with ``name``, ``title``, ``level_symbol``, ``params``, ``reference``, ...

    Examples
    --------
    >>> ds = definitions()
    >>> len(ds) >= 7 and all(d.name for d in ds)
    True
    >>> definitions([ds[0].name]) == [ds[0]]
    True
    """
    known = _registry.names()
    for n in names or ():
        if n not in known:
            raise InputError(f"unknown definition {n!r}", fix="give one of " + ", ".join(known))
    return [_registry.get(n) for n in (names or known)]


def claims(ids: str | Sequence[str] = (), kind: str | None = None, paper: str | None = None) -> ClaimList:
    """The claims of the bundled data (not checked): id, kind, printed statement, expectation.

    Parameters
    ----------
    ids : str or sequence of str
        Claim ids or id prefixes (as :func:`verify`).
    kind : str, optional
        Only claims of this kind (``implies``, ``not-implies``, ``level``, ...).
    paper : str, optional
        Only this paper's claims (e.g. ``"sei2019"``).

    Returns
    -------
    ClaimList
        A list of dicts (the rows of ``implgraph claims --json``).

    Examples
    --------
    >>> rows = claims("ekenstedt2022/theorem-2b")
    >>> rows[0]["kind"], rows[0]["expect"]
    ('implies', 'proved')
    """
    from implgraph.commands.claims import all_rows, select
    ids = _ids(ids)
    for name, value in (("kind", kind), ("paper", paper)):
        if value is not None and not isinstance(value, str):
            raise InputError(f"{name} must be text, not {type(value).__name__}", fix=f"give {name} as a word")
    return ClaimList(select(all_rows(), ids, kind=kind, paper=paper))
