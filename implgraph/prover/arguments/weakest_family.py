"""``weakest-family``: B's weakest level is the tight f under A, attained by a family (docs/arguments/).

Every table meets B's weakest level (its registered scale declares it), so A => B holds at that level whatever A is;
this argument shows that it holds at no stronger level for any level T of A: a family of tables, for every N >= 2,
that meets A at T and has B exactly at its weakest level. The tight f is then B's weakest level, known (the cell is a
trivial implication whose tight f is known, not "undecided beyond a trivial f"). Read from declarations only:

A
    a class level declared for a class uniform over m values (``uniform_class_level``), improving strictly with m:
    m = :func:`~implgraph.definitions.class_bounds.uniform_values` meets T (the l-diversities, (alpha,k)-anonymity where
    T > 1); or a tail ratio with parameter l (recursive (c,l)-diversity: a class uniform over at least l values is at
    level 1, the strongest); or a minimum class size above the weakest level with the level it is where the floor holds
    (``MinClassSizeAboveWeakest`` with ``level_of``: p-sensitive k-anonymity, distinct l-diversity's there), m =
    Max(1, that level's uniform values). A declared minimum class size s (``MinClassSize`` or
    ``MinClassSizeAboveWeakest``) must be an integer or a symbol, met by a class of all N records where N >= s. A
    without a minimum class size and without a class-size level is needed for the singleton family.
B and its family
    ``lone-record`` (B a total variation or a hockey-stick at a number gamma >= 1, between two records or between the
    table and the table without one record: weakest 1, or 1/N; or B a one-sided ratio of one record to the table,
    weakest N, where A's floor holds above its weakest level only: elsewhere the one-sided ceiling's family answers):
    one record uniform over m values of its own and the N - 1 others uniform over (N - 1) m other values, all N in one
    class. The class is uniform over N m >= m values (each value 1/(N m) of the class's mass), so A meets T; the lone
    record's support is disjoint from every other record's, so its total variation and hockey-stick against another
    record are 1, the table's against the table without it 1/N (P - Q_1 = (x_1 - Q_1)/N, disjoint supports), and its
    ratio to the table's mean on its values N.
    ``singletons`` (B the smallest class's size, weakest 1; or B a minimum class size k above its weakest level with
    k >= 2, stated where k is a symbol: a class of one record is at B's weakest): N records uniform over the same m
    values, each its own class: each class uniform over m values meets A at T, and B is at its weakest.

The certificate (method ``weakest-family``) holds U = B's weakest raw level and the family (block counts in N, values
in T); :mod:`implgraph.certify.lemmas.weakest_family` re-checks that U is the registry's weakest level of B, B's level
of the family symbolically in N and m, and A's registered level at sampled N and T; the argument answers only where
the checker accepts.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.formula import Word
from implgraph.definitions.capabilities import ClassSizeLevel, MinClassSize, MinClassSizeAboveWeakest
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.certificate import accepted
from implgraph.prover.parts import tail_param
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, declared_subset_size, ratio_sides

METHOD = methods.WEAKEST_FAMILY

__all__ = ["bound", "family_blocks", "family_rows", "b_kind", "weakest_family_certificate"]


def b_kind(b, b_params):
    """The family B's declarations call for: ``"lone-record"`` (a total variation or hockey-stick at a number gamma >= 1
    between records or on record removal; a one-sided ratio of one record to the table), ``"singletons"`` (the
    smallest class's size; a minimum class size k above the weakest level, where k >= 2), or None."""
    div = divergence_of(b, b_params)
    if div is not None and div.compares in ("pairs", "removal"):
        if div.kind == "tv":
            return "lone-record"
        order = sympy.sympify(div.order) if div.kind == "hockey-stick" else None
        if order is not None and order.is_number and order.is_finite and bool(order >= 1):
            return "lone-record"
        return None
    if div is None and ratio_sides(b) == "one-sided" and declared_subset_size(b, sympy.Symbol("N"), b_params) == 1:
        return "lone-record"
    if b.has(ClassSizeLevel) or b_floor_where(b, b_params) is not None:
        return "singletons"
    return None


def b_floor_where(b, b_params):
    """Where B's declared minimum class size above its weakest level, k, is at least 2 (a one-record class is then at
    B's weakest): True for a number k >= 2, ``k >= 2`` for a symbol, None otherwise (or where B declares none)."""
    declared = b.declared(MinClassSizeAboveWeakest)
    value = None if declared is None else (b_params or {}).get(declared.param)
    if value is None or isinstance(value, Word):
        return None
    k = sympy.sympify(value)
    if k.is_number:
        return sympy.true if k.is_Integer and k >= 2 else None
    return sympy.Ge(k, 2) if k.is_Symbol else None


def family_blocks(kind, m, N):
    """The family's blocks ``[(count, values, class)]``: records of a block uniform over that block's values (shared
    within the block, disjoint from the other blocks'); class ``"own"``: each record its own class."""
    if kind == "lone-record":
        return [(sympy.Integer(1), m, "E1"), (N - 1, (N - 1) * m, "E1")]
    return [(N, m, "own")]


def family_rows(blocks):
    """The family's rows and class labels at a point (numbers): ``(rows, classes)``."""
    from fractions import Fraction
    width = sum(int(v) for c, v, _ in blocks if int(c))
    rows, classes, first = [], [], 0
    for c, v, label in blocks:
        c, v = int(c), int(v)
        if not c:
            continue
        for i in range(c):
            rows.append([Fraction(1, v) if first <= l < first + v else Fraction(0) for l in range(width)])
            classes.append(f"R{len(rows)}" if label == "own" else label)
        first += v
    return rows, classes


def _floor(ctx):
    """``(s, ok)``: A's declared minimum class size at its parameters (1 where none), and whether it is an integer (a
    number, or a symbol: the family's class of N records then asks N >= s)."""
    declared = ctx.a.declared(MinClassSize) or ctx.a.declared(MinClassSizeAboveWeakest)
    if declared is None:
        return sympy.Integer(1), True
    value = (ctx.a_params or {}).get(declared.param)
    s = None if value is None or isinstance(value, Word) else sympy.sympify(value)
    if s is not None and s.is_Symbol:
        return s, True
    return (s, True) if s is not None and s.is_Integer and s >= 1 else (None, False)


def _values(ctx):
    """``(m, where, how)``: the values a uniform class needs to meet T, or None."""
    from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values
    tail = tail_param(ctx)
    if tail is not None:
        return tail, sympy.true, (f"{ctx.a.name}'s level is a tail ratio with l = {tail}: a class uniform over at "
                                  "least l values is at level 1, the strongest")
    above = ctx.a.declared(MinClassSizeAboveWeakest)
    if above is not None and above.level_of:
        from implgraph.definitions import get
        x = get(above.level_of)
        found = uniform_values(x, T) if x is not None and x.stronger == ctx.a.stronger else None
        if found is None:
            return None
        m, where = sympy.Max(1, found[0]), found[1]
        return m, where, (f"{ctx.a.name}'s level on a table whose classes have at least {above.param} records is "
                          f"{x.name}'s (its declaration), whose raw level of a class uniform over m values is "
                          f"{uniform_class_raw(x)}, improving with m; m = {m} meets T")
    found = uniform_values(ctx.a, T)
    if found is None:
        return None
    m, where = found
    return m, where, (f"{ctx.a.name}'s raw level of a class uniform over m values is {uniform_class_raw(ctx.a)} (its "
                      f"declared class level), improving with m, the table's its worst class's; m = {m} meets T")


def _applies(ctx):
    """A's class level improving with a uniform class's values (or a tail ratio), B of a kind with a family."""
    if ctx.a is None or ctx.a.has(ClassSizeLevel) or not (any_partition(ctx.a_classes)
                                                          and any_partition(ctx.b_classes)):
        return False
    kind = b_kind(ctx.b, ctx.b_params)
    if kind is None or _values(ctx) is None:
        return False
    if kind == "lone-record" and divergence_of(ctx.b, ctx.b_params) is None \
            and ctx.a.declared(MinClassSizeAboveWeakest) is None:
        return False        # (a ratio of one record to the table: the one-sided ceiling's family answers, module notes)
    s, ok = _floor(ctx)
    floorless = ctx.a.declared(MinClassSize) is None and ctx.a.declared(MinClassSizeAboveWeakest) is None
    return ok and (kind == "lone-record" or floorless)       # (singletons: A without a class floor, module notes)


def _where(kind, where, ctx, N):
    """Where the family exists: ``where`` and, for the lone-record family, N at least A's class floor; for the
    singletons, B's minimum class size above its weakest at least 2 (:func:`b_floor_where`)."""
    s, _ = _floor(ctx)
    if kind == "lone-record" and not (s.is_Integer and s <= 2):
        where = sympy.And(where, N >= s)
    if kind == "singletons" and ctx.b.declared(MinClassSizeAboveWeakest) is not None:
        where = sympy.And(where, b_floor_where(ctx.b, ctx.b_params))
    return where


@argument(METHOD, order=199.7, applies=_applies)
def bound(ctx):
    """B's weakest level, attained by the family (module notes); None where the checker does not accept it."""
    kind = b_kind(ctx.b, ctx.b_params)
    m, where, how = _values(ctx)
    where = _where(kind, where, ctx, ctx.N)
    s, _ = _floor(ctx)
    weakest = sympy.sympify(ctx.b.raw_from_level(ctx.b.weakest(ctx.N)))
    if kind == "lone-record":
        fam = (f"one record uniform over m values of its own and the N - 1 others uniform over (N - 1) m other values, "
               f"all in one class of N records{'' if s == 1 else f' (at least {s}, A minimum class size)'}: the class "
               "is uniform over N m >= m values, so A meets T; the lone record's support is disjoint from every other "
               f"record's, so {ctx.b.name}'s compared divergence is at its weakest {weakest} (1 between two records "
               "with disjoint supports; 1/N between the table and the table without the lone record)")
    elif ctx.b.has(ClassSizeLevel):
        fam = ("N records uniform over the same m values, each its own class: each class is uniform over m values, so "
               f"A meets T, and {ctx.b.name}'s level, the smallest class's size, is 1, its weakest")
    else:
        fam = ("N records uniform over the same m values, each its own class: each class is uniform over m values, so "
               f"A meets T, and each class has 1 record, fewer than {ctx.b.name}'s minimum class size above its "
               f"weakest level (at least 2), so {ctx.b.name} is at its weakest")
    arg = (f"{ctx.b.name}'s weakest level {ctx.b.weakest(ctx.N)} is met by every table, and it is the tight f whatever "
           f"{ctx.a.name}'s level T{'' if where is sympy.true else f' with {where}'} (method weakest-family): {how}; "
           f"{fam}")
    blocks = family_blocks(kind, m, ctx.N)

    def build(point):
        from implgraph.core.concrete import ConcreteTable
        at = [(sympy.sympify(c).subs(point), sympy.sympify(v).subs(point), k) for c, v, k in blocks]
        rows, classes = family_rows(at)
        return ConcreteTable.from_fractions(rows, classes=classes)

    found = Bound(weakest, True, METHOD.name, arg, build=build,
                  checks=[f"A ({ctx.a.name}): a uniform class meets T at m = {m}: True",
                          f"B ({ctx.b.name}): its weakest level on the {kind} family: True"],
                  buckets=sum((v for _, v, _ in blocks), sympy.Integer(0)), attained_where=where)
    return found if accepted(ctx, found) else None


@certificate_parts(METHOD, whole=True)
def weakest_family_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """U = B's weakest raw level, and the family (module notes)."""
    from implgraph.prover.certificate import FORMAT, side, symbols_and_domain
    ctx = _Ctx(a, b, a_params, b_params, a_classes, b_classes, N)
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    m, where, _ = _values(ctx)
    kind = b_kind(b, b_params)
    where = _where(kind, where, ctx, N)
    fam = {"kind": kind, "blocks": [{"count": str(c), "values": str(v), "class": k}
                                    for c, v, k in family_blocks(kind, m, N)]}
    if where is not sympy.true:
        fam["domain"] = [str(c) for c in sorted(sympy.And.make_args(where), key=sympy.default_sort_key)]
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain,
            "A": side(a, a_params, a_classes, N), "B": side(b, b_params, b_classes, N), "upper": str(bound.upper),
            "tight": True, "argument": bound.argument, "family": fam}


class _Ctx:
    """The fields of a proof context the helpers read."""

    def __init__(self, a, b, a_params, b_params, a_classes, b_classes, N):
        self.a, self.b, self.a_params, self.b_params = a, b, a_params, b_params
        self.a_classes, self.b_classes, self.N = a_classes, b_classes, N
