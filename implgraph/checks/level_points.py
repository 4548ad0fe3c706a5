"""The points of a ``kind: level`` claim's verdict (:mod:`implgraph.checks.level`): a failing point found and
re-checked exactly on the concrete table (:func:`_find_bad_point`, :func:`_quick_violation`), made canonical (the
same whatever the solver's model: :func:`_canonical_point`), and a point where the optimum is strictly stronger
than the printed level (:func:`_find_strict_point`, :func:`_canonical_strict_point`).
"""

from __future__ import annotations

import functools
import itertools

import sympy

from implgraph.checks.lazy_max import max_args
from implgraph.checks.table_points import concrete_level, num_le, sample_points, surely_outside
from implgraph.core.at_point import rational_value
from implgraph.core.errors import InputError
from implgraph.core.simplified import simplified

__all__ = ["GRID_STAGES", "GRID_CHECKS", "GRID_POINTS", "CANONICAL_POINT_BUDGET"]


def _violates(d, opt, target_pt, bound):
    """Exact: does the concrete optimum ``opt`` (raw) contradict the claim at the point?"""
    if opt is None:
        return False
    lvl = d.level_from_raw(opt)
    smaller = d.stronger == "smaller"
    if target_pt is sympy.oo:
        sat = smaller
        strictly = lvl is not sympy.oo if smaller else False
    else:
        sat = num_le(lvl, target_pt) if smaller else num_le(target_pt, lvl)
        if not sat:                       # equality is not needed (no simplify) in these cases
            return bound in ("satisfies", "exact")
        if bound == "satisfies":
            return False
        eq = (lvl is not sympy.oo) and simplified(lvl - target_pt) == 0
        strictly = not eq
    if bound == "satisfies":
        return not sat
    if bound == "exact":
        return not sat or strictly
    return strictly  # lower: the optimum is strictly stronger than the printed bound


#: exact re-checks spent on making one counterexample point canonical (per symbol and pass)
CANONICAL_POINT_BUDGET = 50
#: the grid the canonical point is searched on first: stage D holds the rationals of denominator <= D
#: in [0, 4] (integers 0..D + 1 for an integer symbol); exact re-checks and grid points visited at most
GRID_STAGES = (1, 2, 3, 4, 5, 6, 8, 10, 12)
GRID_CHECKS = 60
GRID_POINTS = 4000


def _candidates(kind):
    """Values tried for a symbol, simplest first: integers 1..12; rationals in [0, 1] by denominator
    (at most 12), then in (1, 4]."""
    if kind == "integer":
        return [sympy.Integer(n) for n in range(1, 13)]
    out, seen = [], set()
    for lo, hi in ((0, 1), (1, 4)):
        for den in range(1, 13):
            for num in range(lo * den, hi * den + 1):
                v = sympy.Rational(num, den)
                if v not in seen:
                    seen.add(v)
                    out.append(v)
    return out


@functools.lru_cache(maxsize=64)
def _stage_values(kind, D) -> tuple:
    """The values of stage ``D`` for a symbol of ``kind``, ascending (made once per process)."""
    if kind == "integer":
        return tuple(sympy.Integer(n) for n in range(0, D + 2))
    return tuple(sorted({sympy.Rational(num, den) for den in range(1, D + 1) for num in range(0, 4 * den + 1)}))


@functools.lru_cache(maxsize=64)
def _stage_floats(kind, D) -> tuple:
    """``(floats, {float: value})`` of :func:`_stage_values`, in its order: the screen's floats, converted once.
    Distinct values of a stage (integers, or rationals in [0, 4] of denominator at most 12, at least 1/132 apart)
    have distinct floats, so a grid point is known by its floats (hashed far faster than sympy numbers)."""
    values = _stage_values(kind, D)
    floats = tuple(float(v) for v in values)
    return floats, dict(zip(floats, values))


def _grid_points(region, symbols):
    """The points of the canonical grid (:data:`GRID_STAGES`) in ``region``, in a fixed order: stage by
    stage, lexicographic in ``symbols`` within a stage, each point once; at most :data:`GRID_POINTS`
    visited."""
    seen, visited = set(), 0
    outside = surely_outside(region, tuple(symbols))
    for D in GRID_STAGES:
        stages = [_stage_floats(region.kinds.get(s, "real"), D) for s in symbols]
        values = [back for _, back in stages]
        for floats in itertools.product(*[fl for fl, _ in stages]):
            if floats in seen:
                continue
            seen.add(floats)
            visited += 1
            if visited > GRID_POINTS:
                return
            if outside(floats):
                continue
            pt = {s: back[f] for s, back, f in zip(symbols, values, floats)}
            if region.contains(pt) is True:
                yield pt


