"""Discover the missing edges: check every ordered pair of registered definitions.

Every registered definition is instantiated at N records with each value of its parameters
(:func:`implgraph.definitions.families.param_grid`: k = 1..N-1 for the group-size definitions). Every ordered pair
of instances whose definitions have no edge in ``theorems/*.yaml`` is checked with
:func:`implgraph.engines.direction.check_direction`, in parallel across pairs on the machine's cores
(:class:`concurrent.futures.ProcessPoolExecutor`); the two directions of each pair are combined into
the kinds of ekenstedt2022 Definition 3. A definition that crashes in a worker is reported and
skipped: the other pairs go on.

With ``include_known=True`` the encoded pairs are checked too and
:func:`implgraph.engines.discover_compare.compare_with_theorems` says, claim by claim, whether
discover re-found the paper's relation unaided. The findings print as YAML snippets ready to paste
(:mod:`implgraph.engines.discover_yaml`).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import sympy

from implgraph import definitions
from implgraph.definitions.nodes import make_node, parse_node
from implgraph.engines.checkedge import combine
from implgraph.engines.direction import DirectionResult, check_direction, sampled_sizes
from implgraph.core.errors import InputError
from implgraph.io.console import Progress
from implgraph.definitions.families import param_grid

__all__ = ["discover", "instances", "known_pairs", "Finding", "DiscoverResult"]


#: up to this N every parameter value is tried; beyond, the integer ones are sampled (check-edge's
#: :func:`implgraph.engines.direction.sampled_sizes`, and N itself for a size whose range reaches N)
EVERY_VALUE_MAX = 7


def instances(N, names=None):
    """(nodes, skipped): every registered definition at each parameter value allowed at N (beyond
    :data:`EVERY_VALUE_MAX` records, the integer values among check-edge's sampled sizes and N only: a size
    k = 1..N - 1 each would make the pairs grow as N^2).

    With a range of N, call it with the smallest N: its parameter values are valid for every N.
    """
    nodes, skipped = [], []
    for name in (names or definitions.names()):
        d = definitions.get(name)
        grid = param_grid(d, N)
        if grid is None:
            skipped.append(f"{name}: parameters {', '.join(d.params)} have no default values "
                           "(define param_values(N) in the plugin)")
            continue
        if N > EVERY_VALUE_MAX:
            keep = {*sampled_sizes(N), N}
            grid = [ps for ps in grid if all(not isinstance(v, int) or v in keep for v in ps.values())]
        for params in grid:
            nodes.append(make_node(name, {k: v if isinstance(v, str) else sympy.Integer(v)
                                          for k, v in params.items()}))
    return nodes, skipped


def known_pairs(edges=None) -> set:
    """(from, to) definition names that already have an edge in ``theorems/*.yaml``."""
    if edges is None:
        from implgraph.io.theorems import load_theorems
        edges = load_theorems()
    out = set()
    for e in edges:
        for a in (e.a, e.reading_a):
            if a is None:
                continue
            out.add((a.name, e.b.name))
            if e.kind in ("equivalent", "reciprocal"):
                out.add((e.b.name, a.name))
    return out


@dataclass
class Finding:
    """One unordered pair of instances with both directions and their combined kind."""

    a: str
    b: str
    kind: str
    summary: str
    forward: DirectionResult | None
    backward: DirectionResult | None
    known: bool = False

    def to_json(self):
        return {"a": self.a, "b": self.b, "kind": self.kind, "summary": self.summary, "known": self.known,
                "forward": self.forward.to_json() if self.forward else None,
                "backward": self.backward.to_json() if self.backward else None}


@dataclass
class DiscoverResult:
    N: int
    findings: list
    errors: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    seconds: float = 0.0
    pairs_checked: int = 0
    n_min: int | None = None

    def to_json(self):
        return {"N": self.N, "from_N": self.n_min or self.N, "pairs_checked": self.pairs_checked, "seconds": self.seconds,
                "findings": [f.to_json() for f in self.findings], "errors": self.errors,
                "skipped": self.skipped}


def _job(a_label, b_label, N, p, n_min=None):
    """Worker: one direction; never raises (errors come back as a string)."""
    try:
        n_min = N if n_min is None else n_min
        # over a range of N, each N is compared on its own (discover_compare): every instance's tight f. The pair is
        # decided as check-edge and the matrix decide it: the prover for every N, and a witness family known beyond
        # the N checked (beyond EXHAUSTIVE_MAX records the tables searched are two blocks of equal rows, which show a
        # witness but no implication: there only the prover decides an implication)
        res = check_direction(parse_node(a_label), parse_node(b_label), None, (), N, p, n_min=n_min,
                              prover=True, every_tight=n_min < N)
        return a_label, b_label, res, None
    except BaseException as exc:  # a plugin may raise anything, even SystemExit
        return a_label, b_label, None, f"{a_label} -> {b_label}: {exc.__class__.__name__}: {exc}"


def discover(N=4, names=None, include_known=False, workers=None, progress=None, p=2, n_min=None) -> DiscoverResult:
    """Check every ordered pair of definition instances at ``N`` records.

    Parameters
    ----------
    N : int
        Number of records of the tables (every partition into classes is searched).
    names : list of str, optional
        Restrict to these definitions (default: every registered one, plugins included).
    include_known : bool
        Also check the pairs that already have an edge in ``theorems/`` (to re-find them).
    workers : int, optional
        Processes (default ``os.cpu_count()``); 1 runs in this process.
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    n_min : int, optional
        Check every N from ``n_min`` to ``N`` (default: N only). The parameters then take the values
        valid at ``n_min`` (k = 1..n_min-1), and where the tight f of every N has one shape, one
        expression in N is fitted through them.

    Returns
    -------
    DiscoverResult
    """
    if N < 2:
        raise InputError(f"--N {N} is too small", fix="use N >= 2")
    n_min = N if n_min is None else n_min
    if not 2 <= n_min <= N:
        raise InputError(f"--from-N {n_min} is out of range", fix=f"use 2 <= from-N <= N = {N}")
    start = time.perf_counter()
    for n in names or []:
        definitions.get(n)
    nodes, skipped = instances(n_min, names)
    load_failures = [f"{e} (skipped)" for e in definitions.load_errors()]
    known = known_pairs() if not include_known else known_pairs()
    jobs = _pairs(nodes, known, include_known)
    bar = Progress(len(jobs), "discover", enabled=progress)
    results, errors = {}, []
    workers = workers or os.cpu_count() or 1
    if workers <= 1:
        for a, b in jobs:
            _, _, res, err = _job(a, b, N, p, n_min)
            _store(results, errors, a, b, res, err)
            bar.step(f"{a} -> {b}")
    else:
        _run_in_pool(jobs, N, p, n_min, workers, bar, results, errors)
    bar.close()
    findings = _combine(nodes, results, known)
    return DiscoverResult(N, findings, load_failures + errors, skipped, round(time.perf_counter() - start, 2),
                          len(jobs), n_min)


def _pairs(nodes, known, include_known) -> list:
    """The ordered pairs of instances to check, as labels.

    Parameters
    ----------
    nodes : list
        The definition instances.
    known : set
        The pairs of definition names with an edge in ``theorems/``.
    include_known : bool
        Keep the known pairs.

    Returns
    -------
    list of tuple
        ``(label of A, label of B)``; an instance is never paired with itself.
    """
    jobs = []
    for a in nodes:
        for b in nodes:
            if a.name == b.name and a.params == b.params:
                continue        # the same definition, differing at most in the partitions searched
            is_known = (a.name, b.name) in known
            if is_known and not include_known:
                continue
            jobs.append((a.label(), b.label()))
    return jobs


def _run_in_pool(jobs, N, p, n_min, workers, bar, results, errors) -> None:
    """Check the pairs in ``workers`` processes, storing each result as it comes.

    Parameters
    ----------
    jobs : list of tuple
        The pairs (:func:`_pairs`).
    N, p, n_min
        As in :func:`discover`.
    workers : int
        The number of processes.
    bar : Progress
        Stepped once per pair.
    results : dict
        Filled with the findings (:func:`_store`).
    errors : list
        Filled with the pairs that failed; when a plugin kills its worker, the remaining pairs run one per
        process, so that only the culprit is lost (reported and skipped).
    """
    pending = list(jobs)
    while pending:
        done_now = set()
        try:
            with cf.ProcessPoolExecutor(max_workers=workers) as pool:
                futs = {pool.submit(_job, a, b, N, p, n_min): (a, b) for a, b in pending}
                for fut in cf.as_completed(futs):
                    a, b = futs[fut]
                    try:
                        _, _, res, err = fut.result()
                    except BrokenProcessPool:
                        raise
                    except BaseException as exc:
                        res, err = None, f"{a} -> {b}: {exc.__class__.__name__}: {exc}"
                    _store(results, errors, a, b, res, err)
                    done_now.add((a, b))
                    bar.step(f"{a} -> {b}")
            pending = []
        except BrokenProcessPool:
            # a plugin killed its worker: run the remaining pairs one per process, so that
            # only the culprit is lost (reported and skipped)
            pending = [j for j in pending if j not in done_now]
            for a, b in pending:
                try:
                    with cf.ProcessPoolExecutor(max_workers=1) as pool:
                        _, _, res, err = pool.submit(_job, a, b, N, p, n_min).result()
                except BrokenProcessPool:
                    res, err = None, f"{a} -> {b}: the worker process died (a plugin crashed it)"
                _store(results, errors, a, b, res, err)
                bar.step(f"{a} -> {b}")
            pending = []


def _store(results, errors, a, b, res, err):
    if err:
        errors.append(err)
    else:
        results[(a, b)] = res


def _combine(nodes, results, known):
    """One finding per unordered pair, in the order of the instances (deterministic)."""
    out = []
    for i, first in enumerate(nodes):
        for second in nodes[i + 1:]:
            x, y = first, second
            a, b = x.label(), y.label()
            fw, bw = results.get((a, b)), results.get((b, a))
            if fw is None and bw is None:
                continue
            if fw is None:
                a, b, fw, bw, x, y = b, a, bw, None, y, x
            if bw is None:
                bw = DirectionResult(b, a, "unknown", "unknown", "", "not checked (encoded in theorems/ or failed)")
            kind, summary = combine(fw, bw, x.definition, y.definition)
            out.append(Finding(a, b, kind, summary, fw, bw,
                               known=(x.name, y.name) in known or (y.name, x.name) in known))
    return out


# -- data snippets --------------------------------------------------------------------------------
