"""The shapes an argument applies to, read from the definitions' declarations (never their names).

A definition declares its raw level: a ratio of averages over a ``family`` of record sets (``"pairwise"``,
``"subset"``, ``"class"``) with ``sides`` (two- or one-sided) (:class:`~implgraph.definitions.capabilities.RatioLevel`),
a subset size (:class:`~implgraph.definitions.capabilities.SubsetSize`), a class distance
(:class:`~implgraph.definitions.capabilities.ClassDistance`), a class size level, an additive slack. The predicates here
read those declarations (``d.declared(Kind)``); the arguments of :mod:`implgraph.prover.arguments` compose them into the shapes they declare.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core.formula import Word
from implgraph.core.simplified import simplified
from implgraph.definitions.base import range_bound
from implgraph.definitions.capabilities import AdditiveSlack, ClassDistance, MinClassSize, RatioLevel, SubsetSize
from implgraph.prover.answer import T

__all__ = ["as_definition", "ratio_sides", "slack_between", "min_class_name", "compares", "one_sided", "class_level", "declared_subset_size", "subset_size_expr",
           "decide", "class_distance_of", "any_partition", "same_value", "lowest_raw", "integer_param",
           "at_least_one", "param_ranges", "smaller_alone", "level_conditions", "min_class", "no_max_class",
           "same_partition"]


def as_definition(d):
    return definitions.get(d) if isinstance(d, str) else d


def ratio_sides(d) -> str | None:
    """The sides of ``d``'s declared :class:`~implgraph.definitions.capabilities.RatioLevel` (``"two-sided"``,
    ``"one-sided"``), or None where it declares none."""
    ratio = d.declared(RatioLevel)
    return None if ratio is None else ratio.sides


def slack_between(d) -> str | None:
    """The records ``d``'s declared :class:`~implgraph.definitions.capabilities.AdditiveSlack` compares
    (``"removal"``, ``"pairs"``), or None where it declares no slack."""
    slack = d.declared(AdditiveSlack)
    return None if slack is None else slack.compares


def min_class_name(d) -> str | None:
    """The parameter ``d`` declares a minimum class size (its
    :class:`~implgraph.definitions.capabilities.MinClassSize`), or None."""
    declared = d.declared(MinClassSize)
    return None if declared is None else declared.param


def _ratio_is(d, family: str, sides: str) -> bool:
    ratio = d.declared(RatioLevel)
    return ratio is not None and ratio.family == family and ratio.sides == sides


def compares(d, family: str) -> bool:
    """Is ``d`` a two-sided ratio of averages over the declared ``family`` of record sets
    (``"pairwise"``, ``"subset"``, ``"class"``)? The arguments assume both directions of each
    ratio are bounded (a one-sided declaration bounds only one)."""
    return _ratio_is(d, family, "two-sided")


def one_sided(d, family: str) -> bool:
    """Is ``d`` a one-sided ratio of averages over ``family`` (only ``mean_S / mean_D`` bounded)?"""
    return _ratio_is(d, family, "one-sided")


def class_level(d) -> bool:
    """Is ``d`` a ratio of averages over classes with declared sides (two- or one-sided)?"""
    return compares(d, "class") or one_sided(d, "class")


def declared_subset_size(d, N, params):
    """Symbolic subset size of a subset definition (one- or two-sided) at ``params``, or None."""
    ratio, size = d.declared(RatioLevel), d.declared(SubsetSize)
    if ratio is None or ratio.family != "subset" or size is None:
        return None
    return sympy.sympify(size.size(N, {k: sympy.sympify(v) for k, v in params.items()}))


def subset_size_expr(d, N, params):
    """Symbolic subset size of a two-sided subset definition, or None."""
    return declared_subset_size(d, N, params) if compares(d, "subset") else None


def declared_slack(d, params, compares="removal"):
    """The declared additive slack delta, a rational in [0, 1), of a definition comparing ``compares`` (``"removal"``:
    the table and the table without one record; ``"pairs"``: two records); None otherwise."""
    if slack_between(d) != compares or "delta" not in params:
        return None
    delta = params["delta"]
    if isinstance(delta, (int, Fraction)):
        delta = sympy.Rational(delta.numerator, delta.denominator)
    return delta if isinstance(delta, sympy.Basic) and delta.is_Rational and 0 <= delta < 1 else None


def decide(region, cond):
    """Three-valued ``region.decide``; an error inside it is a bug and propagates."""
    return region.decide(cond)


def class_distance_of(d, params):
    """The class distance ``d`` declares at ``params`` (its :class:`~implgraph.definitions.capabilities.ClassDistance`
    where the word parameters are as it says, missing ones read from ``d.words``), or None."""
    distance = d.declared(ClassDistance)
    return None if distance is None else distance.at({k: str(v) for k, v in params.items()}, d.words)


def any_partition(classes) -> bool:
    """Is a class specification no restriction at all (none, or a minimum size of 1 without a maximum)?"""
    return not classes or (classes.get("max_size") is None
                           and simplified(sympy.sympify(classes.get("min_size", 1)) - 1) == 0)


def min_class(classes):
    """The minimum class size of a class specification (1 where it states none), as sympy."""
    return sympy.sympify((classes or {}).get("min_size", 1))


def no_max_class(classes) -> bool:
    """Does a class specification state no maximum class size?"""
    return not (classes or {}).get("max_size")


def same_partition(a_classes, b_classes) -> bool:
    """Do A and B compare the same partition (A's classes unstated: any classes, as B's default), with no maximum
    class size?"""
    return no_max_class(b_classes) and (a_classes or {"min_size": sympy.Integer(1)}) == b_classes


def same_value(x, y) -> bool:
    """Two parameter values are the same: words (a ground distance) as text, expressions identically."""
    if isinstance(x, Word) or isinstance(y, Word):
        return str(x) == str(y)
    return simplified(sympy.sympify(x) - sympy.sympify(y)) == 0


def lowest_raw(d):
    """The smallest valid raw level of ``d`` (sympy): the most private table's, 1 for a ratio (and its log and
    affine forms), 0 for a distance; 1 for a count (k, l >= 1)."""
    best = d.level_scale.best_raw
    return sympy.Integer(1) if best is None else sympy.Rational(best.numerator, best.denominator)


def integer_param(d, name) -> bool:
    """Are the values a definition declares for its parameter ``name`` integers (a group or class size;
    :func:`implgraph.definitions.families.param_grid` at 4 records)?"""
    from implgraph.definitions.families import param_grid
    grid = param_grid(d, 4) or []
    values = [g[name] for g in grid if name in g]
    return bool(values) and all(isinstance(v, int) for v in values)


def at_least_one(x):
    """``x >= 1``, kept as a condition when ``x`` is a symbol declared positive (sympy would evaluate
    it to True, and the solver sees only the symbol's kind, not its sign)."""
    x = sympy.sympify(x)
    c = sympy.Ge(x, 1)
    return sympy.Ge(x, 1, evaluate=False) if c is sympy.true and x.free_symbols else c


def param_ranges(a, b, a_params, b_params, N, b_classes=None) -> list:
    """The ranges where the parameters mean something: each side's declared ``ranges`` (1 <= k <= N - 1 for a
    group size ``k``), and 1 <= s, 2 s <= N for B's minimum class size ``s`` (a partition into >= 2 classes; with a
    single class the level is 1, below every bound)."""
    ranges = []
    for d, ps in ((a, a_params), (b, b_params)):
        for name, (low, high) in (getattr(d, "ranges", None) or {}).items():
            if name not in ps or isinstance(ps[name], Word):
                continue
            v = sympy.sympify(ps[name])
            if v.is_number and v.is_integer is not True and integer_param(d, name):
                ranges.append(sympy.false)      # a group or class size that is no integer: no table has it
            low, high = (range_bound(x, N) for x in (low, high))     # declared text: the formula reader
            ranges += [at_least_one(v) if low == 1 else sympy.Ge(v, low), sympy.Le(v, high)]
    if (class_level(b) or class_distance_of(b, b_params)) and (b_classes or {}).get("min_size") is not None:
        s_ = sympy.sympify(b_classes["min_size"])
        ranges += [at_least_one(s_), sympy.Le(2 * s_, N)]
    return [c for c in ranges if c not in (sympy.true, True)]


def smaller_alone(U, region):
    """``U = Min(x, y)`` as the one component the condition makes the smaller (z3), else ``U`` (the kernel accepts
    either component alone: each is an upper bound by its own obligation)."""
    if not (isinstance(U, sympy.Min) and len(U.args) == 2):
        return U
    first, second = U.args
    for x, y in ((first, second), (second, first)):
        if decide(region, sympy.Le(x, y)) is True:
            return x
    return U


def level_conditions(where, a, alpha) -> str:
    """A condition on A's raw level T (an And of several, or one) as text in A's level ``alpha``, each condition
    simplified alone (simplifying the And whole took 0.3 s), in a fixed order."""
    plain = sympy.Symbol(str(alpha), real=True)       # (an assumption on the level symbol would drop alpha > 0)
    # (in sympy's canonical order: the order of an And's arguments may differ from one process to the next)
    conds = sorted(sympy.And.make_args(where.subs(T, a.raw_from_level(plain))), key=sympy.default_sort_key)
    return " and ".join(str(simplified(x)) for x in conds)
