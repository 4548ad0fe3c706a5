"""A ground distance's cost is a metric for every number of values, proved exactly by cases (the checker's own).

A certificate that rests on the earth mover's distance being positively homogeneous along a segment (true for a metric
ground distance, false otherwise) names its grounds, each with its cost ``d(i, j)`` between the values ``i`` and ``j``
(integer indices ``0 <= i, j < K``) of a domain of ``K`` values, as a formula in ``i``, ``j``, ``K`` (read by the
project's formula reader: nothing is evaluated). :func:`metric_steps` proves, for every ``K >= 2``:

- ``d(i, j) >= 0``, ``d(i, i) = 0``, ``d(i, j) = d(j, i)``, and the triangle inequality
  ``d(k, j) <= d(k, i) + d(i, j)``;

by cases on the 13 weak orderings of ``(i, j, k)``. In each, the indices are written over variables that are >= 0: the
smallest is ``m_``, each next one ``1 + e_`` above the one before (``e1_``, ``e2_``; indices are integers, so a strict
step is at least 1), and ``K = top + 1 + f_`` (every index below K), with ``top + f_ >= 1`` (K >= 2). Every
case covers all integer placements (and more), so a sign proved on it holds for all of them. The cost's ``Abs`` is
resolved by the sign of its argument, ``Piecewise`` (and ``KroneckerDelta``) by the truth of its conditions (``Eq``,
``Ne``, ``<``, ``<=``, ``>``, ``>=`` of a difference), each decided from the difference's expansion over those
variables: 0, or all coefficients of one sign (a nonzero constant of that sign where strict). Anything else, or a sign
not so decided, is not resolved: the step fails. The identities are exact (``sympy.cancel``); the signs are
:meth:`implgraph.certify.lemmas.proof.Proof.sign` (a rational number decided at once; otherwise the denominator > 0 and
the numerator >= 0 over the variables' bounds, exact first).

Example: the cost ``4 (i - j)^2 - 3 |i - j|`` (over three values: 1 between neighbours, 10 between the ends) is >= 0,
0 on the diagonal and symmetric, but with ``k < i < j`` one step apart it gives ``d(k, i) + d(i, j) - d(k, j) =
-8 (1 + e1_)(1 + e2_) < 0``: not a metric.
"""

from __future__ import annotations

import itertools

import sympy

__all__ = ["metric_steps", "ground_steps", "ORDERINGS", "METRIC_VARIABLES"]

#: the cases' variables (each >= 0): the smallest index, the two extra gaps, K's room above the largest index
METRIC_VARIABLES = {"m_": "real", "e1_": "real", "e2_": "real", "f_": "real"}
_M, _E1, _E2, _F = (sympy.Symbol(n) for n in METRIC_VARIABLES)
_NAMES = {n: sympy.Symbol(n) for n in ("i", "j", "K")}
#: the weak orderings of (i, j, k): each index's rank (0 the smallest), the ranks used 0..r-1
ORDERINGS = tuple(r for r in itertools.product(range(3), repeat=3) if sorted(set(r)) == list(range(len(set(r)))))
#: the most grounds one certificate may name
MAX_GROUNDS = 8
_RELATIONS = (sympy.Eq, sympy.Ne, sympy.StrictLessThan, sympy.LessThan, sympy.StrictGreaterThan, sympy.GreaterThan)


class Unresolved(ValueError):
    """A cost outside what the cases resolve (a function other than Abs, Piecewise, KroneckerDelta; a sign not
    decided)."""


def _sign(expr) -> int:
    """-1, 0 or 1: the sign of ``expr`` (0 only when identically 0), where all coefficients of its expansion over the
    variables share one sign; >= 0 and <= 0 count as 1 and -1 unless strictly so is needed (see :func:`_strict`)."""
    poly = sympy.Poly(sympy.expand(expr), _M, _E1, _E2, _F)
    coeffs = poly.coeffs()
    if not all(c.is_Rational for c in coeffs):
        raise Unresolved(f"the sign of {expr} is not decided")
    if poly.is_zero:
        return 0
    if all(c >= 0 for c in coeffs):
        return 1
    if all(c <= 0 for c in coeffs):
        return -1
    raise Unresolved(f"the sign of {expr} is not decided by its coefficients")


