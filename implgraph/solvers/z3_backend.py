"""The z3 backend: each definition's ``satisfies`` as polynomial constraints on a table of reals.

A table is ``rows[i][l]`` (z3 real expressions, N records x p buckets). The level is a raw ratio
``T`` (t for closeness, e^eps for the eps definitions), so every constraint is a product
inequality with the denominators multiplied out, e.g. ``mean <= T * min_j-mean`` becomes
``S * j <= T * N * P_j``: the conventions 0/0 = no constraint and x/0 = infinite come out right.

The encodings follow :attr:`Definition.z3_shape`, which
:class:`~implgraph.definitions.families.RatioOfAverages` derives from the declared ``family`` and
``sides`` (nothing here is written per definition):

- ``pairwise`` (records against records): ``x_il <= T x_i'l`` for all records i, i' and buckets l;
- ``subset-ratio`` (subsets of the declared size j against the table): for every bucket,
  ``mean <= T * (mean of the j smallest)`` and ``(mean of the j largest) <= T * mean``.
  When the rows are sorted on a bucket (``order``), the extreme j-subsets are the prefix and the
  suffix; otherwise the sum of the j smallest is bounded through its LP dual
  (``max_lambda j*lambda - sum max(0, lambda - x_i)``) and a violating subset is picked with
  boolean selectors;
- ``class-ratio`` (for a given partition into consecutive classes of the given sizes):
  ``Pr_D <= T Pr_E`` and ``Pr_E <= T Pr_D`` for every class E and bucket;
- ``subset-upper`` and ``class-upper`` (``sides = "one-sided"``): only the second inequality,
  ``(mean of the set) <= T * mean``.

A plugin may override by defining ``z3_satisfies(self, rows, T, **params)`` (and, optionally,
``z3_violates``) on its Definition class; a definition with neither a ``z3_shape`` nor an override
cannot be encoded (:class:`NotEncodable`) and the refuter answers ``unknown``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy
import z3

from implgraph.solvers import register_backend
# the region interface (check, terms) and run_check live in z3_region; they are this backend's too
from implgraph.solvers.z3_region import check, run_check, terms  # noqa: F401

__all__ = ["encode_satisfies", "encode_violates", "encode_infinite", "ratio_list", "subset_size", "solve",
           "NotEncodable", "model_value", "real", "terms", "check"]

_counter = itertools.count()


class NotEncodable(Exception):
    """The definition has no z3 encoding."""


def real(x):
    """A z3 real constant from an int / Fraction / sympy Rational (or pass z3 expressions through)."""
    if isinstance(x, z3.ExprRef):
        return x
    if isinstance(x, sympy.Basic):
        x = sympy.Rational(x)
        return z3.RealVal(f"{x.p}/{x.q}")
    x = Fraction(x)
    return z3.RealVal(f"{x.numerator}/{x.denominator}")


def _fresh(prefix):
    return f"_{prefix}{next(_counter)}"


def subset_size(definition, N: int, params: dict) -> int:
    """The subset size j of a subset definition, as the definition declares it
    (:class:`~implgraph.definitions.capabilities.SubsetSize`)."""
    from implgraph.definitions.capabilities import SubsetSize
    size = definition.declared(SubsetSize)
    j = None if size is None else size.size(N, {k: v for k, v in params.items() if k in definition.params})
    if j is None:
        raise NotEncodable(f"{definition.name}: no subset size declared")
    return int(j)


def _sum(xs):
    xs = list(xs)
    return z3.Sum(xs) if xs else z3.RealVal(0)


def _column(rows, l):
    return [r[l] for r in rows]


def _shape(definition):
    return getattr(definition, "z3_shape", None)


def _class_slices(classes, N):
    out, start = [], 0
    for size in classes:
        out.append(range(start, start + int(size)))
        start += int(size)
    if start != N:
        raise ValueError(f"class sizes {classes} do not add up to N = {N}")
    return out


#: shape -> (record sets, one-sided)
_SHAPES = {"pairwise": ("pairwise", False), "subset-ratio": ("subset", False), "class-ratio": ("class", False),
           "subset-upper": ("subset", True), "class-upper": ("class", True)}


def _bucket_pairs(shape, col, direction, N, j=None, classes=None):
    """The (num, den) pairs of one bucket whose ratios make up the level (0/0 ignored, x/0 infinite),
    or None when they depend on an order of the values that ``direction`` ("asc"/"desc") does not fix.

    Two-sided pairs come as ``(table, set), (set, table)``; one-sided keeps the second of each."""
    family, upper = _SHAPES[shape]
    pairs = _two_sided_pairs(family, col, direction, N, j, classes)
    return pairs[1::2] if upper and pairs is not None else pairs


def _two_sided_pairs(family, col, direction, N, j, classes):
    if family == "pairwise":
        if direction == "asc":
            return [(col[-1], col[0])]
        if direction == "desc":
            return [(col[0], col[-1])]
        return None
    if family == "subset":
        if direction not in ("asc", "desc"):
            return None
        srt = col if direction == "asc" else col[::-1]
        S, P, Q = _sum(col), _sum(srt[:j]), _sum(srt[N - j:])
        return [(S * j, N * P), (Q * N, j * S)]
    S = _sum(col)
    out = []
    for idx in _class_slices(classes, N):
        Sc, s = _sum(col[i] for i in idx), len(idx)
        out += [(S * s, N * Sc), (Sc * N, s * S)]
    return out


def _setup(definition, rows, params, classes, order):
    """(shape, N, p, j, order) of a definition the shapes encode (NotEncodable otherwise)."""
    shape = _shape(definition)
    if shape not in _SHAPES:
        raise NotEncodable(f"{definition.name} has no z3 encoding (no z3_shape, no z3_satisfies)")
    family = _SHAPES[shape][0]
    if family == "class" and not classes:
        raise NotEncodable(f"{definition.name} needs equivalence classes")
    N, p = len(rows), len(rows[0])
    j = subset_size(definition, N, params) if family == "subset" else None
    return shape, N, p, j, order or {}


def encode_satisfies(definition, rows, T, params, classes=None, order=None):
    """Constraints saying the table ``rows`` satisfies ``definition`` at raw level ``T``.

    Parameters
    ----------
    definition : Definition
    rows : list of list of z3 arithmetic expressions (N x p)
    T : z3 expression or rational
        The raw level (the ratio; e^eps for eps definitions).
    params : dict
        The definition's parameters as integers (``k``).
    classes : list of int, optional
        Sizes of consecutive equivalence classes (for ``class-ratio``).
    order : dict, optional
        ``{bucket: "asc" | "desc"}`` for buckets on which the rows are known to be sorted.

    Returns
    -------
    list of z3 BoolRef
    """
    override = getattr(type(definition), "z3_satisfies", None)
    if override is not None:
        return list(definition.z3_satisfies(rows, real(T), **params))
    shape, N, p, j, order = _setup(definition, rows, params, classes, order)
    T = real(T)
    out = []
    for l in range(p):
        col = _column(rows, l)
        pairs = _bucket_pairs(shape, col, order.get(l), N, j, classes)
        if pairs is not None:
            out += [num <= T * den for num, den in pairs]
        elif shape == "pairwise":
            mn, mx = z3.Real(_fresh("mn")), z3.Real(_fresh("mx"))
            out += [mn <= x for x in col] + [x <= mx for x in col] + [mx <= T * mn]
        else:  # a subset shape, values in no known order
            out += _subset_bounds(col, T, N, j, upper_only=_SHAPES[shape][1])
    return out


def _subset_bounds(col, T, N, j, upper_only):
    """``mean <= T * (mean of the j smallest)`` (two-sided only) and ``(mean of the j largest) <= T * mean``
    for values in no known order, through the LP duals of the extreme sums."""
    S = _sum(col)
    lam, mu = z3.Real(_fresh("lam")), z3.Real(_fresh("mu"))
    us = [z3.Real(_fresh("u")) for _ in col]
    vs = [z3.Real(_fresh("v")) for _ in col]
    out = []
    for x, u, v in zip(col, us, vs):
        out += ([] if upper_only else [u >= 0, u >= lam - x]) + [v >= 0, v >= x - mu]
    P = j * lam - _sum(us)      # a lower bound of the sum of the j smallest
    Q = j * mu + _sum(vs)       # an upper bound of the sum of the j largest
    return out + ([] if upper_only else [S * j <= T * N * P]) + [Q * N <= T * j * S]


def encode_violates(definition, rows, F, params, classes=None, order=None):
    """One constraint saying the table does *not* satisfy ``definition`` at raw level ``F``."""
    override = getattr(type(definition), "z3_violates", None)
    if override is not None:
        return z3.And(*definition.z3_violates(rows, real(F), **params))
    if getattr(type(definition), "z3_satisfies", None) is not None:
        # sound only for overrides without auxiliary variables (documented for plugin authors)
        return z3.Not(z3.And(*definition.z3_satisfies(rows, real(F), **params)))
    shape, N, p, j, order = _setup(definition, rows, params, classes, order)
    F = real(F)
    alts = []
    for l in range(p):
        col = _column(rows, l)
        pairs = _bucket_pairs(shape, col, order.get(l), N, j, classes)
        if pairs is not None:
            alts += [num > F * den for num, den in pairs]
        elif shape == "pairwise":
            alts += [col[i] > F * col[i2] for i in range(N) for i2 in range(N) if i != i2]
        else:  # a subset shape, values in no known order: choose the j records
            S = _sum(col)
            for which in (("hi",) if _SHAPES[shape][1] else ("lo", "hi")):
                card, K = _chosen(col, j)
                alts.append(z3.And(card, S * j > F * N * K) if which == "lo" else
                            z3.And(card, K * N > F * j * S))
    return z3.Or(*alts)


def _chosen(col, j):
    """(exactly j records chosen, the sum of the chosen values), with fresh boolean selectors."""
    sel = [z3.Bool(_fresh("sel")) for _ in col]
    card = _sum(z3.If(b, z3.RealVal(1), z3.RealVal(0)) for b in sel) == j
    return card, _sum(z3.If(b, x, z3.RealVal(0)) for b, x in zip(sel, col))


def ratio_list(definition, rows, params, classes=None, order=None):
    """The level as ``max(1, max num/den)`` (0/0 ignored, x/0 infinite): a list of (num, den) pairs,
    or None when the definition is not a plain maximum of ratios under this ordering."""
    if getattr(type(definition), "z3_satisfies", None) is not None:
        return None
    try:
        shape, N, p, j, order = _setup(definition, rows, params, classes, order)
    except NotEncodable:
        return None
    out = []
    for l in range(p):
        pairs = _bucket_pairs(shape, _column(rows, l), order.get(l), N, j, classes)
        if pairs is None:
            return None
        out += pairs
    return out


def encode_infinite(definition, rows, params, classes=None, order=None):
    """One constraint saying the definition's level is infinite (a zero denominator, positive numerator)."""
    shape, N, p, j, order = _setup(definition, rows, params, classes, order)
    alts = []
    for l in range(p):
        col = _column(rows, l)
        pairs = _bucket_pairs(shape, col, order.get(l), N, j, classes)
        if pairs is not None:
            alts += [z3.And(den == 0, num > 0) for num, den in pairs]
        elif shape == "pairwise":
            alts += [z3.And(col[i] == 0, col[i2] > 0) for i in range(N) for i2 in range(N) if i != i2]
        elif not _SHAPES[shape][1]:  # two-sided subset, values in no known order: choose the j records
            card, K = _chosen(col, j)
            alts.append(z3.And(card, K == 0, _sum(col) > 0))
        # (one-sided: a set's mean above a zero table mean is impossible, so never infinite)
    return z3.Or(*alts)


def solve(constraints, timeout_ms=2000):
    """("sat", model) / ("unsat", None) / ("unknown", None)."""
    s = z3.Solver()
    s.add(*constraints)
    r = run_check(s, timeout_ms)
    if r == z3.sat:
        return "sat", s.model()
    if r == z3.unsat:
        return "unsat", None
    return "unknown", None


def model_value(model, expr):
    """The exact rational value of ``expr`` in ``model`` (Fraction), or None if irrational."""
    v = z3.simplify(model.eval(expr, model_completion=True))
    if z3.is_int_value(v):
        return Fraction(v.as_long())
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    return None


def approx_value(model, expr, digits=12):
    """A rational approximation of an algebraic model value (for re-solving with it fixed)."""
    v = z3.simplify(model.eval(expr, model_completion=True))
    exact = model_value(model, expr)
    if exact is not None:
        return exact
    if z3.is_algebraic_value(v):
        r = v.approx(digits)
        return Fraction(r.numerator_as_long(), r.denominator_as_long())
    return None


register_backend("z3", __import__(__name__, fromlist=["*"]))
