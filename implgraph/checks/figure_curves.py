"""The exact curves of a figure claim (``grid:``, ``fix:``, ``definitions:``, ``implicit:``,
``channels:``): as printed, or eq. (4) on the exact channels with each keep probability calibrated from
the core's exact level of its stage (or with the paper's printed calibration).
"""

from __future__ import annotations

import functools
import itertools

import sympy
from sympy import Rational as R

from implgraph.checks.channel_spec import channel
from implgraph.checks.common import (claim_error, claim_symbols, condition_in, decide, is_true, parse_in,
                                     theorem_claim, truth)
from implgraph.core.point_values import not_identically_zero
from implgraph.core.errors import InputError
from implgraph.core.extrema import xreplaced
from implgraph.core.region import Region
from implgraph.definitions.base import get as get_definition
from implgraph.mechanisms.calibrate import calibrate_keep, exact_level
from implgraph.mechanisms.channels import Mechanism
from implgraph.mechanisms.utility import bayes_utility
from implgraph.core.simplified import simplified, solved

__all__ = ["parse_grid", "register_names", "utility_subs", "value_combos", "pipeline", "figure_curves"]


def parse_grid(claim, names):
    """``grid:`` -> (interval symbol, lo, hi, {symbol: [values]})."""
    var, lo, hi, values = None, None, None, {}
    for name, spec in (claim.get("grid") or {}).items():
        if name not in names:
            raise claim_error(claim, f"grid symbol {name!r} is not declared", "declare it in `symbols:`", key="grid")
        if isinstance(spec, dict) and "interval" in spec:
            if var is not None:
                raise claim_error(claim, "more than one grid interval", "give one interval and lists of values",
                                  key="grid")
            var = names[name]
            lo, hi = (parse_in(claim, x, names) for x in spec["interval"])
            if truth(sympy.Lt(lo, hi)) is not True:
                raise claim_error(claim, f"grid interval [{lo}, {hi}] is empty", "give lo < hi", key="grid")
        elif isinstance(spec, dict) and "values" in spec:
            values[names[name]] = [parse_in(claim, x, names) for x in spec["values"]]
        else:
            raise claim_error(claim, f"grid {name}: {spec!r}", "write `{interval: [lo, hi]}` or `{values: [...]}`",
                              key="grid")
    if var is None:
        raise claim_error(claim, "a figure claim needs a grid interval", "add `grid: {x: {interval: [lo, hi]}}`",
                          key="grid")
    return var, lo, hi, values


def register_names(claim, names):
    for name in list(claim.get("definitions") or {}) + list(claim.get("implicit") or {}):
        names.setdefault(name, sympy.Symbol(name, real=True))


def _expanded(claim, names):
    """``definitions:`` each written in the declared symbols only (definitions substituted in order)."""
    raw = {names[k]: parse_in(claim, v, names) for k, v in (claim.get("definitions") or {}).items()}
    for _ in range(len(raw) + 1):
        changed = False
        with sympy.evaluate(False):   # a substitution only; sympy's Max pruning waits for the values
            for sym in raw:
                new = xreplaced(raw[sym], {s: v for s, v in raw.items() if s != sym})
                changed |= new != raw[sym]
                raw[sym] = new
        if not changed:
            return {str(s): v for s, v in raw.items()}
    raise claim_error(claim, "the definitions refer to each other in a cycle", "order them by dependency",
               key="definitions")


def _range_conds(claim, names, sym):
    """The ``when`` conditions that mention only ``sym`` (the range of an implicit name)."""
    out = []
    for text in claim.get("when") or []:
        c = condition_in(claim, text, names)
        if c.free_symbols == {sym}:
            out.append(c)
    return out


def _solve_implicit(claim, names, sym, eq, region):
    """The solution of ``eq`` for ``sym`` in its range on the whole region (the first candidate that is).

    A side that is a Max is solved term by term (a term only when the candidates of the terms before it
    all failed); each candidate is checked exactly (sympy, or z3 on the region). Returns None when no
    candidate is a solution everywhere.
    """
    side, target = (eq.rhs, eq.lhs) if sym in eq.rhs.free_symbols else (eq.lhs, eq.rhs)
    terms = list(side.args) if isinstance(side, sympy.Max) else [side]
    cands = (s for term in terms for s in _candidates(term, target, sym))
    rng = _range_conds(claim, names, sym)
    for s in cands:
        if s.is_real is False:
            continue
        at = {sym: s}        # an exact value for one symbol: one rebuild (``xreplace``), no pattern matching
        value = xreplaced(side, at)
        in_range = [c.xreplace(at) for c in rng]
        if not not_identically_zero(value - target) and simplified(value - target) == 0:
            cond = sympy.And(*in_range)
        else:
            cond = sympy.And(*in_range, sympy.Eq(value, target))
        if is_true(cond) or (not cond.free_symbols and truth(cond)) or decide(region, cond) is True:
            return s
    return None


