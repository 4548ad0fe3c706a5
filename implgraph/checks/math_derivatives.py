"""``derivatives:`` of ``kind: math`` claims (:mod:`implgraph.checks.math_claims`).

A function and its printed partial derivatives: the set where the formulas have no real value is found
and reported exactly (:mod:`implgraph.checks.definedness`); on the rest of the condition each printed
derivative is compared with sympy's, its sign decided, and the monotonicity proved on every slice that
is an interval.
"""

from __future__ import annotations

import sympy

from implgraph.checks.definedness import defined_conditions, slices_are_intervals, undefined_parts
from implgraph.checks.math_rules import _abstract_sqrt, _decide_relevant, _same_square
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region


def _derivative_claim(claim, names, subs, region):
    """A function and its printed derivatives on the claim's region: where the formulas have no real value
    (exactly, :func:`~implgraph.checks.definedness.undefined_parts`), and on the rest of the region the
    derivatives, their signs and the monotonicity (:func:`_check_derivatives`); a ``reading_when`` is
    compared with the set where the formulas are defined. Returns (ok, notes, undefined text)."""
    exprs = [subs[names[k]] for k in (claim.get("definitions") or {})]
    fname = claim.get("function") or next(iter((claim.get("definitions") or {}).keys()), None)
    if fname is not None and names.get(fname) in subs:   # where sympy's derivatives are valid, too
        exprs += [sympy.diff(subs[names[fname]], names[str(d.get("with_respect_to"))])
                  for d in claim.get("derivatives") or [] if str(d.get("with_respect_to")) in names]
    parts = undefined_parts(region, exprs)
    defined = region.add(*defined_conditions(region, exprs))
    ok, notes = _check_derivatives(claim, names, subs, defined)
    where = "the whole condition" if not parts else "the rest of the condition (every formula defined)"
    notes = [f"on {where}: " + "; ".join(notes)]
    if claim.get("reading_when"):
        rw = [parse_condition(str(w), names) for w in claim.get("reading_when")]
        same = (region.add(*rw).decide(sympy.And(*defined.constraints)) is True
                and defined.decide(sympy.And(*rw)) is True)
        notes.append("reading_when is exactly where every formula is defined (both inclusions proved)" if same
                     else "reading_when is not shown to be where every formula is defined")
    if not parts:
        return ok, notes, ""
    pieces = []
    for i, (_, text, point) in enumerate(parts):
        at = f" (e.g. {({str(k): str(v) for k, v in point.items()})})" if point else ""
        pieces.append(("" if i == 0 else "else ") + text + at)
    names_text = ", ".join(claim.get("definitions") or {})
    text = (f"one of {names_text} has no real value (a division by 0 or the square root of a negative number) "
            f"exactly where {'; '.join(pieces)} -- on those points of the condition the printed claim cannot be "
            f"evaluated")
    return ok, notes, text


def _check_derivatives(claim, names, subs, region):
    """``derivatives:`` entries: the printed derivative equals d/dvar of the function (squares equal and
    both of the claimed sign); returns (ok, notes)."""
    ders = claim.get("derivatives") or []
    if not ders:
        return True, []
    fname = claim.get("function") or next(iter((claim.get("definitions") or {}).keys()), None)
    if fname is None or names.get(fname) not in subs:
        return None, ["no function to differentiate"]
    func = subs[names[fname]]
    notes, ok_all = [], True
    for d in ders:
        var = names.get(str(d.get("with_respect_to")))
        printed = parse_expr(str(d.get("formula")), names)
        mine = sympy.diff(func, var)
        same_sq = _same_square(mine, printed)
        sign = str(d.get("claimed_sign", ">= 0")).replace(" ", "")
        rel = (lambda e: sympy.Ge(e, 0)) if sign.startswith(">") else (lambda e: sympy.Le(e, 0))
        both = []
        for e in (mine, printed):
            ab = _abstract_sqrt(region, rel(e))
            if ab is None:
                both.append(None)
                continue
            c, syms_ = ab
            reg_a = Region({**region.kinds, **{x: "real" for x in syms_}}, region.constraints + tuple(x > 0 for x in syms_))
            both.append(_decide_relevant(reg_a, c))
        good = same_sq and all(b is True for b in both)
        notes.append(f"d{fname}/d{var}: {'equals the printed derivative' if good else 'not confirmed'}"
                     f" (squares equal: {same_sq}, signs {sign}: {both})")
        if d.get("monotonicity"):
            # a derivative of constant sign on an interval: monotone there (mean value theorem)
            interval = slices_are_intervals(region, var)
            weak = "weakly " if "=" in sign else ""
            notes.append(f"{fname} {weak}{d.get('monotonicity')} in {var}: "
                         + ("proved (the derivative's sign on every " + str(var) + "-slice, each an interval)"
                            if good and interval else "not shown"))
            good = good and interval
        ok_all = ok_all and good
    return ok_all, notes
