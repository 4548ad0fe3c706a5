"""Checkers for the mechanism, utility and construction claims (ekenstedt2022 Section V,
domingo-ferrer2015 Section 6).

The truth always comes from computation: the mechanisms' exact channels
(:mod:`implgraph.mechanisms.channels`, built from the claim's ``mechanism:`` / ``channels:`` description), the
core's optimal levels of the tables they produce (:func:`~implgraph.core.levels.optimal_level`) and eq. (4)
on the channel (:func:`~implgraph.mechanisms.utility.bayes_utility`). What the paper printed comes only from the
data: ``level:``, ``formula:``, ``definitions:``, ``implicit:``, ``fix:``, ``grid:``, ``solution:``,
``converse:``. The two are compared exactly: a symbolic identity or inequality decided on the whole
parameter region (z3, :class:`~implgraph.core.region.Region`), and every refutation re-checked at an exact
rational point on a concrete channel. No closed form, grid, instance or verdict of a particular claim
lives in this module.

Readings: where the printed formula uses an integer symbol that the channel does not have (``N``
printed where the channel has the number of values ``n``), the formula is also judged with that
symbol read as the channel's number of values (``details["reading_verdict"]``).

Class-based levels (multiplicative t-closeness) of a per-record channel are taken on the *value
partition* of the data (one class per value, :func:`value_partition`): every class distribution is a
mixture of the pure classes' rows, a ratio ``Pr_E/Pr_D`` is linear and ``Pr_D/Pr_E`` convex in the
mixture weights, so the maximum over all partitions of data with frequencies ``p_y`` is attained by
pure classes (Section V-A of [1]_: 'a group whose confidential attributes take on the same value').

Registered by the shape of the data (never by claim id): ``kind: level`` with a randomised-response
``mechanism:`` (:func:`check_mechanism_level`, eq-1, eq-2); ``kind: math`` with such a ``mechanism:``
(:func:`check_utility_equation`, eq-5, eq-6), with ``values:`` and ``claimed:`` (:func:`check_sec5d`), with
``grid:`` and ``channels:`` (:func:`check_figure`, fig-6, fig-7), with ``solution:`` (sec-6.1), with
``converse:`` (sec-6.2) or with ``layout:`` (table-1).

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
.. [2] J. Domingo-Ferrer, J. Soria-Comas, "From t-closeness to differential privacy and vice versa in
   data anonymization", Knowledge-Based Systems 74, 2015.
"""

from __future__ import annotations

import itertools

import sympy
from sympy import Rational as R

from implgraph.definitions.base import get as get_definition
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.levels import optimal_level
from implgraph.mechanisms.channels import (Mechanism, calibrate_keep, empirical_response, exact_level,
                         lumped_randomised_response, randomised_response, sequential, value_partition)
from implgraph.core.region import Region
from implgraph.core.table import make_symbols
from implgraph.mechanisms.utility import bayes_utility
from implgraph.core.verdict import Verdict, checker

__all__ = ["check_mechanism_level", "check_utility_equation", "check_sec5d", "check_figure",
           "check_sec61", "check_sec62", "check_table1", "channel", "value_partition", "exact_level",
           "calibrate_keep", "figure_curves", "fig6_curves", "fig7_curves", "ldp_level_fig4"]


# -- the data ---------------------------------------------------------------------------------------

def _err(claim, message, fix, key=None):
    if hasattr(claim, "error"):
        return claim.error(message, key=key, fix=fix)
    return InputError(message, fix=fix)


def _symbols(claim):
    return make_symbols(claim.get("symbols") or {}, claim if hasattr(claim, "error") else None)


def _parse(claim, text, names):
    try:
        return parse_expr(str(text), names)
    except InputError as exc:
        raise exc.at(getattr(claim, "file", None), getattr(claim, "line", None)) from None


def _cond(claim, text, names):
    try:
        return parse_condition(str(text), names)
    except InputError as exc:
        raise exc.at(getattr(claim, "file", None), getattr(claim, "line", None)) from None


def _definitions(claim, names, kinds, values=None):
    """Parse ``definitions:`` in order; each may use the previous ones. Returns {name: expr}."""
    out = {}
    values = dict(values or {})
    for name, text in (claim.get("definitions") or {}).items():
        if name not in names:
            names[name] = sympy.Symbol(name, real=True)
            kinds[names[name]] = "real"
        expr = _parse(claim, text, names)
        out[name] = _put(_put(expr, {names[k]: v for k, v in out.items()}), values)
    return out


def _put(expr, mapping):
    """Substitute symbols by expressions without re-evaluating (sympy's Max pruning is slow)."""
    with sympy.evaluate(False):
        return sympy.sympify(expr).xreplace(dict(mapping))


def _when(claim, names, kinds, key="when", conds=None):
    """The claim's ``when:`` as (region, substitutions): ``x == e`` with ``x`` a symbol substitutes."""
    subs, cons = {}, []
    for text in (claim.get(key) or []) if conds is None else conds:
        c = _cond(claim, text, names)
        if isinstance(c, sympy.Eq) and c.lhs.is_Symbol:
            subs[c.lhs] = c.rhs
        elif c is not sympy.true:
            cons.append(c)
    cons = [sympy.sympify(c).subs(subs) for c in cons]
    region_kinds = {s: k for s, k in kinds.items() if s not in subs}
    return Region(region_kinds, tuple(c for c in cons if c is not sympy.true)), subs


def _distribution(names, subs):
    """``[py1, py2, ...]`` from the declared symbols, with the ``when`` equalities substituted."""
    py, i = [], 1
    while f"py{i}" in names:
        py.append(sympy.sympify(names[f"py{i}"]).subs(subs))
        i += 1
    return py or None


def _fl(x, digits=6):
    return round(float(sympy.N(x, 20)), digits)


def _printed(claim):
    return str(claim.get("printed", ""))


