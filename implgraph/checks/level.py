"""``kind: level`` claims: a table satisfies a definition at a printed level ``L``.

(For the eps-definitions ``L`` is an eps and the table satisfies it when its optimal ratio is at most
``exp(L)``.) :func:`judge_level_claim` decides it on the table's whole parameter region:

- ``holds``: the optimal level equals ``L`` everywhere on the region;
- ``holds-not-tight``: the table satisfies ``L`` everywhere but its optimal level is stronger
  somewhere (the exact level is reported);
- ``refuted``: an exact parameter point of the region where the table does *not* satisfy ``L``,
  re-checked on the instantiated concrete table (made canonical: the same whatever the solver's model);
- ``unknown``: the solver could not decide.

``bound: exact`` claims (the printed level is *the* optimal level) are refuted wherever the optimum
differs; ``bound: lower`` claims (the table satisfies nothing stronger than ``L``) are refuted where
the optimum is stronger than ``L``. A claim ``Max(c_1, ..., c_n) <= T`` is decided candidate by
candidate, which keeps each solver query small.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Appendix (Tables III-VII).
"""

from __future__ import annotations

import itertools

import sympy

from implgraph import definitions
from implgraph.checks.lazy_max import max_args
from implgraph.checks.symbolic_level import find_level
from implgraph.checks.table_points import (claim_table, concrete_level, fmt_point, num_le, parse_claim_parts,
                                           sample_points, surely_outside, table_rows)
from implgraph.core.at_point import rational_value
from implgraph.core.errors import InputError
from implgraph.checks.common import claim_verdict
from implgraph.core.verdict import Verdict, checker
from implgraph.core.simplified import simplified

__all__ = ["judge_level_claim", "check_level_claim"]


def _raw_target(d, level):
    if level is sympy.oo:
        return sympy.oo
    return d.raw_from_level(level)


