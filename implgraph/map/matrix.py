"""The pair matrix: every ordered pair of registered definitions decided by check-edge.

Each definition is one node, its own parameters at stated values (:func:`stated_params`: a size
``k`` at 2, a ground distance ``equal``, otherwise the first assignment of the definition's
``param_values``). Every unordered pair is handed to :func:`implgraph.engines.checkedge.check_edge`
(both directions, N = 2..``N``, ``p`` buckets, every partition into classes, with the prover for
every N) in one of ``jobs`` worker processes, each pair stopped after ``timeout`` seconds (a worker decides
pair after pair; one past the timeout is killed and replaced, and the pair given once more to a fresh worker); the
two directions fill the two
ordered cells. A cell says

- ``implication``: with the tight f (``tight_at``: for every N from the prover, or at the largest N
  checked, with ``tight_in_N`` where one expression in N fits every N checked), ``proved_every_n``
  when :mod:`implgraph.engines.prove` has an argument for every N, otherwise the bound of the
  bounded evidence; ``trivial`` when f is the weakest
  level of B (every table satisfies B there), ``vacuous`` when f is B's own ceiling on every table of N records
  (every table meets it): neither is counted or drawn as an implication;
- ``non-implication``: with a witness table (re-checked in exact arithmetic; a counterexample for
  every f at its N: no claim is made for other N, where the pair may even hold, as X => (eps,delta)-DP at a
  fixed delta does on record removal once N >= 1/delta, every table being (0, delta)-DP there);
- ``open``: with the reason (the engine's evidence, or ``unknown (timeout)``).

``equivalent`` marks the cells of a pair whose two tight f are inverse to each other. Every partition into
classes is searched, a table of one class included; where such a table decides a cell, ``conditional`` holds the
cell under the assumption "partitions into at least 2 classes" (both are shown).
:func:`not_proved_reason` says why an implication cell is not proved for every N (from the two
declarations; ``implgraph matrix`` prints it under each such cell).

Examples
--------
>>> from implgraph.definitions import all_definitions
>>> d = next(d for d in all_definitions() if not d.params and not d.needs_classes)
>>> m = pair_matrix([d.name], N=2)
>>> m["counts"]["pairs"]
0
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from dataclasses import replace

from implgraph.definitions.nodes import node_text, parse_node
from implgraph.definitions import all_definitions, get
from implgraph.definitions.families import param_grid
from implgraph.engines.checkedge import check_edge
from implgraph.core.region import forget_answers
from implgraph.map.matrix_cells import Cell, cell_of, counts_of, not_proved_reason  # noqa: F401  (imported from here)
from implgraph.map.matrix_pool import answer_of as _answer_of, cells_of as _cells_of, open_cells as _open_cells, \
    retire as _retire

__all__ = ["stated_params", "matrix_nodes", "symbolic_nodes", "kept_parameters", "decide_pair", "pair_matrix",
           "cell_of", "counts_of", "Cell", "not_proved_reason"]

#: the stated value of a group or class size parameter
STATED_SIZE = 2


def stated_params(d, N: int = 4) -> dict:
    """The parameter values a definition takes in the matrix (see the module docstring)."""
    grid = d.param_values(N) if hasattr(d, "param_values") else [{}]
    first = dict(grid[0]) if grid else {}
    out = {}
    for name in d.params:
        if name == "k":
            out[name] = STATED_SIZE
        elif name in d.words:
            out[name] = d.words[name]
        elif name in first:
            out[name] = first[name]
        else:
            raise ValueError(f"{d.name}: no stated value for parameter {name}")
    return out


def matrix_nodes(names=None, N: int = 4) -> list:
    """The node text (``NAME(param=value)``) of every definition of the matrix, in registry order."""
    defs = [get(n) for n in names] if names else all_definitions()
    return [node_text(d.name, stated_params(d, N)) for d in defs]


def symbolic_nodes(names=None, N: int = 4) -> tuple:
    """``(nodes, conditions)``: every definition of the matrix with each integer parameter that declares
    its range (``ranges``, with integer values in its ``param_values``: a group or class size ``k``) as a
    symbol of its own (``k1``, ``k2``, ... in
    registry order, so that the two sides of a pair never share one), and ``conditions[symbol]`` its
    range as text (``1 <= k1``, ``k1 <= N - 1``); other parameters (a real ``delta``, a ground distance,
    a parameter without a declared range) keep their stated values (:func:`stated_params`).

    Examples
    --------
    >>> from implgraph.definitions import all_definitions
    >>> sized = [d.name for d in all_definitions() if "k" in (getattr(d, "ranges", None) or {})][:2]
    >>> plain = next(d.name for d in all_definitions() if not d.params)
    >>> nodes, conds = symbolic_nodes(sized + [plain])
    >>> nodes == [f"{sized[0]}(k=k1)", f"{sized[1]}(k=k2)", plain]
    True
    >>> conds["k2"] == ["1 <= k2", f"k2 <= {get(sized[1]).ranges['k'][1]}"]
    True
    """
    nodes, conds = [], {}
    for d, params, node_conds in _symbolic(names, N):
        nodes.append(node_text(d.name, params))
        conds.update(node_conds)
    return nodes, conds


def kept_parameters(names=None, N: int = 4) -> dict:
    """``{node: {parameter: why}}``: the parameters :func:`symbolic_nodes` keeps at their stated values, each with
    the reason read off its declaration (no declared range; values that are not integers: a node's symbols are
    integers)."""
    out = {}
    for d, params, node_conds in _symbolic(names, N):
        ranges = getattr(d, "ranges", None) or {}
        why = {}
        for name in d.params:
            if str(params.get(name)) in node_conds:
                continue        # made a symbol
            if name not in ranges:
                why[name] = f"kept at {params[name]}: no declared range"
            else:
                why[name] = (f"kept at {params[name]}: its values are not integers (a node's symbols are integers; "
                             f"range {ranges[name][0]}..{ranges[name][1]})")
        if why:
            out[node_text(d.name, params)] = why
    return out


def _symbolic(names, N):
    """``(definition, params, conditions)`` of each node of :func:`symbolic_nodes`, in registry order."""
    defs = [get(n) for n in names] if names else all_definitions()
    out, count = [], {}
    for d in defs:
        params, conds = stated_params(d, N), {}
        grid = param_grid(d, N) or []
        for name, (lo, hi) in sorted((getattr(d, "ranges", None) or {}).items()):
            values = [g[name] for g in grid if name in g]
            if name not in params or not values or not all(isinstance(v, int) for v in values):
                continue        # not an integer parameter (a node's symbols are integers)
            count[name] = count.get(name, 0) + 1
            sym = f"{name}{count[name]}"
            params[name] = sym
            conds[sym] = [f"{lo} <= {sym}", f"{sym} <= {hi}"]
        out.append((d, params, conds))
    return out


def _when_of(a: str, b: str, conds: dict) -> list:
    """The range conditions of the parameter symbols of nodes ``a`` and ``b``."""
    used = {s.name for n in (a, b) for s in parse_node(n).free_symbols()}
    return [c for sym in sorted(used) for c in conds.get(sym, [])]


def decide_pair(a: str, b: str, N: int = 4, p: int = 2, when=()) -> list:
    """The two cells (A => B, B => A) of one pair, from check-edge (``when``: conditions on the
    parameter symbols)."""
    r = check_edge(a, b, when=list(when), N=N, p=p)
    return [cell_of(r.forward, r.kind), cell_of(r.backward, r.kind)]


def _worker(conn):
    """Decide pairs one after another until told to stop: the modules each check imports and the
    memos of pure computations (sympy's cache, :func:`implgraph.core.simplified.simplified`, the
    optima of :mod:`implgraph.engines.lf`) serve every later pair of this process; the solver answers
    that may depend on earlier questions (a time-out, a model) are forgotten before each pair
    (:func:`implgraph.core.region.forget_answers`), so a pair's cells do not depend on the pairs its
    worker decided before."""
    try:
        while True:
            job = conn.recv()
            if job is None:
                return
            conn.send(_decided(job))
    except (EOFError, BrokenPipeError):   # the parent went away
        return
    finally:
        conn.close()


def _decided(job):
    """``("ok", the cells as JSON)`` of one job ``(a, b, N, p, when)``, the solver answers forgotten first, or
    ``("error", reason)`` where the check failed (an open pair with the reason, never a verdict: :func:`_cells_of`)."""
    a, b, N, p, when = job
    forget_answers()
    try:
        return "ok", [c.to_json() for c in decide_pair(a, b, N, p, when)]
    except Exception as exc:
        return "error", f"{exc.__class__.__name__}: {exc}"


def _spawn(ctx):
    """A fresh worker process (:func:`_worker`) and the parent's end of its pipe."""
    mine, theirs = ctx.Pipe(duplex=True)
    proc = ctx.Process(target=_worker, args=(theirs,), daemon=True)
    proc.start()
    theirs.close()
    return proc, mine


