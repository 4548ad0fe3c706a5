"""``kind: math`` claims with ``grid:`` and ``channels:``: a figure's claim (``formula:`` and
``monotone:`` over the grid), judged as printed and on the exact channels
(:mod:`implgraph.checks.figure_curves`).
"""

from __future__ import annotations

import sympy
from sympy import Rational as R

from implgraph.checks.common import (as_float, claim_error, claim_symbols, claim_verdict, condition_in, decide,
                                     find_point, parse_in, truth)
from implgraph.checks.figure_curves import parse_grid, pipeline, register_names, utility_subs, value_combos
from implgraph.core.region import Region
from implgraph.core.verdict import Verdict, checker
from implgraph.core.simplified import simplified

__all__ = ["check_figure"]


GRID_STEPS = 200   # witnesses are searched on lo + (hi - lo) i/GRID_STEPS and at z3 models


def _conjuncts(claim, names):
    f = condition_in(claim, claim.get("formula"), names)
    rels = list(f.args) if isinstance(f, sympy.And) else [f]
    for r in rels:
        if not isinstance(r, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt, sympy.Eq)):
            raise claim_error(claim, f"formula part {r} is not a comparison", "write comparisons joined by `and`",
                       key="formula")
    return [_Rel(r.func, r.lhs, r.rhs) for r in rels]


def _decide_split(region, var, rel, lo, hi, parts=20):
    """Decide ``rel`` on the open interval by deciding it on ``parts`` closed sub-intervals (z3 on each)."""
    cuts = [lo + (hi - lo) * R(i, parts) for i in range(parts + 1)]
    for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
        sub = region.add(var >= a if i else var > a, var <= b if i < parts - 1 else var < b)
        if decide(sub, rel) is not True:
            return None
    return True


class _Rel:
    """A relation ``func(lhs, rhs)`` kept unevaluated (substituting numbers must not lose its sides)."""

    def __init__(self, func, lhs, rhs):
        self.func, self.lhs, self.rhs = func, sympy.sympify(lhs), sympy.sympify(rhs)

    def subs(self, *args):
        """``subs(symbol, value)`` or ``subs({symbol: value})``: exact values for symbols (one rebuild)."""
        mapping = args[0] if len(args) == 1 else {args[0]: args[1]}
        mapping = {sympy.sympify(k): sympy.sympify(v) for k, v in mapping.items()}
        return _Rel(self.func, self.lhs.xreplace(mapping), self.rhs.xreplace(mapping))

    def expr(self):
        """The relation as ``func(lhs - rhs, 0)`` (what z3 decides), unevaluated: sympy's sign
        assumptions on the curves' Max/Min terms are slow, and the region decides it exactly."""
        return self.func(self.lhs - self.rhs, 0, evaluate=False)

    def truth(self):
        return truth(self.func(simplified(self.lhs - self.rhs), 0))

    def __str__(self):
        return str(self.func(self.lhs, self.rhs, evaluate=False))


def _point_row(rel, var, x):
    d = simplified(rel.lhs - rel.rhs)
    return {str(var): str(x), "lhs": str(simplified(rel.lhs)), "rhs": str(simplified(rel.rhs)),
            "difference": str(d), "difference_float": as_float(d)}


def _judge_rel(rel, ends, var, lo, hi):
    """Decide a relation in ``var`` on (lo, hi) (z3) and at the end points (``ends``: exact relations, or
    None where the quantities are undefined); on failure the first exact point that breaks it."""
    region = Region({var: "real"}, (var > lo, var < hi))
    cond = rel.expr()
    proved = decide(region, cond)
    if proved is not True:
        proved = _decide_split(region, var, cond, lo, hi)
    witness = None
    grid = [lo + (hi - lo) * R(i, GRID_STEPS) for i in range(1, GRID_STEPS)]
    if proved is not True:
        pt = find_point(region, sympy.Not(cond))
        for x in ([pt[var]] if pt and var in pt else []) + grid:
            r = rel.subs(var, x)
            if r.truth() is False:
                witness = _point_row(r, var, x)
                break
    for x, r in ends.items():
        if witness is None and r is not None and r.truth() is False:
            witness = _point_row(r, var, x)
    grid_ok = proved is True or (witness is None and all(rel.subs(var, x).truth() is not False for x in grid))
    undefined = [str(x) for x, r in ends.items() if r is None]
    return {"proved_on_interval": proved is True and witness is None, "grid_holds": bool(grid_ok) and witness is None,
            "witness": witness, "ends_undefined": undefined}


