"""``floor-level``: a level with a class floor above its weakest level, and the level it is where the floor holds
(docs/arguments/floor-level.md).

A definition may declare a parameter k a minimum class size above its weakest level w, and the level X it equals on
every table whose classes all have at least k records (``MinClassSizeAboveWeakest(k, level_of=X)``: p-sensitive
k-anonymity, w = 0, X distinct l-diversity). With X's declared class level the number of values a class holds (an
integer, at least 1 in every class), two tight f follow from the declarations:

``same`` (A declares the floor, B is X)
    at A's level T > w the floor holds, so B = A >= T, an integer: B >= ceiling(T). One class of N >= k records
    uniform over the same ceiling(T) values has A = B = ceiling(T): tight, U = ceiling(T).
``size`` (A the smallest class's size, B declares the floor k)
    at A's level T > k - 1 every class has at least ceiling(T) >= k records, so B = X >= 1; below, 0 (B's weakest)
    is all that follows. U = 1 where T > k - 1, else 0: attained by one class of N one-hot records (A = N >= T, B = 1)
    and, where T <= 1, by singleton classes (A = 1, B = 0): tight where T > k - 1 or T <= 1 (at k = 2, every T), and
    T <= N (a class of at least T records).
``floor`` (A declares the floor k, B the smallest class's size)
    at A's level T > w every class has at least k records; on N < 2 k records two such classes do not fit: one class
    of N records. U = N where N < 2 k, else k; attained by records uniform over the same ceiling(T) values in one
    class (N < 2 k) or in two of k and N - k records: tight for every N >= k.
``share`` (A declares the floor k, B a class level against the table, where smaller is stronger: a one-sided ratio of
averages over classes, beta-likeness's, a class's total variation distance from the table, or its KL or Renyi-2
divergence from the table)
    at A's level T > w every class has at least k records and holds at least k/N of the table (values >= 0): B's
    ratio at most N/k, its distance at most (N - k)/N, its divergence at most log(N/k) (every ratio to the table at
    most N/k); on N < 2 k records the classes are one, the table: ratio 1, distance and divergence 0. Attained for
    every N and T: one class of N records uniform over the same m = ceiling(T) values (N < 2 k), else k records
    uniform over m values in one class and N - k over m others in another (2 m buckets).
``skew`` (A declares the floor and a level counting values; B a class level tending to its weakest w as a class's top
tends to 1 at a fixed number of values: frequency, entropy l-diversity)
    U = w, B's weakest, met by every table; one class of N records (1 - e, e/(m - 1), ...) over m = ceiling(T) values
    has A = m >= T and B tending to w as e -> 0: the supremum, approached; attained only where T <= 1 (B = w needs a
    class of one value, so A <= 1).

The certificate (method ``floor-level``) holds U and the family's kind; :mod:`implgraph.certify.lemmas.floor_level`
re-derives U from the registry and checks A and B's registered levels on the family at sampled N and T; the argument
answers only where the checker accepts.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.formula import Word
from implgraph.definitions.capabilities import ClassSizeLevel, ClassLevel, MinClassSizeAboveWeakest
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.certificate import accepted
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, class_distance_of, one_sided

METHOD = methods.FLOOR_LEVEL

__all__ = ["bound", "share_bound", "floor_kind", "counts_values", "floor_level_certificate"]


def counts_values(d) -> bool:
    """Is ``d``'s declared class level the number of values a class holds (an integer, >= 1 in every class)?"""
    from implgraph.definitions._classes import GenericClass
    declared = None if d is None else d.declared(ClassLevel)
    if declared is None:
        return False
    cls = GenericClass()
    try:
        return sympy.simplify(sympy.sympify(declared.formula(cls)) - cls.k) == 0
    except (TypeError, ValueError):
        return False


def _skewed(formula, cls, e, m):
    """A declared class formula at the class (1 - e, e/(m - 1), ...) over m values, 0 < e < 1/2 (its top 1 - e)."""
    expr = sympy.sympify(formula).subs({cls.k: m, cls.top: 1 - e}).doit()
    return expr.subs({cls.q[n + 1]: x for n, x in enumerate([1 - e] + [e / (m - 1)] * (m - 1))})


def _param(d, params):
    """``(declaration, k)``: ``d``'s declared floor above its weakest level with the level it is there, and k at
    ``params`` (an integer >= 1 or a symbol), or None."""
    declared = None if d is None else d.declared(MinClassSizeAboveWeakest)
    if declared is None or not declared.level_of:
        return None
    value = (params or {}).get(declared.param)
    if value is None or isinstance(value, Word):
        return None
    k = sympy.sympify(value)
    return (declared, k) if (k.is_Integer and k >= 1) or k.is_Symbol else None


