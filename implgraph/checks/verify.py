"""``verify``: run every claim of ``theorems/*.yaml`` and ``counterexamples/*.yaml``.

:func:`run_verify` validates the theorem files (bad input raises
:class:`~implgraph.core.errors.InputError`), collects every claim, dispatches each to its checker
(:func:`implgraph.checks.check_claim`), adds a row for the proof's reading of claims that have
one (id ``<id>#reading``), judges the implication maps last (they use the other verdicts), and
compares every verdict with the ``expect:`` recorded in the data (a difference is a regression).
"""

from __future__ import annotations

import time
from pathlib import Path

from implgraph.core.deadline import Timeout, deadline
from implgraph.core.errors import InputError
from implgraph.core.gc_batch import fewer_collections
from implgraph.checks import check_claim
from implgraph.core.verdict import Verdict
from implgraph.io.datafile import data_files
from implgraph.io.theorems import load_claims, load_theorems
from implgraph.io.verdict_cache import cached_rows, claims_key, store_rows

__all__ = ["collect_claims", "claim_files", "run_verify", "regressions", "id_matches", "work_units", "claim_cost",
           "DEFAULT_MAX_N", "LAST_KINDS"]

DEFAULT_MAX_N = 8
#: claim kinds judged after all others, from their verdicts (the implication maps and their text claims)
LAST_KINDS = ("map", "reachability")


def id_matches(cid: str, ids) -> bool:
    """Is ``cid`` selected by ``ids``: equal to one, under one as a prefix (``paper/table-III`` selects
    ``paper/table-III/caption``), or its ``#reading`` row? No ``ids`` selects every claim."""
    if not ids:
        return True
    return any(cid == i or cid.startswith(i.rstrip("/") + "/") or cid.startswith(i + "#") for i in ids)


def collect_claims(ids=None, paths=None) -> list:
    """Every claim node (theorems first, then table claims, maps last), filtered by ``ids``.

    ``paths``: theorem files to read instead of the bundled ``theorems/`` (the bundled tables stay).
    """
    load_theorems(paths)  # validation: raises InputError on bad input
    claims = load_claims(paths)
    chosen = [c for c in claims if id_matches(str(c.get("id")), ids)]
    if ids:
        missing = [i for i in ids if not any(id_matches(str(c.get("id")), [i]) for c in claims)]
        if missing:
            raise InputError(f"no claim with id {missing[0]!r}", fix="see `implgraph verify` for the ids")
    maps = [c for c in chosen if c.get("kind") in LAST_KINDS]
    rest = [c for c in chosen if c.get("kind") not in LAST_KINDS]
    return rest + maps


def _check_one(c, context):
    cid = str(c.get("id"))
    start = time.perf_counter()
    try:
        with deadline(context.get("timeout")):
            v = check_claim(c, context)
    except Timeout as exc:
        v = Verdict(id=cid, verdict="unknown", printed=str(c.get("printed", "")),
                    evidence=f"unknown ({exc}): the check did not finish within --timeout",
                    expect=c.get("expect"), details={"timeout": exc.seconds})
        context.pop("extra_rows", None)
    except InputError as exc:
        if exc.file:
            raise
        v = Verdict(id=cid, verdict="unknown", printed=str(c.get("printed", "")),
                    evidence=f"checker reported: {exc.format()}", expect=c.get("expect"))
    except Exception as exc:  # a checker bug must not hide the other verdicts
        v = Verdict(id=cid, verdict="unknown", printed=str(c.get("printed", "")),
                    evidence=f"checker error: {type(exc).__name__}: {exc}", expect=c.get("expect"))
    v.seconds = round(time.perf_counter() - start, 3)
    if v.expect is None and c.get("expect"):
        v.expect = str(c.get("expect"))
    return [v] + list(context.pop("extra_rows", []))


_WORKER_CLAIMS: dict = {}
"""Claim nodes by id, filled by the parent before the pool forks (the workers inherit them)."""

#: a static estimate of a claim's cost by its kind (CPU seconds, cold, from the per-claim ``seconds`` of
#: whole runs): the previous run's times are not at hand in a cold run
KIND_COST = {"level": 0.5, "not-implies": 1.0, "implies": 0.5, "math": 0.1, "unbounded": 0.15,
             "equivalent": 0.15, "map": 0.8, "reachability": 2.5}
