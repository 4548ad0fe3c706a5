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

import collections

import sympy

from implgraph import definitions
from implgraph.checks.lazy_max import max_args
from implgraph.checks.level_points import (_canonical_point, _canonical_strict_point, _find_bad_point,
                                           _find_strict_point, _quick_violation)
from implgraph.checks.symbolic_level import find_level
from implgraph.checks.table_points import claim_table, fmt_point, num_le, parse_claim_parts, table_rows
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
    lv = _claim_level(table, d, params, scope, region, (name, when), level_cache)
    exact = str(lv)
    base["exact"] = exact
    base["details"] = {"level": lv.to_json(), "bound": bound, "target": str(target)}
    if not lv.defined:
        return Verdict(verdict="unknown", evidence=f"{name} is undefined on this table ({lv.note})", **base)
    job = _Job(table, d, params, scope, target, bound)
    T = _raw_target(d, target)
    smaller = d.stronger == "smaller"
    counter, undecided, tight_all = _judge_pieces(lv, T, smaller, job)
    valid_conds = _valid_level_conditions(d, T)
    if counter is not None and valid_conds and not _valid_at(valid_conds, counter[0]):
        # the failure found lies where the printed level is not a level of the definition (e.g. a negative
        # eps): look for one where it is, which is the failure that says something about the claim
        counter = _valid_counter(lv, T, smaller, job.bound, valid_conds, *job[:5]) or counter
    if counter is not None:
        return _refuted(region, counter, job, (name, when), valid_conds, base)
    if undecided:
        return Verdict(verdict="unknown",
                       evidence=f"the solver could not decide the claim on the piece(s) {undecided}", **base)
    if tight_all:
        return Verdict(verdict="holds", evidence=f"the exact optimal level equals {target} on the whole region",
                       **base)
    return _not_tight(region, lv, T, smaller, job, exact, base)


#: what every exact re-check of a point of one claim needs (passed on as ``*job``)
_Job = collections.namedtuple("_Job", "table d params scope target bound")


def _claim_level(table, d, params, scope, region, name_when, level_cache):
    """The claim's exact level (:func:`find_level`), shared through ``level_cache`` by the claims of one run."""
    name, when = name_when
    key = (name, tuple(sorted((k, str(v)) for k, v in params.items())), scope, tuple(map(str, when)))
    if level_cache is not None and key in level_cache:
        return level_cache[key]
    lv = find_level(table, d, params, scope, region)
    if level_cache is not None:
        level_cache[key] = lv
    return lv


def _piece_answers(reg, raw, T, smaller, job):
    """``((sat, atleast, not_sat, strict), None)`` on one sub-region of a piece of value ``raw``, or
    ``(None, (point, opt))`` with a failing point found at a sample point first (a transcendental printed
    level)."""
    args = max_args(raw) if smaller else [raw]
    if T is sympy.oo:
        sat = True if smaller else raw is sympy.oo
        atleast = (raw is sympy.oo) if smaller else True
        return (sat, atleast, sympy.false, (sympy.true if (smaller and raw is not sympy.oo) else sympy.false)), None
    if raw is sympy.oo:
        sat, atleast = (False, True) if smaller else (True, False)
        return (sat, atleast) + ((sympy.true, sympy.false) if smaller else (sympy.false, sympy.true)), None
    not_sat = sympy.Or(*[sympy.Not(sympy.Le(a, T) if smaller else sympy.Ge(a, T)) for a in args])
    strict = sympy.And(*[(sympy.Lt(a, T) if smaller else sympy.Gt(a, T)) for a in args])
    if job.bound != "lower" and T.has(sympy.exp, sympy.log):
        # a transcendental printed level: look for a violation at sample points first
        found = _quick_violation(reg, raw, T, smaller, *job)
        if found is not None:
            return None, found
    return (reg.decide(sympy.Not(not_sat)), reg.decide(sympy.Not(strict)), not_sat, strict), None


def _judge_pieces(lv, T, smaller, job):
    """``(counter, undecided, tight_all)`` over every sub-region of every piece: the value is ``Max(args)``
    (smaller is stronger) or a single value there."""
    bound = job.bound
    counter, undecided, tight_all = None, [], True
    for piece in lv.pieces:
        for reg in piece._regions:
            answers, found = _piece_answers(reg, piece.value, T, smaller, job)
            if found is not None:
                counter = found
                break
            sat, atleast, not_sat, strict = answers
            if bound == "satisfies":
                bad = None if sat is True else not_sat
            elif bound == "exact":
                bad = None if (sat is True and atleast is True) else sympy.Or(not_sat, strict)
            else:
                bad = None if atleast is True else strict
            if not (sat is True and atleast is True):
                tight_all = False
            if bad is not None:
                found = _find_bad_point(reg, bad, *job)
                if found is not None:
                    counter = counter or found
                    break
                undecided.append(str(piece.condition))
        if counter is not None:
            break
    return counter, undecided, tight_all


def _refuted(region, counter, job, name_when, valid_conds, base) -> Verdict:
    """The refutation at the canonical failing point near ``counter``."""
    table, d, params, scope, target, bound = job
    name, when = name_when
    valid = (lambda pt: _valid_at(valid_conds, pt)) if valid_conds else None
    point, opt = _canonical_point(region, counter, *job, valid)
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


def _not_tight(region, lv, T, smaller, job, exact, base) -> Verdict:
    """``holds-not-tight``, with a canonical point where the optimum is strictly stronger (weaker: ``lower``)."""
    target, bound = job.target, job.bound
    pt = _find_strict_point(lv, T, smaller, bound)
    if pt:      # the same example whatever point the solver gave (it depends on how the level's regions were built)
        pt = _canonical_strict_point(region, pt, *job)
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


@checker("level")
def check_level_claim(claim, context=None):
    """Decide a ``kind: level`` claim on the table that holds it (:func:`judge_level_claim`)."""
    table = claim_table(claim, context)
    if table is None:
        return claim_verdict(claim, "unknown", evidence="not a table claim (no counterexample table holds it)")
    return judge_level_claim(table, claim, (context or {}).get("level_cache"))
