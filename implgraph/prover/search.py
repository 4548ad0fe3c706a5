"""The prover's search: the registered arguments whose shapes match, tried in their declared order.

:func:`tight_bound` asks the ``direct`` arguments (:mod:`implgraph.prover.registry`): the first whose shape applies
and that answers (a :class:`~implgraph.prover.answer.Bound`, or :data:`~implgraph.prover.answer.NO_BOUND` where the
case is its own but a step was not confirmed) ends the search; an argument answering None passes the case on.
:func:`ceiling_bound` does the same with the ``ceiling`` arguments: B's raw level on every table, whatever A is.

Every argument bounds one bucket's values at a time (a column of the table), so it holds for any number of buckets
p >= 2, and every attaining table is binary unless the bound says otherwise (``Bound.buckets``).
"""

from __future__ import annotations

import copy
import functools

import sympy

from implgraph.prover.answer import NO_BOUND
from implgraph.prover.context import ProofContext
from implgraph.prover.registry import arguments
from implgraph.prover.shapes import as_definition

__all__ = ["tight_bound", "ceiling_bound", "first_answer"]


def first_answer(ctx, stage="direct", after=None):
    """The first definite answer of the ``stage``'s arguments whose shapes apply to ``ctx`` (those ordered after
    ``after`` only, where given), or None."""
    for arg in arguments(stage):
        if (after is not None and arg.order <= after) or not arg.applies(ctx):
            continue
        found = arg.bound(ctx)
        if found is NO_BOUND:
            return None
        if found is not None:
            return found
    return None


def tight_bound(a, b, a_params, b_params, region, N, a_classes=None, b_classes=None):
    """The strongest :class:`~implgraph.prover.answer.Bound` the registered arguments establish for A => B, or None.

    Parameters
    ----------
    a, b : Definition or str
        The two sides (a name is read as the registered definition).
    a_params, b_params : dict
        Their parameters (sympy expressions or words).
    region : Region
        The claim's condition in terms of A's raw level T; the parameters' ranges are added to it.
    N : sympy.Symbol or int
        The number of records.
    a_classes, b_classes : dict, optional
        The class specifications (``min_size``, ``max_size``); B's defaults to any partition where B compares classes.

    Returns
    -------
    Bound or None

    Notes
    -----
    The answer is a function of the arguments and of the registered arguments alone, so it is remembered in the process (:data:`_BOUNDS`): the pair
    matrix and the composition argument ask the same A => C of every B (one ``ldp => eps-delta-dp`` takes seconds).
    The memo keeps a copy, and each later caller gets a copy of it (lists and parts copied too): a caller that edits
    its bound changes no other's.
    """
    a, b = as_definition(a), as_definition(b)
    try:
        # (the registered arguments are part of the question: a plugin may register one)
        key = (tuple(arguments()), type(a), a.name, _params_key(a_params), type(b), b.name, _params_key(b_params),
               _srepr(region.kinds), _srepr(region.constraints), _srepr(N), repr(a_classes), repr(b_classes))
        hash(key)
    except TypeError:       # an unhashable value: no memo
        return first_answer(ProofContext.build(a, b, a_params, b_params, region, N, a_classes, b_classes))
    if key in _BOUNDS:
        return _copied(_BOUNDS[key])
    found = first_answer(ProofContext.build(a, b, a_params, b_params, region, N, a_classes, b_classes))
    if len(_BOUNDS) >= _BOUNDS_SIZE:
        _BOUNDS.pop(next(iter(_BOUNDS)))
    _BOUNDS[key] = _copied(found)
    return found


#: the bounds found, by the arguments of :func:`tight_bound` (at most _BOUNDS_SIZE of them, the oldest dropped)
_BOUNDS: dict = {}
_BOUNDS_SIZE = 4096


def _srepr(x) -> str:
    """A key's text of sympy objects with their assumptions (two symbols N of other assumptions are other questions:
    a bound in the one is no bound in the other)."""
    if isinstance(x, dict):
        return repr(sorted((_srepr_one(k), repr(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return repr([_srepr_one(c) for c in x])
    return _srepr_one(x)


def _srepr_one(x) -> str:
    """``sympy.srepr(x)``, memoised: every question asks it again of the same region's constraints and symbols (an
    unhashable ``x`` is printed without the memo)."""
    try:
        return _srepr_memo(x)
    except TypeError:
        return sympy.srepr(x)


_srepr_memo = functools.lru_cache(maxsize=20_000, typed=True)(sympy.srepr)   # (typed: 5 and Integer(5) apart)


def _params_key(params) -> tuple:
    """Parameters as a key: each name with its value's type and text (a Fraction 1/10 and sympy's 1/10 apart)."""
    return tuple(sorted((k, type(v).__name__, str(v)) for k, v in (params or {}).items()))


def _copied(bound):
    """A copy of a remembered bound for one caller: the bound, its parts and its exact bound copied, their lists too."""
    if bound is None or bound is NO_BOUND or not hasattr(bound, "__dataclass_fields__"):
        return bound
    out = copy.copy(bound)
    out.checks = list(bound.checks)
    out.parts = [(c, _copied(p)) for c, p in bound.parts]
    out.exact = _copied(bound.exact)
    return out


def ceiling_bound(b, b_params, b_classes, region, N):
    """B's raw level on every table of N records, whatever A is: ``N / s`` for a one-sided class level
    with classes of >= s records (s = 1 unless ``b_classes`` says more), ``N / j`` for a one-sided
    subset level of size j, ``(N - s)/N`` for a class's total variation distance; None for any other declaration (a
    two-sided level is unbounded: a zero against a positive value).

    Examples
    --------
    >>> from implgraph.definitions.capabilities import RatioLevel
    >>> from implgraph.definitions.families import RatioOfAverages
    >>> from implgraph.core.region import Region
    >>> class Upper(RatioOfAverages):
    ...     name, level_symbol, scale = "upper-doc", "beta", "affine"
    ...     declares = (RatioLevel("class", "one-sided"),)
    >>> N = sympy.Symbol("N", integer=True)
    >>> ceiling_bound(Upper(), {}, None, Region({N: "integer"}, (N >= 2,)), N).upper
    N
    """
    b = as_definition(b)
    return first_answer(ProofContext(None, b, {}, b_params, None, b_classes, region, N), "ceiling")


def supremum_bound(b, b_params, b_classes, region, N):
    """B's own supremum on every table of N records, whatever A is, from the ``supremum`` stage (e.g. log(N/s) for a
    class's KL or Renyi divergence), or None: an implication proved only at it is vacuous."""
    b = as_definition(b)
    return first_answer(ProofContext(None, b, {}, b_params, None, b_classes, region, N), "supremum")
