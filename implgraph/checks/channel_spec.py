"""The exact channel a claim's ``mechanism:`` describes, and its level at a concrete point.

The truth always comes from computation: the mechanisms' exact channels
(:mod:`implgraph.mechanisms.channels`, built from the claim's description), the core's optimal levels of
the tables they produce and eq. (4) on the channel. What the paper printed comes only from the data.
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import claim_error, parse_in
from implgraph.definitions.levels import optimal_level
from implgraph.mechanisms.channels import (Mechanism, empirical_response, lumped_randomised_response, randomised_response,
                                          sequential)
from implgraph.mechanisms.datasets import value_partition

__all__ = ["is_channel", "channel", "pieces_of", "concrete_channel_level", "foreign_symbols", "values_of"]


MAX_FULL_VALUES = 12   # more values (without a distribution): the exact lumped channel of {Z = a1}


def _stage_list(spec):
    return list(spec) if isinstance(spec, list) else [spec]


def is_channel(spec) -> bool:
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
            raise claim_error(claim, f"mechanism stage {stage!r} needs `keep` and `fallback`",
                       "write e.g. `{keep: p, fallback: uniform}`", key="mechanism")
        keep = names[str(stage["keep"])] if str(stage["keep"]) in names else parse_in(claim, stage["keep"], names)
        fallback = str(stage["fallback"])
        if fallback == "uniform":
            n = sympy.sympify(size if size is not None else
                              (len(py) if py else parse_in(claim, stage.get("values"), names)))
            full = n.is_number and (py or n <= MAX_FULL_VALUES)
            m = randomised_response(int(n), keep) if full else lumped_randomised_response(n, keep)
        elif fallback == "empirical":
            if not py:
                raise claim_error(claim, "an empirical fallback needs the distribution p_y",
                           "declare py1, py2, ... or give `distribution:`", key="mechanism")
            m = empirical_response(py, keep)
        else:
            raise claim_error(claim, f"unknown fallback {fallback!r}", "use uniform or empirical", key="mechanism")
        mech = m if mech is None else sequential(mech, m)
    return mech


def pieces_of(level):
    return [(p.condition, p.value) for p in level.pieces]


def concrete_channel_level(claim, spec, names, py, definition, point):
    """The core's exact level of the concrete channel at a rational ``point`` (a re-check)."""
    py_at = [sympy.sympify(x).subs(point) for x in py] if py else None
    names_at = {k: (sympy.sympify(v).subs(point) if isinstance(v, sympy.Basic) else v) for k, v in names.items()}
    size = None
    for stage in _stage_list(spec):
        if str(stage.get("fallback")) == "uniform" and not py:
            size = parse_in(claim, stage.get("values"), names).subs(point)
    mech = channel(claim, spec, names_at, py_at, size)
    return optimal_level(mech.apply(value_partition(py_at or [1] * mech.n, mech.values)), definition), mech


def foreign_symbols(printed, engine_symbols, kinds, n_expr):
    """Integer symbols of the printed formula that the channel does not have: {symbol: n}."""
    out = {}
    for s in sympy.sympify(printed).free_symbols:
        if s in engine_symbols or kinds.get(s) != "integer" or n_expr is None:
            continue
        if sympy.sympify(n_expr) != s:
            out[s] = n_expr
    return out


def values_of(claim, spec, names):
    for stage in _stage_list(spec):
        if stage.get("values") is not None:
            return parse_in(claim, stage["values"], names)
    return None