def _summary(results):
    rs = list(results.values())
    if all(r["proved_on_interval"] for r in rs):
        return "holds"
    if any(r["witness"] for r in rs):
        return "refuted"
    if all(r["grid_holds"] for r in rs):
        return "verified-bounded"
    return "unknown"


def _monotone(claim, names):
    m = claim.get("monotone")
    if not m:
        return None
    expr = parse_in(claim, m.get("expression"), names)
    over = names[str(m.get("over"))]
    direction = str(m.get("direction", "increasing"))
    if direction not in ("increasing", "decreasing"):
        raise claim_error(claim, f"monotone direction {direction!r}", "use increasing or decreasing", key="monotone")
    return expr, over, direction


def _judge_curves(claim, names, curves, ends, var, lo, hi, combos):
    """Each conjunct of ``formula:`` for each value combination, and ``monotone:`` between consecutive values."""
    results = {}
    conj = _conjuncts(claim, names)
    for combo in combos:
        tag = ", ".join(f"{s} = {v}" for s, v in combo.items())
        c = curves.get(tuple(combo.items()))
        for rel in conj:
            key = f"{tag}: {rel}" if tag else str(rel)
            if c is None:
                results[key] = {"proved_on_interval": None, "grid_holds": False, "witness": None,
                                "ends_undefined": [], "note": "undefined"}
                continue
            e = {x: (None if q is None else rel.subs(utility_subs(names, q))) for x, q in ends[tuple(combo.items())].items()}
            results[key] = _judge_rel(rel.subs(utility_subs(names, c)), e, var, lo, hi)
    mono = _monotone(claim, names)
    if mono:
        expr, over, direction = mono
        others = [c for c in combos]
        for a, b in zip(others, others[1:]):
            if any(a[s] != b[s] for s in a if s != over):
                continue
            ca, cb = curves.get(tuple(a.items())), curves.get(tuple(b.items()))
            key = f"{expr} {direction} from {over} = {a[over]} to {b[over]}"
            if ca is None or cb is None:
                continue
            func = sympy.Ge if direction == "increasing" else sympy.Le
            # the curves are exact and free of the names they replace: one rebuild (xreplace), no pattern matching
            rel = _Rel(func, expr.xreplace(utility_subs(names, cb)), expr.xreplace(utility_subs(names, ca)))
            ea, eb = ends[tuple(a.items())], ends[tuple(b.items())]
            e = {}
            for x in ea:
                if ea[x] is None or eb.get(x) is None:
                    e[x] = None
                else:
                    e[x] = _Rel(func, expr.xreplace(utility_subs(names, eb[x])),
                                expr.xreplace(utility_subs(names, ea[x])))
            results[key] = _judge_rel(rel, e, var, lo, hi)
    return results


def _describe(results):
    def one(k, v):
        if v["proved_on_interval"]:
            s = "proved"
        elif v["witness"]:
            s = f"fails at {v['witness']}"
        else:
            s = "holds on the grid" if v["grid_holds"] else "not decided"
        return f"{k}: {s}" + (f" (undefined at {v['ends_undefined']})" if v.get("ends_undefined") else "")
    return "; ".join(one(k, v) for k, v in results.items())


