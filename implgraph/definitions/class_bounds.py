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
- :func:`uniform_class_level` -- a level at the uniform class ``q_i = 1/k``; :func:`is_count_at_uniform` -- is it
  ``k`` itself; :func:`uniform_class_raw` -- the raw level there, in ``m`` values; :func:`uniform_values` -- the fewest
  values of a uniform class that meet a raw level ``T``, and where such a number exists;
- :func:`capped_steps` -- ``exp(H(q))`` is at least ``g(1 / max q)``, the value at the capped distribution
  (``floor(x)`` values at ``1/x``, one at ``1 - floor(x)/x``), and ``g`` is nondecreasing
  (:func:`capped_entropy`).

They sit below the engines and the mechanisms (both use them).
"""

from __future__ import annotations

import sympy

from implgraph.core.simplified import simplified, solved
from implgraph.definitions._classes import GenericClass
from implgraph.definitions.capabilities import ClassLevel, family_of

__all__ = ["class_level_steps", "support_steps", "uniform_class_level", "is_count_at_uniform", "uniform_class_raw",
           "uniform_values", "M", "nonnegative_from_zero",
           "sum_split", "capped_entropy", "capped_steps"]


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
    declare = definition.declared(ClassLevel) if definition is not None else None
    return None if declare is None else sympy.sympify(declare.formula(cls))


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


def is_count_at_uniform(definition) -> bool:
    """Is ``definition`` a class level (larger stronger) whose declared value at a class uniform over k values is k
    itself, for every k (the l-diversities)? Then a table whose classes are each uniform over m or more values of
    their own has level >= m (the table's level is its worst class's)."""
    if definition is None or family_of(definition) != "class" or definition.stronger != "larger":
        return False
    try:
        at_uniform = uniform_class_level(definition)
    except Exception:       # a plugin's formula that sympy cannot evaluate at the uniform class declares nothing
        return False
    return at_uniform is not None and simplified(at_uniform[0] - at_uniform[1]) == 0


#: the number of values of a uniform class (a positive integer)
M = sympy.Symbol("m", integer=True, positive=True)


def uniform_class_raw(definition):
    """The raw level of a class uniform over ``m`` values (:data:`M`), from the declared class level
    (:func:`uniform_class_level`) on the definition's scale; None for a definition that declares none or is not a
    class level. The table's level being its worst class's, a table whose classes are each uniform over the values
    they hold has the raw level of its worst class's number of values."""
    if definition is None or family_of(definition) != "class":
        return None
    try:
        at_uniform = uniform_class_level(definition)
        if at_uniform is None:
            return None
        return simplified(sympy.sympify(definition.raw_from_level(at_uniform[0].xreplace({at_uniform[1]: M}))))
    except Exception:       # a plugin's formula that sympy cannot evaluate at the uniform class declares nothing
        return None


def uniform_values(definition, T):
    """See :func:`_uniform_values` (memoised by the definition's name and T: solving and taking the limit is slow)."""
    key = (getattr(definition, "name", None), T)
    if key[0] is None:
        return _uniform_values(definition, T)
    if key not in _UNIFORM_VALUES:
        _UNIFORM_VALUES[key] = _uniform_values(definition, T)
    return _UNIFORM_VALUES[key]


_UNIFORM_VALUES: dict = {}


def _uniform_values(definition, T):
    """``(m, where)``: the fewest values ``m`` (an expression in the raw level ``T``) of a uniform class whose raw
    level meets ``T``, and the condition on ``T`` under which such a number exists; None where the declared level
    (:func:`uniform_class_raw`) does not improve strictly with the number of values, or ``raw(m) = T`` has not
    exactly one solution.

    A level improving strictly with ``m`` meets ``T`` at every ``m >= x`` where ``raw(x) = T``: ``m = ceiling(x)``.
    Where the improvement tends to a finite limit (``1 + 1/m`` towards 1), only a ``T`` on the weak side of the
    limit is met.

    Examples
    --------
    >>> from implgraph.definitions import get
    >>> T = sympy.Symbol("T", positive=True)
    >>> uniform_values(get("distinct-l-diversity"), T)
    (ceiling(T), True)
    >>> uniform_values(get("alpha-k-anonymity"), T)
    (ceiling(1/(T - 1)), T > 1)
    """
    raw = uniform_class_raw(definition)
    if raw is None:
        return None
    x = sympy.Symbol("x", positive=True)
    r = raw.xreplace({M: x})
    larger = getattr(definition, "stronger", None) == "larger"
    slope = simplified(sympy.diff(r, x))
    if (slope.is_positive if larger else slope.is_negative) is not True:
        return None
    solutions = solved(sympy.Eq(r, T), x)
    if len(solutions) != 1:
        return None
    limit = sympy.limit(r, x, sympy.oo)
    where = sympy.true if not limit.is_finite else (T < limit if larger else T > limit)
    return sympy.ceiling(simplified(solutions[0])), where