def floor_kind(a, a_params, b, b_params):
    """``"same"`` (A declares the floor, B the level it is there), ``"size"`` (A the smallest class's size, B declares
    the floor), or None; X's class level the number of values a class holds."""
    from implgraph.definitions import get
    found = _param(a, a_params)
    if found is not None and found[0].level_of == b.name and not b_params and counts_values(b) \
            and a.stronger == b.stronger == "larger":
        return "same"
    found = _param(b, b_params)
    if found is not None and a.has(ClassSizeLevel) and counts_values(get(found[0].level_of)):
        return "size"
    if _param(a, a_params) is not None and b.has(ClassSizeLevel) and a.stronger == "larger":
        return "floor"
    found = _param(a, a_params)
    if found is not None and counts_values(get(found[0].level_of)) and b.stronger == "larger" and not b_params \
            and skew_tends_to_weakest(b):
        return "skew"
    found = _param(a, a_params)
    if found is not None and a.stronger == "larger" and share_shape(b, b_params) is not None:
        return "share"
    return None


def share_shape(b, b_params):
    """``"ratio"`` (``b`` a one-sided ratio of averages over classes, no distance), ``"tv"`` (a class's total
    variation distance from the table) or ``"divergence"`` (a class's KL or Renyi-2 divergence from the table),
    smaller stronger; else None."""
    if b is None or b.stronger != "smaller":
        return None
    div = divergence_of(b, b_params)
    if div is not None and div.compares == "class" and (div.kind == "kl" or (div.kind == "renyi" and div.order == 2)):
        return "divergence"
    distance = class_distance_of(b, b_params)
    if distance is None and one_sided(b, "class"):
        return "ratio"
    return "tv" if distance == "total-variation" else None


def skew_tends_to_weakest(b) -> bool:
    """Does ``b``'s declared class level at the skewed class (1 - e, e/(m - 1), ...) tend to its weakest raw level as
    e -> 0+, at m = 2, 3, 5 values (its level not the number of values)?"""
    from implgraph.definitions._classes import GenericClass
    declared = None if b is None else b.declared(ClassLevel)
    if declared is None or counts_values(b) or b.level_scale.weakest_depends_on_N:
        return False
    e, cls = sympy.Symbol("e", positive=True), GenericClass()
    w = sympy.sympify(b.raw_from_level(b.weakest()))
    try:
        return all(sympy.limit(sympy.sympify(b.raw_from_level(_skewed(declared.formula(cls), cls, e, m))), e, 0, "+")
                   == w for m in (2, 3, 5))
    except (TypeError, ValueError, NotImplementedError):
        return False


def _applies(ctx):
    """A and B of a kind of the module notes but ``share``, any partition."""
    return _kind(ctx) not in (None, "share")


def _shares(ctx):
    """A and B of the kind ``share``, any partition (tried before the one-sided ceiling's N/k, an upper bound)."""
    return _kind(ctx) == "share"


def _kind(ctx):
    """The kind of the module notes of ``ctx``'s A and B on any partition, or None."""
    if ctx.a is None or not any_partition(ctx.a_classes) or not any_partition(ctx.b_classes):
        return None
    return floor_kind(ctx.a, ctx.a_params, ctx.b, ctx.b_params)


def _bound_of(ctx, kind):
    """``(U, where, argument)`` of the module notes."""
    if kind == "same":
        declared, k = _param(ctx.a, ctx.a_params)
        w = sympy.sympify(ctx.a.raw_from_level(ctx.a.weakest()))
        where = sympy.true if k.is_Integer and k <= 2 else sympy.Ge(ctx.N, k)
        return sympy.ceiling(T), where, (
            f"above its weakest level {w} (T > {w} on the domain) {ctx.a.name} declares every class at least "
            f"{declared.param} = {k} records and its level {ctx.b.name}'s there, whose level is a class's number of "
            f"values, an integer: {ctx.b.name} >= ceiling(T); one class of N >= {k} records uniform over the same "
            "ceiling(T) values has both at ceiling(T): tight")
    if kind == "floor":
        declared, k = _param(ctx.a, ctx.a_params)
        return sympy.Piecewise((ctx.N, ctx.N < 2 * k), (k, True)), sympy.true, (
            f"above its weakest level {ctx.a.name} declares every class at least {declared.param} = {k} records; on "
            f"N < 2 {k} records two such classes do not fit, so there is one class, of N records: {ctx.b.name}, the "
            f"smallest class's size, is at least N below 2 {k} records, else at least {k}. Attained by records "
            f"uniform over the same ceiling(T) values in one class (N < 2 {k}) or in two of {k} and N - {k}")
    if kind == "share":
        return _share_bound(ctx)
    if kind == "skew":
        w = sympy.sympify(ctx.b.raw_from_level(ctx.b.weakest()))
        return w, T <= 1, (
            f"{ctx.b.name}'s weakest level {w} is met by every table; one class of N records, each (1 - e, e/(m - 1), "
            f"...) over m = ceiling(T) values, has {ctx.a.name} = m >= T (classes of N >= k records, m values held) "
            f"and {ctx.b.name}'s declared class level tending to {w} as e -> 0: the supremum, approached; attained "
            f"only where T <= 1 (one value: {ctx.b.name} at {w} needs a class of one value, {ctx.a.name} <= 1)")
    declared, k = _param(ctx.b, ctx.b_params)
    where = sympy.And(sympy.Or(T > k - 1, T <= 1), T <= ctx.N)     # (a class of >= T records: T <= N)
    return sympy.Piecewise((1, T > k - 1), (0, True)), where, (
        f"{ctx.a.name}'s level is its smallest class's size: at T > {k} - 1 every class has at least ceiling(T) >= "
        f"{k} records, {ctx.b.name}'s floor above its weakest level, so {ctx.b.name} is {declared.level_of}'s level, "
        "a class's number of values, at least 1; elsewhere its weakest, 0. Attained by one class of N one-hot "
        "records (A = N >= T, B = 1) and, at T <= 1, by singleton classes (A = 1, B = 0)")


