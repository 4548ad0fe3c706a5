"""Discharging the checker's obligations: identities by sympy, inequalities by two solvers.

An inequality ``target >= 0`` over the domain is proved when the negation (domain, hypotheses,
``target < 0``) is unsatisfiable. Every available backend of :mod:`implgraph.solvers` (z3 and cvc5)
is asked, first with the integer symbols relaxed to reals (a larger set: unsat there is unsat for
the integers), then exactly; the obligation holds when some backend proves it and none finds a
counterexample. The answers of each backend are kept in the report, so the solver a step rests on
is named. With multipliers, ``target - sum(lambda_i * fact_i)`` must expand to 0 (sympy, exact) and
each ``lambda_i >= 0`` is proved the same way.
"""

from __future__ import annotations

import sympy

from implgraph.solvers import backends, get_backend
from implgraph.solvers.sympy_front import Untranslatable, check_sympy

__all__ = ["refute", "discharge"]


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


def discharge(ob, domain, kinds, timeout_ms=5000):
    """``(ok, how)`` for one :class:`implgraph.certify.kernel.Obligation` over ``domain``."""
    kinds = {**kinds, **ob.variables}
    if ob.multipliers:
        unknown = set(ob.multipliers) - set(ob.facts or {})
        if unknown:
            return False, f"multipliers name unknown facts {sorted(unknown)}"
        residue = sympy.expand(ob.target - sum(lam * ob.facts[k] for k, lam in ob.multipliers.items()))
        if residue != 0:
            return False, f"target - sum(multiplier * fact) = {residue}, not 0"
        hows = []
        for k, lam in ob.multipliers.items():
            free = lam.free_symbols - set(kinds)
            if free:
                return False, f"multiplier of {k} has undeclared symbols {sorted(map(str, free))}"
            if lam.is_number:
                if lam < 0:
                    return False, f"multiplier of {k} is negative ({lam})"
                continue
            ok, answers = refute(list(domain) + list(ob.hypotheses) + [lam < 0], kinds, timeout_ms)
            if not ok:
                return False, f"multiplier {lam} of {k} not shown >= 0 ({_answers_text(answers)})"
            hows.append(f"{k}: {lam} >= 0 ({_answers_text(answers)})")
        return True, "identity target = sum(multiplier * fact) (sympy); " + ("; ".join(hows) or "constant multipliers")
    neg = ob.target <= 0 if ob.strict else ob.target < 0
    ok, answers = refute(list(domain) + list(ob.hypotheses) + [neg], kinds, timeout_ms)
    return ok, f"negation unsatisfiable ({_answers_text(answers)})" if ok else \
        f"not proved ({_answers_text(answers)})"