def _verdict(claim, verdict, **kw):
    return Verdict(id=str(claim.get("id")), verdict=verdict, printed=_printed(claim),
                   source=claim.get("source"), **kw)


def _decide(region, cond):
    try:
        return region.decide(cond)
    except Exception:  # an untranslatable piece: unknown, never a proof
        return None


def _find(region, cond):
    try:
        return region.find_point(cond)
    except Exception:
        return None


def _is_true(x) -> bool:
    return x is True or x is sympy.true


# -- the engine: channels from the data, levels by the core ----------------------------------------

MAX_FULL_VALUES = 12   # more values (without a distribution): the exact lumped channel of {Z = a1}


def _stage_list(spec):
    return list(spec) if isinstance(spec, list) else [spec]


def _is_channel(spec) -> bool:
    """Does ``mechanism:`` describe a randomised-response channel (stages with ``keep`` and ``fallback``)?"""
    if not spec:
        return False
    stages = _stage_list(spec)
    return bool(stages) and all(isinstance(st, dict) and "keep" in st and "fallback" in st for st in stages)


def channel(claim, spec, names, py, size=None) -> Mechanism:
    """The exact channel a ``mechanism:`` description names (a mapping, or a list of stages run in order).

    Each stage has ``keep`` (the keep probability, a formula) and ``fallback``: ``uniform`` (Fig. 4:
    :func:`~implgraph.mechanisms.channels.randomised_response` over ``values`` values, or over the values of
    ``py``; a symbolic number of values gives the lumped channel of ``{Z = a1}``) or ``empirical``
    (Fig. 5: :func:`~implgraph.mechanisms.channels.empirical_response` with the distribution ``py``).
    """
    mech = None
    for stage in _stage_list(spec):
        if not isinstance(stage, dict) or "keep" not in stage or "fallback" not in stage:
            raise _err(claim, f"mechanism stage {stage!r} needs `keep` and `fallback`",
                       "write e.g. `{keep: p_LDP, fallback: uniform}`", key="mechanism")
        keep = names[str(stage["keep"])] if str(stage["keep"]) in names else _parse(claim, stage["keep"], names)
        fallback = str(stage["fallback"])
        if fallback == "uniform":
            n = sympy.sympify(size if size is not None else
                              (len(py) if py else _parse(claim, stage.get("values"), names)))
            full = n.is_number and (py or n <= MAX_FULL_VALUES)
            m = randomised_response(int(n), keep) if full else lumped_randomised_response(n, keep)
        elif fallback == "empirical":
            if not py:
                raise _err(claim, "an empirical fallback needs the distribution p_y",
                           "declare py1, py2, ... or give `distribution:`", key="mechanism")
            m = empirical_response(py, keep)
        else:
            raise _err(claim, f"unknown fallback {fallback!r}", "use uniform or empirical", key="mechanism")
        mech = m if mech is None else sequential(mech, m)
    return mech


def _pieces(level):
    return [(p.condition, p.value) for p in level.pieces]


def ldp_level_fig4(n=None, p=None):
    """The core's LDP level of the Fig. 4 channel (symbolic ``n`` and ``p`` by default).

    Returns (raw ratio on 0 < p < 1, the level).
    """
    n = sympy.Symbol("n", integer=True) if n is None else n
    p = sympy.Symbol("p_LDP", real=True) if p is None else p
    mech = lumped_randomised_response(n, p)
    lv = exact_level(mech, None, "ldp")
    inside = [v for c, v in _pieces(lv) if v is not sympy.oo and v is not None]
    return (sympy.factor(inside[0]) if len(inside) == 1 else None), lv


def _concrete_level(claim, spec, names, py, definition, point):
    """The core's exact level of the concrete channel at a rational ``point`` (a re-check)."""
    py_at = [sympy.sympify(x).subs(point) for x in py] if py else None
    names_at = {k: (sympy.sympify(v).subs(point) if isinstance(v, sympy.Basic) else v) for k, v in names.items()}
    size = None
    for stage in _stage_list(spec):
        if str(stage.get("fallback")) == "uniform" and not py:
            size = _parse(claim, stage.get("values"), names).subs(point)
    mech = channel(claim, spec, names_at, py_at, size)
    return optimal_level(mech.apply(value_partition(py_at or [1] * mech.n, mech.values)), definition), mech


def _foreign(printed, engine_symbols, kinds, n_expr):
    """Integer symbols of the printed formula that the channel does not have: {symbol: n}."""
    out = {}
    for s in sympy.sympify(printed).free_symbols:
        if s in engine_symbols or kinds.get(s) != "integer" or n_expr is None:
            continue
        if sympy.sympify(n_expr) != s:
            out[s] = n_expr
    return out


def _truth(rel):
    """Exact truth of a relation between numbers (True, False, or None if sympy cannot tell)."""
    rel = sympy.sympify(rel)
    if rel in (sympy.true, sympy.false):
        return bool(rel)
    if isinstance(rel, sympy.Eq):
        return sympy.simplify(rel.lhs - rel.rhs) == 0
    if isinstance(rel, sympy.Ne):
        return sympy.simplify(rel.lhs - rel.rhs) != 0
    if isinstance(rel, (sympy.And, sympy.Or, sympy.Not)):
        vals = [_truth(a) for a in rel.args]
        if None in vals:
            return None
        return {sympy.And: all, sympy.Or: any}.get(rel.func, lambda v: not v[0])(vals)
    d = sympy.nsimplify(sympy.simplify(rel.lhs - rel.rhs))
    out = rel.func(d, 0)
    return bool(out) if out in (sympy.true, sympy.false) else None


def _witness_params(point, relevant=None):
    """The point's coordinates as strings (only the ``relevant`` symbols, when given)."""
    return {str(s): str(v) for s, v in sorted(point.items(), key=lambda kv: str(kv[0]))
            if relevant is None or s in relevant}


def _verdict_of(rows):
    if rows and all(r["decided"] is True for r in rows):
        return "holds"
    if any(r.get("witness") for r in rows):
        return "refuted"
    return "unknown"


