"""The Python API's implication map: :func:`implication_map`.

Importable from :mod:`implgraph.api` (and the package: ``implgraph.implication_map``).

Examples
--------
>>> import implgraph
>>> implgraph.api.implication_map is implication_map
True
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Mapping, Sequence

from implgraph.api_checks import _check_int, verify  # (verify: for the example of implication_map)
from implgraph.core.errors import InputError
from implgraph.results import ImplicationMap, Verdicts

__all__ = ["implication_map"]


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
