"""What the explorer shows, gathered once as plain data (no HTML here).

Sources: the pair matrix (``implgraph matrix --json``; by default the published implgraph/data/matrix.json of a
checkout), the registered definitions (``implgraph definitions --json``), the claims of the bundled
data (``implgraph claims --json``), their verdicts (``implgraph verify --json``: a saved file, or
computed through the verdict cache), the certificates of the matrix's proved cells, and every
definition's exact level on every bundled table (through the level cache).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from implgraph.core.errors import InputError
from implgraph.data import MATRIX

#: the published pair matrix, shipped with the package
DEFAULT_MATRIX = MATRIX


def _read_json(path, what: str, fix: str):
    from implgraph.io.datafile import read_text
    try:
        return json.loads(read_text(path, limit=1 << 28))
    except FileNotFoundError:
        raise InputError("no such file", file=str(path), fix=fix) from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:   # ValueError: JSONDecodeError, or an integer
        raise InputError(f"not {what} ({exc.__class__.__name__})", file=str(path), fix=fix) from None  # too long


def read_matrix(path=None) -> dict:
    """The pair matrix: ``{"nodes": [...], "cells": [...], "counts": {...}, "settings": {...}}``."""
    fix = "give --matrix FILE, the output of `implgraph matrix --json`"
    path = path or DEFAULT_MATRIX
    if not Path(path).exists() and path == DEFAULT_MATRIX:
        raise InputError("no pair matrix given and no published matrix (implgraph/data/matrix.json) in the package", fix=fix)
    m = _read_json(path, "a pair matrix", fix)
    if not isinstance(m, dict) or not isinstance(m.get("cells"), list) or not isinstance(m.get("nodes"), list):
        raise InputError("no cells or nodes in the pair matrix", file=str(path), fix=fix)
    for c in m["cells"]:
        if not isinstance(c, dict) or not {"a", "b", "relation", "verdict"} <= set(c):
            raise InputError(f"a cell without a, b, relation and verdict: {str(c)[:60]}", file=str(path), fix=fix)
    return m


def read_verdict_rows(path=None) -> list:
    """The verdict rows of ``implgraph verify --json``: from ``path``, else computed (cached)."""
    if path is None:
        from implgraph import api
        return [v.to_json() for v in api.verify()]
    from implgraph.map.verdicts import read_verdict_file     # user input: typed, checked row by row
    return read_verdict_file(path)


def node_definition(node: str) -> str:
    """The definition of a matrix node (``NAME(k=2)`` -> ``NAME``)."""
    from implgraph.definitions.nodes import parse_node
    return parse_node(node, require=False).name


def certificates(cells) -> dict:
    """``{(a, b): [certificate]}`` for the matrix's cells proved for every N (the prover rerun)."""
    from implgraph.commands.certificate import _edge_rows
    out = {}
    for c in cells:
        if c["relation"] == "implication" and c.get("proved_every_n"):
            try:
                out[c["a"], c["b"]] = _edge_rows(c["a"], c["b"])[0]["certificates"]
            except InputError:
                continue
    return out


def _level(table, name: str, params: dict) -> dict:
    """``{"level", "params"[, "note"]}``: the exact level of one definition on one table."""
    from implgraph.checks.symbolic_level import find_level
    try:
        lv = find_level(table, name, params)
        return {"level": str(lv), "params": {k: str(v) for k, v in lv.params.items()}}
    except InputError as exc:
        return {"level": None, "note": exc.reason, "params": {k: str(v) for k, v in params.items()}}


def table_levels(table_ids=None) -> list:
    """Every bundled table with every definition's exact level on it (the display parameters of
    ``implgraph table``; a level the definition cannot give has its reason in ``note``).

    One process: a pool of two was slower (each worker rebuilt the tables' regions and caches)."""
    from implgraph.commands.table import display_params
    from implgraph.io.counterexamples import get_table, table_ids as all_ids
    out = []
    for t in [get_table(tid) for tid in (all_ids() if table_ids is None else table_ids)]:
        levels = {name: _level(t, name, params) for name, params in display_params(t).items()}
        out.append({"id": t.id, "caption": t.meta.get("caption") or "", "source": t.source or "",
                    "N": str(t.size), "levels": levels})
    return out


def groups_svg(rows, N: int) -> str:
    """The implication map of the papers' theorems at ``N`` records, one node per definition and group
    size k (ekenstedt2022's Fig. 1), as the renderer draws it: an SVG element (prologue dropped)."""
    from implgraph import api
    text = api.implication_map(N=N, verdicts=rows)._repr_svg_()
    return text[text.index("<svg"):]


@contextlib.contextmanager
def _verdicts_beside(path):
    """A function that returns the verdict rows (:func:`read_verdict_rows`): read from ``path``, or, when they
    are computed, computed in a second process (spawned: nothing of this one is shared) while this one
    gathers the rest, so that the build takes about the longer of the two on two cores."""
    if path is not None:
        yield lambda: read_verdict_rows(path)
        return
    import concurrent.futures
    import multiprocessing
    pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        future = pool.submit(read_verdict_rows, None)
        yield future.result
    finally:
        pool.shutdown(cancel_futures=True)


def gather(matrix=None, verdicts=None, tables=None, with_certificates: bool = True, groups_n: int | None = 4,
           kernel_check: bool = False) -> dict:
    """Everything the site shows.

    Parameters
    ----------
    matrix, verdicts : path, optional
        ``implgraph matrix --json`` and ``implgraph verify --json`` outputs (defaults: implgraph/data/matrix.json,
        the verdicts computed through the cache).
    tables : sequence of str, optional
        Bundled table ids whose levels are shown (default every one; ``[]`` none).
    with_certificates : bool
        Rerun the prover on the proved cells for their certificates.
    groups_n : int, optional
        N of the k-expanded map of the papers' theorems (None: no such page).
    kernel_check : bool
        Check each proved pair's Coq file with ``coqc`` (:mod:`implgraph.site.kernel`; needs Coq).
    """
    from implgraph import definitions as registry
    from implgraph.commands.claims import all_rows
    from implgraph.commands.definitions import describe
    from implgraph.site.kernel import coq_files
    m = read_matrix(matrix)
    with _verdicts_beside(verdicts) as pending:     # computed in a second process while this one works
        certs = certificates(m["cells"]) if with_certificates else {}
        levels = table_levels(tables)
        rows = pending()
    by_id = {r["id"]: r for r in rows}
    claims = []
    for c in all_rows():
        v = by_id.get(c["id"], {})
        claims.append({**c, "verdict": v.get("verdict"), "evidence": v.get("evidence"), "witness": v.get("witness"),
                       "tight": v.get("tight")})
    return {
        "matrix": m,
        "definitions": [describe(d) for d in registry.all_definitions()],
        "claims": claims,
        "certificates": certs,
        "coq": coq_files(certs, kernel_check),
        "tables": levels,
        "groups_svg": groups_svg(rows, groups_n) if groups_n else None,
        "groups_n": groups_n,
    }