def capped_entropy(x, n=None):
    """``g(x) = x^(n/x) (1 - n/x)^(-(1 - n/x))`` with ``n = floor(x)`` (or the given ``n``): ``exp(H)`` of the capped
    distribution, ``n`` values at ``1/x`` and one at ``1 - n/x`` (``0^0 = 1``: ``g(m) = m`` at an integer ``m``)."""
    n = sympy.floor(x) if n is None else n
    r = 1 - n / x
    return x ** (n / x) * r ** (-r)


def capped_steps(frequency_definition, entropy_definition) -> dict | None:
    """Is ``exp(H(q)) >= g(1 / max q)`` for a class over any number of values, with ``g`` nondecreasing? The
    argument's steps (:func:`capped_entropy`).

    With ``x = 1 / max q``, q lies in the capped simplex ``{0 <= q_i <= 1/x, sum_i q_i = 1}``. ``H`` is a sum of
    the concave ``-q log q`` (second derivative ``-1/q < 0``), so its minimum over that polytope is at a vertex;
    a vertex has at most one coordinate strictly between 0 and ``1/x`` (two such could move by ``+-e`` in
    opposite directions and stay inside), so it is the capped distribution up to the order of the values:
    ``floor(x)`` values at ``1/x`` and one at ``1 - floor(x)/x``, whose ``exp(H)`` is ``g(x)``. On
    ``n <= x < n + 1`` the derivative of ``log g`` is ``-(n/x^2) log(x - n) >= 0``, and at ``x = n + 1`` the piece
    gives ``n + 1 = g(n + 1)``: ``g`` is continuous and nondecreasing, so a class of level ``x_E >= x`` has
    ``exp(H) >= g(x_E) >= g(x)``.

    Returns
    -------
    dict or None
        ``{step: bool}``; None when either definition declares no class level.
    """
    cls = GenericClass()
    freq, ent = _declared(frequency_definition, cls), _declared(entropy_definition, cls)
    if freq is None or ent is None:
        return None
    q = sympy.Symbol("q", positive=True)
    x = sympy.Symbol("x", positive=True)
    n = sympy.Symbol("n", integer=True, positive=True)
    u = sympy.Symbol("u", nonnegative=True)
    r = 1 - n / x
    g = capped_entropy(x, n)
    shannon = sympy.exp(-sympy.Sum(cls.q[cls.i] * sympy.log(cls.q[cls.i]), (cls.i, 1, cls.k)))
    vertex_h = -(n * (1 / x) * sympy.log(1 / x) + r * sympy.log(r))
    return {
        "A's class level is 1/max q": simplified(freq - 1 / cls.top) == 0,
        "B's class level is exp(H(q)), H(q) = -sum_i q_i log q_i": simplified(ent - shannon) == 0,
        "-q log q is concave on q > 0 (second derivative -1/q)":
            simplified(sympy.diff(-q * sympy.log(q), q, 2) + 1 / q) == 0,
        "H at the capped vertex (n values at 1/x, one at 1 - n/x) is log g(x)":
            simplified(sympy.expand_log(vertex_h - sympy.log(g), force=True)) == 0,
        "d log g/dx = -(n/x^2) log(x - n), >= 0 on n <= x < n + 1":
            simplified(sympy.expand_log(sympy.diff(sympy.expand_log(sympy.log(g), force=True), x)
                                        + n / x ** 2 * sympy.log(x - n), force=True)) == 0,
        "-log(y) >= 0 for 0 < y <= 1 (y = 1/(1 + u), u >= 0), so with y = x - n the derivative is >= 0":
            sympy.expand_log(-sympy.log(1 / (1 + u)), force=True).is_nonnegative is True,
        "g is continuous at x = n + 1 (the piece of n gives n + 1 = g(n + 1))":
            simplified(g.subs(x, n + 1) - (n + 1)) == 0,
    }
