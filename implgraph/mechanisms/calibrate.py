"""Levels of mechanisms and the calibration of their keep probabilities, by the core's exact levels.

:func:`mechanism_level` is the core's :func:`~implgraph.definitions.levels.optimal_level` of a mechanism's
output table on a data set; :func:`exact_level` the same over the value partition (the worst partition
of a per-record channel).  :func:`calibrate_keep` finds the largest keep probability whose level is at
most a target, and :func:`keep_for_level` applies it to a family of channels for a definition the
caller names (the claim data, the CLI or a test; nothing here knows a definition by name).
"""

from __future__ import annotations

import dataclasses

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.definitions.levels import optimal_level
from implgraph.core.region import Region
from implgraph.mechanisms.channels import Mechanism, _num
from implgraph.mechanisms.datasets import Dataset, value_partition
from implgraph.core.simplified import simplified, solved

__all__ = ["mechanism_level", "exact_level", "calibrate_keep", "keep_for_level"]


def mechanism_level(mechanism: Mechanism, dataset: Dataset, definition: str, **params):
    """The optimal level of ``definition`` on the mechanism's output table (the core, exact); memoised by the output
    table's rows, buckets and region, the definition and the parameters (a claim and a figure's curve ask for the
    same channel's level), each caller getting its own copy of the level and of its list of pieces."""
    table = mechanism.apply(dataset)
    try:
        key = (tuple(table.blocks), tuple(table.buckets), table.region.constraints, table.region._kinds_key,
               definition, tuple(sorted(params.items())))
        hit = _LEVELS.get(key)
    except TypeError:           # an unhashable parameter: not memoised
        return optimal_level(table, definition, **params)
    if hit is None:
        if len(_LEVELS) >= 1000:
            _LEVELS.clear()
        hit = _LEVELS[key] = optimal_level(table, definition, **params)
    return dataclasses.replace(hit, params=dict(hit.params), pieces=list(hit.pieces))


#: the levels :func:`mechanism_level` computed, by output table, definition and parameters
_LEVELS: dict = {}


def _level_pieces(level):
    return [(p.condition, p.value) for p in level.pieces]


def _decide(region, cond):
    try:
        return region.decide(cond)
    except Exception:  # an untranslatable condition: unknown, never a proof
        return None


def exact_level(mech: Mechanism, py, definition: str, **params):
    """The core's optimal level of ``definition`` on the channel's output over the value partition."""
    weights = py if py else [1] * mech.n
    return mechanism_level(mech, value_partition(weights, mech.values), definition, **params)


def calibrate_keep(level, target_raw, var, region):
    """The largest keep probability ``var`` whose level (raw) is at most ``target_raw``.

    The candidates solve ``piece value == target`` for each piece of the core's level; their minimum is
    returned with the decision (exact, or z3 on the whole region: True, False, or None if not decided)
    that the level there is at most the target. It is the largest such value when every piece grows
    with ``var`` (true of the keep probabilities of Fig. 4 and Fig. 5: each ratio of the channel's rows
    grows as less mass is redistributed). Returns (value, decided) or (None, None).
    """
    sols = []
    for _, v in _level_pieces(level):
        if v is None or v is sympy.oo or var not in sympy.sympify(v).free_symbols:
            continue
        try:
            found = solved(sympy.Eq(sympy.together(v), target_raw), var)
        except NotImplementedError:
            continue
        sols += [simplified(s) for s in found if s.is_real is not False]
    if not sols:
        # the level does not depend on var: every keep probability in [0, 1] reaches at most the level
        consts = [sympy.sympify(v) for _, v in _level_pieces(level) if v is not None and v is not sympy.oo]
        if consts and all(not v.free_symbols and bool(v <= target_raw) for v in consts):
            return sympy.Integer(1), True
        return None, None
    value = sympy.Min(*sols)
    checks = [sympy.Or(sympy.Not(sympy.sympify(c).subs(var, value)),
                       sympy.sympify(v).subs(var, value) <= target_raw if v is not None else sympy.false)
              for c, v in _level_pieces(level)]
    checks.append(value >= 0)
    cond = sympy.And(*checks)
    if not cond.free_symbols:
        return value, cond is sympy.true
    return value, _decide(region, cond)


def keep_for_level(mech_of, definition: str, level, py=None):
    """The largest keep probability ``p`` whose channel ``mech_of(p)`` has at most ``level`` for
    ``definition`` over the value partition of ``py`` (the core, exact).

    Parameters
    ----------
    mech_of : callable
        ``p -> Mechanism`` (e.g. ``lambda p: randomised_response(n, p)``).
    definition : str
        A registered definition (from the claim data or the CLI).
    level
        The target level in the definition's units.
    py : list, optional
        Value frequencies (default: uniform).

    Raises
    ------
    InputError
        A level outside the definition's domain, or no keep probability reaching it.
    """
    d = definitions.get(definition)
    level = _num(level)
    sym = sympy.Symbol(d.level_symbol, real=True)
    for cond in d.level_scale.domain(sym):
        if level.is_number and cond.subs(sym, level) is sympy.false:
            raise InputError(f"{d.level_symbol} = {level} < {cond.rhs}", fix=f"a level of {d.name} satisfies {cond}")
    p = sympy.Symbol("p_keep", real=True)
    lv = exact_level(mech_of(p), py, d.name)
    value, ok = calibrate_keep(lv, d.raw_from_level(level), p, Region({}, ()))
    if value is None or ok is False:
        raise InputError(f"no keep probability reaches the {definition} level {level}",
                         fix="choose another target level")
    return sympy.nsimplify(value) if value.is_number else value
