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
from implgraph.checks.limits import finite_limit, tends_to_infinity
from implgraph.checks.symbolic_level import find_level
from implgraph.checks.table_points import claim_table, concrete_level, fmt_point, num_le, parse_claim_parts
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.checks.common import claim_verdict
from implgraph.core.verdict import Verdict, checker

__all__ = ["judge_unbounded", "witness_family", "public_family", "check_unbounded_claim"]


def _side(table, spec, p, fixmap):
    """(definition, parameters, scope) of one side of a claim (InputError: the definition is not registered)."""
    d = definitions.get(str(spec.get("definition")))
    params = {k: (str(v) if k in d.words else p(v, "params").subs(fixmap))
              for k, v in (spec.get("params") or {}).items()}
    return d, params, str(spec.get("scope") or "table")


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
            num, _ = sympy.fraction(sympy.together(rel.lhs - rel.rhs))
            if num.free_symbols == {free}:
                polys.add(sympy.expand(num))
    roots = []
    for q in polys:
        try:
            roots.extend(r for r in sympy.Poly(q, free).real_roots())
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
    """Decide a ``kind: unbounded`` claim: A bounded while B -> oo as ``free`` -> ``limit``."""
    cid = str(claim.get("id"))
    base = dict(id=cid, printed=str(claim.get("printed", "")),
                expect=claim.get("expect") and str(claim.get("expect")),
                source=claim.get("source") and str(claim.get("source")))
    p, when = parse_claim_parts(table, claim)
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
    sides = {}
    for key in ("from", "to"):
        name = str((claim.get(key) or {}).get("definition"))
        if name not in definitions.names():
            return Verdict(verdict="unknown", evidence=f"definition not registered: {name}", **base)
    if claim.get("for_every") is not None:
        return _judge_for_every(table, claim, base, free, limit, direction, fixmap)
    fam = witness_family(table, claim)
    for key in ("from", "to"):
        spec = claim.get(key) or {}
        d, params, scope = _side(table, spec, p, fixmap)       # (registered: checked above)
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
        sides[key] = {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "scope": scope,
                      "level": str(lv), "limit": None if lim is None else str(lim), "independent": indep,
                      "_lim": lim}
    a, b = sides["from"], sides["to"]
    fix_s = ", ".join(f"{k} = {v}" for k, v in (claim.get("fix") or {}).items())
    exact = f"A = {a['definition']}: {a['level']} -> {a['limit']}; B = {b['definition']}: {b['level']} -> {b['limit']}"
    details = {"from": {k: v for k, v in a.items() if k != "_lim"}, "to": {k: v for k, v in b.items() if k != "_lim"},
               "fix": {str(k): str(v) for k, v in fixmap.items()}, "free": free_name, "limit": str(limit),
               "direction": direction, "family": fam}
    a_ok = a["_lim"] is not None and a["_lim"] is not sympy.oo and a["_lim"].is_finite
    b_ok = b["_lim"] is sympy.oo
    fam_ok = _family_shows_break(fam)
    if a_ok and b_ok:
        verdict = "confirmed"
        ev = (f"with {fix_s}: as {free_name} -> {limit}{direction} A's level "
              f"{'does not depend on ' + free_name if a['independent'] else 'tends to ' + a['limit']} "
              f"while B's level tends to oo")
    elif a["_lim"] is None or b["_lim"] is None:
        verdict = "unknown"
        ev = f"with {fix_s}: could not take the limits of the levels as {free_name} -> {limit}"
    else:
        verdict = "refuted"
        ev = (f"with {fix_s}: as {free_name} -> {limit}{direction} A's level tends to {a['limit']} and B's "
              f"level to {b['limit']}: no unbounded family here")
    if fam:
        ev += "; family: " + ", ".join(f"{free_name} = {r['value']}: A {r['A']}, B {r['B']}" for r in fam)
        if verdict == "confirmed" and not fam_ok:
            ev += " (the family does not show B growing)"
    return Verdict(verdict=verdict, exact=exact, evidence=ev, details=details, **base)


def _universal(table, claim, free, fixmap):
    """The symbols of ``for_every:`` (declared, neither free nor fixed); every other symbol of the table must
    be fixed (InputError otherwise: a symbol left open would be quantified silently)."""
    names = dict(table.symbols)
    listed = claim.get("for_every")
    where = dict(file=getattr(claim, "file", None) or table.file,
                 line=claim.line_of("for_every") if hasattr(claim, "line_of") else getattr(claim, "line", None))
    if not isinstance(listed, (list, str)):
        raise InputError(f"`for_every: {listed!r}` is not a list of symbols", fix="write e.g. `for_every: [k]`",
                         **where)
    listed = [listed] if isinstance(listed, str) else list(listed)
    out = []
    for name in listed:
        sym = names.get(str(name))
        if sym is None or sym == free or sym in fixmap:
            raise InputError(f"`for_every:` names {name!r}, which is not a table symbol other than the free and "
                             "the fixed ones", fix="list the table's parameters the family is claimed for", **where)
        out.append(sym)
    if not out:
        raise InputError("`for_every:` lists no symbol", fix="list the parameters, e.g. `for_every: [k]`", **where)
    left = sorted(s.name for s in names.values() if s != free and s not in fixmap and s not in out)
    if left:
        raise InputError(f"symbol(s) {', '.join(left)} of the family are neither fixed nor in `for_every:`",
                         fix="give each a value in `fix:` or list it in `for_every:`", **where)
    return out


