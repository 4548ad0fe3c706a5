"""``kind: level`` claims with a randomised-response ``mechanism:``: a printed level of a mechanism
against the core's level of its channel.

Class-based levels of a per-record channel are taken on the *value partition* of the data (one class
per value, :func:`~implgraph.mechanisms.channels.value_partition`): every class distribution is a
mixture of the pure classes' rows, a ratio ``Pr_E/Pr_D`` is linear and ``Pr_D/Pr_E`` convex in the
mixture weights, so the maximum over all partitions of data with frequencies ``p_y`` is attained by
pure classes (Section V-A of [1]_).

Readings: where the printed formula uses an integer symbol that the channel does not have (``N``
printed where the channel has the number of values ``n``), the formula is also judged with that
symbol read as the channel's number of values (``details["reading_verdict"]``).

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

import sympy

from implgraph.checks.channel_spec import (channel, concrete_channel_level, foreign_symbols, is_channel, pieces_of,
                                           values_of)
from implgraph.checks.common import (as_float, claim_error, claim_symbols, claim_verdict, decide, find_point,
                                     condition_in as parse_condition_in,
                                     parse_definitions, parse_in, put, py_distribution, reading_row, rows_verdict, truth,
                                     when_region, witness_params)
from implgraph.core.verdict import checker
from implgraph.definitions.base import get as get_definition
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.mechanisms.calibrate import calibrate_keep, exact_level
from implgraph.core.simplified import simplified

__all__ = ["check_mechanism_level"]


def _level_relation(definition, bound, engine_raw, printed_raw):
    """``bound: exact`` -> equal; ``lower`` -> the optimum is no stronger; else (satisfies) at least as strong."""
    if bound == "exact":
        return sympy.Eq(engine_raw, printed_raw)
    if bound == "lower":
        return definition.at_least_as_strong(printed_raw, engine_raw)
    return definition.at_least_as_strong(engine_raw, printed_raw)


def _judge_level(claim, ctx, printed):
    """Decide the printed level against each piece of the core's level; re-check a violation exactly."""
    definition, bound, level, region = ctx["definition"], ctx["bound"], ctx["level"], ctx["region"]
    raw_p = definition.raw_from_level(printed)
    rows = []
    for cond, v in pieces_of(level):
        reg = region.add(cond)
        if v is None:
            rows.append({"when": str(cond), "engine": None, "decided": None})
            continue
        if reg.is_empty() is True:
            continue
        rel = _level_relation(definition, bound, v, raw_p)
        decided = decide(reg, rel)
        row = {"when": str(cond), "engine": str(definition.level_from_raw(v)), "decided": decided}
        if decided is not True:
            point = find_point(reg, sympy.Not(rel))
            if point:
                row["witness"] = _recheck_level(claim, ctx, printed, point)
        rows.append(row)
    return rows


def _recheck_level(claim, ctx, printed, point):
    """The core's level of the concrete channel at ``point`` against the printed level there, or None."""
    definition, bound = ctx["definition"], ctx["bound"]
    lv, mech = concrete_channel_level(claim, ctx["spec"], ctx["names"], ctx["py"], definition.name, point)
    pr = simplified(printed.subs(point))
    if lv.value is None:
        return None
    rel = _level_relation(definition, bound, definition.raw_from_level(lv.value), definition.raw_from_level(pr))
    if truth(rel) is not False:
        return None
    relevant = set(sympy.sympify(printed).free_symbols) | set(ctx["mech"].matrix.free_symbols) | \
        set().union(*(sympy.sympify(x).free_symbols for x in ctx["py"] or []))
    return {"params": witness_params(point, relevant), "rows": [[str(x) for x in mech.row(i)] for i in range(mech.n)],
            "classes": None, "engine": str(lv.value), "printed": str(pr),
            "engine_float": as_float(lv.value), "printed_float": as_float(pr)}


def _level_context(claim):
    names, kinds = claim_symbols(claim)
    defs = parse_definitions(claim, names, kinds)
    region, subs = when_region(claim, names, kinds)
    py = py_distribution(names, subs)
    spec = claim.get("mechanism")
    if not spec:
        raise claim_error(claim, "a mechanism level claim needs `mechanism:`", "describe the channel (keep, fallback)")
    definition = get_definition(str(claim.get("definition")))
    printed = put(put(parse_in(claim, claim.get("level"), names), {names[k]: v for k, v in defs.items()}), subs)
    subs.update(_implicit_values(claim, names, subs))
    keeps, calibration = _calibrated_keeps(claim, spec, names, py, subs, region)
    names = {**names, **keeps}           # a calibrated keep probability is its value from here on
    printed = put(printed, subs)
    mech = channel(claim, spec, names, py)
    level = exact_level(mech, py, definition.name, **dict(claim.get("params") or {}))
    n_expr = len(py) if py else values_of(claim, spec, names)
    engine_syms = set(mech.matrix.free_symbols) | set().union(*(sympy.sympify(x).free_symbols for x in py or []))
    foreign = foreign_symbols(printed, engine_syms, kinds, n_expr)
    return {"names": names, "kinds": kinds, "region": region, "py": py, "spec": spec, "definition": definition,
            "bound": str(claim.get("bound") or "satisfies"), "level": level, "printed": printed,
            "foreign": foreign, "mech": mech, "calibration": calibration}