# -- mechanism levels (ekenstedt2022 eq. 1, eq. 2) ---------------------------------------------------

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
    for cond, v in _pieces(level):
        reg = region.add(cond)
        if v is None:
            rows.append({"when": str(cond), "engine": None, "decided": None})
            continue
        if reg.is_empty() is True:
            continue
        rel = _level_relation(definition, bound, v, raw_p)
        decided = _decide(reg, rel)
        row = {"when": str(cond), "engine": str(definition.level_from_raw(v)), "decided": decided}
        if decided is not True:
            point = _find(reg, sympy.Not(rel))
            if point:
                row["witness"] = _recheck_level(claim, ctx, printed, point)
        rows.append(row)
    return rows


def _recheck_level(claim, ctx, printed, point):
    """The core's level of the concrete channel at ``point`` against the printed level there, or None."""
    definition, bound = ctx["definition"], ctx["bound"]
    lv, mech = _concrete_level(claim, ctx["spec"], ctx["names"], ctx["py"], definition.name, point)
    pr = sympy.simplify(printed.subs(point))
    if lv.value is None:
        return None
    rel = _level_relation(definition, bound, definition.raw_from_level(lv.value), definition.raw_from_level(pr))
    if _truth(rel) is not False:
        return None
    relevant = set(sympy.sympify(printed).free_symbols) | set(ctx["mech"].matrix.free_symbols) | \
        set().union(*(sympy.sympify(x).free_symbols for x in ctx["py"] or []))
    return {"params": _witness_params(point, relevant), "rows": [[str(x) for x in mech.row(i)] for i in range(mech.n)],
            "classes": None, "engine": str(lv.value), "printed": str(pr),
            "engine_float": _fl(lv.value), "printed_float": _fl(pr)}


def _level_context(claim):
    names, kinds = _symbols(claim)
    defs = _definitions(claim, names, kinds)
    region, subs = _when(claim, names, kinds)
    py = _distribution(names, subs)
    spec = claim.get("mechanism")
    if not spec:
        raise _err(claim, "a mechanism level claim needs `mechanism:`", "describe the channel (keep, fallback)")
    definition = get_definition(str(claim.get("definition")))
    printed = _put(_put(_parse(claim, claim.get("level"), names), {names[k]: v for k, v in defs.items()}), subs)
    mech = channel(claim, spec, names, py)
    level = exact_level(mech, py, definition.name, **dict(claim.get("params") or {}))
    n_expr = len(py) if py else _values_of(claim, spec, names)
    engine_syms = set(mech.matrix.free_symbols) | set().union(*(sympy.sympify(x).free_symbols for x in py or []))
    foreign = _foreign(printed, engine_syms, kinds, n_expr)
    return {"names": names, "kinds": kinds, "region": region, "py": py, "spec": spec, "definition": definition,
            "bound": str(claim.get("bound") or "satisfies"), "level": level, "printed": printed,
            "foreign": foreign, "mech": mech}


def _values_of(claim, spec, names):
    for stage in _stage_list(spec):
        if stage.get("values") is not None:
            return _parse(claim, stage["values"], names)
    return None


@checker("level", when=lambda c: _is_channel(c.get("mechanism")))
def check_mechanism_level(claim, context=None):
    """A printed level of a mechanism (``kind: level`` with ``mechanism:``) against the core's level.

    The channel is built from ``mechanism:``; its exact level is the core's optimal level of its output
    on the value partition; the printed ``level:`` (with ``definitions:`` and the ``when`` equalities)
    is compared piece by piece as ``bound:`` says, on the ``when`` region.
    """
    ctx = _level_context(claim)
    rows = _judge_level(claim, ctx, ctx["printed"])
    verdict = _verdict_of(rows)
    details = {"core_pieces": [(str(c), str(v)) for c, v in ctx["level"].level_pieces()], "judged": rows,
               "bound": ctx["bound"]}
    reading = None
    if ctx["foreign"]:
        reading = ", ".join(f"{s} read as {v}" for s, v in ctx["foreign"].items())
        r_rows = _judge_level(claim, ctx, ctx["printed"].subs(ctx["foreign"]))
        details.update({"reading": reading, "reading_judged": r_rows, "reading_verdict": _verdict_of(r_rows)})
    witness = next((r["witness"] for r in rows if r.get("witness")), None)
    lv = ctx["level"]
    evidence = (f"The core's {ctx['definition'].name} level of the channel ({ctx['mech'].name}) on the value "
                f"partition is {lv}; printed {ctx['printed']} (bound: {ctx['bound']}).  Per piece: "
                + "; ".join(f"[{r['when']}] {r['engine']}: {'decided' if r['decided'] is True else 'fails'}"
                            + (f" at {r['witness']['params']} (core on the concrete channel: "
                               f"{r['witness']['engine']} vs printed {r['witness']['printed']})"
                               if r.get("witness") else "") for r in rows)
                + (f".  Reading ({reading}): {details['reading_verdict']}." if reading else "."))
    return _verdict(claim, verdict, exact=str(lv), tight=str(lv) if verdict != "holds" else None,
                    evidence=evidence, reading=reading, witness=witness, details=details)


# -- utilities (ekenstedt2022 eq. 5, eq. 6) -------------------------------------------------------------

def _judge_equal(region, engine, printed, recheck):
    """Decide engine == printed on the region: a point where they differ (re-checked), or a proof."""
    point = _find(region, sympy.Ne(engine, printed))
    if point:
        w = recheck(point)
        if w:
            return {"decided": False, "witness": w}
    decided = _decide(region, sympy.Eq(engine, printed))
    return {"decided": decided, "witness": None}