def _neighbourhood(region, universal_conds, free, limit, direction, kinds, levels=()):
    """A point ``q`` beyond ``limit`` such that, for every value of the universal symbols, every ``free``
    strictly between ``limit`` and ``q`` lies in ``region`` (decided by the solver), or None. ``q`` stays
    below the roots (in ``free`` alone) of the region's and the levels' pieces' constraints."""
    roots = []
    conds = list(region.constraints)
    for lv in levels:
        for piece in lv.pieces:
            for reg in getattr(piece, "_regions", [piece.region]):
                if reg is not None:
                    conds.extend(reg.constraints)
    for c in conds:
        for rel in sympy.sympify(c).atoms(sympy.Rel) if not isinstance(c, sympy.Rel) else [c]:
            num, _ = sympy.fraction(sympy.together(rel.lhs - rel.rhs))
            if num.free_symbols == {free}:
                try:
                    roots += list(sympy.Poly(sympy.expand(num), free).real_roots())
                except (sympy.PolynomialError, NotImplementedError):
                    pass
    sign = 1 if direction == "+" else -1
    beyond = [r for r in roots if sign * (r - limit) > 0]
    gap = sympy.Rational(int(float(sympy.N(min(sign * (r - limit) for r in beyond), 30)) * 2 ** 20), 2 ** 21) \
        if beyond else sympy.Rational(1, 2)
    gap = gap if gap > 0 else sympy.Rational(1, 2 ** 21)
    inside = sympy.And(*region.constraints)
    for _ in range(24):
        q = limit + sign * gap
        between = (free > limit, free < q) if sign > 0 else (free < limit, free > q)
        near = Region(kinds, tuple(universal_conds) + between)
        if near.is_empty() is False and near.decide(inside) is True:
            return q, between
        gap = gap / 4
    return None


def _near_pieces(lv, region, between):
    """``(raw value, sub-region near the limit)`` of every piece of ``lv`` that meets the neighbourhood."""
    out = []
    for piece in lv.pieces:
        regs = [r for r in getattr(piece, "_regions", [piece.region]) if r is not None] or \
            [region.add(piece.condition)]
        for reg in regs:
            near = reg.add(*between)
            if near.is_empty() is True:
                continue
            out.append((piece.value, near))
    return out


def _judge_for_every(table, claim, base, free, limit, direction, fixmap) -> Verdict:
    """A witness family for every value of the ``for_every:`` symbols, judged symbolically (never sampled).

    For every value of those symbols allowed by the region (the constraints on them alone), with the
    other symbols fixed: the region holds for the free symbol near its limit (solver), and on every piece of
    each level that meets that neighbourhood, A's raw level has a finite limit and B's raw level tends to
    oo (:mod:`implgraph.checks.limits`: lowest terms with coefficients decided non-zero for every value).
    """
    p, when = parse_claim_parts(table, claim)
    universal = _universal(table, claim, free, fixmap)
    t2 = table.subs(fixmap)
    conds = tuple(t2.region.constraints) + tuple(
        c for c in (sympy.sympify(w).subs(fixmap) for w in when) if c is not sympy.true)
    region = Region(t2.region.kinds, conds)
    ucond = [c for c in conds if sympy.sympify(c).free_symbols <= set(universal)]
    urange = " and ".join(str(c) for c in ucond) or "every value"
    names_u = ", ".join(s.name for s in universal)
    fix_s = ", ".join(f"{k} = {v}" for k, v in (claim.get("fix") or {}).items())
    uregion = Region({s: region.kinds[s] for s in universal}, tuple(ucond))
    details = {"for_every": [s.name for s in universal], "range": urange, "fix": fmt_point(fixmap),
               "free": free.name, "limit": str(limit), "direction": direction}
    fam = public_family(witness_family(table, claim))
    details["family"] = fam

    def unknown(why):
        return Verdict(verdict="unknown", evidence=f"for every {names_u} with {urange}: {why}", details=details,
                       **base)
    if uregion.is_empty() is not False:
        return unknown("the range of the universal symbols is not shown to be non-empty")
    levels = {}
    for key in ("from", "to"):
        d, params, scope = _side(table, claim.get(key) or {}, p, fixmap)
        levels[key] = (d, params, scope, find_level(t2, d, params, scope, region))
    hood = _neighbourhood(region, ucond, free, limit, direction, region.kinds, [x[3] for x in levels.values()])
    if hood is None:
        return unknown(f"no neighbourhood of {free.name} -> {limit}{direction} is shown to lie in the region "
                       "for every value")
    q, between = hood
    details["neighbourhood"] = f"{free.name} between {limit} and {q}"
    sides = {}
    for key in ("from", "to"):
        d, params, scope, lv = levels[key]
        near = _near_pieces(lv, region, between)
        if not near or any(v is None for v, _ in near):
            return unknown(f"{d.name}'s level is undefined near the limit ({lv})")
        if key == "from":
            lims = [finite_limit(v, free, limit, direction, reg) for v, reg in near]
            ok = all(x is not None for x in lims)
            lim = sympy.Max(*lims) if ok else None
            indep = all(free not in sympy.sympify(v).free_symbols for v, _ in near)
        else:
            ok = all(tends_to_infinity(v, free, limit, direction, reg) is True for v, reg in near)
            lim, indep = (sympy.oo if ok else None), False
        sides[key] = {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "scope": scope,
                      "level": str(lv), "pieces_near_limit": len(near), "ok": ok,
                      "limit": None if lim is None else str(d.level_from_raw(lim) if lim is not sympy.oo else lim),
                      "independent": indep}
    a, b = sides["from"], sides["to"]
    details.update({"from": a, "to": b})
    exact = f"A = {a['definition']}: {a['level']} -> {a['limit']}; B = {b['definition']}: {b['level']} -> {b['limit']}"
    head = (f"for every {names_u} with {urange} (decided symbolically, not sampled), with {fix_s}: as "
            f"{free.name} -> {limit}{direction}")
    if not a["ok"]:
        return unknown(f"A's level ({a['level']}) is not shown to stay bounded as {free.name} -> {limit}{direction}")
    if not b["ok"]:
        return unknown(f"B's level ({b['level']}) is not shown to tend to oo as {free.name} -> {limit}{direction}")
    ev = (f"{head} A's level {'does not depend on ' + free.name if a['independent'] else 'tends to ' + a['limit']} "
          f"while B's level tends to oo (on each of its {b['pieces_near_limit']} piece(s) near the limit)")
    if fam:
        at = ", ".join(f"{k} = {v}" for k, v in (fam[0].get("at") or {}).items())
        ev += f"; family at {at}: " + ", ".join(f"{free.name} = {r['value']}: A {r['A']}, B {r['B']}" for r in fam)
    return Verdict(verdict="confirmed", exact=exact, evidence=ev, details=details, **base)