def _strict(expr) -> int:
    """-1 or 1 where ``expr`` is < 0 or > 0 everywhere (its constant term nonzero, of the coefficients' sign), else 0
    where identically 0; Unresolved otherwise."""
    s = _sign(expr)
    const = sympy.expand(expr).subs({_M: 0, _E1: 0, _E2: 0, _F: 0})
    if s == 0 or (const != 0 and (const > 0) == (s > 0)):
        return s
    raise Unresolved(f"{expr} is not strictly of one sign")


def _holds(cond, at) -> bool:
    """The truth of a Piecewise condition at the case ``at``."""
    if cond in (sympy.true, True):
        return True
    if cond in (sympy.false, False):
        return False
    if not isinstance(cond, _RELATIONS):
        raise Unresolved(f"the condition {cond} is not a comparison")
    s = _strict(_resolve(cond.lhs, at) - _resolve(cond.rhs, at))
    return {sympy.Eq: s == 0, sympy.Ne: s != 0, sympy.StrictLessThan: s < 0, sympy.LessThan: s <= 0,
            sympy.StrictGreaterThan: s > 0, sympy.GreaterThan: s >= 0}[type(cond)]


def _resolve(e, at):
    """The cost ``e`` with its indices placed as ``at`` says, Abs and Piecewise resolved (a rational function)."""
    if e.is_Symbol:
        if e not in at:
            raise Unresolved(f"the name {e} is none of i, j, K")
        return at[e]
    if e.is_Rational:
        return e
    if isinstance(e, sympy.Abs):
        inner = _resolve(e.args[0], at)
        return inner if _sign(inner) >= 0 else -inner
    if isinstance(e, sympy.KroneckerDelta):
        return sympy.Integer(1 if _strict(_resolve(e.args[0], at) - _resolve(e.args[1], at)) == 0 else 0)
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _holds(cond, at):
                return _resolve(value, at)
        raise Unresolved(f"no piece of {e} holds")
    if isinstance(e, (sympy.Add, sympy.Mul)):
        return e.func(*(_resolve(a, at) for a in e.args))
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        return _resolve(e.base, at) ** e.exp
    raise Unresolved(f"{type(e).__name__} in the cost is not resolved by the cases")


def _case(ranks):
    """``(positions of i, j, k, K)`` over the case's variables, and ``top + f_ - 1`` (>= 0: K >= 2)."""
    steps = [_M, 1 + _E1, 1 + _E2]
    pos = [sum(steps[:r + 1], sympy.Integer(0)) for r in ranks]
    top = sum(steps[:max(ranks) + 1], sympy.Integer(0))
    return pos, top + 1 + _F, top + _F - 1


def _costs(cost, ranks):
    """``d(x, y)`` for x, y in {i, j, k} (by position 0, 1, 2) at the case ``ranks``, and the case's K >= 2 fact."""
    pos, big_k, k_fact = _case(ranks)
    d = {}
    for x, y in itertools.product(range(3), repeat=2):
        at = {_NAMES["i"]: pos[x], _NAMES["j"]: pos[y], _NAMES["K"]: big_k}
        d[x, y] = sympy.cancel(_resolve(cost, at))
    return d, k_fact


def _nonnegative(pf, expr, k_fact):
    """``(ok, how)``: ``expr >= 0`` over the case (a rational number decided at once)."""
    expr = sympy.cancel(expr)
    if expr.is_Rational:
        return expr >= 0, f"{expr}"
    hyps = [(">=", pf.poly(str(v))) for v in (_M, _E1, _E2, _F)] + [(">=", pf.poly(str(k_fact)))]
    return pf.sign(str(expr), False, hyps)


