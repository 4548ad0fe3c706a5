"""Certificates of sei2019's claims about the randomized set channel and of the transportation program's convexity.

Each builder turns a claim the checkers prove (:mod:`implgraph.checks.set_channel`, :mod:`implgraph.checks.lp_convexity`)
into the JSON that :mod:`implgraph.certify.lemmas` re-checks without the engines: the claim's symbols and conditions
(every ``when`` condition, equalities included), the channel's parameters, and the argument's data. The closed forms of
the closeness argument (:data:`CLOSENESS_FORMS`) are those :mod:`implgraph.mechanisms.randomized_anonymization.facts`
proves, written over the checker's variables.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import without_units
from implgraph.definitions.capability_grounds import GroundDistances

__all__ = ["diversity_certificate", "whole_domain_certificate", "transport_certificate", "closeness_certificate",
           "CLOSENESS_FORMS"]

FORMAT = "implgraph-certificate/1"

#: the closeness argument's closed forms (facts.posterior_direction, distance_increases_in_p, closed_form_root) over
#: the checker's variables: p_, h_ (eta), d_, a_ (the released set's prior mass a_Z), x_, G_
CLOSENESS_FORMS = {"x": "p_*d_/((1 - p_)*h_)", "g": "x_/(1 + a_*x_)", "root": "G_/(1 - a_*G_)",
                   "p_of_root": "x_*h_/(d_ + x_*h_)"}


def _statement(kinds, conditions) -> dict:
    """``{"symbols", "domain"}`` of a claim: its symbols' kinds and every condition (sympy relations) as text."""
    return {"symbols": {str(s): k for s, k in sorted(kinds.items(), key=lambda sk: str(sk[0]))},
            "domain": [str(c) for c in conditions if c not in (sympy.true, True)]}


def _class_level(definition):
    """``(class_level, steps)``: the class level ``definition`` declares, as :mod:`implgraph.certify.lemma_chain`
    names it, and the chain of that module's facts from ``min-entropy`` to it (maps x or ceiling(x)); None when it
    declares none of them."""
    from implgraph.certify.lemma_chain import FACTS, _declares      # the checker's names of the class levels
    for kind in ("min-entropy", "shannon", "support"):
        with without_units():       # its simplify call: no unit in a class level
            declared = _declares(definition.name, kind)
        if declared:
            if kind == "min-entropy":
                return kind, []
            steps = [f for f, (a, b, m) in FACTS.items() if a == "min-entropy" and b == kind and m in ("x", "ceiling(x)")]
            return (kind, steps[:1]) if steps else None
    return None


def diversity_certificate(kinds, conditions, p, eta, size, definition, level):
    """``set-channel-diversity``: every release has ``definition``'s level >= ``level`` (the channel's class counts
    give 1 / max q >= eta); None where the definition's class level is not one the checker names."""
    found = _class_level(definition)
    if found is None:
        return None
    kind, steps = found
    return {"format": FORMAT, "method": methods.SET_CHANNEL_DIVERSITY.name, **_statement(kinds, conditions),
            "channel": {"p": str(p), "eta": str(eta), "domain_size": str(size)},
            "B": {"definition": definition.name, "class_level": kind}, "steps": steps, "level": str(level),
            "upper_certificate": {"multipliers": {"count": {"m_ - n_": str(eta), "s_ - eta*m_": "1"}}}}


def whole_domain_certificate(kinds, conditions, p, eta, size, definition, level):
    """``set-channel-whole-domain``: with eta = d every class's inferred distribution is the prior, at EMD 0."""
    return {"format": FORMAT, "method": methods.SET_CHANNEL_WHOLE_DOMAIN.name, **_statement(kinds, conditions),
            "channel": {"p": str(p), "eta": str(eta), "domain_size": str(size)},
            "B": {"definition": definition.name, "inference": "bayes"}, "level": str(level)}


def transport_certificate(kinds, conditions, formula, lam, convex_in):
    """``transport-mixture`` for a claim ``formula`` (``mixed <= (1 - lam) D1 + lam D2``, a sympy relation) about a
    transportation program mixed with weights ``1 - lam`` and ``lam``; None when the formula is not that relation."""
    weights = (1 - lam, lam)
    if not isinstance(formula, sympy.LessThan) or not formula.lhs.is_Symbol:
        return None
    rhs = sympy.expand(formula.rhs)
    parts = []
    for w in weights:
        hit = [s for s in rhs.free_symbols - {lam} if sympy.expand(rhs.coeff(s) - w) == 0]
        if len(hit) != 1:
            return None
        parts.append(hit[0])
    return {"format": FORMAT, "method": methods.TRANSPORT_MIXTURE.name, **_statement(kinds, conditions),
            "program": {"convex_in": str(convex_in)}, "weights": [str(w) for w in weights],
            "claim": {"formula": str(formula.lhs) + " <= " + str(formula.rhs), "mixed": str(formula.lhs),
                      "parts": [str(s) for s in parts]}}


def _grounds(definition, params) -> dict:
    """``{name: cost}``: the ground distances the closeness certificate covers, as ``definition`` declares them
    (:class:`~implgraph.definitions.capability_grounds.GroundDistances`): the one ``params`` state, else all; empty
    where it declares none (the checker then rejects the certificate)."""
    declared = definition.declared(GroundDistances)
    if declared is None:
        return {}
    return {n: declared.formula(n) for n in declared.covered(params)}


def closeness_certificate(kinds, conditions, definition, convexity, params=None):
    """``set-channel-closeness``: Algorithm 1 read as its text (the smallest p over the subsets) releases classes within
    t; ``convexity``: the ``transport-mixture`` certificate of the convexity it rests on; ``params``: the claim's
    parameters of B (its ground distance, if it states one). The argument holds for a metric ground distance: B names
    the grounds covered, with their costs, for the checker to prove each a metric."""
    return {"format": FORMAT, "method": methods.SET_CHANNEL_CLOSENESS.name, **_statement(kinds, conditions),
            "channel": {"parameters": "algorithm-1", "reading": methods.ALGORITHM_1_READING},
            "B": {"definition": definition.name, "inference": "bayes", "grounds": _grounds(definition, params)},
            **CLOSENESS_FORMS, "parts": [convexity]}