def judge_level_claim(table, claim, level_cache=None) -> Verdict:
    """Decide a ``kind: level`` claim on ``table`` (see the module docstring)."""
    cid = str(claim.get("id"))
    printed = str(claim.get("printed", ""))
    name = str(claim.get("definition"))
    base = dict(id=cid, printed=printed, expect=claim.get("expect") and str(claim.get("expect")),
                source=claim.get("source") and str(claim.get("source")))
    try:
        d = definitions.get(name)
    except InputError:
        return Verdict(verdict="unknown", evidence=f"definition not registered: {name}", **base)
    p, when = parse_claim_parts(table, claim)
    params = {k: (str(v) if k in d.words else p(v, "params")) for k, v in (claim.get("params") or {}).items()}
    target = p(claim.get("level"), "level")
    bound = str(claim.get("bound") or "satisfies")
    scope = str(claim.get("scope") or "table")
    region = table.region.add(*when)
    key = (name, tuple(sorted((k, str(v)) for k, v in params.items())), scope, tuple(map(str, when)))
    if level_cache is not None and key in level_cache:
        lv = level_cache[key]
    else:
        lv = find_level(table, d, params, scope, region)
        if level_cache is not None:
            level_cache[key] = lv
    exact = str(lv)
    base["exact"] = exact
    base["details"] = {"level": lv.to_json(), "bound": bound, "target": str(target)}
    if not lv.defined:
        return Verdict(verdict="unknown", evidence=f"{name} is undefined on this table ({lv.note})", **base)
    T = _raw_target(d, target)
    smaller = d.stronger == "smaller"

    def satisfied(arg):          # arg at least as strong as T
        return sympy.Le(arg, T) if smaller else sympy.Ge(arg, T)

    def stronger_than(arg):      # arg strictly stronger than T
        return sympy.Lt(arg, T) if smaller else sympy.Gt(arg, T)

    # on every sub-region: the value is Max(args) (smaller is stronger) or a single value
    counter, undecided, tight_all = None, [], True
    for piece in lv.pieces:
        raw = piece.value
        args = max_args(raw) if smaller else [raw]
        for reg in piece._regions:
            if T is sympy.oo:
                sat = True if smaller else raw is sympy.oo
                atleast = (raw is sympy.oo) if smaller else True
                not_sat, strict = sympy.false, (sympy.true if (smaller and raw is not sympy.oo) else sympy.false)
            elif raw is sympy.oo:
                sat, atleast = (False, True) if smaller else (True, False)
                not_sat, strict = (sympy.true, sympy.false) if smaller else (sympy.false, sympy.true)
            else:
                not_sat = sympy.Or(*[sympy.Not(satisfied(a)) for a in args])
                strict = sympy.And(*[stronger_than(a) for a in args])
                if bound != "lower" and T.has(sympy.exp, sympy.log):
                    # a transcendental printed level: look for a violation at sample points first
                    found = _quick_violation(reg, raw, T, smaller, table, d, params, scope, target, bound)
                    if found is not None:
                        counter = found
                        break
                sat = reg.decide(sympy.Not(not_sat))
                atleast = reg.decide(sympy.Not(strict))
            if bound == "satisfies":
                bad = None if sat is True else not_sat
            elif bound == "exact":
                bad = None if (sat is True and atleast is True) else sympy.Or(not_sat, strict)
            else:
                bad = None if atleast is True else strict
            if not (sat is True and atleast is True):
                tight_all = False
            if bad is not None:
                found = _find_bad_point(reg, bad, table, d, params, scope, target, bound)
                if found is not None:
                    counter = counter or found
                    break
                undecided.append(str(piece.condition))
        if counter is not None:
            break
    valid_conds = _valid_level_conditions(d, T)
    if counter is not None and valid_conds and not _valid_at(valid_conds, counter[0]):
        # the failure found lies where the printed level is not a level of the definition (e.g. a negative
        # eps): look for one where it is, which is the failure that says something about the claim
        counter = _valid_counter(lv, T, smaller, bound, valid_conds, table, d, params, scope, target) or counter
    if counter is not None:
        valid = (lambda pt: _valid_at(valid_conds, pt)) if valid_conds else None
        point, opt = _canonical_point(region, counter, table, d, params, scope, target, bound, valid)
        used = set(table.free_symbols) | set(target.free_symbols)
        for v in list(params.values()) + list(when):
            if isinstance(v, sympy.Basic):
                used |= v.free_symbols
        point = {s: v for s, v in point.items() if s in used}
        lvl = d.level_from_raw(opt)
        what = {"satisfies": f"does not satisfy {name} at {target}",
                "exact": f"does not have {target} as its optimal {name} level",
                "lower": f"satisfies {name} at a level stronger than {target}"}[bound]
        witness = {"params": fmt_point(point), "optimal_level": str(lvl),
                   "printed_level": str(simplified(target.subs(point))),
                   "rows": table_rows(table, point)}
        note = ""
        if valid_conds:
            ok = _valid_at(valid_conds, point)
            witness["printed_level_valid"] = ok
            note = ("; the printed level is a valid level there" if ok else
                    f"; the printed level {witness['printed_level']} is not a valid {name} level there, and no "
                    "failure was found where it is one")
        return Verdict(verdict="refuted", witness=witness,
                       evidence=f"at {fmt_point(point)} the table {what}: its exact optimal level is {lvl} "
                                f"(re-checked on the concrete table){note}", **base)
    if undecided:
        return Verdict(verdict="unknown",
                       evidence=f"the solver could not decide the claim on the piece(s) {undecided}", **base)
    if tight_all:
        return Verdict(verdict="holds", evidence=f"the exact optimal level equals {target} on the whole region",
                       **base)
    pt = _find_strict_point(lv, T, smaller, bound)
    if pt:      # the same example whatever point the solver gave (it depends on how the level's regions were built)
        pt = _canonical_strict_point(region, pt, table, d, params, scope, target, bound)
    where = (f"; e.g. at {fmt_point(pt)} the optimum is strictly {'stronger' if bound != 'lower' else 'weaker'}"
             if pt else " (tightness not decided)")
    base["details"]["tight"] = False if pt else None
    side = "is satisfied" if bound != "lower" else "is a lower bound on the optimum"
    return Verdict(verdict="holds-not-tight",
                   evidence=f"{target} {side} on the whole region but is not the optimal level everywhere "
                            f"(exact level: {exact}){where}", **base)