@checker("math", when=lambda c: _is_channel(c.get("mechanism")))
def check_utility_equation(claim, context=None):
    """A printed utility formula (``U == ...``) against eq. (4) on the exact channel of ``mechanism:``."""
    names, kinds = _symbols(claim)
    defs = _definitions(claim, names, kinds)
    region, subs = _when(claim, names, kinds)
    py = _distribution(names, subs)
    eq = _cond(claim, claim.get("formula"), names)
    if not isinstance(eq, sympy.Eq):
        raise _err(claim, "expected an equation `U == ...`", "write the formula as an equation", key="formula")
    printed = _put(_put(eq.rhs, {names[k]: v for k, v in defs.items()}), subs)
    spec = claim.get("mechanism")
    if not spec or not py:
        raise _err(claim, "a utility claim needs `mechanism:` and the distribution py1, py2, ...",
                   "describe the channel and declare py1, py2")
    mech = channel(claim, spec, names, py)
    engine = bayes_utility(mech, py)

    def recheck(expr):
        def at(point):
            e = sympy.simplify(bayes_utility(mech.subs(point), [sympy.sympify(x).subs(point) for x in py]))
            p = sympy.simplify(expr.subs(point))
            if e == p:
                return None
            relevant = expr.free_symbols | engine.free_symbols
            return {"params": _witness_params(point, relevant), "engine": str(e), "printed": str(p),
                    "engine_float": _fl(e), "printed_float": _fl(p)}
        return at

    res = _judge_equal(region, engine, printed, recheck(printed))
    verdict = _verdict_of([res])
    engine_syms = set(mech.matrix.free_symbols) | set().union(*(sympy.sympify(x).free_symbols for x in py))
    foreign = _foreign(printed, engine_syms, kinds, len(py))
    details = {"judged": res}
    reading = None
    if foreign:
        reading = ", ".join(f"{s} read as {v}" for s, v in foreign.items())
        r_printed = printed.subs(foreign)
        r_res = _judge_equal(region, engine, r_printed, recheck(r_printed))
        details.update({"reading": reading, "reading_judged": r_res, "reading_verdict": _verdict_of([r_res])})
    w = res["witness"]
    evidence = (f"eq. (4) on the exact channel ({mech.name}) gives {eq.lhs} = {engine}.  The printed formula "
                + (f"differs at {w['params']}: channel {w['engine']} = {w['engine_float']} vs printed "
                   f"{w['printed']} = {w['printed_float']} (exact)" if w else
                   f"equals it on the whole region: {res['decided']}")
                + (f".  Reading ({reading}): {details['reading_verdict']}"
                   + (f", differs at {details['reading_judged']['witness']['params']}"
                      if details['reading_judged']['witness'] else "") if reading else "") + ".")
    return _verdict(claim, verdict, exact=f"{eq.lhs} = {engine}", evidence=evidence, reading=reading,
                    witness=w, details=details)


# -- ekenstedt2022 Section V-D ------------------------------------------------------------------------

def _solve_unique_real(claim, eq, sym):
    sols = [s for s in sympy.solve(eq, sym) if s.is_real is not False]
    if len(sols) != 1:
        raise _err(claim, f"{sym}: {len(sols)} real solutions of {eq}", "check the equation")
    return sols[0]


@checker("math", when=lambda c: "values" in c and "claimed" in c)
def check_sec5d(claim, context=None):
    """A printed rounded value (``claimed:`` within ``tolerance:``) of the solution of ``formula:`` at ``values:``."""
    names, kinds = _symbols(claim)
    values = {names[k]: _parse(claim, v, names) for k, v in (claim.get("values") or {}).items()}
    eq = _cond(claim, claim["formula"], names).subs(values)
    (name, text), = (claim.get("claimed") or {}).items()
    sym = names[name]
    exact = _solve_unique_real(claim, eq, sym)
    if isinstance(exact, sympy.log):
        exact = sympy.log(sympy.nsimplify(exact.args[0]))
    claimed = _parse(claim, text, names)
    tol = _parse(claim, claim.get("tolerance", "0"), names)
    inside = _truth(sympy.And(exact - claimed <= tol, claimed - exact <= tol))
    equal = _truth(sympy.Eq(exact, claimed))
    # an independent interval-arithmetic enclosure (mpmath.iv, outward rounding) of a log of a rational
    import mpmath
    enc, interval_ok = None, None
    if isinstance(exact, sympy.log) and exact.args[0].is_Rational and claimed.is_Rational and tol.is_Rational:
        arg = exact.args[0]
        lo_f, hi_f = claimed - tol, claimed + tol
        with mpmath.workprec(80):
            enc = mpmath.iv.log(mpmath.iv.mpf(int(arg.p)) / int(arg.q))
            interval_ok = bool(enc.a >= mpmath.iv.mpf(int(lo_f.p)) / int(lo_f.q)
                               and enc.b <= mpmath.iv.mpf(int(hi_f.p)) / int(hi_f.q))
    verdict = "holds" if inside and interval_ok is not False else ("refuted" if inside is False else "unknown")
    evidence = (f"Solving {claim['formula']} at {claim.get('values')} exactly gives {name} = {exact} = "
                f"{_fl(exact, 10)}; |{name} - {claimed}| <= {tol} is {inside} (exact comparison; interval "
                f"enclosure {enc}: {interval_ok}); {name} = {claimed} exactly is {equal}.")
    return _verdict(claim, verdict, exact=f"{name} = {exact}", evidence=evidence,
                    details={name: str(exact), f"{name}_float": _fl(exact, 12), f"equals_{claimed}_exactly": equal,
                             "interval_enclosure": str(enc), "interval_check": interval_ok})


# -- figures (ekenstedt2022 Fig. 6 and Fig. 7) -------------------------------------------------------------

GRID_STEPS = 200   # witnesses are searched on lo + (hi - lo) i/GRID_STEPS and at z3 models