def _implicit_values(claim, names, subs) -> dict:
    """``implicit:`` names solved exactly at the ``when`` values (each equation once its other symbols have
    values); InputError when one has no solution there."""
    from implgraph.checks.figure_curves import _solve_implicit
    out = {}
    implicit = claim.get("implicit") or {}
    if not isinstance(implicit, dict):
        raise claim_error(claim, "`implicit:` must map names to equations", 'write `implicit: {x: "a == b"}`',
                          key="implicit")
    for name, text in implicit.items():
        if name not in names:
            raise claim_error(claim, f"implicit name {name!r} is not declared", "declare it in `symbols:`",
                              key="implicit")
        eq = parse_condition_in(claim, text, names)
        eq = sympy.Eq(put(eq.lhs, {**subs, **out}), put(eq.rhs, {**subs, **out}))
        value = _solve_implicit(claim, names, names[name], eq, Region({}, ()))
        if value is None:
            raise claim_error(claim, f"the equation of {name} has no solution at the claim's values",
                              "check `implicit:` and the `when` values", key="implicit")
        out[names[name]] = value
    return out


def _calibrated_keeps(claim, spec, names, py, subs, region):
    """``calibrate: {keep: {definition, level}}``: each keep probability the largest one whose exact level of the
    claim's channel for ``definition`` is at most ``level`` (:func:`~implgraph.mechanisms.calibrate.calibrate_keep`).
    Returns ({keep name: value}, {keep name: how it was decided})."""
    keeps, info = {}, {}
    spec_cal = claim.get("calibrate") or {}
    fix = "write `calibrate: {p: {definition: ldp, level: eps}}` with p a declared keep symbol"
    if not isinstance(spec_cal, dict):
        raise claim_error(claim, "`calibrate:` must map keep symbols to {definition, level}", fix, key="calibrate")
    for name, cal in spec_cal.items():
        if name not in names or not isinstance(cal, dict) or cal.get("level") is None:
            raise claim_error(claim, f"calibrate {name!r}: {cal!r}", fix, key="calibrate")
        try:
            d = get_definition(str(cal.get("definition")))
        except InputError as exc:
            raise claim_error(claim, exc.reason, exc.fix, key="calibrate") from None
        target = put(parse_in(claim, cal.get("level"), names), subs)
        sym = names[name]
        lv = exact_level(channel(claim, spec, {**names, **keeps}, py), py, d.name)
        value, ok = calibrate_keep(lv, d.raw_from_level(target), sym, region.add(sym >= 0, sym <= 1))
        info[name] = {"definition": d.name, "level": str(target), "value": str(value),
                      "level_at_most_target": ok, "core_level": str(lv)}
        if value is None or ok is not True:
            raise _Uncalibrated(name, info)
        keeps[name] = value
    return keeps, info


class _Uncalibrated(Exception):
    """A keep probability whose calibration is not verified: the claim is judged nowhere (unknown)."""

    def __init__(self, name, info):
        super().__init__(name)
        self.name, self.info = name, info


@checker("level", when=lambda c: is_channel(c.get("mechanism")))
def check_mechanism_level(claim, context=None):
    """A printed level of a mechanism (``kind: level`` with ``mechanism:``) against the core's level.

    The channel is built from ``mechanism:``; its exact level is the core's optimal level of its output
    on the value partition; the printed ``level:`` (with ``definitions:`` and the ``when`` equalities)
    is compared piece by piece as ``bound:`` says, on the ``when`` region.
    """
    try:
        ctx = _level_context(claim)
    except _Uncalibrated as exc:
        return claim_verdict(claim, "unknown", evidence=f"the calibration of {exc.name} is not verified "
                             f"({exc.info[exc.name]}): the channel is judged nowhere", details={"calibration": exc.info})
    rows = _judge_level(claim, ctx, ctx["printed"])
    verdict = rows_verdict(rows)
    details = {"core_pieces": [(str(c), str(v)) for c, v in ctx["level"].level_pieces()], "judged": rows,
               "bound": ctx["bound"]}
    if ctx["calibration"]:
        details["calibration"] = ctx["calibration"]
    reading = None
    if ctx["foreign"]:
        reading = ", ".join(f"{s} read as {v}" for s, v in ctx["foreign"].items())
        r_rows = _judge_level(claim, ctx, ctx["printed"].subs(ctx["foreign"]))
        details.update({"reading": reading, "reading_judged": r_rows, "reading_verdict": rows_verdict(r_rows)})
        if context is not None:
            rw = next((r["witness"] for r in r_rows if r.get("witness")), None)
            context.setdefault("extra_rows", []).append(reading_row(
                claim, reading, details["reading_verdict"], rw,
                f"The core's {ctx['definition'].name} level of the channel ({ctx['mech'].name}) against the printed "
                f"level with {reading} ({ctx['printed'].subs(ctx['foreign'])}; bound: {ctx['bound']}): "
                + (f"fails at {rw['params']} (core on the concrete channel: {rw['engine']} vs printed "
                   f"{rw['printed']})" if rw else f"{details['reading_verdict']} on every piece") + "."))
    witness = next((r["witness"] for r in rows if r.get("witness")), None)
    lv = ctx["level"]
    calibrated = "".join(f"{k} = {c['value']} (the largest keep whose exact {c['definition']} level is at most "
                         f"{c['level']}).  " for k, c in ctx["calibration"].items())
    evidence = (f"{calibrated}The core's {ctx['definition'].name} level of the channel ({ctx['mech'].name}) on the "
                f"value partition is {lv}; printed {ctx['printed']} (bound: {ctx['bound']}).  Per piece: "
                + "; ".join(f"[{r['when']}] {r['engine']}: {'decided' if r['decided'] is True else 'fails'}"
                            + (f" at {r['witness']['params']} (core on the concrete channel: "
                               f"{r['witness']['engine']} vs printed {r['witness']['printed']})"
                               if r.get("witness") else "") for r in rows)
                + (f".  Reading ({reading}): {details['reading_verdict']}." if reading else "."))
    return claim_verdict(claim, verdict, exact=str(lv), tight=str(lv) if verdict != "holds" else None,
                    evidence=evidence, reading=reading, witness=witness, details=details)
