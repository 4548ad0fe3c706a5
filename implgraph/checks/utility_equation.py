"""``kind: math`` claims with a channel ``mechanism:``: a printed utility formula (``U == ...``)
against eq. (4) on the exact channel, decided on the whole region (and with the foreign-symbol reading).
"""

from __future__ import annotations

import sympy

from implgraph.checks.channel_spec import channel, foreign_symbols, is_channel
from implgraph.checks.common import (as_float, claim_error, claim_symbols, claim_verdict, condition_in, decide,
                                     find_point, parse_definitions, put, py_distribution, reading_row, rows_verdict,
                                     when_region, witness_params)
from implgraph.core.point_values import value_at
from implgraph.core.region import Region
from implgraph.core.verdict import checker
from implgraph.mechanisms.utility import bayes_utility
from implgraph.core.simplified import simplified

__all__ = ["check_utility_equation", "interior"]


def _value(expr, point):
    """``expr`` at ``point``: one exact bottom-up substitution (:func:`~implgraph.core.point_values.value_at`;
    sympy's sequential ``subs`` rebuilds a ``Max`` of half-substituted terms at every step), or ``subs`` where
    that has no value or leaves a symbol (so an undefined printed value shows as sympy writes it)."""
    try:
        value = value_at(expr, point)
    except (ValueError, TypeError):
        value = None
    return expr.subs(point) if value is None else value


def interior(region):
    """The region with every non-strict inequality made strict (its interior, for an inequality region), or
    None when that changes nothing."""
    strict = {sympy.LessThan: sympy.StrictLessThan, sympy.GreaterThan: sympy.StrictGreaterThan}
    cons = tuple(strict[type(c)](c.lhs, c.rhs) if type(c) in strict else c for c in region.constraints)
    return None if cons == tuple(region.constraints) else Region(dict(region.kinds), cons)


def _judge_equal(region, engine, printed, recheck):
    """Decide engine == printed on the region: a point where they differ (re-checked; one in the interior of
    the region first, so that a witness is not a degenerate end point where one exists), or a proof.

    The question ``engine != printed`` is built unevaluated: sympy would first try to decide it through the symbols'
    assumptions (a tenth of a second on a utility's maxima, never decided there), and a point the solver finds is
    re-checked exactly either way."""
    for reg in (interior(region), region):
        if reg is None or reg.is_empty() is True:
            continue
        point = find_point(reg, sympy.Ne(engine, printed, evaluate=False))
        if point:
            w = recheck(point)
            if w:
                return {"decided": False, "witness": w}
    decided = decide(region, sympy.Eq(engine, printed))
    return {"decided": decided, "witness": None}


@checker("math", when=lambda c: is_channel(c.get("mechanism")))
def check_utility_equation(claim, context=None):
    """A printed utility formula (``U == ...``) against eq. (4) on the exact channel of ``mechanism:``."""
    names, kinds = claim_symbols(claim)
    defs = parse_definitions(claim, names, kinds)
    region, subs = when_region(claim, names, kinds)
    py = py_distribution(names, subs)
    eq = condition_in(claim, claim.get("formula"), names)
    if not isinstance(eq, sympy.Eq):
        raise claim_error(claim, "expected an equation `U == ...`", "write the formula as an equation", key="formula")
    printed = put(put(eq.rhs, {names[k]: v for k, v in defs.items()}), subs)
    spec = claim.get("mechanism")
    if not spec or not py:
        raise claim_error(claim, "a utility claim needs `mechanism:` and the distribution py1, py2, ...",
                   "describe the channel and declare py1, py2")
    mech = channel(claim, spec, names, py)
    engine = bayes_utility(mech, py)

    def recheck(expr):
        def at(point):
            e = simplified(bayes_utility(mech.subs(point), [sympy.sympify(x).subs(point) for x in py]))
            p = simplified(_value(expr, point))
            if e == p:
                return None
            relevant = expr.free_symbols | engine.free_symbols
            return {"params": witness_params(point, relevant), "engine": str(e), "printed": str(p),
                    "engine_float": as_float(e), "printed_float": as_float(p)}
        return at

    res = _judge_equal(region, engine, printed, recheck(printed))
    verdict = rows_verdict([res])
    engine_syms = set(mech.matrix.free_symbols) | set().union(*(sympy.sympify(x).free_symbols for x in py))
    foreign = foreign_symbols(printed, engine_syms, kinds, len(py))
    details = {"judged": res}
    reading = None
    if foreign:
        reading = ", ".join(f"{s} read as {v}" for s, v in foreign.items())
        r_printed = put(printed, foreign)   # without re-evaluating (sympy prunes a Max pairwise)
        r_res = _judge_equal(region, engine, r_printed, recheck(r_printed))
        details.update({"reading": reading, "reading_judged": r_res, "reading_verdict": rows_verdict([r_res])})
    if foreign and context is not None:
        rw = details["reading_judged"]["witness"]
        context.setdefault("extra_rows", []).append(reading_row(
            claim, reading, details["reading_verdict"], rw,
            f"eq. (4) on the exact channel ({mech.name}) against the printed formula with {reading}: "
            + (f"differs at {rw['params']}: channel {rw['engine']} = {rw['engine_float']} vs printed "
               f"{rw['printed']} = {rw['printed_float']} (exact)" if rw else
               f"equal on the whole region: {details['reading_judged']['decided']}") + "."))
    w = res["witness"]
    evidence = (f"eq. (4) on the exact channel ({mech.name}) gives {eq.lhs} = {engine}.  The printed formula "
                + (f"differs at {w['params']}: channel {w['engine']} = {w['engine_float']} vs printed "
                   f"{w['printed']} = {w['printed_float']} (exact)" if w else
                   f"equals it on the whole region: {res['decided']}")
                + (f".  Reading ({reading}): {details['reading_verdict']}"
                   + (f", differs at {details['reading_judged']['witness']['params']}"
                      if details['reading_judged']['witness'] else "") if reading else "") + ".")
    return claim_verdict(claim, verdict, exact=f"{eq.lhs} = {engine}", evidence=evidence, reading=reading,
                    witness=w, details=details)