def _grid(claim, names):
    """``grid:`` -> (interval symbol, lo, hi, {symbol: [values]})."""
    var, lo, hi, values = None, None, None, {}
    for name, spec in (claim.get("grid") or {}).items():
        if name not in names:
            raise _err(claim, f"grid symbol {name!r} is not declared", "declare it in `symbols:`", key="grid")
        if isinstance(spec, dict) and "interval" in spec:
            if var is not None:
                raise _err(claim, "more than one grid interval", "give one interval and lists of values", key="grid")
            var = names[name]
            lo, hi = (_parse(claim, x, names) for x in spec["interval"])
            if _truth(sympy.Lt(lo, hi)) is not True:
                raise _err(claim, f"grid interval [{lo}, {hi}] is empty", "give lo < hi", key="grid")
        elif isinstance(spec, dict) and "values" in spec:
            values[names[name]] = [_parse(claim, x, names) for x in spec["values"]]
        else:
            raise _err(claim, f"grid {name}: {spec!r}", "write `{interval: [lo, hi]}` or `{values: [...]}`", key="grid")
    if var is None:
        raise _err(claim, "a figure claim needs a grid interval", "add `grid: {x: {interval: [lo, hi]}}`", key="grid")
    return var, lo, hi, values


def _register(claim, names):
    for name in list(claim.get("definitions") or {}) + list(claim.get("implicit") or {}):
        names.setdefault(name, sympy.Symbol(name, real=True))


def _expanded(claim, names):
    """``definitions:`` each written in the declared symbols only (definitions substituted in order)."""
    raw = {names[k]: _parse(claim, v, names) for k, v in (claim.get("definitions") or {}).items()}
    for _ in range(len(raw) + 1):
        changed = False
        with sympy.evaluate(False):   # a substitution only; sympy's Max pruning waits for the values
            for sym in raw:
                new = raw[sym].xreplace({s: v for s, v in raw.items() if s != sym})
                changed |= new != raw[sym]
                raw[sym] = new
        if not changed:
            return {str(s): v for s, v in raw.items()}
    raise _err(claim, "the definitions refer to each other in a cycle", "order them by dependency",
               key="definitions")


def _range_conds(claim, names, sym):
    """The ``when`` conditions that mention only ``sym`` (the range of an implicit name)."""
    out = []
    for text in claim.get("when") or []:
        c = _cond(claim, text, names)
        if c.free_symbols == {sym}:
            out.append(c)
    return out


def _solve_implicit(claim, names, sym, eq, region):
    """The solution of ``eq`` for ``sym`` in its range on the whole region (the first candidate that is).

    A side that is a Max is solved term by term; each candidate is checked exactly (sympy, or z3 on
    the region). Returns None when no candidate is a solution everywhere.
    """
    side, target = (eq.rhs, eq.lhs) if sym in eq.rhs.free_symbols else (eq.lhs, eq.rhs)
    terms = list(side.args) if isinstance(side, sympy.Max) else [side]
    cands = []
    for term in terms:
        try:
            cands += [sympy.simplify(s) for s in sympy.solve(sympy.Eq(sympy.together(term), target), sym)]
        except NotImplementedError:
            continue
    rng = _range_conds(claim, names, sym)
    for s in cands:
        if s.is_real is False:
            continue
        cond = sympy.And(*[c.subs(sym, s) for c in rng], sympy.Eq(side.subs(sym, s), target))
        if sympy.simplify(side.subs(sym, s) - target) == 0:
            cond = sympy.And(*[c.subs(sym, s) for c in rng])
        if _is_true(cond) or (not cond.free_symbols and _truth(cond)) or _decide(region, cond) is True:
            return s
    return None


def _needed(claim, names):
    """The definitions a figure claim uses: those in ``formula:``, ``monotone:`` and the calibrated keeps."""
    want = {str(s) for s in _cond(claim, claim.get("formula"), names).free_symbols}
    m = claim.get("monotone")
    if m:
        want |= {str(s) for s in _parse(claim, m.get("expression"), names).free_symbols}
    want |= set((claim.get("channels") or {}).get("calibrate") or {})
    return want


def _printed_curves(claim, names, fix, region, cache=None):
    """The printed quantities (``definitions:`` with ``implicit:`` solved in order) at ``fix``.

    Returns (quantities or None where undefined, the fixed values and the implicit names solved so far).
    """
    if cache is None or "_expanded" not in cache:
        raw = _expanded(claim, names)
        if cache is not None:
            cache["_expanded"] = raw
    raw = cache["_expanded"] if cache is not None else raw
    dsub = {names[k]: v for k, v in raw.items()}
    sub = dict(fix)
    for name, text in (claim.get("implicit") or {}).items():
        eq = _cond(claim, text, names)
        eq = sympy.Eq(eq.lhs.xreplace(dsub).subs(sub), eq.rhs.xreplace(dsub).subs(sub))
        value = None if eq.has(sympy.zoo, sympy.nan) else _solve_implicit(claim, names, names[name], eq, region)
        if value is None:
            return None, sub
        sub[names[name]] = value
    want = _needed(claim, names)
    out = {k: sympy.sympify(v.subs(sub)) for k, v in raw.items() if k in want}
    out.update({str(s): v for s, v in sub.items() if str(s) in (claim.get("implicit") or {})})
    if any(v.has(sympy.zoo, sympy.nan) for v in out.values()):
        return None, sub
    return out, sub


def _distribution_of(claim, ch, names, fix):
    dist = ch.get("distribution")
    if isinstance(dist, dict) and "uniform" in dist:
        n = _parse(claim, dist["uniform"], names).subs(fix)
        if not n.is_Integer:
            raise _err(claim, f"uniform distribution over {n} values", "fix the number of values", key="channels")
        return [R(1, int(n))] * int(n)
    if isinstance(dist, list):
        return [_parse(claim, x, names).subs(fix) for x in dist]
    raise _err(claim, "`channels:` needs `distribution:`", "give a list of frequencies or `{uniform: n}`",
               key="channels")


