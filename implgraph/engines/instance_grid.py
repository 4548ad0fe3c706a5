"""The grids of tables probed at one instance of A => B where a definition has no linear-fractional form
(:func:`_grid_instance`, the fallback of :func:`implgraph.engines.instance.analyse`): a coarse grid of binary
rows, then, within a budget of tables (:data:`GRID_BUDGET`), finer binary rows and rows of ``max(p, 3)``
buckets. Every witness is re-checked (:mod:`implgraph.engines.recheck`).
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.core.errors import InputError
from implgraph.engines.instance_types import PENDING_SEARCH, Instance, samples_for
from implgraph.engines.lf import partitions, table_of
from implgraph.engines.grid_tables import (COARSE_GRID, binary_rows, definition_key, finite_of, level_of, remembered,
                                          rows_keys)
from implgraph.engines.instance_weakest import keyed_tables, weakest_at_every_sample, weakest_tables_text
from implgraph.engines.recheck import is_witness, weaker, witness_dict

__all__ = ["GRID_BUDGET", "BINARY_DENOMINATORS", "SIMPLEX_DENOMINATORS"]


#: the most tables one finer grid (:func:`_finer_grids`) probes in one instance (one N, one point of
#: the parameters): its denominators are the largest whose tables fit, and a grid none of whose
#: denominators fits is skipped (at 0.1 to 1 ms a table, a second or two at most)
GRID_BUDGET = 1500
#: the denominators tried, finest first, for rows of two values (v, 1 - v) and for rows of three or
#: more buckets
BINARY_DENOMINATORS = (8, 7, 6, 5, 4, 3)
SIMPLEX_DENOMINATORS = (4, 3, 2)

def _grid_instance(a_def, a_params, b_def, b_params, N, p, f_raw, point, parts=None, stage="all", excluded=False):
    """Fallback for definitions without linear-fractional forms: probe grids of tables.

    First the coarse grid: rows ``(v, 1 - v, 0, ...)`` with v in {0, 1/3, 2/3, 1}. If it shows no
    table with A finite and B infinite, finer grids follow (:func:`_finer_grids`), each of at most
    :data:`GRID_BUDGET` tables: rows ``(v, 1 - v, 0, ...)`` with v a multiple of 1/m for m up to 8,
    then rows of ``max(p, 3)`` buckets on a simplex grid of denominators up to 4 (without an f, only when B
    can be infinite: not when its weakest level is finite or its level has a ceiling on every table of N
    records, :func:`_ceiling`). A table of 3
    buckets refutes A => B as well as one of 2 (it is a table; the witness's rows carry its
    buckets, and the instance's note says how many). Every candidate is re-checked exactly by
    :func:`implgraph.engines.recheck.is_witness`; no definition is named.

    ``parts``: the partitions into classes searched (default: every partition of N into >= 2
    classes when A or B needs classes, else one class of N records). ``stage``: as in :func:`analyse`
    (``"first"``: the coarse grid only; ``"rest"``: the finer grids only). ``excluded``: a proof for every N rules out a
    witness of A finite, B infinite here, so the finer grids are not searched (the bounded search would only repeat
    what the proof, whose certificate ``implgraph.certify`` re-checks, says).
    """
    classed = a_def.needs_classes or b_def.needs_classes
    if parts is None:
        parts = partitions(N, 2) if classed else [(N,)]
    prober = _Prober(a_def, a_params, b_def, b_params, f_raw, classed, N, point)
    # the coarse grid (records in increasing v, cut into the classes in order)
    for sizes in (parts if stage != "rest" else ()):
        ct = _coarse_witness(prober, sizes, p)
        if ct is not None:
            return prober.found(ct, "found by probing a grid of tables")
    if stage == "first":
        return Instance(N, point, "implication", note=PENDING_SEARCH)
    weakest = b_def.weakest(N)
    ceiling = _ceiling(b_def, b_params, N) if f_raw is None and weakest is sympy.oo else None
    if f_raw is not None or (weakest is sympy.oo and ceiling is None):
        # (B bounded by its weakest level, or by a ceiling on every table of N records, is never infinite:
        # finer grids could only refute an f)
        hit = None if excluded else _search_finer_grids(prober, N, p, parts)
        if hit is not None:
            return prober.found(*hit)
    at_weakest = weakest_at_every_sample(prober, parts, p) if f_raw is None and weakest is not sympy.oo else None
    return _grid_outcome(prober, weakest, ceiling, excluded and f_raw is None, at_weakest)


#: the first witness of the coarse grid on one partition without an f (its rows, or None), by (A's and B's memo keys,
#: N, p, class sizes): the levels of grid tables are exact values whatever was asked before and every witness is
#: re-checked, so the pass over every partition of a direction (:func:`implgraph.engines.direction.check_direction`)
#: reads the partitions into >= 2 classes its first pass probed instead of probing them again
_COARSE: dict = {}
#: the most partitions kept (then the memo starts again)
COARSE_MAX = 20_000


def _coarse_witness(prober, sizes, p):
    """The first table of the coarse grid on the partition ``sizes`` with A finite and B infinite, else None (with a
    given f, every table is probed on the way for an f witness: not remembered)."""
    if prober.f_raw is not None:
        return next((ct for rows in binary_rows(COARSE_GRID, prober.N, p)
                     if (ct := prober.probe(rows, sizes)) is not None), None)
    key = (prober.a_key[1], prober.b_key[1], prober.classed, prober.N, p, tuple(sizes))
    rows = remembered(_COARSE, key, lambda: next(
        (r for r, keys in keyed_tables(COARSE_GRID, prober.N, p, tuple(sizes), prober.classed)
         if prober.probe(r, sizes, keys) is not None), None), COARSE_MAX)
    return None if rows is None else table_of(rows, sizes, prober.classed)


class _Prober:
    """The tables of a grid search at one instance: :meth:`probe` one, keeping on the way the first table where
    B is weaker than a given f at A's level (``f_witness``)."""

    def __init__(self, a_def, a_params, b_def, b_params, f_raw, classed, N, point):
        self.a_def, self.a_params, self.b_def, self.b_params = a_def, a_params, b_def, b_params
        self.f_raw, self.classed, self.N, self.point = f_raw, classed, N, point
        self.targets = {}           # f_raw at A's raw levels met (f_raw simplifies with sympy)
        self.f_witness = None
        self.a_key, self.b_key = definition_key(a_def, a_params), definition_key(b_def, b_params)

    def f_target(self, ra):
        if ra not in self.targets:
            ra_s = ra if isinstance(ra, sympy.Basic) else sympy.Rational(ra.numerator, ra.denominator)
            self.targets[ra] = (ra_s, self.f_raw(ra_s))
        return self.targets[ra]

    def probe(self, rows, sizes, keys=None):
        """The table of ``rows`` if it is a witness of A finite and B infinite (else None); on the way,
        the first table where B is weaker than a given f at A's level becomes ``f_witness`` (``keys``: the table's
        :func:`~implgraph.engines.grid_tables.rows_keys`, where the caller has them)."""
        a_def, a_params, b_def, b_params = self.a_def, self.a_params, self.b_def, self.b_params
        rows_key = keys or rows_keys(rows, sizes, self.classed)
        table = functools.cache(lambda: table_of(rows, sizes, self.classed))  # built when a level or a check needs it
        if self.f_raw is None:      # only A finite and B infinite is looked for: finiteness, not the levels
            if not finite_of(self.a_key, a_params, rows_key, table):
                return None
            fb = finite_of(self.b_key, b_params, rows_key, table)
            return table() if fb is False and is_witness(a_def, a_params, b_def, b_params, table()) else None
        ra = level_of(self.a_key, a_params, rows_key, table)
        if ra is None or ra == INF:
            return None
        rb = level_of(self.b_key, b_params, rows_key, table)
        if rb is None:
            return None
        if self.f_raw is not None and self.f_witness is None:
            ra_s, target = self.f_target(ra)
            if weaker(b_def, rb, target) and is_witness(a_def, a_params, b_def, b_params, table(), a_raw=ra,
                                                        f_raw=target):
                self.f_witness = witness_dict(table(), a_def, a_params, b_def, b_params,
                                              {"level": str(a_def.level_from_raw(ra_s)),
                                               "f_at_level": str(b_def.level_from_raw(target))})
        if rb == INF and is_witness(a_def, a_params, b_def, b_params, table()):
            return table()
        return None

    def found(self, ct, note):
        inst = Instance(self.N, self.point, "non-implication",
                        witness=witness_dict(ct, self.a_def, self.a_params, self.b_def, self.b_params), note=note)
        if self.f_raw is not None:
            inst.f_status, inst.f_witness = "refuted", inst.witness
        return inst


def _search_finer_grids(prober, N, p, parts):
    """``(table, note)``: the first witness on the finer grids (:func:`_finer_grids`), or None."""
    for points, note in _finer_grids(N, p, parts):
        try:
            for rows, sizes in _grid_tables(points, parts):
                ct = prober.probe(rows, sizes)
                if ct is not None:
                    return ct, note
        except InputError:
            if len(points[0]) == p:
                raise
            # a parameter ties a definition to p buckets (a hierarchy's leaves): no wider table for it
            continue
    return None


def _grid_outcome(prober, weakest, ceiling, excluded=False, at_weakest=None):
    """The instance where no grid table is a witness of A finite, B infinite; ``at_weakest``: the tables of
    :func:`~implgraph.engines.instance_weakest.weakest_at_every_sample` (B's weakest level is then the tight f at every sampled level of A)."""
    a_def, b_def, f_raw, f_witness, N, point = (prober.a_def, prober.b_def, prober.f_raw, prober.f_witness,
                                                prober.N, prober.point)
    if weakest is not sympy.oo:
        # every table satisfies B at its weakest level, so f = weakest is an implication (trivial); the tight f is
        # not computed without linear-fractional forms, unless tables show B at its weakest at every sampled level
        inst = Instance(N, point, "implication", tight=None if at_weakest is None else str(weakest), trivial=True,
                        note=f"trivial: every table satisfies {b_def.name} at its weakest level {_weakest_text(b_def, N)} (its declared "
                             f"{b_def.scale} scale; every level computed is checked against it, a plugin's too); "
                             + ("the tight f is not computed (no linear-fractional form)" if at_weakest is None else
                                weakest_tables_text(a_def, b_def, at_weakest)))
        if f_witness is not None:
            inst.f_status, inst.f_witness = "refuted", f_witness
        elif f_raw is not None:
            inst.f_status = "holds-at-samples" if all(
                weaker(b_def, weakest, f_raw(sympy.Rational(a.numerator, a.denominator))) is False
                for a in samples_for(a_def, N)) else None
        return inst
    if f_witness is not None:
        return Instance(N, point, "unknown", f_status="refuted", f_witness=f_witness,
                        note=f"{a_def.name} or {b_def.name} has no linear-fractional form; a grid table refutes f")
    if ceiling is not None:
        return Instance(N, point, "unknown",
                        note=f"{a_def.name} or {b_def.name} has no linear-fractional form; {b_def.name}'s raw level is "
                             f"at most {ceiling} on every table of {N} records (one-sided-ceiling), never infinite, so "
                             "no finer grid is searched for a witness; the coarse grid found none")
    if excluded:
        return Instance(N, point, "unknown",
                        note=f"{a_def.name} or {b_def.name} has no linear-fractional form; the coarse grid found no "
                             "witness, and the finer grids are not searched: the proof for every N (its certificate "
                             "re-checkable: implgraph certificate --check) rules one out")
    return Instance(N, point, "unknown",
                    note=f"{a_def.name} or {b_def.name} has no linear-fractional form; a grid of tables "
                         "found no witness")


def _weakest_text(b_def, N) -> str:
    """B's weakest level at ``N`` records as text, with its formula of N where its scale declares one."""
    w = b_def.weakest(N)
    if not b_def.level_scale.weakest_depends_on_N:
        return str(w)
    return f"{b_def.weakest(sympy.Symbol('N'))} ({w} at N = {N})"


def _ceiling(b_def, b_params, N):
    """B's raw level's bound on every table of ``N`` records whatever A is
    (:func:`implgraph.engines.bounds.ceiling_bound`: a one-sided ratio of averages), or None."""
    from implgraph.core.region import Region
    from implgraph.engines.bounds import ceiling_bound
    n = sympy.Symbol("N", integer=True)
    c = ceiling_bound(b_def, b_params, None, Region({n: "integer"}, (sympy.Eq(n, N),)), n)
    return None if c is None else sympy.sympify(c.upper).subs(n, N)


def _finer_grids(N, p, parts, budget=None):
    """The grids probed after the coarse one: ``(points, note)`` pairs, ``points`` the rows a record may
    have (tuples of Fractions summing to 1).

    1. Rows ``(v, 1 - v, 0, ...)`` of ``p`` buckets, v a multiple of 1/m for some m <= d, with the
       largest d of :data:`BINARY_DENOMINATORS` whose tables on ``parts`` number at most ``budget``.
    2. Rows of ``q = max(p, 3)`` buckets, every entry a multiple of 1/m for one m <= d, with the
       largest d of :data:`SIMPLEX_DENOMINATORS` that fits. With ``q > p`` the tables have more
       buckets than asked for: still tables, so a witness among them still refutes A => B.

    A grid none of whose denominators fits the budget is left out.
    """
    budget = GRID_BUDGET if budget is None else budget
    for d in BINARY_DENOMINATORS:
        points = [v + (Fraction(0),) * (p - 2) for v in _simplex_points(2, d)]
        if _grid_count(len(points), parts) <= budget:
            yield points, f"found by probing a finer grid of tables (rows (v, 1 - v), v with denominators up to {d})"
            break
    q = max(p, 3)
    for d in SIMPLEX_DENOMINATORS:
        if math.comb(d + q - 1, q - 1) > budget:        # more rows than tables allowed: too fine
            continue
        points = _simplex_points(q, d)
        if _grid_count(len(points), parts) <= budget:
            more = f" (more than the {p} asked for: a table with more buckets is still a table)" if q > p else ""
            yield points, (f"found by probing a grid of tables with {q} buckets{more}, "
                           f"entries with denominators up to {d}")
            break


def _simplex_points(q, d):
    """Rows of ``q`` buckets whose entries are multiples of 1/m for one m <= d, summing to 1 (sorted)."""
    points = set()
    for m in range(1, d + 1):
        # the compositions of m into q parts (stars and bars)
        for bars in itertools.combinations(range(m + q - 1), q - 1):
            edges = (-1,) + bars + (m + q - 1,)
            points.add(tuple(Fraction(edges[i + 1] - edges[i] - 1, m) for i in range(q)))
    return sorted(points)


def _multichoose(n, k):
    return math.comb(n + k - 1, k)


def _grid_count(n_points, parts):
    """The number of tables :func:`_grid_tables` makes from ``n_points`` rows on ``parts``."""
    total = 0
    for sizes in parts:
        count = 1
        for size, group in itertools.groupby(sizes):
            count *= _multichoose(_multichoose(n_points, size), len(list(group)))
        total += count
    return total


def _grid_tables(points, parts):
    """``(rows, sizes)`` of every table whose records take rows from ``points``, on each partition
    (class sizes, equal sizes adjacent, as :func:`implgraph.engines.lf.partitions` gives them), once up
    to the order of the records within a class and of classes of one size."""
    for sizes in parts:
        groups = []
        for size, group in itertools.groupby(sizes):
            classes = list(itertools.combinations_with_replacement(points, size))
            groups.append(itertools.combinations_with_replacement(classes, len(list(group))))
        for choice in itertools.product(*[list(g) for g in groups]):
            yield [list(row) for group in choice for cls in group for row in cls], sizes