#: claim fields that mark a long check, with the cost they add: a figure's grid and channels, a math
#: claim's definitions, instantiations, implicit equations or mechanism
HEAVY_FIELDS = {"grid": 2.5, "channels": 2.5, "mechanism": 1.0, "definitions": 1.0, "instantiations": 1.0,
                "implicit": 1.0}
#: a claim judged a second time under its proof's reading costs this many times one judgement
READING_FACTOR = 1.6


def claim_cost(c) -> float:
    """The static cost estimate of a claim (:data:`KIND_COST`, the largest of :data:`HEAVY_FIELDS` it
    has, times :data:`READING_FACTOR` with a reading row); used to start the longest work first."""
    cost = KIND_COST.get(str(c.get("kind")), 0.5) + max([v for k, v in HEAVY_FIELDS.items() if k in c] or [0.0])
    if any(c.get(k) for k in ("reading_kind", "reading_when", "reading_channels")):
        cost *= READING_FACTOR
    return cost


_DECIDED: list = []
"""The queue a forked worker puts each claim's rows on as soon as they are decided (set by the parent
when it streams the rows: ``run_verify(on_rows=...)``)."""


def _worker(args):
    cids, max_n, timeout, verdicts = args
    if not _WORKER_CLAIMS:  # a spawned (not forked) worker reads the data itself
        for c in load_claims():
            _WORKER_CLAIMS.setdefault(str(c.get("id")), c)
    out = []
    for cid in cids:
        context = {"max_n": max_n, "verdicts": dict(verdicts or {}), "timeout": timeout}
        rows = _check_one(_WORKER_CLAIMS[cid], context)
        if _DECIDED:
            _DECIDED[0].put(rows)
        out.append((cid, rows))
    return out


def work_units(claims) -> list:
    """The claim ids in groups for the workers, longest first (:func:`claim_cost`).

    The claims of one table form one group (they share the table's levels, computed once per
    process); every other claim is a group of its own. A group's cost is the sum of its claims'; the
    workers take the groups in this order as they become free, so that they finish together.
    """
    groups: dict = {}
    cost: dict = {}
    for c in claims:
        cid = str(c.get("id"))
        key = ("table", str(c["_table"])) if c.get("_table") is not None else ("claim", cid)
        groups.setdefault(key, []).append(cid)
        cost[key] = cost.get(key, 0.0) + claim_cost(c)
    return [groups[k] for k in sorted(groups, key=lambda k: -cost[k])]


def claim_files(paths=None) -> list:
    """The data files the verdicts of a run depend on: the theorem files (``paths`` or the bundled
    ones) and the bundled counterexample tables."""
    theorems = [Path(p) for p in paths] if paths is not None else data_files("theorems")
    return sorted({str(p) for p in list(theorems) + list(data_files("counterexamples"))})


def _check_all(plain, maps, known, max_n, timeout, jobs, progress, on_rows, context, parallel) -> dict:
    """``{claim id: rows}`` of the claims ``plain``, then of the ``maps`` (judged from the verdicts of
    every plain claim: those computed here and ``known``), in ``jobs`` forked processes when ``parallel``.

    In the processes the maps go after every plain claim is decided, one per process (the longest
    kinds first); without them, in this process in their order.
    """
    results: dict = {}
    if jobs > 1 and len(plain) + len(maps) > 1 and parallel:
        import concurrent.futures as cf
        import multiprocessing as mp
        _WORKER_CLAIMS.clear()
        _WORKER_CLAIMS.update((str(c.get("id")), c) for c in list(plain) + list(maps))
        decided = mp.get_context("fork").SimpleQueue() if on_rows is not None else None
        _DECIDED[:] = [decided] if decided is not None else []

        def run(ex, jobs_args):
            pending = {ex.submit(_worker, a) for a in jobs_args}
            while pending:
                done, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
                for fut in done:
                    for cid, rows in fut.result():
                        results[cid] = rows
                        if progress is not None:
                            progress.step(cid)
                while decided is not None and not decided.empty():  # each claim's rows as decided
                    on_rows(decided.get())
        try:
            with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork")) as ex:
                run(ex, [(unit, max_n, timeout, None) for unit in work_units(plain)])
                if maps:   # the maps, from every plain claim's verdict, in the same (warm) processes
                    verdicts = {rows[0].id: rows[0] for rows in list(known.values()) + list(results.values())}
                    run(ex, [(unit, max_n, timeout, verdicts) for unit in work_units(maps)])
        finally:
            _WORKER_CLAIMS.clear()
            _DECIDED.clear()
        return results
    for c in plain:
        cid = str(c.get("id"))
        if progress is not None:
            progress.step(cid)
        results[cid] = _check_one(c, context)
        if on_rows is not None:
            on_rows(results[cid])
    return results


