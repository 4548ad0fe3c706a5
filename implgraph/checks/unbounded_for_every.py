"""``kind: unbounded`` claims with ``for_every:`` (:mod:`implgraph.checks.unbounded`).

A witness family for every value of some symbols, judged symbolically (never sampled): a neighbourhood of
the limit inside the region for every value (:func:`_neighbourhood`), and the limits of the levels' pieces
that meet it (:mod:`implgraph.checks.limits`).
"""

from __future__ import annotations

import functools

import sympy

from implgraph.checks.limits import finite_limit, tends_to_infinity
from implgraph.checks.symbolic_level import find_level
from implgraph.checks.table_points import fmt_point, parse_claim_parts
from implgraph.checks.unbounded_family import _side, public_family, witness_family
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.core.verdict import Verdict

__all__ = ["judge_for_every"]


def judge_for_every(table, claim, base, free, limit, direction, fixmap) -> Verdict:
    """A witness family for every value of the ``for_every:`` symbols, judged symbolically (never sampled).

    For every value of those symbols allowed by the region (the constraints on them alone), with the
    other symbols fixed: the region holds for the free symbol near its limit (solver), and on every piece of
    each level that meets that neighbourhood, A's raw level has a finite limit and B's raw level tends to
    oo (:mod:`implgraph.checks.limits`: lowest terms with coefficients decided non-zero for every value).

    Parameters
    ----------
    table, claim
        The table and its ``kind: unbounded`` claim (with ``for_every:``).
    base : dict
        The verdict's identity (``id``, ``printed``, ``expect``, ``source``).
    free, limit, direction
        The free parameter, the number it tends to, and from which side ("+" above, "-" below).
    fixmap : dict
        The fixed symbols and their values.

    Returns
    -------
    Verdict
        ``confirmed`` or ``unknown`` (with the reason).
    """
    p, universal, t2, region, ucond = _for_every_region(table, claim, free, fixmap)
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
        sides[key] = _for_every_side(key, levels[key], region, between, free, limit, direction)
        if sides[key] is None:
            d, _, _, lv = levels[key]
            return unknown(f"{d.name}'s level is undefined near the limit ({lv})")
    return _for_every_outcome(sides["from"], sides["to"], details, base, f"for every {names_u} with {urange}", fix_s,
                              free, limit, direction, fam, unknown)


def _for_every_region(table, claim, free, fixmap):
    """The region of :func:`judge_for_every`, the fixed symbols substituted.

    Returns
    -------
    tuple
        ``(p, universal, t2, region, ucond)``: the claim's parser, the ``for_every:`` symbols, the table
        with the fixed symbols substituted, its region with the claim's ``when``, and the constraints on the
        universal symbols alone.
    """
    p, when = parse_claim_parts(table, claim)
    universal = _universal(table, claim, free, fixmap)
    t2 = table.subs(fixmap)
    conds = tuple(t2.region.constraints) + tuple(
        c for c in (sympy.sympify(w).subs(fixmap) for w in when) if c is not sympy.true)
    region = Region(t2.region.kinds, conds)
    ucond = [c for c in conds if sympy.sympify(c).free_symbols <= set(universal)]
    return p, universal, t2, region, ucond


def _for_every_side(key, level, region, between, free, limit, direction):
    """One side of :func:`judge_for_every` near the limit.

    Parameters
    ----------
    key : {"from", "to"}
        A (which must stay bounded) or B (which must tend to oo).
    level : tuple
        ``(definition, params, scope, level)`` of the side.
    region : Region
        The claim's region, the fixed symbols substituted.
    between : tuple
        The neighbourhood of the limit (two strict inequalities on ``free``).
    free, limit, direction
        As in :func:`judge_for_every`.

    Returns
    -------
    dict or None
        The side's details (``ok``: its limit is shown finite, resp. oo); None when some piece near the
        limit has no value.
    """
    d, params, scope, lv = level
    near = _near_pieces(lv, region, between)
    if not near or any(v is None for v, _ in near):
        return None
    if key == "from":
        lims = [finite_limit(v, free, limit, direction, reg) for v, reg in near]
        ok = all(x is not None for x in lims)
        lim = sympy.Max(*lims) if ok else None
        indep = all(free not in sympy.sympify(v).free_symbols for v, _ in near)
    else:
        ok = all(tends_to_infinity(v, free, limit, direction, reg) is True for v, reg in near)
        lim, indep = (sympy.oo if ok else None), False
    return {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "scope": scope,
            "level": str(lv), "pieces_near_limit": len(near), "ok": ok,
            "limit": None if lim is None else str(d.level_from_raw(lim) if lim is not sympy.oo else lim),
            "independent": indep}


def _for_every_outcome(a, b, details, base, every, fix_s, free, limit, direction, fam, unknown) -> Verdict:
    """The verdict of :func:`judge_for_every` from A's and B's sides near the limit: ``confirmed`` when both are
    shown (A bounded, B tending to oo), else ``unknown`` with the reason.

    Parameters
    ----------
    a, b : dict
        The sides (:func:`_for_every_side`).
    details, base : dict
        The verdict's details and identity.
    every : str
        "for every k with ..." (the universal symbols and their range).
    fix_s : str
        The fixed symbols, as printed.
    free, limit, direction
        As in :func:`judge_for_every`.
    fam : list of dict
        The concrete family shown beside (:func:`~implgraph.checks.unbounded_family.witness_family`).
    unknown : callable
        The ``unknown`` verdict with a reason.

    Returns
    -------
    Verdict
    """
    details.update({"from": a, "to": b})
    if not a["ok"]:
        return unknown(f"A's level ({a['level']}) is not shown to stay bounded as {free.name} -> {limit}{direction}")
    if not b["ok"]:
        return unknown(f"B's level ({b['level']}) is not shown to tend to oo as {free.name} -> {limit}{direction}")
    exact = f"A = {a['definition']}: {a['level']} -> {a['limit']}; B = {b['definition']}: {b['level']} -> {b['limit']}"
    head = (f"{every} (decided symbolically, not sampled), with {fix_s}: as "
            f"{free.name} -> {limit}{direction}")
    ev = (f"{head} A's level {'does not depend on ' + free.name if a['independent'] else 'tends to ' + a['limit']} "
          f"while B's level tends to oo (on each of its {b['pieces_near_limit']} piece(s) near the limit)")
    if fam:
        at = ", ".join(f"{k} = {v}" for k, v in (fam[0].get("at") or {}).items())
        ev += f"; family at {at}: " + ", ".join(f"{free.name} = {r['value']}: A {r['A']}, B {r['B']}" for r in fam)
    return Verdict(verdict="confirmed", exact=exact, evidence=ev, details=details, **base)


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


@functools.lru_cache(maxsize=4096)
def relation_numerator(rel):
    """The numerator of ``together(lhs - rhs)`` of a relation (memoised: the same pieces' constraints are read for
    every limit side and claim)."""
    return sympy.fraction(sympy.together(rel.lhs - rel.rhs))[0]


@functools.lru_cache(maxsize=4096)
def real_roots_of(q, free) -> tuple:
    """``Poly(q, free).real_roots()`` as a tuple (memoised; an error is raised again on every call)."""
    return tuple(sympy.Poly(q, free).real_roots())


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
            num = relation_numerator(rel)
            if num.free_symbols == {free}:
                try:
                    roots += list(real_roots_of(sympy.expand(num), free))
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