@checker("math", when=lambda c: "grid" in c and "channels" in c)
def check_figure(claim, context=None):
    """A figure's claim (``formula:`` over ``grid:`` at ``fix:``), judged twice.

    (a) As printed: the quantities of ``definitions:`` with ``implicit:`` solved exactly (the verdict).
    (b) On the exact channels of ``channels:`` (eq. 4 on each mechanism; every keep probability
    calibrated from the core's exact level of its stage): ``details["reading_verdict"]``; also with the
    paper's printed calibration on the exact channels (``paper_calibration_verdict``). A
    ``reading_channels:`` override (e.g. the printed N kept where Fig. 4 divides by n) is judged with
    the printed calibration and reported as the extra row ``<id>#reading``.
    """
    names, kinds = claim_symbols(claim)
    register_names(claim, names)
    var, lo, hi, values = parse_grid(claim, names)
    fix = {names[k]: parse_in(claim, v, names) for k, v in (claim.get("fix") or {}).items()}
    combos = value_combos(values)
    judged, extras = {}, {}
    cache = {}
    for which in ("printed", "engine", "paper_calibration"):
        if which != "printed" and not claim.get("channels"):
            continue
        curves, ends, extra = pipeline(claim, names, fix, var, lo, hi, combos, which, cache=cache)
        judged[which] = _judge_curves(claim, names, curves, ends, var, lo, hi, combos)
        extras[which] = {", ".join(f"{s} = {v}" for s, v in k) or "-": e for k, e in extra.items() if e}
        if which == "printed":
            printed_curves = curves
    bound = (f"{var} in [{lo}, {hi}]" + "".join(f", {s} in {{{', '.join(map(str, v))}}}" for s, v in values.items())
             + f", exact (z3 on the open interval, the end points computed exactly); witnesses from z3 models or "
               f"the grid of {GRID_STEPS} steps, re-checked exactly")
    verdict = _summary(judged["printed"])
    details = {"printed": judged["printed"], "bound": bound}
    evidence = f"As printed (definitions and implicit equations of the data, exact): {_describe(judged['printed'])}."
    if "engine" in judged:
        details.update({"exact_channels": judged["engine"], "reading_verdict": _summary(judged["engine"]),
                        "exact_channels_calibration": extras["engine"],
                        "paper_calibration_exact_channels": judged["paper_calibration"],
                        "paper_calibration_verdict": _summary(judged["paper_calibration"])})
        evidence += (f"  On the exact channels (eq. 4; keep probabilities from the core's exact levels): "
                     f"{_describe(judged['engine'])}.  Exact channels with the printed calibration: "
                     f"{_summary(judged['paper_calibration'])}.")
    if claim.get("reading_channels"):
        rv = _reading_row(claim, names, fix, var, lo, hi, combos, cache, judged)
        details.update({"data_reading": rv.details["judged"], "data_reading_verdict": rv.verdict})
        if context is not None:
            context.setdefault("extra_rows", []).append(rv)
    first = next(iter(printed_curves.values()), None)
    exact = None if first is None else "; ".join(f"{k} = {first[k]}" for k in first if k in
                                                  {str(s) for s in (claim.get('implicit') or {})})
    return claim_verdict(claim, verdict, evidence=evidence, exact=exact, bound=bound,
                    reading="exact channels: eq. (4) on the mechanisms' channels, calibrated by the core's levels",
                    witness=next((v["witness"] for v in judged["printed"].values() if v["witness"]), None),
                    details=details)


def _reading_row(claim, names, fix, var, lo, hi, combos, cache=None, judged=None):
    """The row ``<id>#reading``: the figure on the channels of ``reading_channels:`` (its ``stages:`` replacing
    those of ``channels:``, none replaced: the exact channels) with the printed or the core's calibration."""
    rc = claim.get("reading_channels") or {}
    overrides = dict(rc.get("stages") or {})
    which = "engine" if str(rc.get("calibration", "printed")) == "engine" else "paper_calibration"
    if not overrides and judged and which in judged:
        res = judged[which]          # the channels of `channels:` themselves: judged above already
    else:
        curves, ends, _ = pipeline(claim, names, fix, var, lo, hi, combos, which, overrides, cache)
        res = _judge_curves(claim, names, curves, ends, var, lo, hi, combos)
    calibration = "the core's calibration" if which == "engine" else "the printed calibration"
    what = (f"the stages {overrides} replacing those of `channels:`" if overrides else
            "the exact channels of `channels:`")
    return Verdict(id=f"{claim.get('id')}#reading", verdict=_summary(res), printed=str(claim.get("reading")),
                   reading=str(claim.get("reading")), expect=claim.get("reading_expect"), source=claim.get("source"),
                   evidence=(f"On {what} with {calibration}, decided exactly over {var} in [{lo}, {hi}]: "
                             f"{_describe(res)}."),
                   witness=next((v["witness"] for v in res.values() if v["witness"]), None),
                   details={"judged": res})
