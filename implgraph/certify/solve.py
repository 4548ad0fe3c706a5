"""Discharging the checker's obligations: identities exactly, inequalities by an exact argument first.

A multiplier claim ``target = sum(lambda_i * fact_i)`` is a polynomial identity, checked exactly in
the certificate's ring. An inequality ``p >= 0`` over the domain (a claimed ``lambda_i >= 0``, or an
obligation without multipliers) is proved by :func:`implgraph.certify.positive.nonnegative`
(nonnegative coefficients after shifting every variable by a lower bound of the hypotheses; exact
and printed). Only when that argument does not apply are the solvers asked: the negation (domain,
hypotheses, ``p < 0``) must be unsatisfiable. Every available backend of :mod:`implgraph.solvers`
(z3 and cvc5) is asked, first with the integer symbols relaxed to reals (a larger set: unsat there
is unsat for the integers), then exactly; the inequality holds when some backend proves it and none
finds a counterexample. The answers of each backend are kept in the report, so the solver a step
rests on is named.
"""

from __future__ import annotations

import sympy

from implgraph.certify.positive import nonnegative
from implgraph.solvers import backends, get_backend
from implgraph.core.backends import Untranslatable
from implgraph.solvers.sympy_front import check_sympy

__all__ = ["refute", "discharge", "prove_nonnegative"]


def refute(constraints, kinds, timeout_ms=5000):
    """Is the conjunction unsatisfiable? ``(ok, {backend: answer})``."""
    answers = {}
    for i, name in enumerate(backends("check")):
        status = "unknown"
        if i:       # the second opinion: a shorter budget once the first backend has answered
            timeout_ms = min(timeout_ms, 1500)
        for relax in (True, False):
            try:
                status, _model, exact = check_sympy(get_backend(name), constraints, kinds, timeout_ms,
                                                    relax_integers=relax)
            except Untranslatable:
                status = "untranslatable"
                break
            if status == "unsat":
                break
            if status == "sat" and (relax or not exact):
                status = "sat (relaxed)"      # not a counterexample: try the exact encoding
                continue
            break
        answers[name] = status
    ok = any(a == "unsat" for a in answers.values()) and not any(a == "sat" for a in answers.values())
    return ok, answers


def _answers_text(answers):
    return ", ".join(f"{k}: {v}" for k, v in answers.items())


def prove_nonnegative(p, hypotheses, domain, strict=False, timeout_ms=5000):
    """``(ok, how)``: ``p >= 0`` (``> 0``) on the domain under ``hypotheses`` (``[(op, g)]``)."""
    sub = nonnegative(p, domain.atoms + list(hypotheses), strict)
    if sub == "constant":
        return True, "a constant"
    if sub:
        return True, f"nonnegative coefficients after {sub} (exact)"
    rd = domain.reader
    e = rd.to_sympy(p)
    rel = {">=": sympy.Ge, ">": sympy.Gt, "==": sympy.Eq}
    hyps = [rel[op](rd.to_sympy(g), 0) for op, g in hypotheses]
    ok, answers = refute(domain.sympy_relations() + hyps + [e <= 0 if strict else e < 0], domain.sympy_kinds(),
                         timeout_ms)
    return ok, f"negation unsatisfiable ({_answers_text(answers)})" if ok else \
        f"not proved ({_answers_text(answers)})"


def discharge(ob, domain, timeout_ms=5000):
    """``(ok, how)`` for one :class:`implgraph.certify.kernel.Obligation` over a
    :class:`implgraph.certify.domain.Domain`."""
    if not ob.multipliers:
        return prove_nonnegative(ob.target, ob.hypotheses, domain, ob.strict, timeout_ms)
    unknown = set(ob.multipliers) - set(ob.facts or {})
    if unknown:
        return False, f"multipliers name unknown facts {sorted(unknown)}"
    residue = ob.target - sum((lam * ob.facts[k] for k, lam in ob.multipliers.items()), ob.target.ring.zero)
    if residue:
        return False, f"target - sum(multiplier * fact) = {residue}, not 0"
    hows = []
    for k, lam in ob.multipliers.items():
        ok, how = prove_nonnegative(lam, ob.hypotheses, domain, False, timeout_ms)
        if not ok:
            return False, f"multiplier {lam} of {k} not shown >= 0 ({how})"
        hows.append(f"{k}: {lam} >= 0 ({how})")
    return True, "identity target = sum(multiplier * fact) (exact); " + "; ".join(hows)
