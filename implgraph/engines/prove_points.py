"""The prover's checks at concrete points: tightness probes, witnesses at a gap, the bounded fallback.

Where an argument of :mod:`implgraph.engines.bounds` gives U, a printed f below U is refuted with a
table built at a point of the condition (:func:`refute_at_gap`), and a loose f is probed for
tightness (:func:`probe_tightness`). Where no argument applies, :func:`bounded_search` runs the refuter
(:func:`implgraph.engines.refute.find_witness`) for every N <= ``max_n``. Every table is re-checked
with :func:`implgraph.engines.refute.witness_check`.
"""

from __future__ import annotations

import itertools
import time

import sympy

from implgraph.core.formula import Word
from implgraph.definitions.levels import optimal_level
from implgraph.core.region import Region
from implgraph.engines.bounds import ProofResult, T, compares, lowest_raw
from implgraph.engines.refute import find_witness, witness_check
from implgraph.engines.witness import witness_json
from implgraph.core.simplified import simplified

__all__ = ["bounded_search", "probe_tightness", "refute_at_gap", "raw_at", "point_text"]


def params_at(params, pt) -> dict:
    """The parameters at a point: integer values as Python ints, other numbers exact as they are (a ``delta`` of
    1/10, an ``eps`` of log(2), a Renyi order oo), words (a ground distance) as they are."""
    return {k: v if isinstance(v, Word) else _param_at(v, pt) for k, v in params.items()}


def _param_at(v, pt):
    x = sympy.sympify(v).subs(pt)
    return int(x) if x.is_Integer or not x.is_number else x


def _int_symbols(kinds):
    return [s for s, k in kinds.items() if k == "integer"]


def _grid_points(region, kinds, ints, reals, max_n, extra_T=True, limit=400):
    """Concrete points of the region: integers up to max_n, reals from a small grid, T from a grid."""
    grid_real = [sympy.Integer(1), sympy.Rational(5, 4), sympy.Rational(3, 2), sympy.Integer(2),
                 sympy.Integer(3), sympy.Integer(5), sympy.Integer(10)]
    rng = range(0, max_n + 1)
    out = []
    Ns = [s for s in ints if s.name == "N"]
    others = [s for s in ints if s.name != "N"]
    order = Ns + others
    for combo in itertools.product(rng, repeat=len(order)):
        pt = dict(zip(order, map(sympy.Integer, combo)))
        if Ns and pt[Ns[0]] < 2:
            continue
        for rc in itertools.product(grid_real, repeat=len(reals)):
            p2 = dict(pt)
            p2.update(dict(zip(reals, rc)))
            if region.contains(p2) is True:
                out.append(p2)
                if len(out) >= limit:
                    return out
    return out


def probe_tightness(a, b, fx, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes, N,
                     max_points=6):
    """Where no tight f is derived: at a few parameter points and levels, does some table exceed
    999/1000 of f (f approached), or does z3 prove none exists (f loose there)?"""
    if fx is None or a_classes or b_classes:
        return None
    ints = [s for s in kinds if kinds[s] == "integer" and s != T]     # (T, A's raw level, is set apart)
    reals = [s for s in kinds if kinds[s] == "real" and s != T]
    if reals:
        return None
    reg_params = Region({s: k for s, k in kinds.items() if s != T},
                        tuple(c for c in region.constraints if T not in sympy.sympify(c).free_symbols))
    pts = [p for p in _grid_points(reg_params, kinds, ints, reals, 8, limit=400)]
    # spread the sample: points whose parameters all differ (not the trivial equal-parameter case),
    # the largest N first, then the smallest
    def distinct(p):
        vals = [int(v) for k, v in p.items() if k != N]
        return len(set(vals)) == len(vals)
    strict = [p for p in pts if distinct(p)] or pts
    strict.sort(key=lambda p: -int(p.get(N, 0)))
    half = max_points // 2
    pts = strict[:half] + [p for p in reversed(strict) if p not in strict[:half]][:max_points - half]
    if lowest_raw(a) != 1:
        return None         # A's raw level is no ratio: the sample levels 2 and 10 below mean nothing for it
    scaled = b.level_from_raw(b.raw_from_level(fx) * sympy.Rational(999, 1000))
    reached, loose = [], []
    for pt in pts:
        for Tv in (sympy.Integer(2), sympy.Integer(10)):
            p2 = dict(pt)
            p2[T] = Tv
            if region.contains(p2) is not True:
                continue
            aps, bps = params_at(a_params, pt), params_at(b_params, pt)
            r = find_witness(a, b, scaled.subs(pt), N=int(pt[N]), a_params=aps, b_params=bps, alpha=alpha_sym,
                             alpha_value=a.level_from_raw(Tv), timeout_ms=1000, canonical=False)
            where = ", ".join(f"{k} = {v}" for k, v in pt.items()) + f", A's ratio {Tv}"
            if r.status == "refuted":
                reached.append(where)
            elif r.status == "none-found":
                loose.append(where)
    if not reached and not loose:
        return None
    if loose and reached:
        label = "tight at some parameter values, loose at others"
    elif loose:
        label = "loose at every sampled point"
    else:
        label = "approached within 0.1% at every sampled point"
    text = label
    if reached:
        text += f"; a table exceeds 999/1000 of f at {reached[0]}"
    if loose:
        text += f"; z3 proves no binary table exceeds 999/1000 of f at {loose[0]}"
    return {"label": label, "text": text}