@functools.lru_cache(maxsize=256)
def _candidates(term, target, sym) -> tuple:
    """The solutions of ``term == target`` for ``sym`` (simplified; none where sympy cannot solve), memoised:
    a figure's grid values often give the same equation (e.g. a level that does not depend on them)."""
    try:
        return tuple(simplified(s) for s in solved(sympy.Eq(sympy.together(term), target), sym))
    except NotImplementedError:
        return ()


def _needed(claim, names):
    """The definitions a figure claim uses: those in ``formula:``, ``monotone:`` and the calibrated keeps."""
    want = {str(s) for s in condition_in(claim, claim.get("formula"), names).free_symbols}
    m = claim.get("monotone")
    if m:
        want |= {str(s) for s in parse_in(claim, m.get("expression"), names).free_symbols}
    want |= set((claim.get("channels") or {}).get("calibrate") or {})
    return want


def _printed_curves(claim, names, fix, region, cache=None):
    """The printed quantities (``definitions:`` with ``implicit:`` solved in order) at ``fix``.

    Returns (quantities or None where undefined, the fixed values and the implicit names solved so far).
    """
    cache = {} if cache is None else cache
    if "_expanded" not in cache:
        cache["_expanded"] = _expanded(claim, names)
        dsub = {names[k]: v for k, v in cache["_expanded"].items()}
        # each implicit equation with the definitions substituted: the same at every fixed point
        cache["_implicit"] = {name: tuple(xreplaced(side, dsub) for side in (eq.lhs, eq.rhs))
                              for name, eq in ((name, condition_in(claim, text, names))
                                               for name, text in (claim.get("implicit") or {}).items())}
    raw = cache["_expanded"]
    sub = dict(fix)
    for name, (lhs, rhs) in cache["_implicit"].items():
        eq = sympy.Eq(xreplaced(lhs, sub), xreplaced(rhs, sub))
        value = None if eq.has(sympy.zoo, sympy.nan) else _solve_implicit(claim, names, names[name], eq, region)
        if value is None:
            return None, sub
        sub[names[name]] = value
    want = _needed(claim, names)
    # the values in ``sub`` are exact and free of its keys: one rebuild, no pattern matching (``subs``)
    out = {k: xreplaced(v, sub) for k, v in raw.items() if k in want}
    out.update({str(s): v for s, v in sub.items() if str(s) in (claim.get("implicit") or {})})
    if any(v.has(sympy.zoo, sympy.nan) for v in out.values()):
        return None, sub
    return out, sub


def _distribution_of(claim, ch, names, fix):
    dist = ch.get("distribution")
    if isinstance(dist, dict) and "uniform" in dist:
        n = parse_in(claim, dist["uniform"], names).subs(fix)
        if not n.is_Integer:
            raise claim_error(claim, f"uniform distribution over {n} values", "fix the number of values",
                              key="channels")
        return [R(1, int(n))] * int(n)
    if isinstance(dist, list):
        return [parse_in(claim, x, names).subs(fix) for x in dist]
    raise claim_error(claim, "`channels:` needs `distribution:`", "give a list of frequencies or `{uniform: n}`",
               key="channels")


def _as_read_uniform(size, divisor, keep):
    """Fig. 4's matrix with the printed divisor in place of the number of values (not a channel)."""
    m = sympy.Matrix(size, size, lambda i, j: (keep if i == j else 0) + (1 - keep) / divisor)
    return Mechanism(m, [f"a{i + 1}" for i in range(size)], f"Fig. 4 as read (divisor {divisor})")


def _stages_mech(claim, stages, names, py, fix):
    mech = None
    for st in stages:
        if st.get("values") is not None and str(st.get("fallback")) == "uniform":
            div = parse_in(claim, st["values"], names).subs(fix)
            keep = names[str(st["keep"])] if str(st["keep"]) in names else parse_in(claim, st["keep"], names)
            m = _as_read_uniform(len(py), div, keep) if div != len(py) else channel(claim, st, names, py)
        else:
            m = channel(claim, st, names, py)
        mech = m if mech is None else Mechanism(mech.matrix * m.matrix, mech.values, f"{mech.name} then {m.name}")
    return mech


