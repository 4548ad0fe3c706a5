"""Witness tables as reported: a canonical form that does not depend on the solver's model, and JSON.

:func:`canonical_witness` replaces a solver's table by the first table of a fixed enumeration that
passes the same exact re-check, so that the same question always shows the same witness;
:func:`witness_json` prints a table with exact rationals.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from implgraph.core.concrete import ConcreteTable

__all__ = ["canonical_witness", "witness_json", "CANONICAL_DENOMINATORS", "CANONICAL_BUDGET"]


#: denominators of the grid the canonical witness is searched on, in order
CANONICAL_DENOMINATORS = (1, 2, 3, 4, 5, 6, 8, 10, 12)
#: exact re-checks spent on making one witness canonical
CANONICAL_BUDGET = 300


def _simplest(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in [lo, hi] (the smallest such numerator)."""
    d = 1
    while True:
        n = -((-lo.numerator * d) // lo.denominator)      # ceil(lo * d)
        if Fraction(n, d) <= hi:
            return Fraction(n, d)
        d += 1


def canonical_witness(table: ConcreteTable, check, budget: int = CANONICAL_BUDGET) -> ConcreteTable:
    """A canonical witness equivalent to ``table``: the same answer whatever model the solver gave.

    Binary tables: the first table passing ``check`` in a fixed enumeration (grids of
    :data:`CANONICAL_DENOMINATORS`, records sorted within each class, lexicographic order), within
    ``budget`` re-checks. Otherwise the solver's table with each probability replaced, record by
    record, by the simplest rational that still passes ``check``, and records sorted within their
    classes. Every table returned passes ``check``.
    """
    labels, order = _class_order(table)
    sizes = [len(g) for g in order]
    contiguous = [i for g in order for i in g] == list(range(table.N))
    spent = 0

    def make(rows):
        return ConcreteTable.from_fractions(rows, buckets=table.buckets, classes=labels)

    if table.p == 2 and contiguous and (labels is None or len(set(labels)) == len(order)):
        singles = labels is None or all(size == 1 for size in sizes)
        found, spent = _first_on_grids([table.N] if singles else sizes, make, check, budget)
        if found is not None:
            return found
    rows = [list(r) for r in table.to_rows()]
    if table.p == 2:
        rows = _simplest_rows(rows, table.N, make, check, budget, spent)
    rows = [sorted((rows[i] for i in g)) for g in order]
    cand = make([r for part in rows for r in part])
    return cand if check(cand) else table


def _class_order(table: ConcreteTable):
    """The table's class labels and its records grouped by class.

    Returns
    -------
    tuple
        ``(labels, order)``: the class label of each record (None without classes) and the runs of
        consecutive records with the same label (one run of every record without classes).
    """
    labels = None if table.classes is None else [str(c) for c in table.classes]
    order = [] if labels is not None else [list(range(table.N))]
    for i, lab in enumerate(labels or []):
        if order and labels[order[-1][0]] == lab:
            order[-1].append(i)
        else:
            order.append([i])
    return labels, order


def _first_on_grids(groups, make, check, budget):
    """The first binary table passing ``check`` on the grids of :data:`CANONICAL_DENOMINATORS`.

    Parameters
    ----------
    groups : list of int
        The sizes of the groups whose records are sorted (the classes, or the whole table).
    make : callable
        The table of a list of rows.
    check : callable
        The exact re-check.
    budget : int
        The most re-checks.

    Returns
    -------
    tuple
        ``(table or None, re-checks spent)``.
    """
    spent = 0
    seen: set = set()
    for D in CANONICAL_DENOMINATORS:
        grid = sorted({Fraction(k, D) for k in range(D + 1)})
        per = [itertools.combinations_with_replacement(grid, s) for s in groups]
        for combo in itertools.product(*per):
            xs = [x for part in combo for x in part]
            key = tuple(xs)
            if key in seen:
                continue
            seen.add(key)
            spent += 1
            cand = make([[x, 1 - x] for x in xs])
            if check(cand):
                return cand, spent
            if spent >= budget:
                break
        if spent >= budget:
            break
    return None, spent


def _simplest_rows(rows, N, make, check, budget, spent):
    """Each record's probability replaced, record by record, by the simplest rational that still passes
    ``check`` (binary tables), within ``budget`` re-checks (``spent`` already).

    Returns
    -------
    list of list
        The rows.
    """
    for i in range(N):
        x = rows[i][0]
        for width in (Fraction(1, 2), Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000)):
            if spent >= budget:
                break
            y = _simplest(max(Fraction(0), x - width), min(Fraction(1), x + width))
            if y == x:
                break
            trial = [list(r) for r in rows]
            trial[i] = [y, 1 - y]
            spent += 1
            if check(make(trial)):
                rows = trial
                break
    return rows


def witness_json(table: ConcreteTable, params: dict | None = None, **extra) -> dict:
    """Exact rational probabilities per row and bucket (strings), classes and parameters."""
    rows = [[str(x) for x in r] for r in table.to_rows()]
    out = {"params": {k: str(v) for k, v in (params or {}).items()}, "buckets": list(table.buckets), "rows": rows}
    if table.classes is not None:
        out["classes"] = [str(c) for c in table.classes]
    out.update({k: str(v) for k, v in extra.items()})
    return out
