"""Inequalities between declared class levels, shown for a class over a symbolic number ``k`` of values.

A class-based definition may declare its level of one class over ``k`` values
(``class_level_formula`` of a :class:`~implgraph.definitions._classes.GenericClass`: ``q[i] > 0``,
``sum_i q[i] = 1``, ``top = max_i q[i]``). The functions here check an inequality between such levels
for every ``k`` by a term-by-term argument over a generic index ``i`` and return its steps
(``{step: bool}``), or None when a definition declares no level:

- :func:`class_level_steps` -- a level is at least ``1 / max q`` (a weighted geometric mean of the
  ``q_i`` is at most their maximum; e.g. Shannon entropy >= min-entropy);
- :func:`support_steps` -- a level is at least ``exp(H(q))`` where the other level is a count of values
  (Gibbs' inequality ``log k >= H(q)``: Cover & Thomas, Elements of Information Theory, 2nd ed.,
  Theorem 2.6.4), shown from ``x log x - x + 1 >= 0``;
- :func:`uniform_class_level` -- a level at the uniform class ``q_i = 1/k``.

They sit below the engines and the mechanisms (both use them).
"""

from __future__ import annotations

import sympy

from implgraph.core.simplified import simplified
from implgraph.definitions._classes import GenericClass

__all__ = ["class_level_steps", "support_steps", "uniform_class_level", "nonnegative_from_zero", "sum_split"]


def sum_split(expr, cls):
    """``expr = sum_{i=1}^k f(i) + c`` by the linearity of sums: ``(f(i), c)``, or None if ``expr`` has another
    shape (a sum over other limits, or ``q`` outside a sum)."""
    f, c = sympy.Integer(0), sympy.Integer(0)
    for term in sympy.Add.make_args(sympy.expand(expr)):
        factor, sums = term.as_independent(sympy.Sum)
        if term == 0 or sums == 1:
            if term.atoms(sympy.Indexed) or term.has(cls.i):
                return None
            c += term
            continue
        if (not isinstance(sums, sympy.Sum) or len(sums.limits) != 1 or factor.atoms(sympy.Indexed)
                or factor.has(cls.i)):
            return None
        var, low, high = sums.limits[0]
        if (low, high) != (1, cls.k) or factor.has(var):
            return None
        f += factor * sums.function.xreplace({var: cls.i})
    return f, c


def _declared(definition, cls):
    declare = getattr(definition, "class_level_formula", None)
    return None if declare is None else sympy.sympify(declare(cls))


def class_level_steps(definition) -> dict | None:
    """Is a declared class level at least ``1 / max q`` for every number of values ``k``? The argument's steps.

    Both sides being positive, the claim is ``L = log(level) + log(top) >= 0``. ``L`` is split as
    ``sum_{i=1}^k f(i) + c`` with ``c`` free of ``i``; as ``sum_i q[i] = 1``, ``c = sum_i c q[i]``, so
    ``L = sum_{i=1}^k t(i)`` with ``t(i) = f(i) + c q[i]``. Each ``t(i)`` is shown ``>= 0`` for a generic index
    ``i`` on the whole range ``0 < q[i] <= top`` (written ``q[i] = top / (1 + u)``, ``u >= 0``, by sympy's
    assumptions), and a sum of non-negative terms is non-negative. Example (a weighted geometric mean):
    ``level = exp(-sum q[i] log q[i])`` gives ``t(i) = q[i] (log top - log q[i]) = top log(1 + u) / (1 + u)``.

    Returns
    -------
    dict or None
        ``{step: bool}``; None when the definition declares no level for a symbolic ``k``.
    """
    cls = GenericClass()
    level = _declared(definition, cls)
    if level is None:
        return None
    steps = {"level > 0": level.is_positive is True}
    split = sum_split(sympy.expand_log(sympy.log(level) + sympy.log(cls.top)), cls)
    steps["log(level) + log(max q) = sum over i of t(i) (linearity, sum q_i = 1)"] = split is not None
    if split is None:
        steps["t(i) >= 0 for every 0 < q_i <= max q"] = False
        return steps
    f, c = split
    u = sympy.Symbol("u", nonnegative=True)
    term = sympy.expand_log((f + c * cls.q[cls.i]).xreplace({cls.q[cls.i]: cls.top / (1 + u)}))
    forms = (lambda: term, lambda: sympy.factor(term), lambda: simplified(term))   # tried in turn, lazily
    steps["t(i) >= 0 for every 0 < q_i <= max q"] = (not term.atoms(sympy.Indexed) and not term.has(cls.i) and any(
        form().is_nonnegative is True for form in forms))
    return steps