def raw_at(table, d, params, pt):
    ps = params_at(params, pt)
    lv = optimal_level(table, d, **ps)
    return lv.pieces[0].value


def point_text(pt):
    return ", ".join(f"{k} = {v}" for k, v in pt.items() if k != T)


def refute_at_gap(a, b, fx, raw_f, bound, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes,
                   max_n, N):
    if bound.build is None:
        return None
    low = lowest_raw(b)
    ints = [s for s in kinds if kinds[s] == "integer" and s != T]     # (T, A's raw level, is set apart)
    reals = [s for s in kinds if kinds[s] == "real" and s != T]
    cands = []
    reg_params = Region({s: k for s, k in kinds.items() if s != T},
                        tuple(c for c in region.constraints if T not in sympy.sympify(c).free_symbols))
    for pt in _grid_points(reg_params, kinds, ints, reals, max(max_n, 6), limit=300):
        for Tv in (sympy.Integer(2), sympy.Rational(3, 2), sympy.Integer(3), sympy.Integer(10)):
            if kinds.get(T) == "integer" and not Tv.is_Integer:
                continue        # A's level is a class size
            p2 = dict(pt)
            p2[T] = Tv
            if region.contains(p2) is not True:
                continue
            gap = simplified((raw_f - bound.upper).subs(p2))
            if gap.is_number and bool(gap < 0):
                cands.append(p2)
                break
        if sum(1 for c in cands if bool(simplified(raw_f.subs(c)) >= low)) >= 2 or len(cands) >= 12:
            break
    # prefer points where f is a valid level (>= B's lowest raw level): the witness then is not just about an
    # invalid f
    cands.sort(key=lambda c: not bool(simplified(raw_f.subs(c)) >= low))
    for p2 in cands:
        table = bound.build(p2)
        if table is None:
            continue
        alpha_value = simplified(a.level_from_raw(p2[T]))
        a_ps, b_ps = params_at(a_params, p2), params_at(b_params, p2)
        vals = {s: v for s, v in p2.items() if s != T}
        fconc = fx.subs(vals)
        adef = a
        if compares(a, "class") and table.classes is None:
            continue
        if not _classes_allowed(table, (a_classes, b_classes), p2):
            continue        # a partition the claim's class sizes rule out (a witness must be one of its tables)
        if witness_check(adef, b, fconc, alpha_value, a_ps, b_ps, alpha=alpha_sym)(table):
            return {k: v for k, v in p2.items()}, table, alpha_value
    return None


def _classes_allowed(table, specs, pt) -> bool:
    """Are the table's classes (if any) a partition the class specifications allow at ``pt``: every class of at
    least ``min_size`` and at most ``max_size`` records, and, under a specification, at least 2 classes?"""
    if table.classes is None:
        return True
    sizes = {}
    for label in table.classes:
        sizes[label] = sizes.get(label, 0) + 1
    for spec in specs:
        if not spec:
            continue
        lo, hi = spec.get("min_size"), spec.get("max_size")
        if len(sizes) < 2 or (lo is not None and min(sizes.values()) < sympy.sympify(lo).subs(pt)) or \
                (hi is not None and max(sizes.values()) > sympy.sympify(hi).subs(pt)):
            return False
    return True