def _run_pairs(pairs, N, p, timeout, jobs, progress, conds=None):
    """Every pair in one of ``jobs`` worker processes, each stopped after ``timeout`` s (:func:`_in_workers`). With two
    or more jobs, the pairs of :func:`_warm_pairs` are decided first in this process (:func:`_decide_here`), so that the
    workers forked after them share what they computed once (a definition's forms and levels, the second parts of
    compositions), instead of each computing it again; one past its timeout here goes to the workers."""
    results, seconds, done = {}, {}, []

    def record(key, cells, secs):
        results[key], seconds[key] = cells, round(secs, 2)
        done.append(key)
        if progress:
            print(f"[{len(done)}/{len(pairs)}] {key[0]} ? {key[1]}: {cells[0].kind} ({seconds[key]} s)",
                  file=sys.stderr, flush=True)
    tried = {}                  # a warm pair past its timeout: its seconds (a try); it goes to the workers
    for key in _warm_pairs(pairs) if jobs > 1 else []:
        cells, secs = _decide_here(key, N, p, timeout, conds or {})
        if cells[0].verdict == "timeout" and RETRIES:
            tried[key] = secs
        else:
            record(key, cells, secs)
    _in_workers([k for k in pairs if k not in results], N, p, timeout, jobs, conds, record, tried)
    return results, seconds