def _share_bound(ctx):
    """``share``: U, where (every T) and the argument (module notes)."""
    declared, k = _param(ctx.a, ctx.a_params)
    N, shape = ctx.N, share_shape(ctx.b, ctx.b_params)
    small, big = {"ratio": (1, N / k), "tv": (0, (N - k) / N), "divergence": (0, sympy.log(N / k))}[shape]
    what = {"ratio": "its ratio at most N/k", "tv": "its total variation distance from the table at most (N - k)/N",
            "divergence": "its ratios to the table at most N/k, its divergence at most log(N/k)"}[shape]
    return sympy.Piecewise((small, N < 2 * k), (big, True)), sympy.true, (
        f"above its weakest level {ctx.a.name} declares every class at least {declared.param} = {k} records, so a "
        f"class holds at least {k}/N of the table (values >= 0): {ctx.b.name}, {what}; on N < 2 {k} records two "
        f"such classes do not fit, one class, the table: {small}. Attained by one class of N records uniform over the "
        f"same m = ceiling(T) values (N < 2 {k}), else {k} records uniform over m values in one class and N - {k} "
        "over m others in another")


@argument(METHOD, order=50.5, applies=_shares)
def share_bound(ctx):
    """``share``'s U (module notes); None where the checker does not accept its certificate."""
    return bound(ctx)


@argument(METHOD, order=199.6, applies=_applies)
def bound(ctx):
    """U of the module notes; None where the checker does not accept its certificate."""
    kind = floor_kind(ctx.a, ctx.a_params, ctx.b, ctx.b_params)
    U, where, arg = _bound_of(ctx, kind)
    k = _param(ctx.a, ctx.a_params)[1] if kind in ("floor", "share") else None
    buckets = {"same": sympy.ceiling(T), "floor": sympy.ceiling(T), "share": 2 * sympy.ceiling(T)}.get(kind, 2)
    found = Bound(U, True, METHOD.name, f"(method floor-level) {arg}", build=lambda point: _build(kind, point, k),
                  checks=[f"the floor's kind: {kind}: True"], buckets=buckets, attained_where=where)
    return found if accepted(ctx, found) else None


def family_rows(kind, N, t, k=None):
    """The attaining table at N records and A's level t (numbers): ``(rows, classes)``."""
    from fractions import Fraction
    if kind == "skew":       # (attained at t <= 1: every record on one value)
        return [[Fraction(1), Fraction(0)] for _ in range(N)], ["E1"] * N
    if kind == "share":
        m = int(sympy.ceiling(t))
        if N < 2 * k:
            return [[Fraction(1, m)] * m + [Fraction(0)] * m for _ in range(N)], ["E1"] * N
        return ([[Fraction(1, m)] * m + [Fraction(0)] * m for _ in range(k)]
                + [[Fraction(0)] * m + [Fraction(1, m)] * m for _ in range(N - k)], ["E1"] * k + ["E2"] * (N - k))
    if kind in ("same", "floor"):
        m = int(sympy.ceiling(t))
        return [[Fraction(1, m)] * m for _ in range(N)], ["E1"] * N if kind == "same" or k is None or N < 2 * k \
            else ["E1"] * k + ["E2"] * (N - k)
    if t <= 1:
        return [[Fraction(1), Fraction(0)] for _ in range(N)], [f"R{i + 1}" for i in range(N)]
    return [[Fraction(1), Fraction(0)] for _ in range(N)], ["E1"] * N


def _build(kind, point, k=None):
    """The attaining table at a point (N, T and the parameters' values)."""
    from implgraph.core.concrete import ConcreteTable
    N = int(next(v for k, v in point.items() if str(k) == "N"))
    t = sympy.sympify(next(v for k, v in point.items() if str(k) == "T"))
    if k is not None:
        k = int(sympy.sympify(k).xreplace({key: v for key, v in point.items() if isinstance(key, sympy.Symbol)}))
    rows, classes = family_rows(kind, N, t, k)
    return ConcreteTable.from_fractions(rows, classes=classes)


@certificate_parts(METHOD, whole=True)
def floor_level_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """U and the family's kind (module notes)."""
    from implgraph.prover.certificate import FORMAT, side, symbols_and_domain
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    kind = floor_kind(a, a_params, b, b_params)
    where = bound.attained_where
    fam = {"kind": kind}
    if where is not sympy.true:
        fam["domain"] = [str(where)]
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain,
            "A": side(a, a_params, a_classes, N), "B": side(b, b_params, b_classes, N), "upper": str(bound.upper),
            "tight": True, "argument": bound.argument, "family": fam}