def _channel_curves(claim, names, fix, region, calibration, overrides=None, known=None):
    """Eq. (4) on the exact channels of ``channels:`` at ``fix``.

    ``calibration`` is ``"engine"`` (each keep probability calibrated from the core's exact level of
    its stage, ``channels.calibrate``) or a dict of printed values (the paper's calibration).
    """
    ch = claim.get("channels") or {}
    stages = dict(ch.get("stages") or {})
    stages.update(overrides or {})
    py = _distribution_of(claim, ch, names, fix)
    keeps, info = {}, {}
    for param, cal in (ch.get("calibrate") or {}).items():
        if calibration != "engine":
            keeps[param] = calibration[param]
            continue
        stage = stages[str(cal["stage"])]
        sym = sympy.Symbol(param, real=True)
        definition = get_definition(str(cal["definition"]))
        target = parse_in(claim, cal["level"], names).subs(fix).subs(known or {})
        lv = exact_level(channel(claim, stage, {**names, param: sym}, py), py, definition.name)
        value, ok = calibrate_keep(lv, definition.raw_from_level(target), sym, region)
        if value is None or ok is not True:   # an unverified calibration judges nothing
            return None
        keeps[param] = value
        info[param] = {"value": str(value), "level_at_most_target": ok, "core_level": str(lv)}
    local = {**names, **keeps}
    out = {}
    for u, seq in (ch.get("utilities") or {}).items():
        mech = _stages_mech(claim, [stages[str(s)] for s in seq], local, py, fix)
        out[u] = bayes_utility(mech, py)
    out.update({k: v for k, v in keeps.items()})
    out["_calibration"] = info
    return out


def utility_subs(names, q):
    return {names[k]: v for k, v in q.items() if k in names and not k.startswith("_")}


def value_combos(values):
    keys = list(values)
    return [dict(zip(keys, vs)) for vs in itertools.product(*[values[k] for k in keys])] or [{}]


def _at(curves, var, x):
    """The curves at ``var = x`` by substitution, or None if a value is undefined there."""
    if curves is None:
        return None
    try:
        out = {k: (simplified(xreplaced(v, {var: x})) if isinstance(v, sympy.Basic) else v)
               for k, v in curves.items()}
    except (ValueError, TypeError, ZeroDivisionError):   # e.g. Min(zoo, ...): undefined there
        return None
    if any(isinstance(v, sympy.Basic) and v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) for v in out.values()):
        return None
    return out


def pipeline(claim, names, fix, var, lo, hi, combos, which, overrides=None, cache=None):
    """Curves (symbolic in ``var``) and their values at the end points.

    An end point's values are the curves' values there when every expression is defined (each is a
    composition of continuous functions, so this is also the limit); otherwise the whole pipeline is
    re-run at the end point (a concrete distribution, e.g. one with a zero frequency).
    """
    region = Region({var: "real"}, (var > lo, var < hi))
    curves, ends, extra = {}, {}, {}
    cache = {} if cache is None else cache
    for combo in combos:
        key = tuple(combo.items())
        f = {**fix, **combo}
        curves[key], extra[key] = _one(claim, names, f, region, which, overrides, cache)
        ends[key] = {}
        for x in (lo, hi):
            ends[key][x] = _at(curves[key], var, x)
            if ends[key][x] is None:
                ends[key][x], _ = _one(claim, names, {**f, var: x}, Region({}, ()), which, overrides, cache)
    return curves, ends, extra


def _one(claim, names, fix, region, which, overrides=None, cache=None):
    key = tuple(sorted((str(k), str(v)) for k, v in fix.items()))
    if cache is not None and key in cache:
        printed, known = cache[key]
    else:
        printed, known = _printed_curves(claim, names, fix, region, cache)
        if cache is not None:
            cache[key] = (printed, known)
    if which == "printed":
        return printed, None
    if which == "engine":
        out = _channel_curves(claim, names, fix, region, "engine", overrides, known)
    else:   # the paper's calibration (its printed keep probabilities) on the channels
        if printed is None:
            return None, None
        cal = {p: printed[p] for p in (claim.get("channels") or {}).get("calibrate") or {}}
        out = _channel_curves(claim, names, fix, region, cal, overrides, known)
    if out is None:
        return None, None
    return out, out.pop("_calibration", None)


def figure_curves(cid, which="engine", extra_fix=None):
    """The exact curves of figure claim ``cid`` (symbolic in its grid interval symbol).

    ``which``: ``engine`` (exact channels, core calibration), ``printed``, or ``paper_calibration``.
    """
    claim = theorem_claim(cid)
    if claim is None:
        raise InputError(f"claim {cid} not found in the theorems data", fix="reinstall the data files")
    names, _ = claim_symbols(claim)
    register_names(claim, names)
    var, lo, hi, _ = parse_grid(claim, names)
    fix = {names[k]: parse_in(claim, v, names) for k, v in (claim.get("fix") or {}).items()}
    fix.update({names[k]: sympy.sympify(v) for k, v in (extra_fix or {}).items()})
    out, _ = _one(claim, names, fix, Region({var: "real"}, (var > lo, var < hi)), which)
    if out is None:
        raise InputError(f"{cid}: the {which} curves are undefined", fix="check the data")
    return out