def _valid_level_conditions(d, T):
    """The conditions (on the raw printed level ``T``) under which the printed level is a level of ``d`` at
    all (a raw ratio >= 1: t >= 1, eps >= 0); [] when every value is one or ``T`` is oo."""
    best = d.level_scale.best_raw
    if best is None or T is sympy.oo or d.stronger != "smaller":
        return []
    c = sympy.Ge(T, sympy.Rational(best.numerator, best.denominator))
    return [] if c is sympy.true else [c]


def _valid_at(conds, point) -> bool:
    """Do the conditions hold at ``point`` (exact; False when undecided)?"""
    for c in conds:
        v = sympy.sympify(c).xreplace(point)
        if v is sympy.true:
            continue
        if v is sympy.false or not isinstance(v, sympy.Rel) or not num_le(v.rhs, v.lhs):
            return False
    return True


def _valid_counter(lv, T, smaller, bound, valid_conds, table, d, params, scope, target):
    """A failing point (re-checked) where the printed level is a valid level, or None."""
    def satisfied(arg):
        return sympy.Le(arg, T) if smaller else sympy.Ge(arg, T)
    for piece in lv.pieces:
        raw = piece.value
        if raw is None:
            continue
        args = max_args(raw) if smaller else [raw]
        for reg in piece._regions:
            sub = reg.add(*valid_conds)
            if sub.is_empty() is True:
                continue
            if raw is sympy.oo:
                bad = sympy.true if bound != "lower" else sympy.false
            else:
                not_sat = sympy.Or(*[sympy.Not(satisfied(a)) for a in args])
                strict = sympy.And(*[(sympy.Lt(a, T) if smaller else sympy.Gt(a, T)) for a in args])
                bad = {"satisfies": not_sat, "exact": sympy.Or(not_sat, strict), "lower": strict}[bound]
            if bad is sympy.false:
                continue
            found = _find_bad_point(sub, bad, table, d, params, scope, target, bound)
            if found is not None and _valid_at(valid_conds, found[0]):
                return found
    return None


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


def _stage_values(kind, D):
    if kind == "integer":
        return [sympy.Integer(n) for n in range(0, D + 2)]
    return sorted({sympy.Rational(num, den) for den in range(1, D + 1) for num in range(0, 4 * den + 1)})


def _grid_points(region, symbols):
    """The points of the canonical grid (:data:`GRID_STAGES`) in ``region``, in a fixed order: stage by
    stage, lexicographic in ``symbols`` within a stage, each point once; at most :data:`GRID_POINTS`
    visited."""
    seen, visited = set(), 0
    outside = surely_outside(region, tuple(symbols))
    for D in GRID_STAGES:
        per = [[(v, float(v)) for v in _stage_values(region.kinds.get(s, "real"), D)] for s in symbols]
        for pairs in itertools.product(*per):
            combo = tuple(v for v, _ in pairs)
            if combo in seen:
                continue
            seen.add(combo)
            visited += 1
            if visited > GRID_POINTS:
                return
            if outside([f for _, f in pairs]):
                continue
            pt = dict(zip(symbols, combo))
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
            tp = sympy.sympify(T).xreplace(point)
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
    (:func:`~implgraph.core.at_point.rational_value`), without building the sympy ``Max``."""
    e = sympy.sympify(e)
    values = [rational_value(a, point) for a in max_args(e)]
    if all(v is not None for v in values):
        return max(values)
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


@checker("level")
def check_level_claim(claim, context=None):
    """Decide a ``kind: level`` claim on the table that holds it (:func:`judge_level_claim`)."""
    table = claim_table(claim, context)
    if table is None:
        return claim_verdict(claim, "unknown", evidence="not a table claim (no counterexample table holds it)")
    return judge_level_claim(table, claim, (context or {}).get("level_cache"))