@fewer_collections()
def run_verify(ids=None, max_n: int = DEFAULT_MAX_N, progress=None, jobs: int = 1, paths=None,
               timeout: float | None = None, on_rows=None, fresh: bool = False, claims=None) -> list:
    """Verdicts of every (chosen) claim, in order; reading rows follow their claim.

    ``jobs > 1`` checks the claims in that many processes (the maps are judged afterwards from the
    other verdicts, in the same processes). ``timeout``: seconds per claim; a claim not decided by then is
    ``unknown`` with "timeout" in its evidence. ``on_rows``: called with each claim's rows (the claim's
    verdict, then its reading rows) as soon as they are decided, in the order they are decided.

    A claim's rows computed before with the same code, data, ``max_n``, ``timeout``, solver and
    libraries are replayed from the content-keyed cache (:func:`~implgraph.io.verdict_cache.claims_key`;
    ``IMPLGRAPH_NO_CACHE=1`` disables it) when their keyed checksum holds and every certificate they carry is
    accepted by :mod:`implgraph.certify` (a ``proved`` row must carry one); otherwise the claim is computed
    again. ``fresh`` computes every claim again (and stores the rows).
    ``claims``: the claims of ``ids`` and ``paths`` when the caller has collected them already
    (:func:`collect_claims`).
    """
    claims = collect_claims(ids, paths) if claims is None else claims
    context = {"max_n": max_n, "verdicts": {}, "timeout": timeout}
    plain = [c for c in claims if c.get("kind") not in LAST_KINDS]
    maps = [c for c in claims if c.get("kind") in LAST_KINDS]
    ids_plain = [str(c.get("id")) for c in plain]
    unique = len(set(ids_plain)) == len(ids_plain)
    key = claims_key(claim_files(paths), max_n, timeout) if unique else None
    stored = {} if fresh or key is None else cached_rows(key, {str(c.get("id")): c for c in claims})
    results = {cid: stored[cid] for cid in ids_plain if cid in stored}
    for cid, rows in results.items():
        if progress is not None:
            progress.step(cid)
        if on_rows is not None:
            on_rows(rows)
    todo = [c for c in plain if str(c.get("id")) not in results]
    maps_todo = [c for c in maps if str(c.get("id")) not in stored]
    parallel = unique and paths is None
    # the maps go to the worker processes when every other claim is judged in this run (a map of a chosen
    # subset judges the missing edge claims itself: in this process, once for all maps)
    computed = _check_all(todo, maps_todo if parallel and not ids else [], dict(results), max_n, timeout, jobs,
                          progress, on_rows, context, parallel)
    results.update(computed)
    out = []
    for c in plain:
        rows = results[str(c.get("id"))]
        context["verdicts"][rows[0].id] = rows[0]
        out.extend(rows)
    for c in maps:
        rows = _map_rows(c, computed, stored, context, progress, on_rows)
        context["verdicts"][rows[0].id] = rows[0]
        out.extend(rows)
    if key is not None:
        store_rows(key, computed)
    return out


def _map_rows(c, computed, stored, context, progress, on_rows) -> list:
    """The rows of one map claim of :func:`run_verify`, judged after every other claim.

    Parameters
    ----------
    c : Node
        The map claim.
    computed : dict
        The rows computed in this run, by claim id; a map judged here is added.
    stored : dict
        The rows replayed from the cache, by claim id.
    context : dict
        The run's shared context (the other claims' verdicts).
    progress, on_rows
        As in :func:`run_verify`.

    Returns
    -------
    list of Verdict
        The claim's verdict, then its reading rows.
    """
    cid = str(c.get("id"))
    if cid in computed:   # judged in the worker processes (streamed and counted there)
        return computed[cid]
    if progress is not None:
        progress.step(cid)
    rows = stored.get(cid) if cid in stored else _check_one(c, context)
    if cid not in stored:
        computed[cid] = rows
    if on_rows is not None:
        on_rows(rows)
    return rows


def regressions(verdicts) -> list:
    """Verdicts that differ from the expectation recorded in the data."""
    return [v for v in verdicts if v.expect is not None and str(v.expect) != v.verdict]