def _as_read_uniform(size, divisor, keep):
    """Fig. 4's matrix with the printed divisor in place of the number of values (not a channel)."""
    m = sympy.Matrix(size, size, lambda i, j: (keep if i == j else 0) + (1 - keep) / divisor)
    return Mechanism(m, [f"a{i + 1}" for i in range(size)], f"Fig. 4 as read (divisor {divisor})")


def _stages_mech(claim, stages, names, py, fix):
    mech = None
    for st in stages:
        if st.get("values") is not None and str(st.get("fallback")) == "uniform":
            div = _parse(claim, st["values"], names).subs(fix)
            keep = names[str(st["keep"])] if str(st["keep"]) in names else _parse(claim, st["keep"], names)
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
        target = _parse(claim, cal["level"], names).subs(fix).subs(known or {})
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


def _conjuncts(claim, names):
    f = _cond(claim, claim.get("formula"), names)
    rels = list(f.args) if isinstance(f, sympy.And) else [f]
    for r in rels:
        if not isinstance(r, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt, sympy.Eq)):
            raise _err(claim, f"formula part {r} is not a comparison", "write comparisons joined by `and`",
                       key="formula")
    return [_Rel(r.func, r.lhs, r.rhs) for r in rels]


def _decide_split(region, var, rel, lo, hi, parts=20):
    """Decide ``rel`` on the open interval by deciding it on ``parts`` closed sub-intervals (z3 on each)."""
    cuts = [lo + (hi - lo) * R(i, parts) for i in range(parts + 1)]
    for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
        sub = region.add(var >= a if i else var > a, var <= b if i < parts - 1 else var < b)
        if _decide(sub, rel) is not True:
            return None
    return True


class _Rel:
    """A relation ``func(lhs, rhs)`` kept unevaluated (substituting numbers must not lose its sides)."""

    def __init__(self, func, lhs, rhs):
        self.func, self.lhs, self.rhs = func, sympy.sympify(lhs), sympy.sympify(rhs)

    def subs(self, *args):
        return _Rel(self.func, self.lhs.subs(*args), self.rhs.subs(*args))

    def expr(self):
        """The relation as ``func(lhs - rhs, 0)`` (what z3 decides)."""
        return self.func(self.lhs - self.rhs, 0)

    def truth(self):
        return _truth(self.func(sympy.simplify(self.lhs - self.rhs), 0))

    def __str__(self):
        return str(self.func(self.lhs, self.rhs, evaluate=False))


def _point_row(rel, var, x):
    d = sympy.simplify(rel.lhs - rel.rhs)
    return {str(var): str(x), "lhs": str(sympy.simplify(rel.lhs)), "rhs": str(sympy.simplify(rel.rhs)),
            "difference": str(d), "difference_float": _fl(d)}


def _judge_rel(rel, ends, var, lo, hi):
    """Decide a relation in ``var`` on (lo, hi) (z3) and at the end points (``ends``: exact relations, or
    None where the quantities are undefined); on failure the first exact point that breaks it."""
    region = Region({var: "real"}, (var > lo, var < hi))
    cond = rel.expr()
    proved = _decide(region, cond)
    if proved is not True:
        proved = _decide_split(region, var, cond, lo, hi)
    witness = None
    grid = [lo + (hi - lo) * R(i, GRID_STEPS) for i in range(1, GRID_STEPS)]
    if proved is not True:
        pt = _find(region, sympy.Not(cond))
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
    expr = _parse(claim, m.get("expression"), names)
    over = names[str(m.get("over"))]
    direction = str(m.get("direction", "increasing"))
    if direction not in ("increasing", "decreasing"):
        raise _err(claim, f"monotone direction {direction!r}", "use increasing or decreasing", key="monotone")
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
            e = {x: (None if q is None else rel.subs(_utility_subs(names, q))) for x, q in ends[tuple(combo.items())].items()}
            results[key] = _judge_rel(rel.subs(_utility_subs(names, c)), e, var, lo, hi)
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
            rel = _Rel(func, expr.subs(_utility_subs(names, cb)), expr.subs(_utility_subs(names, ca)))
            ea, eb = ends[tuple(a.items())], ends[tuple(b.items())]
            e = {}
            for x in ea:
                if ea[x] is None or eb.get(x) is None:
                    e[x] = None
                else:
                    e[x] = _Rel(func, expr.subs(_utility_subs(names, eb[x])), expr.subs(_utility_subs(names, ea[x])))
            results[key] = _judge_rel(rel, e, var, lo, hi)
    return results


def _utility_subs(names, q):
    return {names[k]: v for k, v in q.items() if k in names and not k.startswith("_")}


def _combos(values):
    keys = list(values)
    return [dict(zip(keys, vs)) for vs in itertools.product(*[values[k] for k in keys])] or [{}]


def _at(curves, var, x):
    """The curves at ``var = x`` by substitution, or None if a value is undefined there."""
    if curves is None:
        return None
    try:
        out = {k: (sympy.simplify(v.subs(var, x)) if isinstance(v, sympy.Basic) else v) for k, v in curves.items()}
    except (ValueError, TypeError, ZeroDivisionError):   # e.g. Min(zoo, ...): undefined there
        return None
    if any(isinstance(v, sympy.Basic) and v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) for v in out.values()):
        return None
    return out