def _warm_pairs(pairs) -> list:
    """Pairs of ``pairs`` no two of which share a node, taken in the order given, each of two nodes no pair before it
    has (every node of the whole matrix but one where the number of nodes is odd; one pair of a row)."""
    seen, out = set(), []
    for a, b in pairs:
        if a not in seen and b not in seen:
            out.append((a, b))
            seen.update((a, b))
    return out


#: seconds past its timeout at which a pair decided in the parent (:func:`_decide_here`) is interrupted; it is open
#: past its timeout whatever it answers, as a worker's is
_PAST_TIMEOUT = 5.0


def _decide_here(key, N, p, timeout, conds):
    """``(cells, seconds)`` of one pair decided in this process as a worker decides it (the solver answers forgotten
    first; a failure open with its reason; past ``timeout`` open, ``unknown (timeout)``). A deadline
    :data:`_PAST_TIMEOUT` s after the timeout ends a pair that runs on: an inner time limit it shortens is one that
    would end after the pair's timeout, when the pair is open whatever it answers."""
    from implgraph.core.deadline import as_timeout, deadline
    a, b = key
    start = time.monotonic()
    try:
        with deadline(timeout + _PAST_TIMEOUT if timeout < float("inf") else None):
            cells = _cells_of(key, _decided((a, b, N, p, _when_of(a, b, conds))))
    except BaseException as exc:        # a time limit's Timeout, reported as a worker's is
        if as_timeout(exc) is None:
            raise
        # (a worker that a time limit's Timeout escapes from ends without an answer, exit code 1)
        cells = _open_cells(a, b, "unknown", "the check ended without an answer (exit code 1)")
    secs = time.monotonic() - start
    if secs > timeout:
        cells = _open_cells(a, b, "timeout", f"unknown (timeout after {timeout:g} s)")
    return cells, secs


#: times a pair past its timeout is given again to a fresh worker before it is open ``timeout`` (a solver may run on
#: past its own limit in a process whose history leads it there: tests/test_z3_fresh_context.py)
RETRIES = 1


