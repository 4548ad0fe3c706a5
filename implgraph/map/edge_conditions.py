"""The conditions an edge of the definitions level holds under (:mod:`implgraph.map.drawing`).

:func:`condition_relations`: the sides' fixed parameters (``k = 1``, classes of at least k records) and the
rule's ``when`` without what the definitions declare anyway (each parameter's range, ``N >= 2``) and the
levels' domain; :func:`conditions` as labels; :func:`holds` says how generally the edge holds.
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.map.labels import math
from implgraph.map.rules import N_SYM

__all__ = ["condition_relations", "conditions", "holds"]


def _definition(family: str):
    try:
        return definitions.get(family.replace("@class", ""))
    except InputError:
        return None


def _ranges(endpoint) -> list:
    """The declared ranges of an endpoint's parameters, at its parameter expressions (sympy relations)."""
    d = _definition(endpoint.family)
    if d is None:
        return []
    if d.needs_classes:      # a class has between 1 and N records
        return [r for v in (dict(endpoint.params).get("k"), dict(endpoint.params).get("max")) if v is not None
                for r in (sympy.sympify(v) >= 1, sympy.sympify(v) <= N_SYM)
                if isinstance(r, sympy.core.relational.Relational)]
    params = {k: v for k, v in endpoint.params if k in getattr(d, "ranges", {})}
    try:
        return [r for r in d.param_ranges(N_SYM, **params) if isinstance(r, sympy.core.relational.Relational)] \
            if len(params) == len(getattr(d, "ranges", {})) else []
    except (KeyError, TypeError, ValueError):
        return []


def _readable(rel):
    """``2 <= k`` as ``k >= 2``: a number on the left goes to the right."""
    if isinstance(rel, sympy.core.relational.Relational) and rel.lhs.is_number and not rel.rhs.is_number:
        return rel.reversed
    return rel


def condition_relations(rule) -> list:
    """The conditions an edge of the definitions level holds under (sympy relations): the sides' fixed
    parameters (``k = 1``, classes of at least k records ``|E| >= k``), then the rule's ``when`` without
    what the definitions declare anyway (each parameter's range, ``N >= 2``) and the levels' domain."""
    out = []
    for side in (rule.a, rule.b):
        d = _definition(side.family)
        params = dict(side.params)
        if d is not None and d.needs_classes:
            E = sympy.Abs(sympy.Symbol("E"))
            low, high = params.pop("k", None), params.pop("max", None)
            if low is not None and high is not None and sympy.simplify(low - high) == 0:
                out.append(sympy.Eq(E, low, evaluate=False))
            else:
                if low is not None and low != 1:
                    out.append(sympy.Ge(E, low, evaluate=False))
                if high is not None:
                    out.append(sympy.Le(E, high, evaluate=False))
        for name, value in params.items():
            value = sympy.sympify(value)
            if not value.is_Symbol:
                out.append(sympy.Eq(sympy.Symbol(name), value, evaluate=False))
    declared = {r.canonical for side in (rule.a, rule.b) for r in _ranges(side)}
    declared.add((N_SYM >= 2).canonical)
    for rel in rule.when:
        if not isinstance(rel, sympy.core.relational.Relational):
            continue
        if rel.canonical in declared or _levels_only(rel, rule):
            continue
        rel = _readable(rel)
        if rel not in out:
            out.append(rel)
    return out


def conditions(rule) -> list:
    """:func:`condition_relations` as labels (math)."""
    return list(dict.fromkeys(math(r) for r in condition_relations(rule)))


def holds(rule) -> str:
    """How generally an edge holds: ``always`` (no condition), ``range`` (inequalities), ``point`` (an
    equality among its conditions: a special case, as ``k = 1`` or singleton classes ``|E| = 1``).
    :mod:`implgraph.map.layout` ranks the nodes by the most general implications first."""
    rels = condition_relations(rule)
    if not rels:
        return "always"
    return "point" if any(isinstance(r, sympy.Eq) for r in rels) else "range"


def _levels_only(rel, rule) -> bool:
    """True for a condition on the levels alone (``eps >= 0``): the levels' domain, not drawn."""
    kinds = {str(s): k for s, k in (rule.kinds or {}).items()}
    return all(kinds.get(s.name) == "real" for s in rel.free_symbols)