def _pipeline(claim, names, fix, var, lo, hi, combos, which, overrides=None, cache=None):
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
    else:   # the paper's calibration (printed p_LDP, p_t) on the channels
        if printed is None:
            return None, None
        cal = {p: printed[p] for p in (claim.get("channels") or {}).get("calibrate") or {}}
        out = _channel_curves(claim, names, fix, region, cal, overrides, known)
    if out is None:
        return None, None
    return out, out.pop("_calibration", None)


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
    names, kinds = _symbols(claim)
    _register(claim, names)
    var, lo, hi, values = _grid(claim, names)
    fix = {names[k]: _parse(claim, v, names) for k, v in (claim.get("fix") or {}).items()}
    combos = _combos(values)
    judged, extras = {}, {}
    cache = {}
    for which in ("printed", "engine", "paper_calibration"):
        if which != "printed" and not claim.get("channels"):
            continue
        curves, ends, extra = _pipeline(claim, names, fix, var, lo, hi, combos, which, cache=cache)
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
        rv = _reading_row(claim, names, fix, var, lo, hi, combos, cache)
        details.update({"data_reading": rv.details["judged"], "data_reading_verdict": rv.verdict})
        if context is not None:
            context.setdefault("extra_rows", []).append(rv)
    first = next(iter(printed_curves.values()), None)
    exact = None if first is None else "; ".join(f"{k} = {first[k]}" for k in first if k in
                                                  {str(s) for s in (claim.get('implicit') or {})})
    return _verdict(claim, verdict, evidence=evidence, exact=exact, bound=bound,
                    reading="exact channels: eq. (4) on the mechanisms' channels, calibrated by the core's levels",
                    witness=next((v["witness"] for v in judged["printed"].values() if v["witness"]), None),
                    details=details)


def _reading_row(claim, names, fix, var, lo, hi, combos, cache=None):
    rc = claim.get("reading_channels") or {}
    overrides = dict(rc.get("stages") or {})
    which = "engine" if str(rc.get("calibration", "printed")) == "engine" else "paper_calibration"
    curves, ends, _ = _pipeline(claim, names, fix, var, lo, hi, combos, which, overrides, cache)
    res = _judge_curves(claim, names, curves, ends, var, lo, hi, combos)
    return Verdict(id=f"{claim.get('id')}#reading", verdict=_summary(res), printed=str(claim.get("reading")),
                   reading=str(claim.get("reading")), expect=claim.get("reading_expect"), source=claim.get("source"),
                   evidence=(f"The reading's stages {overrides} with the {which.replace('_', ' ')}, decided exactly "
                             f"over {var} in [{lo}, {hi}]: {_describe(res)}."),
                   details={"judged": res})


def figure_curves(cid, which="engine", extra_fix=None):
    """The exact curves of figure claim ``cid`` (symbolic in its grid interval symbol).

    ``which``: ``engine`` (exact channels, core calibration), ``printed``, or ``paper_calibration``.
    """
    from implgraph.io.theorems import load_claims
    claim = next((c for c in load_claims(kinds=("theorems",)) if c.get("id") == cid), None)
    if claim is None:
        raise InputError(f"claim {cid} not found in the theorems data", fix="reinstall the data files")
    names, _ = _symbols(claim)
    _register(claim, names)
    var, lo, hi, _ = _grid(claim, names)
    fix = {names[k]: _parse(claim, v, names) for k, v in (claim.get("fix") or {}).items()}
    fix.update({names[k]: sympy.sympify(v) for k, v in (extra_fix or {}).items()})
    out, _ = _one(claim, names, fix, Region({var: "real"}, (var > lo, var < hi)), which)
    if out is None:
        raise InputError(f"{cid}: the {which} curves are undefined", fix="check the data")
    return out


def _engine_fig6(py1=None):
    """Fig. 6 on the exact channels (symbolic in py1; the argument is kept for the figure command)."""
    return figure_curves("ekenstedt2022/fig-6", "engine")


def _fig6_printed_exprs():
    return figure_curves("ekenstedt2022/fig-6", "printed")


def _engine_fig7(t0, n):
    """Fig. 7 on the exact channels for ``n`` values (symbolic in t0; the argument is kept for the figure command)."""
    return figure_curves("ekenstedt2022/fig-7", "engine", {"n": n})


def _fig7_printed_exprs(n):
    return figure_curves("ekenstedt2022/fig-7", "printed", {"n": n})


def fig6_curves(points, which="engine"):
    """Exact utilities of Fig. 6 at each p_y(a1) in ``points``."""
    py1 = sympy.Symbol("py1", real=True)
    ex = figure_curves("ekenstedt2022/fig-6", which)
    return [{k: sympy.simplify(ex[k].subs(py1, x)) for k in ("U_LDP", "U_tClo_LDP", "U_tClo")} for x in points]


def fig7_curves(points, n, which="engine"):
    """Exact utilities of Fig. 7 at each t0 in ``points`` for ``n`` values (uniform p_y)."""
    t0 = sympy.Symbol("t0", real=True)
    ex = figure_curves("ekenstedt2022/fig-7", which, {"n": n})
    return [{k: sympy.simplify(ex[k].subs(t0, x)) for k in ("U_LDP", "U_tClo_LDP", "U_tClo")} for x in points]


# -- domingo-ferrer2015 Section 6 -------------------------------------------------------------------------

@checker("math", when=lambda c: "solution" in c)
def check_sec61(claim, context=None):
    """``formula:`` (an equation) has exactly the printed ``solution:`` on the ``when`` region."""
    names, kinds = _symbols(claim)
    region, _ = _when(claim, names, kinds)
    eq = _cond(claim, claim["formula"], names)
    sol = _cond(claim, claim["solution"], names)
    var = sol.lhs
    sols = sympy.solve(eq, var)
    unique = len(sols) == 1 and sympy.simplify(sols[0] - sol.rhs) == 0
    # the equation is linear in var: unique exactly where its coefficient is non-zero
    poly = sympy.Poly(sympy.together(eq.lhs - eq.rhs).as_numer_denom()[0], var)
    coeff = sympy.factor(poly.coeff_monomial(var)) if poly.degree() == 1 else None
    nonzero = None if coeff is None else (_decide(region, sympy.Ne(coeff, 0)) if coeff.free_symbols else coeff != 0)
    verdict = "holds" if unique and nonzero is True else ("refuted" if sols and not unique else "unknown")
    return _verdict(claim, verdict, exact=f"{var} = {sols[0] if sols else None}",
                    evidence=(f"sympy.solve gives {sols}; the equation is linear in {var} with coefficient "
                              f"(numerator) {coeff}, non-zero on the region {list(region.constraints)}: {nonzero}, "
                              f"so the solution is unique there."),
                    details={"solutions": [str(s) for s in sols], "coefficient": str(coeff)})