def _in_workers(todo, N, p, timeout, jobs, conds, record, tried=None):
    """The pairs ``todo`` in ``jobs`` workers, ``record(key, cells, seconds)`` as each ends: a worker decides pair after
    pair; one past its timeout is killed and a fresh worker takes the pair again, up to :data:`RETRIES` times (its
    seconds those of every try; ``tried``: those of a first try in the parent), then open ``unknown (timeout)``."""
    ctx = multiprocessing.get_context("fork")
    todo, idle, busy = list(todo), [], {}          # busy: worker -> (pair, start)
    spent = dict(tried or {})                       # a pair's tries past its timeout: their seconds, and how many
    tries = {key: 1 for key in spent}
    while todo or busy:
        while todo and len(busy) < jobs:
            a, b = todo[0]
            job = (a, b, N, p, _when_of(a, b, conds or {}))
            worker = idle.pop() if idle else _spawn(ctx)
            try:
                worker[1].send(job)
            except (BrokenPipeError, OSError):      # the worker died after its last pair: a fresh one
                _retire(worker, kill=True)
                worker = _spawn(ctx)
                worker[1].send(job)
            todo.pop(0)
            busy[worker] = ((a, b), time.monotonic())
        for worker, (key, start) in list(busy.items()):
            cells, dead = _answer_of(worker, key, start, timeout)
            if cells is None:
                continue
            del busy[worker]
            if dead:
                _retire(worker, kill=True)
            else:
                idle.append(worker)
            secs = spent.pop(key, 0.0) + time.monotonic() - start
            if cells[0].verdict == "timeout" and tries.get(key, 0) < RETRIES:
                tries[key] = tries.get(key, 0) + 1
                spent[key] = secs
                todo.insert(0, key)                 # (its worker was killed: a fresh one takes it)
                continue
            if tries.get(key) and cells[0].verdict == "timeout":
                cells = [replace(c, reason=f"{c.reason}, {tries[key] + 1} tries, each in a fresh worker")
                         for c in cells]
            record(key, cells, secs)
        if busy:
            time.sleep(0.02)
    for worker in idle:
        _retire(worker, kill=False)


def pair_matrix(names=None, N: int = 4, p: int = 2, timeout: float = 120, jobs: int = 1, progress: bool = False,
                pairs=None, parameters: str = "stated") -> dict:
    """The pair matrix as a JSON-ready dict: ``nodes``, ``cells`` (ordered pairs), ``counts``, ``settings``,
    ``seconds`` (the whole matrix, wall) and ``pair_seconds`` (each unordered pair's check, wall).

    Parameters
    ----------
    names : list of str, optional
        Definitions (default: every registered one).
    N, p : int
        check-edge's largest number of records and number of buckets.
    timeout : float
        Seconds per unordered pair; a pair past it is open, ``unknown (timeout)``.
    jobs : int
        Pairs checked at once.
    progress : bool
        One line per pair on stderr.
    pairs : list of (str, str), optional
        Only these unordered pairs of nodes (as :func:`matrix_nodes` or :func:`symbolic_nodes` write them).
    parameters : {"stated", "symbols"}
        Parameters at their stated values (:func:`stated_params`), or each integer parameter with a
        declared range as a symbol over that range (:func:`symbolic_nodes`: the bounded search tries
        every value of the range at each N, the prover argues for every value).
    """
    start = time.perf_counter()
    if parameters not in ("stated", "symbols"):
        raise ValueError(f"parameters must be 'stated' or 'symbols', not {parameters!r}")
    conds = {}
    if parameters == "symbols":
        nodes, conds = symbolic_nodes(names, N)
    else:
        nodes = matrix_nodes(names, N)
    if pairs is None:
        pairs = [(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:]]
    results, seconds = _run_pairs(list(pairs), N, p, timeout, max(1, jobs), progress, conds)
    cells = [c for key in pairs for c in results[key]]
    settings = {"N": N, "p": p, "timeout": timeout,
                "parameters": "stated values (implgraph.map.matrix.stated_params)" if parameters == "stated" else
                "integer parameters with a declared range as symbols over that range, the others at stated "
                "values (implgraph.map.matrix.symbolic_nodes)"}
    if conds:
        settings["conditions"] = {sym: c for sym, c in sorted(conds.items())}
    if parameters == "symbols":
        settings["kept"] = kept_parameters(names, N)
    return {"settings": settings,
            "nodes": nodes, "counts": counts_of(cells), "cells": [c.to_json() for c in cells],
            "seconds": round(time.perf_counter() - start, 1),
            "pair_seconds": {f"{a} ? {b}": seconds[(a, b)] for a, b in pairs}}
