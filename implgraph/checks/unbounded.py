"""``kind: unbounded`` claims: A's level stays bounded while B's grows without bound.

As the free parameter tends to its limit (the other symbols fixed by ``fix:``), :func:`judge_unbounded`
takes both limits with sympy from inside the region, and :func:`witness_family` instantiates the table
along the free parameter and computes both levels exactly on the concrete tables. The same checker
judges the witness claims of the ``not-implies`` edges (:mod:`implgraph.checks.not_implies`).
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.checks.lazy_max import max_args
from implgraph.checks.symbolic_level import find_level
from implgraph.checks.table_points import claim_table, parse_claim_parts
from implgraph.checks.unbounded_family import _family_shows_break, _side, public_family, witness_family
from implgraph.checks.unbounded_for_every import judge_for_every, real_roots_of, relation_numerator
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.checks.common import claim_verdict
from implgraph.core.verdict import Verdict, checker

__all__ = ["judge_unbounded", "witness_family", "public_family", "check_unbounded_claim"]


def _near_limit_piece(lv, free, limit, direction, region):
    """The piece of ``lv`` that holds on an interval (limit, limit + delta) of the free symbol."""
    polys = set()
    conds = [c for c in region.constraints]
    for piece in lv.pieces:
        for reg in getattr(piece, "_regions", [piece.region]):
            if reg is not None:
                conds.extend(reg.constraints)
    for c in conds:
        c = sympy.sympify(c)
        for rel in c.atoms(sympy.Rel) if not isinstance(c, sympy.Rel) else [c]:
            num = relation_numerator(rel)
            if num.free_symbols == {free}:
                polys.add(sympy.expand(num))
    roots = []
    for q in polys:
        try:
            roots.extend(real_roots_of(q, free))
        except (sympy.PolynomialError, NotImplementedError):
            return None
    sign = 1 if direction == "+" else -1
    beyond = [r for r in roots if sign * (r - limit) > 0]
    gap = float(sympy.N(min(sign * (r - limit) for r in beyond), 30)) if beyond else 1.0
    q = limit + sign * sympy.Rational(int(gap * 2 ** 40), 2 ** 41)
    for piece in lv.pieces:
        for reg in getattr(piece, "_regions", [piece.region]):
            if reg is not None and reg.contains({free: q}) is True:
                return piece, q
    return None


def _limit(d, raw, free, limit, direction):
    if raw is None:
        return None
    if raw is sympy.oo:
        return sympy.oo
    lims = []
    for a in max_args(raw):
        lims.append(sympy.limit(a, free, limit, dir=direction))
    if any(x is sympy.oo for x in lims):
        return sympy.oo
    if any(not x.is_finite for x in lims):
        return None
    return d.level_from_raw(sympy.Max(*lims))


def judge_unbounded(table, claim) -> Verdict:
    """Decide a ``kind: unbounded`` claim: A bounded while B -> oo as ``free`` -> ``limit``.

    Parameters
    ----------
    table : Table
        The table that holds the claim.
    claim : Node
        The claim (``free``, ``limit``, ``fix``, ``family``, ``from``, ``to``, optionally ``for_every``).

    Returns
    -------
    Verdict
        ``confirmed``, ``refuted`` or ``unknown``.
    """
    cid = str(claim.get("id"))
    base = dict(id=cid, printed=str(claim.get("printed", "")),
                expect=claim.get("expect") and str(claim.get("expect")),
                source=claim.get("source") and str(claim.get("source")))
    p, when = parse_claim_parts(table, claim)
    free_name, free, fixmap, limit, direction = _free_and_limit(table, claim, p)
    sides = {}
    for key in ("from", "to"):
        name = str((claim.get(key) or {}).get("definition"))
        if name not in definitions.names():
            return Verdict(verdict="unknown", evidence=f"definition not registered: {name}", **base)
    if claim.get("for_every") is not None:
        return judge_for_every(table, claim, base, free, limit, direction, fixmap)
    fam = witness_family(table, claim)
    for key in ("from", "to"):
        sides[key] = _limit_side(table, claim.get(key) or {}, p, when, free, limit, direction, fixmap)
    a, b = sides["from"], sides["to"]
    fix_s = ", ".join(f"{k} = {v}" for k, v in (claim.get("fix") or {}).items())
    exact = f"A = {a['definition']}: {a['level']} -> {a['limit']}; B = {b['definition']}: {b['level']} -> {b['limit']}"
    details = {"from": {k: v for k, v in a.items() if k != "_lim"}, "to": {k: v for k, v in b.items() if k != "_lim"},
               "fix": {str(k): str(v) for k, v in fixmap.items()}, "free": free_name, "limit": str(limit),
               "direction": direction, "family": fam}
    verdict, ev = _limits_outcome(a, b, fam, f"with {fix_s}: ", free_name, limit, direction)
    return Verdict(verdict=verdict, exact=exact, evidence=ev, details=details, **base)


def _free_and_limit(table, claim, p):
    """The free parameter of an unbounded claim, its limit and the fixed symbols.

    Parameters
    ----------
    table : Table
        The table that holds the claim.
    claim : Node
        The claim.
    p : callable
        The claim's parser (:func:`~implgraph.checks.table_points.parse_claim_parts`).

    Returns
    -------
    tuple
        ``(free_name, free, fixmap, limit, direction)``; direction "+" (from above) unless the family's
        last value is below the limit.

    Raises
    ------
    InputError
        The free symbol is not declared, or the limit or a family value is not a number once ``fix:`` is
        applied.
    """
    names = dict(table.symbols)
    free_name = str(claim.get("free"))
    if free_name not in names:
        raise InputError(f"free symbol {free_name!r} is not declared", file=table.file,
                         line=claim.line_of("free") if hasattr(claim, "line_of") else None,
                         fix="declare it under the table's `symbols:`")
    free = names[free_name]
    fixmap = {names[k]: p(v, "fix") for k, v in (claim.get("fix") or {}).items() if k in names}
    limit = p(claim.get("limit", "0"), "limit").subs(fixmap)    # the other symbols at their `fix:` values
    family = [p(x, "family") for x in (claim.get("family") or [])]
    if not (limit.is_number and limit.is_extended_real) or any(not x.is_number for x in family):
        raise InputError(f"the limit {limit} or a family value is not a number once `fix:` is applied",
                         file=getattr(claim, "file", None) or table.file,
                         line=claim.line_of("limit") if hasattr(claim, "line_of") else getattr(claim, "line", None),
                         fix="give the limit and the family as numbers, or fix the symbols they use in `fix:`")
    direction = "+" if not family or bool(family[-1] > limit) else "-"
    return free_name, free, fixmap, limit, direction


def _limit_side(table, spec, p, when, free, limit, direction, fixmap):
    """One side's level and its limit as ``free`` tends to ``limit``.

    Parameters
    ----------
    table : Table
        The table that holds the claim.
    spec : dict
        The side (``definition``, ``params``, ``scope``); its definition is registered.
    p : callable
        The claim's parser.
    when : list
        The claim's conditions.
    free, limit, direction, fixmap
        As returned by :func:`_free_and_limit`.

    Returns
    -------
    dict
        ``definition``, ``params``, ``scope``, ``level``, ``limit`` (None if not taken), ``independent``
        (the level does not depend on ``free``) and ``_lim`` (the limit itself).
    """
    d, params, scope = _side(table, spec, p, fixmap)       # (registered: checked by the caller)
    t2 = table.subs(fixmap)
    region = Region(t2.region.kinds, t2.region.constraints + tuple(
        c for c in (sympy.sympify(w).subs(fixmap) for w in when) if c is not sympy.true))
    lv = find_level(t2, d, params, scope, region)
    indep = all(p_.value is None or free not in sympy.sympify(p_.value).free_symbols for p_ in lv.pieces)
    pick = _near_limit_piece(lv, free, limit, direction, region)
    lim = None
    if pick is not None:
        piece, q = pick
        lim = _limit(d, piece.value, free, limit, direction)
    return {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "scope": scope,
            "level": str(lv), "limit": None if lim is None else str(lim), "independent": indep, "_lim": lim}


def _limits_outcome(a, b, fam, with_fix, free_name, limit, direction):
    """The verdict and evidence of :func:`judge_unbounded` from both sides' limits.

    Parameters
    ----------
    a, b : dict
        The sides (:func:`_limit_side`).
    fam : list of dict
        The concrete family (:func:`~implgraph.checks.unbounded_family.witness_family`).
    with_fix : str
        "with x = ..., " (the fixed symbols, as printed).
    free_name : str
        The free parameter.
    limit, direction
        Its limit and the side it is approached from.

    Returns
    -------
    tuple of str
        ``(verdict, evidence)``.
    """
    a_ok = a["_lim"] is not None and a["_lim"] is not sympy.oo and a["_lim"].is_finite
    b_ok = b["_lim"] is sympy.oo
    fam_ok = _family_shows_break(fam)
    if a_ok and b_ok:
        verdict = "confirmed"
        ev = (f"{with_fix}as {free_name} -> {limit}{direction} A's level "
              f"{'does not depend on ' + free_name if a['independent'] else 'tends to ' + a['limit']} "
              f"while B's level tends to oo")
    elif a["_lim"] is None or b["_lim"] is None:
        verdict = "unknown"
        ev = f"{with_fix}could not take the limits of the levels as {free_name} -> {limit}"
    else:
        verdict = "refuted"
        ev = (f"{with_fix}as {free_name} -> {limit}{direction} A's level tends to {a['limit']} and B's "
              f"level to {b['limit']}: no unbounded family here")
    if fam:
        ev += "; family: " + ", ".join(f"{free_name} = {r['value']}: A {r['A']}, B {r['B']}" for r in fam)
        if verdict == "confirmed" and not fam_ok:
            ev += " (the family does not show B growing)"
    return verdict, ev


@checker("unbounded")
def check_unbounded_claim(claim, context=None):
    """Decide a ``kind: unbounded`` claim on the table that holds it (:func:`judge_unbounded`)."""
    table = claim_table(claim, context)
    if table is None:
        return claim_verdict(claim, "unknown", evidence="not a table claim (no counterexample table holds it)")
    v = judge_unbounded(table, claim)
    v.details["family"] = public_family(v.details.get("family", []))
    return v