def _canonical_point(region, found, table, d, params, scope, target, bound, valid=None):
    """A canonical counterexample point: the same answer whatever point the solver gave.

    First the first point of a fixed grid (:func:`_grid_points`) at which the claim fails on the concrete
    table (exact re-check) with a finite optimum, within :data:`GRID_CHECKS` re-checks; a failing point
    with an infinite optimum is taken only when the solver's point had one too and no finite one is found.
    Otherwise, from ``found = (point, opt)``, each symbol in name order takes the simplest value
    (:func:`_candidates`) at which the point stays in ``region`` and the claim still fails, with a finite
    optimum where the solver's point had one; two passes, a bounded number of checks (the result then
    may depend on the solver's point). Where the solver's point has a printed level that is a valid level
    (``valid``), so has the canonical point.
    """
    point, opt = dict(found[0]), found[1]
    finite = opt is not None and opt is not sympy.oo     # keep a finite optimum finite (non-degenerate)
    # keep the printed level a valid level where the point found has one (``valid``: point -> bool)
    keep_valid = valid is not None and valid(point)

    def failing(pt):
        if keep_valid and not valid(pt):
            return None
        try:
            o = concrete_level(table, d, params, pt, scope)
            return o if _violates(d, o, simplified(target.subs(pt)), bound) else None
        except (InputError, TypeError, ValueError, ZeroDivisionError):
            return None

    def bad(pt):
        if region.contains(pt) is not True:
            return None
        o = failing(pt)
        return None if o is None or (finite and o is sympy.oo) else o

    symbols = sorted(point, key=lambda s_: s_.name)
    degenerate = None
    for spent, pt in enumerate(_grid_points(region, symbols)):
        if spent >= GRID_CHECKS:
            break
        o = failing(pt)
        if o is None:
            continue
        if o is not sympy.oo:
            return pt, o
        degenerate = degenerate or (pt, o)
    if degenerate is not None and not finite:
        return degenerate
    for _ in range(2):
        for sym in symbols:
            for spent, v in enumerate(_candidates(region.kinds.get(sym, "real"))):
                if spent >= CANONICAL_POINT_BUDGET or v == point[sym]:
                    break
                trial = dict(point)
                trial[sym] = v
                o = bad(trial)
                if o is not None:
                    point, opt = trial, o
                    break
    return point, opt


def _find_bad_point(reg, bad_cond, table, d, params, scope, target, bound):
    """An exact point of ``reg`` where the claim fails, re-checked on the concrete table."""
    tried = []
    pt = reg.find_point(bad_cond)
    if pt is not None:
        tried.append(pt)
    tried_iter = itertools.chain(tried, sample_points(reg))
    for point in tried_iter:
        point = {s: v for s, v in point.items() if s in reg.kinds}
        try:
            opt = concrete_level(table, d, params, point, scope)
        except (InputError, TypeError, ValueError):
            continue
        tp = simplified(target.subs(point))
        if _violates(d, opt, tp, bound):
            return point, opt
    return None


def _quick_violation(reg, raw, T, smaller, table, d, params, scope, target, bound, tries=40):
    """A sample point of ``reg`` where the symbolic value already violates the claim, re-checked."""
    for point in itertools.islice(sample_points(reg), tries):
        try:
            # xreplace rebuilds (and so evaluates) the tree with exact numbers; much cheaper than subs
            v = _max_value(raw, point)
            tp = _max_value(T, point)
            if not (v.is_number and tp.is_number):
                continue
            if num_le(v, tp) if smaller else num_le(tp, v):
                continue
            opt = concrete_level(table, d, params, point, scope)
        except (InputError, TypeError, ValueError, ZeroDivisionError):
            continue
        if _violates(d, opt, simplified(target.subs(point)), bound):
            return point, opt
    return None


def _max_value(e, point):
    """``e.xreplace(point)``; a maximum of rational expressions is evaluated in exact rational arithmetic
    (:func:`~implgraph.core.at_point.rational_value`), without building the sympy ``Max``, and so is a maximum of
    exponentials of rational expressions (``exp`` is increasing: the largest is ``exp`` of the largest exponent,
    the very term sympy's ``Max`` keeps after comparing the terms numerically)."""
    e = sympy.sympify(e)
    args = max_args(e)
    values = [rational_value(a, point) for a in args]
    if all(v is not None for v in values):
        return max(values)
    if all(isinstance(a, sympy.exp) for a in args):
        exponents = [rational_value(a.args[0], point) for a in args]
        if all(v is not None for v in exponents):
            return sympy.exp(max(exponents))
    return e.xreplace(point)


def _canonical_strict_point(region, pt, table, d, params, scope, target, bound):
    """A canonical point where the optimum is strictly stronger than ``target`` (strictly weaker for a ``lower``
    bound), re-checked on the concrete table: :func:`_canonical_point` with that as the failure. The solver's
    point ``pt`` depends on how the level's regions were built (computed, or read from the level cache), so the
    example printed did too; ``pt`` is kept when the concrete table cannot be evaluated there."""
    strict = "satisfies" if bound == "lower" else "lower"      # _violates(..., strict): the strict side at a point
    try:
        opt = concrete_level(table, d, params, pt, scope)
    except (InputError, TypeError, ValueError, ZeroDivisionError):
        return pt
    point, _ = _canonical_point(region, (pt, opt), table, d, params, scope, target, strict)
    return point


def _find_strict_point(lv, T, smaller, bound):
    for piece in lv.pieces:
        raw = piece.value
        for reg in piece._regions:
            if raw is sympy.oo or T is sympy.oo:
                if (raw is sympy.oo) != (T is sympy.oo):
                    pt = reg.find_point()
                    if pt is not None:
                        return pt
                continue
            args = max_args(raw)
            if bound == "lower":
                cond = sympy.Or(*[sympy.Gt(a, T) for a in args]) if smaller else sympy.Lt(raw, T)
            else:
                cond = sympy.And(*[sympy.Lt(a, T) for a in args]) if smaller else sympy.Gt(raw, T)
            pt = reg.find_point(cond)
            if pt is not None:
                return pt
    return None
