"""The remedy's search over whole classes, its plan as records kept, and the re-check of the records kept.

Used by :func:`implgraph.io.remedy.remedy`: :func:`enumerate_classes` (every set of a few classes, fewest records
first: exact), :func:`greedy_classes` (the class worst for the first failing requirement first: an upper bound),
:func:`plan_keep` (which records are kept: a class left out whole loses every record; within a class, the last
records of a value in file order go first), :func:`recheck` (the exact levels of the records kept, as ``implgraph
levels`` computes them, must meet every requirement).
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy

from implgraph.core.errors import InputError, printable

__all__ = ["enumerate_classes", "greedy_classes", "restore", "plan_keep", "recheck", "recheck_file", "ONE_BY_ONE",
           "RESTORE"]

RESTORE = 200
"""After the greedy search, at most this many classes left out are tried back (each re-checked exactly)."""

ONE_BY_ONE = 2000
"""The greedy search leaves out one class at a time while at most this many remain; above, every class failing
the first failing requirement at once (fewer rounds; still an upper bound)."""


def enumerate_classes(problem, sums, rest) -> list | None:
    """The fewest records in a set of the classes ``rest`` whose removal makes every requirement hold (every set
    tried, fewest records first); None if no set does."""
    first = next(iter(sums.values()))
    size = {i: int(first[i].sum()) for i in rest}
    subsets = [c for n in range(len(rest) + 1) for c in itertools.combinations(rest, n)]
    subsets.sort(key=lambda c: (sum(size[i] for i in c), len(c)))
    for gone in subsets:
        alive = [i for i in rest if i not in gone]
        if problem.holds(problem.levels(sums, alive)):
            return list(gone)
    return None


def greedy_classes(problem, sums, rest) -> list | None:
    """Classes of ``rest`` left out one at a time, each the worst class for the first failing requirement (its
    own level, as :func:`implgraph.io.requirements.class_levels` reads it; the fewest records on a tie), until
    every requirement holds (over :data:`ONE_BY_ONE` classes, every class failing it at once), then the classes
    left out tried back (:func:`restore`); None if that never happens or a failing requirement has no level per
    class."""
    from implgraph.io.requirements import class_levels
    alive, gone = list(rest), []
    while alive:
        levels = problem.levels(sums, alive)
        if levels is None:
            return None
        fail = problem.failing(levels)
        if fail is None:
            return restore(problem, sums, alive, gone)
        col, req = fail
        d = req.definition
        per = class_levels(d, problem.table(sums, col, alive), dict(levels[col][d.name].params))
        if per is None:
            return None
        sizes = sums[col][alive].sum(axis=1)
        failing = [x for x in range(len(alive)) if req.holds(per[x]) is not True]
        if len(alive) > ONE_BY_ONE and failing:       # many classes: every failing class at once
            gone += [alive[x] for x in failing]
            alive = [c for x, c in enumerate(alive) if x not in set(failing)]
            continue
        sign = -1 if d.stronger == "smaller" else 1
        j = min(range(len(alive)), key=lambda x: (sign * _rank(per[x]), int(sizes[x])))
        gone.append(alive.pop(j))
    return None


def restore(problem, sums, alive, gone) -> list:
    """The classes of ``gone`` still left out once each is tried back (the largest first, at most
    :data:`RESTORE` tries): a class is kept back when every requirement still holds with it."""
    first = next(iter(sums.values()))
    alive, gone = list(alive), list(gone)
    for c in sorted(gone, key=lambda i: -int(first[i].sum()))[:RESTORE]:
        trial = sorted(alive + [c])
        if problem.holds(problem.levels(sums, trial)):
            alive, gone = trial, [g for g in gone if g != c]
    return gone


def _rank(value) -> float:
    """A class's level as a float to rank classes by (oo largest); the choice is a heuristic, never a verdict."""
    if value is sympy.oo:
        return float("inf")
    return float(sympy.N(value, 30))


def plan_keep(df, qi, col, tables, removed, gone, mode) -> np.ndarray:
    """One boolean per record: kept. ``gone``: classes left out whole; ``removed[i][v]``: records of value ``v``
    left out of class ``i`` (the last ones in file order)."""
    from implgraph.io.microdata import _codes, _sortable, class_codes
    key, labels = class_codes(df, qi)
    ct = tables[col]
    if list(labels) != list(ct.class_labels):
        raise AssertionError("the classes of the records differ from the table's")
    keep = ~np.isin(key, np.asarray(sorted(gone), dtype=np.int64))
    if mode != "records" or not removed.any():
        return keep
    values, buckets = _codes(df[col], sort=_sortable(df[col]))
    if [printable(b) for b in buckets] != list(ct.buckets):
        raise AssertionError("the values of the records differ from the table's")
    p = len(buckets)
    combo = key * p + values
    order = np.argsort(combo, kind="stable")
    ends = np.searchsorted(combo[order], np.arange(removed.size), side="right")
    for flat in np.flatnonzero(removed.reshape(-1)):
        r = int(removed.reshape(-1)[flat])
        keep[order[ends[flat] - r: ends[flat]]] = False
    return keep


def recheck(kept, qi, sensitive, problem, file) -> dict:
    """``{column: {definition: exact level}}`` of the records kept, computed as ``implgraph levels`` does; refused
    (InputError, nothing written) when a requirement does not hold on them."""
    from implgraph.io.microdata import microdata_tables, table_levels
    if len(kept) < 2:
        raise InputError(f"the remedy would keep {len(kept)} record(s)", file=file,
                         fix="relax the requirements or generalise the quasi-identifiers")
    tables = microdata_tables(kept, qi, sensitive, file=file)
    out = {}
    for col, ct in tables.items():
        levels = table_levels(ct, problem.params, ground=problem.grounds[col], only=problem.names)
        for req in problem.requirements:
            lv = levels[req.definition.name]
            if not (lv.defined and req.holds(lv.value) is True):
                raise InputError(f"refused: on the records the remedy keeps, {req.text} does not hold on {col} "
                                 f"({req.definition.level_symbol} = {lv.value})", file=file,
                                 fix="nothing was written; report this, and remedy with --suppress classes")
        out[col] = {name: lv.value for name, lv in levels.items()}
    return out


def recheck_file(path, qi, sensitive, requirements, params, file) -> None:
    """The file just written, read back as ``implgraph levels`` reads it: every requirement must hold on it
    (InputError otherwise: the caller removes the file, nothing is published)."""
    from implgraph.io.microdata import default_ground, microdata_tables, table_levels
    from implgraph.io.read_options import read_records
    back = read_records(path)
    tables = microdata_tables(back, qi, sensitive, file=str(path))
    names = [r.definition.name for r in requirements]
    for col, ct in tables.items():
        levels = table_levels(ct, params, ground=default_ground(back, col), only=names)
        for req in requirements:
            lv = levels[req.definition.name]
            if not (lv.defined and req.holds(lv.value) is True):
                raise InputError(f"refused: the file written, read back, does not meet {req.text} on {col} "
                                 f"({req.definition.level_symbol} = {lv.value}); nothing was written", file=file,
                                 fix="write a Parquet file (--out FILE.parquet keeps the values' types)")