def bounded_search(a, b, fx, raw_f, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes, max_n, N,
             timeout_ms, start, prior=None, limit=120, min_classes=1):
    """The refuter at every parameter point with N <= ``max_n`` (at most ``limit`` points): a bounded check.

    Returns
    -------
    ProofResult
        ``refuted`` (a witness table), ``verified-bounded`` (z3 proved there is no witness at any point, the
        bound stated) or ``unknown``.
    """
    ints = [s for s in kinds if kinds[s] == "integer" and s != T]     # (T, A's raw level, is set apart)
    reals = [s for s in kinds if kinds[s] == "real" and s != T]
    # points of the parameter region (T free)
    reg_params = Region({s: k for s, k in kinds.items() if s != T},
                        tuple(c for c in region.constraints if T not in sympy.sympify(c).free_symbols))
    points = _grid_points(reg_params, kinds, ints, reals, max_n, limit=limit)
    if not points:
        return ProofResult("unknown", evidence=f"no parameter values with N <= {max_n} satisfy the condition",
                           seconds=round(time.perf_counter() - start, 3))
    none_found, unknown, notes = 0, 0, []
    partitions = set()
    for pt in points:
        Nv = int(pt[N])
        a_ps, b_ps = params_at(a_params, pt), params_at(b_params, pt)
        fconc = None if fx is None else fx.subs({s: v for s, v in pt.items()})
        options = _class_options(a_classes, b_classes, pt, Nv, a.needs_classes or b.needs_classes, min_classes)
        for classes in options:
            if classes:
                partitions.add(tuple(classes))
            if fconc is not None and fconc.free_symbols - {alpha_sym}:
                unknown += 1
                continue
            T_restricted, in_condition, alphas = _levels_to_try(a, region, pt)
            hit, found, inconclusive, why = _search_levels(
                a, b, fconc, Nv, a_ps, b_ps, alpha_sym, classes, timeout_ms, alphas, T_restricted, in_condition)
            if hit is not None:
                r = hit
                ev = (f"witness at {point_text(pt)}: satisfies {a.name} at {alpha_sym} = {r.alpha_value} "
                      f"(its level {r.level_a}) and has {b.name} level {r.level_b}"
                      + ("" if fconc is None else f" > f = {simplified(fconc.subs(alpha_sym, r.alpha_value))}"))
                return ProofResult("refuted", evidence=ev, bound=r.bound, method="refuter",
                                   witness=witness_json(r.witness, {str(k): v for k, v in pt.items()},
                                                        **{str(alpha_sym): r.alpha_value}),
                                   seconds=round(time.perf_counter() - start, 3),
                                   tightness="wrong" if fx is not None else None,
                                   details={"refuter": r.note})
            none_found, unknown, notes = none_found + found, unknown + inconclusive, notes + why
    return _bounded_outcome(none_found, unknown, notes, partitions, max_n, prior, start)


def _levels_to_try(a, region, pt):
    """The levels of A the refuter fixes at the point ``pt``.

    Parameters
    ----------
    a : Definition
        A.
    region : Region
        The claim's condition (A's raw level ``T`` free).
    pt : dict
        The parameter point.

    Returns
    -------
    tuple
        ``(T_restricted, in_condition, alphas)``: whether the condition restricts A's level (e.g. t0 <= t1),
        the test of a raw level against it, and the levels to try: ``[None]`` (every level at once) when it
        does not; else None then a grid of levels in the condition's range (no level at all when the grid
        is empty).
    """
    # the condition may restrict A's level (e.g. t0 <= t1): fix A's level on a grid then
    conds_T = [sympy.sympify(c).subs(pt) for c in region.constraints]
    T_restricted = any(T in c.free_symbols and c != (T >= lowest_raw(a)) for c in conds_T
                       if hasattr(c, "free_symbols"))

    def in_condition(tv):
        return Region(region.kinds, tuple(sympy.sympify(c).subs(pt).subs(T, tv)
                                          for c in region.constraints)).contains({}) is True
    alphas = [None]
    if T_restricted:
        grid = [a.level_from_raw(tv) for tv in (sympy.Integer(1), sympy.Rational(5, 4), sympy.Rational(3, 2),
                                                sympy.Integer(2), sympy.Integer(3), sympy.Integer(10))
                if in_condition(tv)]
        # first every level of A at once: no witness at any level is none in the condition's range
        # either; a witness outside the range refutes nothing, and the grid of levels in it follows
        alphas = [None] + grid if grid else []
    return T_restricted, in_condition, alphas


