"""B's weakest level as the tight f at one instance, shown by grid tables (:func:`weakest_at_every_sample`), where A or
B has no linear-fractional form: at every sampled level of A, a table at least that strong in A whose B level is
exactly B's weakest. Where none is found the trivial f (B's weakest level, met by every table) holds but the tight f
is not known (:mod:`implgraph.engines.instance_grid` says so).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import sympy

from implgraph.engines.grid_tables import COARSE_GRID, WEAKEST_GRID, binary_rows, level_of, remembered, rows_keys
from implgraph.engines.instance_types import samples_for
from implgraph.engines.lf import table_of
from implgraph.engines.recheck import weakest_raw

__all__ = ["weakest_at_every_sample", "weakest_tables_text", "keyed_tables"]


#: the most tables of one grid whose rows and memo keys :func:`keyed_tables` keeps (a larger grid is built each time)
KEYED_MAX = 1000


def keyed_tables(grid, N, p, sizes, classed):
    """``(rows, keys)`` of each table of :func:`~implgraph.engines.grid_tables.binary_rows` on the partition ``sizes``,
    ``keys`` its :func:`~implgraph.engines.grid_tables.rows_keys`: kept (:func:`_keyed`) where the grid has at most
    :data:`KEYED_MAX` tables (every instance of every pair at N records probes the same tables; the rows are not to be
    changed by a caller)."""
    if math.comb(len(grid) + N - 1, N) > KEYED_MAX:
        return ((rows, rows_keys(rows, sizes, classed)) for rows in binary_rows(grid, N, p))
    return _keyed(grid, N, p, sizes, classed)


@functools.lru_cache(maxsize=256)
def _keyed(grid, N, p, sizes, classed) -> tuple:
    """:func:`keyed_tables` of a grid of at most :data:`KEYED_MAX` tables, remembered."""
    return tuple((rows, rows_keys(rows, sizes, classed)) for rows in binary_rows(grid, N, p))


def weakest_at_every_sample(prober, parts, p):
    """Tables showing that nothing stronger than B's weakest level follows from A at ``N`` records: for every sampled
    raw level a of A (:func:`samples_for`), a table whose exact raw A level is a rational at least as strong as a and
    whose B level is exactly B's weakest raw level at N, looked for on the coarse grid, then (where the coarse grid
    covers some level) on :data:`WEAKEST_GRID`. Returns ``{a: (A's raw level, rows, sizes)}``, or None where a sampled
    level has no such table: the tight f at N is then not known (a level no grid table reaches is not known to be out
    of reach, so it is not left out). A's level is computed only on tables where B is at its weakest."""
    larger = prober.a_def.stronger == "larger"
    samples = samples_for(prober.a_def, prober.N)
    w = weakest_raw(prober.b_def, prober.N)
    for grid in (COARSE_GRID, WEAKEST_GRID):
        met = [m for sizes in parts for m in _met_on(prober, w, grid, sizes, p)]
        out = {a: hit for a in samples
               if (hit := next((m for m in met if (m[0] >= a if larger else m[0] <= a)), None)) is not None}
        if len(out) == len(samples):
            return out
        if not out:
            return None     # not even A's weakest sampled level meets B's weakest on the coarse grid: no finer search
    return None


#: the tables of one grid and partition with B exactly at its weakest raw level (:func:`_met_on`), by (A's and B's memo
#: keys, N, p, the grid, class sizes): exact levels whatever was asked before, so the pass over every partition of a
#: direction reads those of the partitions into >= 2 classes its first pass computed
_MET: dict = {}
#: the most partitions kept (then the memo starts again)
MET_MAX = 20_000


def _met_on(prober, w, grid, sizes, p) -> tuple:
    """``(A's raw level, rows, sizes)`` of each table of ``grid`` on the partition ``sizes`` whose B level is exactly
    ``w`` and whose A level is rational (:func:`_at_weakest_b`), in the grid's order; remembered in :data:`_MET`."""
    key = (prober.a_key[1], prober.b_key[1], prober.classed, prober.N, p, grid, tuple(sizes), w)
    return remembered(_MET, key, lambda: tuple(
        m for m in (_at_weakest_b(prober, w, rows, sizes, keys)
                    for rows, keys in keyed_tables(grid, prober.N, p, tuple(sizes), prober.classed))
        if m is not None), MET_MAX)


def _at_weakest_b(prober, w, rows, sizes, keys=None):
    """``(A's raw level, rows, sizes)`` where the table's B level is exactly ``w``, B's weakest raw level at N, and A's
    is rational, else None (``keys``: the table's :func:`~implgraph.engines.grid_tables.rows_keys`, if known)."""
    rows_key = keys or rows_keys(rows, sizes, prober.classed)
    table = functools.cache(lambda: table_of(rows, sizes, prober.classed))
    rb = level_of(prober.b_key, prober.b_params, rows_key, table)
    if not isinstance(rb, Fraction) or sympy.Rational(rb.numerator, rb.denominator) != w:
        return None
    ra = level_of(prober.a_key, prober.a_params, rows_key, table)
    return (ra, rows, sizes) if isinstance(ra, Fraction) else None


def weakest_tables_text(a_def, b_def, at_weakest) -> str:
    """The tables showing B's weakest level tight at every sampled level of A (at most two shown)."""
    shown = []
    for a, (ra, rows, sizes) in list(at_weakest.items())[:2]:
        cells = " ".join("(" + ", ".join(str(v) for v in r) + ")" for r in rows)
        shown.append(f"at {a_def.name}'s raw level {a}: rows {cells}, class sizes {list(sizes)}, {a_def.name}'s raw level "
                     f"{ra}")
    return (f"and it is the tight f at each of {a_def.name}'s {len(at_weakest)} sampled levels: a grid table at least "
            f"that strong in {a_def.name} has {b_def.name} at its weakest level, exactly ({'; '.join(shown)}"
            f"{'; ...' if len(at_weakest) > 2 else ''})")