def nonnegative_from_zero(expr, u, depth: int = 2) -> bool:
    """Is ``expr >= 0`` for every ``u >= 0``? By sympy's assumptions on ``u`` (nonnegative), or else from
    ``expr(0) >= 0`` and ``d expr / du >= 0`` (shown the same way, ``depth`` times at most): a function that
    starts non-negative and never decreases stays non-negative. A positive denominator is dropped first."""
    num, den = sympy.fraction(sympy.together(expr))
    if den.is_positive is not True:
        num = expr
    num = sympy.expand(num)
    if num.is_nonnegative is True or simplified(num).is_nonnegative is True:
        return True
    if depth <= 0:
        return False
    start = simplified(num.subs(u, 0))
    return start.is_nonnegative is True and nonnegative_from_zero(sympy.diff(num, u), u, depth - 1)


def _gibbs_term_steps() -> dict:
    """``x log x - x + 1 >= 0`` for every ``x > 0``: on ``x = 1 + u`` and on ``x = 1 / (1 + u)`` (``u >= 0``)."""
    u = sympy.Symbol("u", nonnegative=True)
    x = sympy.Symbol("x", positive=True)
    g = x * sympy.log(x) - x + 1
    above = sympy.expand_log(g.subs(x, 1 + u), force=True)
    below = sympy.expand_log(g.subs(x, 1 / (1 + u)), force=True)
    return {"x log x - x + 1 >= 0 for x = 1 + u >= 1": nonnegative_from_zero(above, u),
            "x log x - x + 1 >= 0 for 0 < x = 1/(1 + u) <= 1": nonnegative_from_zero(below, u)}


def support_steps(count_definition, entropy_definition) -> dict | None:
    """Is the declared class level of ``count_definition`` at least that of ``entropy_definition`` for every ``k``,
    when the first is the number of values ``k`` (an integer) and the second ``exp(H(q))``? The argument's steps.

    ``L = log(k) - log(level) = log k + sum_i q_i log q_i`` is split as ``sum_i f(i) + c``; with ``sum_i q_i = 1``
    (so ``c = sum_i c q_i`` and ``sum_i (q_i - 1/k) = 0``), ``L = sum_i t(i)`` with
    ``t(i) = f(i) + c q_i - (q_i - 1/k)``. Written ``q_i = x / k`` (``x > 0``), ``k t(i) = x log x - x + 1``, which
    is ``>= 0`` (:func:`_gibbs_term_steps`); so ``L >= 0`` (Gibbs' inequality; Cover & Thomas, Theorem 2.6.4).

    Returns
    -------
    dict or None
        ``{step: bool}``; None when either definition declares no level for a symbolic ``k``.
    """
    cls = GenericClass()
    count, level = _declared(count_definition, cls), _declared(entropy_definition, cls)
    if count is None or level is None:
        return None
    steps = {"the count's class level is the number of values k (an integer)":
             simplified(count - cls.k) == 0 and count.is_integer is True,
             "the other class level is positive": level.is_positive is True}
    split = sum_split(sympy.expand_log(sympy.log(count) - sympy.log(level), force=True), cls)
    steps["log(k) - log(level) = sum over i of t(i) (linearity, sum q_i = 1, sum (q_i - 1/k) = 0)"] = \
        split is not None
    if split is None:
        steps["k t(i) = x log x - x + 1 with x = k q_i"] = False
        return steps
    f, c = split
    x = sympy.Symbol("x", positive=True)
    term = (f + c * cls.q[cls.i] - (cls.q[cls.i] - 1 / cls.k)).xreplace({cls.q[cls.i]: x / cls.k})
    gibbs = x * sympy.log(x) - x + 1
    steps["k t(i) = x log x - x + 1 with x = k q_i"] = (
        not term.atoms(sympy.Indexed) and not term.has(cls.i)
        and simplified(sympy.expand_log(sympy.expand(cls.k * term) - gibbs, force=True)) == 0)
    steps.update(_gibbs_term_steps())
    return steps


def uniform_class_level(definition):
    """The declared class level at the uniform class ``q_i = 1/k`` (``max q = 1/k``), in terms of ``k``; None
    when nothing is declared."""
    cls = GenericClass()
    level = _declared(definition, cls)
    if level is None:
        return None
    return simplified(level.xreplace({cls.q[cls.i]: 1 / cls.k, cls.top: 1 / cls.k}).doit()), cls.k