def metric_steps(pf, name, text):
    """Add to the :class:`~implgraph.certify.lemmas.proof.Proof` ``pf`` (built with :data:`METRIC_VARIABLES`) the
    steps proving the ground ``name``'s cost ``text`` a metric for every K >= 2 (module notes); True if all hold."""
    from implgraph.certify.expr import Unreadable, read_sympy
    head = f"ground {name} (d(i, j) = {text}): "
    try:
        cost = read_sympy(text, _NAMES)
        cases = [(ranks, *_costs(cost, ranks)) for ranks in ORDERINGS]
    except (Unreadable, Unresolved, TypeError, ValueError, sympy.PolynomialError) as exc:
        return pf.add(head + "the cost resolved on the 13 weak orderings of (i, j, k)", False, str(exc)[:200])
    pf.add(head + "the cost resolved on the 13 weak orderings of (i, j, k) (Abs by sign, pieces by their "
           "conditions)", True, "exact")
    checks = (("d(i, j) >= 0", lambda d: d[0, 1], True), ("d(i, i) = 0", lambda d: d[0, 0], False),
              ("d(i, j) = d(j, i)", lambda d: d[0, 1] - d[1, 0], False),
              ("the triangle inequality d(k, j) <= d(k, i) + d(i, j)", lambda d: d[2, 0] + d[0, 1] - d[2, 1], True))
    ok = True
    for what, term, is_sign in checks:
        fails = []
        for ranks, d, k_fact in cases:
            expr = sympy.cancel(term(d))
            good, how = _nonnegative(pf, expr, k_fact) if is_sign else (expr == 0, f"{expr}")
            if not good:
                fails.append(f"ranks of (i, j, k) {ranks}: {expr} ({how})")
        ok &= pf.add(head + what + " for every K >= 2, by the 13 weak orderings of (i, j, k)", not fails,
                     "; ".join(fails)[:300] or ("exact" if not is_sign else "every case >= 0"))
    return ok


def ground_steps(pf, B, definition, timeout_ms=4000) -> bool:
    """The steps of B's ground distances (``B["grounds"]``: ``{name: cost}``): named, each the cost B's registered
    ``definition`` declares for it (its :class:`~implgraph.definitions.capability_grounds.GroundDistances`), and
    each a metric for every K >= 2 (:func:`metric_steps`, on a Proof of its own variables sharing ``pf``'s budget)."""
    from implgraph.certify.expr import Unreadable, read_sympy
    from implgraph.certify.lemmas.proof import Proof
    from implgraph.definitions.capability_grounds import GroundDistances
    grounds = B.get("grounds")
    named = (isinstance(grounds, dict) and 0 < len(grounds) <= MAX_GROUNDS
             and all(isinstance(v, str) for v in grounds.values()))
    if not pf.add("B names its ground distances, each with its cost d(i, j) over K values", named,
                  f"grounds: {str(grounds)[:120]}" if named else "the certificate names no ground distance "
                  "(the closeness rests on the ground being a metric)"):
        return False
    declared = definition.declared(GroundDistances) if definition is not None else None
    wrong = []
    for name, text in grounds.items():
        mine = declared.formula(name) if declared is not None else None
        try:
            same = mine is not None and read_sympy(text, _NAMES) == read_sympy(mine, _NAMES)
        except Unreadable:
            same = False
        if not same:
            wrong.append(f"{name}: the certificate's {text!r}, the definition's {mine!r}")
    ok = pf.add("each ground is one B's definition declares, with the cost it declares", not wrong,
                "; ".join(wrong)[:300] or ", ".join(grounds))
    for name, text in grounds.items():
        sub = Proof({"symbols": {}, "domain": []}, METRIC_VARIABLES, timeout_ms, budget=pf.budget)
        ok &= metric_steps(sub, name, text)
        pf.steps.extend(sub.steps)
    return ok


def covers_claim(params, B, definition):
    """``(what, ok, how)``: the certificate's grounds cover the claim's: the ground its ``params`` state (a name B's
    definition declares), else every ground the definition declares."""
    from implgraph.definitions.capability_grounds import GroundDistances
    declared = definition.declared(GroundDistances) if definition is not None else None
    need = declared.covered(params) if declared is not None else []
    have = list(B.get("grounds") or {}) if isinstance(B.get("grounds"), dict) else []
    return ("the certificate's grounds cover the claim's (its stated ground, else every ground B declares)",
            bool(need) and set(need) <= set(have),
            f"the claim's ground: {' or '.join(need) or 'none declared'}; the certificate: {', '.join(have) or 'none'}")