def _drop_floor(cond, kinds):
    """For an integer ``a``: ``a <= floor(x)`` <=> ``a <= x`` and ``a > floor(x)`` <=> ``a > x`` (same
    for the mirrored forms), so comparisons of an integer with a floor become comparisons with its argument."""
    cond = sympy.sympify(cond)
    if isinstance(cond, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt)):
        a, b = cond.lhs, cond.rhs
        integer = lambda e: all(kinds.get(s) == "integer" for s in e.free_symbols) and e.is_integer is not False
        if isinstance(b, sympy.floor) and integer(a) and isinstance(cond, (sympy.Le, sympy.Gt)):
            return cond.func(a, b.args[0])
        if isinstance(a, sympy.floor) and integer(b) and isinstance(cond, (sympy.Ge, sympy.Lt)):
            return cond.func(a.args[0], b)
    return cond


@checker("math", when=lambda c: "converse" in c)
def check_sec62(claim, context=None):
    """``formula:`` on the ``when`` region and the ``converse:`` formula on its region, both decided by z3."""
    names, kinds = _symbols(claim)
    defs = _definitions(claim, names, kinds)
    dsub = {names[k]: v for k, v in defs.items()}
    out = {}
    for label, node in (("statement", claim), ("converse", claim.get("converse"))):
        if not node:
            continue
        conds = [_drop_floor(_cond(claim, c, names).subs(dsub), kinds) for c in node.get("when") or []]
        region = Region({s: k for s, k in kinds.items() if s not in dsub}, tuple(conds))
        formula = _cond(claim, node["formula"], names).subs(dsub)
        decided = _decide(region, formula)
        point = _find(region, sympy.Not(formula)) if decided is not True else None
        try:
            fails = bool(point) and _truth(sympy.Not(formula).subs(point)) is True
        except TypeError:   # undefined at the point (a division by zero): no witness
            fails = False
        out[label] = {"when": [str(c) for c in conds], "formula": str(formula), "decided": decided,
                      "witness": _witness_params(point) if fails else None}
    verdict = _verdict_of([{"decided": v["decided"], "witness": v["witness"]} for v in out.values()])
    return _verdict(claim, verdict, exact="; ".join(f"{k}: {v['formula']} on {v['when']}" for k, v in out.items()),
                    evidence=("With k substituted and, for integer l, l <= floor(x) <=> l <= x (and l > floor(x) <=> "
                              "l > x), z3 decides: " + "; ".join(f"{k}: {v['decided']}" for k, v in out.items())
                              + ".  Not shown in Section 6.1 (as the paper claims): b <= k."),
                    witness=next((v["witness"] for v in out.values() if v["witness"]), None), details=out)


def _table1_claim():
    from implgraph.io.theorems import load_claims
    return next((c for c in load_claims(kinds=("theorems",)) if c.get("id") == "domingo-ferrer2015/table-1"), None)


def _diagonal_table(claim, names, at):
    """The printed table at ``at``: ``size`` classes, class i holding ``diagonal`` in bucket i, ``off_diagonal`` elsewhere."""
    from implgraph.core.table import table_from_rows
    lay = claim.get("layout") or {}
    size = _parse(claim, lay.get("size"), names).subs(at)
    if not size.is_Integer or size < 1:
        raise _err(claim, f"table size {size}", "give a positive integer size", key="layout")
    diag = _parse(claim, lay.get("diagonal"), names).subs(at)
    off = _parse(claim, lay.get("off_diagonal"), names).subs(at)
    rows = [[diag if i == j else off for i in range(int(size))] for j in range(int(size))]
    return table_from_rows(rows, classes=[f"E{j + 1}" for j in range(int(size))]), int(size)


@checker("math", when=lambda c: "layout" in c)
def check_table1(claim, context=None):
    """A printed table symbolic in a parameter (``layout:``): rows are distributions and their mean is the
    printed ``reference`` (symbolic identities), and the core's optimal level of the table equals the
    printed ``level`` at each ``grid`` value (the number of buckets depends on the parameter)."""
    names, kinds = _symbols(claim)
    lay = claim.get("layout") or {}
    size = _parse(claim, lay.get("size"), names)
    diag, off = (_parse(claim, lay.get(k), names) for k in ("diagonal", "off_diagonal"))
    ref = _parse(claim, lay.get("reference"), names)
    row_sum = sympy.simplify(diag + (size - 1) * off)
    mean_ok = sympy.simplify((diag + (size - 1) * off) / size - ref) == 0
    printed = _parse(claim, claim.get("level"), names)
    definition = str(claim.get("definition"))
    (gname, gspec), = (claim.get("grid") or {}).items()
    inst, bad = {}, []
    for v in gspec.get("values") or []:
        at = {names[gname]: _parse(claim, v, names)}
        table, _ = _diagonal_table(claim, names, at)
        lv = optimal_level(table, definition).value
        inst[str(at[names[gname]])] = str(lv)
        if _truth(sympy.Eq(lv, printed.subs(at))) is not True:
            bad.append({gname: str(at[names[gname]]), "core": str(lv), "printed": str(printed.subs(at))})
    ok = row_sum == 1 and mean_ok
    verdict = "refuted" if bad or not ok else "verified-bounded"
    return _verdict(claim, verdict, exact=f"level {printed}", bound=f"{gname} in {{{', '.join(inst)}}}",
                    evidence=(f"Each class row sums to {row_sum}; the mean of the rows equals the printed reference "
                              f"{ref}: {mean_ok} (symbolic in {gname}); the core's {definition} level of the table "
                              f"at each {gname}: {inst} (printed {printed})."),
                    witness=bad[0] if bad else None, details={"instances": inst, "row_sum": str(row_sum),
                                                              "reference_is_mean": mean_ok})