def _family_shows_break(fam):
    vals = [r.get("_B") for r in fam]
    if not vals or any(v is None for v in vals):
        return False
    return all(v is sympy.oo for v in vals) or all(
        (y is sympy.oo) or (x is not sympy.oo and num_le(x, y) and x != y) for x, y in zip(vals, vals[1:]))


def witness_family(table, claim) -> list:
    """Concrete rational instances along the free parameter, with both levels computed exactly.

    Returns
    -------
    list of dict
        ``{"value", "point", "A", "B", "A_float", "B_float", "in_region"}`` per family member.
    """
    p, when = parse_claim_parts(table, claim)
    names = dict(table.symbols)
    free = names.get(str(claim.get("free")))
    if free is None:
        return []
    fixmap = {names[k]: p(v, "fix") for k, v in (claim.get("fix") or {}).items() if k in names}
    # a family for every value of `for_every:` is shown at the values of `family_at:`
    at_spec = claim.get("family_at") or {}
    if not isinstance(at_spec, dict):
        raise InputError(f"`family_at: {at_spec!r}` is not a mapping", file=getattr(claim, "file", None) or table.file,
                         line=claim.line_of("family_at") if hasattr(claim, "line_of") else None,
                         fix='write e.g. `family_at: {k: "3"}`')
    fixmap.update({names[k]: p(v, "family_at") for k, v in at_spec.items() if k in names})
    at = {str(k): str(v) for k, v in at_spec.items()}
    out = []
    for x in claim.get("family") or []:
        val = p(x, "family")
        point = dict(fixmap)
        point[free] = val
        inside = table.region.add(*when).contains(point)
        row = {"value": str(val), "point": fmt_point(point), "in_region": inside is True}
        if at:
            row["at"] = at
        if inside is not True:
            row["A"] = row["B"] = "outside the region"
            out.append(row)
            continue
        for key, label in (("from", "A"), ("to", "B")):
            d, params, scope = _side(table, claim.get(key) or {}, p, point)
            raw = concrete_level(table, d, params, point, scope)
            lvl = d.level_from_raw(raw)
            row[label] = str(lvl)
            row["_" + label] = lvl
            row[label + "_float"] = None if lvl is None else (float("inf") if lvl is sympy.oo else float(lvl))
        out.append(row)
    return out


def public_family(fam):
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in fam]


@checker("unbounded")
def check_unbounded_claim(claim, context=None):
    """Decide a ``kind: unbounded`` claim on the table that holds it (:func:`judge_unbounded`)."""
    table = claim_table(claim, context)
    if table is None:
        return claim_verdict(claim, "unknown", evidence="not a table claim (no counterexample table holds it)")
    v = judge_unbounded(table, claim)
    v.details["family"] = public_family(v.details.get("family", []))
    return v