def _search_levels(a, b, fconc, Nv, a_ps, b_ps, alpha_sym, classes, timeout_ms, alphas, T_restricted,
                   in_condition):
    """The refuter at one parameter point and partition, level by level (:func:`_levels_to_try`).

    Returns
    -------
    tuple
        ``(hit, none_found, unknown, notes)``: the refuter's result with a witness (or None), the searches
        that proved there is none, the inconclusive ones and their notes.
    """
    none_found, unknown, notes = 0, 0, []
    for av in alphas:
        r = find_witness(a, b, fconc, N=Nv, a_params=a_ps, b_params=b_ps, alpha=alpha_sym,
                         alpha_value=av, classes=classes, timeout_ms=timeout_ms)
        if T_restricted and av is None:
            if r.status == "none-found":
                none_found += 1
                break
            if r.status != "refuted" or not in_condition(a.raw_from_level(r.alpha_value)):
                continue
        if r.status == "refuted":
            return r, none_found, unknown, notes
        if r.status == "none-found" and av is None:
            none_found += 1
        else:
            unknown += 1
            if r.note:
                notes.append(r.note)
    return None, none_found, unknown, notes


def _bounded_outcome(none_found, unknown, notes, partitions, max_n, prior, start):
    """``verified-bounded`` when every search proved there is no witness, else ``unknown``.

    Parameters
    ----------
    none_found, unknown : int
        The searches that proved there is no witness, and the inconclusive ones.
    notes : list of str
        The refuter's notes on the inconclusive ones.
    partitions : set of tuple
        The partitions into classes searched.
    max_n : int
        The bound.
    prior : ProofResult or None
        The argument tried before (named in the details).
    start : float
        When the check started.

    Returns
    -------
    ProofResult
    """
    secs = round(time.perf_counter() - start, 3)
    if unknown == 0 and none_found:
        part = ""
        if partitions and not all(set(p) == {1} for p in partitions):
            part = " (only the partitions into consecutive classes of sizes " + ", ".join(
                str(list(p)) for p in sorted(partitions)[:6]) + ")"
        return ProofResult("verified-bounded", bound=f"N <= {max_n}" + (" (some partitions)" if part else ""),
                           evidence=f"z3 proved that no binary table with N <= {max_n} is a witness "
                                    f"({none_found} parameter combinations, every level of A){part}",
                           method="refuter", seconds=secs,
                           details={"prior": None if prior is None else prior.method})
    return ProofResult("unknown", evidence=f"no witness found for N <= {max_n}, but {unknown} searches were "
                                          f"inconclusive" + (f" ({notes[0]})" if notes else ""),
                       bound=f"N <= {max_n} (partial)", method="refuter", seconds=secs)


def _class_options(a_classes, b_classes, pt, Nv, needs_classes=False, min_classes=1):
    """The partitions searched at ``Nv`` records (consecutive class sizes; None: no classes): a few into >= 2 classes
    of the sizes the specifications allow and, with ``min_classes`` 1, the table of one class last (a witness of >= 2
    classes is found first where there is one)."""
    options = _class_options_two(a_classes, b_classes, pt, Nv, needs_classes)
    if not needs_classes or min_classes >= 2:
        return options
    spec = a_classes or b_classes or {}
    by_name = {str(k): v for k, v in pt.items()}

    def at(x):
        x = sympy.sympify(x)
        return x.subs({s: by_name[s.name] for s in x.free_symbols if s.name in by_name})
    lo = at(spec.get("min_size", 1))
    hi = at(spec.get("max_size", Nv))
    if lo <= Nv <= hi:
        options = [o for o in options if o] + [[Nv]]
    return options


def _class_options_two(a_classes, b_classes, pt, Nv, needs_classes=False):
    spec = a_classes or b_classes
    if not spec:
        return [None] if not needs_classes else [[1, Nv - 1]] + ([[Nv // 2, Nv - Nv // 2]] if Nv >= 4 else [])
    # a class size is a count: at least ceiling(min_size), at most floor(max_size) records; its symbols are
    # matched by name (a size written with N may carry another N symbol than the point's)
    by_name = {str(k): v for k, v in pt.items()}

    def at(x):
        x = sympy.sympify(x)
        return x.subs({s: by_name[s.name] for s in x.free_symbols if s.name in by_name})
    lo = int(sympy.ceiling(at(spec.get("min_size", 1))))
    hi = int(sympy.floor(at(spec.get("max_size", Nv))))
    lo = max(lo, 1)
    if hi == 1:
        return [[1] * Nv]
    opts = []
    if lo <= Nv - lo:
        opts.append([lo, Nv - lo])
    if 3 * lo <= Nv:
        opts.append([lo, lo, Nv - 2 * lo])
    if Nv % 2 == 0 and Nv // 2 >= lo and [Nv // 2, Nv // 2] not in opts:
        opts.append([Nv // 2, Nv // 2])
    return opts or [None]
